"""The two arms of a comparison, resolved: each a loaded ruleset and a player spec per seat.

A comparison of rules must not become a comparison of players.  The ``club`` player prices its calls
with parameters tuned per ruleset (``fivehundred.bots.params``): left to itself it would play each
arm with that arm's set, so two rulesets differing only in name would be played by two different
players.  Here a bare ``club`` (no ``:ARG``) in either arm is pinned to one named set before any
game is played: the set of arm A's ruleset (the reference's; its nearest ancestor's with a set, or
``default``), in both arms; ``tuned_per_arm`` pins each arm to its own ruleset's set instead.  A
spec that names its parameters (``club:default``, ``club:RULESET``, ``club:FILE.json``) is kept; ``club:fast``
is pinned as ``club`` is (``club:fast:SET``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fivehundred.bots.params import FAST, club_spec, tuned_source
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import Ruleset

from .simulation import DEFAULT_PLAYER, seat_players

CLUB = "club"
"""The player whose parameters are pinned."""


@dataclass(frozen=True)
class Arm:
    """One side of a comparison: a ruleset and its players (one name, or one per seat).

    ``None`` means the default: for arm A the reference ruleset and ``DEFAULT_PLAYER`` (club) in every
    seat, for arm B whatever arm A uses.
    """

    ruleset: Ruleset | str | Path | None = None
    players: str | Sequence[str] | None = None


@dataclass(frozen=True)
class Side:
    """An arm resolved: a loaded ruleset and a player spec per seat (sent to the workers)."""

    ruleset: Ruleset
    players: list[str]

    @property
    def params(self) -> list[str | None]:
        """Per seat, the club player's parameter set (``default``, a ruleset's name, a file), None for
        another player."""
        return [params_of(spec) for spec in self.players]


def resolve(a: Arm | None, b: Arm | None, *, tuned_per_arm: bool = False) -> tuple[Side, Side]:
    """Load both arms' rulesets and pin their players (see the module's docstring)."""
    a, b = a or Arm(), b or Arm()
    rs_a, rs_b = arm_rulesets(a, b)
    players_a = a.players if a.players is not None else DEFAULT_PLAYER
    players_b = b.players if b.players is not None else players_a
    set_a = tuned_name(rs_a)
    set_b = tuned_name(rs_b) if tuned_per_arm else set_a
    side_a = Side(rs_a, pin_club(seat_players(rs_a, players_a), set_a))
    side_b = Side(rs_b, pin_club(seat_players(rs_b, players_b), set_b))
    teams_a, teams_b = team_names(rs_a), team_names(rs_b)
    if len(teams_a) != len(teams_b):
        raise ValueError(f"the arms have different teams ({', '.join(teams_a)} against {', '.join(teams_b)}): "
                         "win rates and scores are compared team by team")
    for spec in {*side_a.players, *side_b.players}:
        if spec.partition(":")[0] == CLUB:
            club_spec(spec.partition(":")[2])  # a set or file that is not there fails now, not in a worker
    for rs in (rs_a, rs_b):
        compile_rules(rs)  # fail early (and once) on a ruleset the plugins cannot compile
    return side_a, side_b


def arm_rulesets(a: Arm | None, b: Arm | None) -> tuple[Ruleset, Ruleset]:
    """Both arms' rulesets, loaded (arm A's by default the reference, arm B's by default arm A's)."""
    a, b = a or Arm(), b or Arm()
    rs_a = _load(a.ruleset if a.ruleset is not None else "pagat-australian")
    return rs_a, rs_a if b.ruleset is None else _load(b.ruleset)


def tuned_name(ruleset: Ruleset) -> str:
    """The ``club:ARG`` naming the set a bare ``club`` plays ``ruleset`` with: a ruleset's name, or ``default``."""
    return tuned_source(ruleset) or "default"


def pin_club(specs: list[str], params: str) -> list[str]:
    """``club`` (and ``club:``) as ``club:PARAMS``, ``club:fast`` as ``club:fast:PARAMS``; every other spec as it is."""
    fast = f"{CLUB}:{FAST}"
    return [f"{CLUB}:{params}" if spec in (CLUB, f"{CLUB}:") else f"{fast}:{params}" if spec == fast else spec
            for spec in specs]


def params_of(spec: str) -> str | None:
    name, _, arg = spec.partition(":")
    return arg if name == CLUB else None


def players_text(players: list[str]) -> str:
    """``club:pagat-australian ×4``, or the seats' players in order."""
    return f"{players[0]} ×{len(players)}" if len(set(players)) == 1 else ",".join(players)


def params_text(params: list[str | None]) -> str | None:
    """The club players' parameter sets in words (None without a club player)."""
    sets = sorted({p for p in params if p is not None})
    if not sets:
        return None
    return " and ".join(_params_words(s) for s in sets)


def _params_words(params: str) -> str:
    if params == FAST or params.startswith(FAST + ":"):
        return _params_words(params[len(FAST) + 1:]) + " without the open-misère search"
    if params == "default":
        return "the defaults"
    if params.endswith(".json") or "/" in params or "\\" in params:
        return params  # a file
    return f"tuned for {params}" if params else "tuned for the ruleset played"


def _load(ref: Ruleset | str | Path) -> Ruleset:
    return ref if isinstance(ref, Ruleset) else load_ruleset(ref)


def team_names(rs: Ruleset) -> list[str]:
    return [t.name for t in rs.players.teams]
