"""What every command shares: the two consoles, JSON output and the handling of user errors."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, get_args

import typer
import typer.core
from rich.console import Console
from rich.markup import escape

from fivehundred.rules.errors import FiveHundredError, RulesetError
from fivehundred.rules.inputs import check_seed
from fivehundred.rules.printable import printable

INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it): the
output holds the games finished before it, and ``simulate && next-step`` stops there."""

out = Console()
err = Console(stderr=True)


@contextmanager
def user_errors() -> Iterator[None]:
    """Input errors: a message on stderr and exit 1, never a traceback."""
    try:
        yield
    except FiveHundredError as e:
        lines = e.problems if isinstance(e, RulesetError) else [str(e)]  # a ruleset's problems, a line each
        err.print("[red]error:[/red] " + "\n".join(plain(line) for line in lines), highlight=False, markup=True,
                  soft_wrap=True)
        raise typer.Exit(1) from None
    except (ValueError, OSError) as e:
        err.print(f"[red]error:[/red] {plain(str(e))}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None


def plain(text: object) -> str:
    """Text from a file (a name, a message quoting one) as console markup that shows it as written, on one
    line: its control characters escaped (``printable``), its square brackets not taken for styles."""
    return escape(printable(text))


RULESET_HELP = "Ruleset: a shipped or plugin name, or a YAML file given as a path (./house.yaml)."
RULESET_FOR_RECORDS = ("A ruleset file (or name) the records were played under; repeat for several, each for the "
                       "records of its name. Records of a ruleset that is not shipped carry it: no file needed.")


def warn_name_clash(ruleset: Any) -> None:
    """Warn that records of ``ruleset`` would claim a shipped ruleset's name with other rules."""
    from fivehundred.records.rulesets import name_clash

    problem = name_clash(ruleset)
    if problem is not None:
        err.print(f"warning: {problem}", highlight=False, soft_wrap=True, markup=False)


def warn_pure_search(ruleset: Any, players: str | None) -> None:
    """Note, before a batch, that ``players`` solve sampled deals double dummy where the solver runs as pure
    Python (an install without a C compiler): there each game takes seconds, not a fraction of one."""
    from fivehundred.engine.build import compiled_modules

    if "fivehundred.engine.solver_search" in compiled_modules():
        return
    from fivehundred.rules.loading import load_ruleset
    from fivehundred.rules.ruleset import Ruleset

    if not isinstance(ruleset, Ruleset):
        try:
            ruleset = load_ruleset(ruleset or "pagat-australian")
        except (FiveHundredError, ValueError, OSError):  # the command itself reports it
            return
    names = [p.strip() for p in (players or "club").split(",") if p.strip()]
    slow = sorted({name for name in names if _solves_deals(name, ruleset)})
    if slow:
        err.print(f"note: {', '.join(slow)} solve{'s' if len(slow) == 1 else ''} sampled deals double dummy, "
                  "and the solver runs here as pure Python (not compiled at install: no C compiler, or "
                  "FIVEHUNDRED_NO_EXTENSIONS=1): about seventy times as slow as compiled, seconds a game; "
                  "-p club:fast plays by its rules of thumb alone (docs/install.md)",
                  highlight=False, soft_wrap=True, markup=False)


def _solves_deals(name: str, ruleset: Any) -> bool:
    from fivehundred.bots.params import ParamsError, club_spec, searches, tuned_for

    kind, _, arg = name.partition(":")
    if kind == "solver":
        return True
    if kind != "club":
        return False
    try:
        params, search = club_spec(arg or None)
        return searches(params if params is not None else tuned_for(ruleset, search))
    except (ParamsError, ValueError, OSError):  # the batch itself reports a bad spec
        return False


def capped_workers(workers: int) -> int:
    """``--workers`` at most the machine's cores (more only slow a batch down), with a warning."""
    import os

    cores = os.cpu_count() or 1
    if workers > cores:
        err.print(f"warning: --workers {workers} is more than the {cores} cores of this machine; using {cores}",
                  highlight=False)
        return cores
    return workers


def print_json(data: Any) -> None:
    """``data`` as JSON on stdout: with every character as it is where stdout is UTF-8, else in ``\\u``
    escapes (still the same JSON)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=not _utf8(sys.stdout)) + "\n")


def _utf8(stream: Any) -> bool:
    return str(getattr(stream, "encoding", "") or "").lower().replace("_", "-") in ("utf-8", "utf8")


def tolerant_streams() -> None:
    """stdout and stderr write what their encoding cannot (a ``♠`` to a latin-1 or ASCII terminal, a lone
    surrogate from a file) as a backslash escape instead of stopping the program with a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change (closed …)
                reconfigure(errors="backslashreplace")


def seed_in_range(value: int) -> int:
    """``--seed``: a 64-bit integer, as records hold it (a usage error otherwise)."""
    try:
        check_seed(value)
    except ValueError as e:
        raise typer.BadParameter(str(e).removeprefix("seed: ")) from None
    return value


_METAVARS = {int: "INTEGER", float: "NUMBER", str: "TEXT", bool: "BOOLEAN"}


def _metavar(param: Any) -> str | None:
    """The plain name of a parameter's value (``INTEGER``, ``TEXT``, ``PATH...``); None where Typer
    describes its types the old way (click's own names)."""
    if getattr(param, "is_flag", False):
        return ""  # a flag takes no value
    kind = getattr(param, "type_descriptor", None)
    if kind is None:
        return None
    if kind.is_choice:
        return "[" + "|".join(str(c) for c in kind.choices) + "]"
    annotation = get_args(kind.annotation)[0] if kind.is_list else kind.annotation
    name = "PATH" if kind.is_path else _METAVARS.get(annotation, getattr(annotation, "__name__", "value").upper())
    return name + ("..." if param.nargs != 1 else "")


def _readable(params: list[Any]) -> list[Any]:
    """Help that reads cleanly: no value shown beside a flag, and plain names for the values of the others."""
    for param in params:
        if param.metavar is not None:
            continue
        name = _metavar(param)
        if param.param_type_name != "argument":
            param.metavar = name
        elif name is not None:  # an argument's metavar would replace its name: only its type is renamed
            param.display_type = lambda ctx, name=name: name
    return params


PLAYERS = "{players}"
"""Stands in a help text for the names of the players installed, filled in when the help is shown."""


class Command(typer.core.TyperCommand):
    """A command whose help reads cleanly (``_readable``) and names the players installed (``PLAYERS``)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _readable(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        params: list[Any] = self.params
        for param in params:
            help_text = getattr(param, "help", None)
            if help_text and PLAYERS in help_text:
                param.help = help_text.replace(PLAYERS, _player_names())
        super().format_help(ctx, formatter)


def _player_names() -> str:
    from fivehundred.rules.manager import player_factories

    return ", ".join(sorted(player_factories()))


class Group(typer.core.TyperGroup):
    """A group of commands whose help reads cleanly (``_readable``)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _readable(super().get_params(ctx))
