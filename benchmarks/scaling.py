"""How ``simulate`` scales with ``--workers``: games/s for one worker and for N, on the same batch.

    python benchmarks/scaling.py                       # random and heuristic players, 1 vs 2 workers
    python benchmarks/scaling.py --players random --games 40000 --workers 4 --out jsonl

Each configuration is timed ``--repeat`` times, one worker and N in alternation, and the best run
of each is kept (the machine may be shared); the pool's start-up is included. Both must give the
same summary: the script checks it. The target on the 2-core development machine is a speed-up of
at least 1.8x with two workers.

Beside the wall-clock speed-up the script prints the CPU seconds of each run (main process and
workers) and the speed-up they allow on idle cores, ``N x cpu(1 worker) / cpu(N workers)``: the
work the extra processes add (start-up, pickling, the main process merging results), which is what
the code controls when other jobs share the machine. On Linux the column "others" is the CPU time other
processes took during the timed runs (from /proc/stat): wall-clock numbers mean little unless it is
near zero. "paired" is the median over repetitions of one run's ratio to the run beside it, which a
drift in the machine's speed between runs disturbs less than the ratio of the best runs. The last
column is the machine's own ceiling at that moment: N independent one-worker
batches run at once, against one alone (N x their games over the wall time); where the cores share
hardware (hyperthreads of one core, a busy host) it falls well below N, and so does every speed-up.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fivehundred

DEFAULT_GAMES = {"random": 20_000, "heuristic": 300}


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (pool workers are joined at the end)."""
    return sum(r.ru_utime + r.ru_stime for r in map(resource.getrusage, (resource.RUSAGE_SELF,
                                                                          resource.RUSAGE_CHILDREN)))


def machine_busy_seconds() -> float:
    """CPU seconds every process on the machine has used (Linux), or 0 where /proc/stat is missing."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, *rest = (int(f) for f in fields)
    return (user + nice + system + irq + softirq + (rest[0] if rest else 0)) / os.sysconf("SC_CLK_TCK")


@dataclass
class Timing:
    """The best wall time and the least CPU time of a configuration's runs, the CPU time other
    processes took during them, and the batch's summary."""

    wall: float = float("inf")
    cpu: float = float("inf")
    others: float = 0.0
    summary: dict[str, Any] = field(default_factory=dict)
    walls: list[float] = field(default_factory=list)
    """Every run's wall time, in order (run i of one configuration beside run i of the other)."""

    def run(self, games: int, players: str, workers: int, out: Path | None) -> None:
        start, start_cpu, start_busy = time.perf_counter(), cpu_seconds(), machine_busy_seconds()
        self.summary = fivehundred.simulate(games, 1, players=players, workers=workers, out=out).as_dict()
        self.walls.append(time.perf_counter() - start)
        self.wall = min(self.wall, self.walls[-1])
        used = cpu_seconds() - start_cpu
        self.cpu = min(self.cpu, used)
        self.others += max(0.0, machine_busy_seconds() - start_busy - used)


def _one_worker_batch(games: int, players: str) -> None:
    fivehundred.simulate(games, 1, players=players, workers=1)


def ceiling(games: int, players: str, workers: int, repeat: int) -> float:
    """How much faster ``workers`` independent one-worker batches run side by side than one alone
    (best of ``repeat``): what the machine allows any parallel batch now."""
    alone = together = float("inf")
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    for _ in range(repeat):
        start = time.perf_counter()
        _one_worker_batch(games, players)
        alone = min(alone, time.perf_counter() - start)
        start = time.perf_counter()
        processes = [ctx.Process(target=_one_worker_batch, args=(games, players)) for _ in range(workers)]
        for p in processes:
            p.start()
        for p in processes:
            p.join()
        together = min(together, time.perf_counter() - start)
    return workers * alone / together


def compare(games: int, players: str, workers: int, out: str, repeat: int) -> tuple[Timing, Timing]:
    """One worker and ``workers`` timed in alternation (so that a change in the machine's load
    touches both), ``repeat`` times each."""
    one, many = Timing(), Timing()
    with tempfile.TemporaryDirectory() as tmp:
        path = None if out == "none" else Path(tmp) / f"games.{out}"
        for _ in range(repeat):
            one.run(games, players, 1, path)
            many.run(games, players, workers, path)
    return one, many


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default="random,heuristic", help="comma-separated: random, heuristic")
    parser.add_argument("--games", type=int, help="games per batch (default: 20000 random, 300 heuristic)")
    parser.add_argument("--workers", type=int, default=2, help="the worker count compared with one worker")
    parser.add_argument("--out", choices=["none", "jsonl", "parquet"], default="none", help="write the games too")
    parser.add_argument("--repeat", type=int, default=5, help="runs per configuration (the best is kept)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; workers 1 vs {args.workers}; output: {args.out}; best of {args.repeat}")
    n = args.workers
    print(f"{'players':<10} {'games':>7} {'1 worker':>12} {f'{n} workers':>12} {'speed-up':>9}   "
          f"{'paired':>7} {'cpu 1':>7} {f'cpu {n}':>7} {'on idle cores':>13} {'others':>7} {'ceiling':>8}")
    for players in args.players.split(","):
        games = args.games or DEFAULT_GAMES.get(players, 1000)
        one, many = compare(games, players, n, args.out, args.repeat)
        if many.summary != one.summary:
            raise SystemExit(f"{players}: the summary differs between 1 and {n} workers")
        room = ceiling(games, players, n, max(1, args.repeat // 2))
        paired = statistics.median(a / b for a, b in zip(one.walls, many.walls, strict=True))
        print(f"{players:<10} {games:>7} {games / one.wall:>8.0f} g/s {games / many.wall:>8.0f} g/s "
              f"{one.wall / many.wall:>8.2f}x {paired:>6.2f}x "
              f"  {one.cpu:>6.2f}s {many.cpu:>6.2f}s {n * one.cpu / many.cpu:>12.2f}x "
              f"{one.others + many.others:>6.1f}s {room:>7.2f}x", flush=True)


if __name__ == "__main__":
    main()
