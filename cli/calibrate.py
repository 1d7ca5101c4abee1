"""``fivehundred calibrate``: tune the club player for a ruleset by seeded self-play."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

import fivehundred

from .console import err, out, print_json, user_errors


def calibrate(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset name or YAML path.")] = "pagat-australian",
    out_file: Annotated[Path | None, typer.Option(
        "--out", "-o", help="The parameters file to write (default: RULESET.club.json); "
        "play with it as --players club:FILE.")] = None,
    start: Annotated[str, typer.Option(
        help="Where to start: 'tuned' (the shipped parameters of the ruleset, else the defaults), "
        "'default', or a parameters file.")] = "tuned",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Seeded games per seating of each match.")] = 40,
    rounds: Annotated[int, typer.Option(min=1, help="Passes over the parameters.")] = 1,
    seed: Annotated[int, typer.Option(help="Calibration seed: the same seed gives the same run.")] = 0,
    margin: Annotated[float, typer.Option(help="A move is kept when it scores above 1 + margin.")] = 0.05,
    reference: Annotated[list[str] | None, typer.Option(
        help="Players the tuned one meets at the end (repeatable; default: heuristic).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the run as JSON.")] = False,
) -> None:
    """Tune the club player's parameters for a ruleset against the best so far, and write them.

    Every move of one parameter plays a match against the best parameters so far on the same seeded
    deals (each side in each team's seats); the tuned player then meets the start and the references.
    """
    from fivehundred.batch.calibration import Step
    from fivehundred.batch.calibration import calibrate as run_calibration
    from fivehundred.bots.params import DEFAULT, read_params, tuned_for, write_params

    with user_errors():
        rs = fivehundred.load_ruleset(ruleset)
        first = tuned_for(rs.name) if start == "tuned" else DEFAULT if start == "default" else read_params(start)
        target = out_file or Path(f"{rs.name}.club.json")

        def show(step: Step) -> None:
            if not as_json:
                d = step.as_dict()
                err.print(f"{d['parameter']} = {d['value']}: score {d['score']} over {d['games']} games"
                          + (" kept" if d["kept"] else ""), highlight=False)

        run = run_calibration(rs, start=first, seed=seed, games=games, rounds=rounds, margin=margin,
                              references=tuple(reference or ("heuristic",)), workers=workers, progress=show)
        words = ["-r", ruleset, "--start", start, "-n", games, "--rounds", rounds, "--seed", seed,
                 "--margin", margin, *(w for r in reference or () for w in ("--reference", r)), "-o", target]
        command = " ".join(["fivehundred calibrate", *(shlex.quote(str(w)) for w in words)])
        write_params(target, run.best, ruleset=rs.name, ruleset_hash=rs.content_hash,
                     tuning={"command": command, **run.as_dict()})
    if as_json:
        print_json(run.as_dict())
        return
    for name, result in run.final.items():
        d = result.as_dict()
        out.print(f"tuned vs {name}: score {d['score']} (95% {d['ci95'][0]}–{d['ci95'][1]}) "
                  f"over {d['games']} games, {d['wins']} won", highlight=False)
    out.print(f"wrote {target}", highlight=False)
