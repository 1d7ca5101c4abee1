"""The help and the shell completion users meet first: plain value names, no markup, no value beside a
flag, the players installed named, and completion scripts for the usual shells."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
import typer.completion
import typer.main
from hostile_cli import run

from fivehundred.cli.app import app
from fivehundred.rules.manager import player_factories


def commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, command in getattr(group, "commands", {}).items():
        found += commands(command, (*path, name))
    return found


ALL = commands(typer.main.get_command(app))


def test_every_command_is_walked() -> None:
    assert {("simulate",), ("validate",), ("show",), ("play",), ("rules", "show")} <= set(ALL)


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "fivehundred")
def test_help_reads_cleanly(path: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    result = run(*path, "--help")
    assert result.exit_code == 0, result.output
    text = result.output
    for raw in ("<bool>", "<int", "<str>", "<path>", "<float", "list[", "``", "\\["):
        assert raw not in text, (raw, text)
    flags = [line for line in text.splitlines() if "--help" in line]
    assert flags and all("BOOLEAN" not in line for line in flags)
    for row in text.splitlines():  # a command's line in the list is never cut before the panel's edge
        cells = row.strip("│ ").split()
        if len(cells) == 1 and cells[0].isalpha() and cells[0].islower() and cells[0] not in {"name", "files"}:
            pytest.fail(f"a line of one word, {cells[0]!r}, where a sentence wrapped early:\n{text}")


@pytest.mark.parametrize(("path", "option"), [(("simulate",), "--players"), (("compare",), "--players"),
                                              (("play",), "--bots")])
def test_the_players_installed_are_named(path: tuple[str, ...], option: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    text = run(*path, "--help").output
    line = next(line for line in text.splitlines() if option in line)
    names = sorted(player_factories())
    assert len(names) >= 3
    assert ", ".join(names) in line, line


def test_a_seed_records_cannot_hold_is_a_usage_error() -> None:
    result = run("simulate", "-n", "1", "--seed", str(1 << 63))
    assert result.exit_code == 2
    assert "64-bit range" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("shell", "marker"), [("bash", "complete_bash"), ("zsh", "compdef"),
                                               ("fish", "complete --command")])
def test_show_completion_prints_a_script_for_the_shell(shell: str, marker: str, monkeypatch: Any) -> None:
    # --show-completion takes no value: Typer asks which shell it runs under (none is found for a
    # process without a terminal), so each shell is stood in for.
    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: shell)
    result = run("--show-completion")
    assert result.exit_code == 0, result.output
    assert marker in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("words", "cword", "expected"), [
    ("fivehundred sim", "1", "simulate"),
    ("fivehundred simulate --wo", "2", "--workers"),
    ("fivehundred rules sh", "2", "show"),
])
def test_the_shell_completes_commands_and_options(words: str, cword: str, expected: str) -> None:
    env = os.environ | {"_FIVEHUNDRED_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword}
    done = subprocess.run([sys.executable, "-m", "fivehundred"], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout.split(), done.stdout
