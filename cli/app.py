"""``fivehundred``: simulate, validate, score and explain Five Hundred games and rulesets.

Each command is a thin layer over a public function: ``fivehundred.simulate``,
``fivehundred.validate``, ``fivehundred.load_ruleset``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

import fivehundred
from fivehundred.rules import rules_text as R
from fivehundred.rules.outputs import check_outputs
from fivehundred.rules.printable import printable

from .analyse import analyse as analyse_command
from .calibrate import calibrate as calibrate_command
from .compare import compare as compare_command
from .completion import player_names, ruleset_names
from .console import (
    INTERRUPTED,
    PLAYERS,
    RULESET_FOR_RECORDS,
    RULESET_HELP,
    Command,
    Group,
    capped_workers,
    err,
    out,
    plain,
    print_json,
    seed_in_range,
    tolerant_streams,
    user_errors,
    warn_name_clash,
    warn_pure_search,
)
from .play import play as play_command
from .ptn import export_records, import_records, show
from .report import report as report_command
from .score import score as score_command

app = typer.Typer(help=__doc__, no_args_is_help=True, rich_markup_mode="markdown", cls=Group,
                  context_settings={"help_option_names": ["-h", "--help"]}, pretty_exceptions_enable=False)
rules_app = typer.Typer(help="List, explain and export rulesets.", no_args_is_help=True, cls=Group)
app.add_typer(rules_app, name="rules")

def _version(value: bool) -> None:
    if value:
        out.print(f"fivehundred {fivehundred.__version__} ({fivehundred.engine_build()} engine)")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    """Five Hundred: rules as data, behaviour as plugins."""
    tolerant_streams()


@app.command(cls=Command)
def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option(callback=seed_in_range,
                                      help="Batch seed (64 bits): the same seed gives the same games.")] = 0,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help=RULESET_HELP,
                                         autocompletion=ruleset_names)] = "pagat-australian",
    players: Annotated[str, typer.Option("--players", "-p", help=f"One player, or one per seat (P1,P2,…); players: "
                                                                  f"{PLAYERS}.", autocompletion=player_names)]
    = "club",
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use.")] = 1,
    out_file: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write every game: a .parquet path gets one row per deal (needs fivehundred\\[parquet]), "
        "any other path a JSON record per line.")] = None,
    scheduler: Annotated[str | None, typer.Option(
        help="Play on the Dask cluster of this scheduler, e.g. tcp://host:8786 (needs fivehundred\\[cluster]).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    dd: Annotated[bool, typer.Option("--dd", help="Add each deal's double-dummy table and par to the Parquet rows "
                                     "(dd_*, par_* columns; seconds a deal: docs/par.md).")] = False,
) -> None:
    """Play a batch of seeded games with bots and summarise them."""
    if dd and (out_file is None or out_file.suffix.lower() != ".parquet"):
        raise typer.BadParameter("--dd adds columns to Parquet rows: give --out FILE.parquet", param_hint="--dd")
    if scheduler is not None and workers != 1:
        raise typer.BadParameter("--workers and --scheduler exclude each other: the cluster's workers play",
                                 param_hint="--workers")
    workers = capped_workers(workers)
    with user_errors():
        check_outputs([out_file], [ruleset] if Path(ruleset).exists() else [])
        rs = fivehundred.load_ruleset(ruleset)
        from fivehundred.batch.simulation import seat_players

        seat_players(rs, players)  # a bad name is the whole answer: before any note on the batch
        _require_extras(out_file, scheduler)  # so is a missing extra
        warn_name_clash(rs)
        warn_pure_search(rs, players)
        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("games", total=games)
            summary = fivehundred.simulate(games, seed, rs, players, workers=workers, out=out_file,
                                           progress=lambda n: bar.advance(task, n), scheduler=scheduler, dd=dd)
    data = summary.as_dict()
    if summary.kept is not None:
        err.print(f"note: {out_file} is left as it was; the {summary.games:,} games finished are in {summary.kept} "
                  "(rename it to keep them, or delete it)", highlight=False, soft_wrap=True, markup=False)
    if as_json:
        print_json(data)
    else:
        _print_summary(data)
    if summary.interrupted:
        raise typer.Exit(INTERRUPTED)


app.command("compare", cls=Command)(compare_command)
app.command("calibrate", cls=Command)(calibrate_command)


def _require_extras(out_file: Path | None, scheduler: str | None) -> None:
    """Fail now, naming the extra, where the batch would need one that is not installed."""
    from fivehundred.rules.extras import require

    if out_file is not None and out_file.suffix.lower() == ".parquet":
        require("pyarrow.parquet", "parquet", "writing Parquet results")
    if scheduler is not None:
        require("distributed", "cluster", "running on a Dask cluster (--scheduler)")


def _pct(rate: float | None, ci: list[float] | tuple[float, float] | None = None) -> str:
    if rate is None:
        return "–"
    return f"{100 * rate:.1f}%" + (f" ({100 * ci[0]:.1f}–{100 * ci[1]:.1f})" if ci else "")


def _print_summary(d: dict[str, Any]) -> None:
    head = Table(title=plain(f"{d['games']} games · {d['ruleset']} · seed {d['seed']} · {','.join(d['players'])}"),
                 show_header=False)
    head.add_row("deals", str(d["deals"]))
    head.add_row("hands played / passed out", f"{d['hands_played']} / {d['passed_out']}")
    hpg = d["hands_per_game"]
    head.add_row("hands per game (mean, min–max)",
                 "–" if hpg["mean"] is None else f"{hpg['mean']}  ({hpg['min']}–{hpg['max']})")
    m = d["misere"]
    head.add_row("misère attempts / successes",
                 f"{m['attempts']} / {m['successes']}  {_pct(m['success_rate'], m['ci95'])}")
    for team, wins in d["wins"].items():
        head.add_row(plain(f"wins {team}"), f"{wins}  {_pct(d['win_rate'][team], d['win_rate_ci95'][team])}")
    if d["interrupted"]:
        head.add_row("interrupted", "yes: only the games finished before Ctrl-C (or SIGTERM) are counted and written")
    if d["unfinished"]:
        head.add_row("unfinished games", str(d["unfinished"]))
    s = d["scores"]
    for side in ("winner", "loser"):
        mean, low, high = s[f"{side}_mean"], s[f"{side}_min"], s[f"{side}_max"]
        head.add_row(f"final score, {side}s (mean, range)", "–" if mean is None else f"{mean}  ({low}…{high})")
    out.print(head)
    contracts = Table(title="Contracts by type")
    for col in ("type", "played", "made", "make rate (95% CI)"):
        contracts.add_column(col, justify="right" if col != "type" else "left")
    for kind, c in d["contracts"].items():
        contracts.add_row(plain(kind), str(c["played"]), str(c["made"]), _pct(c["make_rate"], c["ci95"]))
    out.print(contracts)


@app.command(cls=Command)
def validate(
    files: Annotated[list[Path], typer.Argument(help="Game records (.json, .jsonl) or rulesets (.yaml).")],
    ruleset: Annotated[list[str] | None, typer.Option("--ruleset", "-r", help=RULESET_FOR_RECORDS,
                                                      autocompletion=ruleset_names)] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes to use.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    max_problems: Annotated[int, typer.Option("--max-problems", min=0, help="Problems to show at most (the others "
                                              "are counted); 0 shows every one.")] = 1000,
) -> None:
    """Check game records (every call, discard and card) or ruleset files; exit 1 if any is invalid."""
    workers = capped_workers(workers)
    with user_errors():
        total = sum(f.stat().st_size for f in files if f.is_file())
        columns = (TextColumn("validating"), BarColumn(), TaskProgressColumn(), TimeRemainingColumn())
        shown = err.is_terminal and out.is_terminal and not as_json
        with Progress(*columns, console=err, transient=True, disable=not shown) as bar:
            task = bar.add_task("bytes", total=total)
            report = fivehundred.validate(files, ruleset=ruleset, workers=workers,
                                          progress=lambda n: bar.advance(task, n), max_problems=max_problems or None)
    if as_json:
        print_json(report.as_dict())
    else:
        for problem in report.problems:
            out.print(f"[red]invalid[/red] {plain(problem)}", highlight=False, soft_wrap=True)
        if any(problem.rule for problem in report.problems):
            out.print(R.DOCUMENTS, highlight=False, soft_wrap=True)
        if report.not_kept:
            out.print(f"… and {report.not_kept} more problems, not shown (--max-problems {max_problems}; 0 shows "
                      "every one)", highlight=False)
        out.print(f"{report.checked - report.invalid} of {report.checked} valid", highlight=False)
    if not report.ok:
        raise typer.Exit(1)


app.command("report", cls=Command)(report_command)
app.command("score", cls=Command)(score_command)
app.command("import", cls=Command)(import_records)
app.command("export", cls=Command)(export_records)
app.command("show", cls=Command)(show)
app.command("analyse", cls=Command)(analyse_command)
app.command("play", cls=Command)(play_command)


@rules_app.command("list", cls=Command)
def rules_list(as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False) -> None:
    """List the rulesets known by name (bundled and from plugins)."""
    from fivehundred.rules.loading import ruleset_paths

    with user_errors():
        found = []
        for name, path in ruleset_paths().items():
            rs = fivehundred.load_ruleset(path)
            found.append({"name": name, "description": rs.description, "path": str(path)})
    if as_json:
        print_json(found)
        return
    table = Table("name", "description")
    for item in found:
        table.add_row(plain(item["name"]), plain(item["description"]))
    out.print(table)


@rules_app.command("show", cls=Command)
def rules_show(
    name: Annotated[str, typer.Argument(help="Ruleset name or YAML path.", autocompletion=ruleset_names)]
    = "pagat-australian",
    as_json: Annotated[bool, typer.Option("--json", help="Print the resolved ruleset as JSON.")] = False,
    as_yaml: Annotated[bool, typer.Option("--yaml", help="Print the resolved ruleset as YAML (every field, inherited "
                                          "ones filled in), a ruleset file to start from.")] = False,
) -> None:
    """Explain a ruleset as readable rules (or print it resolved, as JSON or YAML)."""
    from fivehundred.rules.explain import explain
    from fivehundred.rules.resolved import ruleset_yaml

    with user_errors():
        rs = fivehundred.load_ruleset(name)
    if as_yaml:
        sys.stdout.write(ruleset_yaml(rs))
    elif as_json:
        print_json(rs.model_dump(mode="json") | {"content_hash": rs.content_hash})
    else:
        sys.stdout.write(explain(rs))


@rules_app.command("diff", cls=Command)
def rules_diff(
    first: Annotated[str, typer.Argument(help="Ruleset name or YAML path.", autocompletion=ruleset_names)],
    second: Annotated[str, typer.Argument(help="Ruleset name or YAML path to compare with the first.",
                                          autocompletion=ruleset_names)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the differences as JSON.")] = False,
) -> None:
    """List what differs between two rulesets, one line per field: path, both values, what it means."""
    from fivehundred.rules.explain import diff

    with user_errors():
        a, b = fivehundred.load_ruleset(first), fivehundred.load_ruleset(second)
    differences = diff(a, b)
    if as_json:
        print_json({"first": a.name, "second": b.name, "differences": [d.as_dict() for d in differences]})
        return
    lines = [str(d) for d in differences] or [f"{a.name} and {b.name} say the same"]
    sys.stdout.write("".join(f"{printable(line)}\n" for line in lines))


@rules_app.command("schema", cls=Command)
def rules_schema(
    record: Annotated[bool, typer.Option("--record", help="The game-record schema instead.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Accepted for symmetry; the schema is JSON.")] = True,
) -> None:
    """Print the JSON Schema of rulesets (for editors) or of game records."""
    from fivehundred.records.record import record_schema
    from fivehundred.rules.ruleset import Ruleset

    print_json(record_schema() if record else Ruleset.model_json_schema())


def main() -> None:
    app(prog_name="fivehundred")
