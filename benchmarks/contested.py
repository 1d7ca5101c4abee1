#!/usr/bin/env python3
"""Contracts in a denomination an opponent called first: how far ``club``'s estimate is off, and the
``opponent_called`` that the trick model fits for them.

    python benchmarks/contested.py                        # 2,000 games of `club`, every ruleset with a tuned set
    python benchmarks/contested.py -n 600 -r nullo -r canadian
    python benchmarks/contested.py --write                # set each tuned set's opponent_called to the fit
    python benchmarks/contested.py --jokers --write       # fit the joker terms, with the trick model around them
    python benchmarks/contested.py --bids --write         # fit what each call of the opponents costs, and the rest

Per ruleset, from seeded self-play of ``club`` with its tuned set (``fivehundred.batch.calibration.trick_outcomes``:
the contractor's estimate from its hand as dealt and the calls before its last, the tricks its side took): the
mean error (tricks taken less estimated) of the contracts no one else had called, of those partner had called, of
those an opponent had called, and ``fit_trick_model``'s ``opponent_called`` for them (0 with fewer than 30).
``--write`` sets that value alone in the shipped tuned set (``core/bots/tuned/RULESET.json``, its other
parameters kept) and records the command there.

``--jokers`` also prints the error of the contracts made alone with and without a joker, in trumps and in
no-trumps, and fits the whole trick model (``fit_trick_model``: ``trick_bias`` on the contracts alone in trumps
without a joker, ``joker_trumps`` per joker held, ``no_trumps_bias``, ``joker_no_trumps``, then ``partner_support``,
``opponent_called``, ``trick_spread``) in two rounds, the second on the games the first fit bids; ``--write`` then
writes those terms.

``--bids`` prints the error of the contracts made alone by how many calls of a denomination the opponents had
made before the contractor's last (0, 1, 2, 3 or more), and fits the whole trick model as ``--jokers`` does, with
``opponent_bids`` (the tricks each such call costs the estimate) among its terms; ``--write`` then writes
``opponent_bids`` and ``trick_bias`` alone (the other terms refitted too moved the contract mix towards hearts,
past the sanity table's 45% for a kind on avondale-us and nullo: docs/players.md, "The opponents' calls").
"""

from __future__ import annotations

import argparse

from tuned_files import command_line, fit_arguments, write_fit  # benchmarks/tuned_files.py

import fivehundred
from fivehundred.batch.calibration import TrickRow, fit_trick_model, trick_outcomes
from fivehundred.bots.params import ClubParams, shipped_sets, tuned_for
from fivehundred.rules.ruleset import Ruleset


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = fit_arguments(__doc__, 2000, "contested", "set opponent_called in the shipped tuned sets")
    ap.add_argument("--jokers", action="store_true", help="fit the joker terms and the trick model around them")
    ap.add_argument("--bids", action="store_true", help="fit opponent_bids and the trick model around it")
    args = ap.parse_args(argv)
    command = command_line("contested.py", argv)
    for name in args.ruleset or shipped_sets():
        rs = fivehundred.load_ruleset(name)
        params = tuned_for(rs)
        rows = trick_outcomes(rs, params, args.games, args.seed)
        if args.jokers or args.bids:
            if args.bids:
                bids_against(name, rows)
            if args.bids:
                refit(name, rs, params, rows, args, command, "bids_fit", ("trick_bias", "opponent_bids"))
            else:
                refit(name, rs, params, rows, args, command, "joker_fit", TERMS)
            continue
        alone = [t - e for e, t, s, c, *_ in rows if not s and not c]
        backed = [t - e for e, t, s, c, *_ in rows if s and not c]
        against = [t - e for e, t, _, c, *_ in rows if c]
        fitted = fit_trick_model(rows, params).opponent_called
        print(f"{name}: {len(rows)} contracts; alone {len(alone)} {mean(alone):+.2f}, partner's denomination "
              f"{len(backed)} {mean(backed):+.2f}, an opponent's {len(against)} {mean(against):+.2f}; "
              f"opponent_called {params.opponent_called} -> {fitted}", flush=True)
        if args.write:
            write_fit(name, {"opponent_called": fitted}, "opponent_called_fit", {
                "command": command, "games": args.games, "seed": args.seed, "contracts": len(against),
                "error_before": round(mean(against) - mean(alone), 4) if against and alone else None})
    return 0


TERMS = ("trick_bias", "joker_trumps", "no_trumps_bias", "joker_no_trumps", "partner_support", "opponent_called",
         "opponent_bids", "trick_spread")


def bids_against(name: str, rows: list[TrickRow]) -> None:
    groups = [[t - e for e, t, s, c, _, _, b in rows if not s and not c and min(b, 3) == n] for n in range(4)]
    print(f"{name}: alone, by the opponents' calls before (0, 1, 2, 3+): "
          + ", ".join(f"{len(g)} {mean(g):+.2f}" for g in groups), flush=True)


def refit(name: str, rs: Ruleset, params: ClubParams, rows: list[TrickRow], args: argparse.Namespace,
          command: str, record: str, written: tuple[str, ...]) -> None:
    if args.jokers:
        for nt, label in ((False, "trumps"), (True, "no-trumps")):
            groups = [[t - e for e, t, s, c, j, n, _ in rows if not s and not c and n == nt and bool(j) == held]
                      for held in (False, True)]
            print(f"{name} {label}: alone without a joker {len(groups[0])} {mean(groups[0]):+.2f}, "
                  f"with {len(groups[1])} {mean(groups[1]):+.2f}", flush=True)
    fitted = fit_trick_model(rows, params)
    fitted = fit_trick_model(trick_outcomes(rs, fitted, args.games, f"{args.seed}:2"), fitted)
    print(f"{name}: " + ", ".join(f"{k} {getattr(params, k)} -> {getattr(fitted, k)}" for k in TERMS), flush=True)
    if args.write:
        write_fit(name, {k: getattr(fitted, k) for k in written}, record, {
            "command": command, "games": args.games, "seed": args.seed, "rounds": 2,
            "before": {k: getattr(params, k) for k in written}})


if __name__ == "__main__":
    raise SystemExit(main())
