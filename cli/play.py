"""``fivehundred play``: a person plays one seat against bots in the terminal (or from a script on stdin)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .completion import player_names, ruleset_names
from .console import PLAYERS, err, user_errors

DEFAULT_OUT = Path("game.jsonl")


def play(
    seat: Annotated[str | None, typer.Option("--seat", "-s", help="The seat you play (e.g. S); with --resume, the "
                                             "record's.")] = None,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset name or YAML path (default "
                                                "pagat-australian; with --resume, the record's).",
                                                autocompletion=ruleset_names)] = None,
    bots: Annotated[str | None, typer.Option("--bots", "-b", help=f"The player at every other seat: {PLAYERS} "
                                             "(default club, as simulate's).",
                                             autocompletion=player_names)] = None,
    seed: Annotated[int | None, typer.Option(help="The deal and the bots' choices follow from the seed (default 0).")]
    = None,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="Write the game record here after every hand "
                                                  "(default game.jsonl; with --resume, the resumed file).")] = None,
    max_deals: Annotated[int, typer.Option("--max-deals", min=1, help="Stop the game after this many deals.")] = 1000,
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the game recorded in this file (written by "
                                                "play, stopped by quit, Ctrl-C or the end of the input).")] = None,
    ask_always: Annotated[bool, typer.Option("--ask-always", help="Ask for your card even when only one is "
                                             "legal.")] = False,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Show suits as letters (7H), not symbols; the "
                                             "default where the terminal cannot show them.")] = False,
) -> None:
    """Play one seat against bots: the table shows what your seat may know, you type your choice
    (7H, pass, 4D, JK:S; '?' lists the legal ones; 'quit' stops), an illegal one is refused with the rule.
    The game is written after every hand; quit, Ctrl-C or the end of the input keep it, and
    `play --resume FILE` continues it.  Reads stdin, so a game can be scripted."""
    from fivehundred.batch.table import play_at_table, resume_args
    from fivehundred.batch.table_view import ascii_text, shows_symbols

    with user_errors():
        record = None if resume is None else _read_game(resume)
        if record is not None:
            seat = _same("--seat", seat, (found := resume_args(record))[0])
            bots = _same("--bots", bots, found[1])
            seed = _same("--seed", seed, found[2])
            ruleset = ruleset or _recorded_ruleset(record)
        if seat is None:
            raise typer.BadParameter("which seat do you play? (e.g. --seat S)", param_hint="--seat")
        target = out_file or resume or DEFAULT_OUT
        if record is None:
            _not_an_unfinished_game(target)
        ascii_only = ascii_only or not shows_symbols(sys.stdout.encoding)
        game = play_at_table(ruleset or "pagat-australian", seat, bots=bots or "club", seed=seed or 0,
                             out=target, max_deals=max_deals, ask_always=ask_always, resume=record,
                             write=_printer(ascii_text if ascii_only else None))
    if game.stopped is not None:
        again = f"fivehundred play --resume {target}" + (f" -r {ruleset}" if ruleset and Path(ruleset).exists() else "")
        lines = [f"{game.stopped}: the game so far is in {target}", f"to continue it: {again}"]
        if game.stopped.status == 1:
            err.print("error: " + "\n".join(lines), highlight=False, markup=False, soft_wrap=True)
        else:
            sys.stdout.write("".join(f"\n{line}" for line in lines) + "\n")
        raise typer.Exit(game.stopped.status)


def _same(option: str, given: Any, recorded: Any) -> Any:
    if given is not None and str(given) != str(recorded):
        raise typer.BadParameter(f"the resumed game has {recorded}, not {given}", param_hint=option)
    return recorded


def _recorded_ruleset(record: dict[str, Any]) -> str:
    """The shipped ruleset a record names (a ruleset of the user's own is given with ``-r FILE``)."""
    from fivehundred.rules.errors import UnknownNameError
    from fivehundred.rules.loading import ruleset_paths

    name = str(record["ruleset"]["name"])
    if name not in ruleset_paths():
        raise UnknownNameError(f"the game was played under the ruleset {name!r}, which is not shipped: give its "
                               "file with -r FILE")
    return name


def _read_game(path: Path) -> dict[str, Any]:
    from fivehundred.records.reading import read_record_file
    from fivehundred.rules.errors import RecordError

    games = list(read_record_file(path))
    if len(games) != 1:
        raise RecordError(f"{path}: holds {len(games)} records; --resume takes a file with one game")
    source, record, problem = games[0]
    if record is None:
        raise RecordError(f"{source}: {problem}")
    return record


def _not_an_unfinished_game(target: Path) -> None:
    """A new game never replaces a game that can still be resumed."""
    from fivehundred.records.reading import read_record_file
    from fivehundred.rules.errors import FiveHundredError

    if not target.is_file():
        return
    try:
        games = list(read_record_file(target, check_schema=False))
    except FiveHundredError:
        return
    if len(games) == 1 and games[0][1] is not None and games[0][1].get("result") is None:
        raise FiveHundredError(f"{target} holds an unfinished game: continue it with 'fivehundred play --resume "
                               f"{target}', or write the new one elsewhere (-o FILE)")


def _printer(convert: Any) -> Any:
    """How the table prints: names from the ruleset file made printable, in ASCII where asked."""
    from fivehundred.rules.printable import printable

    def write(text: str) -> None:
        shown = "\n".join(printable(line) for line in text.split("\n"))
        shown = convert(shown) if convert else shown
        sys.stdout.write(shown + ("" if shown.endswith("> ") else "\n"))
        sys.stdout.flush()

    return write
