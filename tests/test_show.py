"""``fivehundred show``: a record as a person reads a game, checked against golden outputs (a fixed
seeded record in tests/data/show/, and the Trickster export of tests/data/ptn/ once imported)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner, Result

from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.records.ptn_export import export_ptn
from fivehundred.records.ptn_import import import_ptn, read_games
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.records.show import call_face, card_face, hand_face, show_game, show_records
from fivehundred.rules.cards import faces
from fivehundred.rules.errors import RecordError
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step, field_text

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


# --- the steps' fields, as each step prints them (``Step.show``) ------------------------------


def _shown(record: dict[str, Any], ruleset: Ruleset | None = None) -> str:
    return "\n".join(show_game(record, ruleset=ruleset))


def _record(ruleset: str | Ruleset, seed: int) -> dict[str, Any]:
    """The record of a random game of up to 8 deals."""
    return game_to_dict(play_game(ruleset, seed=seed, players="random", max_deals=8), seed=seed, game=0)


def _game(ruleset: str | Ruleset, seed: int, wanted: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random game's record and its first hand holding the field ``wanted``."""
    record = _record(ruleset, seed)
    return record, next(h for h in record["hands"] if wanted in h)


def test_a_called_partner_reads_as_a_card_and_the_seat_that_holds_it() -> None:
    record, hand = _game("five-handed", 1, "partner_call")
    called, who = hand["partner_call"], hand["contract"]["contractor"]
    holder = next(seat for seat, cards in hand["hands"].items() if called in cards)
    text = _shown(record)
    assert f"  {who} calls {card_face(called)} for a partner ({holder} holds it)" in text
    assert "partner call" not in text and f" {called} " not in text  # nothing raw: J♥, never JH
    alone = {**record, "hands": [{**hand, "partner_call": "alone"}]}
    assert f"  {who} plays alone" in _shown(alone)


def test_the_order_of_a_hand_blind_bids_before_the_auction_the_call_between_discards_and_nomination() -> None:
    record, hand = _game("perfect", 0, "blind_calls")
    lines = _shown(record).splitlines()
    answers = [f"{a['seat']} looks" if a["call"] == "look" else f"{a['seat']} bids {a['call']}"
               for a in hand["blind_calls"]]
    blind = lines.index("  before looking: " + ", ".join(answers))
    assert blind < next(i for i, line in enumerate(lines) if line.startswith("  auction:"))
    marks = ("takes the kitty", "for a partner", "nominates the joker")
    lines = next(lines for seed in range(40) for record in [_record("five-handed", seed)] for hand in record["hands"]
                 for lines in [_shown({**record, "hands": [hand]}).splitlines()]
                 if all(any(mark in line for line in lines) for mark in marks))
    order = [next(i for i, line in enumerate(lines) if mark in line) for mark in marks]
    assert order == sorted(order)


def test_declaration_gift_and_breach_read_as_sentences(tmp_path: Path) -> None:
    path = tmp_path / "every-step.yaml"
    path.write_text(yaml.safe_dump({"name": "every-step", "extends": "pagat-australian", "scoring": {"breach": 100},
                                    "declarations": {"slam": [7], "declare": True}}), encoding="utf-8")
    rs = load_ruleset(path)
    record, hand = _game(rs, 1, "given")
    who, given = hand["contract"]["contractor"], hand["given"]
    giver = next(seat for seat, cards in hand["hands"].items() if given in cards)
    calls = ", ".join(f"{c['seat']} {'calls breach' if c['breach'] else 'passes'}" for c in hand["breach_calls"])
    made = {"declare": f"{who} declares: every trick to take", "slam": f"{who} calls slam"}[hand["declaration"]]
    text = _shown(record, rs)
    for line in (made, f"{giver} gives {who} the {card_face(given)}", f"breach: {calls}"):
        assert f"\n  {line}\n" in text
    assert "breach calls" not in text and "given:" not in text and "'seat'" not in text
    games = tmp_path / "games.jsonl"
    games.write_text(dumps(record) + "\n", encoding="utf-8")
    result = run("show", games, "-r", path)
    assert result.exit_code == 0 and f"  {giver} gives {who} the {card_face(given)}" in result.stdout
    # without the ruleset file the record carries its ruleset: the same sentences
    assert run("show", games).stdout == result.stdout
    # a record that carries none (written before records did) still reads, its fields as recorded, with suit symbols
    record["ruleset"].pop("content")
    games.write_text(dumps(record) + "\n", encoding="utf-8")
    bare = run("show", games).stdout
    assert f"  given: {card_face(given)}" in bare and "  breach calls: seat " in bare
    missing = run("show", games, "-r", tmp_path / "missing.yaml")
    assert missing.exit_code == 1 and "missing.yaml" in missing.stderr and "Traceback" not in missing.output


def test_a_claim_and_a_pass_to_the_partner_print_through_their_steps(tmp_path: Path) -> None:
    record = json.loads(SEEDED.read_text(encoding="utf-8"))
    hand = {**record["hands"][0], "claim": {"seat": "S", "after_tricks": 7, "upheld": False}, "passed": ["4D", "QH"]}
    plain = _shown({**record, "hands": [hand], "result": None})
    assert "  claim: seat S, after tricks 7, upheld no" in plain and "  passed: 4♦, Q♥" in plain  # no such steps
    rs = load_ruleset("perfect").model_copy(update={"play": load_ruleset("perfect").play.model_copy(
        update={"claims": True})})
    lines = _shown({**record, "hands": [hand], "result": None}, rs).splitlines()
    claim = lines.index("  S claims the rest after 7 tricks: wrong: the defence could take a trick")
    passed = lines.index("  S passes 4♦ Q♥ to the partner")
    discards = lines.index("  S takes the kitty and discards 7♣ 9♦ J♦")
    assert passed < discards < next(i for i, line in enumerate(lines) if line.startswith("  trick 10")) < claim


class Swap(Step):
    """A third-party step that prints through the defaults: it swaps a card with the kitty."""

    name = "swap"
    actions = range(3000, 3100)
    record_key = "kitty_swap"

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(entry["seat"], f"swap {entry['card']}") for entry in hand.get(self.record_key, [])]


def test_a_third_party_steps_fields_print_readably_by_default() -> None:
    hand = {"kitty_swap": [{"seat": "E", "card": "10D"}, {"seat": "W", "card": "JK"}]}
    assert Swap().show(hand) == ["kitty swap: E swap 10♦, W swap JK"]
    assert Swap().show({}) == []

    class Silent(Swap):
        def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
            return []

    assert Silent().show(hand) == ["kitty swap: seat E, card 10♦; seat W, card JK"]
    assert field_text({"bid": "7H", "open": True, "cards": ["AS", "JK:H"], "note": "rule 12"}) == \
        "bid 7♥, open yes, cards A♠, JK(♥), note rule 12"
    assert faces("call JH over 8NT and pass") == "call J♥ over 8NT and pass"
