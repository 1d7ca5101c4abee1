"""Records that carry what they need: a record of a ruleset that is not bundled carries it, resolved, so that
validate, show, report, export and compare read it with no ruleset file; --ruleset repeats, each ruleset for the
records of its name (docs/records.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import fivehundred
from fivehundred.analysis.stats import collect
from fivehundred.cli.app import app
from fivehundred.records.reading import ruleset_of_records
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.records.rulesets import CONTENT, RecordRulesets, ruleset_header
from fivehundred.rules.errors import RecordError
from fivehundred.rules.loading import ruleset_from_data
from fivehundred.rules.ruleset import Ruleset

PTN_DATA = Path(__file__).parent / "data" / "ptn"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="fivehundred")


def ok(result: Result) -> str:
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def house_file(folder: Path, name: str = "house", target: int = 300) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(f"extends: pagat-australian\ngame: {{target: {target}}}\n", encoding="utf-8")
    return path


def records_of(ruleset: str | Path | Ruleset, games: int = 2, seed: int = 2) -> list[dict[str, Any]]:
    rs = ruleset if isinstance(ruleset, Ruleset) else fivehundred.load_ruleset(ruleset)
    return [game_to_dict(fivehundred.play_game(rs, seed=seed, players="random", game=g), seed=seed, game=g)
            for g in range(games)]


def write_records(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_bundled_ruleset_s_records_name_it_only(pagat: Ruleset) -> None:
    [record] = records_of("pagat-australian", games=1)
    assert record["ruleset"] == {"name": "pagat-australian", "hash": pagat.content_hash}


def test_a_house_rule_s_records_carry_it_resolved(tmp_path: Path) -> None:
    house = fivehundred.load_ruleset(house_file(tmp_path))
    [record] = records_of(house, games=1)
    meta = record["ruleset"]
    assert (meta["name"], meta["hash"]) == ("house", house.content_hash)
    assert meta[CONTENT]["game"]["target"] == 300
    carried = ruleset_from_data(meta[CONTENT], "content")
    assert carried == house and carried.content_hash == house.content_hash


def test_every_shipped_ruleset_round_trips_through_the_content_it_would_carry(shipped_ruleset: Ruleset) -> None:
    renamed = Ruleset.model_validate({**shipped_ruleset.model_dump(mode="json"), "name": "renamed"})
    header = ruleset_header(renamed)
    assert ruleset_from_data(header[CONTENT], "content").content_hash == header["hash"] == renamed.content_hash
    assert CONTENT not in ruleset_header(shipped_ruleset)  # bundled: its name says it


def test_every_command_reads_a_house_rule_s_records_with_no_flags(tmp_path: Path) -> None:
    rules = house_file(tmp_path)
    games = tmp_path / "games.jsonl"
    ok(run("simulate", "-n", "3", "--seed", "4", "-p", "random", "-r", rules, "-o", games))
    rules.unlink()  # the records alone from here on
    assert "3 of 3 valid" in ok(run("validate", games))
    assert "ruleset house" in ok(run("show", games, "-g", "1"))
    ptn = tmp_path / "games.ptn"
    ok(run("export", "--ptn", games, "-o", ptn))
    back = tmp_path / "back.jsonl"
    ok(run("import", ptn, "-o", back))
    assert "3 of 3 valid" in ok(run("validate", back))
    compared = json.loads(ok(run("compare", "-n", "2", "-p", "random", "-r", games, "--ruleset-b", "pagat-australian",
                                 "--json")))
    assert json.dumps(compared).count('"house"') >= 1
    assert collect([games]).as_dict()["games"] == 3
    pytest.importorskip("matplotlib")
    ok(run("report", games, "--html", tmp_path / "r.html"))


def test_import_then_validate_needs_no_flags(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    ok(run("import", PTN_DATA / "australian-8NT-partial.ptn", "-o", out))
    for written in tmp_path.glob("*.yaml"):  # the ruleset written beside the records, for editing: not needed
        written.unlink()
    assert "1 of 1 valid" in ok(run("validate", out))
    assert CONTENT in json.loads(out.read_text(encoding="utf-8"))["ruleset"]


def test_the_ruleset_of_a_record_file_is_its_first_record_s(tmp_path: Path) -> None:
    house = fivehundred.load_ruleset(house_file(tmp_path))
    games = write_records(tmp_path / "games.jsonl", records_of(house))
    assert ruleset_of_records(games).content_hash == house.content_hash
    shipped = write_records(tmp_path / "shipped.jsonl", records_of("nullo", games=1))
    assert ruleset_of_records(shipped).name == "nullo"
    with pytest.raises(RecordError, match="no game record"):
        ruleset_of_records(write_records(tmp_path / "empty.jsonl", []))


def _without_content(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records as written before they carried their ruleset."""
    for record in records:
        record["ruleset"].pop(CONTENT)
    return records


def test_ruleset_repeats_each_for_the_records_of_its_name(tmp_path: Path) -> None:
    first, second = house_file(tmp_path, "first", 300), house_file(tmp_path, "second", 400)
    games = write_records(tmp_path / "games.jsonl", _without_content(records_of(first) + records_of(second)))
    assert "4 of 4 valid" in ok(run("validate", games, "-r", first, "-r", second))
    assert "4 of 4 valid" in ok(run("validate", games, "-r", second, "-r", first, "-w", "2"))
    alone = run("validate", games, "-r", first)  # a lone ruleset reads every record, as before
    assert alone.exit_code == 1 and "2 of 4 valid" in alone.stdout and "'second'" in alone.stdout
    assert "Hand 1" in ok(run("show", games, "-r", first, "-r", second, "-g", "3"))
    assert "[Ruleset " in ok(run("export", "--ptn", games, "-r", first, "-r", second))
    assert collect([games], ruleset=[str(first), str(second)]).as_dict()["games"] == 4


def test_two_given_rulesets_of_one_name_are_refused(tmp_path: Path) -> None:
    one = fivehundred.load_ruleset(house_file(tmp_path / "a", "house", 300))
    other = fivehundred.load_ruleset(house_file(tmp_path / "b", "house", 400))
    with pytest.raises(RecordError, match="two rulesets named 'house'"):
        RecordRulesets([one, other])
    assert RecordRulesets([one, one]).given == {"house": one}


def test_a_ruleset_given_for_a_record_that_carries_another_says_so(tmp_path: Path) -> None:
    games = write_records(tmp_path / "games.jsonl", records_of(house_file(tmp_path, "house", 300), games=1))
    changed = house_file(tmp_path / "later", "house", 400)
    result = run("validate", games, "-r", changed)
    assert result.exit_code == 1 and "field ruleset.hash" in result.stdout
    assert "the record carries its own: read it without --ruleset" in result.stdout
    assert "1 of 1 valid" in ok(run("validate", games))


def test_simulate_warns_when_a_file_takes_a_shipped_name(tmp_path: Path) -> None:
    copy = tmp_path / "mine.yaml"
    copy.write_text("extends: pagat-australian\nname: pagat-australian\ngame: {target: 300}\n", encoding="utf-8")
    result = run("simulate", "-n", "1", "-p", "random", "-r", copy)
    assert result.exit_code == 0 and "has the name of a shipped or plugin ruleset" in result.output
    assert "name of a shipped" not in run("simulate", "-n", "1", "-p", "random", "-r", house_file(tmp_path)).output
