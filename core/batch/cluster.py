"""Batches on a Dask distributed cluster: the same chunks as local workers, streamed back in game order.

Needs ``distributed`` (``pip install 'fivehundred[cluster]'``), imported only when a scheduler is
given.  Every worker of the cluster must have fivehundred (and any plugin the ruleset or players
name) installed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from fivehundred.rules.errors import FiveHundredError
from fivehundred.rules.extras import require

from .chunks import chunk_size, game_chunks, in_order

if TYPE_CHECKING:
    from distributed import Client

T = TypeVar("T")

CONNECT_TIMEOUT = 5
"""Seconds to wait for the scheduler to answer, and for a worker to join an empty cluster."""

WORKERLESS_WAIT = 30
"""Seconds a run waits, once every worker of the cluster has died or left, for one to join (a nanny
restarting its worker takes a few) before it stops with a ``ClusterError``."""

POLL = 1.0
"""Seconds between looks at the cluster's workers while a chunk is awaited."""


class ClusterError(FiveHundredError):
    """A Dask scheduler that cannot be reached, or a cluster with no worker to play on."""


class Cluster:
    """A connected Dask client, playing the chunks of a batch on its workers."""

    def __init__(self, client: Client, address: str):
        self.client = client
        self.address = address

    def threads(self) -> int:
        """The worker threads of the cluster (waiting briefly for one to join an empty cluster)."""
        nthreads = self.client.nthreads()
        if not nthreads:
            try:
                self.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                raise ClusterError(f"the Dask cluster at {self.address} has no worker") from None
            nthreads = self.client.nthreads()
        return max(1, sum(nthreads.values()))

    def results(self, play: Callable[[Any, int, int], T], batch: Any, games: int) -> Generator[T, None, None]:
        """``play(batch, start, stop)`` for each chunk of ``games``, the results in game order, with a
        bounded number of chunks in flight.  A chunk whose worker dies is played again by another (Dask
        retries it on the workers left, up to its ``allowed-failures``); a chunk no worker can take is a
        ``ClusterError``."""
        client = self.client
        threads = self.threads()

        def submit(job: tuple[int, int]) -> tuple[tuple[int, int], Any]:
            # The batch (a few KiB) travels with each chunk, not scattered once: scattered data dies with the
            # workers holding it, and with it every chunk still to play, even on the workers that replace them.
            return job, client.submit(play, batch, job[0], job[1], pure=False)

        def get(submitted: tuple[tuple[int, int], Any]) -> T:
            (start, stop), future = submitted
            games = f"games {start + 1}–{stop}" if stop - start > 1 else f"game {stop}"
            from concurrent.futures import CancelledError

            from distributed.scheduler import KilledWorker

            workerless_since: float | None = None
            while True:
                try:
                    result: T = future.result(timeout=POLL)
                    return result
                except (CancelledError, KilledWorker) as e:  # the scheduler gave up: its workers died or left
                    raise ClusterError(f"the Dask cluster at {self.address} lost {games} of the batch "
                                       f"({type(e).__name__}: the workers playing them died or left and none "
                                       "took them over); the run stopped") from None
                except TimeoutError:  # still running, or waiting for a worker
                    if client.nthreads():
                        workerless_since = None
                        continue
                    workerless_since = workerless_since or time.monotonic()
                    if time.monotonic() - workerless_since > WORKERLESS_WAIT:
                        raise ClusterError(f"the Dask cluster at {self.address} has had no worker for "
                                           f"{WORKERLESS_WAIT} s, with {games} of the batch still to play: every "
                                           "worker died or left; the run stopped") from None

        # Futures still pending when the caller stops (Ctrl-C) are released with this generator.
        yield from in_order(submit, get, game_chunks(games, chunk_size(games, threads)), window=2 * threads + 2)


SCHEMES = ("tcp", "tls", "ws", "wss")
"""The protocols of a scheduler another process can reach (``inproc://`` lives inside one process; Dask
dropped ``ucx://``)."""


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _client(address: str) -> Client:
    distributed = require("distributed", "cluster", "running on a Dask cluster (--scheduler)")
    from distributed.comm import resolve_address

    scheme = address.partition("://")[0] if "://" in address else "tcp"
    if scheme in ("inproc", "ucx"):
        raise ClusterError(f"invalid Dask scheduler address {address!r}: the {scheme}:// protocol cannot be used "
                           f"here; give tcp://HOST:PORT (or {', '.join(s + '://' for s in SCHEMES[1:])})")
    try:
        resolve_address(address)
    except (ValueError, OSError) as e:
        raise ClusterError(f"invalid Dask scheduler address {address!r}: {_first_line(e)}") from None
    _handshake(address)
    try:
        client: Client = distributed.Client(address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
    except (OSError, TimeoutError):
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: no answer within {CONNECT_TIMEOUT} s "
                           "(is it running, and is the address right?)") from None
    except Exception as e:  # a protocol's own failure (TLS without a certificate …), said in one line
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: {_first_line(e)}") from None
    return client


def _handshake(address: str) -> None:
    """Open one connection to the scheduler and close it, within ``CONNECT_TIMEOUT`` seconds: a server that
    accepts the connection and never answers would otherwise keep ``distributed.Client`` waiting for good."""
    from distributed.comm import connect as open_comm

    async def handshake() -> None:
        comm = await asyncio.wait_for(open_comm(address, timeout=CONNECT_TIMEOUT), CONNECT_TIMEOUT)
        await comm.close()

    with ThreadPoolExecutor(1) as thread:  # its own event loop, whatever loop the caller runs
        try:
            thread.submit(asyncio.run, handshake()).result()
        except (OSError, TimeoutError):
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: no answer within {CONNECT_TIMEOUT} s "
                               "(is it running, and is the address right?)") from None
        except Exception as e:  # a protocol's own failure (TLS without a certificate …), in one line
            raise ClusterError(f"cannot connect to the Dask scheduler at {address}: {_first_line(e)}") from None


@contextmanager
def connect(scheduler: str | Client) -> Iterator[Cluster]:
    """A ``Cluster`` on a scheduler address (connected here, closed after) or on a caller's client."""
    if isinstance(scheduler, str):
        client = _client(scheduler)
        try:
            yield Cluster(client, scheduler)
        finally:
            client.close()
    else:
        yield Cluster(scheduler, _address(scheduler))


def _address(client: Client) -> str:
    rpc = getattr(client, "scheduler", None)
    return str(getattr(rpc, "address", None) or "the client's scheduler")
