"""``auction.ladder_changes``: a rung of an inherited ladder changed, removed, inserted or moved by its call;
errors at their file, line and key; ``rules show --yaml`` prints a resolved ruleset that loads back the same."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

import fivehundred
from fivehundred.cli.app import app
from fivehundred.rules.errors import RulesetError
from fivehundred.rules.loading import load_ruleset, ruleset_paths
from fivehundred.rules.resolved import ruleset_yaml
from fivehundred.rules.ruleset import Ruleset

REF = "pagat-australian"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def calls(rs: Ruleset) -> list[str]:
    return [rung.call for rung in rs.auction.ladder]


def rung(rs: Ruleset, call: str) -> dict[str, object]:
    return next(r for r in rs.auction.ladder if r.call == call).model_dump()


def test_a_rung_changed_removed_inserted_and_moved_by_its_call(tmp_path: Path) -> None:
    base = load_ruleset(REF)
    path = write(tmp_path, "house.yaml", """\
extends: pagat-australian
name: house
auction:
  ladder_changes:
    misere: {value: 300}
    open-misere: null
    7NT: {before: 7S}
    blind-misere: {value: 150, after: 6NT, first_own_call: true}
contracts:
  open-misere: null
  blind-misere: {kind: misere, goal: none}
""")
    rs = load_ruleset(path)
    assert rung(rs, "misere") == {**rung(base, "misere"), "value": 300}
    expected = [c for c in calls(base) if c not in ("open-misere", "7NT")]
    expected.insert(expected.index("7S"), "7NT")
    expected.insert(expected.index("6NT") + 1, "blind-misere")
    assert calls(rs) == expected
    assert rung(rs, "7NT") == rung(base, "7NT")  # moved, not changed
    assert rung(rs, "blind-misere")["first_own_call"] is True and rung(rs, "blind-misere")["value"] == 150
    others = [c for c in calls(rs) if c not in ("misere", "blind-misere")]
    assert all(rung(rs, c) == rung(base, c) for c in others)
    assert "ladder_changes" not in rs.model_dump()["auction"]  # the ladder holds the result
    fivehundred.play_game(rs, seed=1, players="random")  # and it plays


def test_changes_apply_at_each_level_of_a_chain(tmp_path: Path) -> None:
    write(tmp_path, "middle.yaml", "extends: pagat-australian\nname: middle\nauction:\n  ladder_changes:\n"
          "    misere: {value: 300}\n    10NT: {value: 600}\n")
    top = write(tmp_path, "top.yaml", "extends: middle.yaml\nname: top\nauction:\n  ladder_changes:\n"
                "    misere: {value: 350}\n")
    rs = load_ruleset(top)
    assert rung(rs, "misere")["value"] == 350 and rung(rs, "10NT")["value"] == 600
    replaced = write(tmp_path, "replaced.yaml", "extends: middle.yaml\nname: replaced\nauction:\n  ladder:\n"
                     "    - {call: 6S, value: 40}\n    - {call: 7S, value: 140}\n"
                     "contracts: {misere: null, open-misere: null}\n")
    assert calls(load_ruleset(replaced)) == ["6S", "7S"]  # a ladder given whole replaces the changed one


@pytest.mark.parametrize(("changes", "line", "message"), [
    ("    misre: {value: 300}\n", 5, "auction.ladder_changes.misre: 'misre' is not on the ladder (did you mean "
                                    "'misere'?); to add a rung, give its place"),
    ("    misere: {value: 300}\n    8NT: {valu: 3}\n", 6, "auction.ladder_changes.8NT: 'valu' is not a field of a "
                                                         "rung (did you mean 'value'?)"),
    ("    9NTT: null\n", 5, "auction.ladder_changes.9NTT: '9NTT' is not on the ladder, so it cannot be removed (did "
                          "you mean '9NT'?)"),
    ("    11NT: {value: 600, after: 10N}\n", 5, "auction.ladder_changes.11NT: after: '10N' is not on the ladder "
                                              "(did you mean '10NT'?)"),
    ("    9H: {value: 1, after: 8NT, before: 9S}\n", 5, "a rung goes after a call or before one, not both"),
    ("    open-misere: null\n", 5, "'open-misere' is a contract too: remove it from the contracts as well"),
    ("    misere: 300\n", 5, "a change is a mapping of the rung's fields"),
    ("    11NT: {after: 10NT}\n", 5, "auction.ladder.27.value: Field required"),
])
def test_a_wrong_change_is_reported_at_its_file_line_and_key(tmp_path: Path, changes: str, line: int,
                                                             message: str) -> None:
    path = write(tmp_path, "bad.yaml", f"extends: pagat-australian\nname: bad\nauction:\n  ladder_changes:\n{changes}")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert any(p.startswith(f"{path}:{line}: ") and message in p for p in caught.value.problems), caught.value.problems


def test_the_json_schema_describes_ladder_changes() -> None:
    schema = Ruleset.model_json_schema()
    changes = schema["$defs"]["Auction"]["properties"]["ladder_changes"]
    assert "misere: {value: 300}" in changes["description"]
    data = yaml.safe_load(ruleset_yaml(load_ruleset(REF)))
    data["auction"]["ladder_changes"] = {"misere": {"value": 300}, "10NT": None, "9NT": {"after": "9H"}}
    jsonschema.validate(data, schema)
    data["auction"]["ladder_changes"] = {"misere": {"valu": 300}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_changes_given_to_the_model_directly_are_applied() -> None:
    data = load_ruleset(REF).model_dump(mode="json")
    data["auction"]["ladder_changes"] = {"misere": {"value": 300}, "10NT": None}
    rs = Ruleset.model_validate(data)
    assert rung(rs, "misere")["value"] == 300 and "10NT" not in calls(rs)


@pytest.mark.parametrize("name", sorted(ruleset_paths()))
def test_rules_show_yaml_loads_back_as_the_same_ruleset(name: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["rules", "show", name, "--yaml"])
    assert result.exit_code == 0, result.output
    assert "extends" not in yaml.safe_load(result.stdout)
    path = write(tmp_path, f"{name}.yaml", result.stdout)
    original, again = load_ruleset(name), load_ruleset(path)
    assert again == original and again.content_hash == original.content_hash


def test_a_house_rule_s_resolved_yaml_holds_its_changes(tmp_path: Path) -> None:
    house = write(tmp_path, "house.yaml", "extends: pagat-australian\nname: house\nauction:\n  ladder_changes:\n"
                  "    misere: {value: 300}\n")
    result = CliRunner().invoke(app, ["rules", "show", str(house), "--yaml"])
    resolved = write(tmp_path, "resolved.yaml", result.stdout)
    assert "- {call: misere, value: 300, requires_standing: 7S}" in result.stdout
    assert load_ruleset(resolved).content_hash == load_ruleset(house).content_hash
