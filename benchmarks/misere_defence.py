#!/usr/bin/env python3
"""Open misères let through: the same contracts, played again against different defenders.

    python benchmarks/misere_defence.py                       # 300 games of `club`, reference ruleset
    python benchmarks/misere_defence.py -n 600 --seed 9 -r six-handed-two-jokers
    python benchmarks/misere_defence.py --defenders club,club:OLD.json,solver:8

The deals and auctions are those of ``-n`` seeded games of ``--players`` (``club:nosearch``) in every seat
(``fivehundred.batch.simulation.play_game``: the games ``fivehundred simulate`` plays). Each hand whose contract
is an open misère is dealt again, its auction replayed call for call, and then played out with ``club`` as the
contractor (or ``--contractor``; a generator seeded with the game and hand, the same for every defence) and each
of ``--defenders`` (player specs, as ``--players`` takes them) in the defenders' seats. Printed per defence: the
open misères made (let through) out of those played, with a 95% Wilson interval, and the seconds the defence
took. ``--first`` (default ``club:nosearch``: ``club`` with ``misere_worlds`` 0, the heuristic defence alone) is
the defence the others are compared against, hand by hand: the hands one defence beat and the other let through.
``--dd`` adds the defence that sees every card (the double-dummy solver on the position at the first lead, after
the contractor's exchange of the first defence's replay): the misères no defence could have beaten. ``--save
FILE`` keeps the hands found (deal, calls, score before) as JSON lines, ``--hands FILE`` plays those again
instead of playing games: the same contracts for defences of different versions of the code (a bidding change
changes the games, and so the open misères they bid).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import fivehundred
from fivehundred.batch.simulation import play_game, wilson
from fivehundred.bots.params import tuned_for
from fivehundred.engine.state import CALL, PASS_ACTION, GameState, HandLog, Phase
from fivehundred.rules.manager import Rules, compile_rules, make_player

DOUBLE_DUMMY = "double-dummy (every card seen)"


def open_misere_hands(ruleset: fivehundred.Ruleset, players: str, games: int, seed: int
                      ) -> list[tuple[int, int, list[int], HandLog]]:
    """(game, hand number, totals before the hand, hand log) of every open misère contracted in the games."""
    found = []
    for game in range(games):
        state = play_game(ruleset, seed, players, game=game)
        totals = [0] * len(ruleset.players.teams)
        for log in state.hands_log:
            c = log.contract
            if c is not None and c.kind == "misere" and c.open and log.contractor >= 0:
                found.append((game, log.number, list(totals), log))
            if log.totals:
                totals = list(log.totals)
    return found


def save_hands(path: Path, hands: list[tuple[int, int, list[int], HandLog]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for game, number, totals, log in hands:
            out.write(json.dumps({"game": game, "number": number, "totals": totals, "dealer": log.dealer,
                                  "hands": log.hands, "kitty": log.kitty, "dead": log.dead,
                                  "calls": log.calls, "contractor": log.contractor}) + "\n")


def load_hands(path: Path) -> list[tuple[int, int, list[int], HandLog]]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        h = json.loads(line)
        log = HandLog(number=h["number"], dealer=h["dealer"], hands=h["hands"], kitty=h["kitty"], dead=h["dead"],
                      calls=[tuple(c) for c in h["calls"]], contractor=h["contractor"])
        found.append((h["game"], h["number"], h["totals"], log))
    return found


def auctioned(rules: Rules, log: HandLog, totals: list[int]) -> GameState:
    """The hand of ``log`` dealt again with the score before it, its calls made again: the contractor to exchange."""
    state = GameState(rules, first_dealer=log.dealer)
    state.start_at(totals, log.number)
    state.deal_cards(log.hands, log.kitty, log.dead)
    for _, call in log.calls:
        state.apply(CALL + call if call >= 0 else PASS_ACTION)
    return state


def replay(rules: Rules, log: HandLog, totals: list[int], defenders: str, contractor: str, seed: str,
           first_lead: list[GameState] | None = None) -> bool:
    """Play the hand of ``log`` again (same deal, same calls) with ``contractor`` in the contractor's side's seats
    and ``defenders`` in the others; was the misère made?  ``first_lead`` gets the position at the first lead."""
    state = auctioned(rules, log, totals)
    team = rules.team_of
    side = team[log.contractor]
    rng = random.Random(seed)
    seats = [make_player(contractor if team[s] == side else defenders, s, rng) for s in range(rules.players)]
    while state.hands_log[0].outcome is None:
        if first_lead is not None and state.phase == Phase.PLAY and not state.hand_log.tricks and not state.trick:
            first_lead.append(state.clone())
            first_lead = None
        seat = state.current_player()
        state.apply(seats[seat].act(state, state.legal_actions()))
    outcome = state.hands_log[0].outcome
    assert outcome is not None, "the hand was not played out"
    return bool(outcome.made)


def nosearch_spec(ruleset: str, folder: Path) -> str:
    """``club`` with its tuned parameters for ``ruleset`` but ``misere_worlds`` 0: the heuristic defence alone."""
    path = folder / "club-nosearch.json"
    params = tuned_for(ruleset).model_copy(update={"misere_worlds": 0.0})
    path.write_text(json.dumps({"params": params.model_dump()}), encoding="utf-8")
    return f"club:{path}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("-n", "--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("-p", "--players", default="club:nosearch", help="who plays the games the contracts come from")
    ap.add_argument("--first", default="club:nosearch", help="the defence the others are compared with")
    ap.add_argument("--defenders", default="club", help="comma-separated player specs")
    ap.add_argument("--save", type=Path, help="write the open-misère hands found to this file (JSON lines)")
    ap.add_argument("--hands", type=Path, help="play the hands of this file (from --save) instead of games")
    ap.add_argument("--contractor", default="club", help="who plays the contractor's side (a player spec)")
    ap.add_argument("--dd", action="store_true",
                    help="add the double-dummy row: the misères no defence could beat with every card seen")
    args = ap.parse_args(argv)
    ruleset = fivehundred.load_ruleset(args.ruleset)
    rules = compile_rules(ruleset)
    with tempfile.TemporaryDirectory(prefix="misere-defence-") as tmp:
        def spec(text: str) -> str:
            return nosearch_spec(ruleset.name, Path(tmp)) if text == "club:nosearch" else text

        hands = load_hands(args.hands) if args.hands else open_misere_hands(ruleset, spec(args.players),
                                                                              args.games, args.seed)
        if args.save:
            save_hands(args.save, hands)
        defences = [args.first, *[d for d in args.defenders.split(",") if d and d != args.first]]
        made: dict[str, list[bool]] = {}
        seconds: dict[str, float] = {}
        leads: list[GameState] = []
        for d in defences:
            start = time.process_time()
            made[d] = [replay(rules, log, totals, spec(d), spec(args.contractor), f"{args.seed}:{game}:{number}",
                              leads if d == args.first and args.dd else None)
                       for game, number, totals, log in hands]
            seconds[d] = time.process_time() - start
        if args.dd:  # the defence that sees every card: the misère is let through when the solver says made
            start = time.process_time()
            made[DOUBLE_DUMMY] = [bool(s.contract and s.contract.made(fivehundred.solve(s))) for s in leads]
            seconds[DOUBLE_DUMMY] = time.process_time() - start
            defences.append(DOUBLE_DUMMY)
    n = len(hands)
    rows: list[dict[str, Any]] = []
    for d in defences:
        through = sum(made[d])
        row = {"defenders": d, "open_miseres": n, "let_through": through,
               "rate": round(through / n, 4) if n else None, "ci95": wilson(through, n) if n else None,
               "cpu_seconds": round(seconds[d], 1)}
        if d != args.first:
            row["beaten_only_here"] = sum(a and not b for a, b in zip(made[args.first], made[d], strict=True))
            row["let_through_only_here"] = sum(b and not a for a, b in zip(made[args.first], made[d], strict=True))
            row["let_through_only_here_hands"] = [f"game {g} hand {n}" for (g, n, _, _), a, b
                                                  in zip(hands, made[args.first], made[d], strict=True)
                                                  if b and not a][:10]
            row["beaten_only_here_hands"] = [f"game {g} hand {n}" for (g, n, _, _), a, b
                                             in zip(hands, made[args.first], made[d], strict=True) if a and not b][:10]
        rows.append(row)
    print(json.dumps({"ruleset": ruleset.name, "players": args.players, "games": args.games, "seed": args.seed,
                      "hands": str(args.hands) if args.hands else None, "defences": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
