"""Names as a person types them: a mistyped ruleset, player or house rule suggests the nearest known name;
the shell completes ruleset and player names; ``show`` without ``--game`` shows the first game and says how
to choose another; ``export`` says what it wrote."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import typer.core
import typer.main
from typer.testing import CliRunner, Result

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.cli.completion import player_names, ruleset_names
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.errors import UnknownNameError, nearest, unknown_name
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import check_ruleset, make_plugin_manager, player_factories


def run(*args: str | Path, cwd: Path | None = None) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="fivehundred")


def one_line_error(result: Result) -> str:
    """Exit 1, one line on stderr, no traceback; returns the line."""
    assert result.exit_code == 1, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# --- did you mean ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "meant"), [
    ("pagat-austrlian", "pagat-australian"), ("Pagat-Australian", "pagat-australian"),
    ("pagat_australian", "pagat-australian"), ("candian", "canadian"),
    ("six-handed-two-joker", "six-handed-two-jokers"),
    ("three-handed-deadhand", "three-handed-dead-hand"), ("two-hand", "two-handed"),
])
def test_a_mistyped_ruleset_suggests_the_nearest(typed: str, meant: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        fivehundred.load_ruleset(typed)
    assert str(caught.value) == (f"unknown ruleset {typed!r}; did you mean {meant}? "
                                 "(`fivehundred rules list` lists them all)")


def test_a_ruleset_name_near_none_lists_every_one() -> None:
    with pytest.raises(UnknownNameError) as caught:
        fivehundred.load_ruleset("whist")
    assert str(caught.value) == f"unknown ruleset 'whist'; known: {', '.join(sorted(ruleset_paths()))}"


@pytest.mark.parametrize("command", [["simulate", "-n", "1", "-r"], ["rules", "show"], ["play", "--seat", "S", "-r"],
                                     ["score", "sheet.csv", "-r"], ["compare", "-n", "1", "--ruleset-b"]])
def test_every_command_suggests_the_nearest_ruleset_in_one_line(command: list[str]) -> None:
    line = one_line_error(run(*command, "pagat-austrlian"))
    assert line.startswith("error: unknown ruleset 'pagat-austrlian'; did you mean pagat-australian?"), line


@pytest.mark.parametrize(("typed", "meant"), [("heurstic", "heuristic"), ("clbu", "club"), ("Random", "random"),
                                              ("monte-carlo", "montecarlo")])
def test_a_mistyped_player_suggests_the_nearest(typed: str, meant: str) -> None:
    line = one_line_error(run("simulate", "-n", "1", "-p", f"club,{typed},club,club"))
    known = ", ".join(sorted(player_factories()))
    assert line == f"error: unknown player {typed!r}; did you mean {meant}? known: {known}"
    assert one_line_error(run("play", "--seat", "S", "--bots", typed)).endswith(f"did you mean {meant}? known: {known}")


def test_a_player_with_its_argument_is_suggested_by_its_name() -> None:
    line = one_line_error(run("simulate", "-n", "1", "-p", "montecrlo:50"))
    assert "unknown player 'montecrlo'; did you mean montecarlo?" in line


class HousePlugin:
    @fivehundred.hookimpl
    def fivehundred_house_rules(self) -> list[str]:
        return ["misere-penalty"]


def test_a_mistyped_house_rule_suggests_the_installed_one(pagat: fivehundred.Ruleset) -> None:
    pm = make_plugin_manager(entry_points=False, extra=[HousePlugin()])
    rs = pagat.model_copy(update={"house_rules": {"misere-penalti": {}}})
    [(where, problem)] = check_ruleset(rs, pm)
    assert where == "house_rules.misere-penalti"
    assert ("house rule 'misere-penalti' is not provided by any installed plugin (did you mean misere-penalty? "
            in problem)
    far = pagat.model_copy(update={"house_rules": {"bonus-for-slam": {}}})
    [(_, problem)] = check_ruleset(far, pm)
    assert "did you mean" not in problem and "installed house rules: ['misere-penalty']" in problem


def test_nearest_is_none_when_nothing_is_near() -> None:
    assert nearest("pagat-austrlian", ["pagat-australian", "perfect"]) == "pagat-australian"
    assert nearest("xyz", ["pagat-australian", "perfect"]) is None
    assert nearest("a", []) is None
    assert str(unknown_name("player", "x", [])) == "unknown player 'x'; known: none"


# --- shell completion --------------------------------------------------------------------------------


def test_ruleset_names_complete_from_what_is_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert ruleset_names("pag") == ["pagat-australian"]
    assert ruleset_names("six-handed-t") == ["six-handed-three-teams", "six-handed-two-jokers"]
    assert ruleset_names("") == sorted(ruleset_paths())
    (tmp_path / "pub.yaml").write_text("extends: pagat-australian\nname: pub\n", encoding="utf-8")
    (tmp_path / "pub-notes.txt").write_text("not a ruleset", encoding="utf-8")
    (tmp_path / "pubs").mkdir()
    assert ruleset_names("p") == ["pagat-australian", "perfect", "pub.yaml"]
    assert ruleset_names("pubs/") == []  # a path: the shell completes it as a file


def test_player_names_complete_the_last_of_a_list() -> None:
    assert player_names("h") == ["heuristic"]
    assert player_names("") == sorted(player_factories())
    assert player_names("club,h") == ["club,heuristic"]
    assert player_names("club,heuristic,") == [f"club,heuristic,{name}" for name in sorted(player_factories())]
    assert player_names("zz") == []


def _commands(group: Any, prefix: str = "") -> dict[str, Any]:
    found = {}
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found |= _commands(command, f"{prefix}{name} ")
        else:
            found[prefix + name] = command
    return found


RULESET_PARAMETERS = {"first", "second", "name"}  # rules diff FIRST SECOND, rules show NAME
PLAYER_PARAMETERS = {"bots", "reference"}


def test_every_ruleset_and_player_parameter_completes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through click's completion, as the shell asks it: each parameter of every command that takes a ruleset or
    players (``--ruleset…``, ``--players…``, ``--bots``, ``--reference``, the rules' arguments) completes names."""
    monkeypatch.chdir(tmp_path)
    group = typer.main.get_command(app)
    completed = []
    for name, command in _commands(group).items():
        ctx = typer.core.TyperCommand.make_context(command, name, [], resilient_parsing=True)
        for param in command.get_params(ctx):
            pname = param.name or ""
            if "ruleset" in pname or pname in RULESET_PARAMETERS:
                expected = sorted(ruleset_paths())
            elif "player" in pname or pname in PLAYER_PARAMETERS:
                expected = sorted(player_factories())
            else:
                continue
            assert [item.value for item in param.shell_complete(ctx, "")] == expected, (name, pname)
            completed.append(f"{name} {pname}")
    assert len(completed) >= 17, completed  # simulate -r -p, validate -r, compare -r --ruleset-b -p --players-b, …


def test_the_shell_completes_a_ruleset_option(tmp_path: Path) -> None:
    """As the completion script Typer installs asks (``--install-completion``), in a process of its own."""
    import subprocess
    import sys

    env = {**os.environ, "_FIVEHUNDRED_COMPLETE": "complete_bash", "COMP_WORDS": "fivehundred compare --ruleset-b th",
           "COMP_CWORD": "3"}
    done = subprocess.run([sys.executable, "-m", "fivehundred"], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.stdout.split() == ["three-handed", "three-handed-dead-hand"], done.stderr


# --- show and export ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    records = [game_to_dict(play_game("pagat-australian", seed=i, players="random", max_deals=2), seed=i, game=0)
               for i in range(3)]
    path.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_show_without_game_shows_the_first_and_says_how_to_choose(three_games: Path) -> None:
    result = run("show", three_games)
    assert result.exit_code == 0, result.output
    assert result.stdout == run("show", three_games, "--game", "1").stdout
    assert result.stdout.startswith(f"game 1 ({three_games}:1)") and "game 2 (" not in result.stdout
    assert result.stderr == "game 1 of 3 shown; another: --game N (1–3), every one: --all\n"
    assert run("show", three_games, "--game", "2").stderr == ""


def test_show_all_shows_every_game(three_games: Path) -> None:
    result = run("show", three_games, "--all")
    assert result.exit_code == 0 and result.stderr == ""
    assert [line.split(" (")[0] for line in result.stdout.splitlines() if line.startswith("game ")] == [
        "game 1", "game 2", "game 3"]
    assert run("show", three_games, "--all", "--game", "2").exit_code == 2


def test_show_of_one_game_says_nothing_more(three_games: Path, tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text(three_games.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    result = run("show", one)
    assert result.exit_code == 0 and result.stderr == "" and result.stdout.startswith("game 1 (")


def test_export_says_what_it_wrote(three_games: Path, tmp_path: Path) -> None:
    out = tmp_path / "games.ptn"
    result = run("export", three_games, "--ptn", "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"3 games written as PTN to {out}\n" and result.stdout == ""
    hands = sum(len(json.loads(line)["hands"]) for line in three_games.read_text(encoding="utf-8").splitlines())
    assert out.read_text(encoding="utf-8").count("[GameScores ") == hands  # a PTN record per hand
    to_stdout = run("export", three_games, "--ptn")
    assert to_stdout.stdout == out.read_text(encoding="utf-8")
    assert to_stdout.stderr == "3 games written as PTN to stdout\n"
