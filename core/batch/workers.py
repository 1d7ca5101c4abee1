"""Local worker processes: each runs the jobs sent to it one at a time, over a pipe of its own.

``multiprocessing.Pool`` shares one pipe for every worker's results, guarded by a lock the workers hold while they
write, and read by a thread of the pool's: stopping it while a worker writes a result larger than the pipe holds
(a chunk's game records) can leave that worker waiting for a reader that has stopped, holding the lock the stop
waits for, or leave a result cut short that the pool's reader then waits on for ever (a run stopped by SIGTERM
that never ends).  Here nothing is shared: a worker's pipe is its own and nothing waits on it once the worker is
stopped, and a worker that dies is an error naming it, not a wait."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from fivehundred.rules.errors import FiveHundredError

STOP_WAIT = 5.0
"""Seconds a stopped worker has to exit after SIGTERM before it is killed."""


class WorkerDied(FiveHundredError):
    """A worker process ended while it held a job (killed, out of memory, a crash in compiled code)."""


class Job:
    """A job sent to the workers: ``get()`` waits for its result, or raises what it raised."""

    def __init__(self, workers: Workers) -> None:
        self._workers = workers
        self.done = False
        self._ok = False
        self._value: Any = None

    def finish(self, ok: bool, value: Any) -> None:
        self.done, self._ok, self._value = True, ok, value

    def get(self) -> Any:
        while not self.done:
            self._workers.collect()
        if not self._ok:
            raise self._value
        return self._value


class Workers:
    """``count`` worker processes (forked where the platform can), each set up by ``initializer(*initargs)``.

    ``apply_async(func, args)`` queues a job, the first idle worker takes it; results are read as the caller
    waits for one (``Job.get``).  Stop them with ``stop()`` (a ``with`` block does)."""

    def __init__(self, count: int, initializer: Callable[..., None], initargs: tuple[Any, ...] = ()) -> None:
        methods = multiprocessing.get_all_start_methods()
        ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.count = count
        self._processes: list[Any] = []
        self._pipes: list[Connection] = []
        self._waiting: deque[tuple[Job, Callable[..., Any], tuple[Any, ...]]] = deque()
        self._held: dict[int, Job] = {}
        """The job each busy worker holds, by worker."""
        self._idle: deque[int] = deque()
        try:
            for _ in range(count):
                ours, theirs = ctx.Pipe()
                process = ctx.Process(target=_serve, args=(theirs, initializer, initargs), daemon=True,
                                      name=f"fivehundred-worker-{len(self._processes) + 1}")
                process.start()
                theirs.close()
                self._processes.append(process)
                self._pipes.append(ours)
        except BaseException:
            self.stop()
            raise
        self._idle.extend(range(count))

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def apply_async(self, func: Callable[..., Any], args: tuple[Any, ...] = ()) -> Job:
        job = Job(self)
        self._waiting.append((job, func, args))
        self._hand_out()
        return job

    def collect(self) -> None:
        """Wait for at least one busy worker's result; hand the waiting jobs to the workers freed."""
        if not self._held:
            raise RuntimeError("no job is running")  # a job waited on but never handed out: a bug here
        busy = {self._pipes[w]: w for w in self._held}
        for ready in wait(list(busy)):
            pipe = cast(Connection, ready)
            worker = busy[pipe]
            try:
                ok, value = pipe.recv()
            except (EOFError, OSError):
                process = self._processes[worker]
                process.join(1.0)
                raise WorkerDied(f"worker process {process.name} (pid {process.pid}) ended, exit code "
                                 f"{process.exitcode}, while running a job; the run stopped") from None
            self._held.pop(worker).finish(ok, value)
            self._idle.append(worker)
        self._hand_out()

    def _hand_out(self) -> None:
        while self._idle and self._waiting:
            worker = self._idle.popleft()
            job, func, args = self._waiting.popleft()
            self._pipes[worker].send((func, args))
            self._held[worker] = job

    def stop(self) -> None:
        """Stop every worker (SIGTERM, then SIGKILL after ``STOP_WAIT`` s), whatever it is doing; the jobs not
        finished are dropped.  Calling it again does nothing more."""
        for process in self._processes:
            if process.exitcode is None:
                process.terminate()
        for process in self._processes:
            process.join(STOP_WAIT)
            if process.exitcode is None:
                process.kill()
                process.join()
        for pipe in self._pipes:
            pipe.close()
        self._processes, self._pipes = [], []
        self._held.clear()
        self._waiting.clear()
        self._idle.clear()


def _serve(pipe: Connection, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's life: set up, then run each job received and send back (True, result) or (False, exception)."""
    initializer(*initargs)
    while True:
        try:
            func, args = pipe.recv()
        except EOFError:  # the parent has gone
            return
        try:
            result: tuple[bool, Any] = (True, func(*args))
        except Exception as e:  # handed to the parent, which raises it where it waits
            result = (False, e)
        try:
            pipe.send(result)
        except Exception as e:  # a result or an exception that cannot be pickled
            pipe.send((False, RuntimeError(f"a worker's result could not be sent back: {type(e).__name__}: {e}")))
