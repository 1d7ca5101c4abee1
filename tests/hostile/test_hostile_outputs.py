"""Outputs: never written over an input, never left half-way.  A full disk leaves only whole records and
says where they are; a crash leaves an earlier file as it was; a run is replaced only when complete."""

from __future__ import annotations

import errno
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred import hookimpl
from fivehundred.batch import simulation
from fivehundred.rules.manager import make_plugin_manager, set_plugin_manager
from fivehundred.rules.outputs import OutputError, Replacement, partial_path


class FullDisk:
    """A raw file that takes ``room`` bytes, then writes what still fits and fails with ENOSPC."""

    def __init__(self, fd: int, *, room: int):
        self.file = open(fd, "wb", buffering=0)  # noqa: SIM115 - closed by close()
        self.room = room

    def write(self, data: Any) -> int:
        fits = min(len(data), self.room)
        if fits == 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= fits
        return self.file.write(bytes(data[:fits]))

    def truncate(self, size: int) -> int:
        return self.file.truncate(size)

    def close(self) -> None:
        self.file.close()


def on_a_full_disk(monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    class OnAFullDisk(Replacement):
        def __init__(self, path: str | Path):
            super().__init__(path, opener=functools.partial(FullDisk, room=room))

    monkeypatch.setattr(simulation, "Replacement", OnAFullDisk)


def test_a_full_disk_leaves_whole_records_and_says_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = write(tmp_path / "games.jsonl", "the previous run\n")
    on_a_full_disk(monkeypatch, room=60_000)
    with pytest.raises(OutputError) as caught:
        fivehundred.simulate(200, 1, REF, "random", out=out)
    kept = partial_path(out)
    lines = kept.read_text(encoding="utf-8").splitlines()
    assert 0 < len(lines) < 200 and kept.stat().st_size <= 60_000
    assert str(caught.value) == (f"{out}: cannot write: No space left on device; the {len(lines)} whole record(s) "
                                 f"written before it are in {kept}; {out} is left as it was")
    assert [json.loads(line)["game"] for line in lines] == list(range(len(lines)))
    assert fivehundred.validate([kept]).ok
    assert out.read_text(encoding="utf-8") == "the previous run\n"


def test_a_full_disk_before_the_first_record_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "games.jsonl"
    on_a_full_disk(monkeypatch, room=10)
    result = run("simulate", "-n", "5", "-p", "random", "--out", out)
    one_line_error(result, "No space left on device; nothing of this run is kept")
    assert not out.exists() and not partial_path(out).exists()


def test_parquet_on_a_full_disk_keeps_the_finished_row_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from fivehundred.records import parquet

    real = pq.ParquetWriter
    calls = {"n": 0}

    def failing_writer(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(pq, "ParquetWriter", failing_writer)
    monkeypatch.setattr(parquet, "GAMES_PER_ROW_GROUP", 3)
    out = write(tmp_path / "t.parquet", "old")
    with pytest.raises(OutputError, match="the games of the 2 row group"):
        fivehundred.simulate(20, 1, REF, "random", out=out)
    assert out.read_text() == "old"
    table = pq.read_table(tmp_path / "t.parquet.parts")
    assert sorted(set(table.column("game").to_pylist())) == list(range(6))


class Crash:
    @hookimpl(tryfirst=True)
    def fivehundred_score_hand(self, ruleset: Any, outcome: Any) -> Any:
        raise RuntimeError("boom")


def test_a_run_that_crashes_leaves_the_previous_file_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    assert run("simulate", "-n", "20", "-p", "random", "--out", out).exit_code == 0
    before = out.read_bytes()
    pm = make_plugin_manager(entry_points=False)
    pm.register(Crash(), name="crasher")
    set_plugin_manager(pm)
    try:
        one_line_error(run("simulate", "-n", "20", "-p", "random", "--out", out), "plugin 'crasher' crashed")
    finally:
        set_plugin_manager(None)
    assert out.read_bytes() == before
    assert not partial_path(out).exists()


def test_a_complete_run_replaces_the_file(tmp_path: Path) -> None:
    out = write(tmp_path / "games.jsonl", "old\n")
    assert run("simulate", "-n", "3", "-p", "random", "--out", out).exit_code == 0
    assert [json.loads(line)["game"] for line in out.read_text().splitlines()] == [0, 1, 2]
    assert not partial_path(out).exists()


def test_an_output_that_is_an_input_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    victim = tmp_path / "victim.jsonl"
    assert run("simulate", "-n", "3", "-p", "random", "--out", victim).exit_code == 0
    before = victim.read_bytes()
    one_line_error(run("report", victim, "--html", victim), f"{victim}: is also an input")
    (tmp_path / "link.html").symlink_to(victim)
    one_line_error(run("report", victim, "--html", tmp_path / "link.html"), "is also an input")
    assert victim.read_bytes() == before
    house = write(tmp_path / "house.yaml", f"extends: {REF}\n")
    one_line_error(run("simulate", "-n", "1", "-r", house, "--out", house), f"{house}: is also an input")
    assert house.read_text() == f"extends: {REF}\n"


def test_a_report_is_written_whole(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    games = tmp_path / "games.jsonl"
    assert run("simulate", "-n", "3", "-p", "random", "--out", games).exit_code == 0
    html = write(tmp_path / "r.html", "old")
    assert run("report", games, "--html", html).exit_code == 0
    assert html.read_text().startswith("<!DOCTYPE html>") and not partial_path(html).exists()


def test_an_earlier_killed_parquet_run_is_not_overwritten(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    (tmp_path / "t.parquet.parts").mkdir()
    one_line_error(run("simulate", "-n", "1", "-p", "random", "--out", tmp_path / "t.parquet"),
                   "holds what an earlier run wrote")


def test_workers_are_capped_at_the_cores(tmp_path: Path) -> None:
    import os

    cores = os.cpu_count() or 1
    result = run("simulate", "-n", "2", "-p", "random", "--workers", "1000", "--json")
    assert result.exit_code == 0, result.output
    assert f"warning: --workers 1000 is more than the {cores} cores of this machine; using {cores}" in result.stderr
