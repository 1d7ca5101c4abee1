"""``fivehundred play``: a person plays one seat against bots in the terminal (or from a script on stdin)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .console import PLAYERS, user_errors


def play(
    seat: Annotated[str, typer.Option("--seat", "-s", help="The seat you play (e.g. S).")],
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset name or YAML path.")] = "pagat-australian",
    bots: Annotated[str, typer.Option("--bots", "-b", help=f"The player at every other seat: {PLAYERS}.")]
    = "heuristic",
    seed: Annotated[int, typer.Option(help="The deal and the bots' choices follow from the seed.")] = 0,
    out_file: Annotated[Path, typer.Option("--out", "-o", help="Write the game record here at the end.")]
    = Path("game.jsonl"),
    max_deals: Annotated[int, typer.Option("--max-deals", min=1, help="Stop the game after this many deals.")] = 1000,
) -> None:
    """Play one seat against bots: the table shows what your seat may know, you type your choice
    (7H, pass, 4D, JK:S; '?' lists the legal ones), an illegal one is refused with the rule; the
    game is written as a record at the end.  Reads stdin, so a game can be scripted."""
    from fivehundred.batch.table import play_at_table

    with user_errors():
        play_at_table(ruleset, seat, bots=bots, seed=seed, out=out_file, max_deals=max_deals)
