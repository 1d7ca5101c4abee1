"""Issue 29, item 4: bounded work for small inputs.  A record holds no more than a game can have (checked
by length before anything walks it), and a PTN file of many headers reads each shipped ruleset once."""

from __future__ import annotations

import json
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import run, write

from fivehundred.records import bounds, ptn_import, reading
from fivehundred.records.bounds import size_problem


def a_record(tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "one.jsonl"
    assert run("simulate", "-n", "1", "-p", "random", "--out", out).exit_code == 0
    record: dict[str, Any] = json.loads(out.read_text().splitlines()[0])
    return record


def never(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the record schema was checked: the record's size should have been refused first")


def test_a_record_of_200000_players_is_refused_before_the_schema_walks_it(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    record = a_record(tmp_path)
    record["players"] = {f"P{i}": "random" for i in range(200_000)}
    wide = write(tmp_path / "wide.jsonl", json.dumps(record) + "\n")
    monkeypatch.setattr(reading, "schema_problem", never)
    began = time.monotonic()
    result = run("validate", wide)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{wide}:1: players: 200,000 entries, more than a game can have (84)" in result.output
    assert time.monotonic() - began < 10  # 14 s before the bound, on an idle machine


def _players(r: dict[str, Any]) -> None:
    r["players"] = {str(i): "random" for i in range(85)}


def _name(r: dict[str, Any]) -> None:
    r["players"]["N"] = "x" * 1001


def _seats(r: dict[str, Any]) -> None:
    r["hands"][0]["hands"] = {str(i): [] for i in range(85)}


def _cards(r: dict[str, Any]) -> None:
    r["hands"][0]["kitty"] = ["AS"] * 85


def _calls(r: dict[str, Any]) -> None:
    r["hands"][0]["calls"] = [{"seat": "N", "call": "pass"}] * 10_001


def _tricks(r: dict[str, Any]) -> None:
    r["hands"][0]["tricks"] = [{"leader": "N", "cards": [], "winner": "N"}] * 85


def _trick_cards(r: dict[str, Any]) -> None:
    r["hands"][0]["tricks"] = [{"leader": "N", "cards": ["AS"] * 85, "winner": "N"}]


def _totals(r: dict[str, Any]) -> None:
    r["result"] = {"winner": "NS", "reason": "", "totals": {str(i): 0 for i in range(85)}}


def _plugin_keys(r: dict[str, Any]) -> None:
    r["hands"][0].update({f"step{i}": None for i in range(100)})


@pytest.mark.parametrize(("change", "where"), [(_players, "players: 85 entries"), (_name, "players.N: a text of 1,001"),
                                               (_seats, "hands[0].hands: 85 entries"),
                                               (_cards, "hands[0].kitty: 85 items"),
                                               (_calls, "hands[0].calls: 10,001 items"),
                                               (_tricks, "hands[0].tricks: 85 items"),
                                               (_trick_cards, "hands[0].tricks[0].cards: 85 items"),
                                               (_totals, "result.totals: 85 entries"),
                                               (_plugin_keys, "hands[0]: ")])
@pytest.mark.parametrize("read_as_it_goes", [False, True])
def test_every_map_and_list_of_a_record_is_bounded_by_the_game(tmp_path: Path, change: Callable[[Any], None],
                                                               where: str, read_as_it_goes: bool,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    if read_as_it_goes:  # as a line over PARSE_BOUNDED_FROM is read
        monkeypatch.setattr(reading, "PARSE_BOUNDED_FROM", 0)
    record = a_record(tmp_path)
    assert size_problem(record) is None
    change(record)
    problem = size_problem(record)
    assert problem is not None and problem.startswith(where), problem
    bad = write(tmp_path / "bad.jsonl", json.dumps(record) + "\n")
    result = run("validate", bad)
    assert result.exit_code == 1 and f"{bad}:1: {where}" in result.output, result.output
    result = run("show", bad)
    assert result.exit_code == 1 and f"{bad}:1: {where}" in result.output and "Traceback" not in result.output


def test_a_59_mb_line_of_5_million_players_is_refused_at_its_85th_key(tmp_path: Path) -> None:
    record = a_record(tmp_path)
    record["players"] = {}
    head, tail = json.dumps(record, separators=(",", ":")).split('"players":{}')
    wide = tmp_path / "wide.jsonl"
    with wide.open("w") as f:  # written in pieces: the test itself never holds the map
        f.write(head + '"players":{')
        for start in range(0, 5_000_000, 500_000):
            f.write(",".join(f'"{i}":""' for i in range(start, start + 500_000)) + ("," if start < 4_500_000 else ""))
        f.write("}" + tail + "\n")
    assert wide.stat().st_size > 58 << 20
    text = wide.read_text()
    tracemalloc.start()
    record_read, problem = reading.read_record(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del text
    assert record_read is None and problem == "players: 85 entries or more, more than a game can have (84)"
    assert peak < 1 << 20  # 710 MB (25 s) when the whole line was parsed first
    result = run("validate", wide)
    assert result.exit_code == 1 and f"{wide}:1: players: 85 entries or more" in result.output


def test_a_long_line_reads_as_json_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "games.jsonl"
    for ruleset in ("pagat-australian", "six-handed-two-jokers", "two-handed"):
        assert run("simulate", "-n", "3", "-p", "random", "-r", ruleset, "--out", out).exit_code == 0
        for line in out.read_text().splitlines():
            assert bounds.parse_bounded(line, dict) == json.loads(line)
        out.unlink()
    odd = ' {"a" : [ 1 , -2.5e3 , true , null , "\\u00e9\\n" , { } , [ ] ] , "b" : { "c" : {"d": []} } } '
    assert bounds.parse_bounded(odd, dict) == json.loads(odd)
    for bad in ('{"a": 1,}', '{"a" 1}', '[1 2]', '{"a": 1} x', '{1: 2}', '[', '{"a": [1, }'):
        with pytest.raises(json.JSONDecodeError):
            bounds.parse_bounded(bad, dict)
    monkeypatch.setattr(reading, "PARSE_BOUNDED_FROM", 0)
    record = a_record(tmp_path)
    twice = json.dumps(record).replace('"seed":', '"result": {}, "seed":', 1)
    assert "the key 'result' is given twice" in str(reading.read_record(twice)[1])
    out = tmp_path / "valid.jsonl"
    assert run("simulate", "-n", "5", "-p", "random", "--out", out).exit_code == 0
    result = run("validate", out)
    assert result.exit_code == 0 and "5 of 5 valid" in result.output, result.output


def test_the_bounds_are_the_published_schema_s(tmp_path: Path) -> None:
    schema = json.loads(run("rules", "schema", "--record").stdout)
    assert schema["properties"]["players"]["maxProperties"] == 84
    assert schema["$defs"]["cards"]["maxItems"] == 84
    pytest.importorskip("jsonschema")
    from jsonschema import Draft202012Validator

    record = a_record(tmp_path)
    _calls(record)
    assert not Draft202012Validator(schema).is_valid(record)  # the schema says it too, for any other reader


def test_every_game_simulated_is_within_the_bounds(tmp_path: Path) -> None:
    out = tmp_path / "six.jsonl"
    assert run("simulate", "-n", "20", "-p", "random", "-r", "six-handed-individual", "--out", out).exit_code == 0
    for line in out.read_text().splitlines():
        assert size_problem(json.loads(line)) is None


def test_a_ptn_file_of_5000_bare_headers_loads_the_ruleset_once(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    ptn_import._shipped.cache_clear()
    loads = {"n": 0}
    real = ptn_import.load_ruleset

    def counted(ref: Any) -> Any:
        loads["n"] += 1
        return real(ref)

    monkeypatch.setattr(ptn_import, "load_ruleset", counted)
    events = write(tmp_path / "events.ptn", '[Event "x"]\n' * 5000)
    began = time.monotonic()
    result = run("import", events, "-o", tmp_path / "e.jsonl")
    assert result.exit_code == 1 and "nothing to import" in result.output and "Traceback" not in result.output
    assert loads["n"] <= 1
    assert time.monotonic() - began < 60  # 200 s before, every header reloading the ruleset


def test_bounds_are_compiled_once() -> None:
    assert bounds._bounds() is bounds._bounds()
