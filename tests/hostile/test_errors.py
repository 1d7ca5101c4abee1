"""Issue 29, item 5: one-line errors, never a traceback, each naming the file, line and key (or the
option, the plugin and its hook)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import REF, one_line_error, run, write

from fivehundred import hookimpl
from fivehundred.rules.manager import make_plugin_manager, set_plugin_manager
from fivehundred.rules.outputs import partial_path

PTN = Path(__file__).parent.parent / "data" / "ptn" / "australian-8NT-partial.ptn"
SURROGATE = "\ud800"


def records(path: Path, n: int = 2) -> Path:
    result = run("simulate", "-n", n, "-p", "random", "--out", path)
    assert result.exit_code == 0, result.output
    return path


def tampered(path: Path, change: Any) -> Path:
    record = json.loads(records(path.with_name("clean.jsonl"), 1).read_text().splitlines()[0])
    change(record)
    return write(path, json.dumps(record) + "\n")  # json.dumps escapes a lone surrogate as \ud800


# --- outputs and paths ------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["show", "report", "export", "validate", "score"])
def test_a_folder_given_as_input_says_it_is_a_folder(tmp_path: Path, command: str) -> None:
    if command == "report":
        pytest.importorskip("matplotlib")
    folder = tmp_path / "adir"
    folder.mkdir()
    args = {"show": ["show", folder], "report": ["report", folder, "--html", tmp_path / "r.html"],
            "export": ["export", "--ptn", folder], "validate": ["validate", folder], "score": ["score", folder]}
    result = run(*args[command])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{folder}: is a folder" in result.output


def test_parquet_values_out_of_range_name_the_column(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    points = 10**18 - 1  # the most digits a ruleset integer may have: ten tricks of it pass 2**63
    house = write(tmp_path / "big.yaml", f"extends: {REF}\nname: big\nscoring:\n  defender_trick_points: {points}\n")
    out = write(tmp_path / "big.parquet", "old")
    one_line_error(run("simulate", "-r", house, "-n", "3", "-p", "random", "--out", out),
                   f"{out}: column score_", "does not fit Parquet's", f"{out} is left as it was")
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.parquet", "big.yaml"]  # no parts, no partial


@pytest.mark.parametrize(("address", "says"), [("tls://127.0.0.1:1", "cannot connect to the Dask scheduler at tls"),
                                               ("ucx://127.0.0.1:1", "the ucx:// protocol cannot be used"),
                                               ("inproc://x", "the inproc:// protocol cannot be used"),
                                               ("foo://x", "unknown address scheme")])
def test_a_scheduler_of_an_unusable_protocol_is_one_line(address: str, says: str) -> None:
    pytest.importorskip("distributed")
    result = one_line_error(run("simulate", "-n", "2", "-p", "random", "--scheduler", address), says)
    assert len(result.strip().splitlines()) == 1


# --- plugins ----------------------------------------------------------------------------------------------


@pytest.fixture
def plugin() -> Iterator[Any]:
    def install(obj: Any) -> None:
        pm = make_plugin_manager(entry_points=False)
        pm.register(obj, name="housebot")
        set_plugin_manager(pm)

    yield install
    set_plugin_manager(None)


def test_a_plugin_player_that_is_not_callable_names_the_plugin(plugin: Any) -> None:
    class NotCallable:
        @hookimpl
        def fivehundred_register_players(self, register: Any) -> None:
            register("bad", 42)

    plugin(NotCallable())
    one_line_error(run("simulate", "-n", "2", "-p", "random"), "plugin 'housebot'", "fivehundred_register_players",
                   "register('bad', 42)")


def test_a_plugin_deck_of_duplicate_cards_names_the_plugin(plugin: Any, tmp_path: Path) -> None:
    class Duplicates:
        @hookimpl(tryfirst=True)
        def fivehundred_build_deck(self, ruleset: Any) -> list[int]:
            return [4] * 43  # the four of spades, 43 times

    plugin(Duplicates())
    out = tmp_path / "g.jsonl"
    one_line_error(run("simulate", "-n", "2", "-p", "random", "-o", out), "plugin 'housebot' answered "
                   "fivehundred_build_deck", "not a list of distinct card numbers")
    assert not out.exists() and not partial_path(out).exists()


def test_a_plugin_deck_of_cards_that_do_not_exist_names_the_plugin(plugin: Any) -> None:
    class Zeros:
        @hookimpl(tryfirst=True)
        def fivehundred_build_deck(self, ruleset: Any) -> list[int]:
            return list(range(43))  # 0, 1, 20, 21 … are no card

    plugin(Zeros())
    one_line_error(run("simulate", "-n", "2", "-p", "random"), "not a list of distinct card numbers")


# --- what stdout cannot encode ------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
@pytest.mark.parametrize("command", [["simulate", "-n", "2", "-p", "random"], ["validate", "g.jsonl"],
                                     ["show", "g.jsonl"], ["rules", "show"], ["rules", "list"],
                                     ["simulate", "-n", "1", "-p", "random", "--json"]])
def test_stdout_in_latin_1_or_ascii(tmp_path: Path, encoding: str, command: list[str]) -> None:
    records(tmp_path / "g.jsonl")
    done = subprocess.run([sys.executable, "-m", "fivehundred", *command], cwd=tmp_path, capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": encoding}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    done.stdout.decode(encoding)  # what was written is text of that encoding
    if "--json" in command:
        assert json.loads(done.stdout)["games"] == 1


# --- lone surrogates ----------------------------------------------------------------------------------------


def _winner(record: dict[str, Any]) -> None:
    record["result"]["winner"] = SURROGATE


@pytest.mark.parametrize("extra", [[], ["--json"], ["--workers", "2"]])
def test_a_lone_surrogate_in_the_winner_is_an_invalid_record(tmp_path: Path, extra: list[str]) -> None:
    bad = tampered(tmp_path / "s.jsonl", _winner)
    assert "\\ud800" in bad.read_text()
    result = run("validate", bad, *extra)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "result.winner: a lone surrogate" in result.output
    if extra == ["--json"]:
        assert json.loads(result.stdout)["valid"] == 0


@pytest.mark.parametrize("command", ["show", "export", "export-o", "report"])
def test_a_lone_surrogate_anywhere_is_one_line_naming_file_line_and_key(tmp_path: Path, command: str) -> None:
    if command == "report":
        pytest.importorskip("matplotlib")

    def player(record: dict[str, Any]) -> None:
        record["players"] = {seat: SURROGATE + "x" for seat in record["players"]}

    bad = tampered(tmp_path / "p.jsonl", player)
    args = {"show": ["show", bad], "export": ["export", "--ptn", bad],
            "export-o": ["export", "--ptn", bad, "-o", tmp_path / "e.ptn"],
            "report": ["report", bad, "--html", tmp_path / "r.html"]}[command]
    one_line_error(run(*args), f"{bad}:1: players.", "a lone surrogate")
    assert not (tmp_path / "e.ptn").exists()


# --- score sheets ------------------------------------------------------------------------------------------


def test_a_score_sheet_with_cr_only_line_endings_reads_like_any_other(tmp_path: Path) -> None:
    lines = ["contractor,contract,tricks", "N,6S,7", "E,7H,8"]
    unix = run("score", write(tmp_path / "lf.csv", "\n".join(lines) + "\n"), "--json")
    mac = run("score", write(tmp_path / "cr.csv", "\r".join(lines) + "\r"), "--json")
    assert unix.exit_code == mac.exit_code == 0, mac.output
    strip = lambda text: text.replace(str(tmp_path / "lf.csv"), "S").replace(str(tmp_path / "cr.csv"), "S")  # noqa: E731
    assert strip(unix.stdout) == strip(mac.stdout)


def test_a_score_sheet_cell_over_131072_characters_is_one_line(tmp_path: Path) -> None:
    sheet = write(tmp_path / "big.csv", "contractor,contract,tricks\nN,6S," + "7" * 140_000 + "\n")
    result = one_line_error(run("score", sheet), f"{sheet}:2: not a CSV line", "131072")
    assert len(result.strip().splitlines()) == 1


# --- deep structures ----------------------------------------------------------------------------------------


def test_an_extends_chain_1000_deep_is_one_line(tmp_path: Path) -> None:
    for i in range(1000):
        parent = f"r{i + 1}.yaml" if i < 999 else REF
        write(tmp_path / f"r{i}.yaml", f"extends: {parent}\nname: r{i}\n")
    result = one_line_error(run("rules", "show", tmp_path / "r0.yaml"), "extends: a chain of more than 32 rulesets")
    assert re.search(r"r31\.yaml:1: extends:", result)
    assert run("rules", "show", tmp_path / "r990.yaml").exit_code == 0  # ten deep is fine


def test_ptn_options_json_nested_100000_deep_is_one_line(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = re.sub(r'\[GameOptionsJson ".*"\]', lambda m: f'[GameOptionsJson "{deep}"]', PTN.read_text(), count=1)
    ptn = write(tmp_path / "deep.ptn", text)
    one_line_error(run("import", ptn, "-o", tmp_path / "d.jsonl"), f"{ptn}:", "GameOptionsJson: nested too deeply")


def test_ptn_options_json_with_a_5000_digit_number_is_one_line(tmp_path: Path) -> None:
    text = PTN.read_text().replace('[GameOptionsJson "{', '[GameOptionsJson "{"deckSize":' + "9" * 5000 + ",", 1)
    ptn = write(tmp_path / "digits.ptn", text)
    result = one_line_error(run("import", ptn, "-o", tmp_path / "d.jsonl"), f"{ptn}:", "GameOptionsJson: not JSON",
                            "4300 digits")
    assert "set_int_max_str_digits" not in result
