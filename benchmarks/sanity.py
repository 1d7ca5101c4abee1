#!/usr/bin/env python3
"""Sanity of the bots per ruleset: what seeded self-play of one player looks like, against targets.

    python benchmarks/sanity.py                          # 200 games of `club` on every shipped ruleset
    python benchmarks/sanity.py -n 2000 -w 2 --seed 1    # the README's table
    python benchmarks/sanity.py -r three-handed -p heuristic
    python benchmarks/sanity.py --markdown               # a Markdown table for the README

Per ruleset: passed-out deals, the contract mix by kind (a trump suit, no-trumps, each misère or
special contract by its call), the make rate by kind, hands per game, the share of games ended by a
side's fall to the losing score, and wins by seat.  The targets (issue 11):

- no single kind above 45% of contracts;
- passed-out deals at most 20%;
- misère kinds (misère, open misère, grosse misère …) together at most 15% of contracts, and games decided
  by a single misère-kind contract (the hand that ended the game was one: made to reach the target, or
  failed to a fall) at most 15% of finished games, as in real play (issue 30);
- for every kind played at least 30 times, a make rate between 45% and 92%;
- every kind on the ladder chosen at least once (a blind call, made before looking, and a signal,
  which never becomes the contract, are not counted as reachable).

The games come from ``fivehundred.simulate`` (records streamed and read back), so they are the games
``fivehundred simulate -r RULESET -p PLAYER --seed SEED`` plays.  Exit status 1 when a target fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fivehundred
from fivehundred.rules.loading import bundled_dir
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import parse_call

MAX_SHARE = 0.45
MAX_PASSED_OUT = 0.20
MAX_MISERE_SHARE = 0.15
MAX_MISERE_DECIDED = 0.15
MAKE_RATE = (0.45, 0.92)
MIN_PLAYED = 30


def kind_of(call: str, trump: int | None) -> str:
    """The contract kind the targets speak of: a trump suit's letter, NT, or a named contract's call."""
    if parse_call(call) is not None:
        return "NT" if trump is None else "SCDH"[trump]
    return call


@dataclass
class Tally:
    """Read back from the streamed records, one game at a time."""

    games: int = 0
    deals: int = 0
    hands: int = 0
    falls: int = 0
    unfinished: int = 0
    played: Counter[str] = field(default_factory=Counter)
    made: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    kinds: dict[str, str] = field(default_factory=dict)
    """Each call's kind (from the ruleset's ladder)."""
    miseres: frozenset[str] = frozenset()
    """The calls of a misère kind."""
    misere_decided: int = 0
    """Finished games whose last hand was a misère-kind contract."""

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                self.add(json.loads(line))
        return len(text)

    def add(self, record: dict[str, Any]) -> None:
        self.games += 1
        self.deals += record["deals"]
        for hand in record["hands"]:
            contract = hand.get("contract")
            if contract is None or contract.get("contractor") is None:
                continue
            self.hands += 1
            kind = self.kinds[contract["call"]]
            self.played[kind] += 1
            self.made[kind] += bool(hand.get("outcome", {}).get("made"))
        result = record["result"]
        if result is None:
            self.unfinished += 1
            return
        last = record["hands"][-1].get("contract") if record["hands"] else None
        if last is not None and last.get("contractor") is not None and last["call"] in self.miseres:
            self.misere_decided += 1
        self.wins[result["winner"]] += 1
        self.falls += " fell to " in result["reason"]


def reachable_kinds(ruleset: fivehundred.Ruleset) -> dict[str, str]:
    """Each call of the ladder with its kind; calls that can never be a chosen contract are left out."""
    rules = compile_rules(ruleset)
    return {c.call: kind_of(c.call, c.trump) for c in rules.ladder if not c.before_looking and not c.signal}


def tally_for(ruleset: fivehundred.Ruleset) -> Tally:
    """An empty ``Tally`` that knows ``ruleset``'s calls."""
    rules = compile_rules(ruleset)
    return Tally(kinds={c.call: kind_of(c.call, c.trump) for c in rules.ladder},
                 miseres=frozenset(c.call for c in rules.ladder if c.kind == "misere"))


def measure(ruleset: fivehundred.Ruleset, player: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    tally = tally_for(ruleset)
    start = time.perf_counter()
    fivehundred.simulate(games, seed, ruleset, player, workers=workers, out=tally)  # type: ignore[arg-type]
    return row(tally, ruleset, player, seed, time.perf_counter() - start)


def row(tally: Tally, ruleset: fivehundred.Ruleset, player: str, seed: int | str, elapsed: float) -> dict[str, Any]:
    """The ruleset's row (what ``text_report``, ``markdown`` and ``failures`` read) from the games ``tally`` read."""
    contracts = sum(tally.played.values())
    finished = tally.games - tally.unfinished
    return {
        "ruleset": ruleset.name, "player": player, "games": tally.games, "seed": seed, "seconds": round(elapsed, 1),
        "deals": tally.deals, "passed_out": (tally.deals - tally.hands) / tally.deals if tally.deals else 0.0,
        "hands_per_game": tally.hands / tally.games if tally.games else 0.0,
        "falls": tally.falls / finished if finished else 0.0,
        "has_misere": bool(tally.miseres),
        "misere_share": sum(tally.played[k] for k in {tally.kinds[m] for m in tally.miseres}) / contracts
        if contracts else 0.0,
        "misere_decided": tally.misere_decided / finished if finished else 0.0,
        "unfinished": tally.unfinished,
        "kinds": {k: {"played": tally.played[k], "share": tally.played[k] / contracts if contracts else 0.0,
                      "made": tally.made[k], "make_rate": tally.made[k] / tally.played[k] if tally.played[k] else None}
                  for k in _in_order([*reachable_kinds(ruleset).values(), *tally.played])},
        "wins": {t.name: tally.wins[t.name] for t in ruleset.players.teams},
    }


def _in_order(kinds: list[str]) -> list[str]:
    """Trump suits, no-trumps, then the named contracts in ladder order."""
    unique = list(dict.fromkeys(kinds))
    return sorted(unique, key=lambda k: ("SCDH".find(k) if len(k) == 1 else 4 if k == "NT" else 5, unique.index(k)))


def failures(row: dict[str, Any], misere_targets: bool = True) -> list[str]:
    """The targets this ruleset's numbers miss, one line each (``misere_targets`` False: the misère kinds' share
    and the games they decide left out)."""
    bad = []
    for kind, k in row["kinds"].items():
        if k["share"] > MAX_SHARE:
            bad.append(f"{kind} is {100 * k['share']:.1f}% of contracts (target ≤ {100 * MAX_SHARE:.0f}%)")
        if k["played"] >= MIN_PLAYED and not MAKE_RATE[0] <= k["make_rate"] <= MAKE_RATE[1]:
            bad.append(f"{kind} made {100 * k['make_rate']:.1f}% of {k['played']} "
                       f"(target {100 * MAKE_RATE[0]:.0f}–{100 * MAKE_RATE[1]:.0f}%)")
        if k["played"] == 0:
            bad.append(f"{kind} never chosen")
    if misere_targets and row.get("has_misere") and row["misere_share"] > MAX_MISERE_SHARE:
        bad.append(f"misère kinds are {100 * row['misere_share']:.1f}% of contracts "
                   f"(target ≤ {100 * MAX_MISERE_SHARE:.0f}%)")
    if misere_targets and row.get("has_misere") and row["misere_decided"] > MAX_MISERE_DECIDED:
        bad.append(f"{100 * row['misere_decided']:.1f}% of games decided by a misère-kind contract "
                   f"(target ≤ {100 * MAX_MISERE_DECIDED:.0f}%)")
    if row["passed_out"] > MAX_PASSED_OUT:
        bad.append(f"{100 * row['passed_out']:.1f}% of deals passed out (target ≤ {100 * MAX_PASSED_OUT:.0f}%)")
    return bad


def text_report(row: dict[str, Any]) -> str:
    lines = [f"== {row['ruleset']}: {row['games']} games of {row['player']}, seed {row['seed']} "
             f"({row['seconds']} s)",
             f"   passed out {100 * row['passed_out']:.1f}% of {row['deals']} deals · "
             f"hands/game {row['hands_per_game']:.1f} · games ended by a fall {100 * row['falls']:.1f}%"
             + (f" · unfinished {row['unfinished']}" if row["unfinished"] else ""),
             *([f"   misère kinds {100 * row['misere_share']:.1f}% of contracts · games decided by one "
                f"{100 * row['misere_decided']:.1f}%"] if row.get("has_misere") else []),
             "   wins by seat: " + ", ".join(f"{t} {n}" for t, n in row["wins"].items()),
             f"   {'kind':<16}{'played':>8}{'share':>8}{'made':>8}"]
    for kind, k in row["kinds"].items():
        rate = "–" if k["make_rate"] is None else f"{100 * k['make_rate']:.1f}%"
        lines.append(f"   {kind:<16}{k['played']:>8}{100 * k['share']:>7.1f}%{rate:>8}")
    bad = failures(row)
    lines.extend(f"   FAIL {b}" for b in bad) if bad else lines.append("   all targets met")
    return "\n".join(lines)


def markdown(rows: list[dict[str, Any]]) -> str:
    head = ("| ruleset | passed out | hands/game | ended by a fall | misère kinds | decided by a misère kind "
            "| wins by seat | contracts: share (made) | targets |\n|---|---|---|---|---|---|---|---|---|")
    body = []
    for row in rows:
        mix = ", ".join(f"{kind} {100 * k['share']:.0f}%"
                        + (f" ({100 * k['make_rate']:.0f}%)" if k["make_rate"] is not None else "")
                        for kind, k in row["kinds"].items())
        wins = " ".join(f"{t} {n}" for t, n in row["wins"].items())
        bad = failures(row)
        mis = (f"{100 * row['misere_share']:.1f}% | {100 * row['misere_decided']:.1f}%"
               if row.get("has_misere") else "– | –")
        body.append(f"| {row['ruleset']} | {100 * row['passed_out']:.1f}% | {row['hands_per_game']:.1f} "
                    f"| {100 * row['falls']:.1f}% | {mis} | {wins} | {mix} | {'; '.join(bad) if bad else 'met'} |")
    return "\n".join([head, *body])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-r", "--ruleset", action="append",
                        help="ruleset name or path (repeatable; default: every shipped one)")
    parser.add_argument("-p", "--player", default="club", help="the player in every seat (default: club)")
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-w", "--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table (for the README)")
    parser.add_argument("--rows", type=Path, help="also append each ruleset's numbers to this file as a JSON line")
    parser.add_argument("--from-rows", type=Path, help="print the table of rows saved with --rows, playing nothing")
    args = parser.parse_args(argv)
    names = args.ruleset or [p.stem for p in sorted(bundled_dir().glob("*.yaml"))]
    rows = []
    if args.from_rows:
        rows = [json.loads(line) for line in args.from_rows.read_text(encoding="utf-8").splitlines() if line]
    for name in [] if args.from_rows else names:
        row = measure(fivehundred.load_ruleset(name), args.player, args.games, args.seed, args.workers)
        rows.append(row)
        if args.rows:
            with args.rows.open("a", encoding="utf-8") as saved:
                saved.write(json.dumps(row) + "\n")
        if not (args.json or args.markdown):
            print(text_report(row), flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    elif args.markdown:
        print(markdown(rows))
    failing = [row["ruleset"] for row in rows if failures(row)]
    if not (args.json or args.markdown):
        print(f"\n{len(rows) - len(failing)} of {len(rows)} rulesets meet every target"
              + (f"; failing: {', '.join(failing)}" if failing else ""))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
