"""Hostile and broken game records: each is a problem of its own, named by file and line, and the other
records are still checked; records are checked against the published JSON Schema as well as replayed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.records.reading import read_record_file
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.inputs import read_lines


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return game_to_dict(fivehundred.play_game(REF, seed=3, players="random"), seed=3, game=0)


def problems_of(path: Path) -> list[str]:
    report = fivehundred.validate([path])
    return [str(p) for p in report.problems]


@pytest.mark.parametrize(("text", "words"), [
    ("[1, 2, 3]", "not a game record: a JSON array, not a JSON object"),
    ("42", "not a game record: a number, not a JSON object"),
    ('"a string"', "not a game record: a JSON string, not a JSON object"),
    ("null", "not a game record: null, not a JSON object"),
])
@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_json_that_is_not_a_record(tmp_path: Path, text: str, words: str, suffix: str) -> None:
    path = write(tmp_path / f"odd{suffix}", text + "\n")
    assert problems_of(path) == [f"{path}:1: {words}"]
    one_line_error(run("validate", path), words, "0 of 1 valid")


def test_a_json_array_of_records_says_to_write_json_lines(tmp_path: Path, record: dict[str, Any]) -> None:
    path = write(tmp_path / "batch.json", json.dumps([record, record]))
    [problem] = problems_of(path)
    assert "a JSON array of them: write one record per line of a .jsonl file" in problem


def mutate(record: dict[str, Any], change: str) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    if change == "no hands":
        copy["hands"] = []
    elif change == "huge deals":
        copy["deals"] = 1e308
    elif change == "huge hand number":
        copy["hands"][0]["number"] = 10**18
    elif change == "huge seed":
        copy["seed"] = 10**400
    elif change == "unknown field":
        copy["extra"] = "x"
    elif change == "unknown hand field":
        copy["hands"][0]["bonus"] = 1
    elif change == "bad card":
        copy["hands"][0]["kitty"][0] = "ZZ"
    return copy


@pytest.mark.parametrize(("change", "where"), [
    ("no hands", "at hands: [] should be non-empty"),
    ("huge deals", "at deals: 1e+308 is greater than the maximum of 1000000"),
    ("huge hand number", "at hands[0].number: 1000000000000000000 is greater than the maximum"),
    ("huge seed", "at seed:"),
    ("unknown field", "at (top level): Additional properties are not allowed ('extra' was unexpected)"),
    ("bad card", "at hands[0].kitty[0]: 'ZZ' does not match"),
])
def test_a_record_outside_the_schema_is_invalid(tmp_path: Path, record: dict[str, Any], change: str,
                                                where: str) -> None:
    path = write(tmp_path / "games.jsonl", dumps(record) + "\n" + dumps(mutate(record, change)) + "\n")
    [problem] = problems_of(path)
    assert problem.startswith(f"{path}:2: does not match the record schema {where}"), problem


def test_an_unknown_hand_field_is_one_no_step_records(tmp_path: Path, record: dict[str, Any]) -> None:
    # The schema leaves a hand open to the plugins' steps (a house rule's passed cards); the replay
    # refuses a field that no step of the record's ruleset writes.
    path = write(tmp_path / "games.jsonl", dumps(mutate(record, "unknown hand field")) + "\n")
    [problem] = problems_of(path)
    assert "unknown hand field 'bonus'" in problem and "no step of ruleset" in problem, problem


def test_an_integer_of_thousands_of_digits_is_named(tmp_path: Path, record: dict[str, Any]) -> None:
    line = dumps(record).replace('"seed":3', '"seed":' + "9" * 5001)
    path = write(tmp_path / "games.jsonl", line + "\n" + dumps(record) + "\n")
    [problem] = problems_of(path)
    assert problem.startswith(f"{path}:1: not a game record:") and "digits" in problem


def test_a_non_utf8_record_is_named_and_the_others_are_still_checked(tmp_path: Path,
                                                                       record: dict[str, Any]) -> None:
    good = dumps(record).encode()
    bad = good.replace(b'"pagat-australian"', b'"pagat-australi\xe9n"', 1)
    path = write(tmp_path / "games.jsonl", b"\n".join([good, bad, good]) + b"\n")
    report = fivehundred.validate([path])
    assert report.checked == 3
    [problem] = [str(p) for p in report.problems]
    assert problem.startswith(f"{path}:2: not UTF-8 text: byte 0xe9 at column ")


def test_an_overlong_line_is_skipped_whole(tmp_path: Path) -> None:
    path = write(tmp_path / "games.jsonl", "x" * 5000 + "\n{}\n")
    found = list(read_lines(path, limit=100))
    assert found == [(1, None, "a line longer than 100 bytes (the limit for one record)"), (2, "{}\n", None)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_of_records_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "games.jsonl"
    os.mkfifo(fifo)
    assert list(read_record_file(fifo)) == [
        (str(fifo), None, "not a regular file (a device, FIFO or socket is never read)")]
    one_line_error(run("validate", fifo), "not a regular file")


def test_seeds_records_cannot_hold_are_refused_before_any_file_is_written(tmp_path: Path) -> None:
    out = tmp_path / "t.parquet"
    for seed in (str(2**63), str(-(2**63) - 1), "9" * 5001):
        result = run("simulate", "-n", "1", "-p", "random", "--seed", seed, "--out", out)
        assert result.exit_code == 2 and "--seed" in result.output and "Traceback" not in result.output
    for seed in (2**63, 10**5000, "x" * 1001):
        with pytest.raises(ValueError, match="seed: "):
            fivehundred.simulate(1, seed, players="random", out=out)
    assert not out.exists()


def test_the_largest_seed_still_plays_and_validates(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    assert run("simulate", "-n", "1", "-p", "random", "--seed", str(2**63 - 1), "--out", out).exit_code == 0
    assert fivehundred.validate([out]).ok
