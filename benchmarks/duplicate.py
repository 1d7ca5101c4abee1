#!/usr/bin/env python3
"""Duplicate first hands: where one player gains on another, by role and kind of contract.

    python benchmarks/duplicate.py solver club                      # 200 deals, reference ruleset
    python benchmarks/duplicate.py solver club --deals 2000 --seed dup1 -w 2 --save dup.jsonl

As duplicate bridge scores a table: the first hand of each seeded game (``play_game`` with one deal, so the
score stands at 0 for both sides) is played three times, A in the first team's seats and B in the others, then
the other way round, then B in every seat.  A's gain on a deal, for each of its two seatings, is A's side's net
score of the hand (its points less the other side's) less that side's net score with B in every seat: the same
cards, the same seats, only A's decisions instead of B's.  The gains are grouped by A's role and the kind of
contract as B in every seat played the deal (A's side contracting or defending: trumps, no-trumps, misère, open
misère; passed out), each group with its mean, a 95% interval, and the contracts made with B everywhere and with
A (``made``).  Where A bids as B does (``solver`` bids with ``club``'s pricing) the auctions are the same and the
gain is the play's alone; the printed count of auctions that differ says whether that held.

A gain per hand separates two players' play with far fewer games than whole games do (a game's winner turns on a
few hands; here each hand counts, and the luck of the deal cancels), but it counts points, not games won: use
``benchmarks/paired.py`` for the match itself.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from strength import seating  # benchmarks/strength.py

import fivehundred
from fivehundred.batch.simulation import play_game

SEATINGS = ("AB", "BA", "BB")


def hand_of(ruleset: fivehundred.Ruleset, seed: str, players: list[str], game: int) -> dict[str, Any] | None:
    """The first hand of ``game`` as ``players`` play it: the contract, who held it, made, the hand's scores."""
    state = play_game(ruleset, seed, players, game=game, max_deals=1)
    log = state.hands_log[-1]
    outcome = log.outcome
    if outcome is None:
        return None
    contract = outcome.contract
    kind = "open misère" if contract.kind == "misere" and contract.open else \
        "misère" if contract.kind == "misere" else str(contract.kind)
    return {"call": contract.call, "kind": kind, "team": outcome.contractor_team, "made": outcome.made,
            "scores": list(log.scores), "calls": [list(c) for c in log.calls]}


def deal(args: tuple[str, str, str, str, int]) -> dict[str, Any]:
    """One deal played three ways (``SEATINGS``)."""
    ruleset_name, a, b, seed, game = args
    rs = fivehundred.load_ruleset(ruleset_name)
    seats = {"AB": seating(rs, a, b), "BA": seating(rs, b, a), "BB": seating(rs, b, b)}
    return {"game": game, **{key: hand_of(rs, seed, seats[key], game) for key in SEATINGS}}


def deals(ruleset: str, a: str, b: str, seed: str, first: int, count: int, workers: int) -> Iterator[dict[str, Any]]:
    jobs = [(ruleset, a, b, seed, g) for g in range(first, first + count)]
    if workers <= 1:
        yield from map(deal, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(deal, jobs, chunksize=4)


def net(hand: dict[str, Any] | None, team: int) -> int:
    return 0 if hand is None else hand["scores"][team] - hand["scores"][1 - team]


def gains(rows: list[dict[str, Any]]) -> tuple[dict[str, list[tuple[int, bool | None, bool | None]]], int]:
    """A's gains grouped by role and kind (each with B's and A's contract made), and the auctions that differ."""
    groups: dict[str, list[tuple[int, bool | None, bool | None]]] = defaultdict(list)
    differ = 0
    for row in rows:
        everywhere = row["BB"]
        for key, team in (("AB", 0), ("BA", 1)):
            hand = row[key]
            gain = net(hand, team) - net(everywhere, team)
            if everywhere is None:
                group, made = "passed out", (None, None)
            else:
                group = f"{'contracting' if everywhere['team'] == team else 'defending'}, {everywhere['kind']}"
                made = (everywhere["made"], None if hand is None else hand["made"])
                differ += hand is None or hand["calls"] != everywhere["calls"]
            groups[group].append((gain, *made))
            groups["all"].append((gain, *made))
    return groups, differ


def report(groups: dict[str, list[tuple[int, bool | None, bool | None]]], differ: int, deals_played: int,
           a: str, b: str) -> str:
    lines = [f"{deals_played} deals, {a} against {b}; auctions that differ from {b}'s: {differ}",
             f"| {a}'s role, {b}'s contract | hands | {a}'s gain a hand (95%) | made: {b} everywhere | with {a} |",
             "|---|---|---|---|---|"]
    for name, rows in sorted(groups.items(), key=lambda kv: (kv[0] != "all", -len(kv[1]))):
        n = len(rows)
        mean = sum(g for g, _, _ in rows) / n
        sd = math.sqrt(sum((g - mean) ** 2 for g, _, _ in rows) / max(1, n - 1))
        judged = [(m, w) for _, m, w in rows if m is not None and w is not None]
        made = (f"{sum(m for m, _ in judged) / len(judged):.1%} | {sum(w for _, w in judged) / len(judged):.1%}"
                if judged else "– | –")
        lines.append(f"| {name} | {n} | {mean:+.1f} (±{1.96 * sd / math.sqrt(n):.1f}) | {made} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="the first deal's game number")
    ap.add_argument("--seed", default="duplicate")
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("-w", "--workers", type=int, default=1)
    ap.add_argument("--save", metavar="FILE", help="write each deal's three hands as a JSON line")
    args = ap.parse_args(argv)
    rs = fivehundred.load_ruleset(args.ruleset)
    seating(rs, args.a, args.b)  # a ruleset of two teams, or a clear exit
    rows = []
    with open(args.save, "w", encoding="utf-8") if args.save else contextlib.nullcontext() as out:
        for row in deals(args.ruleset, args.a, args.b, args.seed, args.first, args.deals, args.workers):
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
    groups, differ = gains(rows)
    print(report(groups, differ, len(rows), args.a, args.b))
    return 0


if __name__ == "__main__":
    sys.exit(main())
