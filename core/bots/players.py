"""Players: anything with ``act(state, legal) -> action``; built-ins are registered by a plugin."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState


@runtime_checkable
class Player(Protocol):
    """A seat's decision maker.  It should read only ``state.observation(self.seat)``.

    Optionally, ``uniform_draw``: a generator's ``random`` when the player always picks
    ``legal[int(draw() * len(legal))]`` (see ``RandomPlayer``); the engine then draws for it."""

    seat: int

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        """Choose one of ``legal`` (the state's sorted legal actions)."""
        ...


class RandomPlayer:
    """Uniformly random among the legal actions, from its own seeded generator."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self._random = rng.random
        self.uniform_draw: Callable[[], float] | None = self._random if type(self).act is RandomPlayer.act else None
        """A promise the engine may act on: this player's choice is always
        ``legal[int(draw() * len(legal))]``, so ``play_out`` draws for it in its own loops (random
        rollouts at table speed, the same game card for card).  None in a subclass that acts otherwise."""

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        return legal[int(self._random() * len(legal))]


def random_player(seat: int, rng: random.Random) -> RandomPlayer:
    """``RandomPlayer(seat, rng)``, as the ``random`` factory makes it: a batch of random games makes four
    a game, and calling the class costs nearly twice as much."""
    self = _new_object(RandomPlayer)  # what RandomPlayer.__init__ does, on a new instance
    self.seat = seat
    self._random = self.uniform_draw = rng.random
    return self


_new_object = object.__new__
