"""The batch simulator: statistics in constant memory, intervals, and Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fivehundred
from fivehundred.batch.simulation import Running, wilson


def test_wilson_interval_matches_known_values() -> None:
    assert wilson(0, 10) == (0.0, 0.2775)
    assert wilson(5, 10) == (0.2366, 0.7634)
    assert wilson(10, 10) == (0.7225, 1.0)
    assert wilson(0, 0) is None
    low, high = wilson(600, 1000) or (0, 0)
    assert low < 0.6 < high and high - low < 0.07


def test_running_keeps_count_mean_and_range() -> None:
    r = Running()
    for x in (3, -2, 10):
        r.add(x)
    assert (r.n, r.mean, r.low, r.high) == (3, 3.67, -2, 10)
    assert Running().mean is None


def test_summary_rates_carry_intervals() -> None:
    d = fivehundred.simulate(30, 4, players="heuristic").as_dict()
    for entry in d["contracts"].values():
        low, high = entry["ci95"]
        assert low <= entry["make_rate"] <= high
    wins = sum(d["wins"].values())
    assert wins == d["games"] - d["unfinished"]
    for team, rate in d["win_rate"].items():
        low, high = d["win_rate_ci95"][team]
        assert low <= rate <= high


def test_ctrl_c_keeps_whole_games_and_reports_them(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    seen = []

    def interrupt_after_a_while(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    summary = fivehundred.simulate(400, 9, players="random", out=out, progress=interrupt_after_a_while)
    assert summary.interrupted
    assert 0 < summary.games < 400 and summary.games == sum(seen)
    lines = out.read_text().splitlines()
    assert len(lines) == summary.games
    assert all(json.loads(line)["result"] for line in lines)
    assert fivehundred.validate([out]).ok


@pytest.mark.parametrize("workers", [1, 2])
def test_summary_independent_of_workers(workers: int) -> None:
    base = fivehundred.simulate(24, 11, players="random").as_dict()
    assert fivehundred.simulate(24, 11, players="random", workers=workers).as_dict() == base


def test_merged_parts_equal_the_summary_built_game_by_game() -> None:
    """Workers send one partial summary per chunk; merging them must lose nothing (ranges included)."""
    from fivehundred.batch.simulation import Summary, game_stats, play_game

    def empty() -> Summary:
        return Summary("perfect", 3, ["random"] * 4, ["NS", "EW"])

    whole = empty()
    parts = [empty() for _ in range(4)]
    for game in range(40):
        stats = game_stats(play_game("perfect", 3, "random", game=game))
        whole.add(stats)
        parts[0 if game < 7 else 2 if game < 31 else 3].add(stats)  # parts[1] stays empty
    merged = empty()
    for part in parts:
        merged.merge(part)
    assert merged == whole
    assert merged.as_dict() == fivehundred.simulate(40, 3, "perfect", "random").as_dict()
