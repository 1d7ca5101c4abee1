"""Where a ruleset may come from: shipped names, plugins' rulesets, files the user gives and the files
beside or below them.  A record names a ruleset and never makes the program open a path it holds;
devices, FIFOs and oversized files are refused before they are read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.loading import bundled_dir, load_named_ruleset, ruleset_paths

SECRET = "api_key: hunter2\ntoken: s3cr3t\n"


def problems(path: Path | str) -> list[str]:
    with pytest.raises(fivehundred.RulesetError) as caught:
        fivehundred.load_ruleset(path)
    return caught.value.problems


@pytest.fixture
def creds(tmp_path: Path) -> Path:
    return write(tmp_path / "elsewhere" / "creds.yml", SECRET)


def test_extends_outside_the_given_folder_is_refused_without_reading_it(tmp_path: Path, creds: Path) -> None:
    child = write(tmp_path / "house" / "rules" / "mine.yaml", "extends: ../../elsewhere/creds.yml\n")
    [problem] = problems(child)
    assert problem.startswith(f"{child}:1: extends: ../../elsewhere/creds.yml is outside {child.parent}")
    assert "api_key" not in problem and "token" not in problem


def test_extends_an_absolute_path_is_refused(tmp_path: Path, creds: Path) -> None:
    for target in (str(creds), "/dev/zero", "/etc/passwd"):
        child = write(tmp_path / "mine.yaml", f"extends: {target}\n")
        [problem] = problems(child)
        assert problem.startswith(f"{child}:1: extends: {target} is an absolute path"), problem


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path, creds: Path) -> None:
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "base.yaml").symlink_to(creds)
    child = write(tmp_path / "house" / "mine.yaml", "extends: base.yaml\n")
    [problem] = problems(child)
    assert "is outside" in problem and "api_key" not in problem


def test_extends_within_the_folder_tree_still_works(tmp_path: Path) -> None:
    write(tmp_path / "shared" / "base.yaml", f"extends: {REF}\ngame: {{target: 300}}\n")
    write(tmp_path / "variants" / "middle.yaml", "extends: ../shared/base.yaml\nscoring: {overtrick_points: 5}\n")
    top = write(tmp_path / "top.yaml", "extends: variants/middle.yaml\n")
    rs = fivehundred.load_ruleset(top)
    assert (rs.game.target, rs.scoring.overtrick_points) == (300, 5)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    [problem] = problems(fifo)
    assert problem == f"{fifo}: not a regular file (a device, FIFO or socket is never read)"
    child = write(tmp_path / "mine.yaml", "extends: pipe.yaml\n")
    assert problems(child) == [f"{fifo}: not a regular file (a device, FIFO or socket is never read)"]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_a_device_given_on_the_command_line_is_refused() -> None:
    assert problems("/dev/zero") == ["/dev/zero: not a regular file (a device, FIFO or socket is never read)"]
    one_line_error(run("simulate", "-n", "1", "-r", "/dev/zero"), "not a regular file")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    assert problems(folder) == [f"{folder}: is a folder, not a file"]


def record_naming(ruleset_name: str) -> str:
    state = fivehundred.play_game(REF, seed=1, players="random")
    record = game_to_dict(state, seed=1, game=0)
    record["ruleset"]["name"] = ruleset_name
    return dumps(record) + "\n"


def test_a_record_never_opens_the_path_it_names(tmp_path: Path, creds: Path) -> None:
    games = write(tmp_path / "games.jsonl", record_naming(str(creds)))
    output = one_line_error(run("validate", games), "0 of 1 valid", f"unknown ruleset {str(creds)!r}",
                            "--ruleset")
    assert "api_key" not in output and "token" not in output


def test_a_report_never_opens_the_path_a_record_names(tmp_path: Path, creds: Path) -> None:
    pytest.importorskip("matplotlib")
    games = write(tmp_path / "games.jsonl", record_naming(str(creds)))
    output = one_line_error(run("report", games, "--html", tmp_path / "r.html"), "unknown ruleset")
    assert "api_key" not in output


def test_a_record_of_a_user_file_is_checked_with_ruleset(tmp_path: Path) -> None:
    """A record written before records carried their ruleset names a user's file it cannot open: --ruleset."""
    house = write(tmp_path / "house.yaml", f"extends: {REF}\ngame: {{target: 300}}\n")
    state = fivehundred.play_game(str(house), seed=2, players="random")
    record = game_to_dict(state, seed=2, game=0)
    assert record["ruleset"].pop("content")["game"]["target"] == 300
    games = write(tmp_path / "games.jsonl", dumps(record) + "\n")
    assert json.loads(games.read_text())["ruleset"]["name"] == "house"
    one_line_error(run("validate", games), "unknown ruleset 'house'")
    result = run("validate", games, "--ruleset", house)
    assert result.exit_code == 0, result.output


def test_records_name_shipped_and_plugin_rulesets() -> None:
    assert load_named_ruleset(REF).content_hash == fivehundred.load_ruleset(bundled_dir() / f"{REF}.yaml").content_hash
    plugin_provided = [n for n, p in ruleset_paths().items() if p.parent != bundled_dir()]
    for name in plugin_provided:  # the example house-rule package, when installed
        assert load_named_ruleset(name).name == name
