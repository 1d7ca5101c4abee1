"""The batch simulator: statistics in constant memory, intervals, and Ctrl-C."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

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


def _reference_summary(games: int, seed: int) -> dict[str, Any]:
    """The figures of a pagat-australian batch of heuristic players, from games played one at a time
    through ``fivehundred.play_game`` and counted here, without ``Summary``, ``game_stats`` or
    ``hand_made``: a contract is made when the contracting team scores points for it (rules 24–27)."""
    teams = ["NS", "EW"]
    by_type: Counter[tuple[str, bool]] = Counter()
    by_call: Counter[tuple[str, bool]] = Counter()
    wins: Counter[str] = Counter()
    deals, hands, winners, losers = 0, [], [], []
    for game in range(games):
        state = fivehundred.play_game("pagat-australian", seed, "heuristic", game=game)
        assert state.result is not None
        deals += state.deals
        played = [log for log in state.hands_log if log.contract is not None and log.scores]
        hands.append(len(played))
        for log in played:
            assert log.contract is not None
            made = log.scores[log.contractor % 2] > 0  # seats N E S W: NS are the even seats
            kind = log.contract.call if "mis" in log.contract.call else log.contract.call.lstrip("0123456789")
            by_type[kind, made] += 1
            by_call[log.contract.call, made] += 1
        wins[teams[state.result.winner]] += 1
        winners.append(state.totals[state.result.winner])
        losers.append(state.totals[1 - state.result.winner])

    def counts(table: Counter[tuple[str, bool]]) -> dict[str, tuple[int, int]]:
        keys = sorted({key for key, _ in table})
        return {key: (table[key, True] + table[key, False], table[key, True]) for key in keys}

    def mean(xs: list[int]) -> float:
        return round(sum(xs) / len(xs), 2)

    misere = [v for k, v in counts(by_type).items() if "mis" in k]
    return {
        "games": games, "unfinished": 0, "deals": deals, "hands_played": sum(hands),
        "passed_out": deals - sum(hands),
        "hands_per_game": {"mean": mean(hands), "min": min(hands), "max": max(hands)},
        "contracts": counts(by_type), "contracts_by_call": counts(by_call),
        "misere": (sum(n for n, _ in misere), sum(m for _, m in misere)),
        "wins": {team: wins[team] for team in teams},
        "scores": {"winner_mean": mean(winners), "loser_mean": mean(losers), "winner_min": min(winners),
                   "winner_max": max(winners), "loser_min": min(losers), "loser_max": max(losers)},
    }


def _figures(summary: dict[str, Any]) -> dict[str, Any]:
    """The figures of ``Summary.as_dict()`` that ``_reference_summary`` counts itself."""
    keys = ("games", "unfinished", "deals", "hands_played", "passed_out", "hands_per_game", "wins", "scores")
    return {**{key: summary[key] for key in keys},
            "contracts": {k: (v["played"], v["made"]) for k, v in summary["contracts"].items()},
            "contracts_by_call": {k: (v["played"], v["made"]) for k, v in summary["contracts_by_call"].items()},
            "misere": (summary["misere"]["attempts"], summary["misere"]["successes"])}


@pytest.mark.parametrize("workers", [1, 2])
def test_summary_independent_of_workers(workers: int) -> None:
    """In-process (1) and in a pool of processes (2), the batch's summary is the one counted game by game."""
    summary = fivehundred.simulate(24, 11, players="heuristic", workers=workers).as_dict()
    reference = _reference_summary(24, 11)
    made = [m for _, m in reference["contracts"].values()]
    assert reference["hands_played"] > 24 and 0 < sum(made) < reference["hands_played"]  # something to count
    assert _figures(summary) == reference


def test_summary_with_two_workers_equals_one_worker_to_the_last_figure() -> None:
    """Rates and intervals included (the pool sends partial summaries that the parent merges)."""
    assert (fivehundred.simulate(24, 11, players="heuristic", workers=2).as_dict()
            == fivehundred.simulate(24, 11, players="heuristic", workers=1).as_dict())


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
