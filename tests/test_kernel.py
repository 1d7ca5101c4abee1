"""The play kernel (``fivehundred.engine.kernel``) against the engine: on random play of every shipped
ruleset, the kernel lists the same legal plays as ``GameState.legal_actions()`` at every card and
ends every trick with the same winner, and every hand at the same trick."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import fivehundred
from fivehundred.engine.kernel import KernelError, PlayKernel
from fivehundred.engine.state import GameState, Phase, new_game
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.steps import FIRST_STEP_ACTION

SHIPPED = sorted(ruleset_paths())


def play_phases(name: str, seed: int, hands: int, prefer: tuple[str, ...] = (),
                totals: tuple[int, ...] = ()) -> Iterator[tuple[GameState, random.Random]]:
    """Random games of ruleset ``name``: each hand's state as its play begins (random calls and discards; a call
    named in ``prefer`` made whenever it is legal; each game started at ``totals`` when given)."""
    ruleset = fivehundred.load_ruleset(name)
    rng = random.Random(seed)
    seen = 0
    while seen < hands:
        state, deal_rng = new_game(ruleset, rng.randrange(10**9))
        if totals:
            state.start_at(totals)
        last = -1
        while not state.is_terminal() and seen < hands:
            if state.current_player() < 0:
                state.deal(deal_rng)
                continue
            if state.phase == Phase.PLAY and state.deals != last and not state.trick and not state.hand_log.tricks:
                last = state.deals
                seen += 1
                yield state, rng
                continue
            legal = state.legal_actions()
            wanted = []
            if prefer and state.phase == Phase.AUCTION:  # the preferred call, then passes
                made = any(state.rules.call_text(call) in prefer for _, call in state.hand_log.calls)
                wanted = [a for a in legal if state.action_to_str(a) in (("pass",) if made else prefer)]
                if not wanted:  # climb by the lowest call until the preferred one is legal
                    wanted = [a for a in legal if state.action_to_str(a) != "pass"][:1]
            if prefer and state.phase == Phase.STEP:  # a step's first offer (a look, not a blind bid)
                wanted = legal[:1]
            state.apply(rng.choice(wanted or legal))


def cards(legal: list[int]) -> list[int]:
    return [a for a in legal if a < FIRST_STEP_ACTION]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_kernel_plays_as_the_engine(name: str) -> None:
    tricks = 0
    for state, rng in play_phases(name, 7, 60):
        try:
            kernel, pos = PlayKernel.of(state)
        except KernelError:
            pytest.fail(f"{name}: the kernel refused a shipped ruleset's hand")
        deal = state.deals
        while state.phase == Phase.PLAY and state.deals == deal and not state.is_terminal():
            assert not pos.over
            legal = cards(state.legal_actions())
            assert kernel.legal(pos) == legal
            assert kernel.turn(pos) == state.current_player()
            action = rng.choice(legal)
            before = len(state.hand_log.tricks)
            log = state.hand_log
            state.apply(action)
            winner = kernel.play(pos, action)
            if len(log.tricks) > before:
                tricks += 1
                assert winner == log.tricks[-1].winner
            else:
                assert winner is None
        assert pos.over  # the hand ended where the engine ended it
        assert tuple(pos.won) == tuple(log.tricks_won)
    assert tricks > 100


@pytest.mark.parametrize("name", SHIPPED)
def test_the_kernel_reads_a_position_in_mid_trick(name: str) -> None:
    """A kernel compiled at any card of the play stands where the engine stands."""
    for state, rng in play_phases(name, 11, 15):
        deal = state.deals
        kernel = PlayKernel(state)
        while state.phase == Phase.PLAY and state.deals == deal and not state.is_terminal():
            pos = PlayKernel(state).position(state)
            legal = cards(state.legal_actions())
            assert kernel.legal(pos) == legal
            state.apply(rng.choice(legal))
