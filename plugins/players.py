"""The built-in players, registered by name."""

from __future__ import annotations

from collections.abc import Callable

from fivehundred.markers import hookimpl
from fivehundred.players import RandomPlayer


@hookimpl
def fivehundred_register_players(register: Callable[..., None]) -> None:
    from fivehundred.heuristic import HeuristicPlayer

    register("random", RandomPlayer)
    register("heuristic", HeuristicPlayer)
