#!/usr/bin/env python3
"""Engine speed on one core: deals/s and games/s for random and heuristic players, beside the
yardstick ``shared/bench/limit_sim.py`` measured in the same run (medians, and their ratio).

    python benchmarks/bench.py                      # reference ruleset
    python benchmarks/bench.py --ruleset all        # every shipped ruleset
    python benchmarks/bench.py --json               # machine-readable

"deals/s" is measured as the yardstick measures it: a stream of deals (rotating dealer), each
dealt, bid, exchanged and played out, without game bookkeeping; "games/s" plays whole games.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import fivehundred
from fivehundred.manager import compile_rules, make_player
from fivehundred.ruleset import ruleset_paths
from fivehundred.simulation import play_game
from fivehundred.state import GameState

YARDSTICK = Path(__file__).resolve().parents[2] / "shared" / "bench" / "limit_sim.py"


def deals_per_second(ruleset: fivehundred.Ruleset, player: str, deals: int, seed: int) -> float:
    rules = compile_rules(ruleset)
    rng = random.Random(seed)
    bots = [make_player(player, seat, random.Random(seed * 10 + seat)) for seat in range(rules.players)]
    start = time.perf_counter()
    for i in range(deals):
        state = GameState(rules, first_dealer=i % rules.players)
        state.deal(rng)
        state.play_out(bots, rng, max_deals=1)
    return deals / (time.perf_counter() - start)


def games_per_second(ruleset: fivehundred.Ruleset, player: str, games: int, seed: int) -> tuple[float, float]:
    start = time.perf_counter()
    deals = sum(play_game(ruleset, seed, player, game=g).deals for g in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, deals / elapsed


def yardstick(hands: int, runs: int, games: int) -> dict[str, float] | None:
    if not YARDSTICK.exists():
        return None
    out = subprocess.run([sys.executable, str(YARDSTICK), "--hands", str(hands), "--runs", str(runs),
                          "--games", str(games)], capture_output=True, text=True, check=True).stdout
    m = re.search(r"MEDIAN deals/s (\d+).*games/s ([\d.]+)", out)
    return {"deals_per_s": float(m.group(1)), "games_per_s": float(m.group(2))} if m else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="pagat-australian", help="a ruleset name, or 'all'")
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--heuristic-scale", type=int, default=5, help="fewer deals/games for the heuristic bot")
    ap.add_argument("--no-yardstick", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    names = sorted(ruleset_paths()) if a.ruleset == "all" else [a.ruleset]
    results: dict[str, object] = {"python": sys.version.split()[0]}
    if not a.no_yardstick:
        # Interleaved pairs (yardstick, engine), since this machine's speed drifts: the median of the
        # pairs' ratios is what to compare, not two medians taken minutes apart.
        reference = fivehundred.load_ruleset("pagat-australian")
        pairs = []
        for run in range(a.runs):
            y = yardstick(a.deals * 2, 1, a.games)
            ours = deals_per_second(reference, "random", a.deals, run)
            if y:
                pairs.append((y, ours))
        if pairs:
            results["yardstick"] = {k: statistics.median(y[k] for y, _ in pairs) for k in pairs[0][0]}
            results["paired_ratio"] = statistics.median(o / y["deals_per_s"] for y, o in pairs)
    for name in names:
        rs = fivehundred.load_ruleset(name)
        row: dict[str, float] = {}
        for player, scale in (("random", 1), ("heuristic", a.heuristic_scale)):
            row[f"{player}_deals_per_s"] = statistics.median(
                deals_per_second(rs, player, a.deals // scale, run) for run in range(a.runs))
            g = [games_per_second(rs, player, max(1, a.games // scale), run) for run in range(a.runs)]
            row[f"{player}_games_per_s"] = statistics.median(x[0] for x in g)
            row[f"{player}_deals_per_s_in_games"] = statistics.median(x[1] for x in g)
        ys = results.get("yardstick")
        if isinstance(ys, dict):
            row["random_deals_ratio"] = row["random_deals_per_s"] / ys["deals_per_s"]
        results[name] = row
    if a.json:
        print(json.dumps(results, indent=2))
        return
    ys = results.get("yardstick")
    if isinstance(ys, dict):
        print(f"yardstick limit_sim.py: {ys['deals_per_s']:.0f} deals/s, {ys['games_per_s']:.1f} games/s; "
              f"reference engine, random players, paired runs: {results['paired_ratio']:.2f}x its deals/s")
    for name in names:
        row = results[name]  # type: ignore[assignment]
        assert isinstance(row, dict)
        line = (f"{name}: random {row['random_deals_per_s']:.0f} deals/s, {row['random_games_per_s']:.0f} games/s "
                f"({row['random_deals_per_s_in_games']:.0f} deals/s in games); heuristic "
                f"{row['heuristic_deals_per_s']:.0f} deals/s, {row['heuristic_games_per_s']:.1f} games/s")
        if "random_deals_ratio" in row:
            line += f"; random deals/s vs yardstick: {row['random_deals_ratio']:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
