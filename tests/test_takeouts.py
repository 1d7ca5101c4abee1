"""benchmarks/takeouts.py: a partner's standing contract, taken out, against the same contract left standing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import SOLVER_COMPILED

import fivehundred
from fivehundred.batch.par import force
from fivehundred.batch.par_deals import record_job
from fivehundred.batch.simulation import play_game
from fivehundred.engine.solver import solve
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.cards import parse_card
from fivehundred.rules.manager import compile_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from takeouts import Tally, played, report, swing, takeout  # benchmarks/takeouts.py

RULES = compile_rules(fivehundred.load_ruleset("pagat-australian"))


def _hand(calls: list[tuple[str, str]], contractor: str, call: str) -> dict:
    return {"calls": [{"seat": s, "call": c} for s, c in calls], "contract": {"call": call, "contractor": contractor}}


@pytest.mark.parametrize(("calls", "contractor", "call", "found"), [
    ([("W", "6D"), ("N", "pass"), ("E", "7NT"), ("S", "pass"), ("W", "pass")], "E", "7NT", ("W", "6D")),
    ([("S", "6NT"), ("W", "7H"), ("N", "pass"), ("E", "misere"), ("S", "pass"), ("W", "pass")], "E", "misere",
     ("W", "7H")),  # into a misère
    ([("W", "6D"), ("N", "7C"), ("E", "7NT"), ("S", "pass"), ("W", "pass"), ("N", "pass")], "E", "7NT", None),  # N's
    ([("W", "7D"), ("N", "pass"), ("E", "8H"), ("S", "9C"), ("W", "pass"), ("N", "pass"), ("E", "9H"), ("S", "pass"),
      ("W", "pass")], "E", "9H", None),  # the auction went on after the takeout
    ([("W", "misere"), ("N", "pass"), ("E", "8H"), ("S", "pass"), ("W", "pass")], "E", "8H", None),  # a misère's
    ([("W", "6D"), ("N", "pass"), ("E", "pass"), ("S", "pass")], "W", "6D", None),  # nobody overcalled
])
def test_a_takeout_is_an_overcall_of_partner_s_standing_contract_that_ends_the_auction(
        calls: list[tuple[str, str]], contractor: str, call: str, found: tuple[str, str] | None) -> None:
    assert takeout(RULES, _hand(calls, contractor, call)) == found


def test_partner_s_contract_is_played_on_the_same_deal_and_scored_as_the_engine_scores_it() -> None:
    state = play_game("pagat-australian", 78, "club", game=3)  # hand 6: W 6♦, E takes it out into 7NT
    record = game_to_dict(state, seed=78, game=3, players=["club"] * 4)
    hand = next(h for h in record["hands"] if h["number"] == 6)
    assert takeout(RULES, hand) == ("W", "6D")
    before = next(h for h in record["hands"] if h["number"] == 5)
    totals = [before["totals"][t] for t in RULES.team_names]
    stand = force(record_job(RULES, hand, totals, "game").state(), RULES.seats.index("W"), RULES.parse_call("6D"))
    assert not isinstance(stand, str)
    log = played(stand, ["club"] * 4, "78:3:6")
    assert (RULES.seats[log.contractor], log.contract.call) == ("W", "6D")
    assert [sorted(h) for h in log.hands] == [sorted(parse_card(c) for c in hand["hands"][s]) for s in RULES.seats]
    assert log.totals == [t + s for t, s in zip(totals, log.scores, strict=True)]
    ew = RULES.team_of[RULES.seats.index("W")]
    assert swing(log, ew) == log.scores[ew] - log.scores[1 - ew]

    tally = Tally(RULES, ["club"] * 4, 78, SOLVER_COMPILED, 0)
    tally.write(dumps(record))
    rows = [r for kind in tally.rows.values() for r in kind]
    assert sorted(r["hand"] for r in rows) == [h["number"] for h in record["hands"] if takeout(RULES, h)]
    mine = next(r for r in tally.rows["tricks"] if r["hand"] == 6)
    assert mine["taken"] == hand["scores"]["EW"] - hand["scores"]["NS"] and mine["standing"] == swing(log, ew)
    out = report(tally)
    assert out["tricks"]["takeouts"] == len(tally.rows["tricks"])
    assert out["tricks"]["as_played"]["gain"] == pytest.approx(
        sum(r["taken"] - r["standing"] for r in tally.rows["tricks"]) / len(tally.rows["tricks"]))
    by = out["tricks"]["by_denominations"]
    assert by["D > NT"]["takeouts"] >= 1 and sum(g["takeouts"] for g in by.values()) == len(tally.rows["tricks"])
    if SOLVER_COMPILED:  # solved with best play, partner's 6♦ scores as the solver's trick count says
        assert all({"dd_taken", "dd_standing"} <= set(r) for r in rows)
        again = force(record_job(RULES, hand, totals, "game").state(), RULES.seats.index("W"), RULES.parse_call("6D"))
        assert not isinstance(again, str)
        assert (mine["dd_standing"] > 0) == (solve(again) >= 6)
    json.dumps(out)  # printable as the script prints it
