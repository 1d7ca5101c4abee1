#!/usr/bin/env python3
"""Contracts in partner's denomination: how often they are made, and what the auction priced them at.

    python benchmarks/partner_raises.py                          # 400 games of `club`, reference ruleset
    python benchmarks/partner_raises.py -n 1000 --seed 9 -p club:default -r nullo
    python benchmarks/partner_raises.py --examples 3             # print a few failed raises, hand and auction

A contract is "in partner's denomination" when a partner of the contractor called the same trump
suit (or no-trumps) earlier in the auction.  Such contracts are split by what the contractor
outbid: its own partner (it took the contract away from a partner who held it: a takeout) or an
opponent (a competitive raise).  For each, the make rate, the tricks the side took, and the trick
estimate ``club`` gave the contract from the contractor's seat when it made the call (read with
the tuned parameters of the ruleset, or the file given with ``--params``).  Contracts outside
partner's denomination are shown beside them: "over partner's call" where partner had called
another denomination (split as above by who held the bid), "alone" where partner had called none.
The games are ``fivehundred simulate``'s for the same ruleset, seed and players.  ``--examples N``
prints N failed contracts of those groups (``--show PREFIX``: of the groups named so).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from typing import Any

import fivehundred
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import read_params
from fivehundred.rules.cards import parse_cards
from fivehundred.rules.manager import compile_rules


class Tally:
    """Reads the streamed records back, one hand at a time."""

    def __init__(self, rules: Any, params: Any, examples: int, show: str = ""):
        self.rules = rules
        self.ladder = {c.call: c for c in rules.ladder}
        self.seats = list(rules.ruleset.players.seats)
        self.team = {s: rules.team_of[i] for i, s in enumerate(self.seats)}
        self.pricer = ClubPlayer(0, random.Random(0), params)
        self.rows: dict[str, list[tuple[bool, int, int, float]]] = defaultdict(list)
        self.examples = examples
        self.show = show
        self.shown: list[str] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                for hand in json.loads(line)["hands"]:
                    self.add(hand)
        return len(text)

    def add(self, hand: dict[str, Any]) -> None:
        contract = hand.get("contract")
        if not contract or contract.get("contractor") is None:
            return
        c = self.ladder[contract["call"]]
        if c.kind == "misere" or c.goal != "at-least":
            return
        seat = contract["contractor"]
        calls = hand["calls"]
        last = max(i for i, x in enumerate(calls) if x["seat"] == seat and x["call"] == contract["call"])
        before = calls[:last]
        partners = {s for s in self.seats if s != seat and self.team[s] == self.team[seat]}
        key = c.trump
        backed = any(x["seat"] in partners and x["call"] in self.ladder
                     and self.ladder[x["call"]].kind != "misere" and self.ladder[x["call"]].trump == key
                     for x in before)
        holder = next((x["seat"] for x in reversed(before) if x["call"] in self.ladder), None)
        group = "alone" if not backed else "takeout" if holder in partners else "competitive"
        if not backed and any(x["seat"] in partners and x["call"] in self.ladder
                              and self.ladder[x["call"]].kind != "misere" for x in before):
            group = "over partner's call, " + ("takeout" if holder in partners else "competitive")
        if backed:
            first = next(x["seat"] for x in before if x["call"] in self.ladder
                         and self.ladder[x["call"]].kind != "misere" and self.ladder[x["call"]].trump == key
                         and (x["seat"] in partners or x["seat"] == seat))
            group += ", partner's suit" if first in partners else ", own suit raised by partner"
        side = [s for s in self.seats if self.team[s] == self.team[seat]] if c.partner_plays else [seat]
        taken = sum(hand["tricks_won"][s] for s in side)
        made = bool(hand["outcome"]["made"])
        i = self.seats.index(seat)
        dealt = parse_cards(" ".join(hand["hands"][seat]))
        coded = [(self.seats.index(x["seat"]), self.rules.parse_call(x["call"]) if x["call"] in self.ladder else -1)
                 for x in before]
        estimate = self.pricer.contract_estimate(self.rules, i, dealt, coded, c) or 0.0
        self.rows[group].append((made, c.tricks, taken, estimate))
        if group != "alone" and group.startswith(self.show) and not made and len(self.shown) < self.examples:
            auction = " ".join(f"{x['seat']}:{x['call']}" for x in calls)
            self.shown.append(f"{group}: {contract['call']} by {seat}, took {taken}, estimate {estimate:.1f}; "
                              f"auction {auction}\n  " + "\n  ".join(f"{s}: {' '.join(hand['hands'][s])}"
                                                                      for s in self.seats)
                              + f"\n  kitty: {' '.join(hand['kitty'])}")


def report(tally: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for group in sorted(tally.rows):
        rows = tally.rows[group]
        if not rows:
            continue
        n = len(rows)
        out[group] = {"contracts": n, "made": sum(r[0] for r in rows), "make_rate": sum(r[0] for r in rows) / n,
                      "tricks_over": sum(r[2] - r[1] for r in rows) / n,
                      "estimate_over_taken": sum(r[3] - r[2] for r in rows) / n}
    backed = [r for g, rows in tally.rows.items() if g != "alone" and not g.startswith("over") for r in rows]
    if backed:
        made = sum(r[0] for r in backed)
        out["in_partners_denomination"] = {"contracts": len(backed), "made": made, "make_rate": made / len(backed)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("-n", "--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("-p", "--players", default="club")
    ap.add_argument("--params", default=None, help="parameters the estimate is read with (default: the tuned set)")
    ap.add_argument("--examples", type=int, default=0)
    ap.add_argument("--show", default="", help="print examples only from groups whose name starts with this")
    ap.add_argument("-w", "--workers", type=int, default=1)
    args = ap.parse_args(argv)
    ruleset = fivehundred.load_ruleset(args.ruleset)
    rules = compile_rules(ruleset)
    tally = Tally(rules, read_params(args.params) if args.params else None, args.examples, args.show)
    fivehundred.simulate(args.games, args.seed, ruleset, args.players, workers=args.workers,
                         out=tally)  # type: ignore[arg-type]
    print(json.dumps({"ruleset": ruleset.name, "players": args.players, "games": args.games, "seed": args.seed,
                      **report(tally)}, indent=1))
    for text in tally.shown:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
