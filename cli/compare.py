"""``fivehundred compare``: paired games for two rulesets or two sets of players, metric by metric."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import fivehundred

from .completion import player_names, ruleset_names
from .console import (
    INTERRUPTED,
    PLAYERS,
    capped_workers,
    err,
    out,
    print_json,
    seed_in_range,
    user_errors,
    warn_pure_search,
)

if TYPE_CHECKING:  # the engine loads when the command runs, not when the CLI starts
    from fivehundred.batch.comparison import Comparison, Estimate, Metric


def compare(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Pairs of games to play.")] = 100,
    seed: Annotated[int, typer.Option(callback=seed_in_range,
                                      help="Batch seed (64 bits): game i of both arms is dealt from the same "
                                      "generator.")] = 0,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Arm A's ruleset: a name, a YAML path, or a file "
                                         "of game records (the ruleset their first record was played under).",
                                         autocompletion=ruleset_names)]
    = "pagat-australian",
    ruleset_b: Annotated[str | None, typer.Option("--ruleset-b", help="Arm B's ruleset (default: arm A's).",
                                                  autocompletion=ruleset_names)] = None,
    players: Annotated[str, typer.Option("--players", "-p", help=f"Arm A's players: one, or one per seat; "
                                                                  f"players: {PLAYERS}; club:RULESET plays with the "
                                                                  "parameters tuned for a shipped ruleset.",
                                         autocompletion=player_names)]
    = "club",
    players_b: Annotated[str | None, typer.Option("--players-b", help="Arm B's players (default: arm A's).",
                                                  autocompletion=player_names)]
    = None,
    tuned_per_arm: Annotated[bool, typer.Option(
        "--tuned-per-arm", help="Play a bare club in each arm with its own ruleset's tuned parameters (default: "
        "both arms with arm A's, so that only the rules differ).")] = False,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    html: Annotated[Path | None, typer.Option("--html", help="Also write a two-arm HTML report here: the metrics "
                                              "and each chart of both arms side by side (the report extra).")]
    = None,
    par: Annotated[bool, typer.Option("--par", help="Compare the rulesets by the par of the first deal of each game "
                                      "(double dummy: no bot plays; --games deals; seconds a deal: docs/par.md).")]
    = False,
) -> None:
    """Play paired games (the same deals) under two rulesets or two sets of players and compare them.

    Each metric is shown for both arms and as B − A with its 95% interval; * marks one that excludes 0.
    The headline comes first: the contract mix, passed-out deals, games ended by a fall, hands per game.
    A bare club plays both arms with the parameters tuned for arm A's ruleset (--tuned-per-arm: each its own).
    """

    workers = capped_workers(workers)
    if par:
        if html is not None:
            raise typer.BadParameter("--par prints its own tables; --html reports games played", param_hint="--html")
        _compare_par(games, seed, ruleset, ruleset_b, workers, as_json)
        return
    with user_errors():
        from fivehundred.batch.arms import resolve
        from fivehundred.records.reading import ruleset_or_records  # a file of records gives its ruleset

        a = fivehundred.Arm(ruleset_or_records(ruleset), players)
        b = fivehundred.Arm(ruleset_or_records(ruleset_b), players_b)
        resolve(a, b, tuned_per_arm=tuned_per_arm)  # a bad name or file is the whole answer: before any note
        if html is not None:  # so is a missing extra
            from fivehundred.analysis.charts import require_matplotlib

            require_matplotlib()
        warn_pure_search(a.ruleset, ",".join(filter(None, (players, players_b))))
        columns = (TextColumn("comparing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("games", total=games)
            def advance(n: int) -> None:
                bar.advance(task, n)

            if html is None:
                result = fivehundred.compare(games, seed, a, b, workers=workers, progress=advance,
                                             tuned_per_arm=tuned_per_arm)
            else:
                from fivehundred.analysis.comparison_report import compare_with_report

                result = compare_with_report(games, seed, a, b, html=html, workers=workers, progress=advance,
                                             tuned_per_arm=tuned_per_arm).comparison
    if as_json:
        print_json(result.as_dict())
    else:
        for table in tables(result):
            out.print(table)
        for line in notes(result):
            out.print(line, highlight=False, soft_wrap=True)
    if as_json:
        for line in result.warnings:
            err.print(line, highlight=False, soft_wrap=True)
    if html is not None:
        (err if as_json else out).print(f"html: {html}", highlight=False, soft_wrap=True)
    if result.interrupted:
        raise typer.Exit(INTERRUPTED)


def _compare_par(deals: int, seed: int, ruleset: str, ruleset_b: str | None, workers: int, as_json: bool) -> None:
    """``compare --par``: ``fivehundred.batch.par_compare.compare_par``."""
    import sys

    from fivehundred.batch.par_compare import compare_par
    from fivehundred.records.reading import ruleset_or_records
    from fivehundred.rules.ruleset import Ruleset

    with user_errors():
        def load(ref: str) -> Ruleset:
            found = ruleset_or_records(ref)
            return found if isinstance(found, Ruleset) else fivehundred.load_ruleset(found or ref)

        a = load(ruleset)
        b = load(ruleset_b) if ruleset_b else a
        columns = (TextColumn("solving"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("deals", total=deals)
            result = compare_par(deals, seed, a, b, workers=workers, progress=lambda n: bar.advance(task, n))
    if as_json:
        print_json(result.as_dict())
    else:
        sys.stdout.write("\n".join(result.lines()) + "\n")


def tables(c: Comparison) -> list[Table]:
    """The comparison as rich tables: the headline, then the other per-game (paired) metrics, then the
    other per-hand (unpaired) ones."""
    from fivehundred.batch.arms import players_text

    title = (f"{c.games} paired games · seed {c.seed}\n"
             f"A: {c.a.ruleset} · {players_text(c.a.players)}\nB: {c.b.ruleset} · {players_text(c.b.players)}")
    headline = _table(title + "\nheadline (n: pairs of games, or contracts or deals in A/B)",
                      c.headline)
    paired = _table("per game, paired (n: pairs of games)", [m for m in c.metrics if m.paired and not m.headline])
    unpaired = _table("per hand, not paired (n: deals, contracts or hands in A/B)",
                      [m for m in c.metrics if not m.paired and not m.headline])
    return [headline, paired, unpaired]


def _table(title: str, metrics: list[Metric]) -> Table:
    table = Table(title=title)
    for col in ("metric", "A", "B", "B − A", "95% CI", "n"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    mix = False
    for m in metrics:
        if m.name.startswith("contract_share.") and not mix:
            table.add_row("contract mix:", "", "", "", "", "")
            mix = True
        mark = " *" if m.significant else ""
        table.add_row(_label(m), _estimate(m, m.a), _estimate(m, m.b), _number(m, m.difference, signed=True) + mark,
                      _interval(m, m.ci95), _count(m))
    return table


_SHORT = {"fall_rate": "ended by a fall", "hands_per_game": "hands/game"}
"""Labels short enough for 80 columns (the headline's; ``--json`` and ``--html`` give the full ones)."""


def _label(m: Metric) -> str:
    if m.name.startswith("contract_share."):
        return "  " + m.label.removeprefix("contracts: ")
    return _SHORT.get(m.name, m.label) if m.headline else m.label


def _number(m: Metric, x: float | None, *, signed: bool = False) -> str:
    if x is None:
        return "–"
    sign = "+" if signed else ""
    if m.rate:
        return f"{100 * x:{sign}.1f}" + (" pp" if signed else "%")
    return f"{x:{sign}.{_decimals(m)}f}"


def _decimals(m: Metric) -> int:
    return 1 if "score" in m.name else 2  # points, or counts per game and per hand


def _interval(m: Metric, ci: tuple[float, float] | None) -> str:
    if ci is None:
        return "–"
    if m.rate:
        return f"{100 * ci[0]:+.1f} … {100 * ci[1]:+.1f}"
    d = _decimals(m)
    return f"{ci[0]:+.{d}f} … {ci[1]:+.{d}f}"


def _estimate(m: Metric, e: Estimate) -> str:
    """An arm's value (its own interval is in ``--json``: the table keeps to 80 columns)."""
    return _number(m, e.value)


def _count(m: Metric) -> str:
    return str(m.a.n) if m.paired else f"{m.a.n}/{m.b.n}"


def notes(c: Comparison) -> list[str]:
    from fivehundred.batch.arms import params_text
    from fivehundred.batch.comparison import NEWCOMBE, PAIRED, WELCH

    p = c.pairing
    lines = [f"pairing: first deal identical in {p.first_deals_identical} of {p.games} pairs; "
             f"{p.deals_identical} of {p.deals_compared} deals reached by both games identical"]
    a, b = params_text(c.a.params), params_text(c.b.params)
    if a is not None or b is not None:
        lines.append(f"club parameters: {'both arms ' + str(a) if a == b else f'A {a}; B {b}'}")
    lines += [
             "* the 95% interval of B − A excludes 0; rates in %, their differences in percentage points (pp); "
             "each arm's own 95% interval: --json or --html",
             "contract mix: each kind's share of the contracts played; ended by a fall: share of the finished games "
             "that ended with a side at the losing score",
             f"per game: {PAIRED}", f"per-hand rates: {NEWCOMBE}", f"contractor-side tricks: {WELCH}"]
    unfinished = [f"{arm} {info.summary.unfinished}" for arm, info in (("A", c.a), ("B", c.b))
                  if info.summary.unfinished]
    if unfinished:
        lines.append(f"unfinished games (left out of win rates and scores): {', '.join(unfinished)}")
    lines += c.warnings
    if c.interrupted:
        lines.append("interrupted: only the pairs finished before Ctrl-C (or SIGTERM) are counted")
    return lines

