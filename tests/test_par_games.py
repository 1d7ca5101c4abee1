"""benchmarks/par_games.py: whole games played at par end each hand as the deal's own par says."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from conftest import SOLVER_COMPILED

import fivehundred
from fivehundred.batch.par_deals import analyse_job, game_jobs
from fivehundred.records.columns import contracting_side
from fivehundred.rules.manager import compile_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from par_games import measure, par_game  # benchmarks/par_games.py

GAMES = [("three-handed", 0), ("three-handed", 1), ("pagat-australian", 3)] if SOLVER_COMPILED \
    else [("three-handed", 1)]
"""A pure-Python solver takes minutes where the compiled one takes a second: the cheapest game alone there."""


@pytest.mark.parametrize(("ruleset", "game"), GAMES)
def test_every_hand_is_its_deal_s_par_and_scores_it(ruleset: str, game: int) -> None:
    rules = compile_rules(fivehundred.load_ruleset(ruleset))
    state = par_game(rules, "par-test", game)
    assert state.result is not None  # a game at par ends in a few deals: a side takes most of every deal
    for log, job in zip(state.hands_log, game_jobs(state), strict=True):
        assert job is not None
        par = analyse_job(job)["par"]  # the same deal analysed afresh from its cards and the totals before it
        if par["contract"] is None:
            assert log.contract is None or log.contractor < 0
            continue
        assert log.contract is not None
        assert (log.contract.call, rules.seats[log.contractor]) == (par["contract"], par["contractor"])
        assert sum(log.tricks_won[s] for s in contracting_side(rules, log)) == par["tricks"]
        scores = dict(zip(rules.team_names, log.scores, strict=True))
        if len(rules.team_names) == 2:
            assert scores == par["scores"]
        else:  # par shares the defenders' tricks out evenly; the play gives them to whoever won them
            team = rules.team_names[rules.team_of[log.contractor]]
            assert scores[team] == par["scores"][team]


def test_the_row_reads_the_games_as_sanity_does(tmp_path: Path) -> None:
    out = tmp_path / "par.jsonl"
    games = 3 if SOLVER_COMPILED else 1
    said = io.StringIO()
    row = measure(fivehundred.load_ruleset("three-handed"), games, "par-test", 1, out, progress=said)
    assert row["player"] == "par" and row["games"] == games
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["game"] for r in records] == list(range(games))
    for line, r in zip(said.getvalue().splitlines(), records, strict=True):  # a line as each game finishes
        first = r["hands"][0]["contract"]
        assert line.startswith(f"game {r['game'] + 1} of {games}: {len(r['hands'])} deal")
        assert (f"{first['call']} {first['contractor']}" if first else "passed") in line
        assert f"won by {r['result']['winner']}" in line
    assert row["hands_per_game"] == sum(len([h for h in r["hands"] if h["contract"]]) for r in records) / games
    assert fivehundred.validate([out]).ok  # the engine accepts every call and card


def test_a_stopped_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    ruleset = fivehundred.load_ruleset("three-handed")
    games = 2 if SOLVER_COMPILED else 1
    whole = tmp_path / "whole.jsonl"
    row = measure(ruleset, games, "par-test", 1, whole)
    stopped = tmp_path / "stopped.jsonl"
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    stopped.write_text("".join(lines[:games - 1]), encoding="utf-8")  # killed after its first games
    resumed = measure(ruleset, games, "par-test", 1, stopped, resume=True)
    assert stopped.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert {k: v for k, v in resumed.items() if k != "seconds"} == {k: v for k, v in row.items() if k != "seconds"}


def test_resume_refuses_another_run_s_games(tmp_path: Path) -> None:
    out = tmp_path / "par.jsonl"
    out.write_text(json.dumps({"seed": "other", "game": 0}) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="line 1 is game 0 of seed 'other'"):
        measure(fivehundred.load_ruleset("three-handed"), 2, "par-test", 1, out, resume=True)
