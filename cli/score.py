"""``fivehundred score``: a score sheet (a line per hand) scored under a ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from .completion import ruleset_names
from .console import err, out, plain, print_json, user_errors


def score(
    sheet: Annotated[Path, typer.Argument(help="A score sheet: .csv with a header line, or .yaml; a line per hand "
                                                "with contractor, contract, tricks, optionally hand, dealer and the "
                                                "written totals (a column per team); tricks_<team> for each side's "
                                                "tricks, partner for a called partner, claim, breach, declaration; "
                                                "a first line 'start' gives the totals before the first hand "
                                                "(docs/score-sheets.md).")],
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset name or YAML path.",
                                         autocompletion=ruleset_names)] = "pagat-australian",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scored sheet as JSON.")] = False,
) -> None:
    """Score a sheet hand by hand under a ruleset: each hand's scores, the running totals and the
    winner; check the totals the table wrote (exit 1 at the first wrong one)."""
    from fivehundred.records.sheets import score_sheet

    with user_errors():
        scored = score_sheet(sheet, ruleset)
    if as_json:
        print_json(scored.as_dict())
    else:
        teams = list(scored.totals)
        table = Table(title=plain(f"{scored.source} · {scored.ruleset}"))
        for column in ("line", "hand", "dealer", "contract", "tricks", "made", *teams, *(f"{t} total" for t in teams)):
            table.add_column(plain(column), justify="left" if column in ("dealer", "contract") else "right",
                             no_wrap=column == "contract")
        for h in scored.hands:
            contract = "pass" if h.contractor is None else f"{h.contract} {h.contractor}" + (
                f"+{h.partner}" if h.partner else "")
            made = "" if h.made is None else "made" if h.made else "set"
            tricks = "" if h.tricks is None else str(h.tricks)
            points = [str(h.scores[t]) for t in teams] + [str(h.totals[t]) for t in teams]
            table.add_row(str(h.line), str(h.number), plain(h.dealer or ""), plain(contract), tricks, made, *points)
        start = scored.start
        if start and (start["number"] != 1 or any(start["totals"].values())):
            out.print(plain(f"from hand {start['number']} at "
                            f"{', '.join(f'{t} {p}' for t, p in start['totals'].items())}"), highlight=False)
        out.print(table)
        if scored.winner is not None:
            out.print(plain(f"{scored.winner} wins: {scored.reason}"), highlight=False)
        else:
            out.print(plain(f"the game goes on at {', '.join(f'{t} {p}' for t, p in scored.totals.items())}"),
                      highlight=False)
    if scored.wrong_totals is not None:
        err.print(f"[red]wrong totals:[/red] {plain(scored.wrong_totals)}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
