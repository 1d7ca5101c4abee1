"""OpenSpiel's MCTS and information-set MCTS bots play Five Hundred deals against random players.

    pip install 'fivehundred[openspiel]'
    python examples/openspiel_bots.py --ruleset three-handed --deals 4 --simulations 40

Seat 0 is OpenSpiel's MCTS (which sees every card: an upper bound), seat 1 its information-set MCTS
(which sees only its own cards and resamples the rest), the other seats play uniformly at random.
Each deal's returns are the score differences of the hand.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.ismcts import ISMCTSBot

import fivehundred.openspiel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="three-handed")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game("python_fivehundred", {"ruleset": args.ruleset, "episode": "deal"})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    ismcts = ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=rng)
    ismcts.set_resampler(fivehundred.openspiel.resampler(args.seed))
    bots = {0: mcts.MCTSBot(game, 2.0, args.simulations, evaluator, random_state=rng), 1: ismcts}
    totals = np.zeros(game.num_players())
    for deal in range(args.deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() in bots:
                state.apply_action(bots[state.current_player()].step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = np.array(state.returns())
        totals += returns
        contract = state.engine_state.hands_log[-1].contract
        print(f"deal {deal + 1}: {contract.call if contract else 'thrown in'}; returns {returns.tolist()}")
    print(f"mean returns over {args.deals} deals: MCTS {totals[0] / args.deals:+.1f}, "
          f"IS-MCTS {totals[1] / args.deals:+.1f}, random {totals[2:].mean() / args.deals:+.1f}")


if __name__ == "__main__":
    main()
