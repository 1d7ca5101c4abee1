#!/usr/bin/env python3
"""A digest of everything ``fivehundred.pettingzoo`` hands out over seeded random episodes: at every step of
every episode, each agent's observation array and mask (``observe``), and ``last()``'s reward and flags.
Run it before and after a change to the adapter: the same lines mean the same observations, step by step.

    python benchmarks/zoo_digest.py                       # several rulesets, 20 deals each
    python benchmarks/zoo_digest.py --episodes 50 --ruleset perfect
"""

from __future__ import annotations

import argparse
import hashlib
import random
import warnings

import numpy as np

RULESETS = ("pagat-australian", "perfect", "two-handed", "six-handed-three-teams", "french-canadian",
            "five-handed", "three-handed-dead-hand", "nullo", "avondale-us")


def digest(ruleset: str, episodes: int, episode: str) -> tuple[str, int]:
    from fivehundred.pettingzoo import env

    table = env(ruleset=ruleset, episode=episode, max_deals=3)
    sha = hashlib.sha256()
    steps = 0
    for seed in range(episodes):
        rng = random.Random(seed)
        table.reset(seed=seed)
        for agent in table.agent_iter():
            for other in table.possible_agents if steps % 3 == 0 else (agent,):  # now and then every agent
                obs = table.observe(other)
                sha.update(other.encode() + obs["observation"].tobytes() + obs["action_mask"].tobytes())
            observation, reward, termination, truncation, _ = table.last()
            sha.update(observation["observation"].tobytes() + repr((reward, termination, truncation)).encode())
            steps += 1
            if termination or truncation:
                table.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            table.step(int(legal[rng.randrange(len(legal))]))
    return sha.hexdigest()[:16], steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", action="append")
    ap.add_argument("--episodes", type=int, default=20)
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    for ruleset in a.ruleset or RULESETS:
        for episode in ("deal", "game"):
            sha, steps = digest(ruleset, a.episodes if episode == "deal" else max(1, a.episodes // 10), episode)
            print(f"{ruleset:<24} {episode:<5} {steps:>7} steps  {sha}")


if __name__ == "__main__":
    main()
