"""Batch simulation: seeded, reproducible games with bots, streamed, summarised.

Game ``i`` of a batch with seed ``s`` is a pure function of (ruleset, ``s``, ``i``, players):
its deal generator and each player's generator are seeded from those alone (one hash of
``f"{s}:{i}"``, see ``fivehundred.engine.seeding``), so a batch gives the same records and summary
with any number of workers.
"""

from __future__ import annotations

import math
import random
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, TypeVar

from fivehundred.engine.seeding import game_generators
from fivehundred.engine.state import GameState
from fivehundred.records.columns import Row, hand_rows
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.inputs import check_seed
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import compile_rules, player_factories, player_maker
from fivehundred.rules.outputs import Replacement, check_outputs
from fivehundred.rules.ruleset import Ruleset

from .chunks import chunk_size, game_chunks, in_order, process_pool, quiet_worker
from .cluster import connect

if TYPE_CHECKING:
    from distributed import Client

MAX_DEALS = 1000
"""A game still unfinished after this many deals is abandoned (reported, never silently dropped)."""


DEFAULT_PLAYER = "club"
"""The player in every seat when none is named (``heuristic``, the older rule-of-thumb player, stays
available by name)."""


def seat_players(ruleset: Ruleset, players: str | Sequence[str] | None) -> list[str]:
    """A player spec per seat of ``ruleset`` from ``players`` (one name for every seat, or one per seat; None: the
    default player), each name checked against the installed players."""
    seats = len(ruleset.players.seats)
    if players is None:
        names = [DEFAULT_PLAYER]
    elif isinstance(players, str):
        names = [p.strip() for p in players.split(",") if p.strip()]
    else:
        names = list(players)
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise ValueError(f"{len(names)} players given for {seats} seats ({', '.join(ruleset.players.seats)})")
    known = player_factories()
    for name in names:
        if name.partition(":")[0] not in known:
            from fivehundred.rules.errors import unknown_name

            raise unknown_name("player", name.partition(":")[0], known)
    return names


def run_game(state: GameState, rng: random.Random, players: Sequence[Any], max_deals: int = MAX_DEALS) -> GameState:
    """Drive ``state`` to the end with ``players`` (one per seat) dealing from ``rng``."""
    state.play_out(players, rng, max_deals)
    return state


def play_game(ruleset: Ruleset | str = "pagat-australian", seed: int | str = 0,
              players: str | Sequence[str] | None = None, *, game: int = 0,
              max_deals: int = MAX_DEALS) -> GameState:
    """Play one game; ``(ruleset, seed, game, players)`` fixes every card of it."""
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return _play(rs, seed, seat_players(rs, players), game, max_deals)


def _play(rs: Ruleset, seed: int | str, names: Sequence[str], game: int, max_deals: int) -> GameState:
    return _Games(rs, seed, names).play(game, max_deals)


class _Games:
    """The games of one batch: what they share (compiled rules, player factories) looked up once,
    then each game set up from its seed alone."""

    def __init__(self, rs: Ruleset, seed: int | str, names: Sequence[str]):
        self.rules = compile_rules(rs)
        self.seed = seed
        self.makers = list(enumerate(player_maker(name) for name in names))

    def play(self, game: int, max_deals: int) -> GameState:
        # The deal generator is new_game(rs, f"{seed}:{game}")'s; the players share the other one.
        deal_rng, players_rng = game_generators(f"{self.seed}:{game}")
        state = GameState(self.rules, rng=deal_rng)
        state.play_out([make(seat, players_rng) for seat, make in self.makers], deal_rng, max_deals)
        return state


# --- statistics ---------------------------------------------------------------------------


@dataclass(slots=True)
class GameStats:
    """The few numbers of one game that the summary needs (cheap to send between processes)."""

    deals: int
    contracts: list[tuple[str, str, bool]]
    """(call, contract type, made) per played hand."""
    winner: str | None
    totals: list[int]
    misere: list[bool] = field(default_factory=list)
    """Per misère played (a contract of kind ``misere``, whatever its call: nullo, patastrophe …): made."""


def _contract_type(call: str, kind: str, trump: int | None) -> str:
    if kind == "misere":
        return call
    return "NT" if trump is None else "SCDH"[trump]


def game_stats(state: GameState) -> GameStats:
    contracts, misere = [], []
    for log in state.hands_log:
        outcome = log.outcome
        if outcome is not None:
            c = outcome.contract
            made = outcome.contractor >= 0 and outcome.made  # as scored: the contract's own test of the side's tricks
            contracts.append((c.call, _contract_type(c.call, c.kind, c.trump), made))
            if outcome.kind == "misere":
                misere.append(made)
    winner = state.rules.team_names[state.result.winner] if state.result else None
    return GameStats(state.deals, contracts, winner, list(state.totals), misere)


@dataclass
class Running:
    """Count, mean, minimum and maximum of a stream of numbers, in constant memory."""

    n: int = 0
    total: int = 0
    low: int | None = None
    high: int | None = None

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        if self.low is None or x < self.low:
            self.low = x
        if self.high is None or x > self.high:
            self.high = x

    def merge(self, other: Running) -> None:
        """Fold in the numbers ``other`` has seen (as if they had been added here)."""
        self.n += other.n
        self.total += other.total
        if other.low is not None:
            self.low = other.low if self.low is None else min(self.low, other.low)
        if other.high is not None:
            self.high = other.high if self.high is None else max(self.high, other.high)

    @property
    def mean(self) -> float | None:
        return round(self.total / self.n, 2) if self.n else None


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a rate (honest for small n and rates near 0 or 1)."""
    if n == 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def _count(table: dict[str, list[int]], key: str, made: bool) -> None:
    """One more contract under ``key``: [played, made]."""
    entry = table.get(key)
    if entry is None:
        entry = table[key] = [0, 0]
    entry[0] += 1
    entry[1] += made


@dataclass
class Summary:
    """Statistics of a batch, kept in constant memory; ``as_dict()`` is what ``--json`` prints."""

    ruleset: str
    seed: int | str
    players: list[str]
    teams: list[str]
    games: int = 0
    unfinished: int = 0
    deals: int = 0
    hands_played: int = 0
    interrupted: bool = False
    kept: str | None = None
    """Where the games of a run stopped by Ctrl-C are, when not in the output asked for (an earlier file
    there is left as it was)."""
    by_type: dict[str, list[int]] = field(default_factory=dict)
    by_call: dict[str, list[int]] = field(default_factory=dict)
    misere: list[int] = field(default_factory=lambda: [0, 0])
    """Misères played and made (by the contract's kind, not its call)."""
    wins: dict[str, int] = field(default_factory=dict)
    hands_per_game: Running = field(default_factory=Running)
    winner_totals: Running = field(default_factory=Running)
    loser_totals: Running = field(default_factory=Running)

    def add(self, stats: GameStats) -> None:
        self.games += 1
        self.deals += stats.deals
        self.hands_played += len(stats.contracts)
        self.hands_per_game.add(len(stats.contracts))
        by_type, by_call = self.by_type, self.by_call
        for call, kind, made in stats.contracts:
            _count(by_type, kind, made)
            _count(by_call, call, made)
        self.misere[0] += len(stats.misere)
        self.misere[1] += sum(stats.misere)
        if stats.winner is None:
            self.unfinished += 1
            return
        self.wins[stats.winner] = self.wins.get(stats.winner, 0) + 1
        w = self.teams.index(stats.winner)
        self.winner_totals.add(stats.totals[w])
        for i, t in enumerate(stats.totals):
            if i != w:
                self.loser_totals.add(t)

    def merge(self, other: Summary) -> None:
        """Fold in the games of ``other`` (a part of the same batch): as if they had been added here."""
        self.games += other.games
        self.unfinished += other.unfinished
        self.deals += other.deals
        self.hands_played += other.hands_played
        for mine, theirs in ((self.by_type, other.by_type), (self.by_call, other.by_call)):
            for key, (n, made) in theirs.items():
                entry = mine.setdefault(key, [0, 0])
                entry[0] += n
                entry[1] += made
        self.misere[0] += other.misere[0]
        self.misere[1] += other.misere[1]
        for team, wins in other.wins.items():
            self.wins[team] = self.wins.get(team, 0) + wins
        self.hands_per_game.merge(other.hands_per_game)
        self.winner_totals.merge(other.winner_totals)
        self.loser_totals.merge(other.loser_totals)

    def as_dict(self) -> dict[str, Any]:
        def rate(made: int, n: int) -> float | None:
            return round(made / n, 4) if n else None

        def rates(made: int, n: int) -> dict[str, Any]:
            return {"played": n, "made": made, "make_rate": rate(made, n), "ci95": wilson(made, n)}

        attempts, successes = self.misere
        finished = self.games - self.unfinished
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "players": self.players,
            "games": self.games,
            "interrupted": self.interrupted,
            "unfinished": self.unfinished,
            "deals": self.deals,
            "hands_played": self.hands_played,
            "passed_out": self.deals - self.hands_played,
            "hands_per_game": {"mean": self.hands_per_game.mean, "min": self.hands_per_game.low,
                               "max": self.hands_per_game.high},
            "contracts": {k: rates(m, n) for k, (n, m) in sorted(self.by_type.items())},
            "contracts_by_call": {k: rates(m, n) for k, (n, m) in sorted(self.by_call.items())},
            "misere": {"attempts": attempts, "successes": successes, "success_rate": rate(successes, attempts),
                       "ci95": wilson(successes, attempts)},
            "wins": {team: self.wins.get(team, 0) for team in self.teams},
            "win_rate": {team: rate(self.wins.get(team, 0), finished) for team in self.teams},
            "win_rate_ci95": {team: wilson(self.wins.get(team, 0), finished) for team in self.teams},
            "scores": {"winner_mean": self.winner_totals.mean, "loser_mean": self.loser_totals.mean,
                       "winner_min": self.winner_totals.low, "winner_max": self.winner_totals.high,
                       "loser_min": self.loser_totals.low, "loser_max": self.loser_totals.high},
        }


# --- batches ------------------------------------------------------------------------------

Output = Literal["none", "jsonl", "rows"]
"""What a worker sends back for its games besides their summary: nothing, JSON Lines, or table rows."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Batch:
    """What every game of a batch shares; sent once to each worker (process or cluster node)."""

    ruleset: Ruleset
    seed: int | str
    players: tuple[str, ...]
    output: Output
    max_deals: int
    dd: bool = False
    """Each deal's row gets its double-dummy table and par (``fivehundred.batch.par_deals.dd_row``)."""


Chunk = tuple[Summary, Any]
"""A chunk's result: the summary of its games, and their output (the JSON Lines text of the chunk,
or each game's rows, or None)."""


def play_chunk(batch: Batch, start: int, stop: int) -> Chunk:
    """Games ``start`` to ``stop - 1`` of a batch: their summary and their output, in game order.

    Only the chunk's summary and output travel back from a worker, not a message per game.
    """
    rs, names = batch.ruleset, list(batch.players)
    summary = Summary(rs.name, batch.seed, names, [t.name for t in rs.players.teams])
    lines: list[str] = []
    rows: list[list[Row]] = []
    games = _Games(rs, batch.seed, names)
    for game in range(start, stop):
        state = games.play(game, batch.max_deals)
        summary.add(game_stats(state))
        if batch.output == "jsonl":
            lines.append(dumps(game_to_dict(state, seed=batch.seed, game=game, players=names)) + "\n")
        elif batch.output == "rows":
            rows.append(hand_rows(state, seed=batch.seed, game=game))
            if batch.dd:
                from .par_deals import game_dd_rows

                rows[-1] = [row + dd for row, dd in zip(rows[-1], game_dd_rows(state), strict=True)]
    return summary, ("".join(lines) if batch.output == "jsonl" else rows if batch.output == "rows" else None)


# --- output -------------------------------------------------------------------------------


class _Sink:
    """Where the finished games go, a chunk at a time, in game order."""

    output: Output = "none"

    def add(self, output: Any, games: int) -> None:
        """The output of one more chunk of ``games`` finished games."""

    def close(self, failed: bool, complete: bool = True) -> str | None:
        """Finish the output: complete, it replaces the file; stopped by Ctrl-C (not ``complete``), it
        replaces no earlier file (the games finished stay beside it) but makes a new one; after a failure
        the file is left as it was.  Returns where the games finished are (None: nowhere)."""
        return None


class _JsonLines(_Sink):
    output: Output = "jsonl"

    def __init__(self, out: Replacement | IO[str]):
        self.out = out

    def add(self, output: Any, games: int) -> None:
        if isinstance(self.out, Replacement):
            self.out.write(output.encode("utf-8"), games)
        else:
            self.out.write(output)

    def close(self, failed: bool, complete: bool = True) -> str | None:
        if not isinstance(self.out, Replacement):
            return None
        if failed:
            self.out.abandon()
            return None
        where = self.out.commit(complete)
        return None if where is None else str(where)


class _Table(_Sink):
    output: Output = "rows"

    def __init__(self, path: str | Path, rules: Any, seed: int | str, names: Sequence[str], dd: bool = False):
        from fivehundred.records.parquet import ParquetSink

        from .par_deals import dd_column_types

        self.parquet = ParquetSink(path, rules, seed, names, extra=dd_column_types(rules) if dd else ())

    def add(self, output: Any, games: int) -> None:
        for rows in output:
            self.parquet.add(rows)

    def close(self, failed: bool, complete: bool = True) -> str | None:
        return self.parquet.close(failed, complete)


def is_parquet(out: str | Path | IO[str] | None) -> bool:
    return isinstance(out, (str, Path)) and str(out).lower().endswith(".parquet")


def _open_sink(out: str | Path | IO[str] | None, rs: Ruleset, seed: int | str, names: Sequence[str],
               dd: bool = False) -> _Sink:
    if out is None:
        return _Sink()
    if is_parquet(out):
        assert isinstance(out, (str, Path))
        return _Table(out, compile_rules(rs), seed, names, dd)
    if isinstance(out, (str, Path)):
        return _JsonLines(Replacement(out))
    return _JsonLines(out)


# --- the batch ----------------------------------------------------------------------------


def simulate(games: int = 100, seed: int | str = 0, ruleset: Ruleset | str | Path = "pagat-australian",
             players: str | Sequence[str] | None = None, *, workers: int = 1, out: str | Path | IO[str] | None = None,
             progress: Callable[[int], None] | None = None, max_deals: int = MAX_DEALS,
             scheduler: str | Client | None = None, dd: bool = False) -> Summary:
    """Play ``games`` seeded games and return their ``Summary``; stream each game to ``out``.

    ``out`` is a path or a text stream: a path ending in ``.parquet`` gets one row per deal (see
    ``fivehundred.records.columns``; needs ``fivehundred[parquet]``), anything else JSON Lines records.
    ``workers`` processes play on this machine; ``scheduler`` (a Dask scheduler address or a
    ``distributed.Client``; needs ``fivehundred[cluster]``) plays on a Dask cluster instead.
    The records and the summary depend only on (ruleset, seed, players, games): not on ``workers``
    nor on the cluster.  ``progress`` is called with the number of games just finished.  ``players``:
    one name for every seat, or one per seat (default ``DEFAULT_PLAYER``, the club player).  ``dd``: each
    deal's Parquet row also gets its double-dummy table and par (``dd_*``, ``par_*``: docs/par.md; seconds a deal).
    """
    if scheduler is not None and workers != 1:
        raise ValueError("workers and scheduler exclude each other: the cluster's workers play the games")
    check_seed(seed)
    if dd and not is_parquet(out):
        raise ValueError("dd adds columns to the Parquet rows: give out a path ending in .parquet")
    if isinstance(out, (str, Path)):
        check_outputs([out], [ruleset] if not isinstance(ruleset, Ruleset) and Path(ruleset).exists() else [])
    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    names = seat_players(rs, players)
    compile_rules(rs)  # fail early (and once) on a ruleset the plugins cannot compile
    summary = Summary(rs.name, seed, names, [t.name for t in rs.players.teams])
    try:
        with _Interrupts() as interrupts, ExitStack() as stack:
            if scheduler is not None:
                cluster = stack.enter_context(connect(scheduler))
            sink = _open_sink(out, rs, seed, names, dd)

            def close(kind: Any, error: Any, tb: Any) -> None:
                stopped = kind is not None and issubclass(kind, KeyboardInterrupt)
                where = sink.close(failed=kind is not None and not stopped, complete=kind is None)
                if stopped and where is not None and where != str(out):
                    summary.kept = where

            stack.push(close)
            batch = Batch(rs, seed, tuple(names), sink.output, max_deals, dd)
            results: Generator[Chunk, None, None]
            if scheduler is not None:
                results = cluster.results(play_chunk, batch, games)
            elif workers > 1:
                results = _pool_results(stack, batch, games, workers)
            else:
                results = (play_chunk(batch, a, b) for a, b in game_chunks(games, chunk_size(games, 1)))
            stack.callback(results.close)  # after Ctrl-C: drop the jobs in flight (a cluster forgets their futures)
            for part, output in results:
                with interrupts.deferred():
                    sink.add(output, part.games)
                    summary.merge(part)
                if progress is not None:
                    progress(part.games)
    except KeyboardInterrupt:
        # Ctrl-C: whole games only are written and counted, so the partial output stays valid.
        summary.interrupted = True
    return summary


class _Interrupts:
    """Ctrl-C (or SIGTERM, handled alike) while a chunk is being written and counted takes effect once
    it is done, so that the file and the summary always hold the same whole games; at any other time,
    at once; a second one while the run stops is ignored (the output is being closed).  Handlers a
    caller installed itself are left alone."""

    def __init__(self) -> None:
        self.busy = self.pending = self.stopping = False
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> _Interrupts:
        if threading.current_thread() is threading.main_thread():
            for signum, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
                if signal.getsignal(signum) is default:
                    self.previous[signum] = signal.signal(signum, self._interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self.previous.items():
            signal.signal(signum, previous)

    def _interrupt(self, signum: int, frame: object) -> None:
        if self.busy or self.stopping:
            self.pending = True
            return
        self.stopping = True
        raise KeyboardInterrupt

    @contextmanager
    def deferred(self) -> Iterator[None]:
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
        if self.pending and not self.stopping:
            self.pending = False
            self.stopping = True
            raise KeyboardInterrupt


_BATCH: Batch | None = None
"""The batch of a worker process, set once by the pool's initializer."""


def _init_worker(batch: Batch) -> None:
    global _BATCH
    _BATCH = batch
    quiet_worker()
    compile_rules(batch.ruleset)


def _pool_chunk(start: int, stop: int) -> Chunk:
    assert _BATCH is not None
    return play_chunk(_BATCH, start, stop)


def _pool_results(stack: ExitStack, batch: Batch, games: int, workers: int) -> Generator[Chunk, None, None]:
    pool = stack.enter_context(process_pool(workers, _init_worker, (batch,)))
    return in_order(lambda job: pool.apply_async(_pool_chunk, job), lambda r: r.get(),
                    game_chunks(games, chunk_size(games, workers)), window=4 * workers)
