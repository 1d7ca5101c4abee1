"""Batch simulation: seeded, reproducible games with bots, streamed, summarised.

Game ``i`` of a batch with seed ``s`` is a pure function of (ruleset, ``s``, ``i``, players):
its deal generator and each player's generator are seeded from those alone, so a batch gives the
same records and summary with any number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from fivehundred.manager import compile_rules, make_player, player_factories
from fivehundred.record import dumps, game_to_dict
from fivehundred.ruleset import Ruleset, load_ruleset
from fivehundred.state import GameState, new_game

MAX_DEALS = 1000
"""A game still unfinished after this many deals is abandoned (reported, never silently dropped)."""


def _players_for(ruleset: Ruleset, players: str | Sequence[str] | None) -> list[str]:
    seats = len(ruleset.players.seats)
    if players is None:
        names = ["heuristic"]
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
        if name not in known:
            from fivehundred.errors import UnknownNameError

            raise UnknownNameError(f"unknown player {name!r}; known: {', '.join(sorted(known))}")
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
    names = _players_for(rs, players)
    state, rng = new_game(rs, f"{seed}:{game}")
    bots = [make_player(name, seat, random.Random(f"fivehundred:{seed}:{game}:player:{seat}"))
            for seat, name in enumerate(names)]
    return run_game(state, rng, bots, max_deals)


# --- statistics ---------------------------------------------------------------------------


@dataclass(slots=True)
class GameStats:
    """The few numbers of one game that the summary needs (cheap to send between processes)."""

    deals: int
    contracts: list[tuple[str, str, bool]]
    """(call, contract type, made) per played hand."""
    winner: str | None
    totals: list[int]


def _contract_type(call: str, kind: str, trump: int | None) -> str:
    if kind == "misere":
        return call
    return "NT" if trump is None else "SCDH"[trump]


def game_stats(state: GameState) -> GameStats:
    contracts = []
    for log in state.hands_log:
        if log.contract is not None and log.scores:
            c = log.contract
            ct = state.rules.team_of[log.contractor]
            made = log.scores[ct] > 0 if c.kind != "misere" else log.tricks_won[log.contractor] == 0
            contracts.append((c.call, _contract_type(c.call, c.kind, c.trump), made))
    winner = state.rules.team_names[state.result.winner] if state.result else None
    return GameStats(state.deals, contracts, winner, list(state.totals))


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
        self.low = x if self.low is None else min(self.low, x)
        self.high = x if self.high is None else max(self.high, x)

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
    by_type: dict[str, list[int]] = field(default_factory=dict)
    by_call: dict[str, list[int]] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    hands_per_game: Running = field(default_factory=Running)
    winner_totals: Running = field(default_factory=Running)
    loser_totals: Running = field(default_factory=Running)

    def add(self, stats: GameStats) -> None:
        self.games += 1
        self.deals += stats.deals
        self.hands_played += len(stats.contracts)
        self.hands_per_game.add(len(stats.contracts))
        for call, kind, made in stats.contracts:
            for table, key in ((self.by_type, kind), (self.by_call, call)):
                entry = table.setdefault(key, [0, 0])
                entry[0] += 1
                entry[1] += made
        if stats.winner is None:
            self.unfinished += 1
            return
        self.wins[stats.winner] = self.wins.get(stats.winner, 0) + 1
        w = self.teams.index(stats.winner)
        self.winner_totals.add(stats.totals[w])
        for i, t in enumerate(stats.totals):
            if i != w:
                self.loser_totals.add(t)

    def as_dict(self) -> dict[str, Any]:
        def rate(made: int, n: int) -> float | None:
            return round(made / n, 4) if n else None

        def rates(made: int, n: int) -> dict[str, Any]:
            return {"played": n, "made": made, "make_rate": rate(made, n), "ci95": wilson(made, n)}

        misere = [v for k, v in self.by_type.items() if "mis" in k]
        attempts, successes = sum(v[0] for v in misere), sum(v[1] for v in misere)
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


def _play_chunk(args: tuple[Ruleset, int | str, list[str], int, int, bool, int]) -> list[tuple[GameStats, str | None]]:
    ruleset, seed, names, start, stop, records, max_deals = args
    out = []
    for game in range(start, stop):
        state = play_game(ruleset, seed, names, game=game, max_deals=max_deals)
        line = dumps(game_to_dict(state, seed=seed, game=game, players=names)) if records else None
        out.append((game_stats(state), line))
    return out


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(games, start + size)


def simulate(games: int = 100, seed: int | str = 0, ruleset: Ruleset | str | Path = "pagat-australian",
             players: str | Sequence[str] | None = None, *, workers: int = 1, out: str | Path | IO[str] | None = None,
             progress: Callable[[int], None] | None = None, max_deals: int = MAX_DEALS) -> Summary:
    """Play ``games`` seeded games and return their ``Summary``; stream records to ``out`` (JSON Lines).

    The records and the summary depend only on (ruleset, seed, players, games), not on ``workers``.
    ``progress`` is called with the number of games just finished.
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    names = _players_for(rs, players)
    compile_rules(rs)  # fail early (and once) on a ruleset the plugins cannot compile
    summary = Summary(rs.name, seed, names, [t.name for t in rs.players.teams])
    size = max(1, min(200, games // (max(workers, 1) * 8) or 1))
    jobs = [(rs, seed, names, a, b, out is not None, max_deals) for a, b in _chunks(games, size)]
    with ExitStack() as stack:
        sink: IO[str] | None = None
        if isinstance(out, (str, Path)):
            sink = stack.enter_context(open(out, "w", encoding="utf-8"))
        elif out is not None:
            sink = out
        if workers > 1:
            pool = stack.enter_context(_pool(workers))
            results: Iterator[list[tuple[GameStats, str | None]]] = pool.imap(_play_chunk, jobs)
        else:
            results = map(_play_chunk, jobs)
        try:
            for chunk in results:
                for stats, line in chunk:
                    summary.add(stats)
                    if sink is not None and line is not None:
                        sink.write(line + "\n")
                if progress is not None:
                    progress(len(chunk))
        except KeyboardInterrupt:
            # Ctrl-C: whole games only are written and counted, so the partial output stays valid.
            summary.interrupted = True
            if workers > 1:
                pool.terminate()
    return summary


def _pool(workers: int) -> Any:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return ctx.Pool(workers)
