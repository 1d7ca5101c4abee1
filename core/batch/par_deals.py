"""Double-dummy tables and par for many deals: of game records (``analyse_records``: ``fivehundred analyse``,
``show --dd``), of a finished game (``game_analyses``: ``simulate --dd``), in worker processes.

A deal travels to a worker as a ``DealJob`` (the ruleset and the cards) and comes back as plain data (``Analysis
.as_dict()`` and its text): a table costs seconds, the rest nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from fivehundred.engine.state import GameState, HandLog
from fivehundred.records.reading import records_in
from fivehundred.records.rulesets import RecordRulesets, RulesetRefs, load_rulesets
from fivehundred.rules.cards import parse_card
from fivehundred.rules.errors import RecordError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.ruleset import Ruleset

from .chunks import in_workers_order, process_pool, quiet_worker
from .par import analyse, biddable, columns, deal_state

J = TypeVar("J")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class DealJob:
    """A deal to analyse: the ruleset, the dealer, the cards by seat, the kitty, the dead hand, each team's total
    before the deal and the deal's number in its game."""

    ruleset: Ruleset
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    dead: tuple[int, ...] = ()
    totals: tuple[int, ...] | None = None
    number: int = 1

    def state(self) -> GameState:
        return deal_state(self.ruleset, self.hands, self.kitty, self.dead, dealer=self.dealer,
                          totals=self.totals, number=self.number)


def analyse_job(job: DealJob, solved: dict[Any, int] | None = None) -> dict[str, Any]:
    """A deal's ``Analysis`` as plain data, with its text under ``lines`` (``solved``: ``dd_table``'s)."""
    result = analyse(job.state(), solved=solved)
    return result.as_dict() | {"lines": result.lines()}


def analyse_jobs(jobs: Iterable[DealJob], workers: int = 1,
                 progress: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """``analyse_job`` of each job, in order, in ``workers`` processes."""
    return in_workers(analyse_job, jobs, workers, progress)


def in_workers(work: Callable[[J], R], jobs: Iterable[J], workers: int = 1,
               progress: Callable[[int], None] | None = None) -> Iterator[R]:
    """``work(job)`` of each job, in order, in ``workers`` processes (``work``: a module's function)."""
    if workers <= 1:
        for job in jobs:
            yield work(job)
            if progress is not None:
                progress(1)
        return
    with process_pool(workers, quiet_worker) as pool:
        for result in in_workers_order(pool, work, jobs):
            yield result
            if progress is not None:
                progress(1)


def log_job(rules: Rules, log: HandLog, totals: Sequence[int]) -> DealJob:
    """The deal of a played hand (``HandLog``), each team at ``totals`` before it."""
    return DealJob(rules.ruleset, log.dealer, tuple(tuple(h) for h in log.hands), tuple(log.kitty),
                   tuple(log.dead), tuple(totals), log.number)


def game_jobs(state: GameState) -> list[DealJob | None]:
    """A job per deal of a finished game (None for a deal thrown in as a misdeal)."""
    rules = state.rules
    totals: Sequence[int] = [0] * len(rules.team_names)
    jobs: list[DealJob | None] = []
    for log in state.hands_log:
        jobs.append(None if log.misdeal else log_job(rules, log, totals))
        if log.totals:
            totals = log.totals
    return jobs


@dataclass(frozen=True, slots=True)
class RecordDeal:
    """A deal of a game record: where it is, and its job."""

    source: str
    game: int
    """The game's index in the files, from 1."""
    hand: int
    job: DealJob


def record_deals(paths: Iterable[str | Path], *, ruleset: RulesetRefs = None, game: int | None = None,
                 hand: int | None = None, limit: int | None = None) -> list[RecordDeal]:
    """The deals of the game records in ``paths`` (``game``: only that game, from 1; ``hand``: only that hand
    number; ``limit``: at most so many deals), each under its record's ruleset (``ruleset``: given ones, by name).
    Raises ``RecordError`` naming the record for a deal that is not the ruleset's."""
    rulesets = RecordRulesets(load_rulesets(ruleset))
    out: list[RecordDeal] = []
    index = 0
    for _, source, record in records_in(paths):
        index += 1
        if game is not None and index != game:
            continue
        rs = rulesets(record)
        rules = compile_rules(rs)
        teams = list(rules.team_names)
        start = record.get("start") or {}
        totals = [int((start.get("totals") or {}).get(t, 0)) for t in teams]
        for h in record.get("hands", []):
            if (hand is None or h.get("number") == hand) and not h.get("misdeal"):
                out.append(RecordDeal(source, index, int(h["number"]), record_job(rules, h, totals, source)))
                if limit is not None and len(out) >= limit:
                    return out
            if h.get("totals"):
                totals = [int(h["totals"][t]) for t in teams]
    if game is not None and index < game:
        raise RecordError(f"no game {game}: {'the files hold ' + str(index) if index else 'no game in the files'}")
    return out


def record_job(rules: Rules, h: dict[str, Any], totals: Sequence[int], source: str) -> DealJob:
    """The deal of hand ``h`` of a game record (``source`` names it in errors), each team at ``totals`` before it."""
    try:
        seats = rules.seats
        job = DealJob(rules.ruleset, seats.index(h["dealer"]),
                      tuple(tuple(parse_card(c) for c in h["hands"][s]) for s in seats),
                      tuple(parse_card(c) for c in h["kitty"]), tuple(parse_card(c) for c in h.get("dead", [])),
                      tuple(totals), int(h["number"]))
        job.state()  # the cards are the deck's, dealt as the ruleset deals
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"{source}: hand {h.get('number')}: not a deal of ruleset {rules.ruleset.name!r}: {e}"
                          ) from None
    return job


def analyse_records(paths: Iterable[str | Path], *, ruleset: RulesetRefs = None, game: int | None = None,
                    hand: int | None = None, limit: int | None = None, workers: int = 1,
                    progress: Callable[[int], None] | None = None) -> list[tuple[RecordDeal, dict[str, Any]]]:
    """Each deal of the records (``record_deals``) with its analysis (``analyse_job``'s plain data)."""
    deals = record_deals(paths, ruleset=ruleset, game=game, hand=hand, limit=limit)
    results = analyse_jobs([d.job for d in deals], workers, progress)
    return list(zip(deals, results, strict=True))


def dd_column_types(rules: Rules) -> list[tuple[str, str]]:
    """The columns ``simulate --dd`` adds to each deal's row: ``dd_<seat>_<column>`` (the contracting side's
    tricks with best play; for a column of several levels, its lowest level's), then the par's."""
    seats, rungs, _ = biddable(rules)
    dd = [(f"dd_{rules.seats[s]}_{label}", "int32") for s in seats for label, _ in columns(rules, rungs)]
    return dd + [("par_contract", "string"), ("par_contractor", "string"), ("par_tricks", "int32"),
                 ("par_made", "bool")] + [(f"par_score_{team}", "int32") for team in rules.team_names]


def dd_row(rules: Rules, result: dict[str, Any] | None) -> tuple[Any, ...]:
    """A deal's values for ``dd_column_types`` (all null for a deal not analysed)."""
    seats, rungs, _ = biddable(rules)
    groups = columns(rules, rungs)
    if result is None:
        return (None,) * (len(seats) * len(groups) + 4 + len(rules.team_names))
    table = result["table"]
    cells = []
    for s in seats:
        row = table.get(rules.seats[s], {})
        for _, rs in groups:
            values = [row[rules.ladder[r].call] for r in rs if rules.ladder[r].call in row]
            cells.append(values[0] if values else None)
    p = result["par"]
    return (*cells, p["contract"], p["contractor"], p["tricks"], p["made"],
            *(p["scores"][team] for team in rules.team_names))


def game_dd_rows(state: GameState) -> list[tuple[Any, ...]]:
    """``dd_row`` for each deal of a finished game, in order."""
    rules = state.rules
    return [dd_row(rules, None if job is None else analyse_job(job)) for job in game_jobs(state)]


__all__ = ["DealJob", "RecordDeal", "analyse_job", "analyse_jobs", "analyse_records", "game_jobs", "in_workers",
           "log_job", "record_deals"]
