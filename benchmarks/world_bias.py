#!/usr/bin/env python3
"""How far the `solver` player's sampled worlds are from the true deal: the double-dummy tricks of the contracting
side in each world against the true deal's, at every card the solver would search.

    python benchmarks/world_bias.py                       # the first hands of 150 seeded games, reference ruleset
    python benchmarks/world_bias.py -n 300 --seed dup1 --slack 1.5

The first hand of each of ``-n`` games (seed ``--seed``) is played by ``club`` in every seat; at each card of a
contract to take tricks where the seat has a choice, the worlds ``solver`` would deal for that seat
(``solved_worlds.sample_worlds``, read by the calls and cards made with ``club`` as every seat's model, as
``solver`` reads them) are solved double dummy, and so is the true position.  Printed by the seat's role (the
contracting side or a defender) and the trick: the mean of the worlds' value less the true one (the contracting
side's tricks in the hand; negative: the worlds think the contractor weaker than it is) and how often the contract
is made with best play in the worlds and in the true deals.  ``--slack`` sets ``solved_worlds.BID_SLACK`` for the
run (how far under its bid a world's contractor may be by ``club``'s estimate of its tricks).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import fivehundred
from fivehundred.bots import solved_worlds
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import ClubParams, tuned_for
from fivehundred.bots.solver_player import SolverPlayer
from fivehundred.engine.seeding import game_generators
from fivehundred.engine.solver import Solver
from fivehundred.engine.state import FIRST_STEP_ACTION, GameState
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import compile_rules


class Observer(SolverPlayer):
    """``club``'s card, noting at each card with a choice what this ``solver``'s worlds say against the true deal."""

    def __init__(self, seat: int, rng: random.Random, params: ClubParams, worlds: int, rows: list[dict[str, Any]]):
        super().__init__(seat, rng, worlds, params=params)
        self.rows = rows

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        contract = state.contract
        if (state.phase == Phase.PLAY and contract is not None and contract.goal == "at-least"
                and sum(a < FIRST_STEP_ACTION for a in legal) > 1):
            seat = state.current_player()
            dealt = solved_worlds.sample_worlds(state, seat, self.worlds, self._club_models(state))
            self.rows.append({"role": "contracting" if seat in state.contracting_side else "defending",
                              "trick": len(state.hand_log.tricks) + 1, "need": contract.tricks,
                              "true": Solver.of(state).value(), "worlds": [s.value() for s in Solver.of_worlds(dealt)]})
        return int(ClubPlayer.act(self, state, legal))


def band(trick: int) -> str:
    return "1" if trick == 1 else "2-3" if trick <= 3 else "4-6" if trick <= 6 else "7+"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=150)
    ap.add_argument("--seed", default="world-bias")
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("--worlds", type=int, default=8, help="worlds a decision (solver's default: 8)")
    ap.add_argument("--slack", type=float, help=f"solved_worlds.BID_SLACK for this run ({solved_worlds.BID_SLACK})")
    args = ap.parse_args(argv)
    if args.slack is not None:
        solved_worlds.BID_SLACK = args.slack
    rs = fivehundred.load_ruleset(args.ruleset)
    rules, params = compile_rules(rs), tuned_for(rs)
    rows: list[dict[str, Any]] = []
    for game in range(args.games):
        deal_rng, players_rng = game_generators(f"{args.seed}:{game}")
        state = GameState(rules, rng=deal_rng)
        players = [Observer(s, players_rng, params, args.worlds, rows) for s in range(rules.players)]
        state.play_out(players, deal_rng, 1)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["role"], band(row["trick"]))].append(row)
    print(f"{args.games} first hands of {args.ruleset}, seed {args.seed}, BID_SLACK {solved_worlds.BID_SLACK}")
    print("| seat | trick | decisions | worlds less true (tricks) | made in the worlds | made in the true deals |")
    print("|---|---|---|---|---|---|")
    for (role, when), group in sorted(groups.items()):
        n = len(group)
        bias = sum(sum(r["worlds"]) / len(r["worlds"]) - r["true"] for r in group) / n
        made = sum(sum(v >= r["need"] for v in r["worlds"]) / len(r["worlds"]) for r in group) / n
        true = sum(r["true"] >= r["need"] for r in group) / n
        print(f"| {role} | {when} | {n} | {bias:+.2f} | {made:.1%} | {true:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
