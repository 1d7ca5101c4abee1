#!/usr/bin/env python3
"""Would the deals `club` passes out have been worth bidding?  Play them out and see.

    python benchmarks/passed_deals.py -r six-handed-individual -n 2000
    python benchmarks/passed_deals.py -r six-handed-individual -n 2000 --contractor montecarlo

Deals ``GameState.deal(random.Random(f"forced:{i}"))`` for i < ``-n`` (the first dealer turning
with i).  A deal counts as passed out when no seat's tuned `club` finds a call worth more than its
``min_gain`` (every call priced from its own hand before the auction, as an opening call is).  Each
such deal is then played with the seat whose best call is worth most as contractor of that call,
the others passing: `club` in every seat, or ``--contractor`` in the contractor's.  Prints how
many were made (with the 95% Wilson interval), by call, and the tricks taken against `club`'s
estimate.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import fivehundred
from fivehundred.batch.simulation import wilson
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.heuristic import _info
from fivehundred.bots.params import tuned_for
from fivehundred.engine.state import CALL, PASS_ACTION, GameState, Phase
from fivehundred.rules.manager import Rules, compile_rules, make_player
from fivehundred.rules.tables import Contract


def best_call(rules: Rules, state: GameState) -> tuple[float, int, Contract]:
    """(worth, seat, call) of the call worth most to any seat, each priced from its own hand."""
    info = _info(rules)
    params = tuned_for(rules.ruleset.name)
    best: tuple[float, int, Contract] | None = None
    for seat in range(rules.players):
        bot = ClubPlayer(seat, random.Random(0), params)
        obs = state.observation(seat)
        for c in rules.ladder:
            if not c.signal and not c.before_looking:
                worth = bot.call_worth(seat, obs, info, c)
                if best is None or worth > best[0]:
                    best = (worth, seat, c)
    assert best is not None
    return best


def play_forced(rules: Rules, state: GameState, seat: int, call: Contract, contractor: str, i: int) -> tuple[bool, int]:
    """Play the deal with ``seat`` contracting ``call``: (made, tricks its side took)."""
    params = tuned_for(rules.ruleset.name)
    bots = [ClubPlayer(s, random.Random(i), params) for s in range(rules.players)]
    players = [make_player(contractor, seat, random.Random(i)) if s == seat else bot for s, bot in enumerate(bots)]
    log = state.hands_log[-1]
    while log.outcome is None:
        s = state.current_player()
        legal = state.legal_actions()
        if state.phase == Phase.AUCTION:
            state.apply(CALL + call.rung if s == seat and CALL + call.rung in legal else PASS_ACTION)
        else:
            state.apply(players[s].act(state, legal) if len(legal) > 1 else legal[0])
    return log.outcome.made, sum(log.tricks_won[s] for s in log.outcome.side)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-r", "--ruleset", default="six-handed-individual")
    parser.add_argument("-n", "--deals", type=int, default=2000)
    parser.add_argument("--contractor", default="club", help="the player in the contractor's seat (default: club)")
    args = parser.parse_args()
    rules = compile_rules(fivehundred.load_ruleset(args.ruleset))
    min_gain = tuned_for(rules.ruleset.name).min_gain
    outcomes: Counter[tuple[str, bool]] = Counter()
    taken = estimated = 0.0
    for i in range(args.deals):
        state = GameState(rules, first_dealer=i % rules.players)
        state.deal(random.Random(f"forced:{i}"))
        worth, seat, call = best_call(rules, state)
        if worth > min_gain:
            continue
        hand = list(state.hands_log[-1].hands[seat])
        estimate = ClubPlayer(seat, random.Random(0)).contract_estimate(rules, seat, hand, [], call)
        made, tricks = play_forced(rules, state, seat, call, args.contractor, i)
        outcomes[(call.call, made)] += 1
        taken += tricks
        estimated += estimate or 0.0
    passed = sum(outcomes.values())
    made = sum(n for (_, m), n in outcomes.items() if m)
    print(f"{args.ruleset}: {passed} of {args.deals} deals passed out; contractor {args.contractor}")
    interval = wilson(made, passed)
    if interval is not None:
        print(f"made {made} of {passed} ({made / passed:.1%}, 95% {interval[0]:.1%}–{interval[1]:.1%}); "
              f"tricks taken {taken / passed:.2f}, estimated {estimated / passed:.2f}")
    for call in sorted({c for c, _ in outcomes}):
        print(f"  {call}: made {outcomes[(call, True)]}, failed {outcomes[(call, False)]}")


if __name__ == "__main__":
    main()
