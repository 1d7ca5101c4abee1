"""Issue 29, item 1: outputs never destroy inputs or earlier results.

Every command that writes a file (simulate's JSON Lines and Parquet, report, import, export, play,
calibrate) refuses an output that is one of its inputs, writes through a ``NAME.partial`` created
afresh (never through a link), renamed over the target only when complete, with the permissions the
umask gives; refuses a second run writing the same file at once and a ``NAME.partial`` left by a killed
run; checks the output before any work; and takes any legal file name."""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_cli import (
    MANY,
    REF,
    finish,
    lines_in,
    no_run_left_going,  # noqa: F401 - an autouse fixture: imported, it runs after each test here
    one_line_error,
    run,
    start,
    wait_for,
    write,
)

from fivehundred.bots.params import DEFAULT, write_params
from fivehundred.rules.outputs import OutputError, check_outputs, partial_path, replace_file

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals, links and permissions")

PTN = Path(__file__).parent.parent / "data" / "ptn" / "australian-8NT-partial.ptn"
# --- helpers --------------------------------------------------------------------------------------


def whole_games(path: Path) -> int:
    games = [json.loads(line)["game"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert games == list(range(len(games)))
    return len(games)


def games_file(path: Path, n: int = 5, seed: int = 1) -> bytes:
    result = run("simulate", "-n", n, "--seed", seed, "-p", "random", "--out", path)
    assert result.exit_code == 0, result.output
    return path.read_bytes()


@pytest.fixture
def umask_022() -> Iterator[None]:
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- outputs that are inputs -----------------------------------------------------------------------


def test_import_refuses_to_write_over_its_ptn(tmp_path: Path) -> None:
    ptn = write(tmp_path / "g.ptn", PTN.read_bytes())
    one_line_error(run("import", ptn, "-o", ptn), f"{ptn}: is also an input")
    assert ptn.read_bytes() == PTN.read_bytes()
    (tmp_path / "link.jsonl").symlink_to(ptn)
    one_line_error(run("import", ptn, "-o", tmp_path / "link.jsonl"), "is also an input")
    assert ptn.read_bytes() == PTN.read_bytes()


def test_export_refuses_to_write_over_its_records(tmp_path: Path) -> None:
    records = tmp_path / "c.jsonl"
    before = games_file(records)
    one_line_error(run("export", "--ptn", records, "-o", records), f"{records}: is also an input")
    os.link(records, tmp_path / "hard.jsonl")
    one_line_error(run("export", "--ptn", records, "-o", tmp_path / "hard.jsonl"), "is also an input")
    assert records.read_bytes() == before


def test_calibrate_refuses_to_write_over_its_start_or_its_ruleset(tmp_path: Path) -> None:
    start_file = tmp_path / "start.json"
    write_params(start_file, DEFAULT)
    before = start_file.read_bytes()
    one_line_error(run("calibrate", "--start", start_file, "-o", start_file, "-n", "1"), "is also an input")
    assert start_file.read_bytes() == before
    house = write(tmp_path / "house.yaml", f"extends: {REF}\n")
    one_line_error(run("calibrate", "-r", house, "-o", house, "-n", "1"), "is also an input")
    assert house.read_text() == f"extends: {REF}\n"


def test_a_report_chart_that_is_an_input_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    charts = tmp_path / "charts"
    charts.mkdir()
    records = charts / "1-contracts.png"  # the name of the first chart
    before = games_file(records)
    result = run("report", records, "--png", charts)
    one_line_error(result, "is also an input")
    assert records.read_bytes() == before and sorted(p.name for p in charts.iterdir()) == ["1-contracts.png"]


# --- permissions -----------------------------------------------------------------------------------


def test_outputs_follow_the_umask(tmp_path: Path, umask_022: None) -> None:
    records = tmp_path / "games.jsonl"
    games_file(records)
    assert run("import", PTN, "-o", tmp_path / "imported.jsonl").exit_code == 0
    assert run("export", "--ptn", records, "-o", tmp_path / "c.ptn").exit_code == 0
    write_params(tmp_path / "p.json", DEFAULT)
    for name in ("games.jsonl", "imported.jsonl", "c.ptn", "p.json"):
        assert mode(tmp_path / name) == 0o644, name
    os.umask(0o077)
    replace_file(tmp_path / "private.txt", b"x")
    assert mode(tmp_path / "private.txt") == 0o600


def test_parquet_and_report_follow_the_umask(tmp_path: Path, umask_022: None) -> None:
    pytest.importorskip("pyarrow")
    pytest.importorskip("matplotlib")
    assert run("simulate", "-n", "3", "-p", "random", "--out", tmp_path / "t.parquet").exit_code == 0
    records = tmp_path / "games.jsonl"
    games_file(records)
    assert run("report", records, "--html", tmp_path / "r.html").exit_code == 0
    assert mode(tmp_path / "t.parquet") == 0o644 and mode(tmp_path / "r.html") == 0o644


# --- a partial file left by a killed run ------------------------------------------------------------


def test_after_kill_9_the_next_run_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out)], tmp_path)
    wait_for(lines_in(partial_path(out), 20), process)
    process.kill()
    finish(process)
    kept = partial_path(out).read_bytes()
    result = run("simulate", "-n", "5", "-p", "random", "--out", out)
    one_line_error(result, f"{partial_path(out)} holds what an earlier run wrote to {out}", "move it away",
                   "or delete it")
    assert partial_path(out).read_bytes() == kept and not out.exists()
    assert kept.count(b"\n") >= 20


@pytest.mark.parametrize("command", ["simulate", "report", "import", "export"])
def test_a_leftover_partial_file_is_refused_by_every_command(tmp_path: Path, command: str) -> None:
    records = tmp_path / "games.jsonl"
    games_file(records)
    target = tmp_path / ("out.html" if command == "report" else "out.jsonl")
    leftover = write(partial_path(target), "what a killed run wrote\n")
    args = {"simulate": ["simulate", "-n", "2", "-p", "random", "--out", target],
            "report": ["report", records, "--html", target],
            "import": ["import", PTN, "-o", target],
            "export": ["export", "--ptn", records, "-o", target]}[command]
    if command == "report":
        pytest.importorskip("matplotlib")
    one_line_error(run(*args), "holds what an earlier run wrote")
    assert leftover.read_text() == "what a killed run wrote\n" and not target.exists()


# --- the old file stays until its replacement is complete -------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_rerun_leaves_the_earlier_file_as_it_was(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "games.jsonl"
    before = games_file(out, n=30)
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out), "--json"], tmp_path)
    wait_for(lines_in(partial_path(out), 20), process)
    os.killpg(process.pid, signum) if signum == signal.SIGINT else process.send_signal(signum)
    code, stdout, stderr = finish(process)
    assert code == 130 and "Traceback" not in stderr, stderr
    assert out.read_bytes() == before
    summary = json.loads(stdout)
    assert summary["interrupted"] and whole_games(partial_path(out)) == summary["games"] >= 20
    assert f"{out} is left as it was; the {summary['games']:,} games finished are in {partial_path(out)}" in stderr


def test_sigterm_early_in_a_rerun_leaves_the_earlier_file_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    before = games_file(out, n=30)
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out)], tmp_path)
    wait_for(lambda: partial_path(out).exists(), process)
    process.send_signal(signal.SIGTERM)
    code, _, stderr = finish(process)
    assert code == 130 and "Traceback" not in stderr, stderr
    assert out.read_bytes() == before
    kept = partial_path(out)
    assert not kept.exists() or whole_games(kept) > 0  # a partial file is kept only if it holds games


def test_a_stopped_parquet_rerun_leaves_the_earlier_file_as_it_was(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "t.parquet"
    assert run("simulate", "-n", "3", "-p", "random", "--out", out).exit_code == 0
    before = out.read_bytes()
    code = ("from fivehundred.records import parquet; parquet.GAMES_PER_ROW_GROUP = 5; "
            "from fivehundred.cli.app import app; app(prog_name='fivehundred')")
    parts = partial_path(out, ".parts")
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out)], tmp_path, code)
    wait_for(lambda: len(list(parts.glob("part-*.parquet"))) >= 2, process)
    process.send_signal(signal.SIGTERM)
    code_, _, stderr = finish(process)
    assert code_ == 130 and "Traceback" not in stderr, stderr
    assert out.read_bytes() == before
    assert f"are in {parts}" in stderr
    games = set(pq.read_table(parts).column("game").to_pylist())
    assert games == set(range(len(games))) and len(games) >= 10


def test_a_stopped_first_run_still_writes_its_games(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    process = start(["simulate", "-n", MANY, "-p", "random", "--out", str(out), "--json"], tmp_path)
    wait_for(lines_in(partial_path(out), 10), process)
    process.send_signal(signal.SIGTERM)
    code, stdout, _ = finish(process)
    assert code == 130 and whole_games(out) == json.loads(stdout)["games"]
    assert not partial_path(out).exists()


# --- two runs at once -------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_second_run_writing_the_same_file_is_refused(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"games{suffix}"
    temp = partial_path(out, ".parts" if suffix == ".parquet" else ".partial")
    process = start(["simulate", "-n", MANY, "--seed", "1", "-p", "random", "--out", str(out), "--json"], tmp_path)
    try:  # a game written first (on a loaded machine the second run may otherwise end before the first plays one)
        wait_for(temp.exists if suffix == ".parquet" else lambda: temp.exists() and temp.stat().st_size > 0, process)
        result = run("simulate", "-n", "2", "--seed", "2", "-p", "random", "--out", out)
        one_line_error(result, f"{out}: another run is writing it now")
        assert len(result.output.strip().splitlines()) == 1
    finally:
        process.send_signal(signal.SIGTERM)
        code, stdout, stderr = finish(process)
    assert code == 130, stderr
    summary = json.loads(stdout)
    if suffix == ".jsonl":
        assert whole_games(out) == summary["games"]
        assert {json.loads(line)["seed"] for line in out.read_text().splitlines()} == {1}
    else:
        import pyarrow.parquet as pq

        table = pq.read_table(out)
        assert json.loads(table.schema.metadata[b"fivehundred.seed"]) == 1
        assert set(table.column("seed").to_pylist()) <= {1, "1"}


def test_a_second_report_at_once_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    fd = os.open(partial_path(target), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_EX)  # as a run writing r.html now holds it
    try:
        with pytest.raises(OutputError, match="another run is writing it now"):
            replace_file(target, b"<html>")
        with pytest.raises(OutputError, match="another run is writing it now"):
            check_outputs([target], [])
    finally:
        os.close(fd)
    assert not target.exists()


# --- links in the way ---------------------------------------------------------------------------------


def test_a_partial_symlink_is_not_followed_by_simulate(tmp_path: Path) -> None:
    victim = write(tmp_path / "victim.txt", "precious\n")
    out = tmp_path / "games.jsonl"
    partial_path(out).symlink_to(victim)
    one_line_error(run("simulate", "-n", "2", "-p", "random", "--out", out), "is in the way")
    assert victim.read_text() == "precious\n"


def test_a_partial_symlink_to_the_input_of_report_is_not_followed(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    records = tmp_path / "input.jsonl"
    before = games_file(records)
    html = tmp_path / "r.html"
    partial_path(html).symlink_to(records)
    one_line_error(run("report", records, "--html", html), "is in the way")
    assert records.read_bytes() == before and not html.exists()


def test_a_partial_link_planted_after_the_check_is_not_followed(tmp_path: Path) -> None:
    victim = write(tmp_path / "victim.txt", "precious\n")
    target = tmp_path / "out.txt"
    check_outputs([target], [])
    partial_path(target).symlink_to(victim)  # between the check and the write
    with pytest.raises(OutputError, match="is in the way"):
        replace_file(target, b"new")
    assert victim.read_text() == "precious\n"


# --- the output is checked before any work --------------------------------------------------------------


def test_a_folder_as_output_is_refused_before_any_game(tmp_path: Path) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    began = time.monotonic()
    one_line_error(run("simulate", "-n", MANY, "-p", "random", "--out", folder), f"{folder}: is a folder")
    assert time.monotonic() - began < 30  # a million games would take far longer


@pytest.mark.parametrize("command", ["import", "export", "report", "play", "calibrate"])
def test_a_folder_as_output_is_refused_by_every_command(tmp_path: Path, command: str) -> None:
    if command == "report":
        pytest.importorskip("matplotlib")
    records = tmp_path / "games.jsonl"
    games_file(records)
    folder = tmp_path / "adir"
    folder.mkdir()
    args = {"import": ["import", PTN, "-o", folder], "export": ["export", "--ptn", records, "-o", folder],
            "report": ["report", records, "--html", folder], "play": ["play", "--seat", "S", "-o", folder],
            "calibrate": ["calibrate", "-n", MANY, "-o", folder]}[command]
    one_line_error(run(*args), f"{folder}: is a folder")


def test_a_missing_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "games.jsonl"
    one_line_error(run("simulate", "-n", MANY, "-p", "random", "--out", out), f"no folder {out.parent}")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o500)
    try:
        one_line_error(run("simulate", "-n", MANY, "-p", "random", "--out", folder / "g.jsonl"), "is not writable")
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize("command", ["simulate", "import", "export", "report", "calibrate", "play"])
def test_an_empty_output_name_is_refused(tmp_path: Path, command: str) -> None:
    if command == "report":
        pytest.importorskip("matplotlib")
    records = tmp_path / "games.jsonl"
    games_file(records)
    args = {"simulate": ["simulate", "-n", MANY, "-p", "random", "--out", ""], "import": ["import", PTN, "-o", ""],
            "export": ["export", "--ptn", records, "-o", ""], "report": ["report", records, "--html", ""],
            "calibrate": ["calibrate", "-n", MANY, "-o", ""], "play": ["play", "--seat", "S", "-o", ""]}[command]
    result = run(*args)
    one_line_error(result, "names no file")
    assert len(result.output.strip().splitlines()) == 1


# --- long names -------------------------------------------------------------------------------------------


def test_a_250_character_name_works(tmp_path: Path) -> None:
    out = tmp_path / ("g" * 244 + ".jsonl")
    assert len(out.name) == 250
    assert len(partial_path(out).name) <= 255 and partial_path(out).name.endswith(".partial")
    games_file(out, n=3)
    assert whole_games(out) == 3 and list(tmp_path.iterdir()) == [out]


def test_a_255_character_name_works_for_parquet_and_report(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / ("t" * 247 + ".parquet")
    assert len(out.name) == 255
    assert run("simulate", "-n", "2", "-p", "random", "--out", out).exit_code == 0
    assert list(tmp_path.iterdir()) == [out]


def test_long_names_keep_a_partial_name_of_their_own(tmp_path: Path) -> None:
    a, b = tmp_path / ("x" * 250 + ".jsonl"), tmp_path / ("x" * 250 + ".jsonx")
    assert partial_path(a) != partial_path(b) and partial_path(a) == partial_path(Path(str(a)))
    wide = tmp_path / ("é" * 120 + ".jsonl")  # 246 bytes in UTF-8
    assert len(os.fsencode(partial_path(wide).name)) <= 255
