#!/usr/bin/env python3
"""Paired games between two players, printed pair by pair (a long match on a busy machine can be stopped and
still read): ``python benchmarks/paired.py solver club --pairs 100 --seed 501``.

Pair ``i`` is game ``i`` of the seed played twice, A in the first team's seats and then B (the same shuffles,
as ``benchmarks/strength.py`` plays them).  Each line: the pair, A's wins so far of the finished games, the
share with its 95% Wilson interval, and the CPU seconds a game took so far.  ``--first N`` starts at pair ``N``
(two processes playing ``--pairs 250`` and ``--first 250 --pairs 250`` play the 500 pairs of one match).
"""

from __future__ import annotations

import argparse
import sys
import time

from strength import seating  # benchmarks/strength.py

import fivehundred
from fivehundred.batch.simulation import play_game, wilson


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--first", type=int, default=0,
                    help="the first pair's game number (to split a match over processes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    args = ap.parse_args(argv)
    rs = fivehundred.load_ruleset(args.ruleset)
    wins = games = 0
    start = time.process_time()
    for i in range(args.first, args.first + args.pairs):
        for players, mine in ((seating(rs, args.a, args.b), 0), (seating(rs, args.b, args.a), 1)):
            state = play_game(rs, args.seed, players, game=i)
            result = state.result
            if result is not None:
                games += 1
                wins += result.winner == mine
        lo, hi = wilson(wins, games) if games else (0.0, 1.0)
        cpu = (time.process_time() - start) / max(1, 2 * (i + 1 - args.first))
        print(f"pair {i + 1}: {args.a} {wins}/{games} = {wins / max(1, games):.3f} ({lo:.3f}-{hi:.3f}) "
              f"cpu/game {cpu:.2f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
