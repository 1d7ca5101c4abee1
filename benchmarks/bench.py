#!/usr/bin/env python3
"""Engine speed on one core: deals/s and games/s for random, heuristic and club players (``club:fast``, the
rules of thumb alone, and ``club``, which searches an open misère's defence), beside the
yardstick ``shared/bench/limit_sim.py`` measured in the same run.  The ratios that count come from
blocks of yardstick deals, engine deals and a ``fivehundred.simulate`` batch taken side by side in
this process (their order rotating from block to block; median and quartiles of the blocks'
ratios); the per-ruleset lines are measured one after another and do not pair.

    python benchmarks/bench.py                      # reference ruleset
    python benchmarks/bench.py --ruleset all        # every shipped ruleset
    python benchmarks/bench.py --json               # machine-readable
    python benchmarks/bench.py --pure               # the pure-Python engine, when the install compiled it
    python benchmarks/bench.py --no-yardstick --players club,heuristic --runs 5   # the bots only
    python benchmarks/bench.py --players club --bot-blocks 30   # club also in blocks beside the yardstick

"deals/s" is measured as the yardstick measures it: a stream of deals (rotating dealer), each
dealt, bid, exchanged and played out, without game bookkeeping; "games/s" plays whole games.
"end to end" is the public ``fivehundred.simulate(games, seed, "pagat-australian", "random")`` in
this process (one worker, no output file): every game set up, played, counted into the summary;
its deals/s are the summary's deals over the call's time.  Random games last about one deal, so
the per-game set-up counts there as it does for ``fivehundred simulate -p random``.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.engine.build import pure_copy
from fivehundred.engine.state import GameState
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import compile_rules, make_player

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


def simulate_deals_per_second(ruleset: fivehundred.Ruleset, games: int, seed: int) -> float:
    """Deals/s of a whole ``fivehundred.simulate`` batch of random players (in this process, one worker)."""
    start = time.perf_counter()
    summary = fivehundred.simulate(games, seed, ruleset, "random")
    return summary.deals / (time.perf_counter() - start)


def yardstick(hands: int, runs: int, games: int) -> dict[str, float] | None:
    if not YARDSTICK.exists():
        return None
    out = subprocess.run([sys.executable, str(YARDSTICK), "--hands", str(hands), "--runs", str(runs),
                          "--games", str(games)], capture_output=True, text=True, check=True).stdout
    m = re.search(r"MEDIAN deals/s (\d+).*games/s ([\d.]+)", out)
    return {"deals_per_s": float(m.group(1)), "games_per_s": float(m.group(2))} if m else None


def load_yardstick() -> Any:
    """The yardstick as a module (its benchmark runs only as a script), to time it in this process."""
    if not YARDSTICK.exists():
        return None
    spec = importlib.util.spec_from_file_location("limit_sim", YARDSTICK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def yardstick_deals_per_second(module: Any, deals: int, seed: int) -> float:
    """The yardstick's own deal loop (``bench`` in limit_sim.py): deal, bid, play, score, dealer rotating."""
    module.rseed(seed)
    dealer = 0
    start = time.perf_counter()
    for _ in range(deals):
        module.play_hand(dealer)
        dealer = (dealer + 1) & 3
    return deals / (time.perf_counter() - start)


def paired_blocks(module: Any, ruleset: fivehundred.Ruleset, blocks: int, deals: int,
                  games: int) -> list[tuple[float, float, float]]:
    """(yardstick, engine deal stream, ``simulate`` end to end) deals/s in blocks of the same process:
    the machine's speed drifts over seconds, so only measurements taken side by side compare (their
    order rotates through all six orders from block to block)."""
    measures = (lambda block: yardstick_deals_per_second(module, 2 * deals, block),
                lambda block: deals_per_second(ruleset, "random", deals, block),
                lambda block: simulate_deals_per_second(ruleset, games, block))
    orders = list(itertools.permutations(range(3)))
    rows = []
    for block in range(blocks):
        got = [0.0, 0.0, 0.0]
        for i in orders[block % len(orders)]:
            got[i] = measures[i](block)
        rows.append((got[0], got[1], got[2]))
    return rows


def paired_bot_blocks(module: Any, ruleset: fivehundred.Ruleset, player: str, blocks: int,
                      deals: int) -> list[tuple[float, float]]:
    """(yardstick, ``player``'s deal stream) deals/s in alternating blocks of this process, as ``paired_blocks``:
    a bot's figure taken apart from the yardstick's moves with the machine's speed (the yardstick plays ten
    times the deals, about as long)."""
    rows = []
    for block in range(blocks):
        got = [0.0, 0.0]
        for i in ((0, 1) if block % 2 == 0 else (1, 0)):
            got[i] = (yardstick_deals_per_second(module, 10 * deals, block) if i == 0
                      else deals_per_second(ruleset, player, deals, block))
        rows.append((got[0], got[1]))
    return rows


def median_and_quartiles(ratios: list[float]) -> tuple[float, list[float]]:
    ratios = sorted(ratios)
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return statistics.median(ratios), [quartiles[0], quartiles[2]]


def typed_pair(quartiles: object) -> tuple[float, float]:
    assert isinstance(quartiles, list)
    return quartiles[0], quartiles[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="pagat-australian", help="a ruleset name, or 'all'")
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--players", default="random,heuristic,club:fast,club",
                    help="comma-separated players to time per ruleset, run by run in turn (e.g. 'club' alone)")
    ap.add_argument("--heuristic-scale", type=int, default=5, help="fewer deals/games for the bots (all but random)")
    ap.add_argument("--no-yardstick", action="store_true")
    ap.add_argument("--blocks", type=int, default=20, help="(yardstick, engine, simulate) blocks for the ratios")
    ap.add_argument("--block-deals", type=int, default=2000, help="engine deals per block (the yardstick plays 2x)")
    ap.add_argument("--block-games", type=int, default=2000, help="games of the simulate batch in each block")
    ap.add_argument("--paired-only", action="store_true", help="only the paired ratios, no per-ruleset lines")
    ap.add_argument("--bot-blocks", type=int, default=0,
                    help="also time each bot of --players (not random) in this many blocks alternating with the "
                         "yardstick, on the reference ruleset: its deals/s and its ratio to the yardstick's")
    ap.add_argument("--bot-block-deals", type=int, default=300, help="a bot's deals per block")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pure", action="store_true", help="run a pure-Python copy of the installed engine")
    a = ap.parse_args()
    if a.pure and not fivehundred.engine_build().startswith("pure Python"):
        sys.exit(rerun_pure())
    names = [] if a.paired_only else sorted(ruleset_paths()) if a.ruleset == "all" else [a.ruleset]
    results: dict[str, object] = {"python": sys.version.split()[0], "engine": fivehundred.engine_build()}
    module = None if a.no_yardstick else load_yardstick()
    if module is not None:
        # The ratios that count: yardstick, engine deal stream and simulate() in blocks of this process
        # (median of the blocks' ratios, and their quartiles).  The yardstick's own run, as a script, for its games/s.
        reference = fivehundred.load_ruleset("pagat-australian")
        yardstick_deals_per_second(module, 2000, 0)  # warm all three up
        deals_per_second(reference, "random", 1000, 0)
        simulate_deals_per_second(reference, 500, 0)
        rows = paired_blocks(module, reference, a.blocks, a.block_deals, a.block_games)
        own = yardstick(a.deals * 2, 1, a.games) or {}
        results["yardstick"] = {"deals_per_s": statistics.median(t for t, _, _ in rows),
                                "games_per_s": own.get("games_per_s", float("nan")),
                                "deals_per_s_as_script": own.get("deals_per_s", float("nan"))}
        ratio, quartiles = median_and_quartiles([ours / theirs for theirs, ours, _ in rows])
        results["paired_ratio"], results["paired_ratio_quartiles"] = ratio, quartiles
        results["paired_engine_deals_per_s"] = statistics.median(o for _, o, _ in rows)
        ratio, quartiles = median_and_quartiles([sim / theirs for theirs, _, sim in rows])
        results["paired_simulate_ratio"], results["paired_simulate_ratio_quartiles"] = ratio, quartiles
        results["paired_simulate_deals_per_s"] = statistics.median(sim for _, _, sim in rows)
        for player in (p for p in a.players.split(",") if p and p != "random") if a.bot_blocks else ():
            deals_per_second(reference, player, a.bot_block_deals, 0)  # its memos warmed, as the runs' are
            pairs = paired_bot_blocks(module, reference, player, a.bot_blocks, a.bot_block_deals)
            ratio, quartiles = median_and_quartiles([ours / theirs for theirs, ours in pairs])
            results[f"paired_{player}"] = {"deals_per_s": statistics.median(o for _, o in pairs),
                                           "yardstick_deals_per_s": statistics.median(t for t, _ in pairs),
                                           "ratio": ratio, "ratio_quartiles": quartiles}
    for name in names:
        rs = fivehundred.load_ruleset(name)
        row: dict[str, float] = {}
        players = [p for p in a.players.split(",") if p]
        deals: dict[str, list[float]] = {p: [] for p in players}
        games: dict[str, list[tuple[float, float]]] = {p: [] for p in players}
        for run in range(a.runs):  # the players in turn, run by run, so that the machine's drift hits them alike
            for player in players:
                scale = 1 if player == "random" else a.heuristic_scale
                deals[player].append(deals_per_second(rs, player, a.deals // scale, run))
                games[player].append(games_per_second(rs, player, max(1, a.games // scale), run))
        for player in players:
            row[f"{player}_deals_per_s"] = statistics.median(deals[player])
            row[f"{player}_games_per_s"] = statistics.median(x[0] for x in games[player])
            row[f"{player}_deals_per_s_in_games"] = statistics.median(x[1] for x in games[player])
        results[name] = row
    if a.json:
        print(json.dumps(results, indent=2))
        return
    print(f"engine: {results['engine']} (Python {results['python']})")
    ys = results.get("yardstick")
    if isinstance(ys, dict):
        q1, q3 = typed_pair(results["paired_ratio_quartiles"])
        print(f"yardstick limit_sim.py: {ys['deals_per_s']:.0f} deals/s in this process "
              f"({ys['deals_per_s_as_script']:.0f} as a script), {ys['games_per_s']:.1f} games/s; reference engine, "
              f"random players, {results['paired_engine_deals_per_s']:.0f} deals/s beside it: "
              f"{results['paired_ratio']:.2f}x its deals/s (quartiles {q1:.2f}-{q3:.2f} over {a.blocks} blocks)")
        q1, q3 = typed_pair(results["paired_simulate_ratio_quartiles"])
        print(f"end to end, fivehundred.simulate(random players, {a.block_games} games, one worker): "
              f"{results['paired_simulate_deals_per_s']:.0f} deals/s beside it: "
              f"{results['paired_simulate_ratio']:.2f}x its deals/s "
              f"(quartiles {q1:.2f}-{q3:.2f} over {a.blocks} blocks)")
        for player in (p for p in a.players.split(",") if p and p != "random") if a.bot_blocks else ():
            bot = results[f"paired_{player}"]
            assert isinstance(bot, dict)
            q1, q3 = typed_pair(bot["ratio_quartiles"])
            print(f"pagat-australian, {player} in {a.bot_blocks} blocks beside the yardstick "
                  f"({bot['yardstick_deals_per_s']:.0f} deals/s in them): {bot['deals_per_s']:.0f} deals/s, "
                  f"{bot['ratio']:.4f}x its deals/s (quartiles {q1:.4f}-{q3:.4f})")
    for name in names:
        row = results[name]  # type: ignore[assignment]
        assert isinstance(row, dict)
        players = [p for p in a.players.split(",") if p]
        print(f"{name}: " + "; ".join(
            f"{p} {row[f'{p}_deals_per_s']:.0f} deals/s, {row[f'{p}_games_per_s']:.1f} games/s "
            f"({row[f'{p}_deals_per_s_in_games']:.0f} deals/s in games)" for p in players))


def rerun_pure() -> int:
    """This benchmark again, in a process that imports a pure-Python copy of the installed package."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pure_copy(Path(tmp))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
        return subprocess.call([sys.executable, __file__, *sys.argv[1:]], env=env)


if __name__ == "__main__":
    main()
