#!/usr/bin/env python3
"""Where `club`'s misère defence gives up a kill: the open misères of ``benchmarks/misere_defence.py --save FILE``
played again by `club` in every seat, each defender's card checked with the double-dummy solver on the true deal.

    python benchmarks/misere_defence.py -n 600 --seed 30 --save om.jsonl
    python benchmarks/defence_errors.py --hands om.jsonl              # a summary, then one JSON line a hand

The first card of each hand at which the deal still held a kill (a card after which no play of the contractor's
makes the misère) and `club`'s card gave it up is printed with the hands as they stood, the trick so far, the
cards that kept the kill and the card a search over ``--worlds`` sampled deals would have played
(``solved_worlds.best_card``, as `club` with ``misere_worlds`` set plays): a kill the search keeps is one the
defender could have found from what it saw.  The summary counts them by trick and by lead or follow.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path
from typing import Any

from misere_defence import auctioned, load_hands  # benchmarks/misere_defence.py

import fivehundred
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import tuned_for
from fivehundred.bots.solved_worlds import best_card
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.cards import card_str
from fivehundred.rules.manager import compile_rules


def first_error(state: GameState, players: list[ClubPlayer], worlds: int) -> dict[str, Any] | None:
    """Play the hand out; the first defender's card that gave up a kill, as a record (None: no such card)."""
    rules = state.rules
    side = rules.team_of[state.contractor]
    found = None
    while state.hands_log[0].outcome is None:
        seat = state.current_player()
        legal = state.legal_actions()
        action = players[seat].act(state, legal)
        if found is None and state.phase == Phase.PLAY and rules.team_of[seat] != side and len(legal) > 1:
            found = _lost_kill(state, seat, action, worlds)
        state.apply(action)
    return found


def _lost_kill(state: GameState, seat: int, action: int, worlds: int) -> dict[str, Any] | None:
    contract = state.contract
    assert contract is not None
    values = fivehundred.solve_cards(state)
    kills = [a for a, v in values.items() if not contract.made(v)]
    if not kills or not contract.made(values[action]):
        return None
    searched = best_card(state, worlds, list(values), action)
    trick = state.trick_view()[0]
    return {"trick": len(state.hand_log.tricks) + 1, "lead": not trick, "seat": seat,
            "contractor": state.contractor, "club": card_str(action), "kills": [card_str(a) for a in kills],
            "searched": card_str(searched), "search_keeps": searched in kills,
            "hands": {s: " ".join(card_str(c) for c in sorted(state.hand(s))) for s in range(state.rules.players)},
            "trick_so_far": [card_str(c) for c in trick],
            "tricks": [[card_str(c) for c in t.cards] for t in state.hand_log.tricks]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=Path, required=True, help="open misères saved by misere_defence.py --save")
    ap.add_argument("-r", "--ruleset", default="pagat-australian")
    ap.add_argument("--worlds", type=int, default=8)
    args = ap.parse_args(argv)
    ruleset = fivehundred.load_ruleset(args.ruleset)
    rules = compile_rules(ruleset)
    heuristic = tuned_for(ruleset).model_copy(update={"misere_worlds": 0.0})
    errors, hands, made = [], 0, 0
    for game, number, totals, log in load_hands(args.hands):
        rng = random.Random(f"errors:{game}:{number}")
        players = [ClubPlayer(s, rng, heuristic) for s in range(rules.players)]
        state = auctioned(rules, log, totals)
        error = first_error(state, players, args.worlds)
        hands += 1
        outcome = state.hands_log[0].outcome
        made += bool(outcome and outcome.made)
        if error is not None:
            errors.append({"game": game, "hand": number, **error})
    by_place = collections.Counter(f"trick {e['trick']} {'lead' if e['lead'] else 'follow'}" for e in errors)
    print(json.dumps({"hands": hands, "made": made, "kill_given_up": len(errors),
                      "search_keeps": sum(e["search_keeps"] for e in errors),
                      "by_place": dict(sorted(by_place.items()))}))
    for e in errors:
        print(json.dumps(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
