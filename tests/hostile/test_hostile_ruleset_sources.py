"""Input files never make the program open a path, and a record's ruleset cannot be swapped unseen.

A ruleset name read from a file (a PTN ``Ruleset`` tag, a record's ``ruleset.name``) is a name: a shipped or
plugin ruleset, or one the record carries, never a file.  A bare name on the command line is a shipped or plugin
ruleset too, whatever files the current folder holds: a file is given as a path.  A ruleset a record carries is
checked against the record's hash and against a shipped ruleset of its name (docs/records.md)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.loading import bundled_dir, is_ruleset_path, load_named_ruleset

SECRET = "api_key: hunter2\ntoken: s3cr3t\n"
HOUSE = f"extends: {REF}\ngame: {{target: 300}}\n"


def house_records(folder: Path, games: int = 1) -> list[dict[str, Any]]:
    house = fivehundred.load_ruleset(write(folder / "house.yaml", HOUSE))
    return [game_to_dict(fivehundred.play_game(house, seed=2, players="random", game=g), seed=2, game=g)
            for g in range(games)]


def as_file(path: Path, records: list[dict[str, Any]]) -> Path:
    return write(path, "".join(dumps(r) + "\n" for r in records))


def leaked(output: str) -> bool:
    return "api_key" in output or "token" in output or "hunter2" in output


# --- a PTN Ruleset tag is a name ------------------------------------------------------------------------


@pytest.fixture
def house_ptn(tmp_path: Path) -> str:
    """A PTN export of a house rule's game, whose Ruleset tag names it (Trickster's options cannot)."""
    games = as_file(tmp_path / "games.jsonl", house_records(tmp_path / "rules"))
    result = run("export", "--ptn", games)
    assert result.exit_code == 0 and '[Ruleset "house ' in result.stdout and "[RulesetJson " in result.stdout
    return result.stdout


def naming(ptn: str, name: str) -> str:
    """``ptn`` whose Ruleset tag names ``name`` and carries no ruleset."""
    text = re.sub(r'\[Ruleset "[^"]*"\]', f'[Ruleset "{name}"]', ptn)
    return "\n".join(line for line in text.splitlines() if not line.startswith("[RulesetJson "))


@pytest.mark.parametrize("name", ["/etc/passwd", "../outside/secret.yaml", "outside/secret.yaml", "secret.yaml"])
def test_a_ptn_ruleset_tag_naming_a_path_is_refused_unread(name: str, house_ptn: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    write(tmp_path / "outside" / "secret.yaml", SECRET)
    write(work / "outside" / "secret.yaml", SECRET)
    write(work / "secret.yaml", SECRET)
    monkeypatch.chdir(work)
    ptn = write(work / "game.ptn", naming(house_ptn, name))
    output = one_line_error(run("import", ptn, "-o", work / "g.jsonl"), f"unknown ruleset {name!r}", "game.ptn:")
    assert not leaked(output) and not (work / "g.jsonl").exists()


def test_a_ptn_ruleset_tag_naming_a_valid_ruleset_file_is_refused(house_ptn: str, tmp_path: Path) -> None:
    """The file holds the very ruleset (same hash): a name from a file is still never opened."""
    real = tmp_path / "rules" / "house.yaml"
    ptn = write(tmp_path / "game.ptn", naming(house_ptn, str(real)))
    one_line_error(run("import", ptn, "-o", tmp_path / "g.jsonl"), f"unknown ruleset {str(real)!r}")
    ok = run("import", ptn, "-o", tmp_path / "g.jsonl", "-r", real)  # no: the tag names a path, not 'house'
    assert ok.exit_code == 0, ok.output  # a lone --ruleset reads every record (and its hash is checked)


def test_a_ptn_that_carries_its_ruleset_imports_with_no_flags(house_ptn: str, tmp_path: Path) -> None:
    ptn = write(tmp_path / "game.ptn", house_ptn)
    out = tmp_path / "g.jsonl"
    result = run("import", ptn, "-o", out)
    assert result.exit_code == 0, result.output
    assert run("validate", out).exit_code == 0
    bare = write(tmp_path / "bare.ptn", naming(house_ptn, "house " + json.loads(
        out.read_text(encoding="utf-8"))["ruleset"]["hash"]))
    one_line_error(run("import", bare, "-o", tmp_path / "b.jsonl"), "unknown ruleset 'house'")
    assert run("import", bare, "-o", tmp_path / "b.jsonl", "-r", tmp_path / "rules" / "house.yaml").exit_code == 0


def test_a_ptn_carried_ruleset_edited_is_refused(house_ptn: str, tmp_path: Path) -> None:
    edited = house_ptn.replace('\\"target\\":300', '\\"target\\":250')
    assert edited != house_ptn
    ptn = write(tmp_path / "game.ptn", edited)
    one_line_error(run("import", ptn, "-o", tmp_path / "g.jsonl"), "RulesetJson: the ruleset the record carries "
                   "has hash", "was changed")


def test_a_ptn_carried_ruleset_nested_deep_is_one_line(house_ptn: str, tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = re.sub(r'\[RulesetJson "[^\n]*"\]', f'[RulesetJson "{deep}"]', house_ptn)
    one_line_error(run("import", write(tmp_path / "game.ptn", text), "-o", tmp_path / "g.jsonl"), "RulesetJson")


# --- a record's ruleset name is a name ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["absolute", "relative", "valid file"])
def test_export_of_a_record_naming_a_path_is_refused_unread(kind: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    records = house_records(tmp_path / "rules")
    secret = write(tmp_path / "outside" / "secret.yaml", SECRET)
    name = {"absolute": str(secret), "relative": "../outside/secret.yaml",
            "valid file": str(tmp_path / "rules" / "house.yaml")}[kind]
    for record in records:
        record["ruleset"] = {"name": name, "hash": record["ruleset"]["hash"]}
    folder = tmp_path / "records"
    games = as_file(folder / "games.jsonl", records)
    monkeypatch.chdir(folder)
    output = one_line_error(run("export", "--ptn", games), f"unknown ruleset {name!r}", "games.jsonl:1")
    assert not leaked(output)
    assert not leaked(run("show", games).output) and not leaked(run("validate", games).output)


def test_export_never_looks_beside_the_records_for_the_ruleset_they_name(tmp_path: Path) -> None:
    """A file beside the records named as the record's ruleset is not read (records written before records carried
    their ruleset take it from --ruleset)."""
    records = house_records(tmp_path)
    for record in records:
        del record["ruleset"]["content"]
    games = as_file(tmp_path / "games.jsonl", records)
    one_line_error(run("export", "--ptn", games), "unknown ruleset 'house'", "--ruleset")
    assert run("export", "--ptn", games, "-r", tmp_path / "house.yaml").exit_code == 0


# --- a bare name is a shipped or plugin ruleset ---------------------------------------------------------


@pytest.fixture
def impostors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current folder holding a file named as the reference ruleset (a valid ruleset of other rules, that used to
    replace it silently) and a folder named as another shipped ruleset."""
    write(tmp_path / REF, "name: pagat-australian\nextends: nullo\ngame: {target: 250}\n")
    (tmp_path / "nullo").mkdir()
    write(tmp_path / "nullo" / "x.yaml", SECRET)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_bare_name_is_never_a_file_of_the_current_folder(impostors: Path) -> None:
    shipped = load_named_ruleset(REF)
    assert fivehundred.load_ruleset(REF).content_hash == shipped.content_hash
    assert fivehundred.load_ruleset("nullo").content_hash == load_named_ruleset("nullo").content_hash
    out = impostors / "g.jsonl"
    for args in (("-r", REF), ()):
        result = run("simulate", "-n", "1", "-p", "random", "-o", out, *args)
        assert result.exit_code == 0, result.output
        assert json.loads(out.read_text(encoding="utf-8"))["ruleset"] == {"name": REF, "hash": shipped.content_hash}
        out.unlink()
    shown = run("rules", "show", REF, "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["game"]["target"] == shipped.game.target
    assert run("rules", "show", "nullo").exit_code == 0


def test_a_file_is_given_as_a_path(impostors: Path) -> None:
    write(impostors / "rules" / "house", HOUSE)
    write(impostors / "house.yml", HOUSE)
    for ref in (f"./{REF}", str(impostors / REF), "rules/house", "house.yml", "./house.yml"):
        assert is_ruleset_path(ref)
        assert fivehundred.load_ruleset(ref).game.target in (250, 300), ref
    for name in (REF, "nullo", "house"):
        assert not is_ruleset_path(name)
    assert is_ruleset_path(Path("house"))
    one_line_error(run("rules", "show", "house"), "unknown ruleset 'house'")
    output = one_line_error(run("rules", "show", "rules"), "unknown ruleset 'rules'", "./rules")
    assert not leaked(output)
    one_line_error(run("simulate", "-n", "1", "-r", "./nullo"), "nullo")


def test_the_shipped_rulesets_are_found_by_name_only() -> None:
    assert all(not is_ruleset_path(path.stem) for path in bundled_dir().glob("*.yaml"))


# --- a carried ruleset cannot be swapped unseen ----------------------------------------------------------


def validate_one(tmp_path: Path, record: dict[str, Any]) -> str:
    return one_line_error(run("validate", as_file(tmp_path / "games.jsonl", [record])), "0 of 1 valid")


def test_a_carried_ruleset_edited_without_its_hash_is_caught(tmp_path: Path) -> None:
    [record] = house_records(tmp_path)
    record["ruleset"]["content"]["game"]["target"] = 250
    output = validate_one(tmp_path, record)
    assert "field ruleset.hash" in output and "the record or its ruleset was changed" in output


def test_a_carried_ruleset_renamed_is_caught(tmp_path: Path) -> None:
    [record] = house_records(tmp_path)
    record["ruleset"]["name"] = "other"
    assert "field ruleset.name: the record names ruleset 'other' but carries ruleset 'house'" in validate_one(
        tmp_path, record)


def test_a_carried_ruleset_under_a_shipped_name_is_refused(tmp_path: Path) -> None:
    """Rules changed, content and hash made to agree, under the reference's name: the shipped one has that name."""
    house = fivehundred.load_ruleset(write(tmp_path / "house.yaml", f"{HOUSE}name: {REF}\n"))
    record = game_to_dict(fivehundred.play_game(house, seed=2, players="random"), seed=2, game=0)
    assert record["ruleset"]["name"] == REF and record["ruleset"]["hash"] != load_named_ruleset(REF).content_hash
    output = validate_one(tmp_path, record)
    assert f"carries its own ruleset '{REF}'" in output and "a changed ruleset needs a name of its own" in output
    games = tmp_path / "games.jsonl"
    commands: list[tuple[object, ...]] = [("export", "--ptn")]
    if importlib.util.find_spec("matplotlib"):  # without it report stops first, naming the extra (the extras' lane)
        commands.append(("report", "--html", tmp_path / "r.html"))
    for command in commands:
        one_line_error(run(*command[:1], games, *command[1:]), "a changed ruleset needs a name of its own")
    shown = run("show", games)
    assert shown.exit_code == 0 and "the ruleset it carries is not read: ruleset.name does not check" in shown.stdout
    assert run("validate", games, "-r", tmp_path / "house.yaml").exit_code == 0  # its own file, given, reads it


def test_a_carried_ruleset_that_is_not_a_ruleset_is_refused_unread(tmp_path: Path) -> None:
    [record] = house_records(tmp_path)
    secret = write(tmp_path / "secret.yaml", SECRET)
    record["ruleset"]["content"]["extends"] = str(secret)
    output = validate_one(tmp_path, record)
    assert "field ruleset.content" in output and "extends: unknown key" in output and not leaked(output)
    record["ruleset"]["content"] = ["not", "a", "ruleset"]
    assert "does not match the record schema at ruleset.content" in validate_one(tmp_path, record)


def test_a_game_changed_under_a_carried_ruleset_is_still_caught(tmp_path: Path) -> None:
    [record] = house_records(tmp_path)
    hand = record["hands"][0]
    seats = list(hand["tricks_won"])
    hand["tricks_won"][seats[0]] += 1
    hand["tricks_won"][seats[1]] -= 1
    assert "recorded tricks_won" in validate_one(tmp_path, record)


def test_the_ancestors_a_record_carries_are_names_never_paths(tmp_path: Path) -> None:
    """A record carrying its ruleset names the shipped ones it was built on (the club player's tuned sets are
    looked up along them); a path there, into the tuned sets' folder or out of it, opens nothing."""
    from fivehundred.bots.params import shipped_path

    [record] = house_records(tmp_path / "rules")
    assert record["ruleset"]["ancestors"] == [REF]
    evil = write(tmp_path / "evil.json", "{" + SECRET)
    record["ruleset"]["ancestors"] = [os.path.relpath(evil.with_suffix(""), shipped_path("x").parent), REF]
    games = as_file(tmp_path / "games.jsonl", [record])
    assert run("validate", games).exit_code == 0  # outside the hash: informational
    result = run("compare", "-n", "1", "-p", "random,club,random,club", "-r", games, "--json")
    assert result.exit_code == 0 and not leaked(result.output), result.output
    assert json.loads(result.stdout)["arms"]["A"]["params"][1] == REF
    record["ruleset"]["ancestors"] = "pagat-australian"
    one_line_error(run("export", "--ptn", as_file(tmp_path / "bad.jsonl", [record])),
                   "ruleset.ancestors is not a list of ruleset names")


def test_a_carried_ruleset_is_bounded_like_a_ruleset_file(tmp_path: Path) -> None:
    [record] = house_records(tmp_path)
    record["ruleset"]["content"]["description"] = "x" * (200 << 10)
    assert "larger than a ruleset file may be (128 KiB)" in validate_one(tmp_path, record)


def test_reading_records_of_ever_new_rulesets_keeps_memory_flat(tmp_path: Path) -> None:
    from fivehundred.records.rulesets import KEPT, RecordRulesets

    [record] = house_records(tmp_path)
    rulesets = RecordRulesets()
    for n in range(KEPT + 10):
        for meta in ({"name": f"unknown-{n}", "hash": "x"}, {**record["ruleset"], "hash": f"h{n}"}):
            with pytest.raises(fivehundred.RecordError):
                rulesets({"ruleset": meta})
    assert len(rulesets._named) <= KEPT and len(rulesets._carried) <= KEPT
