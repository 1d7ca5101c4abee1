"""``fivehundred analyse``: each deal's double-dummy table and par; and ``compare --par``'s tables."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .completion import ruleset_names
from .console import RULESET_FOR_RECORDS, capped_workers, err, print_json, user_errors

LIMIT_HELP = "Analyse at most this many deals (a table costs seconds: docs/par.md)."


def analyse(
    files: Annotated[list[Path], typer.Argument(help="Game records (.jsonl or .json), simulated or imported.")],
    game: Annotated[int | None, typer.Option("--game", "-g", min=1, help="Only this game (from 1, in file order).")]
    = None,
    hand: Annotated[int | None, typer.Option("--hand", "-k", min=1, help="Only this hand (its number).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help=LIMIT_HELP)] = None,
    ruleset: Annotated[list[str] | None, typer.Option("--ruleset", "-r", help=RULESET_FOR_RECORDS,
                                                      autocompletion=ruleset_names)] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tables and pars as JSON.")] = False,
) -> None:
    """Print each deal's double-dummy table (tricks per seat and contract, the contractor taking the kitty and
    discarding as club does) and its par (the contract neither side can improve on by bidding on)."""
    from fivehundred.batch.par_deals import analyse_jobs, record_deals

    workers = capped_workers(workers)
    with user_errors():
        deals = record_deals(files, ruleset=ruleset, game=game, hand=hand, limit=limit)
        if not deals:
            raise ValueError("no deal to analyse in the files" + (" (with --game/--hand)" if game or hand else ""))
        columns = (TextColumn("solving"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("deals", total=len(deals))
            results = list(zip(deals, analyse_jobs([d.job for d in deals], workers,
                                                   lambda n: bar.advance(task, n)), strict=True))
    if as_json:
        print_json([{"source": d.source, "game": d.game, "hand": d.hand}
                    | {k: v for k, v in r.items() if k != "lines"} for d, r in results])
        return
    text = []
    for d, r in results:
        text.append(f"game {d.game} ({d.source}) · hand {d.hand} · dealer {r['dealer']}")
        text.extend(r["lines"])
        text.append("")
    sys.stdout.write("\n".join(text))
