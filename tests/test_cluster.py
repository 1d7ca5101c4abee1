"""Batches on a Dask cluster: the same records and summary as one local worker, in game order."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from extras import need

need("distributed", "cluster")
need("pyarrow", "parquet")

import pyarrow.parquet as pq  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402
from typer.testing import CliRunner, Result  # noqa: E402

import fivehundred  # noqa: E402
from fivehundred.batch.cluster import ClusterError  # noqa: E402
from fivehundred.cli.app import app  # noqa: E402
from fivehundred.rules.extras import MissingExtraError  # noqa: E402


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, set_as_default=False) as c:
        yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.parametrize(("games", "players"), [(300, "random"), (6, "heuristic,random,heuristic,random")])
def test_records_and_summary_match_one_local_worker(tmp_path: Path, client: Client, games: int,
                                                    players: str) -> None:
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    a = fivehundred.simulate(games, 17, players=players, out=local)
    b = fivehundred.simulate(games, 17, players=players, out=remote, scheduler=client)
    assert b.as_dict() == a.as_dict()
    assert remote.read_bytes() == local.read_bytes()
    assert [json.loads(line)["game"] for line in remote.read_text().splitlines()] == list(range(games))


def test_parquet_from_the_cluster_by_address(tmp_path: Path, cluster: LocalCluster) -> None:
    local, remote = tmp_path / "local.parquet", tmp_path / "remote.parquet"
    a = fivehundred.simulate(250, 2, "six-handed-three-teams", "random", out=local)
    b = fivehundred.simulate(250, 2, "six-handed-three-teams", "random", out=remote,
                             scheduler=cluster.scheduler_address)
    assert b.as_dict() == a.as_dict()
    assert pq.read_table(remote).equals(pq.read_table(local))


def test_progress_in_chunks_and_ctrl_c_keeps_whole_games(tmp_path: Path, client: Client) -> None:
    out = tmp_path / "games.jsonl"
    seen: list[int] = []

    def interrupt(n: int) -> None:
        seen.append(n)
        if len(seen) == 3:
            raise KeyboardInterrupt

    summary = fivehundred.simulate(1000, 6, players="random", out=out, scheduler=client, progress=interrupt)
    assert summary.interrupted and 0 < summary.games == sum(seen) < 1000
    lines = out.read_text().splitlines()
    assert [json.loads(line)["game"] for line in lines] == list(range(summary.games))
    finished = fivehundred.simulate(summary.games, 6, players="random")
    assert summary.as_dict() | {"interrupted": False} == finished.as_dict()


def test_workers_and_scheduler_exclude_each_other(client: Client) -> None:
    with pytest.raises(ValueError, match="exclude each other"):
        fivehundred.simulate(4, scheduler=client, workers=2)


# --- the command line --------------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["simulate", "-n", "40", "-p", "random", "--seed", "3", "--json", *args])


def test_cli_scheduler_gives_the_local_summary(cluster: LocalCluster) -> None:
    local, remote = run(), run("--scheduler", cluster.scheduler_address)
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_cli_unreachable_scheduler_is_a_user_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("fivehundred.batch.cluster.CONNECT_TIMEOUT", 1)
    out = tmp_path / "games.jsonl"
    address = f"tcp://127.0.0.1:{free_port()}"
    result = run("--scheduler", address, "--out", str(out))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"cannot reach the Dask scheduler at {address}" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()  # nothing written before the cluster answers


def test_cli_bad_address_and_workers_with_scheduler() -> None:
    bad = run("--scheduler", "nonsense")
    assert bad.exit_code == 1 and "invalid Dask scheduler address" in bad.stderr
    both = run("--scheduler", "tcp://127.0.0.1:8786", "--workers", "2")
    assert both.exit_code == 2 and "exclude each other" in both.stderr


def test_without_distributed_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'fivehundred\[cluster\]'"):
        fivehundred.simulate(2, scheduler="tcp://127.0.0.1:8786")
    result = run("--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 1 and "fivehundred[cluster]" in result.stderr


def test_cluster_error_is_a_user_error() -> None:
    assert issubclass(ClusterError, fivehundred.FiveHundredError)
