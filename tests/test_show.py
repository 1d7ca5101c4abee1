"""``fivehundred show``: a record as a person reads a game, checked against golden outputs (a fixed
seeded record in tests/data/show/, and the Trickster export of tests/data/ptn/ once imported)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.records.ptn_export import export_ptn
from fivehundred.records.ptn_import import import_ptn, read_games
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.records.show import call_face, card_face, hand_face, show_game, show_records
from fivehundred.rules.errors import RecordError

DATA = Path(__file__).parent / "data"
SEEDED = DATA / "show" / "seeded.jsonl"
"""pagat-australian, seed 8, game 0, four heuristic players: a failed 9♠, then a failed misère ends the game."""


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="fivehundred")


def test_a_seeded_record_reads_as_the_golden_output() -> None:
    golden = (DATA / "show" / "seeded.txt").read_text(encoding="utf-8")
    result = run("show", SEEDED)
    assert result.exit_code == 0, result.output
    assert result.stdout.replace(str(SEEDED), "seeded.jsonl") == golden


def test_an_imported_ptn_record_reads_the_same_way() -> None:
    source = DATA / "ptn" / "australian-8NT-partial.ptn"
    record = read_games(source.read_text(encoding="utf-8"), source.name).records[0]
    golden = (DATA / "show" / "australian-8NT-partial.txt").read_text(encoding="utf-8")
    assert "\n".join(show_game(record)) + "\n" == golden


@pytest.mark.parametrize("name", ["pagat-australian", "five-handed", "three-handed", "french-canadian"])
def test_a_game_exported_to_ptn_and_imported_shows_as_the_game_did(name: str, tmp_path: Path) -> None:
    """``show`` reads an imported PTN record as it reads the record it came from, hand for hand."""
    record = game_to_dict(play_game(name, seed=5, players="random", max_deals=6), seed=5, game=0)
    games = tmp_path / "games.jsonl"
    games.write_text(dumps(record) + "\n", encoding="utf-8")
    export_ptn([games], tmp_path / "games.ptn")
    back = import_ptn([tmp_path / "games.ptn"], tmp_path / "back.jsonl").records
    assert len(back) == 1
    shown, again = list(show_game(record)), list(show_game(back[0]))
    assert len(shown) > 10 and shown[1:] == again[1:]  # the first line names the source


def test_one_hand_of_one_game() -> None:
    text = show_records([SEEDED], game=1, hand=2)
    assert "Hand 2 · dealer E · totals before: NS -340, EW 50" in text and "Hand 1 " not in text
    assert "  trick 3   W 7♠    N 9♠    E Q♥    → N" in text and "S sits the hand out" in text
    assert "EW wins" not in text  # the game's end belongs to the whole game


def test_a_passed_out_deal_and_the_faces_of_cards() -> None:
    record = json.loads(SEEDED.read_text(encoding="utf-8"))
    hand = record["hands"][0]
    passed = {**hand, "calls": [{"seat": s, "call": "pass"} for s in "ESWN"], "contract": None, "discards": [],
              "tricks": [], "tricks_won": {}, "scores": {}, "totals": {}}
    passed.pop("outcome")
    lines = "\n".join(show_game({**record, "hands": [passed], "result": None}))
    assert "  round 1   pass  pass  pass  pass" in lines and "everybody passed: nothing is scored" in lines
    assert card_face("10D") == "10♦" and card_face("JK:H") == "JK(♥)" and call_face("7H") == "7♥"
    assert hand_face(["JK", "4H", "AS", "10H"]) == "♠ A  ♥ 10 4  ♣ —  ♦ —  JK"


def test_bad_input(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no game 2: the files hold 1"):
        show_records([SEEDED], game=2)
    with pytest.raises(RecordError, match=r"no hand 9 \(hands 1–2\)"):
        show_records([SEEDED], hand=9)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "fivehundred-record/1"}\n', encoding="utf-8")
    result = run("show", bad)
    assert result.exit_code == 1 and "bad.jsonl:1" in result.stderr and "Traceback" not in result.output
    assert run("show", tmp_path / "missing.jsonl").exit_code == 1
    assert run("show", SEEDED, "--game", "0").exit_code == 2
