"""benchmarks/duplicate.py: a player's gain on another, deal by deal, by role and contract."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from duplicate import deals, gains, report  # benchmarks/duplicate.py


def _hand(team: int, made: bool, scores: list[int], kind: str = "trumps") -> dict[str, object]:
    return {"call": "7S", "kind": kind, "team": team, "made": made, "scores": scores, "calls": [[0, 5]]}


def test_a_gain_is_the_side_s_net_score_against_b_everywhere() -> None:
    # B everywhere: EW make 7S (+140, NS take 3 tricks: +30).  With A in NS the contract fails (-140, NS +40);
    # with A in EW, EW make it with an overtrick's trick fewer to NS (+140, NS +20).
    row = {"game": 0, "BB": _hand(1, True, [30, 140]), "AB": _hand(1, False, [40, -140]),
           "BA": _hand(1, True, [20, 140])}
    groups, differ = gains([row])
    assert differ == 0
    assert groups["defending, trumps"] == [((40 + 140) - (30 - 140), True, False)]
    assert groups["contracting, trumps"] == [((140 - 20) - (140 - 30), True, True)]
    assert sorted(g for g, _, _ in groups["all"]) == [10, 290]


def test_a_passed_out_deal_and_a_different_auction_are_counted_apart() -> None:
    other = _hand(0, True, [80, 0])
    other["calls"] = [[0, 7]]
    row = {"game": 1, "BB": None, "AB": None, "BA": None}
    same = _hand(0, True, [80, 0])
    groups, differ = gains([row, {"game": 2, "BB": same, "AB": other, "BA": same}])
    assert [g for g, _, _ in groups["passed out"]] == [0, 0]
    assert differ == 1
    assert "auctions that differ from club's: 1" in report(groups, differ, 2, "solver", "club")


def test_a_player_against_itself_gains_nothing_on_any_deal() -> None:
    rows = list(deals("pagat-australian", "club", "club", "duplicate-test", 0, 6, 1))
    assert len(rows) == 6
    assert all(row["AB"] == row["BB"] == row["BA"] for row in rows)
    groups, differ = gains(rows)
    assert differ == 0 and all(g == 0 for g, _, _ in groups["all"])


def test_a_stronger_player_s_gain_shows_on_the_same_deals() -> None:
    rows = list(deals("pagat-australian", "club", "random", "duplicate-test", 0, 8, 1))
    groups, _ = gains(rows)
    assert sum(g for g, _, _ in groups["all"]) > 0  # club's play and bids against random's, deal by deal
