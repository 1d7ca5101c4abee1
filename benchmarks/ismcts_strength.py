#!/usr/bin/env python3
"""OpenSpiel's information-set MCTS against the project's bots, deal by deal, with 95% intervals.

    pip install 'fivehundred[openspiel]'
    nice -n 10 python benchmarks/ismcts_strength.py --pairs 40 --simulations 100 --seed 1
    python benchmarks/ismcts_strength.py --opponent heuristic --pairs 5 --simulations 20   # a quick look

Each pairing plays ``--pairs`` pairs of one-deal episodes of ``python_fivehundred`` on the reference
ruleset: OpenSpiel's ``ISMCTSBot`` (``--simulations`` per decision, one random rollout per leaf, UCT
constant 2, its worlds resampled by ``fivehundred.openspiel.resampler``) in the seats of one team, the
opponent (``heuristic``, or ``montecarlo`` at its default budget, acting on the engine state underneath)
in the other's; then the same deal again with the sides swapped.  A pair's deals are the same: the first
dealer and every card come from a generator seeded by the pair alone.

Per pairing: IS-MCTS's mean points per deal less the opponent's (each deal's return to IS-MCTS's team, the
mean of a pair's two deals taken as one sample; 95% normal interval over the pairs), and the share of
deals in which IS-MCTS's team scored more than the other (95% Wilson interval; drawn deals, such as a deal
passed out, count half).  Whole games would take about ten times as long for the same statistical weight.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.ismcts import ISMCTSBot

import fivehundred.openspiel
from fivehundred.batch.simulation import wilson
from fivehundred.rules.manager import make_player


def play_deal(game: Any, ismcts_seats: set[int], opponent: str, pair_seed: int, simulations: int,
              search_seed: int) -> float:
    """One deal; IS-MCTS's team's return (its points less the other team's)."""
    table = game.table
    chance = random.Random(f"ismcts-strength:{pair_seed}:deal")
    search = np.random.RandomState(search_seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=search)
    searchers: dict[int, Any] = {}
    bots: dict[int, Any] = {}
    for player, seat in enumerate(table.deciders):
        if seat in ismcts_seats:
            bot = ISMCTSBot(game, evaluator, 2.0, simulations, random_state=search)
            bot.set_resampler(fivehundred.openspiel.resampler(f"{search_seed}:{seat}"))
            searchers[player] = bot
        else:
            bots[player] = make_player(opponent, seat, random.Random(f"ismcts-strength:{search_seed}:{seat}"))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(chance.random() * len(outcomes))][0])
            continue
        player = state.current_player()
        if player in searchers:
            state.apply_action(searchers[player].step(state))
        else:
            engine = state.engine_state
            action = bots[player].act(engine, engine.legal_actions())
            state.apply_action(table.action_index[action])
    mine = next(p for p, seat in enumerate(table.deciders) if seat in ismcts_seats)
    return float(state.returns()[mine])


def pairing(game: Any, opponent: str, pairs: int, simulations: int, seed: int) -> dict[str, Any]:
    rules = game.table.rules
    teams = [frozenset(s for s in range(rules.players) if rules.team_of[s] == t) for t in range(2)]
    start = time.perf_counter()
    samples, wins, deals = [], 0.0, 0
    for pair in range(pairs):
        pair_seed = seed * 1_000_003 + pair
        returns = [play_deal(game, set(team), opponent, pair_seed, simulations, pair_seed * 2 + side)
                   for side, team in enumerate(teams)]
        samples.append(sum(returns) / 2)
        wins += sum(1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in returns)
        deals += 2
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else None
    return {"opponent": opponent, "pairs": pairs, "deals": deals, "simulations": simulations, "seed": seed,
            "mean_points": round(mean, 1),
            "ci95": None if half is None else [round(mean - half, 1), round(mean + half, 1)],
            "deal_wins": wins, "deal_win_rate": round(wins / deals, 4), "deal_win_ci95": wilson(round(wins), deals),
            "seconds": round(time.perf_counter() - start, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", action="append", help="heuristic, montecarlo (repeatable; default both)")
    parser.add_argument("--pairs", type=int, default=40, help="deal pairs per pairing (sides swapped in a pair)")
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="pagat-australian")
    parser.add_argument("--json", action="store_true", help="one JSON object per pairing instead of a table")
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_fivehundred", {"ruleset": args.ruleset, "episode": "deal"})
    if len(game.table.rules.team_names) != 2:
        raise SystemExit(f"{args.ruleset}: a pairing needs a ruleset of two teams")
    if not args.json:
        print(f"{args.ruleset}, seed {args.seed}, IS-MCTS {args.simulations} simulations a decision; "
              "IS-MCTS's points per deal less the opponent's, and its share of deals won (95% intervals)\n")
        print("| IS-MCTS vs | deals (pairs) | points per deal (95% CI) | deals won (95% CI) | seconds |")
        print("|---|---|---|---|---|")
    for opponent in args.opponent or ("heuristic", "montecarlo"):
        r = pairing(game, opponent, args.pairs, args.simulations, args.seed)
        if args.json:
            print(json.dumps(r))
        else:
            ci = "" if r["ci95"] is None else " ({:+.1f} to {:+.1f})".format(*r["ci95"])
            wlo, whi = r["deal_win_ci95"]
            print(f"| {opponent} | {r['deals']} ({r['pairs']}) | {r['mean_points']:+.1f}{ci} "
                  f"| {100 * r['deal_win_rate']:.1f}% ({100 * wlo:.1f}–{100 * whi:.1f}) | {r['seconds']} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
