"""Players: anything with ``act(state, legal) -> action``; built-ins are registered by a plugin."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from fivehundred.state import GameState


@runtime_checkable
class Player(Protocol):
    """A seat's decision maker.  It should read only ``state.observation(self.seat)``."""

    seat: int

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        """Choose one of ``legal`` (the state's sorted legal actions)."""
        ...


class RandomPlayer:
    """Uniformly random among the legal actions, from its own seeded generator."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self._random = rng.random

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        return legal[int(self._random() * len(legal))]
