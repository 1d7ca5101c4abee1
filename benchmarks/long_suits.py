#!/usr/bin/env python3
"""Misères with a long suit: how often ``club``'s solo misères are made against what its curve said, by the
longest suit of the hand it keeps, and the ``misere_long`` the misère curve fits for them.

    python benchmarks/long_suits.py                     # 3,000 games of `club`, each ruleset with a tuned set
    python benchmarks/long_suits.py -n 1000 -r canadian
    python benchmarks/long_suits.py -r canadian --write          # set misere_long in the shipped tuned set

Per ruleset, from seeded self-play of ``club`` with its tuned set (``fivehundred.batch.calibration.misere_outcomes``:
each misère played alone, its danger as the contractor bid it, from its hand as dealt, the discards it would make
less one): the misères by the cards beyond four in the longest suit kept (0, 1, 2 or more), made and what the
shipped curve gave them, then ``fit_curve``'s fit (``misere_mid``, ``open_risk`` and ``misere_long`` together, the
slope kept).  ``--write`` sets ``misere_long`` alone in the shipped tuned set (``core/bots/tuned/RULESET.json``),
its other parameters kept (the curve's middle there was chosen by games: docs/calibration.md), and records the
command there under ``tuning.long_suits_fit``.
"""

from __future__ import annotations

import sys

from tuned_files import command_line, fit_arguments, write_fit  # benchmarks/tuned_files.py

import fivehundred
from fivehundred.batch.calibration import fit_curve, misere_outcomes, row_chance
from fivehundred.bots.params import shipped_sets, tuned_for


def main(argv: list[str] | None = None) -> int:
    ap = fit_arguments(__doc__, 3000, "long-suits", "set misere_long in the shipped tuned sets")
    ap.add_argument("-w", "--workers", type=int, default=1)
    args = ap.parse_args(argv)
    command = command_line("long_suits.py", argv)
    for name in args.ruleset or shipped_sets():
        ruleset = fivehundred.load_ruleset(name)
        params = tuned_for(ruleset)
        rows = misere_outcomes(ruleset, params, args.games, args.seed, workers=args.workers)
        if not rows:
            print(f"{name}: no misère played alone")
            continue
        print(f"{name}: {len(rows)} misères played alone in {args.games} games (seed {args.seed})")
        for long, label in ((0, "no suit over four"), (1, "one card over four"), (2, "two or more over four")):
            group = [r for r in rows if min(r[4], 2) == long]
            if group:
                made = sum(1 for r in group if r[2]) / len(group)
                said = sum(row_chance(r, params) for r in group) / len(group)
                print(f"  {label:24} {len(group):6}  made {made:.1%}  the curve said {said:.1%}")
        fitted = fit_curve(rows, params)
        print(f"  fitted: misere_mid {fitted.misere_mid}, open_risk {fitted.open_risk}, "
              f"misere_long {fitted.misere_long} (shipped: {params.misere_mid}, {params.open_risk}, "
              f"{params.misere_long})")
        if args.write:
            path = write_fit(name, {"misere_long": fitted.misere_long}, "long_suits_fit", {
                "command": command, "games": args.games, "seed": args.seed, "contracts": len(rows),
                "fitted": {"misere_mid": fitted.misere_mid, "open_risk": fitted.open_risk,
                           "misere_long": fitted.misere_long},
                "written": ["misere_long"], "before": {"misere_long": params.misere_long}})
            print(f"  wrote misere_long {fitted.misere_long} to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
