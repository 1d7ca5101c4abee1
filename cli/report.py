"""``fivehundred report``: charts of a batch of game records, as HTML and/or PNG files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .completion import ruleset_names
from .console import RULESET_FOR_RECORDS, err, out, user_errors


def report(
    records: Annotated[list[Path], typer.Argument(help="Game records (JSON Lines from simulate --out, or .json).")],
    html: Annotated[Path | None, typer.Option("--html", help="Write one self-contained HTML report here.")] = None,
    png: Annotated[Path | None, typer.Option("--png", help="Write each chart as a PNG into this folder.")] = None,
    ruleset: Annotated[list[str] | None, typer.Option("--ruleset", "-r", help=RULESET_FOR_RECORDS,
                                                      autocompletion=ruleset_names)] = None,
    sample: Annotated[int, typer.Option(min=1, help="Games whose score trajectories are drawn.")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print the key numbers as JSON.")] = False,
) -> None:
    """Chart a batch of game records: contracts and make rates by bid, score trajectories, game
    length, misère, seat and side advantage.  Records of several rulesets get a section each (never pooled)."""
    from fivehundred.analysis.report import make_report

    if html is None and png is None:
        raise typer.BadParameter("say where to write the report: --html FILE, --png DIR, or both",
                                 param_hint="--html / --png")
    with user_errors():
        result = make_report(records, html=html, png_dir=png, ruleset=ruleset, sample=sample)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict(), indent=2, ensure_ascii=False) + "\n")
        return
    several = len(result.sections) > 1
    if several:
        out.print(f"records of {len(result.sections)} rulesets: a section each, never pooled", highlight=False)
    for section in result.sections:
        stats = section.stats
        name = f"{section.ruleset}: " if several else ""
        out.print(f"{name}{stats.games} games, {stats.hands_played} hands, {len(section.charts)} charts",
                  highlight=False, soft_wrap=True)
    if result.html is not None:
        out.print(f"html: {result.html}", highlight=False, soft_wrap=True)
    for path in result.pngs:
        out.print(f"png: {path}", highlight=False, soft_wrap=True)
    for section in result.sections:
        if section.stats.unfinished:
            where = f" of {section.ruleset}" if several else ""
            err.print(f"note: {section.stats.unfinished} unfinished game(s){where} are left out of the game lengths "
                      "and win rates", highlight=False, soft_wrap=True)
