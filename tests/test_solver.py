"""The double-dummy solver (``fivehundred.solve``, ``fivehundred.solve_cards``) against exhaustive minimax
over the engine's own ``legal_actions()`` (clone and apply): equal on random endings of every shipped
ruleset, from every card of a trick."""

from __future__ import annotations

from typing import Any

import pytest
from test_kernel import play_phases

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.ruleset import ruleset_paths
from fivehundred.rules.steps import FIRST_STEP_ACTION

SHIPPED = sorted(ruleset_paths())


def side_tricks(state: GameState, deal: int) -> int:
    log = state.hands_log[deal - 1]
    return sum(log.tricks_won[s] for s in log.outcome.side)


def minimax(state: GameState, memo: dict[Any, int] | None = None) -> int:
    """The side's total tricks with best play for the contract's goal, every card tried through the engine."""
    memo = {} if memo is None else memo
    contract, side, deal = state.contract, state.contracting_side, state.deals
    goal, k = contract.goal, contract.tricks

    def badness(t: int) -> int:  # what the side minimises, the others maximise
        return -t if goal == "at-least" else t if goal == "none" else 2 * abs(t - k) - (t < k)

    def node(s: GameState) -> tuple[int, int]:
        if s.deals != deal or s.phase != Phase.PLAY:
            t = side_tricks(s, deal)
            return badness(t), t
        key = (tuple(s.hand(seat) for seat in range(s.rules.players)), s.trick, s.trick_leader,
               s.tricks_won_by_seat, tuple(tuple(t.cards) for t in s.hand_log.tricks))
        if key not in memo:
            results = []
            for action in s.legal_actions():
                if action < FIRST_STEP_ACTION:
                    child = s.clone()
                    child.apply(action)
                    results.append(node(child))
            memo[key] = min(results) if s.current_player() in side else max(results)
        return memo[key]

    return node(state)[1]


def endings(name: str, seed: int, count: int) -> list[GameState]:
    """Random positions of the play with at most five tricks left (any card of a trick)."""
    out = []
    for state, rng in play_phases(name, seed, count):
        size = state.rules.hand_size
        left = rng.randint(1, 5 if state.rules.players <= 5 else 4)
        deal = state.deals
        cards_in = rng.randrange(state.rules.players - len(state.sitting_out))
        while state.deals == deal and state.phase == Phase.PLAY and (
                size - len(state.hand_log.tricks) > left or (len(state.trick) < cards_in)):
            state.apply(rng.choice([a for a in state.legal_actions() if a < FIRST_STEP_ACTION]))
        if state.deals == deal and state.phase == Phase.PLAY:
            out.append(state.clone())
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_the_solver_equals_minimax_over_the_engine(name: str) -> None:
    checked = 0
    for state in endings(name, 3, 25):
        expected = minimax(state.clone())
        assert fivehundred.solve(state) == expected, (name, state.hand_log.number)
        cards = fivehundred.solve_cards(state)
        assert sorted(cards) == [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
        for action, value in cards.items():
            child = state.clone()
            child.apply(action)
            assert value == minimax(child), (name, action)
        assert max(cards.values()) >= expected or state.contract.goal != "at-least"
        checked += 1
    assert checked >= 10
