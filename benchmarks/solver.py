#!/usr/bin/env python3
"""Double-dummy solve times: whole hands (every trick to play) of four rulesets.

    python benchmarks/solver.py                       # 100 hands of each ruleset
    python benchmarks/solver.py --hands 30 --rulesets pagat-australian
    python benchmarks/solver.py --cards                # solve_cards (every legal lead valued) as well
    python benchmarks/solver.py --misere --rulesets pagat-australian,three-handed    # misère kinds only

Each hand is dealt, bid and exchanged by ``club`` in every seat (the contracts real games reach:
suits, no-trumps, misères), then ``fivehundred.solve`` is timed once on the position at the first
lead, a fresh solver each time (no table kept between hands).  Prints the median, 90th and 99th
percentiles and the maximum, in milliseconds of this process's CPU time (on a shared machine the
wall-clock time depends on the other loads), the positions searched on average, and the build (compiled or
pure Python).  ``--misere`` keeps the misère kinds only (a misère's hand ends at its first trick taken): the
solves that ``club``'s open-misère price and its misère search ask for most, a few hundred microseconds each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import fivehundred
from fivehundred.engine.solver import Solver
from fivehundred.engine.state import Phase, new_game
from fivehundred.rules.manager import make_player

DEFAULT = ("pagat-australian", "three-handed", "six-handed", "perfect")


def first_leads(name: str, hands: int, seed: int, keep=lambda state: True) -> list:
    """``hands`` positions at the first lead of the play, bid and exchanged by ``club`` (those ``keep`` takes)."""
    return positions(name, hands, seed, lambda state: state.phase == Phase.PLAY and not state.hand_log.tricks
                     and not state.trick, lambda state: bool(state.contracting_side) and keep(state))


def positions(name: str, hands: int, seed: int, moment, keep=lambda state: True) -> list:
    """``hands`` positions of seeded ``club`` games, the first of each hand where ``moment`` holds (those ``keep``
    takes)."""
    ruleset = fivehundred.load_ruleset(name)
    rng = random.Random(seed)
    out = []
    while len(out) < hands:
        state, deal_rng = new_game(ruleset, rng.randrange(10**9))
        players = [make_player("club", s, random.Random(rng.randrange(10**9))) for s in range(state.rules.players)]
        controller = state.rules.controller
        last = -1
        while not state.is_terminal() and len(out) < hands and state.deals < 40:
            seat = state.current_player()
            if seat < 0:
                state.deal(deal_rng)
                continue
            if state.deals != last and moment(state):
                last = state.deals
                if keep(state):
                    out.append(state.clone())
            state.apply(players[controller[seat]].act(state, state.legal_actions()))
    return out


def solver_build() -> str:
    """Whether the kernel and the solver run compiled (the rest of the engine need not be, for this benchmark)."""
    from fivehundred.engine import kernel, solver

    compiled = [m.__name__ for m in (kernel, solver) if not str(m.__file__).endswith(".py")]
    return "compiled" if len(compiled) == 2 else f"partly compiled ({compiled})" if compiled else "pure Python"


def percentile(sorted_ms: list[float], p: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(p * len(sorted_ms)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rulesets", default=",".join(DEFAULT))
    parser.add_argument("--cards", action="store_true", help="also time solve_cards at the first lead")
    parser.add_argument("--misere", action="store_true", help="only the hands of a misère kind")
    args = parser.parse_args()
    keep = (lambda state: state.contract.goal == "none") if args.misere else (lambda state: True)
    print(f"solver: {solver_build()}; {args.hands} whole hands per ruleset, bid by club")
    print(f"{'ruleset':24} {'what':12} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}   (ms of CPU)  positions")
    for name in args.rulesets.split(","):
        states = first_leads(name, args.hands, args.seed, keep)
        for what in ("solve", "solve_cards"):
            if what == "solve_cards" and not args.cards:
                continue
            times, nodes = [], 0
            for state in states:
                start = time.process_time()
                solver = Solver.of(state)
                solver.value() if what == "solve" else solver.card_values()
                times.append((time.process_time() - start) * 1000)
                nodes += getattr(solver, "nodes", 0)
            times.sort()
            digits = 3 if args.misere else 1
            print(f"{name:24} {what:12} {statistics.median(times):8.{digits}f} {percentile(times, 0.9):8.{digits}f} "
                  f"{percentile(times, 0.99):8.{digits}f} {times[-1]:8.{digits}f}   {nodes / len(states):,.0f}",
                  flush=True)


if __name__ == "__main__":
    main()
