"""Columnar results: one row per deal, written to Parquet, matching the JSON records of the same games."""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from extras import need
from helpers import FACELESS, SUITED, W, act, cards, finish, new_hand
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.bots.players import RandomPlayer
from fivehundred.cli.app import app
from fivehundred.engine.state import CHANCE, Phase, new_game
from fivehundred.records.columns import COLUMNS, TRAILING, column_names, contracting_side, hand_rows
from fivehundred.records.parquet import ParquetSink
from fivehundred.rules.extras import MissingExtraError
from fivehundred.rules.manager import compile_rules

pq = need("pyarrow.parquet", "parquet")


def rows_by_game(path: Path) -> dict[int, list[dict[str, Any]]]:
    games: dict[int, list[dict[str, Any]]] = {}
    for row in pq.read_table(path).to_pylist():
        games.setdefault(row["game"], []).append(row)
    return games


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def check_rows_match_record(rows: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """Every deal of a record has its row, with the same dealer, contract, tricks, scores and totals."""
    assert [r["hand"] for r in rows] == [h["number"] for h in record["hands"]]
    totals = dict.fromkeys(_teams(rows[0]), 0)
    for row, hand in zip(rows, record["hands"], strict=True):
        assert (row["ruleset"], row["ruleset_hash"]) == (record["ruleset"]["name"], record["ruleset"]["hash"])
        assert (row["seed"], row["game"], row["dealer"]) == (record["seed"], record["game"], hand["dealer"])
        assert row["misdeal"] == bool(hand.get("misdeal"))
        contract = hand["contract"]
        assert row["contract"] == (contract and contract["call"])
        assert row["contractor"] == (contract and contract["contractor"])
        assert row["contract_value"] == (contract and contract["value"])
        assert row["passed_out"] == (contract is None and not hand.get("misdeal"))
        if hand["scores"]:
            totals = hand["totals"]
            assert {s: row[f"tricks_{s}"] for s in hand["tricks_won"]} == hand["tricks_won"]
            assert {t: row[f"score_{t}"] for t in hand["scores"]} == hand["scores"]
        else:
            assert all(row[f"score_{t}"] is None for t in totals)
        assert {t: row[f"total_{t}"] for t in totals} == totals
        winner = record["result"]["winner"] if record["result"] else None
        assert row["game_winner"] == winner
    assert [r["last_hand"] for r in rows] == [False] * (len(rows) - 1) + [True]


def _teams(row: dict[str, Any]) -> list[str]:
    return [k.removeprefix("total_") for k in row if k.startswith("total_")]


@pytest.mark.parametrize(("ruleset", "players", "games"), [
    ("pagat-australian", "heuristic", 12),
    ("pagat-australian", "random", 60),
    ("five-handed", "random", 30),
    ("six-handed-three-teams", "random", 30),
    ("perfect", "heuristic", 8),
])
def test_rows_match_the_json_records_of_the_same_games(tmp_path: Path, ruleset: str, players: str,
                                                       games: int) -> None:
    jsonl, parquet = tmp_path / "games.jsonl", tmp_path / "games.parquet"
    a = fivehundred.simulate(games, 3, ruleset, players, out=jsonl)
    b = fivehundred.simulate(games, 3, ruleset, players, out=parquet)
    assert a.as_dict() == b.as_dict()
    by_game = rows_by_game(parquet)
    recs = records(jsonl)
    assert sorted(by_game) == [r["game"] for r in recs] == list(range(games))
    assert sum(len(rows) for rows in by_game.values()) == sum(r["deals"] for r in recs) == a.deals
    for record in recs:
        check_rows_match_record(by_game[record["game"]], record)


def test_made_agrees_with_the_summary_and_the_contract(tmp_path: Path) -> None:
    parquet = tmp_path / "games.parquet"
    summary = fivehundred.simulate(40, 8, "perfect", "heuristic,random,heuristic,random", out=parquet).as_dict()
    played: dict[str, list[int]] = {}
    for row in pq.read_table(parquet).to_pylist():
        if row["contract"] is not None:
            entry = played.setdefault(row["contract"], [0, 0])
            entry[0] += 1
            entry[1] += bool(row["made"])
            if row["contract_kind"] != "misere" and row["contractor"] is not None:
                team = row["contractor_team"]
                assert row["made"] == (row["score_" + team] > 0)  # a made contract scores, a failed one loses
    assert {k: [v["played"], v["made"]] for k, v in summary["contracts_by_call"].items()} == played


def test_the_file_is_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    a = fivehundred.simulate(300, 21, players="random", out=one, workers=1)
    b = fivehundred.simulate(300, 21, players="random", out=two, workers=2)
    assert a.as_dict() == b.as_dict()
    assert pq.read_table(one).equals(pq.read_table(two))
    assert one.read_bytes() == two.read_bytes()


def test_row_groups_are_written_as_games_finish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("fivehundred.records.parquet.GAMES_PER_ROW_GROUP", 25)
    path = tmp_path / "games.parquet"
    fivehundred.simulate(110, 2, players="random", out=path)
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups == 5  # 4 full groups of 25 games and the last 10
    assert len(rows_by_game(path)) == 110


def test_ctrl_c_leaves_a_readable_file_of_whole_games(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    seen: list[int] = []

    def interrupt(n: int) -> None:
        seen.append(n)
        if len(seen) == 3:
            raise KeyboardInterrupt

    summary = fivehundred.simulate(2000, 4, players="random", out=path, progress=interrupt, workers=2)
    assert summary.interrupted and 0 < summary.games == sum(seen) < 2000
    by_game = rows_by_game(path)
    assert sorted(by_game) == list(range(summary.games))
    assert all(rows[-1]["last_hand"] for rows in by_game.values())
    assert sum(len(rows) for rows in by_game.values()) == summary.deals
    full = tmp_path / "full.parquet"
    fivehundred.simulate(summary.games, 4, players="random", out=full)
    assert pq.read_table(full).equals(pq.read_table(path))


def test_ctrl_c_while_a_chunk_is_written_takes_effect_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real SIGINT in the middle of a chunk's games: the file and the summary hold the same games."""
    path = tmp_path / "games.parquet"
    add, written = ParquetSink.add, []

    def add_then_interrupt(self: ParquetSink, rows: list[Any]) -> None:
        written.append(rows)
        if len(written) == 30:
            os.kill(os.getpid(), signal.SIGINT)
        add(self, rows)

    monkeypatch.setattr(ParquetSink, "add", add_then_interrupt)
    summary = fivehundred.simulate(2000, 4, players="random", out=path)
    assert summary.interrupted and summary.games == len(written) == 2000 // 32  # the whole first chunk
    assert sorted(rows_by_game(path)) == list(range(summary.games))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_metadata_and_a_string_seed(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    fivehundred.simulate(5, "club-night", players="random", out=path)
    table = pq.read_table(path)
    assert table.schema.field("seed").type == "string"
    assert set(table.column("seed").to_pylist()) == {"club-night"}
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    assert meta["fivehundred.format"] == "fivehundred-hands/1"
    assert json.loads(meta["fivehundred.bots.players"]) == dict.fromkeys("NESW", "random")
    assert json.loads(meta["fivehundred.seed"]) == "club-night"


def test_column_names_follow_the_seats_and_teams() -> None:
    rules = compile_rules(fivehundred.load_ruleset("six-handed-three-teams"))
    names = column_names(rules)
    assert names[:len(COLUMNS)] == [n for n, _ in COLUMNS]
    assert names[len(COLUMNS):-len(TRAILING)] == (
        [f"tricks_{s}" for s in ("A1", "B1", "C1", "A2", "B2", "C2")]
        + [f"score_{t}" for t in "ABC"] + [f"total_{t}" for t in "ABC"])
    state = play_game("six-handed-three-teams", 1, "random")
    assert all(len(row) == len(names) for row in hand_rows(state, seed=1, game=0))


def test_the_docs_list_every_fixed_column() -> None:
    page = (Path(__file__).parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    for name, _ in COLUMNS + TRAILING:
        assert f"`{name}`" in page, name


# --- deals without a hand played ----------------------------------------------------------------


def test_a_passed_out_deal_has_a_row_with_no_contract() -> None:
    st = new_hand(SUITED, dealer=W)
    act(st, "pass pass pass pass")
    assert st.phase == Phase.DEAL
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    act(st, "7NT pass pass pass 4D 4H JK")
    finish(st)
    passed, played = hand_rows(st, seed=0, game=0)
    row = dict(zip(column_names(st.rules), passed, strict=True))
    assert row["passed_out"] and not row["misdeal"] and row["dealer"] == "W"
    assert [row[k] for k in ("contract", "contract_kind", "contractor", "side_tricks", "made")] == [None] * 5
    assert (row["score_NS"], row["tricks_N"], row["total_NS"], row["total_EW"]) == (None, None, 0, 0)
    assert not row["last_hand"] and row["game_winner"] is None
    row = dict(zip(column_names(st.rules), played, strict=True))
    log = st.hands_log[-1]
    assert (row["dealer"], row["contract"], row["contract_kind"], row["trump"]) == ("N", "7NT", "no-trumps", None)
    assert (row["contractor"], row["contractor_team"]) == ("E", "EW")  # the first to call after the new dealer
    assert row["side_tricks"] == log.tricks_won[1] + log.tricks_won[3]
    assert row["made"] == (row["side_tricks"] >= 7) and not row["passed_out"]
    assert (row["score_NS"], row["score_EW"], row["total_NS"]) == (*log.scores, log.totals[0])
    assert row["last_hand"]


def test_a_misdeal_has_a_row_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "must.yaml"
    path.write_text(yaml.safe_dump({"name": "must", "extends": "pagat-australian",
                                    "deal": {"misdeal_without_face_card": "must"}}), encoding="utf-8")
    st = new_hand(FACELESS, dealer=W, rules=compile_rules(fivehundred.load_ruleset(path)))
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    act(st, "7NT pass pass pass 4D 4H JK")
    finish(st)
    names = column_names(st.rules)
    misdeal, played = (dict(zip(names, r, strict=True)) for r in hand_rows(st, seed=0, game=0))
    assert misdeal["misdeal"] and not misdeal["passed_out"] and misdeal["contract"] is None
    assert misdeal["dealer"] == played["dealer"] == "W"
    assert not played["misdeal"] and played["contract"] == "7NT"


def test_the_contracting_side_is_the_engines_with_a_called_partner() -> None:
    """Five-handed (P5): the side is the contractor and whoever held the called card."""
    ruleset = fivehundred.load_ruleset("five-handed")
    checked = 0
    for game in range(30):
        state, deal_rng = new_game(ruleset, game)
        players = [RandomPlayer(seat, random.Random(game * 10 + seat)) for seat in range(state.rules.players)]
        sides: dict[int, tuple[int, ...]] = {}
        while not state.is_terminal() and state.deals < 30:
            if state.current_player() == CHANCE:
                state.deal(deal_rng)
                continue
            seat = state.current_player()
            state.apply(players[seat].act(state, state.legal_actions()))
            if state.phase == Phase.PLAY:
                sides[state.hands_log[-1].number] = tuple(sorted(state.contracting_side))
        for log in state.hands_log:
            if log.number in sides:
                assert contracting_side(state.rules, log) == sides[log.number]
                checked += 1
    assert checked > 20


# --- the command line and a missing pyarrow ----------------------------------------------------


def test_cli_writes_parquet(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    result = CliRunner().invoke(app, ["simulate", "-n", "30", "-p", "random", "--seed", "5", "--out", str(path),
                                      "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert len(rows_by_game(path)) == summary["games"] == 30
    assert pq.read_table(path).num_rows == summary["deals"]


def test_without_pyarrow_the_error_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    path = tmp_path / "games.parquet"
    with pytest.raises(MissingExtraError, match=r"pip install 'fivehundred\[parquet\]'"):
        ParquetSink(path, compile_rules(fivehundred.load_ruleset("pagat-australian")), 0, ["random"] * 4)
    result = CliRunner().invoke(app, ["simulate", "-n", "3", "-p", "random", "--out", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "fivehundred[parquet]" in result.stderr and "Traceback" not in result.output
    assert not path.exists()
