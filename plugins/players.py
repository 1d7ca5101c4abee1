"""The built-in players, registered by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fivehundred.bots.players import random_player
from fivehundred.rules.markers import hookimpl


def _heuristic(seat: int, rng: random.Random) -> Any:
    from fivehundred.bots.heuristic import HeuristicPlayer  # imported on first use: it is the heaviest bot

    return HeuristicPlayer(seat=seat, rng=rng)


def _club(seat: int, rng: random.Random, arg: str | None = None) -> Any:
    """``club`` (tuned for the ruleset played), ``club:default``, ``club:RULESET`` or ``club:PARAMS.json``."""
    from fivehundred.bots.club import ClubPlayer

    return ClubPlayer.from_spec(seat, rng, arg)


def _montecarlo(seat: int, rng: random.Random, arg: str | None = None) -> Any:
    """``montecarlo``, ``montecarlo:200`` (hand rollouts per decision) or ``montecarlo:50ms``."""
    from fivehundred.bots.montecarlo import MonteCarloPlayer

    return MonteCarloPlayer.from_spec(seat, rng, arg)


def _solver(seat: int, rng: random.Random, arg: str | None = None) -> Any:
    """``solver`` or ``solver:N`` (worlds sampled and solved double dummy a card)."""
    from fivehundred.bots.solver_player import SolverPlayer

    return SolverPlayer.from_spec(seat, rng, arg)


@hookimpl
def fivehundred_register_players(register: Callable[..., None]) -> None:
    register("random", random_player)
    register("heuristic", _heuristic)
    register("club", _club)
    register("montecarlo", _montecarlo)
    register("solver", _solver)
