"""What every command shares: the two consoles, JSON output and the handling of user errors."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from fivehundred.rules.errors import FiveHundredError

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
        err.print(f"[red]error:[/red] {escape(str(e))}", highlight=False, markup=True, soft_wrap=True)
        raise typer.Exit(1) from None
    except (ValueError, OSError) as e:
        err.print(f"[red]error:[/red] {e}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None


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
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
