"""Strict reading (issue 29.6): what a file says is read as it is written, or refused with its file, line
and key; never silently coerced (YAML 1.1's ``8:20`` → 500), dropped (a key given twice) or misread (a
byte order mark, a digit of another script)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from extras import need
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.records.sheets import SheetError, score_sheet
from fivehundred.rules.inputs import decimal_integer
from fivehundred.rules.plain_yaml import MAX_INT_DIGITS, load_plain_yaml


def problems(path: Path) -> list[str]:
    with pytest.raises(fivehundred.RulesetError) as caught:
        fivehundred.load_ruleset(path)
    return caught.value.problems


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return game_to_dict(fivehundred.play_game(REF, seed=3, players="random"), seed=3, game=0)


# --- YAML ------------------------------------------------------------------------------------------


def test_two_game_blocks_are_an_error_not_the_first_lost(tmp_path: Path) -> None:
    path = write(tmp_path / "two.yaml", f"extends: {REF}\ngame:\n  target: 300\nplay:\n  claims: true\n"
                 "game:\n  swamp: -300\n")
    assert problems(path) == [f"{path}:6: game: duplicate key 'game' (first at line 2; YAML would keep only "
                              "the last)"]
    one_line_error(run("validate", path), f"{path}:6: game: duplicate key 'game'", "0 of 1 valid")


def test_a_nested_duplicate_key_names_its_path(tmp_path: Path) -> None:
    path = write(tmp_path / "nested.yaml", f"extends: {REF}\ngame:\n  target: 300\n  swamp: -300\n  target: 250\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:5: game.target: duplicate key 'target' (first at line 3")


def test_a_merge_key_is_not_a_duplicate(tmp_path: Path) -> None:
    path = write(tmp_path / "merge.yaml", f"extends: {REF}\nx-base: &b {{target: 300}}\ngame:\n  <<: *b\n"
                 "  target: 250\n")
    [problem] = problems(path)  # only the unknown top-level key: the merge and its override are fine
    assert "x-base: unknown key" in problem


@pytest.mark.parametrize(("written", "kind"), [
    ("true", "true/false"),
    ("'300'", "the text '300'"),
    ('"300"', "the text '300'"),
    ("8:20", "the text '8:20'"),  # YAML 1.1 sexagesimal: 8 * 60 + 20 = 500
    ("0x1F4", "the text '0x1F4'"),
    ("0o764", "the text '0o764'"),
    ("0764", "the text '0764'"),  # YAML 1.1 octal
    ("5_00", "the text '5_00'"),
    ("500.0", "float 500.0"),
])
def test_yaml_coercions_are_refused_for_integers(tmp_path: Path, written: str, kind: str) -> None:
    path = write(tmp_path / "coerced.yaml", f"extends: {REF}\ngame:\n  target: {written}\n")
    assert problems(path) == [f"{path}:3: game.target: an integer in digits (such as 500), not {kind}"
                              + (" (quoted, or not a decimal integer)" if kind.startswith("the text") else "")]


def test_integers_in_lists_and_optional_fields_are_strict_too(tmp_path: Path) -> None:
    path = write(tmp_path / "lists.yaml", f"extends: {REF}\ndeclarations:\n  slam: [8, yes]\n"
                 "scoring:\n  defender_cap: 4:50\n")
    found = problems(path)
    assert any(p.startswith(f"{path}:3: declarations.slam.1: an integer in digits") for p in found), found
    assert any(p.startswith(f"{path}:5: scoring.defender_cap: an integer in digits") for p in found), found


def test_plain_integers_still_load(tmp_path: Path) -> None:
    path = write(tmp_path / "plain.yaml", f"extends: {REF}\ngame:\n  target: 300\n  swamp: -300\n")
    ruleset = fivehundred.load_ruleset(path)
    assert (ruleset.game.target, ruleset.game.swamp) == (300, -300)


def test_yaml_1_2_words_stay_words(tmp_path: Path) -> None:
    # YAML 1.1 read `no` as false; the field means the word (D4 'no'), and `on` is text as well
    path = write(tmp_path / "words.yaml", f"extends: {REF}\ndeal:\n  misdeal_without_face_card: no\n"
                 "description: on\n")
    ruleset = fivehundred.load_ruleset(path)
    assert ruleset.deal.misdeal_without_face_card == "no" and ruleset.description == "on"


@pytest.mark.parametrize("digits", [19, 5000])
def test_an_integer_of_too_many_digits_is_one_line_with_its_key(tmp_path: Path, digits: int) -> None:
    path = write(tmp_path / "big.yaml", f"extends: {REF}\ngame:\n  target: {'9' * digits}\n")
    assert problems(path) == [f"{path}:3: game.target: an integer of {digits:,} digits is too large "
                              f"(at most {MAX_INT_DIGITS})"]
    output = one_line_error(run("validate", path), "game.target", "digits is too large")
    assert len(output.splitlines()) == 2 and "9" * 50 not in output


def test_an_explicit_int_tag_must_be_decimal(tmp_path: Path) -> None:
    path = write(tmp_path / "tagged.yaml", f"extends: {REF}\ngame:\n  target: !!int 0x1F4\n")
    assert problems(path) == [f"{path}:3: game.target: '0x1F4' is not a decimal integer (write it in digits 0-9)"]


def test_a_plain_yaml_loader_is_shared_with_score_sheets(tmp_path: Path) -> None:
    with pytest.raises(fivehundred.RulesetError, match=r"s.yaml:2: 0.tricks: duplicate key 'tricks'"):
        load_plain_yaml("- {contractor: N, contract: 7H, tricks: 8,\n   tricks: 9}\n", "s.yaml")
    sheet = write(tmp_path / "s.yaml", "- contractor: N\n  contract: 7H\n  tricks: 8\n  tricks: 2\n")
    with pytest.raises(SheetError, match=r"s.yaml:4: 0.tricks: duplicate key 'tricks'"):
        score_sheet(sheet)


# --- JSON records ----------------------------------------------------------------------------------


def test_a_record_giving_winner_twice_is_invalid(tmp_path: Path, record: dict[str, Any]) -> None:
    text = dumps(record)
    winner = record["result"]["winner"]
    other = next(t for t in record["result"]["totals"] if t != winner)
    twice = text.replace(f'"winner":"{winner}"', f'"winner":"{other}","winner":"{winner}"', 1)
    assert json.loads(twice) == record  # what json alone makes of it: the first winner silently lost
    path = write(tmp_path / "games.jsonl", twice + "\n")
    report = fivehundred.validate([path])
    assert [str(p) for p in report.problems] == [
        f"{path}:1: not a game record: the key 'winner' is given twice at result.winner (JSON keeps only the last)"]
    one_line_error(run("validate", path), "given twice at result.winner")
    one_line_error(run("show", path), "given twice at result.winner")
    need("matplotlib", "report")  # report reads the records once it has its charts to draw
    one_line_error(run("report", path, "--html", tmp_path / "r.html"), "given twice at result.winner")


def test_a_repeated_key_deep_in_a_hand_is_named(tmp_path: Path, record: dict[str, Any]) -> None:
    text = dumps(record).replace('{"number":1,', '{"number":1,"number":1,', 1)
    path = write(tmp_path / "games.json", text)
    [problem] = [str(p) for p in fivehundred.validate([path]).problems]
    assert problem == f"{path}:1: not a game record: the key 'number' is given twice at hands[0].number " \
        "(JSON keeps only the last)"


def test_a_wrong_reason_is_invalid(tmp_path: Path, record: dict[str, Any]) -> None:
    changed = json.loads(json.dumps(record))
    changed["result"]["reason"] = "the other side conceded"
    path = write(tmp_path / "games.jsonl", dumps(record) + "\n" + dumps(changed) + "\n")
    report = fivehundred.validate([path])
    [problem] = report.problems
    assert problem.source == f"{path}:2" and problem.field == "result.reason"
    assert f"the record says the game ended as 'the other side conceded' but the rules say " \
        f"{record['result']['reason']!r}" in problem.message


def test_report_refuses_a_record_outside_the_schema(tmp_path: Path, record: dict[str, Any]) -> None:
    changed = json.loads(json.dumps(record))
    changed["deals"] = "many"
    path = write(tmp_path / "games.jsonl", dumps(record) + "\n" + dumps(changed) + "\n")
    from fivehundred.analysis.report import collect  # not imported by `import fivehundred`

    with pytest.raises(fivehundred.RecordError, match=r"games.jsonl:2: does not match the record schema at deals"):
        collect([path])
    need("matplotlib", "report")
    one_line_error(run("report", path, "--html", tmp_path / "r.html"), f"{path}:2: does not match the record schema")
    assert not (tmp_path / "r.html").exists()


# --- score sheets ----------------------------------------------------------------------------------


def test_a_sheet_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    plain = "contractor,contract,tricks,NS,EW\nN,7H,8,200,20\n"
    sheet = write(tmp_path / "excel.csv", b"\xef\xbb\xbf" + plain.encode())
    scored = score_sheet(sheet)
    assert scored.totals == {"NS": 200, "EW": 20} and scored.ok
    assert run("score", sheet).exit_code == 0


@pytest.mark.parametrize("cell", ["٨", "８", "²", "1_0", "0x8", " ８ "])
def test_digits_of_other_scripts_are_refused(tmp_path: Path, cell: str) -> None:
    sheet = write(tmp_path / "digits.csv", f"contractor,contract,tricks\nN,7H,{cell}\n")
    with pytest.raises(SheetError, match=r"digits.csv:2: tricks: .* is not a number of tricks"):
        score_sheet(sheet)


def test_totals_in_other_scripts_are_refused(tmp_path: Path) -> None:
    sheet = write(tmp_path / "totals.csv", "contractor,contract,tricks,NS,EW\nN,7H,8,٢٠٠,20\n")
    with pytest.raises(SheetError, match=r"totals.csv:2: NS: '٢٠٠' is not a total"):
        score_sheet(sheet)
    one_line_error(run("score", sheet), "is not a total")


def test_a_duplicated_column_is_an_error(tmp_path: Path) -> None:
    sheet = write(tmp_path / "twice.csv", "contractor,contract,tricks,NS,EW,NS\nN,7H,8,200,20,0\n")
    with pytest.raises(SheetError, match=r"twice.csv:1: NS: the header names this column twice"):
        score_sheet(sheet)
    one_line_error(run("score", sheet), "twice.csv:1: NS: the header names this column twice")


def test_a_huge_total_is_refused_in_one_line(tmp_path: Path) -> None:
    sheet = write(tmp_path / "huge.csv", f"contractor,contract,tricks,NS,EW\nN,7H,8,{'9' * 5000},20\n")
    with pytest.raises(SheetError, match=r"huge.csv:2: NS: .* is not a total"):
        score_sheet(sheet)


@pytest.mark.parametrize(("value", "expected"), [(5, 5), ("12", 12), (" -3 ", -3), ("+7", 7)])
def test_decimal_integers_as_written(value: Any, expected: int) -> None:
    assert decimal_integer(value) == expected


@pytest.mark.parametrize("value", [True, 1.0, "١٢", "²", "1_000", "0x1F", "", "9" * 19, 10**18, None])
def test_what_is_not_a_decimal_integer(value: Any) -> None:
    with pytest.raises(ValueError):
        decimal_integer(value)


# --- PTN and cards ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ptn_text(record: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> str:
    from fivehundred.records.ptn_export import export_ptn

    path = tmp_path_factory.mktemp("ptn") / "games.jsonl"
    path.write_text(dumps(record) + "\n", encoding="utf-8")
    return export_ptn([path])


@pytest.mark.parametrize(("tag", "words"), [("Board", "Board: '١' is not a hand number"),
                                             ("GameScores", "GameScores: not an integer in digits 0-9")])
def test_ptn_numbers_in_other_scripts_are_refused(tmp_path: Path, ptn_text: str, tag: str, words: str) -> None:
    from fivehundred.records.ptn_import import import_ptn

    lines = ptn_text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(f"[{tag} "))
    lines[i] = lines[i].replace('"1"', '"١"') if tag == "Board" else lines[i].replace('"S:', '"S:٤', 1)
    path = write(tmp_path / "games.ptn", "\n".join(lines) + "\n")
    with pytest.raises(fivehundred.RecordError, match=f"games.ptn:{i + 1}: {words}"):
        import_ptn([path])
    assert import_ptn([write(tmp_path / "plain.ptn", ptn_text)]).records  # the file as exported reads


@pytest.mark.parametrize("text", ["JK٢", "JK²", "JK99999999999"])
def test_a_joker_numbered_in_other_digits_is_not_a_card(text: str) -> None:
    from fivehundred.rules.cards import parse_card

    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)
