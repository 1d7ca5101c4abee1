"""The heuristic player as the Monte Carlo player's rollouts use it: the same choices, made cheaper.

A rollout asks a heuristic player for every card of a hand, and ``state.observation(seat)`` (a frozen
record of twenty fields, the tricks copied into tuples) cost about a third of each such decision.
During the play ``RolloutPlayer`` reads the fields the heuristic's play looks at from the state's
public reading API instead, into a ``PlaySeen`` (the same values as the observation's fields of the
same names: tests/test_montecarlo.py checks them field by field in every shipped ruleset), and keeps
the completed tricks as tuples between its decisions of one hand.  Every other phase goes through
``HeuristicPlayer.act`` unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from fivehundred.engine.state import GameState, HandLog, Observation
from fivehundred.rules.actions import Phase
from fivehundred.rules.steps import FIRST_STEP_ACTION

from .heuristic import HeuristicPlayer, _info

Tricks = tuple[tuple[int, tuple[int, ...], int, int | None], ...]


class PlaySeen:
    """What ``observation(seat)`` shows during the play, limited to the fields the heuristic's play reads."""

    __slots__ = ("calls", "contract", "contractor", "current_trick", "discards", "hand", "leader", "led",
                 "nomination", "open_hand", "open_hands", "phase", "seat", "sitting_out", "step", "tricks",
                 "tricks_won")

    def __init__(self, state: GameState, seat: int, log: HandLog, tricks: Tricks):
        hand, discards, shown = state.cards_seen(seat)
        contractor = log.contractor
        self.seat = seat
        self.phase = Phase.PLAY
        self.hand = hand
        self.discards = discards
        self.open_hands = shown
        self.open_hand = next((cards for s, cards in shown if s == contractor), None) if shown else None
        self.calls = tuple(log.calls)
        self.contract = log.contract
        self.contractor = contractor
        self.nomination = log.nomination
        self.tricks = tricks
        self.current_trick = state.trick
        self.led = state.led_suit
        self.leader = state.trick_leader
        self.tricks_won = state.tricks_won_by_seat
        out = state.sitting_out
        self.sitting_out = min(out) if out else -1
        self.step = None


class RolloutPlayer(HeuristicPlayer):
    """``HeuristicPlayer`` whose play decisions read a ``PlaySeen`` instead of the full observation."""

    def __init__(self, seat: int, rng: random.Random):
        super().__init__(seat, rng)
        self._log: HandLog | None = None
        self._tricks: Tricks = ()

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        if state.phase != Phase.PLAY:
            return super().act(state, legal)
        plays = [a for a in legal if a < FIRST_STEP_ACTION]  # as HeuristicPlayer.act
        if len(plays) == 1:
            return plays[0]
        seat = state.current_player()
        seen = cast(Observation, self.seen(state, seat))  # the fields the play reads, of the same values
        return self._play(seat, seen, _info(state.rules), plays)

    def seen(self, state: GameState, seat: int) -> PlaySeen:
        """``seat``'s view of the play now, the completed tricks kept from the last call in this hand."""
        log = state.hands_log[-1]
        done = log.tricks
        if log is not self._log or len(self._tricks) > len(done):
            self._log, self._tricks = log, ()
        if len(self._tricks) < len(done):
            self._tricks += tuple((t.leader, tuple(t.cards), t.winner, t.named) for t in done[len(self._tricks):])
        return PlaySeen(state, seat, log, self._tricks)
