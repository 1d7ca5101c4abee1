"""Exceptions that users of fivehundred meet, each naming what went wrong and where."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class FiveHundredError(Exception):
    """Base of every error caused by input (a ruleset, a record, a move), never by a bug."""


MAX_PROBLEMS = 50
"""Problems reported for one file at most; a last line says how many more there were."""


class RulesetError(FiveHundredError):
    """A ruleset file is invalid; ``problems`` holds every ``file:line: key.path: message`` (the first
    ``MAX_PROBLEMS`` of them, then a line counting the rest)."""

    def __init__(self, problems: list[str]):
        if len(problems) > MAX_PROBLEMS:
            problems = [*problems[:MAX_PROBLEMS], f"… and {len(problems) - MAX_PROBLEMS:,} more problems"]
        self.problems = problems
        super().__init__("\n".join(problems))


class UnknownNameError(FiveHundredError):
    """A ruleset, player or plugin name that nothing provides."""


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The known name nearest to a mistyped ``name`` (difflib's ratio, case aside), or None if none is near."""
    by_folded = {k.casefold(): k for k in sorted(known)}
    near = difflib.get_close_matches(name.casefold(), list(by_folded), n=1, cutoff=0.6)
    return by_folded[near[0]] if near else None


def unknown_name(kind: str, name: str, known: Iterable[str], listed_by: str | None = None) -> UnknownNameError:
    """``unknown KIND 'NAME'; did you mean NEAREST?``, or, with no known name near, the known names (or,
    when ``listed_by`` names a command that lists them, that command: ``fivehundred rules list``)."""
    known = sorted(known)
    near = nearest(name, known)
    if near is not None:
        rest = f" ({listed_by} lists them all)" if listed_by else f" known: {', '.join(known)}"
        return UnknownNameError(f"unknown {kind} {name!r}; did you mean {near}?{rest}")
    return UnknownNameError(f"unknown {kind} {name!r}; known: {', '.join(known) or 'none'}")


class PluginError(FiveHundredError):
    """A plugin raised while the engine asked it something; names the plugin and the hook."""


class IllegalActionError(FiveHundredError, ValueError):
    """An action that the rules forbid in the current state.

    ``rule`` is the rule broken: its number in docs/rules.md (or a variant id of docs/variants.md)
    and a short statement.
    """

    def __init__(self, message: str, *, rule: str, seat: str | None = None, action: str | None = None):
        self.rule = rule
        self.seat = seat
        self.action = action
        super().__init__(f"{message} ({rule})")


class RecordError(FiveHundredError):
    """A game record that cannot be read, or whose replay breaks the rules."""
