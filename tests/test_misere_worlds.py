"""Defending an open misère over sampled worlds solved double dummy (``club``'s ``misere_worlds``,
``fivehundred.bots.solved_worlds.best_card``), on a hand from a full deal: the heuristic defence lets it
through, the searching defence beats it by the unblock a 500 player would find, the same way every time."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import fivehundred
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import tuned_for
from fivehundred.engine.state import CALL, PASS_ACTION, GameState, HandLog
from fivehundred.rules.cards import card_str, parse_cards
from fivehundred.rules.manager import compile_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from misere_defence import open_misere_hands  # benchmarks/misere_defence.py

RULESET = fivehundred.load_ruleset("pagat-australian")
RULES = compile_rules(RULESET)
SOUTH = 2


def the_hand() -> tuple[list[int], HandLog]:
    """S's open misère of ``benchmarks/misere_defence.py``'s games (seed 30, game 2, hand 10)."""
    found = open_misere_hands(RULESET, "club", 3, 30)
    _, _, totals, log = next(h for h in found if h[:2] == (2, 10))
    return totals, log


def play(totals: list[int], log: HandLog, worlds: int) -> tuple[bool, list[str]]:
    """The hand played again: ``club`` as the contractor, ``club`` with ``misere_worlds`` ``worlds`` defending;
    whether the misère was made, and the tricks."""
    state = GameState(RULES, first_dealer=log.dealer)
    state.start_at(totals, log.number)
    state.deal_cards(log.hands, log.kitty, log.dead)
    for _, call in log.calls:
        state.apply(CALL + call if call >= 0 else PASS_ACTION)
    defence = tuned_for(RULESET).model_copy(update={"misere_worlds": float(worlds)})
    seats = [ClubPlayer(s, random.Random(s), None if s == SOUTH else defence) for s in range(4)]
    while state.hands_log[0].outcome is None:
        seat = state.current_player()
        state.apply(seats[seat].act(state, state.legal_actions()))
    done = state.hands_log[0]
    assert done.outcome is not None
    return bool(done.outcome.made), [" ".join(card_str(c) for c in t.cards) for t in done.tricks]


def test_the_searching_defence_unblocks_and_beats_the_misere_the_heuristic_lets_through() -> None:
    totals, log = the_hand()
    contract = log.contract
    assert log.contractor == SOUTH and contract is not None and contract.kind == "misere" and contract.open
    # S: clubs 5 7 8 9 10 A, diamonds 4 8 9, heart 4: the kill is in diamonds, under S's 8 9, once E's king is gone
    assert set(parse_cards("5C 7C 8C 9C 10C AC 8D 9D")) <= set(log.hands[SOUTH]) | set(log.kitty)
    made, tricks = play(totals, log, 0)
    assert made, tricks  # the heuristic keeps E's king of diamonds: W's low diamonds cannot get under S's
    made, tricks = play(totals, log, 8)
    assert not made, tricks
    assert "KD" in tricks[1].split(), tricks  # E throws the king under W's diamond lead: the unblock
    assert play(totals, log, 8) == (made, tricks)  # the worlds are seeded by what the seat has seen
