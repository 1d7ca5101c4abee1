#!/usr/bin/env python3
"""Fingerprints of seeded games: every shipped ruleset × player, the sha256 of the games' records.

    python benchmarks/fingerprints.py > before.txt     # on one version of the code
    python benchmarks/fingerprints.py > after.txt      # on another
    diff before.txt after.txt                          # a line differs: that player plays other games

Each line is ``RULESET PLAYER GAMES SHA256``, the hash over the JSON records of ``GAMES`` games played by
``fivehundred.simulate`` with that player in every seat (seed 7).  A change of the code that must keep every
player's games (a refactoring, a speed-up) keeps every line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile

import fivehundred
from fivehundred.rules.loading import iter_rulesets

PLAYERS = {"random": 200, "heuristic": 60, "club": 30}


def fingerprint(ruleset: str, player: str, games: int, seed: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "games.jsonl")
        fivehundred.simulate(games=games, seed=seed, ruleset=ruleset, players=player, out=out)
        digest = hashlib.sha256()
        with open(out, "rb") as f:
            for line in f:
                record = json.loads(line)
                record.pop("meta", None)  # versions and times, not the game
                digest.update(json.dumps(record, sort_keys=True).encode())
        return digest.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="all", help="comma-separated names, or all")
    ap.add_argument("--players", default=",".join(PLAYERS), help="comma-separated (random, heuristic, club, …)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    names = [name for name, _ in iter_rulesets()] if args.rulesets == "all" else args.rulesets.split(",")
    for name in names:
        for player in args.players.split(","):
            games = PLAYERS.get(player.split(":")[0], 4)
            print(name, player, games, fingerprint(name, player, games, args.seed), flush=True)


if __name__ == "__main__":
    main()
