"""Signals during a run: Ctrl-C and SIGTERM keep the games finished, exit 130 and say the run was
interrupted; SIGKILL leaves the finished games recoverable.  Real processes, stopped once output shows."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from hostile_cli import (
    MANY,
    finish,
    lines_in,
    no_run_left_going,  # noqa: F401 - an autouse fixture: imported, it runs after each test here
    start,
    wait_for,
)

from fivehundred.rules.outputs import partial_path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def whole_records(path: Path) -> list[int]:
    games = [json.loads(line)["game"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert games == list(range(len(games)))
    return games


@pytest.mark.parametrize(("signum", "workers"), [(signal.SIGTERM, "1"), (signal.SIGINT, "1"),
                                                  (signal.SIGTERM, "2")])
def test_simulate_stopped_keeps_the_finished_games(tmp_path: Path, signum: int, workers: str) -> None:
    out = tmp_path / "t.jsonl"
    process = start(["simulate", "-n", MANY, "-p", "random", "--workers", workers, "--out", str(out), "--json"],
                    tmp_path)
    wait_for(lines_in(partial_path(out), 20), process)
    os.killpg(process.pid, signum) if signum == signal.SIGINT else process.send_signal(signum)
    code, stdout, stderr = finish(process)
    assert code == 130, stderr
    assert "Traceback" not in stderr and "Process ForkPoolWorker" not in stderr, stderr
    summary = json.loads(stdout)
    assert summary["interrupted"] is True
    assert len(whole_records(out)) == summary["games"] >= 20
    assert not partial_path(out).exists()


def test_the_summary_of_an_interrupted_run_without_games_shows_no_none(tmp_path: Path) -> None:
    from fivehundred.batch.simulation import Summary
    from fivehundred.cli.app import _print_summary
    from fivehundred.cli.console import out

    summary = Summary("pagat-australian", 0, ["random"] * 4, ["NS", "EW"], interrupted=True)
    with out.capture() as captured:
        _print_summary(summary.as_dict())
    assert "None" not in captured.get() and "interrupted" in captured.get()


def test_compare_stopped_by_ctrl_c_exits_130_quietly(tmp_path: Path) -> None:
    process = start(["compare", "-n", MANY, "-p", "random", "--workers", "2", "--json"], tmp_path)
    # compare prints nothing until it ends: wait until its workers have played a few pairs
    wait_for(lambda: len(_children(process.pid)) >= 2, process)
    time.sleep(0.5)
    os.killpg(process.pid, signal.SIGINT)
    code, stdout, stderr = finish(process)
    assert code == 130, stderr
    assert "Process ForkPoolWorker" not in stderr and "Traceback" not in stderr, stderr
    assert json.loads(stdout)["interrupted"] is True


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


PARQUET_IN_SMALL_GROUPS = ("import sys; from fivehundred.records import parquet; parquet.GAMES_PER_ROW_GROUP = 5; "
                           "from fivehundred.cli.app import app; app(prog_name='fivehundred')")


def test_parquet_killed_keeps_the_finished_row_groups(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "t.parquet"
    parts = tmp_path / "t.parquet.parts"
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out)], tmp_path, PARQUET_IN_SMALL_GROUPS)
    wait_for(lambda: parts.exists() and len(list(parts.glob("part-*.parquet"))) >= 3, process)
    process.kill()
    finish(process)
    assert not out.exists()
    games = pq.read_table(parts).column("game").to_pylist()
    assert sorted(set(games)) == list(range(len(set(games)))) and len(set(games)) % 5 == 0


def test_parquet_stopped_by_sigterm_is_a_complete_file(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "t.parquet"
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out), "--json"], tmp_path,
                    PARQUET_IN_SMALL_GROUPS)
    wait_for(lambda: (tmp_path / "t.parquet.parts").exists(), process)
    process.send_signal(signal.SIGTERM)
    code, stdout, stderr = finish(process)
    assert code == 130 and "Traceback" not in stderr, stderr
    summary = json.loads(stdout)
    assert summary["interrupted"]
    table = pq.read_table(out)
    assert len(set(table.column("game").to_pylist())) == summary["games"]
    assert not (tmp_path / "t.parquet.parts").exists() and not partial_path(out).exists()
