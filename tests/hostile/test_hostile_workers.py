"""The local worker processes behind ``--workers``: stopped at any moment, they stop; a job's exception reaches the
caller as it was raised; a worker that dies is an error naming it, never a wait.

The stop case is the one that made ``simulate --workers 2`` under SIGTERM hang now and then with
``multiprocessing.Pool`` (about one stop in fifty, with results larger than a pipe holds): the pool's stop waited
for a lock held by a worker writing its result to a pipe nobody read any more."""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

from fivehundred.batch.chunks import in_workers_order, process_pool
from fivehundred.batch.workers import WorkerDied
from fivehundred.rules.errors import FiveHundredError


def _large_result(i: int) -> bytes:
    time.sleep(random.random() * 0.01)
    return bytes([i % 256]) * 1_000_000  # far more than a pipe holds


def _square(i: int) -> int:
    return i * i


def _refuse(i: int) -> int:
    raise FiveHundredError(f"job {i} refused")


def _die(i: int) -> int:
    os._exit(3)  # as under SIGKILL or the out-of-memory killer


def test_workers_stopped_while_writing_large_results_always_stop() -> None:
    rng = random.Random(7)
    for _ in range(40):
        pool = process_pool(2)
        jobs = [pool.apply_async(_large_result, (i,)) for i in range(50)]
        assert jobs[0].get() == bytes([0]) * 1_000_000
        time.sleep(rng.random() * 0.02)  # stop while the workers are somewhere in their next results
        stopping = threading.Thread(target=pool.stop, daemon=True)
        stopping.start()
        stopping.join(20)
        assert not stopping.is_alive(), "the workers' stop did not return"


def test_results_come_back_in_job_order() -> None:
    with process_pool(2) as pool:
        assert list(in_workers_order(pool, _square, range(25))) == [i * i for i in range(25)]


def test_a_jobs_exception_reaches_the_caller_and_the_workers_go_on() -> None:
    with process_pool(2) as pool:
        refused = pool.apply_async(_refuse, (4,))
        with pytest.raises(FiveHundredError, match="job 4 refused"):
            refused.get()
        assert pool.apply_async(_square, (9,)).get() == 81


def test_a_worker_that_dies_is_an_error_naming_it() -> None:
    with process_pool(2) as pool, pytest.raises(WorkerDied, match=r"fivehundred-worker-\d .*exit code 3"):
        pool.apply_async(_die, (0,)).get()
