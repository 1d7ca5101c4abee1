"""Trick-taking tables: trumps and bowers, no-trumps, misère, and the joker (rules 3–4, 16–23)."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.cards import JACK, JOKER_BASE, MAX_CARD, NO_SUIT, rank_of, same_colour, suit_of
from fivehundred.markers import hookimpl
from fivehundred.ruleset import Ruleset
from fivehundred.tables import Contract, JokerRules, PlayTable

TOP = 1000  # a joker's power: above every other card
TRUMP = 500  # trumps rank above every card of a plain suit


@hookimpl(trylast=True)
def fivehundred_joker_rules(ruleset: Ruleset, contract: Contract) -> JokerRules:
    if contract.trump is not None:
        return JokerRules(as_trump=True)
    j = ruleset.joker
    void = j.void_play_in_misere if contract.kind == "misere" else j.void_play_in_no_trumps
    return JokerRules(as_trump=False, nominate=j.nomination == "contractor", lead=j.lead, void_play=void)


def plain_tables(deck: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Every card its printed suit; within the suit led, higher rank wins."""
    suit_table = [NO_SUIT] * MAX_CARD
    power = [[0] * MAX_CARD for _ in range(4)]
    for c in deck:
        if c < JOKER_BASE:
            suit_table[c] = suit_of(c)
            power[suit_of(c)][c] = rank_of(c)
    return suit_table, power


@hookimpl(trylast=True)
def fivehundred_trick_table(
    ruleset: Ruleset, contract: Contract, joker: JokerRules, nomination: int | None, deck: Sequence[int]
) -> PlayTable:
    suit_table, power = plain_tables(deck)
    jokers = tuple(c for c in deck if c >= JOKER_BASE)
    trump = contract.trump
    if trump is not None:
        for c in deck:
            strength = trump_strength(c, trump)
            if strength:
                suit_table[c] = trump
                for led in range(4):
                    power[led][c] = TRUMP + strength
        return PlayTable(suit_table, power, jokers)
    free = []
    for j in jokers:
        if nomination is None:
            free.append(j)
            for led in range(4):
                power[led][j] = TOP - (j - JOKER_BASE)
        else:  # rule 19: the highest card of the nominated suit, and of that suit only
            suit_table[j] = nomination
            power[nomination][j] = TOP - (j - JOKER_BASE)
    return PlayTable(suit_table, power, jokers, frozenset(free), joker.lead, joker.void_play == "compulsory",
                     nomination)


def trump_strength(card: int, trump: int) -> int:
    """0 for a non-trump; else higher is stronger: joker, right bower, left bower, A K Q 10 … (rule 3)."""
    if card >= JOKER_BASE:
        return 400 - (card - JOKER_BASE)
    suit, rank = suit_of(card), rank_of(card)
    if rank == JACK and suit == trump:
        return 300
    if rank == JACK and suit == same_colour(trump):
        return 299
    return rank if suit == trump else 0
