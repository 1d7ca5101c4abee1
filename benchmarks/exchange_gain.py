#!/usr/bin/env python3
"""What searched discards (`solver:ex=N`; `club`'s own for a misère, `misere_exchange_worlds`) are worth on the same
hands: each exchange of seeded `club` games that the search covers (a contract to take tricks, a misère played
alone; `--kind` keeps one kind) is made twice from the kitty taken, with the discards of `club`'s rules of thumb
(`club:fast`) and with the searched ones, and each is scored twice: double dummy on the true deal (the contract
made, the side's tricks) and played out by `club` in every seat.

    python benchmarks/exchange_gain.py -n 200 --seed 5              # 8 worlds, reference ruleset
    python benchmarks/exchange_gain.py -r canadian -n 100 --worlds 16
    python benchmarks/exchange_gain.py -n 100 --seed 5 --worlds 16 --kind open-misere

Prints, for each, the share made and the mean tricks with the rules of thumb's discards and the differences with
their 95% intervals (hand by hand), the share of hands where the search threw other cards, and its CPU.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from play_gain import interval  # benchmarks/play_gain.py
from solver import positions  # benchmarks/solver.py

from fivehundred.bots.solved_discards import searched_exchange
from fivehundred.bots.solver_player import SolverPlayer
from fivehundred.engine.solver import solve
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.manager import make_player

KINDS = {
    "all": lambda contract: True,
    "tricks": lambda contract: contract.kind != "misere",
    "misere": lambda contract: contract.kind == "misere" and not contract.open,
    "open-misere": lambda contract: contract.kind == "misere" and contract.open,
}
"""The exchanges ``--kind`` keeps, by the contract."""


def exchanges(name: str, hands: int, seed: int, kind: str = "all") -> list[GameState]:
    """``hands`` positions at the contractor's first discard, bid by ``club``, that the search covers (of
    contracts of ``kind``)."""
    return positions(name, hands, seed, lambda state: state.phase == Phase.DISCARD,
                     lambda state: searched_exchange(state) and KINDS[kind](state.contract))


def outcome(state: GameState, contractor_player, seed: int) -> tuple[int, int, int, int, tuple[int, ...]]:
    """(made double dummy, tricks double dummy, made played by club, tricks played by club, the discards)."""
    seat = state.current_player()
    clubs = {s: make_player("club", s, random.Random(seed * 10 + s)) for s in set(state.rules.controller)}
    deal = state.deals
    while state.phase != Phase.PLAY and state.deals == deal and not state.is_terminal():
        s = state.rules.controller[state.current_player()]
        state.apply((contractor_player if s == seat else clubs[s]).act(state, state.legal_actions()))
    discards = tuple(sorted(state.hand_log.discards))
    contract = state.contract
    dd = solve(state)
    while state.deals == deal and state.phase == Phase.PLAY and not state.is_terminal():
        s = state.rules.controller[state.current_player()]
        state.apply(clubs[s].act(state, state.legal_actions()))
    log = state.hands_log[deal - 1]
    taken = sum(log.tricks_won[s] for s in log.outcome.side)
    return int(contract.made(dd)), dd, int(log.outcome.made), taken, discards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("-n", "--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--kind", choices=sorted(KINDS), default="all",
                        help="the contracts whose exchanges are played: to take tricks, misère, open misère")
    args = parser.parse_args()
    rows = []
    cpu = 0.0
    for i, state in enumerate(exchanges(args.ruleset, args.hands, args.seed, args.kind)):
        seat = state.current_player()
        club = outcome(state.clone(), make_player("club:fast", seat, random.Random(i)), i)
        start = time.process_time()
        searched = outcome(state.clone(), SolverPlayer(seat, random.Random(i), exchange_worlds=args.worlds), i)
        cpu += time.process_time() - start
        rows.append((club, searched))
    n = len(rows)
    changed = sum(1 for a, b in rows if a[4] != b[4])
    print(f"{args.ruleset}: {n} exchanges ({args.kind}), seed {args.seed}, {args.worlds} worlds; other discards at "
          f"{changed} ({changed / n:.1%}); {cpu / n:.2f} s of CPU an exchange searched")
    for label, j in (("made, double dummy", 0), ("tricks, double dummy", 1), ("made, played by club", 2),
                     ("tricks, played by club", 3)):
        base = [a[j] for a, _ in rows]
        print(f"  {label}: club's discards {statistics.mean(base):.3f}; searched "
              f"{interval([b[j] - a[j] for a, b in rows])}")


if __name__ == "__main__":
    main()
