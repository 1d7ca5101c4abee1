"""A Dask scheduler address whose server accepts connections and never answers: a clear error within the
connection timeout, never a hang.  Workers that die mid-run: their chunks are played again by the workers
left, and the run gives the games one local worker gives; a chunk no worker survives, or a cluster left
with no worker, is one clear line and exit 1."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import one_line_error, run, write

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

    def result(self, timeout: float | None = None) -> None:
        raise self.error


class ClusterLosingItsWorkers:
    """A client whose every chunk is lost, as when every worker of the cluster is killed mid-run."""

    def __init__(self, error: Exception):
        self.error = error

    def nthreads(self) -> dict[str, int]:
        return {"tcp://worker": 1}

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
    with pytest.raises(ClusterError, match=f"lost game 1 of the batch \\({type(error).__name__}"):
        fivehundred.simulate(4, 0, players="random", scheduler=client, out=out)
    assert not out.exists()


# --- real clusters whose workers die -------------------------------------------------------------------


def killing(games_killed: set[int], marker: Path | None) -> Any:
    """``play_chunk`` whose worker process dies on a chunk holding one of ``games_killed``: once (the
    first time, leaving ``marker``), or every time when ``marker`` is None."""
    import os

    def play(batch: Any, start: int, stop: int) -> Any:
        # Looked up in the worker, where the module is not patched (a compiled function pickles by reference,
        # and here that reference would name this wrapper).
        from fivehundred.batch.simulation import play_chunk

        if games_killed & set(range(start, stop)) and (marker is None or not marker.exists()):
            if marker is not None:
                marker.touch()
            os._exit(1)  # the worker process dies at once, as under SIGKILL
        return play_chunk(batch, start, stop)

    return play


@pytest.fixture
def dying_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A local cluster of two worker processes, each restarted by its nanny when it dies; a chunk is
    given up after one worker died playing it."""
    import dask
    from distributed import LocalCluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 30)  # workers restart slowly on a busy machine
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local


@pytest.mark.timeout(300)
def test_a_chunk_whose_worker_dies_is_played_by_another(tmp_path: Path, dying_cluster: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from fivehundred.batch import simulation

    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    expected = fivehundred.simulate(40, 5, players="random", out=local)
    monkeypatch.setattr(simulation, "play_chunk", killing({17}, tmp_path / "died-once"))
    summary = fivehundred.simulate(40, 5, players="random", out=remote, scheduler=dying_cluster.scheduler_address)
    assert (tmp_path / "died-once").exists()  # a worker did die, holding game 17
    assert summary.as_dict() == expected.as_dict()
    assert remote.read_bytes() == local.read_bytes()


@pytest.mark.timeout(300)
def test_a_chunk_no_worker_survives_is_one_line_and_exit_1(tmp_path: Path, dying_cluster: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from fivehundred.batch import simulation

    out = write(tmp_path / "games.jsonl", "previous\n")
    monkeypatch.setattr(simulation, "play_chunk", killing({17}, None))
    result = run("simulate", "-n", "40", "-p", "random", "-o", out, "--scheduler", dying_cluster.scheduler_address)
    output = one_line_error(result, f"the Dask cluster at {dying_cluster.scheduler_address} lost game 18 of",
                            "KilledWorker", "the run stopped")
    assert len(output.strip().splitlines()) == 1
    assert out.read_text() == "previous\n"  # as after any failure: the output is left as it was


@pytest.mark.timeout(300)
def test_a_cluster_left_with_no_worker_is_one_line_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import Client, LocalCluster

    monkeypatch.setattr(cluster, "WORKERLESS_WAIT", 2)
    monkeypatch.setattr(cluster, "POLL", 0.2)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as local, \
            Client(local, set_as_default=False) as client:
        def leave(done: int) -> None:  # after the first chunk, every worker leaves for good
            local.scale(0)

        with pytest.raises(ClusterError, match="has had no worker for 2 s, with game"):
            fivehundred.simulate(400, 1, players="random", scheduler=client, progress=leave)
