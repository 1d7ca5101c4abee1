"""No terminal injection (issue 29.3): text from a file (a player's name, a record's winner, a ruleset's
name, a PTN tag) reaches the terminal with its control characters escaped, one line staying one line,
and square brackets shown rather than taken for styles; PTN export escapes its tag values so that import
reads back every name as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.records.ptn import read_ptn, tag_line
from fivehundred.records.ptn_export import export_ptn
from fivehundred.records.ptn_import import import_ptn
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.printable import printable

HOSTILE = {
    "N": 'quote " and \\ backslash',
    "E": "title \x1b]0;pwned\x07 bell",
    "S": 'line\r\n[Ruleset "/etc/passwd"]',
    "W": "Zoë ♠ \u202eright-to-left [/] [bold]x",
}
"""Player names a record may hold: quotes, backslashes, an OSC title change, CR LF and a forged tag line,
non-ASCII, a bidirectional override, console markup."""

RAW = ("\x1b", "\r", "\x07", "\u202e")


def clean(output: str) -> None:
    """No raw control character (but line ends) in ``output``."""
    for char in RAW:
        assert char not in output, (char, output)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    found = game_to_dict(fivehundred.play_game(REF, seed=3, players="random"), seed=3, game=0)
    found["players"] = dict(HOSTILE)
    return found


@pytest.mark.parametrize(("text", "shown"), [
    ("\x1b[2J", "\\x1b[2J"),
    ("a\r\nb", "a\\r\\nb"),
    ("tab\there", "tab\\there"),
    ("\x9b31m", "\\x9b31m"),
    ("\u202eevil", "\\u202eevil"),
    ("\u2028", "\\u2028"),
    ("\ud800", "\\ud800"),
    ("Zoë ♠ 10♥", "Zoë ♠ 10♥"),
])
def test_printable_escapes_what_acts_on_a_terminal(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert printable(printable(text)) == shown  # escaping twice changes nothing


def test_show_prints_names_escaped(tmp_path: Path, record: dict[str, Any]) -> None:
    path = write(tmp_path / "games.jsonl", dumps(record) + "\n")
    result = run("show", path)
    assert result.exit_code == 0, result.output
    clean(result.output)
    [head] = [line for line in result.output.splitlines() if line.startswith("game 1")]
    assert "E title \\x1b]0;pwned\\x07 bell" in head and 'S line\\r\\n[Ruleset "/etc/passwd"]' in head
    assert not any(line.startswith("[Ruleset") for line in result.output.splitlines())


def test_validate_prints_a_winner_escaped_and_its_markup_as_text(tmp_path: Path, record: dict[str, Any]) -> None:
    changed = json.loads(json.dumps(record))
    changed["result"]["winner"] = "X\x1b[2J\r[/]"
    path = write(tmp_path / "games.jsonl", dumps(changed) + "\n")
    result = run("validate", path)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    clean(result.output)
    [line] = [line for line in result.output.splitlines() if line.startswith("invalid")]
    assert "field result.winner: the record says X\\x1b[2J\\r[/] won" in line
    assert str(fivehundred.validate([path]).problems[0]).count("\\x1b") == 1


def test_show_escapes_the_winner_and_the_ruleset_name(tmp_path: Path, record: dict[str, Any]) -> None:
    changed = json.loads(json.dumps(record))
    changed["result"]["winner"] = "W\x1b]0;x\x07"
    changed["ruleset"]["name"] = "a\nb"
    path = write(tmp_path / "games.jsonl", dumps(changed) + "\n")
    result = run("show", path)
    clean(result.output)
    assert "W\\x1b]0;x\\x07 wins" in result.output and "ruleset a\\nb" in result.output


@pytest.fixture
def evil_ruleset(tmp_path: Path) -> Path:
    # YAML's double-quoted escapes write ESC (\e), BEL (\a), CR and LF into the name
    return write(tmp_path / "evil.yaml", f'extends: {REF}\nname: "evil\\e]0;pwned\\a\\r\\n[/]x"\n'
                 'description: "clears \\e[2J the screen"\n')


def test_rules_show_and_diff_escape_a_ruleset_name(evil_ruleset: Path) -> None:
    shown = run("rules", "show", evil_ruleset)
    assert shown.exit_code == 0
    clean(shown.output)
    assert shown.output.splitlines()[0] == "evil\\x1b]0;pwned\\x07\\r\\n[/]x"
    assert "clears \\x1b[2J the screen" in shown.output
    diff = run("rules", "diff", evil_ruleset, REF)
    assert diff.exit_code == 0
    clean(diff.output)
    assert diff.output.startswith("name: evil\\x1b]0;pwned\\x07\\r\\n[/]x → ")


def test_simulate_escapes_the_ruleset_name_in_its_title(evil_ruleset: Path) -> None:
    result = run("simulate", "-n", "1", "-p", "random", "-r", evil_ruleset)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    clean(result.output)
    assert "evil\\x1b]0;pwned\\x07\\r\\n[/]x" in result.output.replace("\n", "").replace(" ", "")


def test_an_error_quoting_a_key_from_the_file_is_escaped(tmp_path: Path) -> None:
    path = write(tmp_path / "key.yaml", f'extends: {REF}\nhouse_rules:\n  "\\e[2Jwipe\\rx[/]": {{}}\n')
    output = one_line_error(run("rules", "show", path), "house_rules.\\x1b[2Jwipe\\rx[/]")
    clean(output)


def test_the_ruleset_name_is_escaped_in_a_score_sheet_title(tmp_path: Path, evil_ruleset: Path) -> None:
    sheet = write(tmp_path / "sheet.csv", "contractor,contract,tricks\nN,7H,8\n")
    result = run("score", sheet, "-r", evil_ruleset)
    assert result.exit_code == 0, result.output
    clean(result.output)


# --- PTN -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [*HOSTILE.values(), "\\x41 is not A", "ends in \\", "\ttab\x00nul\x7f\u2029"])
def test_a_tag_value_reads_back_as_written(value: str) -> None:
    line = tag_line("West", value)
    assert "\n" not in line and "\r" not in line and "\x1b" not in line
    [parsed] = read_ptn(f'[Event "x"]\n{line}\n')
    assert parsed.value("West") == value


def test_export_writes_one_tag_line_per_name_and_import_reads_them_back(tmp_path: Path,
                                                                        record: dict[str, Any]) -> None:
    games = write(tmp_path / "games.jsonl", dumps(record) + "\n")
    text = export_ptn([games])
    clean(text)
    assert not any(line.startswith("[Ruleset") for line in text.splitlines())  # no forged tag line
    players = [line for line in text.splitlines() if line.startswith(("[North", "[East", "[South", "[West"))]
    assert len(players) == 4 * len(record["hands"])
    ptn = write(tmp_path / "games.ptn", text)
    imported = import_ptn([ptn], tmp_path / "back.jsonl")
    assert imported.records and all(r["players"] == HOSTILE for r in imported.records)
    assert fivehundred.validate([tmp_path / "back.jsonl"]).ok


def test_export_to_the_terminal_is_escaped_too(tmp_path: Path, record: dict[str, Any]) -> None:
    games = write(tmp_path / "games.jsonl", dumps(record) + "\n")
    result = run("export", "--ptn", games)
    assert result.exit_code == 0, result.output
    clean(result.output)
