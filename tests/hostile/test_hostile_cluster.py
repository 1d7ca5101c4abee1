"""A Dask scheduler address whose server accepts connections and never answers: a clear error within the
connection timeout, never a hang."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import one_line_error, run

import fivehundred
from fivehundred.batch import cluster
from fivehundred.batch.cluster import ClusterError

pytest.importorskip("distributed")

WAIT = 1
"""The connection timeout for these tests (the shipped one, ``CONNECT_TIMEOUT``, is 5 s)."""


@pytest.fixture(autouse=True)
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", WAIT)


@pytest.fixture
def silent_server() -> Iterator[str]:
    """tcp://127.0.0.1:PORT of a socket that accepts every connection and says nothing."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()


@pytest.mark.timeout(30)
def test_a_silent_scheduler_is_an_error_not_a_hang(silent_server: str) -> None:
    with pytest.raises(ClusterError, match=f"no answer within {WAIT} s"):
        fivehundred.simulate(2, 0, players="random", scheduler=silent_server)


@pytest.mark.timeout(30)
def test_the_cli_says_so_in_one_line(silent_server: str) -> None:
    output = one_line_error(run("simulate", "-n", "2", "--scheduler", silent_server),
                            f"cannot reach the Dask scheduler at {silent_server}")
    assert len(output.strip().splitlines()) == 1


class LostFuture:
    def __init__(self, error: Exception):
        self.error = error

    def result(self) -> None:
        raise self.error


class ClusterLosingItsWorkers:
    """A client whose every chunk is lost, as when every worker of the cluster is killed mid-run."""

    def __init__(self, error: Exception):
        self.error = error

    def nthreads(self) -> dict[str, int]:
        return {"tcp://worker": 1}

    def scatter(self, data: object, **kwargs: object) -> object:
        return data

    def submit(self, *args: object, **kwargs: object) -> LostFuture:
        return LostFuture(self.error)


def lost_errors() -> list[Exception]:
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    return [FutureCancelledError("key", reason="scheduler-connection-lost"), KilledWorker("key", "tcp://worker", 3)]


@pytest.mark.parametrize("error", lost_errors(), ids=lambda e: type(e).__name__)
def test_lost_workers_end_in_one_clear_line(tmp_path: Path, error: Exception) -> None:
    out = tmp_path / "t.jsonl"
    client: Any = ClusterLosingItsWorkers(error)
    with pytest.raises(ClusterError, match=f"lost the games of a chunk \\({type(error).__name__}"):
        fivehundred.simulate(4, 0, players="random", scheduler=client, out=out)
    assert not out.exists()
