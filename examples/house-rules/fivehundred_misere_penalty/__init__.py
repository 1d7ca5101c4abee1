"""House rule ``misere-penalty``: a failed misère also gives each defending side some points.

Switch it on in a ruleset::

    house_rules:
      misere-penalty: {points: 100}     # points: 100 if left out

The built-in scoring still runs first (the contractor loses the misère's value); this wrapper
only adds the penalty to every side that had no seat in the contract.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from fivehundred import applies_when, hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.tables import HandOutcome

RULE = "misere-penalty"
DEFAULT_POINTS = 100


@hookimpl
def fivehundred_house_rules() -> list[str]:
    return [RULE]


@hookimpl
def fivehundred_ruleset_paths() -> list[Path]:
    """``pagat-misere-penalty``: the reference game with this rule on."""
    return [Path(__file__).with_name("pagat-misere-penalty.yaml")]


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Reported when the ruleset loads, at the line of the offending option."""
    options = ruleset.house_rules.get(RULE)
    if options is None:
        return []
    problems = [(f"house_rules.{RULE}.{key}", f"unknown option of {RULE} (it takes: points)")
                for key in options if key != "points"]
    points = options.get("points", DEFAULT_POINTS)
    if not isinstance(points, int) or isinstance(points, bool):
        problems.append((f"house_rules.{RULE}.points", f"{RULE}: points must be a whole number, not {points!r}"))
    return problems


@hookimpl(wrapper=True)
@applies_when(lambda ruleset: RULE in ruleset.house_rules)  # left out of other rulesets' scoring, unasked
def fivehundred_score_hand(
    ruleset: Ruleset, outcome: HandOutcome
) -> Generator[None, list[int] | None, list[int] | None]:
    scores = yield  # what the built-in rules (and any other plugin) give
    options = ruleset.house_rules.get(RULE)
    if options is None or scores is None or outcome.contract.kind != "misere" or outcome.made:
        return scores
    points = options.get("points", DEFAULT_POINTS)
    defenders = defending_teams(ruleset, outcome)
    return [s + points if team in defenders else s for team, s in enumerate(scores)]


def defending_teams(ruleset: Ruleset, outcome: HandOutcome) -> set[int]:
    """Teams with no seat on the contracting side (a partner who sat the misère out still counts
    as contracting: it shares the contractor's score)."""
    seats = ruleset.players.seats
    teams = ruleset.players.teams
    side = {seats[s] for s in outcome.side} | set(teams[outcome.contractor_team].seats)
    return {i for i, team in enumerate(teams) if not side & set(team.seats)}
