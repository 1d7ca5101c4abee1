"""Peak memory of a large batch streamed to disk: it must not grow with the number of games.

    python benchmarks/memory.py                          # 1,000,000 random-player games to JSONL, 2 workers
    python benchmarks/memory.py --games 10000 100000     # the same for each size: is memory flat?
    python benchmarks/memory.py --games 100000 --out parquet --workers 1

Each size runs in a fresh process, so each peak is that run's own: the peak resident set size of
the main process (``getrusage(RUSAGE_SELF)``, which includes the interpreter and the imports, shown
apart as "baseline") and of the largest worker process (``RUSAGE_CHILDREN``). With several sizes the
script prints how much the peaks grew from the smallest batch to the largest.

What the main process holds does not depend on the batch size: at most ``4 x workers`` chunks in
flight (up to 200 games each), the summary, and a Parquet row group. Its peak still creeps up some
15 MiB over a million games as the C allocator reuses the large chunk buffers (the Python heap, seen
by tracemalloc, stays constant).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def peak_mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def one_run(games: int, workers: int, out: str, players: str, directory: str) -> dict[str, Any]:
    """Play the batch in this process and measure it (called in a fresh subprocess)."""
    import fivehundred
    from fivehundred.rules.manager import compile_rules

    compile_rules(fivehundred.load_ruleset("pagat-australian"))
    baseline = peak_mib(resource.RUSAGE_SELF)
    path = Path(directory) / f"games.{out}"
    start = time.perf_counter()
    summary = fivehundred.simulate(games, 1, players=players, workers=workers, out=path)
    seconds = time.perf_counter() - start
    return {"games": summary.games, "seconds": round(seconds, 1), "file_mib": round(path.stat().st_size / 2**20, 1),
            "baseline_mib": round(baseline, 1), "main_peak_mib": round(peak_mib(resource.RUSAGE_SELF), 1),
            "worker_peak_mib": round(peak_mib(resource.RUSAGE_CHILDREN), 1)}


def measure(games: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        command = [sys.executable, __file__, "--one", str(games), "--workers", str(args.workers), "--out", args.out,
                   "--players", args.players, "--dir", tmp]
        done = subprocess.run(command, check=True, capture_output=True, text=True)
        result: dict[str, Any] = json.loads(done.stdout)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1_000_000], help="batch sizes to measure")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", choices=["jsonl", "parquet"], default="jsonl")
    parser.add_argument("--players", default="random")
    parser.add_argument("--dir", help="where the file is written (default: the system's temporary directory)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one_run(args.one, args.workers, args.out, args.players, args.dir)))
        return
    print(f"{args.players} players, {args.workers} workers, streamed to {args.out}")
    print(f"{'games':>9} {'seconds':>8} {'games/s':>8} {'file MiB':>9} {'baseline':>9} {'main peak':>10} "
          f"{'worker peak':>12}")
    results = []
    for games in args.games:
        r = measure(games, args)
        results.append(r)
        print(f"{r['games']:>9} {r['seconds']:>8} {r['games'] / max(r['seconds'], 1e-9):>8.0f} {r['file_mib']:>9} "
              f"{r['baseline_mib']:>8}M {r['main_peak_mib']:>9}M {r['worker_peak_mib']:>11}M", flush=True)
    if len(results) > 1:
        small, large = results[0], results[-1]
        growth = {k: round(large[k] - small[k], 1) for k in ("main_peak_mib", "worker_peak_mib")}
        print(f"from {small['games']} to {large['games']} games ({large['games'] / small['games']:.0f}x): "
              f"main peak {growth['main_peak_mib']:+} MiB, worker peak {growth['worker_peak_mib']:+} MiB")


if __name__ == "__main__":
    main()
