#!/usr/bin/env python3
"""What a player's card play is worth on the same contracts: each hand to take tricks of seeded `club` games
is played out three times from its first lead (the auction and the exchange as `club` made them): by `club`
in every seat, with PLAYER as the contracting side, and with PLAYER as the defenders.

    python benchmarks/play_gain.py -n 400 --seed 5                 # solver against club, reference ruleset
    python benchmarks/play_gain.py -r canadian -p montecarlo -n 100

Prints the side's mean tricks and the share of contracts made for each, and the differences with their 95%
intervals (pair by pair: the same hand each time).
"""
from __future__ import annotations

import argparse
import random
import statistics

from solver import first_leads  # benchmarks/solver.py

from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.manager import make_player


def play_out(state: GameState, kinds: dict[int, str], seed: int) -> int:
    """The contracting side's tricks in this hand, its play from here by ``kinds`` (a player per controller)."""
    deal, players = state.deals, {}
    while state.deals == deal and state.phase == Phase.PLAY and not state.is_terminal():
        controller = state.rules.controller[state.current_player()]
        if controller not in players:
            players[controller] = make_player(kinds[controller], controller, random.Random(seed * 10 + controller))
        state.apply(players[controller].act(state, state.legal_actions()))
    log = state.hands_log[deal - 1]
    return sum(log.tricks_won[s] for s in log.outcome.side)


def interval(diffs: list[float]) -> str:
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return f"{statistics.mean(diffs):+.3f} ± {half:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("-p", "--player", default="solver")
    parser.add_argument("-n", "--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rows = []
    hands = first_leads(args.ruleset, args.hands, args.seed, keep=lambda state: state.contract.goal == "at-least")
    for seed, state in enumerate(hands):
        side = set(state.contracting_side)
        results = []
        for who in ("club", "side", "defenders"):
            kinds = {c: args.player if (who == "side") == (c in side) and who != "club" else "club"
                     for c in range(state.rules.players)}
            tricks = play_out(state.clone(), kinds, seed)
            results.append((tricks, state.contract.made(tricks)))
        rows.append(results)
    labels = ("club in every seat", f"{args.player} contracting", f"{args.player} defending")
    print(f"{args.ruleset}: {len(rows)} hands to take tricks, bid and exchanged by club (seed {args.seed})")
    for i, label in enumerate(labels):
        tricks = [r[i][0] for r in rows]
        made = [r[i][1] for r in rows]
        print(f"  {label:28} side's tricks {statistics.mean(tricks):.3f}  made {sum(made) / len(made):.1%}")
    for i, label in ((1, "contracting"), (2, "defending")):
        print(f"  {args.player} {label}: tricks {interval([r[i][0] - r[0][0] for r in rows])}, "
              f"made {interval([float(r[i][1]) - float(r[0][1]) for r in rows])}")


if __name__ == "__main__":
    main()
