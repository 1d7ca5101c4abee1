"""How a batch is cut into jobs, and the jobs' results streamed back in game order (local processes and
Dask clusters alike)."""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from .workers import Job, Workers

T = TypeVar("T")
J = TypeVar("J")


def game_chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(games, start + size)


def chunk_size(games: int, workers: int) -> int:
    """Games per job: at most 200, and at least 32 jobs per worker so that no worker is left with a
    long last job while the others wait (the results never depend on it)."""
    return max(1, min(200, games // (max(workers, 1) * 32)))


def in_order(submit: Callable[[J], Any], get: Callable[[Any], T], jobs: Iterable[J],
             window: int) -> Generator[T, None, None]:
    """Results of ``jobs`` in job order, with at most ``window`` submitted and not yet consumed
    (so memory stays flat however many games the batch holds)."""
    pending: deque[Any] = deque()
    for job in jobs:
        pending.append(submit(job))
        if len(pending) >= window:
            yield get(pending.popleft())
    while pending:
        yield get(pending.popleft())


def quiet_worker() -> None:
    """In a pool worker: Ctrl-C and SIGTERM are the parent's to handle (it stops the pool), and a worker
    stopped by them leaves without a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def process_pool(workers: int, initializer: Callable[..., None] = quiet_worker,
                 initargs: tuple[Any, ...] = ()) -> Workers:
    """``workers`` local worker processes (``fivehundred.batch.workers``), for a ``with`` block that stops them;
    ``initializer`` must call ``quiet_worker``."""
    return Workers(workers, initializer, initargs)


def in_workers_order(pool: Workers, work: Callable[[J], T], jobs: Iterable[J]) -> Iterator[T]:
    """``work(job)`` of each of ``jobs`` in ``pool``, in order, two jobs a worker in flight."""
    return in_order(lambda job: pool.apply_async(work, (job,)), Job.get, jobs, window=2 * pool.count)
