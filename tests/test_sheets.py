"""Score sheets (``fivehundred score``): a sheet written from a played game scores exactly as the
engine scored it, under every ruleset a sheet can describe; impossible lines are refused with their
line and rule; the table's written totals are checked and the first wrong hand is named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.engine.state import GameState
from fivehundred.records.sheets import SheetError, score_sheet
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import Ruleset, load_ruleset, ruleset_paths

HEADER = "dealer,contractor,contract,tricks,NS,EW"


def sheet_rows(state: GameState) -> list[dict[str, Any]]:
    """The game as a table writes it down: a line per deal, the side's tricks, the running totals."""
    rules = state.rules
    rows = []
    totals = dict.fromkeys(rules.team_names, 0)
    for log in state.hands_log:
        row: dict[str, Any] = {"dealer": rules.seats[log.dealer]}
        if log.contract is None:
            row["contract"] = "pass"
        else:
            assert log.outcome is not None
            row.update(contractor=rules.seats[log.contractor], contract=log.contract.call,
                       tricks=sum(log.tricks_won[s] for s in log.outcome.side))
            totals = dict(zip(rules.team_names, log.totals, strict=True))
        rows.append(row | totals)
    return rows


def sheet_rulesets() -> list[str]:
    """Every shipped ruleset a sheet can describe: two fixed sides, no passed-out deal played."""
    names = []
    for name in sorted(ruleset_paths()):
        rules = compile_rules(load_ruleset(name))
        if (len(rules.team_names) == 2 and rules.ruleset.players.partnership == "fixed"
                and rules.all_pass != "no-trumps"):
            names.append(name)
    return names


def plain(state: GameState) -> bool:
    """A game whose hands a sheet can say everything about (no claim, no step that scores)."""
    return all("claim" not in log.steps for log in state.hands_log)


@pytest.mark.parametrize("name", sheet_rulesets())
def test_a_sheet_of_a_played_game_scores_as_the_engine_did(name: str) -> None:
    checked = 0
    for seed in range(12):
        state = play_game(name, seed, "random")
        if not plain(state):
            continue
        scored = score_sheet(sheet_rows(state), name)
        assert scored.ok, scored.wrong_totals
        assert [h.scores for h in scored.hands if h.made is not None] == [
            dict(zip(state.rules.team_names, log.scores, strict=True)) for log in state.hands_log if log.contract]
        assert scored.totals == dict(zip(state.rules.team_names, state.totals, strict=True))
        winner = None if state.result is None else state.rules.team_names[state.result.winner]
        assert (scored.winner, scored.reason) == (winner, None if state.result is None else state.result.reason)
        checked += 1
    assert checked >= 3, f"only {checked} plain games of {name}"


def test_more_rulesets_than_the_reference_can_be_scored() -> None:
    assert {"pagat-australian", "avondale-us", "canadian", "nullo"} <= set(sheet_rulesets())


def write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_sheet_follows_its_ruleset_s_scoring(tmp_path: Path) -> None:
    """The scoring comes from the ruleset: a house rule that gives defenders nothing changes the sheet."""
    house = write(tmp_path / "nodef.yaml", "extends: pagat-australian", "name: nodef",
                  "scoring: {defender_trick_points: 0}")
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,7H,8", "E,8S,7")
    ref = score_sheet(sheet, "pagat-australian")
    nodef = score_sheet(sheet, str(house))
    assert [h.scores for h in ref.hands] == [{"NS": 200, "EW": 20}, {"NS": 30, "EW": -240}]
    assert [h.scores for h in nodef.hands] == [{"NS": 200, "EW": 0}, {"NS": 0, "EW": -240}]


def test_a_game_won_and_its_winner(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,E,8S,7,230,-220", "E,,pass,,230,-220",
                  "S,S,misere,0,480,-220", "W,N,6NT,10,730,-220")
    scored = score_sheet(sheet)
    assert scored.ok and scored.winner == "NS" and scored.totals == {"NS": 730, "EW": -220}
    assert [h.number for h in scored.hands] == [1, 2, 3, 4, 5] and [h.line for h in scored.hands] == [2, 3, 4, 5, 6]
    assert scored.hands[2].made is None and scored.hands[2].scores == {"NS": 0, "EW": 0}  # rule 13
    assert scored.hands[4].scores["NS"] == 250  # rule 25: all ten on 6NT


def test_the_first_wrong_written_total_is_named(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,E,8S,7,230,-210", "E,S,6S,6,270,-200")
    wrong = score_sheet(sheet).wrong_totals
    assert wrong is not None and (wrong.line, wrong.hand) == (3, 2)
    assert (wrong.written, wrong.expected) == ({"NS": 230, "EW": -210}, {"NS": 230, "EW": -220})
    assert str(wrong).startswith(f"{sheet}:3: hand 2: the sheet says NS 230, EW -210 but the rules give")


def test_a_yaml_sheet_scores_as_the_csv_one(tmp_path: Path) -> None:
    csv_sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,E,8S,7,230,-220")
    yaml_sheet = write(tmp_path / "s.yaml", "hands:", "  - {dealer: W, contractor: N, contract: 7H, tricks: 8}",
                       "  - dealer: N", "    contractor: E", "    contract: 8S", "    tricks: 7",
                       "    NS: 230", "    EW: -210")
    a, b = score_sheet(csv_sheet), score_sheet(yaml_sheet)
    assert [h.totals for h in a.hands] == [h.totals for h in b.hands]
    assert b.wrong_totals is not None and (b.wrong_totals.line, b.wrong_totals.hand) == (3, 2)


@pytest.mark.parametrize(("line", "where", "rule"), [
    ("N,7H,11", "tricks", "rule 17"),
    ("N,7X,5", "contract", "rule 9"),
    ("N,misere,3", "tricks", "rule 27"),
    ("Q,7H,7", "contractor", "rule 1"),
    (",7H,7", "contractor", "rule 12"),
    ("N,pass,4", "contract", "rule 13"),
    ("N,7H,seven", "tricks", None),
])
def test_an_impossible_line_is_refused_with_its_line_and_rule(tmp_path: Path, line: str, where: str,
                                                               rule: str | None) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,6S,6", line)
    with pytest.raises(SheetError) as e:
        score_sheet(sheet)
    assert str(e.value).startswith(f"{sheet}:3: {where}: "), e.value
    if rule is not None:
        assert f"({rule}" in str(e.value)


def test_a_hand_after_the_game_was_won(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,10NT,10", "E,6S,6", "S,6S,6")
    with pytest.raises(SheetError, match=r":3: contract: a hand after the game was over.*\(rules 28–31"):
        score_sheet(sheet)


def test_the_deal_passes_to_the_left(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "dealer,contractor,contract,tricks", "W,N,6S,6", "E,E,6S,6")
    with pytest.raises(SheetError, match=r":3: dealer: E deals but the deal passes to N \(rule 7"):
        score_sheet(sheet)


def test_a_yaml_line_is_named_in_errors(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.yaml", "- {contractor: N, contract: 7H, tricks: 8}", "", "- contractor: E",
                  "  contract: 8S", "  tricks: 12")
    with pytest.raises(SheetError, match=r"s\.yaml:3: tricks: 12 tricks, but a hand has 10"):
        score_sheet(sheet)


@pytest.mark.parametrize("name", ["five-handed", "six-handed-three-teams"])
def test_a_ruleset_a_sheet_cannot_describe(name: str) -> None:
    with pytest.raises(SheetError, match="score sheet"):
        score_sheet([{"contractor": "N", "contract": "7H", "tricks": 8}], name)


def test_sheet_rows_from_python() -> None:
    scored = fivehundred.score_sheet([{"contractor": "N", "contract": "7H", "tricks": "8"}])
    assert scored.hands[0].scores == {"NS": 200, "EW": 20} and scored.source == "sheet"


# --- the command ------------------------------------------------------------------------------


def run(*args: str | Path) -> Any:
    return CliRunner().invoke(app, ["score", *map(str, args)], prog_name="fivehundred")


def test_cli_score_prints_hands_totals_and_winner(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,N,10NT,10,720,20")
    result = run(sheet, "-r", "pagat-australian")
    assert result.exit_code == 0, result.output
    assert "NS wins" in result.stdout and "720" in result.stdout


def test_cli_score_json_and_wrong_totals(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,30")
    result = run(sheet, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["hands"][0]["scores"] == {"NS": 200, "EW": 20} and data["totals_checked"] is True
    assert data["wrong_totals"] == {"line": 2, "hand": 1, "written": {"NS": 200, "EW": 30},
                                    "expected": {"NS": 200, "EW": 20}, "rule": data["wrong_totals"]["rule"]}
    assert data["wrong_totals"]["rule"].startswith("rules 24–27")
    assert f"{sheet}:2: hand 1" in result.stderr


def test_cli_score_bad_input_and_usage(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,7H,11")
    result = run(sheet)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{sheet}:2: tricks: 11 tricks" in result.stderr
    assert run(tmp_path / "missing.csv").exit_code == 1
    assert run().exit_code == 2


def test_cli_score_under_a_ruleset_file(tmp_path: Path, pagat: Ruleset) -> None:
    house = write(tmp_path / "nodef.yaml", "extends: pagat-australian", "name: nodef",
                  "scoring: {defender_trick_points: 0}")
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,7H,8")
    data = json.loads(run(sheet, "-r", house, "--json").stdout)
    assert data["ruleset"] == "nodef" and data["totals"] == {"NS": 200, "EW": 0}
