"""What the hostile tests share: the command line through Typer's runner, and its verdicts."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from fivehundred.cli.app import app

REF = "pagat-australian"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="fivehundred")


def one_line_error(result: Result, *words: str) -> str:
    """Exit 1 with a message on stderr and no traceback; the message's lines each name what is wrong."""
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output, (word, result.output)
    return result.output


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path
