"""The shipped ruleset that says exactly what another says: its name and prose aside (``name``,
``description``, ``source``), the same resolved content.  A copy of a shipped file under a new name plays the
same game, so it gets the same tuned players (``fivehundred.bots.params.tuned_source``) and imports under the
shipped name (``fivehundred.records.trickster.shipped_match``).  A copy with house rules changed plays the
game of its nearest shipped relative (``nearest_shipped``): the same seats and teams, the fewest settings
different."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from .loading import load_ruleset, ruleset_paths
from .ruleset import Ruleset

PROSE = frozenset({"name", "description", "source"})
"""The top-level fields that describe a ruleset without changing its game."""


def rules_key(ruleset: Ruleset) -> str:
    """A hash of what ``ruleset`` plays: its resolved content without its name and prose (computed once per
    instance, kept beside ``content_hash``'s)."""
    known: str | None = ruleset.__dict__.get("_rules_key")
    if known is None:
        content = ruleset.model_dump(mode="json", exclude=set(PROSE))
        text = json.dumps(content, sort_keys=True, separators=(",", ":"))
        known = ruleset.__dict__["_rules_key"] = hashlib.sha256(text.encode()).hexdigest()
    return known


def shipped_twin(ruleset: Ruleset) -> str | None:
    """The name of the shipped (or plugin-provided) ruleset that plays exactly ``ruleset``'s game, if one does:
    the ruleset's own name when it is one of them."""
    key = rules_key(ruleset)
    twins = [name for name, path in ruleset_paths().items() if _key_of(path) == key]
    return ruleset.name if ruleset.name in twins else twins[0] if twins else None


@cache
def _key_of(path: Path) -> str:
    return rules_key(load_ruleset(path))


def nearest_shipped(ruleset: Ruleset, among: Iterable[str] | None = None) -> str | None:
    """The shipped (or plugin-provided) ruleset of ``among`` (default: all of them) nearest to ``ruleset``: with
    the same seats and teams (by who partners whom, whatever their names), the fewest settings of the resolved
    content different (each value of the ladder,
    the deck, the scoring … counts one; its name and prose aside); among equals, the first by name.  None when
    none has its seats and teams."""
    paths = ruleset_paths()
    names = sorted(paths if among is None else set(among) & set(paths))
    mine = _settings(ruleset)
    best: tuple[int, str] | None = None
    for name in names:
        theirs = _settings_of(paths[name])
        if theirs.get("players") != mine.get("players"):
            continue
        keys = mine.keys() | theirs.keys()
        distance = sum(mine.get(k) != theirs.get(k) for k in keys)
        if best is None or distance < best[0]:
            best = (distance, name)
    return None if best is None else best[1]


def _settings(ruleset: Ruleset) -> dict[str, str]:
    """The resolved content as its settings: each leaf's path to its value (JSON); the seats and teams as one,
    by who partners whom."""
    content = ruleset.model_dump(mode="json", exclude=set(PROSE))
    for whole in ("seats", "teams"):
        content["players"].pop(whole)
    out = {"players": json.dumps(_sides(ruleset))}
    _flatten(content, "", out)
    return out


def _sides(ruleset: Ruleset) -> list[int]:
    """Each seat's team in play order, teams numbered as they first sit (the seats' names aside)."""
    first: dict[int, int] = {}
    return [first.setdefault(team, len(first)) for team in ruleset.players.team_of()]


def _flatten(value: Any, path: str, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(inner, f"{path}/{key}", out)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            _flatten(inner, f"{path}/{i}", out)
    else:
        out[path] = json.dumps(value)


@cache
def _settings_of(path: Path) -> dict[str, str]:
    return _settings(load_ruleset(path))
