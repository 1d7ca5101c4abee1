"""Record instead of guessing: the hand's outcome (contracting side, contract kind, made) is kept in
its log and its record, and every reader takes it from there.  Misère is counted by the contract's
kind, whatever the call is named (nullo, patastrophe, …); records written before those fields
existed are still read, by the ruleset's ladder."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import fivehundred
from fivehundred.analysis.stats import collect
from fivehundred.batch.comparison import game_facts
from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.engine.state import GameState
from fivehundred.records.columns import column_names, hand_rows
from fivehundred.records.record import game_to_dict
from fivehundred.records.validation import validate_record
from fivehundred.rules.tables import HandOutcome


def misere_hands(states: list[GameState]) -> tuple[int, int]:
    """(played, made) of the hands whose contract is a misère by its kind."""
    played = made = 0
    for state in states:
        for log in state.hands_log:
            if log.outcome is not None and log.contract is not None and log.contract.kind == "misere":
                played += 1
                made += log.outcome.made
    return played, made


# --- the summary counts misère by kind --------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "players", "call"), [("nullo", "heuristic", "nullo"),
                                                          ("perfect", "random", "patastrophe")])
def test_misere_attempts_are_counted_by_the_contracts_kind(ruleset: str, players: str, call: str) -> None:
    """Nullo (B11) and patastrophe (C3) are misères without "mis" in their name: the summary used to
    report none of them."""
    games = 16
    summary = fivehundred.simulate(games, 2, ruleset, players).as_dict()
    played, made = misere_hands([play_game(ruleset, 2, players, game=g) for g in range(games)])
    assert summary["contracts"][call]["played"] > 0
    assert played >= summary["contracts"][call]["played"]
    assert (summary["misere"]["attempts"], summary["misere"]["successes"]) == (played, made)


def test_cli_simulate_nullo_reports_its_misere_attempts() -> None:
    result = CliRunner().invoke(app, ["simulate", "-r", "nullo", "-n", "12", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["misere"]["attempts"] == summary["contracts"]["nullo"]["played"] > 0


def test_a_reference_misere_is_still_counted() -> None:
    summary = fivehundred.simulate(16, 2, "pagat-australian", "heuristic").as_dict()
    by_call = summary["contracts"]
    assert summary["misere"]["attempts"] == sum(by_call.get(c, {"played": 0})["played"]
                                                for c in ("misere", "open-misere"))


# --- the log keeps the outcome, and readers take it from there -----------------------------------------


@pytest.mark.parametrize("ruleset", ["five-handed", "perfect", "two-handed"])
def test_the_log_keeps_the_outcome_the_scoring_saw(ruleset: str) -> None:
    """Every scored hand has its outcome: the side (with a called partner, P5; with dummies, P2), the
    kind and made, and the Parquet rows and the comparison facts read them."""
    checked = 0
    for game in range(4):
        state = play_game(ruleset, 5, "heuristic", game=game, max_deals=30)
        rows = [dict(zip(column_names(state.rules), r, strict=True)) for r in hand_rows(state, seed=5, game=game)]
        facts = iter(game_facts(state).hands)
        for log, row in zip(state.hands_log, rows, strict=True):
            outcome = log.outcome
            assert (outcome is not None) == bool(log.scores)
            if outcome is None:
                continue
            assert outcome.contract is log.contract and outcome.kind == log.contract.kind
            assert list(outcome.tricks_by_seat) == log.tricks_won
            # every field in its place (the engine builds the tuple without HandOutcome's own __new__)
            assert len(outcome) == len(HandOutcome._fields) and outcome.steps is log.steps
            assert outcome.hand_size == state.rules.hand_size and outcome.tricks_played == sum(log.tricks_won)
            assert outcome.totals_before == tuple(t - s for t, s in zip(log.totals, log.scores, strict=True))
            fact = next(facts)
            if outcome.contractor < 0:
                continue
            assert outcome.contractor in outcome.side
            assert row["side_tricks"] == outcome.side_tricks and row["made"] == outcome.made
            assert fact.made == outcome.made
            assert fact.side_tricks == (None if outcome.kind == "misere" else outcome.side_tricks)
            checked += 1
    assert checked > 10


def test_a_called_partner_is_on_the_recorded_side() -> None:
    found = 0
    for game in range(6):
        state = play_game("five-handed", 4, "random", game=game, max_deals=20)
        record = game_to_dict(state)
        for log, hand in zip(state.hands_log, record["hands"], strict=True):
            if log.outcome is None or log.contractor < 0:
                continue
            assert hand["outcome"]["side"] == [state.rules.seats[s] for s in log.outcome.side]
            found += len(log.outcome.side) == 2
    assert found > 0


# --- records: the new fields, and older records without them ----------------------------------------------


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    """A record as written before hands carried their outcome."""
    old = json.loads(json.dumps(record))
    for hand in old["hands"]:
        hand.pop("outcome", None)
    return old


@pytest.fixture(scope="module")
def nullo_records() -> list[dict[str, Any]]:
    out = io.StringIO()
    fivehundred.simulate(12, 2, "nullo", "heuristic", out=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_records_carry_kind_side_and_made(nullo_records: list[dict[str, Any]]) -> None:
    kinds = set()
    for record in nullo_records:
        for hand in record["hands"]:
            contract, outcome = hand["contract"], hand.get("outcome")
            assert (outcome is not None) == bool(contract and hand.get("scores"))
            if outcome is None:
                continue
            kinds.add((contract["call"], outcome["kind"]))
            assert contract["contractor"] in outcome["side"] and isinstance(outcome["made"], bool)
    assert ("nullo", "misere") in kinds and ("7NT", "no-trumps") in kinds


def test_the_report_reads_the_recorded_fields_and_falls_back_for_older_records(
        tmp_path: Path, nullo_records: list[dict[str, Any]]) -> None:
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    new.write_text("".join(json.dumps(r) + "\n" for r in nullo_records), encoding="utf-8")
    old.write_text("".join(json.dumps(_strip(r)) + "\n" for r in nullo_records), encoding="utf-8")
    summary = fivehundred.simulate(12, 2, "nullo", "heuristic").as_dict()
    for path in (new, old):
        stats = collect([path]).as_dict()
        assert stats["misere"]["played"] == summary["misere"]["attempts"] > 0
        assert stats["misere"]["made"] == summary["misere"]["successes"]
        assert stats["contracts_by_call"]["nullo"]["played"] == summary["contracts"]["nullo"]["played"]


def test_the_report_believes_the_record_over_the_ladder(tmp_path: Path, nullo_records: list[dict[str, Any]]) -> None:
    """The recorded made stands (a reader does not recompute it): flip one and the report follows."""
    record = json.loads(json.dumps(nullo_records[0]))
    hand = next(h for h in record["hands"] if h.get("outcome"))
    hand["outcome"]["made"] = not hand["outcome"]["made"]
    before = collect([_write(tmp_path / "a.jsonl", nullo_records[0])]).as_dict()["contracts"]["made"]
    after = collect([_write(tmp_path / "b.jsonl", record)]).as_dict()["contracts"]["made"]
    assert after == before + (1 if hand["outcome"]["made"] else -1)


def _write(path: Path, record: dict[str, Any]) -> Path:
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def test_records_validate_with_and_without_the_fields(nullo_records: list[dict[str, Any]]) -> None:
    for record in nullo_records[:4]:
        assert validate_record(record) == []
        assert validate_record(_strip(record)) == []


def test_validation_refuses_a_wrong_recorded_outcome(nullo_records: list[dict[str, Any]]) -> None:
    record = json.loads(json.dumps(nullo_records[0]))
    hand = next(h for h in record["hands"] if h.get("outcome"))
    hand["outcome"]["made"] = not hand["outcome"]["made"]
    problems = validate_record(record)
    assert len(problems) == 1 and "recorded outcome made" in problems[0].message
    hand["outcome"]["made"] = not hand["outcome"]["made"]
    hand["outcome"]["kind"] = "misere" if hand["outcome"]["kind"] != "misere" else "trumps"
    assert "recorded outcome kind" in validate_record(record)[0].message
    hand["outcome"]["kind"], hand["outcome"]["side"] = "misere", []
    assert "recorded outcome" in validate_record(record)[0].message
