"""Editing an inherited bid ladder by call: ``auction.ladder_changes`` (docs/rulesets.md).

A ruleset that ``extends`` another changes the rungs it names and keeps the others::

    auction:
      ladder_changes:
        misere: {value: 300}            # change a rung's fields
        open-misere: null               # remove a rung
        9NT: {value: 480, after: 9H}    # insert a rung where it goes (after: or before: a call)
        7NT: {before: 7S}               # move a rung

Changes apply in the order written, to the ladder as inherited (or as the file itself writes it), before
the ruleset is checked; the resolved ladder is what the ruleset holds, so ``rules show --yaml`` prints it
whole.  A call not on the ladder, a key that is not a rung's field, a place that is not a call: each is
reported at its line, with the nearest call (``did you mean 'misere'?``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from .errors import RulesetError

Lines = dict[tuple[str | int, ...], tuple[str, int]]

CHANGES = ("auction", "ladder_changes")
"""Where a ruleset writes its changes to the ladder."""
PLACES = ("after", "before")
"""The keys of a change that place its rung (a new one, or one moved)."""


def near(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the nearest of ``known``, or nothing when none is near."""
    found = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {found[0]!r}?)" if found else ""


def apply_ladder_changes(data: dict[str, Any], lines: Lines, fields: Iterable[str], default: str) -> None:
    """Apply ``data``'s ``auction.ladder_changes`` to its ``auction.ladder`` in place and remove them; move the
    line positions of the ladder's rungs with them.  ``fields`` are a rung's keys; ``RulesetError`` lists every
    problem as ``file:line: auction.ladder_changes.CALL: message``."""
    auction = data.get("auction")
    if not isinstance(auction, dict) or "ladder_changes" not in auction:
        return
    changes = auction.pop("ladder_changes")
    if changes is None:
        return
    where = _locator(lines, default)
    if not isinstance(changes, dict):
        raise RulesetError([f"{where(CHANGES)}: auction.ladder_changes: a mapping of calls to changes (or null)"])
    ladder = auction.get("ladder")
    if not isinstance(ladder, list) or not all(isinstance(r, dict) and "call" in r for r in ladder):
        raise RulesetError([f"{where(CHANGES)}: auction.ladder_changes: there is no ladder to change"])
    rungs: list[tuple[dict[str, Any], tuple[str | int, ...]]] = [
        (dict(rung), ("auction", "ladder", i)) for i, rung in enumerate(ladder)]
    problems: list[str] = []
    allowed = set(fields) - {"call"}
    contracts = data.get("contracts") or {}
    for key, change in changes.items():
        problem = _apply(rungs, str(key), change, allowed)
        if problem is None and change is None and key in contracts:
            problem = (f"{key!r} is a contract too: remove it from the contracts as well "
                       f"(contracts: {{{key}: null}})")
        if problem:
            path = (*CHANGES, key)
            problems.append(f"{where(path)}: {'.'.join(map(str, path))}: {problem}")
    if problems:
        raise RulesetError(problems)
    auction["ladder"] = [rung for rung, _ in rungs]
    _move_lines(lines, [origin for _, origin in rungs])


def _apply(rungs: list[tuple[dict[str, Any], tuple[str | int, ...]]], call: str, change: Any,
           allowed: set[str]) -> str | None:
    """Apply one change; what is wrong with it, or None."""
    calls = [str(rung["call"]) for rung, _ in rungs]
    at = calls.index(call) if call in calls else None
    if change is None:
        if at is None:
            return f"{call!r} is not on the ladder, so it cannot be removed{near(call, calls)}"
        del rungs[at]
        return None
    if not isinstance(change, dict):
        return "a change is a mapping of the rung's fields (value, requires_standing, …, after or before), or null"
    unknown = [k for k in change if k not in allowed and k not in PLACES]
    if unknown:
        return f"{unknown[0]!r} is not a field of a rung{near(str(unknown[0]), [*allowed, *PLACES])}"
    places = [k for k in PLACES if k in change]
    if len(places) > 1:
        return "a rung goes after a call or before one, not both"
    fields = {k: v for k, v in change.items() if k not in PLACES}
    origin: tuple[str | int, ...] = (*CHANGES, call)
    if at is None:
        if not places:
            return (f"{call!r} is not on the ladder{near(call, calls)}; to add a rung, give its place "
                    "(after: CALL or before: CALL)")
        rung = {"call": call, **fields}
    else:
        rung = {**rungs[at][0], **fields}
        if not fields:
            origin = rungs[at][1]  # moved, unchanged: its lines are where it was written
        if not places:
            rungs[at] = (rung, origin)
            return None
    place = str(change[places[0]])
    others = [c for c in calls if c != call]
    if place not in others:
        return f"{places[0]}: {place!r} is not on the ladder{near(place, others)}"
    if at is not None:
        del rungs[at]
    index = [str(r["call"]) for r, _ in rungs].index(place) + (places[0] == "after")
    rungs.insert(index, (rung, origin))
    return None


def _locator(lines: Lines, default: str) -> Any:
    def where(path: tuple[str | int, ...]) -> str:
        for n in range(len(path), -1, -1):
            if path[:n] in lines:
                file, line = lines[path[:n]]
                return f"{file}:{line}"
        return default

    return where


def _move_lines(lines: Lines, origins: list[tuple[str | int, ...]]) -> None:
    """Each rung's line positions follow it to its new place: a rung changed or added is at its change's line."""
    ladder = ("auction", "ladder")
    old = {path: where for path, where in lines.items() if path[:2] == ladder and len(path) > 2}
    for path in old:
        del lines[path]
    for index, origin in enumerate(origins):
        source = old if origin[:2] == ladder else dict(lines)
        for path, where in source.items():
            if path[:len(origin)] == origin:
                lines[(*ladder, index, *path[len(origin):])] = where


__all__ = ["CHANGES", "apply_ladder_changes", "near"]
