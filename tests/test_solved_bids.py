"""An open misère priced in the auction by search (``club``'s ``misere_bid_worlds``, ``fivehundred.bots.solved_bids``),
on a hand from a full deal: the danger curve prices South's open misère at 0.73 and it would win the game; a 500
player sees the lone ♠9 under four low spades out, and so does the search, which passes; played, the misère is
beaten by the low spade lead."""

from __future__ import annotations

import random

import fivehundred
from fivehundred.bots.club import ClubPlayer, _info, _pricing
from fivehundred.bots.params import tuned_for, without_search
from fivehundred.bots.solved_bids import open_misere_chance
from fivehundred.engine.state import CALL, PASS_ACTION, GameState, Phase
from fivehundred.rules.cards import parse_cards
from fivehundred.rules.manager import compile_rules

RULESET = fivehundred.load_ruleset("pagat-australian")
RULES = compile_rules(RULESET)
SOUTH = 2
DEAL = ["4H 10C JD 10D AH 10S KS QH JS QD", "5S AC 7S 7C 9H KC 8C 7D JH 9C",
        "QS 6H 9S 5H 9D 8H 5D 6D 10H 8D", "6C 5C QC 7H 6S 8S KD KH AD JK"]
KITTY = "JC 4D AS"
CALLS = ["6H", "6NT"]
"""Hand 2 of a seeded ``club`` game (W dealt, N-S 200, E-W 30): N opens 6♥, E calls 6NT; S holds ♠Q 9 ♥10 8 6 5
♦9 8 6 5, no club, and an open misère made would take N-S past 500."""
OPEN_MISERE = CALL + next(r for r, c in enumerate(RULES.ladder) if c.call == "open-misere")
SEARCH = tuned_for(RULESET)
"""The shipped set: 32 worlds (docs/players.md)."""
CURVE = SEARCH.model_copy(update={"misere_bid_worlds": 0.0})


def auction() -> GameState:
    state = GameState(RULES, first_dealer=3)
    state.start_at([200, 30], 2)
    state.deal_cards([parse_cards(h) for h in DEAL], parse_cards(KITTY), [])
    for call in CALLS:
        state.apply(state.parse_action(call))
    assert state.current_player() == SOUTH and state.phase == Phase.AUCTION
    return state


def test_the_curve_bids_the_misere_and_the_search_passes() -> None:
    state = auction()
    legal = state.legal_actions()
    assert ClubPlayer(SOUTH, random.Random(0), CURVE).act(state, legal) == OPEN_MISERE
    searching = ClubPlayer(SOUTH, random.Random(0), SEARCH)
    assert searching.act(state, legal) == PASS_ACTION
    assert ClubPlayer(SOUTH, random.Random(5), SEARCH).act(state, legal) == PASS_ACTION  # a function of the position


def test_the_searched_chance_against_the_curves() -> None:
    state = auction()
    player = ClubPlayer(SOUTH, random.Random(0), SEARCH)
    info = _info(RULES)
    contract = RULES.ladder[OPEN_MISERE - CALL]
    weights = player._params(RULES)
    curve, _ = player.make_chance(SOUTH, player._seen(state, SOUTH), info, _pricing(RULES, info), contract, weights)
    assert curve > 0.7  # priced from the danger alone (no position at hand: the curve)
    fellows = [ClubPlayer(s, random.Random(s), without_search(SEARCH)) for s in range(4)]
    searched = open_misere_chance(state, OPEN_MISERE, 32, fellows, SEARCH.misere_bid_shift)
    assert searched is not None and searched < 0.4
    assert open_misere_chance(state, OPEN_MISERE, 32, fellows, SEARCH.misere_bid_shift) == searched
    unshifted = open_misere_chance(state, OPEN_MISERE, 32, fellows, 0.0)
    assert unshifted is not None and unshifted < searched  # the shift adds to the odds of a seeing defence's deals


def test_bid_the_misere_is_beaten() -> None:
    """The hand as the curve bid it, ``club`` in every seat: the defence leads spades under the ♠9."""
    state = auction()
    seats = [ClubPlayer(s, random.Random(s), CURVE) for s in range(4)]
    state.apply(OPEN_MISERE)
    while state.hands_log[-1].outcome is None:
        seat = state.current_player()
        state.apply(seats[seat].act(state, state.legal_actions()))
    done = state.hands_log[-1]
    assert done.contract is not None and done.contract.call == "open-misere" and done.contractor == SOUTH
    assert done.outcome is not None and not done.outcome.made


def test_club_searches_with_its_tuned_set_and_club_fast_does_not() -> None:
    assert SEARCH.misere_bid_worlds == 32
    assert without_search(SEARCH).misere_bid_worlds == 0
    assert tuned_for(RULESET, search=False).misere_bid_worlds == 0
