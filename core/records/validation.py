"""Checking game records (every call, discard and card) and ruleset files.

A record is replayed action by action under its ruleset (``hand_replay``); the first broken rule is reported
with the hand, the step, the seat, the action and the rule (a ``Problem``, ``problems``).  Recorded tricks,
scores, totals and the game's end are compared with what the rules give.  This module reads the whole record:
its ruleset, its start, its hands in turn, the number of deals and the result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fivehundred.engine.state import GameState
from fivehundred.rules import rules_text as R
from fivehundred.rules.errors import PluginError, RecordError, RulesetError, UnknownNameError
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.ruleset import Ruleset

from .hand_replay import _Replay, _seat
from .problems import DEALS, START, Problem, Report, _Invalid  # noqa: F401 - Report re-exported with Problem
from .reading import Line, read_record
from .record import FORMAT, over_at_start
from .rulesets import RecordRulesetError, RecordRulesets, hash_problem


def validate_record(record: dict[str, Any], source: str = "record",
                    ruleset: Ruleset | RecordRulesets | None = None) -> list[Problem]:
    """Every problem of one game record (an empty list when it is valid).  The record names its ruleset and
    may carry it (``fivehundred.records.rulesets``); a ruleset file is given as ``ruleset`` (one, or the
    ``RecordRulesets`` of several), never looked for at a path the record names."""
    try:
        rules = _rules_for(record, ruleset)
        _replay(record, rules)
    except _Invalid as e:
        return [Problem(source, str(e), e.hand, e.step, e.seat, e.action, e.rule, e.field)]
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        return [Problem(source, f"malformed record: missing or wrong field {e}")]
    return []


def _rules_for(record: dict[str, Any], ruleset: Ruleset | RecordRulesets | None) -> Rules:
    if record.get("format") != FORMAT:
        raise _Invalid(f"not a {FORMAT} record (format: {record.get('format')!r})", field="format")
    rulesets = ruleset if isinstance(ruleset, RecordRulesets) else (
        _named if ruleset is None else RecordRulesets([ruleset]))
    try:
        found = rulesets(record)
    except RecordRulesetError as e:
        raise _Invalid(str(e), field=e.field) from None
    problem = hash_problem(record, found)
    if problem is not None:
        raise _Invalid(f"{problem} (pass the matching ruleset file)", field="ruleset.hash")
    return compile_rules(found)


_named = RecordRulesets()
"""The rulesets records carry or name, when none is given (``forget_rulesets`` starts afresh)."""


def _start(record: dict[str, Any], rules: Rules) -> tuple[list[int], int]:
    """Each team's total before the record's first hand, and that hand's number (``start``)."""
    start = record.get("start")
    if start is None:
        return [0] * len(rules.team_names), 1
    totals, number = start.get("totals"), start.get("number", 1)
    if not isinstance(totals, dict) or set(totals) != set(rules.team_names) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in totals.values()):
        raise _Invalid(f"the start totals {totals!r} are not an integer for each of {', '.join(rules.team_names)}",
                       rule=START, field="start.totals")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise _Invalid(f"the start number {number!r} is not a deal number (1 or more)", rule=START,
                       field="start.number")
    at = [totals[team] for team in rules.team_names]
    over = over_at_start(rules, at)
    if over is not None:
        raise _Invalid(f"the game is already over at the start totals {_by_team(totals)}: {over.reason}",
                       rule=R.GAME_OVER_AT_START, field="start.totals")
    return at, number


def _by_team(totals: dict[str, Any]) -> str:
    return ", ".join(f"{team} {points}" for team, points in totals.items())


def record_actions(record: dict[str, Any], ruleset: Ruleset, source: str = "the record") -> list[int]:
    """Every action of a valid record in the game's order (the calls, discards, cards, steps' actions), as
    the engine numbers them: what ``fivehundred play --resume`` replays.  Raises ``RecordError`` naming the
    first problem when the record is invalid."""
    try:
        replay = _replay(record, _rules_for(record, ruleset))
    except _Invalid as e:
        raise RecordError(str(Problem(source, str(e), e.hand, e.step, e.seat, e.action, e.rule, e.field))) from None
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        raise RecordError(f"{source}: malformed record: missing or wrong field {e}") from None
    return [] if replay is None else replay.actions


def _replay(record: dict[str, Any], rules: Rules) -> _Replay | None:
    hands = record["hands"]
    totals, number = _start(record, rules)
    if not hands:
        _check_deals(record, number - 1, None)
        return None
    replay = _Replay(rules, _seat(rules, hands[0]["dealer"], "dealer"), totals, number)
    for i, h in enumerate(hands):
        if h.get("unfinished") is not None and (i != len(hands) - 1 or record.get("result") is not None):
            raise _Invalid(f"hand {h.get('number')} is unfinished: it must be the record's last hand, and the "
                           "game has no result", rule=R.GAME_END)
        number = h.get("number") if isinstance(h.get("number"), int) else replay.state.deals + 1
        if replay.state.is_terminal():
            raise _Invalid(f"hand {number} is recorded but the game was already over after deal "
                           f"{replay.state.deals}", hand=number, step=0, rule=R.GAME_END, field=f"hands[{i}]")
        try:
            replay.hand(h)
        except _Invalid as e:
            e.hand = number
            e.field = f"hands[{i}]" + (f".{e.field}" if e.field else "")
            raise
    last = replay.state.hands_log[-1].number
    try:
        _check_deals(record, replay.state.deals, last)
        if hands[-1].get("unfinished") is None:
            _check_result(record.get("result"), replay.state)
    except _Invalid as e:  # the end of the game is where its last hand ends
        e.hand, e.step = last, replay.step
        raise
    return replay


def _check_deals(record: dict[str, Any], deals: int, last: int | None) -> None:
    if "deals" in record and record["deals"] != deals:
        raise _Invalid(f"the record says deals={record['deals']!r} but {deals} deals are recorded", rule=DEALS,
                       field="deals")


def _check_result(result: dict[str, Any] | None, state: GameState) -> None:
    rules = state.rules
    totals = dict(zip(rules.team_names, state.totals, strict=True))
    if result is None:
        if state.is_terminal():
            assert state.result is not None
            raise _Invalid(f"the record has no result but {rules.team_names[state.result.winner]} won: "
                           f"{state.result.reason}", rule=R.GAME_END, field="result")
        return
    if state.result is None:
        raise _Invalid(f"the record says {result.get('winner')} won but the game is not over (totals {totals})",
                       rule=R.GAME_END, field="result")
    winner = rules.team_names[state.result.winner]
    if result.get("winner") != winner:
        raise _Invalid(f"the record says {result.get('winner')} won but {winner} won: {state.result.reason}",
                       rule=R.GAME_END, field="result.winner")
    if result.get("totals") != totals:
        raise _Invalid(f"the result's totals are {result.get('totals')} but the game ended at {totals}",
                       rule=R.GAME_END, field="result.totals")
    if result.get("reason") != state.result.reason:
        raise _Invalid(f"the record says the game ended as {result.get('reason')!r} but the rules say "
                       f"{state.result.reason!r}", rule=R.GAME_END, field="result.reason")


def is_ruleset_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml")


def check_ruleset_file(path: Path) -> list[Problem]:
    """Every problem of a ruleset file, the plugins' answers for it included."""
    try:
        compile_rules(load_ruleset(path))
    except RulesetError as e:
        return [Problem(str(path), p) for p in e.problems]
    except (UnknownNameError, PluginError) as e:
        return [Problem(str(path), str(e))]
    return []


def check_record_line(line: Line, ruleset: Ruleset | RecordRulesets | None = None) -> list[Problem]:
    """Every problem of one record as read from its file (``record_lines``): unreadable, not JSON,
    outside the record schema (``record_schema()``), or broken on replay."""
    source, text, problem = line
    record = None
    if text is not None:
        record, problem = read_record(text)
    if record is None:
        return [Problem(source, problem or "unreadable")]
    return validate_record(record, source, ruleset)


def forget_rulesets() -> None:
    """Load the rulesets records name afresh (their files may have changed since the last check)."""
    global _named
    _named = RecordRulesets()
