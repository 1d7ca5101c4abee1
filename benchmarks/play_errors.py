#!/usr/bin/env python3
"""Where a player's card play in suit and no-trump contracts loses tricks against double dummy: the hands of
``benchmarks/play_gain.py`` (seeded `club` games, bid and exchanged by `club`) played out by PLAYER in every seat,
every card of a seat with a choice valued on the true deal (``fivehundred.solve_cards``), grouped by situation.

    python benchmarks/play_errors.py -n 2000 --seed 5            # club, reference ruleset
    python benchmarks/play_errors.py -r canadian -p heuristic -n 500
    python benchmarks/play_errors.py -p club-former -n 2000       # club before its second/third-hand rules

A situation is the side (contracting or defending), the seat's place in the trick, what was led (trumps, a side
suit, no-trumps), whether the seat follows suit or is void, and whether its card wins the trick so far.  Each row:
decisions, the tricks its card lost against the deal's best card (a decision's mean and per hand), and what the
seat's lowest or highest card of the suit it played would have changed (its side's tricks, mean and 95%
interval).  A loss on the true deal is not always a fault (the seat does not see the cards); a row whose
alternative gains clearly is a rule of thumb to try in paired games (docs/players.md, "Second and third hand").
"""
from __future__ import annotations

import argparse
import collections
import random
import statistics

from card_play_rules import RULES, former_plugin  # benchmarks/card_play_rules.py
from solver import first_leads  # benchmarks/solver.py

import fivehundred
from fivehundred.engine.state import JOKER_LEAD, GameState, Phase
from fivehundred.rules.manager import make_player, make_plugin_manager, set_plugin_manager


def situation(state: GameState, seat: int, card: int, side: bool) -> tuple[str, ...]:
    table = state.play_table
    trick, led, _, _ = state.trick_view()
    trump = state.contract.trump if state.contract is not None else None
    suit = table.suit_of[card]
    led_suit = suit if not trick else led
    kind = "no-trumps" if trump is None else "trumps" if led_suit == trump else "side suit"
    place = "lead" if not trick else f"{len(trick) + 1}{'nd' if len(trick) == 1 else 'rd' if len(trick) == 2 else 'th'}"
    if not trick:
        return ("contracting" if side else "defending", place, kind, "", "")
    row = table.power[led]
    wins = row[card] > max(row[c] for c in trick)
    return ("contracting" if side else "defending", place, kind, "follows" if suit == led else "void",
            "wins so far" if wins else "loses")


def alternatives(state: GameState, card: int, legal: list[int]) -> tuple[int, int]:
    """The seat's lowest and highest card of the suit it played (by the trick's order, or the suit's own on a lead)."""
    table = state.play_table
    trick, led, _, _ = state.trick_view()
    suit = table.suit_of[card]
    row = table.power[led if trick else suit]
    same = [c for c in legal if c < JOKER_LEAD and table.suit_of[c] == suit] or [card]
    return min(same, key=lambda c: row[c]), max(same, key=lambda c: row[c])


def interval(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{statistics.mean(xs):+.2f}"
    return f"{statistics.mean(xs):+.2f} ± {1.96 * statistics.stdev(xs) / len(xs) ** 0.5:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("-p", "--player", default="club")
    parser.add_argument("-n", "--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rows", type=int, default=20)
    args = parser.parse_args()
    set_plugin_manager(make_plugin_manager(extra=[former_plugin(list(RULES))]))  # `-p club-former` too
    rows: dict[tuple[str, ...], list[tuple[int, int, int]]] = collections.defaultdict(list)
    hands = first_leads(args.ruleset, args.hands, args.seed, keep=lambda state: state.contract.goal == "at-least")
    for number, state in enumerate(hands):
        side = set(state.contracting_side)
        controller = state.rules.controller
        players = {c: make_player(args.player, c, random.Random(number * 10 + c)) for c in set(controller)}
        deal = state.deals
        while state.deals == deal and state.phase == Phase.PLAY and not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            card = players[controller[seat]].act(state, legal)
            if len(legal) > 1 and card < JOKER_LEAD:
                values = fivehundred.solve_cards(state)
                sign = 1 if seat in side else -1
                low, high = alternatives(state, card, legal)
                best = max(sign * v for v in values.values())
                mine = sign * values[card]
                rows[situation(state, seat, card, seat in side)].append(
                    (best - mine, sign * values[low] - mine, sign * values[high] - mine))
            state.apply(card)
    print(f"{args.ruleset}: {args.player} in every seat, {len(hands)} hands (seed {args.seed}); tricks lost against "
          "the deal's best card, and the side's tricks with the lowest or highest card of the suit played instead")
    print("| side | place | led | follows | card | decisions | lost a decision | lost a hand | lowest instead "
          "| highest instead |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ordered = sorted(rows.items(), key=lambda item: -sum(r[0] for r in item[1]))
    for key, found in ordered[:args.rows]:
        lost = [r[0] for r in found]
        print(f"| {' | '.join(key)} | {len(found)} | {statistics.mean(lost):.3f} | {sum(lost) / len(hands):.3f} | "
              f"{interval([r[1] for r in found])} | {interval([r[2] for r in found])} |")


if __name__ == "__main__":
    main()
