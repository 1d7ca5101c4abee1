"""Defending an open misère over sampled worlds solved double dummy (``club``'s ``misere_worlds``,
``fivehundred.bots.solved_worlds.best_card``), on a hand from a full deal: the heuristic defence lets it
through, the searching defence beats it by the unblock a 500 player would find, the same way every time."""

from __future__ import annotations

import random

import fivehundred
from fivehundred.bots.club import ClubPlayer, _in_reach
from fivehundred.bots.params import tuned_for
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.cards import card_str, parse_cards
from fivehundred.rules.manager import compile_rules

RULESET = fivehundred.load_ruleset("pagat-australian")
RULES = compile_rules(RULESET)
SOUTH = 2
DEAL = ["5S 6S 7S KS KC QD AD 9H 10H AH", "8S 10S JC QC 5D KD 5H 6H 8H JK",
        "9S 5C 7C 8C 9C 10C 4D 8D 9D 4H", "JS QS 6C 6D 7D 10D JD 7H JH KH"]
KITTY = "AS AC QH"
CALLS = ["6D", "6H", "7S", "open-misere", "pass", "pass", "pass"]
"""Hand 10 of a seeded club game (S dealt, N-S 240, E-W 70): W opens 6♦, S bids open misère over E's 7♠."""
MISERE_EXCHANGE = 8
"""The reference set's ``misere_exchange_worlds``."""
CONTRACTOR = tuned_for(RULESET).model_copy(update={"misere_exchange_worlds": 0.0})
"""South: the shipped set, its discards by rules of thumb (the hand as it was played)."""


def play(worlds: int | str, cards: float = 32.0) -> tuple[bool, list[str]]:
    """The hand played: ``club`` as the contractor, ``club`` with ``misere_worlds`` ``worlds`` defending from
    ``misere_cards`` ``cards`` (a string: ``club:ARG``'s defenders, ``club`` for ""); whether the misère was made, and
    the tricks."""
    state = GameState(RULES, first_dealer=SOUTH)
    state.start_at([240, 70], 10)
    state.deal_cards([parse_cards(h) for h in DEAL], parse_cards(KITTY), [])
    for call in CALLS:
        state.apply(state.parse_action(call))
    if isinstance(worlds, str):
        seats = [ClubPlayer(s, random.Random(s), CONTRACTOR) if s == SOUTH
                 else ClubPlayer.from_spec(s, random.Random(s), worlds) for s in range(4)]
    else:
        defence = tuned_for(RULESET).model_copy(update={"misere_worlds": float(worlds), "misere_cards": cards})
        seats = [ClubPlayer(s, random.Random(s), CONTRACTOR if s == SOUTH else defence) for s in range(4)]
    while state.hands_log[0].outcome is None:
        if state.phase == Phase.PLAY and not state.hand_log.tricks and not state.trick:
            # S kept clubs 5 7 8 9 10 A, diamonds 4 8 9, heart 4: the kill is in diamonds, once E's king is gone
            assert sorted(state.hand(SOUTH)) == sorted(parse_cards("5C 7C 8C 9C 10C AC 4D 8D 9D 4H"))
        seat = state.current_player()
        state.apply(seats[seat].act(state, state.legal_actions()))
    done = state.hands_log[0]
    assert done.contractor == SOUTH and done.contract is not None and done.contract.call == "open-misere"
    assert done.outcome is not None
    return bool(done.outcome.made), [" ".join(card_str(c) for c in t.cards) for t in done.tricks]


def test_the_searching_defence_unblocks_and_beats_the_misere_the_heuristic_lets_through() -> None:
    made, tricks = play(0)
    assert made, tricks  # the heuristic keeps E's king of diamonds: W's low diamonds cannot get under S's
    made, tricks = play(8)
    assert not made, tricks
    assert "KD" in tricks[1].split(), tricks  # E throws the king under W's diamond lead: the unblock
    assert play(8) == (made, tricks)  # the worlds are seeded by what the seat has seen


def test_club_searches_with_its_tuned_set_and_club_fast_does_not() -> None:
    """The reference's shipped set searches 16 worlds defending an open misère and 16 playing one, and a misère's
    discards over MISERE_EXCHANGE worlds (docs/players.md); ``club:fast`` does all three by rules of thumb."""
    shipped = tuned_for(RULESET)
    assert (shipped.misere_worlds, shipped.misere_own_worlds, shipped.misere_exchange_worlds) == (16, 16,
                                                                                                  MISERE_EXCHANGE)
    fast = tuned_for(RULESET, search=False)
    assert fast.misere_worlds == fast.misere_own_worlds == fast.misere_exchange_worlds == 0
    assert fast.model_copy(update={"misere_worlds": 16.0, "misere_own_worlds": 16.0,
                                   "misere_exchange_worlds": float(MISERE_EXCHANGE),
                                   "misere_bid_worlds": shipped.misere_bid_worlds}) == shipped
    assert play("") == play(16)
    assert not play("")[0]
    assert play("fast") == play(0)
    assert play("fast:pagat-australian") == play(0)


def test_the_search_starts_once_the_seats_playing_hold_misere_cards() -> None:
    """The unblock is E's card at the second trick, when the three seats playing hold nine cards each: a search from
    27 cards finds it, one from 26 (the third trick on) comes too late and lets the misère through as the heuristic
    does.  The shipped 32 takes the whole hand of three seats; at four seats playing (six-handed: the contractor and
    three defenders, ten cards each) it is eight cards a seat."""
    assert tuned_for(RULESET).misere_cards == 32
    assert [tuned_for(r).misere_worlds for r in ("six-handed", "six-handed-two-jokers", "six-handed-three-teams")] \
        == [16, 16, 0]
    assert play(16, 27) == play(16)
    assert play(16, 26)[0] and not play(16, 27)[0]
    six = compile_rules(fivehundred.load_ruleset("six-handed"))
    state = GameState(six, first_dealer=0)
    state.start_at([0, 0], 1)
    state.deal(random.Random(3))
    for call in ["open-misere"] + ["pass"] * 5:
        state.apply(state.parse_action(call))
    while state.phase != Phase.PLAY:  # the contractor's discards
        state.apply(state.legal_actions()[0])
    defender = state.current_player()
    assert len(state.sitting_out) == 2 and defender not in state.sitting_out and len(state.hand(defender)) == 10
    assert [_in_reach(state, defender, 39.0), _in_reach(state, defender, 40.0)] == [False, True]
