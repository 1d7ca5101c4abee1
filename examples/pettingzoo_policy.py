"""Evaluate a policy in the PettingZoo environment: a cautious "lowest legal action" policy (it passes in
the auction and plays its lowest card) for one team against uniformly random opponents, over seeded deals.

    pip install 'fivehundred[pettingzoo]'
    python examples/pettingzoo_policy.py --ruleset pagat-australian --deals 200

The rewards are the deal's score differences (the team's points less the other team's).
"""

from __future__ import annotations

import argparse

import numpy as np

from fivehundred.pettingzoo import env


def lowest(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def uniform(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="pagat-australian")
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()

    table = env(ruleset=args.ruleset)
    first = table.possible_agents[0]
    rng = np.random.default_rng(0)
    rewards = []
    for seed in range(args.deals):
        table.reset(seed=seed)
        for agent in table.agent_iter():
            observation, reward, termination, truncation, _ = table.last()
            if termination or truncation:
                if agent == first:
                    rewards.append(reward)
                table.step(None)
                continue
            # the first agent's team plays the policy: with partners sitting opposite, every other agent
            policy = lowest if table.possible_agents.index(agent) % 2 == 0 else uniform
            table.step(policy(observation, rng))
    mean = np.mean(rewards)
    half = 1.96 * np.std(rewards, ddof=1) / np.sqrt(len(rewards))
    print(f"{args.ruleset}: '{first}'s side, passing and playing its lowest legal action, over {args.deals} deals: "
          f"{mean:+.1f} ± {half:.1f} points a deal against random play")


if __name__ == "__main__":
    main()
