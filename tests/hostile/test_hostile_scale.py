"""Large files of records: ``validate`` streams them with flat memory, checks them with ``--workers``
processes giving the very same report in the same order, and shows progress on a terminal only."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hostile_cli import REF, run, write

import fivehundred
from fivehundred.batch import checking


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("scale") / "games.jsonl"
    fivehundred.simulate(24, seed=11, ruleset=REF, players="random", out=path)
    return path


def mixed(folder: Path, games: Path) -> list[Path]:
    """Good records with bad ones among them: broken on replay, outside the schema, not JSON, not UTF-8,
    blank lines; and a ruleset file, good or bad, on either side."""
    lines = games.read_bytes().splitlines()
    out: list[bytes] = []
    for i, line in enumerate(lines):
        record = json.loads(line)
        if i % 5 == 1:
            record["hands"][0]["tricks"][0]["winner"] = "S" if record["hands"][0]["tricks"][0]["winner"] != "S" else "E"
        elif i % 7 == 2:
            record["extra"] = 1
        out.append(json.dumps(record).encode())
        if i % 9 == 3:
            out += [b"{not json", b"", b'{"caf\xe9": 1}']
    records = folder / "mixed.jsonl"
    records.write_bytes(b"\n".join(out) + b"\n")
    bad = write(folder / "bad.yaml", "extends: pagat-australian\nscoring: {nonsense: 1}\n")
    good = write(folder / "good.yaml", "extends: pagat-australian\nname: mine\n")
    return [bad, records, good]


def test_more_workers_give_the_same_report_in_the_same_order(tmp_path: Path, games: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checking, "JOB_RECORDS", 3)  # many jobs, finishing out of order in the pool
    files = mixed(tmp_path, games)
    one = fivehundred.validate(files, workers=1)
    two = fivehundred.validate(files, workers=2)
    assert two == one
    assert one.checked == 24 + 3 * 2 + 2  # the records, the two bad lines thrice, the rulesets
    sources = [p.source for p in one.problems]
    assert sources[0] == str(files[0]) and not any(s == str(files[2]) for s in sources)
    lines = [int(s.rsplit(":", 1)[1]) for s in sources if s.startswith(str(files[1]))]
    assert lines == sorted(lines) and len(set(lines)) > 10
    for args in ((), ("--json",)):
        first, second = run("validate", *files, *args, "-w", "1"), run("validate", *files, *args, "-w", "2")
        assert first.exit_code == second.exit_code == 1
        assert first.stdout_bytes == second.stdout_bytes


def test_progress_counts_every_byte_of_every_file(tmp_path: Path, games: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checking, "JOB_RECORDS", 5)
    files = mixed(tmp_path, games)
    steps: list[int] = []
    fivehundred.validate(files, workers=2, progress=steps.append)
    assert sum(steps) == sum(f.stat().st_size for f in files)
    assert len(steps) > 5 and all(n >= 0 for n in steps)


def test_memory_stays_flat_however_many_records(tmp_path: Path, games: Path) -> None:
    """Peak memory (counted by tracemalloc, not timed) of a file of 24 records and of 120."""
    lines = games.read_text(encoding="utf-8").splitlines(keepends=True)
    small, large = write(tmp_path / "small.jsonl", "".join(lines)), write(tmp_path / "large.jsonl", "".join(lines * 5))
    fivehundred.validate([small])  # the schema, the ruleset and the engine loaded once

    def peak(path: Path) -> int:
        tracemalloc.start()
        try:
            assert fivehundred.validate([path]).ok
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    first, second = peak(small), peak(large)
    assert large.stat().st_size > 4 * small.stat().st_size
    assert second < 1.3 * first + (256 << 10), (first, second)


def test_no_progress_bar_unless_both_streams_are_a_terminal(games: Path) -> None:
    result = run("validate", games)
    assert result.exit_code == 0
    assert result.stderr == "" and result.stdout == "24 of 24 valid\n"


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("as_json", [False, True])
def test_a_progress_bar_on_a_terminal_never_with_json(games: Path, as_json: bool) -> None:
    main, side = pty.openpty()
    env = os.environ | {"COLUMNS": "100", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "fivehundred", "validate", str(games), *(["--json"] if as_json else [])]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=side, stderr=side, env=env) as process:
        os.close(side)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 1 << 16)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        assert process.wait() == 0
    os.close(main)
    assert (b"validating" in shown) != as_json, shown[-400:]


def test_workers_are_capped_at_the_cores(games: Path) -> None:
    cores = os.cpu_count() or 1
    result = run("validate", games, "--workers", str(cores + 7))
    assert result.exit_code == 0
    assert f"--workers {cores + 7} is more than the {cores} cores of this machine; using {cores}" in result.stderr
    assert result.stdout == "24 of 24 valid\n"


def test_problems_beyond_the_limit_are_counted_not_kept(tmp_path: Path, games: Path) -> None:
    files = mixed(tmp_path, games)
    every = fivehundred.validate(files)
    assert every.not_kept == 0 and len(every.problems) > 8
    kept = fivehundred.validate(files, max_problems=5, workers=2)
    assert kept.problems == every.problems[:5] and kept.not_kept == len(every.problems) - 5
    assert kept.invalid == every.invalid and not kept.ok
    assert kept.as_dict()["valid"] == every.as_dict()["valid"] and kept.as_dict()["problems_not_kept"] == kept.not_kept
    result = run("validate", *map(str, files), "--max-problems", "5")
    assert result.exit_code == 1 and result.stdout.count("invalid ") == 5
    assert f"… and {kept.not_kept} more problems, not shown" in result.stdout
    assert f"{every.checked - every.invalid} of {every.checked} valid" in result.stdout
    shown = run("validate", *map(str, files), "--max-problems", "0")
    assert shown.stdout.count("invalid ") == len(every.problems) and "more problems" not in shown.stdout
