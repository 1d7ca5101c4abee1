#!/usr/bin/env python3
"""Playing strength: matches between player types, each side a team, with 95% Wilson intervals.

    python benchmarks/strength.py                                   # the three default matches
    python benchmarks/strength.py --games 400 --workers 2 --seed 1
    python benchmarks/strength.py --match heuristic,montecarlo:32 --games 100

A match ``A,B`` (or ``A,B,GAMES``) plays ``--games`` (or GAMES) games: each seed twice, once with
A in the first team's seats and once with the sides swapped, so that the luck of the deal cancels
between the pair (the n-th deal of both games is the same shuffle).  A player may carry an
argument as on the command line (``montecarlo:200``, ``montecarlo:50ms``).  The win rate is the
first side's share of the finished games, and the CPU seconds a game took (this process and its
workers, user and system time, over all the match's games).  In a ruleset of more than two teams (three-handed …) A
takes each team's seats in turn, B every other seat, on the same seeded games
(``fivehundred.batch.calibration.match``); A's fair share of the wins is then one in that many.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from typing import Any

import fivehundred
from fivehundred.batch.simulation import wilson

DEFAULT_MATCHES = ("heuristic,random", "montecarlo,random", "montecarlo,heuristic")


def split_match(text: str, games: int) -> tuple[str, str, int]:
    """``A,B`` or ``A,B,GAMES``: the two sides of a match and its number of games."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 3 and parts[2].isdigit():
        games = int(parts[2])
        parts = parts[:2]
    if len(parts) != 2 or not all(parts):
        raise SystemExit(f"cannot read the match {text!r}: write it as A,B or A,B,GAMES (heuristic,montecarlo,200)")
    return parts[0], parts[1], games


def seating(ruleset: fivehundred.Ruleset, first: str, second: str) -> list[str]:
    """``first`` in every seat of the first team, ``second`` in the others."""
    teams = ruleset.players.teams
    if len(teams) != 2:
        raise SystemExit(f"{ruleset.name}: a match needs a ruleset of two teams (it has {len(teams)})")
    first_team = set(teams[0].seats)
    return [first if seat in first_team else second for seat in ruleset.players.seats]


def cpu_seconds() -> float:
    """User and system time of this process and of its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def play_match(ruleset: fivehundred.Ruleset, a: str, b: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    cpu = cpu_seconds()
    result = _play_match(ruleset, a, b, games, seed, workers)
    result["cpu_per_game"] = round((cpu_seconds() - cpu) / max(1, result["games"]), 3)
    return result


def _play_match(ruleset: fivehundred.Ruleset, a: str, b: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    teams = len(ruleset.players.teams)
    if teams != 2:
        return rotated_match(ruleset, a, b, games, seed, workers)
    pairs = max(1, games // 2)
    start = time.perf_counter()
    team_a, team_b = (t.name for t in ruleset.players.teams)
    wins = unfinished = 0
    for players, mine in ((seating(ruleset, a, b), team_a), (seating(ruleset, b, a), team_b)):
        summary = fivehundred.simulate(pairs, seed, ruleset, players, workers=workers)
        wins += summary.wins.get(mine, 0)
        unfinished += summary.unfinished
    finished = 2 * pairs - unfinished
    ci = wilson(wins, finished)
    return {"a": a, "b": b, "games": 2 * pairs, "unfinished": unfinished, "a_wins": wins,
            "a_rate": round(wins / finished, 4) if finished else None, "ci95": ci,
            "seconds": round(time.perf_counter() - start, 1)}


def rotated_match(ruleset: fivehundred.Ruleset, a: str, b: str, games: int, seed: int,
                  workers: int) -> dict[str, Any]:
    """A in each team's seats in turn on the same seeded games, B in every other seat."""
    from fivehundred.batch.calibration import match

    teams = len(ruleset.players.teams)
    start = time.perf_counter()
    result = match(ruleset, a, b, max(1, games // teams), seed, workers)
    return {"a": a, "b": b, "games": result.games, "unfinished": 0, "a_wins": result.wins,
            "a_rate": round(result.wins / result.games, 4) if result.games else None,
            "ci95": wilson(result.wins, result.games), "fair_share": round(1 / teams, 4),
            "seconds": round(time.perf_counter() - start, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--match", action="append",
                        help="A,B or A,B,GAMES (repeatable); default: " + " ".join(DEFAULT_MATCHES))
    parser.add_argument("--games", type=int, default=100, help="games per match unless the match says (played in "
                        "seat-swapped pairs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ruleset", default="pagat-australian")
    parser.add_argument("--json", action="store_true", help="one JSON object per match instead of a table")
    args = parser.parse_args(argv)
    ruleset = fivehundred.load_ruleset(args.ruleset)
    if not args.json:
        print(f"{args.ruleset}, seed {args.seed}, {args.workers} workers; win rate of the first side, 95% Wilson CI\n")
        print("| match | games | first side's wins | win rate (95% CI) | seconds | CPU seconds a game |")
        print("|---|---|---|---|---|---|")
    for text in args.match or DEFAULT_MATCHES:
        a, b, games = split_match(text, args.games)
        r = play_match(ruleset, a, b, games, args.seed, args.workers)
        if args.json:
            print(json.dumps(r))
        else:
            rate = "–" if r["a_rate"] is None else f"{100 * r['a_rate']:.1f}%"
            ci = "" if r["ci95"] is None else f" ({100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f})"
            extra = f", {r['unfinished']} unfinished" if r["unfinished"] else ""
            extra += f" (fair share {100 * r['fair_share']:.1f}%)" if "fair_share" in r else ""
            print(f"| {a} vs {b} | {r['games']}{extra} | {r['a_wins']} | {rate}{ci} | {r['seconds']} "
                  f"| {r['cpu_per_game']} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
