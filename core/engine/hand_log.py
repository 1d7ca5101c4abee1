"""The record of a hand as the engine keeps it: the deal, the calls, the exchange, the tricks and the score
(``HandLog``, one per deal in ``GameState.hands_log``), and how a log is copied (``GameState.clone``)."""

# Compiled (COMPILED_MODULES, core/engine/build.py): hand_log.pxd declares ``Trick`` and ``HandLog`` extension types
# (Cython makes the dataclasses extension-type dataclasses: the same fields, constructor, equality and repr), so that
# the engine makes a trick's record and a hand's log, and reads their fields, without Python's generic calls.  Compiled,
# their instances take no attributes but their fields (Cython's dataclasses take no ``slots=True``: the pure-Python
# classes keep an instance dictionary).

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from fivehundred.rules.tables import Contract, HandOutcome

if TYPE_CHECKING:
    from fivehundred.rules.manager import Rules


@dataclass
class Trick:
    leader: int
    cards: list[int]
    winner: int
    named: int | None = None
    """The suit named for a free joker led to this trick."""
    follow_names: dict[int, int] | None = None
    """Suits named for jokers played by followers, by joker (where the play table offers a follower a joker
    with a named suit)."""



@dataclass
class HandLog:
    """Everything that happened in one deal, as the record keeps it."""

    number: int
    dealer: int
    hands: list[list[int]]
    kitty: list[int]
    dead: list[int] = field(default_factory=list)
    """The cards the deal pattern deals to nobody (its ``dead`` packets), out of play."""
    misdeal: bool = False
    """The deal was thrown in before the play and the same dealer dealt again (the ``ThrowIn`` effect)."""
    calls: list[tuple[int, int]] = field(default_factory=list)
    contract: Contract | None = None
    contractor: int = -1
    discards: list[int] = field(default_factory=list)
    discarders: list[int] | None = None
    """Who made each discard, once a seat other than the contractor has made one (None: the contractor
    made them all)."""
    nomination: int | None = None
    nominated: bool = False
    played_out: bool = False
    """A step asked for every trick to be played (a misère then does not end at its first trick lost)."""
    discards_owed: int = 0
    """Discards a step asked of the contractor beyond the kitty's (a card received from the partner)."""
    aside: dict[int, list[int]] = field(default_factory=dict)
    """Rule 15: the hands laid aside by the partners of a misère contractor, as held then (a step before
    the play may have changed them since the deal)."""
    steps: dict[str, Any] = field(default_factory=dict)
    """What each of the plugins' steps recorded this hand, by step name (``fivehundred.rules.steps``)."""
    tricks: list[Trick] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    outcome: HandOutcome | None = None
    """The hand as scored (contracting side, contract kind, made), None until it is: what readers use."""


def new_log(number: int, dealer: int, hands: list[list[int]], kitty: list[int], dead: list[int]) -> HandLog:
    """``HandLog(number, dealer, hands, kitty, dead)``, as the engine starts each hand's log: compiled, every field
    set in C, where Cython's dataclass constructor imports ``dataclasses`` once for each field a factory makes.
    (``tests/test_records.py`` checks that both make the same log.)"""
    log = HandLog.__new__(HandLog)
    log.number, log.dealer, log.hands, log.kitty, log.dead = number, dealer, hands, kitty, dead
    log.misdeal = log.nominated = log.played_out = False
    log.calls, log.discards, log.tricks, log.tricks_won, log.scores, log.totals = [], [], [], [], [], []
    log.contract = log.discarders = log.nomination = log.outcome = None
    log.contractor = -1
    log.discards_owed = 0
    log.aside, log.steps = {}, {}
    return log


def straight_line(name: str, lines: Sequence[str]) -> Callable[..., None]:
    """A function of ``(src, dst)`` made of ``lines``: straight-line attribute assignments cost a fraction
    of a getattr/setattr loop, and ``clone()`` runs in the sampling bots' inner loops."""
    namespace: dict[str, Any] = {}
    exec(f"def {name}(src, dst=None):\n" + "".join(f"    {line}\n" for line in lines), namespace)
    return cast(Callable[..., None], namespace[name])



_copy_log_fields = straight_line("_copy_log_fields", [f"dst.{f.name} = src.{f.name}"
                                                       for f in dataclasses.fields(HandLog)])


def copy_log(log: HandLog, rules: Rules) -> HandLog:
    copy = HandLog.__new__(HandLog)
    _copy_log_fields(log, copy)
    copy.calls, copy.discards = list(log.calls), list(log.discards)
    copy.steps = {step.name: step.copy_data(log.steps[step.name]) for step in rules.steps if step.name in log.steps}
    copy.discarders = None if log.discarders is None else list(log.discarders)
    copy.aside = {seat: list(cards) for seat, cards in log.aside.items()} if log.aside else {}
    copy.tricks = [Trick(t.leader, list(t.cards), t.winner, t.named, t.follow_names) for t in log.tricks]
    copy.tricks_won, copy.scores, copy.totals = list(log.tricks_won), list(log.scores), list(log.totals)
    return copy
