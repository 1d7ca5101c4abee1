#!/usr/bin/env python3
"""Whole games played at par: every deal bid and played as double dummy says, so the numbers are the rules' own.

    python benchmarks/par_games.py                                  # 100 games of the reference ruleset
    python benchmarks/par_games.py -r canadian -n 200 --seed 1 --workers 2 -o par.jsonl

``compare --par`` answers deal by deal; this plays the deals on into games, so that what a game is made of (the
contracts, the hands a game, the games one misère decides) can be read with no bot's bidding or card play in it.
Game ``g`` of ``--seed s`` is dealt as ``fivehundred simulate`` deals it (``game_generators(f"{s}:{g}")``: the same
first deal; the later ones follow the totals par play reaches). Before each deal's first call its par is worked out
(``batch.par_search.deal_par``: ``fivehundred.par`` of the double-dummy table, every seat, every contract, `club`'s
discards, docs/par.md, solving only the tricks its choices read); the engine is then driven through the par auction
(``batch.par.force``: the par contractor bids its contract and the others pass, or everybody passes), `club` makes
the exchange as the table assumed it, and each card played is the lowest that keeps the position's double-dummy
value, so that the hand ends as the table says; the engine scores it, ends the game or deals the next. Positions are
judged with every card seen and the hand's points maximised (par's rule), not the chance of winning the game.

Printed: the sanity table's row for these games (``benchmarks/sanity.py``: its targets, the player named ``par``).
``-o FILE`` keeps the games as records (``fivehundred show FILE``, ``fivehundred validate FILE``), each written as it
finishes (and a line on stderr says so, unless ``--quiet``); ``--resume`` reads back what a stopped run left there
and plays only the rest. ``--rows FILE`` appends the row as sanity.py's ``--rows`` does (``python
benchmarks/sanity.py --from-rows FILE --markdown`` prints the rows as its table). Compiled, a deal costs about two
thirds of a second of CPU on the reference ruleset (200 games, 311 deals: 201 s); six seats cost far more.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import sanity

import fivehundred
from fivehundred.batch.par import DISCARDER, force
from fivehundred.batch.par_deals import in_workers
from fivehundred.batch.par_search import deal_par
from fivehundred.engine.seeding import game_generators
from fivehundred.engine.solver import SHARED_ENTRIES, EngineSolver, Solver, solve
from fivehundred.engine.state import CHANCE, GameState
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.actions import PASS_ACTION, Phase
from fivehundred.rules.manager import Rules, compile_rules, make_player
from fivehundred.rules.steps import FIRST_STEP_ACTION

MAX_DEALS = 60
"""A game still going after this many deals is left unfinished (sanity counts it apart)."""


def par_game(rules: Rules, seed: int | str, game: int, max_deals: int = MAX_DEALS) -> GameState:
    """Game ``game`` of ``seed`` played at par to its end (or ``max_deals`` deals)."""
    deal_rng, _ = game_generators(f"{seed}:{game}")
    state = GameState(rules, rng=deal_rng)
    exchange = [make_player(DISCARDER, k, random.Random(0)) for k in range(rules.players)]
    passing = False  # par is everybody passing, for this deal
    value = -1  # the hand's double-dummy value, once its play has begun
    solver: Solver | EngineSolver | None = None  # the hand's search, its table kept from card to card
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            if state.deals >= max_deals:
                break
            state.deal(deal_rng)
            passing, value, solver = False, -1, None
            continue
        phase = state.phase
        if phase in (Phase.AUCTION, Phase.STEP) and not state.hand_log.calls and state.contract is None \
                and not passing:
            best = deal_par(state)
            if best.par.entry is None or best.rung is None:
                passing = True
            else:
                forced = force(state, best.par.entry.seat, best.rung)
                assert isinstance(forced, GameState), forced
                state = forced
                value = best.par.entry.tricks
            continue
        legal = state.legal_actions()
        if phase == Phase.PLAY:
            if value < 0:  # a hand the rules play after everybody passed
                value = solve(state)
            solver = hand_solver(state, solver)
            state.apply(keeping_card(state, legal, value, solver))
        elif phase == Phase.AUCTION and passing:
            state.apply(PASS_ACTION if PASS_ACTION in legal else legal[0])
        elif phase == Phase.STEP and passing and not state.hand_log.calls:
            state.apply(legal[0])  # a step before the auction (a blind bid): declined
        else:  # the exchange, a nomination, the steps before the play: as the table assumed
            state.apply(exchange[rules.controller[seat]].act(state, legal))
    return state


def keeping_card(state: GameState, legal: list[int], value: int, solver: Solver | EngineSolver | None = None) -> int:
    """The lowest card that keeps the hand's double-dummy ``value`` (best play by both sides keeps it); ``solver``:
    a search of ``state`` (``hand_solver``)."""
    cards = [a for a in legal if a < FIRST_STEP_ACTION]
    if len(cards) == 1:
        return cards[0]
    solver = solver if solver is not None else Solver.of(state)
    for card in cards:  # the first that keeps it
        if solver.keeps(card, value):
            return card
    raise AssertionError(f"no card keeps {value}")  # the value of a position is one of its moves'


def hand_solver(state: GameState, before: Solver | EngineSolver | None) -> Solver | EngineSolver:
    """A search of ``state`` that keeps the table of ``before``, a search of an earlier position of the same hand,
    where the kernel serves both (a key is a whole position: an entry holds whichever card led to it)."""
    if isinstance(before, Solver) and before.k.serves(state) and before.search.entries < SHARED_ENTRIES:
        return Solver(before.k, before.k.position(state), before.search)
    return Solver.of(state)


def _record(job: tuple[fivehundred.Ruleset, int | str, int]) -> str:
    ruleset, seed, game = job
    rules = compile_rules(ruleset)  # kept per ruleset by compile_rules: once per worker
    state = par_game(rules, seed, game)
    return dumps(game_to_dict(state, seed=seed, game=game, players=["par"] * rules.players))


def records(ruleset: fivehundred.Ruleset, games: int, seed: int | str, workers: int,
            first: int = 0) -> Iterator[str]:
    """Games ``first`` to ``games - 1``: their records (JSON lines), in order, played in ``workers`` processes."""
    return in_workers(_record, [(ruleset, seed, g) for g in range(first, games)], workers)


def kept_games(out: Path, seed: int | str) -> list[str]:
    """The records a run stopped part-way left in ``out`` (games 0, 1, ... of ``seed``, in order)."""
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if line.strip()] if out.exists() else []
    for number, line in enumerate(lines):
        record = json.loads(line)
        if (record.get("seed"), record.get("game")) != (seed, number):
            raise SystemExit(f"{out}: line {number + 1} is game {record.get('game')} of seed {record.get('seed')!r}, "
                             f"not game {number} of seed {seed!r}; --resume continues the same run only")
    return lines


def progress_line(record: dict[str, Any], games: int, seconds: float) -> str:
    """What a long run says as a game finishes: its number, its contracts, its winner and the time it took."""
    contracts = [f"{h['contract']['call']} {h['contract']['contractor']}" if h.get("contract") else "passed"
                 for h in record["hands"]]
    winner = (record.get("result") or {}).get("winner") or "nobody (unfinished)"
    return (f"game {record['game'] + 1} of {games}: {len(contracts)} deal{'s' * (len(contracts) != 1)} "
            f"({', '.join(contracts)}), won by {winner}, {seconds:.1f} s")


def measure(ruleset: fivehundred.Ruleset, games: int, seed: int | str, workers: int,
            out: Path | None = None, resume: bool = False, progress: TextIO | None = None) -> dict[str, Any]:
    """``sanity.measure``'s row for ``games`` games played at par.

    Each game is written to ``out`` as it finishes, so a run stopped part-way keeps what it played; with ``resume``
    the games already in ``out`` are read back and only the rest are played (the row's time is this run's).  A line
    per game finished goes to ``progress`` (``progress_line``)."""
    tally = sanity.tally_for(ruleset)
    start = last = time.perf_counter()
    kept = kept_games(out, seed) if out is not None and resume else []
    for line in kept[:games]:
        tally.add(json.loads(line))
    saved = out.open("a" if kept else "w", encoding="utf-8") if out is not None else None
    try:
        for line in records(ruleset, games, seed, workers, first=len(kept)):
            record = json.loads(line)
            tally.add(record)
            if progress is not None:
                now = time.perf_counter()
                print(progress_line(record, games, now - last), file=progress, flush=True)
                last = now
            if saved is not None:
                saved.write(line + "\n")
                saved.flush()
    finally:
        if saved is not None:
            saved.close()
    return sanity.row(tally, ruleset, "par", seed, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("-w", "--workers", type=int, default=1)
    parser.add_argument("-o", "--out", type=Path, help="keep the games as records (JSON lines), each as it finishes")
    parser.add_argument("--resume", action="store_true", help="read back the games a stopped run left in --out and "
                        "play only the rest (same ruleset, --seed and -n)")
    parser.add_argument("--json", action="store_true", help="the row as JSON instead of text")
    parser.add_argument("-q", "--quiet", action="store_true", help="no line on stderr as each game finishes")
    parser.add_argument("--rows", type=Path, help="also append the row to this file as a JSON line (sanity.py "
                        "--from-rows FILE --markdown prints them as its table)")
    args = parser.parse_args(argv)
    if args.resume and args.out is None:
        parser.error("--resume needs -o FILE (the records of the run to continue)")
    ruleset = fivehundred.load_ruleset(args.ruleset)
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    row = measure(ruleset, args.games, seed, args.workers, args.out, args.resume,
                  None if args.quiet else sys.stderr)
    if args.rows:
        with args.rows.open("a", encoding="utf-8") as saved:
            saved.write(json.dumps(row) + "\n")
    print(json.dumps(row, indent=1) if args.json else sanity.text_report(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
