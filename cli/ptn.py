"""``fivehundred import``, ``export --ptn`` and ``show``: game records from and to PTN (Trickster Cards), and
as a person reads them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from fivehundred.rules.printable import printable

from .completion import ruleset_names
from .console import RULESET_FOR_RECORDS, capped_workers, err, out, plain, print_json, user_errors


def import_records(
    files: Annotated[list[Path], typer.Argument(help="PTN files (Trickster Cards exports), one or more records each.")],
    out_file: Annotated[Path, typer.Option("--out", "-o", help="Write the game records here (JSON Lines); rulesets "
                                           "that no shipped one matches go next to it as NAME.yaml.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print what was imported as JSON.")] = False,
    ruleset: Annotated[list[str] | None, typer.Option("--ruleset", "-r", help="A ruleset file (or name) a Ruleset "
                                                      "tag names that travels without its rules; repeatable.",
                                                      autocompletion=ruleset_names)]
    = None,
) -> None:
    """Read PTN records into game records, replaying every call and card; say where a record cut short stops."""
    from fivehundred.records.ptn_import import import_ptn

    with user_errors():
        result = import_ptn(files, out_file, ruleset=ruleset)
    hands = sum(len(r["hands"]) for r in result.records)
    if as_json:
        print_json({"games": len(result.records), "hands": hands, "written": [str(p) for p in result.written],
                    "rulesets": sorted(result.rulesets), "notes": result.notes})
        return
    out.print(plain(f"{len(result.records)} games, {hands} hands → {out_file}"), highlight=False, soft_wrap=True)
    for name in sorted(result.rulesets):
        out.print(plain(f"ruleset {name} → {out_file.parent / (name + '.yaml')}"), highlight=False, soft_wrap=True)
    for note in result.notes:
        err.print(f"note: {printable(note)}", highlight=False, soft_wrap=True, markup=False)


def export_records(
    files: Annotated[list[Path], typer.Argument(help="Game records (.jsonl or .json).")],
    ptn: Annotated[bool, typer.Option("--ptn", help="Write PTN, the format of Trickster Cards' records.")] = False,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of to stdout.")] = None,
    ruleset: Annotated[list[str] | None, typer.Option("--ruleset", "-r", help=RULESET_FOR_RECORDS,
                                                      autocompletion=ruleset_names)] = None,
) -> None:
    """Write game records in another format (PTN: one record per hand)."""
    from fivehundred.records.ptn_export import export_ptn_counted

    if not ptn:
        raise typer.BadParameter("say which format to write: --ptn", param_hint="--ptn")
    with user_errors():
        text, games = export_ptn_counted(files, out_file, ruleset=ruleset)
    if out_file is None:
        sys.stdout.write(text)
    err.print(f"{games} game{'' if games == 1 else 's'} written as PTN to {out_file or 'stdout'}", highlight=False,
              soft_wrap=True, markup=False)


def show(
    files: Annotated[list[Path], typer.Argument(help="Game records (.jsonl or .json), simulated or imported.")],
    game: Annotated[int | None, typer.Option("--game", "-g", min=1, help="The game to show (from 1, in file order; "
                                             "default: the first).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Show every game, one after the other.")] = False,
    hand: Annotated[int | None, typer.Option("--hand", "-k", min=1, help="Only this hand (its number).")] = None,
    ruleset: Annotated[list[str] | None, typer.Option("--ruleset", "-r", help=RULESET_FOR_RECORDS,
                                                      autocompletion=ruleset_names)] = None,
    dd: Annotated[bool, typer.Option("--dd", help="Print each hand's double-dummy table and par after it (seconds "
                                     "a deal: docs/par.md).")] = False,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use for --dd.")] = 1,
) -> None:
    """Print game records as a person reads a game: the deal, the auction in rounds, the exchange,
    each trick with its leader and winner, the score after each hand."""
    from fivehundred.records.show import show_records_counted

    if every and game is not None:
        raise typer.BadParameter("--all and --game exclude each other", param_hint="--all")
    chosen = None if every else game or 1
    with user_errors():
        extra = _dd_lines(files, chosen, hand, ruleset, capped_workers(workers)) if dd else None
        text, games = show_records_counted(files, game=chosen, hand=hand, ruleset=ruleset, extra=extra)
    sys.stdout.write(text)
    if game is None and not every and games > 1:
        err.print(f"game 1 of {games} shown; another: --game N (1–{games}), every one: --all", highlight=False,
                  soft_wrap=True, markup=False)


def _dd_lines(files: list[Path], game: int | None, hand: int | None, ruleset: list[str] | None,
              workers: int) -> Callable[[int, dict[str, Any]], list[str]]:
    """``show --dd``: each deal's table and par (``fivehundred.batch.par_deals``), by game and hand."""
    from fivehundred.batch.par_deals import analyse_jobs, record_deals

    deals = record_deals(files, ruleset=ruleset, game=game, hand=hand)
    found = {(d.game, d.hand): r["lines"] for d, r in zip(deals, analyse_jobs([d.job for d in deals], workers),
                                                          strict=True)}

    def lines(index: int, h: dict[str, Any]) -> list[str]:
        table = found.get((index, h.get("number", -1)))
        return [] if table is None else ["  double dummy (before the auction; club's discards):", *table]

    return lines
