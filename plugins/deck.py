"""Building the deck, the dealing pattern and the first dealer (rules 1–2, 5–6; variant D5)."""

from __future__ import annotations

import random

from fivehundred.rules.cards import JOKER_BASE, make_card, parse_rank, parse_suit, rank_of
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset


@hookimpl(trylast=True)
def fivehundred_build_deck(ruleset: Ruleset) -> list[int]:
    cards = [make_card(parse_suit(s), parse_rank(r)) for s, ranks in ruleset.deck.suits.items() for r in ranks]
    return cards + [JOKER_BASE + n for n in range(ruleset.deck.jokers)]


@hookimpl(trylast=True)
def fivehundred_deal_pattern(ruleset: Ruleset) -> list[tuple[str, int]]:
    return [("each", p.each) if p.each is not None else ("kitty", p.kitty) if p.kitty is not None
            else ("dead", p.dead or 0) for p in ruleset.deal.packets]


@hookimpl(trylast=True)
def fivehundred_first_dealer(ruleset: Ruleset, rng: random.Random) -> int:
    players = len(ruleset.players.seats)
    if ruleset.deal.first_dealer == "random":  # one draw, as a random player chooses (randrange costs more)
        return int(rng.random() * players)
    # D5: each player cuts a card; the lowest deals (jokers high, earlier seat on a tie).
    cut = rng.sample(fivehundred_build_deck(ruleset), players)
    return min(range(players), key=lambda seat: (cut[seat] >= JOKER_BASE, rank_of(cut[seat])))


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    deck = len(fivehundred_build_deck(ruleset))
    pattern = fivehundred_deal_pattern(ruleset)
    players = len(ruleset.players.seats)
    dealt = sum(n * (players if t == "each" else 1) for t, n in pattern)
    if dealt != deck:
        kitty = sum(n for t, n in pattern if t == "kitty")
        each = sum(n for t, n in pattern if t == "each")
        dead = sum(n for t, n in pattern if t == "dead")
        to_dead = f", {dead} to the dead hand" if dead else ""
        return [("deal", f"the deal gives {each} cards to each of {players} players and {kitty} to the kitty"
                 f"{to_dead} ({dealt} cards) but the deck has {deck}")]
    return []
