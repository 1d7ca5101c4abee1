#!/usr/bin/env python3
"""Takeouts: a partner's standing contract overcalled by its own side, against the same contract left standing.

    python benchmarks/takeouts.py                                   # 400 games of `club`, reference ruleset
    python benchmarks/takeouts.py -r six-handed -n 400 --seed 78 -p club:FILE.json
    python benchmarks/takeouts.py --dd                              # also both solved double dummy
    python benchmarks/takeouts.py --examples 3                      # takeouts that did worse than standing

The games are ``fivehundred simulate``'s for the same ruleset, seed and players. A hand is a takeout when its
contractor's last call overcalled a partner's standing contract to take tricks and nobody called after it: the
auction ended on the takeout. Each one is dealt again and partner's contract forced through the engine instead
(``batch.par.force``: partner bids it and every other seat passes, `club` making the exchange), then played out by
the game's own players (a generator seeded with the game and the hand); the hand's swing for the side (its score
less the others') is compared with the swing of the takeout as it was played. ``--dd`` also forces the takeout the
same way and solves both contracts double dummy (each card one that keeps the position's value; four seats:
milliseconds a hand, six seats: seconds). Printed per kind of takeout (into a contract to take tricks, into a misère
kind): how many, the mean swing of each, the mean gain of taking out with a 95% interval, how often standing
did better, and the same by partner's denomination and the takeout's.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from typing import Any

from par_games import keeping_card  # benchmarks/par_games.py

import fivehundred
from fivehundred.batch.par import force
from fivehundred.batch.par_deals import DealJob, record_job
from fivehundred.batch.simulation import seat_players
from fivehundred.engine.solver import solve
from fivehundred.engine.state import GameState, HandLog
from fivehundred.records.columns import hand_made
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import Rules, compile_rules, player_maker


def takeout(rules: Rules, hand: dict[str, Any]) -> tuple[str, str] | None:
    """``(partner, standing call)`` where ``hand`` is a takeout of a partner's standing contract to take tricks,
    the auction ending on it; else None."""
    contract = hand.get("contract")
    if not contract or contract.get("contractor") is None:
        return None
    ladder = {c.call: c for c in rules.ladder if not c.signal}
    team = dict(zip(rules.seats, rules.team_of, strict=True))
    seat, calls = contract["contractor"], hand["calls"]
    last = max(i for i, x in enumerate(calls) if x["seat"] == seat and x["call"] == contract["call"])
    if any(x["call"] in ladder for x in calls[last + 1:]):
        return None
    bids = [x for x in calls[:last] if x["call"] in ladder]
    if not bids or bids[-1]["seat"] == seat or team[bids[-1]["seat"]] != team[seat]:
        return None
    standing = ladder[bids[-1]["call"]]
    return None if standing.kind == "misere" else (bids[-1]["seat"], standing.call)


def swing(log: HandLog, side: int) -> int:
    """The hand's score for team ``side`` less the other teams'."""
    return log.scores[side] - sum(v for t, v in enumerate(log.scores) if t != side)


def played(state: GameState, players: list[str], seed: str) -> HandLog:
    """The forced hand ``state`` played out to its score by ``players``."""
    rng = random.Random(seed)
    makers = [player_maker(name) for name in players]
    state.play_out([make(s, rng) for s, make in enumerate(makers)], random.Random(0), state.deals)
    return state.hands_log[-1]


def solved(state: GameState) -> HandLog:
    """The forced hand ``state`` played out to its score with best play by both sides (every card seen)."""
    value = solve(state)
    while state.phase == Phase.PLAY:
        state.apply(keeping_card(state, state.legal_actions(), value))
    return state.hands_log[-1]


class Tally:
    """Reads the streamed records, one game at a time (``fivehundred.simulate``'s ``out``)."""

    def __init__(self, rules: Rules, players: list[str], seed: int | str, dd: bool, examples: int):
        self.rules, self.players, self.seed, self.dd, self.examples = rules, players, seed, dd, examples
        self.rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.shown: list[str] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                record = json.loads(line)
                totals = [0] * len(self.rules.team_names)
                for hand in record["hands"]:
                    self.add(record["game"], hand, totals)
                    if hand.get("totals"):
                        totals = [hand["totals"][t] for t in self.rules.team_names]
        return len(text)

    def add(self, game: int, hand: dict[str, Any], totals: list[int]) -> None:
        rules = self.rules
        found = takeout(rules, hand)
        if found is None:
            return
        partner, call = found
        job: DealJob = record_job(rules, hand, totals, "game")
        stand = force(job.state(), rules.seats.index(partner), rules.parse_call(call))
        if isinstance(stand, str):
            return
        contract = hand["contract"]
        side = rules.team_of[rules.seats.index(contract["contractor"])]
        names = rules.team_names
        taken = hand["scores"][names[side]] - sum(v for t, v in hand["scores"].items() if t != names[side])
        left = played(stand.clone(), self.players, f"{self.seed}:{game}:{hand['number']}")
        row = {"game": game, "hand": hand["number"], "call": contract["call"], "over": call, "taken": taken,
               "made": bool(hand["outcome"]["made"]),
               "standing": swing(left, side),
               "standing_made": bool(hand_made(rules, left))}
        if self.dd:
            took = force(job.state(), rules.seats.index(contract["contractor"]), rules.parse_call(contract["call"]))
            if isinstance(took, str):
                return
            row["dd_taken"], row["dd_standing"] = swing(solved(took), side), swing(solved(stand), side)
        kind = "misere" if rules.ladder[rules.parse_call(contract["call"])].kind == "misere" else "tricks"
        self.rows[kind].append(row)
        if row["standing"] > row["taken"] and len(self.shown) < self.examples:
            self.shown.append(f"game {game + 1} hand {hand['number']}: {contract['contractor']} took {partner}'s "
                              f"{call} out into {contract['call']}: {taken:+d} as played, {row['standing']:+d} left "
                              f"standing (fivehundred show FILE --game {game + 1} --hand {hand['number']})")


def gain(rows: list[dict[str, Any]], taken: str, standing: str) -> dict[str, Any]:
    """The mean gain of taking out over standing, with a 95% interval (normal approximation)."""
    diffs = [r[taken] - r[standing] for r in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {"taken": sum(r[taken] for r in rows) / n, "standing": sum(r[standing] for r in rows) / n,
            "gain": mean, "gain_ci95": [mean - half, mean + half],
            "standing_better": sum(d < 0 for d in diffs), "taking_out_better": sum(d > 0 for d in diffs)}


def by_denominations(rules: Rules, rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The takeouts by partner's denomination and the takeout's (``"D > NT"``), with the mean gain as played."""
    def denomination(call: str) -> str:
        contract = rules.ladder[rules.parse_call(call)]
        return contract.call if contract.kind == "misere" else "NT" if contract.trump is None else call[-1]

    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[f"{denomination(r['over'])} > {denomination(r['call'])}"].append(r)
    return {k: {"takeouts": len(g), "made": sum(r["made"] for r in g) / len(g),
                "gain": sum(r["taken"] - r["standing"] for r in g) / len(g)}
            for k, g in sorted(groups.items(), key=lambda kv: -len(kv[1]))}


def report(tally: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, rows in sorted(tally.rows.items()):
        n = len(rows)
        out[kind] = {"takeouts": n, "made": sum(r["made"] for r in rows) / n,
                     "standing_made": sum(r["standing_made"] for r in rows) / n,
                     "as_played": gain(rows, "taken", "standing")}
        if tally.dd:
            out[kind]["double_dummy"] = gain(rows, "dd_taken", "dd_standing")
        out[kind]["by_denominations"] = by_denominations(tally.rules, rows)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("-n", "--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=78)
    ap.add_argument("-p", "--players", default="club")
    ap.add_argument("--dd", action="store_true", help="also solve both contracts double dummy")
    ap.add_argument("--examples", type=int, default=0, help="name this many takeouts that did worse than standing")
    args = ap.parse_args(argv)
    ruleset = fivehundred.load_ruleset(args.ruleset)
    rules = compile_rules(ruleset)
    tally = Tally(rules, seat_players(ruleset, args.players), args.seed, args.dd, args.examples)
    fivehundred.simulate(args.games, args.seed, ruleset, args.players, out=tally)  # type: ignore[arg-type]
    print(json.dumps({"ruleset": ruleset.name, "players": args.players, "games": args.games, "seed": args.seed,
                      **report(tally)}, indent=1))
    if tally.shown:
        print(f"FILE: fivehundred simulate -r {ruleset.name} -n {args.games} --seed {args.seed} -p {args.players} "
              "-o FILE")
    for text in tally.shown:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
