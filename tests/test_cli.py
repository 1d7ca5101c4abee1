"""The ``fivehundred`` command line, through Typer's ``CliRunner``.

Results go to stdout, diagnostics to stderr; exit 0 ok, 1 invalid input, 2 usage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # the test extra's: the schema tests run wherever the tests do
import pytest
from typer.testing import CliRunner, Result

import fivehundred
from fivehundred.bots.players import RandomPlayer
from fivehundred.cli.app import app
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import make_plugin_manager, set_plugin_manager
from fivehundred.rules.ruleset import Ruleset

REF = "pagat-australian"
SIM = ["simulate", "-n", "20", "-p", "random", "--seed", "5"]


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args], prog_name="fivehundred")


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result


def user_error(result: Result, *words: str) -> str:
    """Exit 1, the message on stderr, no traceback anywhere; returns stderr."""
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, (word, result.stderr)
    return result.stderr


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- the app --------------------------------------------------------------------------------


def test_version(runner: CliRunner) -> None:
    result = ok(run(runner, "--version"))
    assert result.stdout.strip() == f"fivehundred {fivehundred.__version__} ({fivehundred.engine_build()} engine)"
    assert fivehundred.engine_build() in ("compiled", "pure Python")  # the build this test runs under


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_lists_the_commands(runner: CliRunner, flag: str) -> None:
    result = ok(run(runner, flag))
    assert "Usage: fivehundred" in result.stdout
    for command in ("simulate", "validate", "rules"):
        assert command in result.stdout


@pytest.mark.parametrize(("command", "words"), [
    (["simulate", "-h"], ["--games", "--seed", "--players", "--workers", "--out", "--json"]),
    (["rules", "-h"], ["list", "show", "schema"]),
    (["validate", "-h"], ["--ruleset", "--json"]),
])
def test_subcommand_help(runner: CliRunner, command: list[str], words: list[str]) -> None:
    result = ok(run(runner, *command))
    for word in words:
        assert word in result.stdout


def test_unknown_command_is_a_usage_error(runner: CliRunner) -> None:
    result = run(runner, "simulat")
    assert result.exit_code == 2
    assert "No such command" in result.stderr


# --- simulate -------------------------------------------------------------------------------


def test_simulate_json(runner: CliRunner) -> None:
    result = ok(run(runner, *SIM, "--json"))
    data = json.loads(result.stdout)
    assert data["games"] == 20
    assert data["seed"] == 5
    assert data["ruleset"] == REF
    assert data["players"] == ["random"] * 4
    assert sum(data["wins"].values()) + data["unfinished"] == 20
    assert set(data["wins"]) == {"NS", "EW"}
    assert data["hands_played"] == sum(c["played"] for c in data["contracts"].values())


def test_simulate_is_the_same_with_any_number_of_workers(runner: CliRunner, tmp_path: Path) -> None:
    one = ok(run(runner, *SIM, "--json", "--workers", "1", "--out", tmp_path / "one.jsonl"))
    two = ok(run(runner, *SIM, "--json", "--workers", "2", "--out", tmp_path / "two.jsonl"))
    assert one.stdout == two.stdout
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_simulate_out_writes_one_record_per_game(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    ok(run(runner, *SIM, "--json", "--out", out))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    records = [json.loads(line) for line in lines]
    assert [r["game"] for r in records] == list(range(20))
    assert {r["seed"] for r in records} == {5}
    assert {r["format"] for r in records} == {"fivehundred-record/1"}
    assert {r["ruleset"]["hash"] for r in records} == {load_ruleset(REF).content_hash}


def test_same_seed_same_output_other_seed_other_output(runner: CliRunner) -> None:
    first = ok(run(runner, *SIM, "--json")).stdout
    again = ok(run(runner, *SIM, "--json")).stdout
    other = ok(run(runner, "simulate", "-n", "20", "-p", "random", "--seed", "6", "--json")).stdout
    assert first == again
    assert first != other
    strip_seed = lambda text: {k: v for k, v in json.loads(text).items() if k != "seed"}  # noqa: E731
    assert strip_seed(first) != strip_seed(other)  # the games differ, not only the seed printed


def test_simulate_table_summary(runner: CliRunner) -> None:
    result = ok(run(runner, "simulate", "-n", "5", "-p", "random", "--seed", "1"))
    assert "5 games" in result.stdout
    assert REF in result.stdout
    assert "Contracts by type" in result.stdout
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


def test_simulate_unknown_player(runner: CliRunner) -> None:
    result = run(runner, "simulate", "-n", "2", "-p", "nobody")
    stderr = user_error(result, "unknown player 'nobody'")
    assert "random" in stderr  # the known players are listed
    assert result.stdout == ""


def test_simulate_wrong_number_of_players(runner: CliRunner) -> None:
    user_error(run(runner, "simulate", "-n", "2", "-p", "random,random,random"), "3 players given for 4 seats")


@pytest.mark.parametrize("games", ["twenty", "2.5", "0", "-3"])
def test_simulate_bad_games_is_a_usage_error(runner: CliRunner, games: str) -> None:
    result = run(runner, "simulate", "-n", games, "-p", "random")
    assert result.exit_code == 2
    assert "--games" in result.stderr
    assert "Traceback" not in result.output


def test_simulate_unknown_ruleset(runner: CliRunner) -> None:
    user_error(run(runner, "simulate", "-n", "1", "-p", "random", "-r", "no-such-rules"),
               "unknown ruleset 'no-such-rules'")


def test_simulate_invalid_ruleset_file(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "typo.yaml", f"extends: {REF}\nscoring:\n  overtrik_points: 10\n")
    user_error(run(runner, "simulate", "-n", "1", "-p", "random", "-r", path),
               f"{path}:3: scoring.overtrik_points")


def test_simulate_ruleset_file(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "short-game.yaml", f"extends: {REF}\ngame:\n  target: 200\n")
    data = json.loads(ok(run(runner, "simulate", "-n", "3", "-p", "random", "-r", path, "--json")).stdout)
    assert data["ruleset"] == "short-game"
    assert data["games"] == 3


def test_simulate_out_to_an_unwritable_place(runner: CliRunner, tmp_path: Path) -> None:
    user_error(run(runner, *SIM, "--out", tmp_path / "no" / "such" / "dir" / "games.jsonl"), "error:")


@pytest.fixture
def plugin_player() -> Iterator[None]:
    class Registers:
        @fivehundred.hookimpl
        def fivehundred_register_players(self, register: Any) -> None:
            register("myname", RandomPlayer)

    set_plugin_manager(make_plugin_manager(entry_points=False, extra=[Registers()]))
    yield
    set_plugin_manager(None)


@pytest.mark.usefixtures("plugin_player")
def test_simulate_with_a_plugin_player(runner: CliRunner) -> None:
    data = json.loads(ok(run(runner, "simulate", "-n", "3", "-p", "myname", "--json")).stdout)
    assert data["players"] == ["myname"] * 4


# --- rules ----------------------------------------------------------------------------------


def test_rules_list_json(runner: CliRunner) -> None:
    found = json.loads(ok(run(runner, "rules", "list", "--json")).stdout)
    by_name = {item["name"]: item for item in found}
    assert REF in by_name
    assert by_name[REF]["description"] == load_ruleset(REF).description
    assert Path(by_name[REF]["path"]).is_file()


def test_rules_list_table(runner: CliRunner) -> None:
    assert REF in ok(run(runner, "rules", "list")).stdout


def test_rules_show_explains_the_ruleset(runner: CliRunner) -> None:
    text = ok(run(runner, "rules", "show", REF)).stdout
    lower = text.lower()
    assert REF in text
    assert "ladder" in lower
    assert "joker" in lower
    for call in ("6S", "7NT", "misere", "open-misere", "10NT"):
        assert call in text
    assert "43 cards" in text


def test_rules_show_defaults_to_the_reference(runner: CliRunner) -> None:
    assert ok(run(runner, "rules", "show")).stdout == ok(run(runner, "rules", "show", REF)).stdout


def test_rules_show_json(runner: CliRunner) -> None:
    data = json.loads(ok(run(runner, "rules", "show", REF, "--json")).stdout)
    rs = load_ruleset(REF)
    assert data["content_hash"] == rs.content_hash
    assert Ruleset.model_validate({k: v for k, v in data.items() if k != "content_hash"}) == rs


def test_rules_show_a_file_with_a_house_rule_it_cannot_find(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "house.yaml", f"extends: {REF}\nhouse_rules:\n  nullo: {{}}\n")
    user_error(run(runner, "rules", "show", path), "'nullo'", "not provided by any installed plugin")


def test_rules_show_unknown(runner: CliRunner) -> None:
    user_error(run(runner, "rules", "show", "no-such-rules"), "unknown ruleset 'no-such-rules'")


def test_rules_schema_is_the_ruleset_json_schema(runner: CliRunner) -> None:
    schema = json.loads(ok(run(runner, "rules", "schema")).stdout)
    assert schema == Ruleset.model_json_schema()
    assert schema["type"] == "object"
    assert {"players", "deck", "deal", "auction", "scoring", "game"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False


def test_rules_schema_record(runner: CliRunner, tmp_path: Path) -> None:
    schema = json.loads(ok(run(runner, "rules", "schema", "--record")).stdout)
    assert "json-schema.org" in schema["$schema"]
    assert schema["type"] == "object"
    assert "hands" in schema["properties"]
    out = tmp_path / "games.jsonl"
    ok(run(runner, "simulate", "-n", "3", "-p", "random", "--seed", "2", "--json", "--out", out))
    for line in out.read_text(encoding="utf-8").splitlines():
        jsonschema.validate(json.loads(line), schema)


# --- validate -------------------------------------------------------------------------------


def test_validate_a_ruleset_with_a_typo(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "typo.yaml", f"extends: {REF}\n# comment\nscoring:\n  overtrick_points: 10\n"
                                         "  defender_tricks_points: 5\n")
    result = run(runner, "validate", path)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert re.search(rf"{re.escape(str(path))}:5: scoring\.defender_tricks_points: unknown key", result.stdout)
    assert "0 of 1 valid" in result.stdout


def test_validate_json_report(runner: CliRunner, tmp_path: Path) -> None:
    bad = write(tmp_path / "typo.yaml", f"extends: {REF}\nscorring: {{}}\n")
    good = write(tmp_path / "fine.yaml", f"extends: {REF}\ngame: {{target: 300}}\n")
    result = run(runner, "validate", good, bad, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["checked"] == 2
    assert report["valid"] == 1
    assert [p["source"] for p in report["problems"]] == [str(bad)]
    assert report["problems"][0]["message"].startswith(f"{bad}:2: scorring:")


def test_validate_a_good_ruleset(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "fine.yaml", f"extends: {REF}\ngame: {{target: 300}}\n")
    assert "1 of 1 valid" in ok(run(runner, "validate", path)).stdout


def test_validate_simulated_records(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    ok(run(runner, "simulate", "-n", "5", "-p", "random", "--seed", "3", "--json", "--out", out))
    assert "5 of 5 valid" in ok(run(runner, "validate", out)).stdout


def test_validate_a_missing_file(runner: CliRunner, tmp_path: Path) -> None:
    user_error(run(runner, "validate", tmp_path / "missing.yaml"), "missing.yaml", "no such file")


def test_validate_needs_a_file(runner: CliRunner) -> None:
    result = run(runner, "validate")
    assert result.exit_code == 2
    assert "Missing argument" in result.stderr


@pytest.mark.parametrize(("ruleset", "players", "named"), [
    (REF, None, "club"),                                  # the default player searches on the reference ruleset
    (REF, "club:fast,random,solver,heuristic", "solver"),
    (REF, "club:fast", None),
    (REF, "random", None),
    (REF, "club:default", None),                          # the untuned set searches nothing
    ("six-handed-three-teams", "club", None),             # nor does the tuned set of a ruleset without open misère
    (REF, "club:no-such-set", None),                      # a bad spec is the batch's to report
])
def test_a_batch_that_solves_deals_on_a_pure_python_solver_says_so_first(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ruleset: str, players: str | None,
        named: str | None) -> None:
    import fivehundred.engine.build as build
    from fivehundred.cli.console import warn_pure_search

    monkeypatch.setattr(build, "compiled_modules", lambda: [])
    warn_pure_search(ruleset, players)
    said = capsys.readouterr().err
    if named is None:
        assert said == ""
    else:
        assert said.startswith(f"note: {named} solves sampled deals double dummy"), said
        assert "pure Python" in said and "club:fast" in said
    monkeypatch.setattr(build, "compiled_modules", lambda: list(build.COMPILED_MODULES))
    warn_pure_search(ruleset, players)
    assert capsys.readouterr().err == ""


def test_simulate_notes_a_pure_python_solver_on_stderr_and_plays_on(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    import fivehundred.engine.build as build

    monkeypatch.setattr(build, "compiled_modules", lambda: [])
    result = ok(run(runner, "simulate", "-n", "1", "--seed", "5", "-p", "club,random,random,random", "--json"))
    assert "note: club solves sampled deals double dummy" in result.stderr
    assert json.loads(result.stdout)["games"] == 1
