#!/usr/bin/env python3
"""What `club`'s rules of card play are worth: `club` against `club-former`, the same player with its rules of play
in a suit contract, or of defence against a misère, off (``RULES``: attributes of ``CardPlay`` and
``MisereDefender``; a subclass registered here as a plugin).

    python benchmarks/card_play_rules.py --hands 6000 --games 10000 --seed 901
    python benchmarks/card_play_rules.py -r nullo --hands 0 --games 10000 --seed 902
    python benchmarks/card_play_rules.py --off draws_from_the_top     # one rule against the rest

First the hands of ``benchmarks/play_gain.py`` (seed 5) played out by `club-former` in every seat, then with `club`
as the contracting side and as the defenders (the side's tricks and contracts made, differences with 95%
intervals); then paired games, sides swapped (`club`'s share of ``--games``, one process).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from play_gain import interval, play_out  # benchmarks/play_gain.py
from solver import first_leads  # benchmarks/solver.py

import fivehundred
from fivehundred.batch.calibration import match
from fivehundred.batch.simulation import wilson
from fivehundred.bots.club import ClubPlayer
from fivehundred.rules.manager import make_plugin_manager, set_plugin_manager
from fivehundred.rules.markers import hookimpl

RULES = ("holds_top_trumps", "covers_partner", "draws_from_the_top", "draws_under_the_top", "keeps_lone_trump",
         "keeps_two_low_trumps", "keeps_the_stopper", "draws_with_the_master", "leads_the_master_trump",
         "keeps_the_joker_second", "joker_kept_for_partner", "second_hand_low_in_no_trumps",
         "joker_before_a_blocked_attack",
         "leads_for_a_fellows_throw", "throws_a_blocker_between", "draws_before_the_low_lead",
         "void_suit_led_last", "fellows_joker_blocks", "leaves_the_lead_to_a_fellow",
         "takes_the_lead_to_lead_the_joker", "leads_under_partners_card",
         "reads_laid_out_hands", "throws_low_without_trumps",
         "covers_without_the_joker", "plays_for_the_table")


def former_plugin(off: list[str]) -> object:
    """A plugin registering `club-former`: `club` with the rules ``off`` (attributes of ``CardPlay`` and
    ``MisereDefender``) False."""
    former = type("FormerClub", (ClubPlayer,), dict.fromkeys(off, False))

    class FormerPlugin:
        @hookimpl
        def fivehundred_register_players(self, register: Callable[..., Any]) -> None:
            register("club-former", lambda seat, rng, arg=None: former.from_spec(seat, rng, arg))

    return FormerPlugin()


def tricks(ruleset: str, hands: int) -> None:
    rows = []
    for seed, state in enumerate(first_leads(ruleset, hands, 5, keep=lambda s: s.contract.goal == "at-least")):
        side = set(state.contracting_side)
        results = []
        for who in ("former", "side", "defenders"):
            kinds = {c: "club" if who != "former" and (who == "side") == (c in side) else "club-former"
                     for c in range(state.rules.players)}
            won = play_out(state.clone(), kinds, seed)
            results.append((won, state.contract.made(won)))
        rows.append(results)
    print(f"{ruleset}: {len(rows)} hands to take tricks (seed 5), club against club-former in every seat")
    for i, label in ((1, "contracting"), (2, "defending")):
        print(f"  club {label}: tricks {interval([r[i][0] - r[0][0] for r in rows])}, "
              f"made {interval([float(r[i][1]) - float(r[0][1]) for r in rows])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--off", default=",".join(RULES),
                        help=f"the rules `club-former` plays without (default: all of {', '.join(RULES)})")
    args = parser.parse_args()
    off = [name.strip() for name in args.off.split(",") if name.strip()]
    if unknown := set(off) - set(RULES):
        parser.error(f"--off: no such rule {', '.join(sorted(unknown))} (the rules: {', '.join(RULES)})")
    set_plugin_manager(make_plugin_manager(extra=[former_plugin(off)]))
    if args.hands:
        tricks(args.ruleset, args.hands)
    if args.games:
        ruleset = fivehundred.load_ruleset(args.ruleset)
        teams = len(ruleset.players.teams)
        result = match(ruleset, "club", "club-former", args.games // teams, args.seed)
        low, high = wilson(result.wins, result.games) or (0.0, 1.0)
        print(f"  club against club-former, {result.games} games: {result.wins / result.games:.1%} "
              f"({low:.1%}–{high:.1%}; fair share {1 / teams:.1%})")


if __name__ == "__main__":
    main()
