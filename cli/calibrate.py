"""``fivehundred calibrate``: tune the club player for a ruleset by seeded self-play."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import fivehundred

from .completion import player_names, ruleset_names
from .console import err, out, print_json, user_errors

if TYPE_CHECKING:
    from fivehundred.bots.params import ClubParams
    from fivehundred.rules.ruleset import Ruleset


def calibrate(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset name or YAML path.",
                                         autocompletion=ruleset_names)] = "pagat-australian",
    out_file: Annotated[Path | None, typer.Option(
        "--out", "-o", help="The parameters file to write (default: RULESET.club.json); "
        "play with it as --players club:FILE.")] = None,
    start: Annotated[str, typer.Option(
        help="Where to start: 'tuned' (the shipped parameters of the ruleset, else of its nearest ancestor "
        "with a set, else of the nearest shipped ruleset seated alike, else the defaults), "
        "'default', or a parameters file.")] = "tuned",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Seeded games per seating of each match.")] = 40,
    rounds: Annotated[int, typer.Option(min=1, help="Passes over the parameters.")] = 1,
    seed: Annotated[int, typer.Option(help="Calibration seed: the same seed gives the same run.")] = 0,
    margin: Annotated[float, typer.Option(help="A move is kept when it scores above 1 + margin.")] = 0.05,
    reference: Annotated[list[str] | None, typer.Option(
        help="Players the tuned one meets at the end (repeatable; default: heuristic).",
        autocompletion=player_names)] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use.")] = 1,
    fit_tricks: Annotated[bool, typer.Option(
        "--fit-tricks", help="Instead of the climb: fit the trick model (trick_bias, trick_spread, "
        "partner_support) to what the "
        "contracting sides took in -n seeded self-play games from the start.")] = False,
    fit_misere: Annotated[bool, typer.Option(
        "--fit-misere", help="Instead of the climb: fit the misère curve (misere_mid, open_risk, misere_long) to the "
        "misères played alone in -n seeded self-play games (after --fit-tricks, with its result).")] = False,
    play: Annotated[str, typer.Option(
        "--play", help="Who plays the cards of the games --fit-tricks and --fit-misere learn from: club, or solver "
        "(club's auction, the play searched double dummy: what defenders who search let through; "
        "seconds a game).")] = "club",
    as_json: Annotated[bool, typer.Option("--json", help="Print the run as JSON.")] = False,
) -> None:
    """Tune the club player's parameters for a ruleset against the best so far, and write them.

    Every move of one parameter plays a match against the best parameters so far on the same seeded
    deals (each side in each team's seats); the tuned player then meets the start and the references.
    """
    from fivehundred.batch.calibration import Step
    from fivehundred.batch.calibration import calibrate as run_calibration
    from fivehundred.bots.params import DEFAULT, read_params, tuned_for, write_params
    from fivehundred.rules.outputs import check_outputs

    with user_errors():
        rs = fivehundred.load_ruleset(ruleset)
        target = out_file or Path(f"{rs.name}.club.json")
        check_outputs([target], [p for p in (ruleset, start) if Path(p).is_file()], "parameters file")
        first = tuned_for(rs) if start == "tuned" else DEFAULT if start == "default" else read_params(start)
        if play != "club" and not (play == "solver" or play.startswith("solver:")):
            raise typer.BadParameter(f"{play!r}: the fits learn from club or solver (solver:N) play",
                                     param_hint="--play")
        if play != "club" and not (fit_tricks or fit_misere):
            raise typer.BadParameter("--play goes with --fit-tricks or --fit-misere", param_hint="--play")
        if fit_tricks or fit_misere:
            _fit(rs, ruleset, start, first, games, seed, target, as_json, fit_tricks, fit_misere, play, workers)
            return

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


def _fit(rs: Ruleset, ruleset: str, start: str, first: ClubParams, games: int, seed: int, target: Path,
         as_json: bool, tricks: bool, misere: bool, play: str = "club", workers: int = 1) -> None:
    from fivehundred.batch.calibration import fit_misere, fit_tricks
    from fivehundred.bots.params import shipped_path, tuned_source, tuning_of, write_params

    words = ["-r", ruleset, *(["--fit-tricks"] if tricks else []), *(["--fit-misere"] if misere else []),
             *(["--play", play] if play != "club" else []), "--start", start, "-n", games, "--seed", seed, "-o", target]
    command = " ".join(["fivehundred calibrate", *(shlex.quote(str(w)) for w in words)])
    source = tuned_source(rs)
    shipped = None if source is None else shipped_path(source)
    before = tuning_of(shipped if start == "tuned" else None if start == "default" else Path(start))
    tuning = dict(before or {})
    best = first
    lines = []
    if tricks:
        trick_fit = fit_tricks(rs, start=best, seed=seed, games=games, play=play, workers=workers)
        best = trick_fit.best
        tuning["tricks_fit"] = {"command": command, **trick_fit.as_dict()}
        changed = trick_fit.as_dict()["changed"] or "nothing"
        lines.append(f"{trick_fit.contracts} contracts to take tricks; the estimate was off by "
                     f"{trick_fit.mean_error:+.2f} tricks on average ({trick_fit.supported_error:+.2f} on the "
                     f"{trick_fit.supported} in a denomination partner had called); changed: {changed}")
    if misere:
        fit = fit_misere(rs, start=best, seed=seed, games=games, play=play, workers=workers)
        best = fit.best
        tuning["misere_fit"] = {"command": command, **fit.as_dict()}
        lines.append(f"{fit.contracts} misères played alone, {fit.made} made; the curve gave them "
                     f"{fit.predicted_before:.1%} before the fit, {fit.predicted_after:.1%} after; "
                     f"changed: {fit.as_dict()['changed'] or 'nothing'}")
    write_params(target, best, ruleset=rs.name, ruleset_hash=rs.content_hash, tuning=tuning)
    if as_json:
        print_json({k: v for k, v in tuning.items() if k in ("tricks_fit", "misere_fit")})
        return
    for line in lines:
        out.print(line, highlight=False)
    out.print(f"wrote {target}", highlight=False)
