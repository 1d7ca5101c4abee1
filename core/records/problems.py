"""What a check of records finds: a ``Problem`` (why one record or ruleset file is invalid, and where), the
``Report`` of a whole check, ``_Invalid`` (what the replay raises at the first broken rule, made a ``Problem``
by ``validation``), and the record format's own rules that a record can break beside the game's
(``fivehundred.rules.rules_text``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fivehundred.rules import rules_text as R
from fivehundred.rules.printable import printable

MISDEAL = "a deal thrown in (a misdeal) ends there: the same dealer deals again"
NUMBERING = "record format: hands are numbered by deal, from the record's first, all-pass deals included"
START = "record format: start gives the first hand's number and each team's total before it"
DEALS = "record format: deals is the number of the last deal recorded"


@dataclass(frozen=True)
class Problem:
    """Why one record (or ruleset file) is invalid, and where.

    ``hand`` is the hand's number; ``step`` counts the hand's actions from 1 (0 is the deal
    itself); ``seat`` and ``action`` are the seat that acted and its action as recorded; ``field``
    is the record's field in question (``hands[2].totals``, ``result.winner``); ``rule`` cites the
    rule broken, numbered as in docs/rules.md (ids such as D4 are docs/variants.md's).
    """

    source: str
    message: str
    hand: int | None = None
    step: int | None = None
    seat: str | None = None
    action: str | None = None
    rule: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = [self.source]
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.step is not None:
            where.append(f"step {self.step}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        if self.action is not None:
            where.append(f"action {self.action}")
        if self.field is not None:
            where.append(f"field {self.field}")
        text = ", ".join(where) + f": {self.message}"
        return printable(text if self.rule is None or self.rule in self.message else f"{text} ({self.rule})")


@dataclass
class Report:
    """The outcome of ``validate``: how many items were checked and the problems found (all of them, or
    the first ``keep``, the others counted in ``not_kept``)."""

    checked: int = 0
    problems: list[Problem] = field(default_factory=list)
    not_kept: int = 0
    """Problems found after the first ``keep`` (counted, not kept: a file of bad records stays in bounds)."""
    keep: int | None = None
    """How many problems to keep (None: every one)."""
    _invalid: int = 0

    def add(self, problems: list[Problem]) -> None:
        """Count the problems of items checked together (each item's problems come from one source)."""
        self._invalid += len({p.source for p in problems})
        room = len(problems) if self.keep is None else max(0, self.keep - len(self.problems))
        self.problems.extend(problems[:room])
        self.not_kept += len(problems) - min(room, len(problems))

    @property
    def invalid(self) -> int:
        """Items with at least one problem."""
        return max(self._invalid, len({p.source for p in self.problems}))

    @property
    def ok(self) -> bool:
        return not self.problems and not self.not_kept

    def as_dict(self) -> dict[str, Any]:
        return {"checked": self.checked, "valid": self.checked - self.invalid, "problems_not_kept": self.not_kept,
                "rules": R.DOCUMENTS,
                "problems": [{"source": p.source, "hand": p.hand, "step": p.step, "seat": p.seat,
                              "action": p.action, "field": p.field, "rule": p.rule, "message": p.message}
                             for p in self.problems]}


class _Invalid(Exception):
    def __init__(self, message: str, *, step: int | None = None, seat: str | None = None,
                 action: str | None = None, rule: str | None = None, field: str | None = None,
                 hand: int | None = None):
        super().__init__(message)
        self.step, self.seat, self.action, self.rule, self.field = step, seat, action, rule, field
        self.hand = hand
