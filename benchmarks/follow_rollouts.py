#!/usr/bin/env python3
"""Follows valued by `club`'s own continuation, as ``benchmarks/lead_rollouts.py`` values leads: at every card a
seat follows with a choice, in the hands of ``benchmarks/play_gain.py``, a few fixed choices are played and the hand
played out by `club` in every seat on the true deal, and compared with `club`'s own card.

    python benchmarks/follow_rollouts.py -n 10000 --seed 5              # about 4 minutes, compiled
    python benchmarks/follow_rollouts.py -n 10000 --seed 5 --by led     # split by the trump led (0: the top trump)

A follow is grouped by the side (contracting or defending), the seat's place in the trick, what was led (trumps, a
side suit, no-trumps), whether the seat follows suit or is void, who wins the trick so far, and the card `club`
played (a joker, a trump or another card; winning the trick so far or not), and with ``--by`` by the trick
(``trick``: 1–3, 4–6, 7 on), the joker in the seat's hand (``joker``) or how many trumps beat a trump led
(``led``, counted over the whole deck).  The choices: the lowest card, the highest, the lowest and highest that win
the trick so far, and the lowest and highest that do not.  Printed as ``lead_rollouts.py`` prints.
"""
from __future__ import annotations

from collections.abc import Callable

from lead_rollouts import arguments, print_rows, rollout_gains  # benchmarks/lead_rollouts.py

from fivehundred.engine.state import JOKER_LEAD, GameState
from fivehundred.rules.cards import JOKER_BASE


def choices(state: GameState, plays: list[int]) -> dict[str, int]:
    table = state.play_table
    trick, led, _, _ = state.trick_view()
    row = table.power[led]
    best = max(row[c] for c in trick)
    trump = state.contract.trump

    def height(a: int) -> tuple[int, bool]:
        return row[a], table.suit_of[a] == trump  # a throw before a trump of no power here

    found = {"lowest": min(plays, key=height), "highest": max(plays, key=height)}
    wins = [a for a in plays if row[a] > best]
    loses = [a for a in plays if row[a] <= best]
    if wins:
        found["lowest winner"], found["highest winner"] = min(wins, key=height), max(wins, key=height)
    if loses:
        found["lowest loser"], found["highest loser"] = min(loses, key=height), max(loses, key=height)
    return found


def group(state: GameState, seat: int, card: int, by: str | None) -> tuple[str, ...]:
    table = state.play_table
    trick, led, leader, _ = state.trick_view()
    row = table.power[led]
    trump = state.contract.trump
    side = set(state.contracting_side)
    winner = (leader + max(range(len(trick)), key=lambda i: row[trick[i]])) % state.rules.players
    kind = "joker" if card >= JOKER_BASE else "trump" if table.suit_of[card] == trump else "card"
    key = ("contracting" if seat in side else "defending", f"place {len(trick) + 1}",
           "no-trumps" if trump is None else "trumps" if led == trump else "side suit",
           "follows" if any(table.suit_of[a] == led for a in state.legal_actions() if a < JOKER_LEAD) else "void",
           "partner wins" if (winner in side) == (seat in side) else "opponent wins",
           f"{kind} {'wins' if row[card] > max(row[c] for c in trick) else 'loses'}")
    if by == "trick":
        done = len(state.hand_log.tricks)
        key += ("tricks 1-3" if done < 3 else "tricks 4-6" if done < 6 else "tricks 7-",)
    elif by == "joker":
        key += ("joker held" if any(c >= JOKER_BASE for c in state.hand(seat)) else "no joker",)
    elif by == "led":
        over = sum(1 for c in range(len(table.suit_of)) if table.suit_of[c] == trump and row[c] > row[trick[0]])
        key += (f"{min(over, 6)}{'+' if over >= 6 else ''} over the trump led" if led == trump else "–",)
    return key


def a_follow(by: str | None) -> Callable[[GameState, int, int], tuple[tuple[str, ...], dict[str, int]] | None]:
    def decide(state: GameState, seat: int, card: int) -> tuple[tuple[str, ...], dict[str, int]] | None:
        plays = [a for a in state.legal_actions() if a < JOKER_LEAD]
        if not state.trick_view()[0] or len(plays) < 2 or card not in plays:
            return None
        return group(state, seat, card, by), choices(state, plays)
    return decide


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--by", choices=("trick", "joker", "led"), help="split each group further")
    args = parser.parse_args()
    gains = rollout_gains(args.ruleset, args.hands, args.seed, lambda s: s.contract.goal == "at-least",
                          a_follow(args.by))
    print(f"{args.ruleset}: follows of {args.hands} hands (seed {args.seed}), each choice against club's card, "
          f"club playing on (a contract made counts {args.made:g} tricks)")
    print_rows(gains, args.made, args.rows, ("side", "place", "led", "follows", "so far", "club played",
                                             *(["by"] if args.by else [])))

if __name__ == "__main__":
    main()
