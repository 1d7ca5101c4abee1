#!/usr/bin/env python3
"""Fit ``exact_control``, the club player's slack for a contract for exactly its tricks played alone
(Hi/Lo, C5), to forced contracts: on seeded deals the first seat to call calls it and everybody else
passes, ``club`` plays every seat, and the fit is the ``exact_control`` of greatest likelihood for
the outcomes under ``ClubPlayer.exact_chance`` (the misère curve kept), on a grid of 0.05.

    python benchmarks/exact_fit.py -r perfect -n 4000 --seed 1

Forced, the contract is played on every kind of hand, so the fit sees the hands the auction would
turn down as well as those it would bid.  Prints the fit and the make rate by predicted chance.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

import fivehundred
from fivehundred.bots.club import ClubPlayer, _pricing
from fivehundred.bots.heuristic import _info, _key
from fivehundred.bots.params import ClubParams, tuned_for
from fivehundred.engine.state import CALL, PASS_ACTION, GameState, Phase
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.tables import Contract


def forced(rules: Rules, contract: Contract, seed: str, i: int,
           params: ClubParams) -> tuple[tuple[int, ...], bool]:
    """(the contractor's hand as dealt, made) of deal ``i``, ``contract`` called by the first seat
    that may call it, the others passing; ``club`` with ``params`` plays every seat."""
    state = GameState(rules, rng=random.Random(f"{seed}:state:{i}"))
    state.deal(random.Random(f"{seed}:deal:{i}"))
    players = [ClubPlayer(s, random.Random(f"{seed}:player:{i}:{s}"), params) for s in range(rules.players)]
    hand: tuple[int, ...] | None = None
    log = state.hands_log[-1]
    while log.outcome is None:
        legal = state.legal_actions()
        seat = state.current_player()
        if state.observation(seat).phase != Phase.AUCTION or log.contract is not None:
            state.apply(players[seat].act(state, legal) if len(legal) > 1 else legal[0])
        elif hand is None and CALL + contract.rung in legal:
            hand = tuple(state.hand(seat))
            state.apply(CALL + contract.rung)
        else:
            state.apply(PASS_ACTION if PASS_ACTION in legal else legal[0])
    assert hand is not None and log.contract is contract
    return hand, log.outcome.made


def chances(rules: Rules, contract: Contract, hands: Sequence[tuple[int, ...]], params: ClubParams) -> list[float]:
    info = _info(rules)
    pricing = _pricing(rules, info)
    d = info.denominations.get(_key(contract)) or info.denomination(contract)
    judge = ClubPlayer(0, random.Random(0), params)
    return [judge.exact_chance(h, info, pricing, contract, d,
                               judge.contract_estimate(rules, 0, h, [], contract) or 0.0, params) for h in hands]


def log_likelihood(ps: Sequence[float], made: Sequence[bool]) -> float:
    return sum(math.log(min(max(p if m else 1.0 - p, 1e-9), 1.0)) for p, m in zip(ps, made, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--ruleset", default="perfect")
    ap.add_argument("-n", "--deals", type=int, default=4000)
    ap.add_argument("--seed", default="1")
    args = ap.parse_args()
    rules = compile_rules(fivehundred.load_ruleset(args.ruleset))
    contract = next(c for c in rules.ladder if c.goal == "exactly" and not c.partner_plays)
    params = tuned_for(args.ruleset)
    rows = [forced(rules, contract, args.seed, i, params) for i in range(args.deals)]
    hands, made = [h for h, _ in rows], [m for _, m in rows]

    def fitted(x: float) -> float:
        return log_likelihood(chances(rules, contract, hands, params.model_copy(update={"exact_control": x})), made)

    best = max((x / 20 for x in range(81)), key=fitted)
    ps = chances(rules, contract, hands, params.model_copy(update={"exact_control": best}))
    print(f"{args.ruleset} {contract.call}: {args.deals} forced deals, made {sum(made)} "
          f"({sum(made) / len(made):.1%}); exact_control {params.exact_control} -> {best}")
    for lo in range(10):
        group = [(p, m) for p, m in zip(ps, made, strict=True) if lo <= p * 10 < lo + 1]
        if group:
            mean, rate = sum(p for p, _ in group) / len(group), sum(m for _, m in group) / len(group)
            band = f"{lo / 10:.1f}-{(lo + 1) / 10:.1f}"
            print(f"  predicted {band}: {len(group)} deals, predicted {mean:.2f}, made {rate:.2f}")


if __name__ == "__main__":
    main()
