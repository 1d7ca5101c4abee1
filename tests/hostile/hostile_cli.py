"""What the hostile tests share: the command line through Typer's runner, and its verdicts; the command line as a
real process (``start``), to be stopped by a signal, and never left running when a test fails."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
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


# --- real processes ------------------------------------------------------------------------------------

CLI = [sys.executable, "-m", "fivehundred"]
MANY = "1000000"
"""Games enough that a run is still going when the test stops it."""

_started: list[subprocess.Popen[str]] = []


def _default_sigint() -> None:
    # a test runner started in the background ignores SIGINT, and a child inherits that: Python then
    # never raises KeyboardInterrupt, and the run a test stops with Ctrl-C would go on
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str], cwd: Path, code: str | None = None) -> subprocess.Popen[str]:
    """``fivehundred ARGS`` (or ``python -c CODE ARGS``) in ``cwd``, a session of its own (``os.killpg`` is Ctrl-C
    at a terminal), SIGINT at its default; ``no_run_left_going`` kills it if the test leaves it running."""
    command = [sys.executable, "-c", code, *args] if code else [*CLI, *args]
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_default_sigint)
    _started.append(process)
    return process


def wait_for(ready: Callable[[], bool], process: subprocess.Popen[str], polls: int = 600) -> None:
    """Poll (at most ``polls`` times, 50 ms apart) until ``ready()``; the run must still be going."""
    for _ in range(polls):
        if ready():
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    _kill(process)
    pytest.fail(f"not ready after {polls} polls: {process.communicate()}")


def lines_in(path: Path, n: int) -> Callable[[], bool]:
    return lambda: path.exists() and path.read_bytes().count(b"\n") >= n


def finish(process: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str, str]:
    """Wait for a stopped run to end: (exit code, stdout, stderr); a run still going after ``timeout`` seconds is
    killed and fails the test."""
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        stdout, stderr = process.communicate()
        pytest.fail(f"still running {timeout:.0f} s after it was stopped: {stderr[-2000:]}")
    return process.returncode, stdout, stderr


def _kill(process: subprocess.Popen[str]) -> None:
    """SIGKILL to the process and its workers (its session's group)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture(autouse=True)
def no_run_left_going() -> Iterator[None]:
    """After each test of a module that imports this fixture: kill every run ``start`` started that is still going."""
    yield
    while _started:
        process = _started.pop()
        _kill(process)
        process.communicate()
