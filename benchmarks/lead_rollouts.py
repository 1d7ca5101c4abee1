#!/usr/bin/env python3
"""Leads in a suit contract valued by `club`'s own continuation: at every lead of the hands of
``benchmarks/play_gain.py`` (seeded `club` games, bid and exchanged by `club`), each legal card is played and the hand
played out by `club` in every seat on the true deal, and fixed choices of lead are compared with `club`'s own card.

    python benchmarks/lead_rollouts.py -n 10000 --seed 7         # about 4 minutes, compiled
    python benchmarks/lead_rollouts.py -r canadian -n 2000 --rows 20
    python benchmarks/lead_rollouts.py --contracts no-trumps      # the leads of no-trump contracts

A lead is grouped by the leader's side (contractor, its partner, defender), the kind of card `club` led (a trump, a
side winner, another side card) and its trumps against those it cannot see (``mine2-out1x``: two trumps held, one
unseen, the highest held not the master; counts from four up are shown as 4).  Each choice (the top trump, the
lowest, a side winner from the longest or shortest suit, low from the longest or shortest side suit) is compared with
`club`'s card, lead by lead: the side's tricks and contracts made with it against with `club`'s, the score a made
contract counting as ``--made`` tricks.  What changing that one card would gain `club`, playing on as it does, is what
a rule of thumb can carry over to the table (the true deal's best card is not: it depends on where unseen cards lie).
Printed: the groups whose mean gain is furthest above zero in standard errors (many groups are compared: confirm a
row in paired games, ``benchmarks/card_play_rules.py``).
"""
from __future__ import annotations

import argparse
import collections
import random
import statistics
from collections.abc import Callable

from play_gain import play_out  # benchmarks/play_gain.py
from solver import first_leads  # benchmarks/solver.py

from fivehundred.engine.state import JOKER_LEAD, GameState, Phase
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.manager import make_player


def describe(state: GameState, seat: int) -> dict[int, tuple[int, int, int, bool, int]]:
    """Each card the seat may lead: (suit, length of that suit in hand, rank in it from the top, master, cards of the
    suit the seat cannot see)."""
    table = state.play_table
    hand = state.hand(seat)
    log = state.hand_log
    played = {c for t in log.tricks for c in t.cards}
    known = set(log.discards) if seat == log.contractor else set()
    unseen = [c for c in range(len(table.suit_of)) if c not in played and c not in hand and c not in known]
    out = {}
    for a in state.legal_actions():
        if a >= JOKER_LEAD:
            continue
        suit = table.suit_of[a]
        row = table.power[suit] if suit < 4 else table.power[0]
        same = sorted((c for c in hand if table.suit_of[c] == suit), key=lambda c: -row[c])
        master = suit >= 4 or not any(table.suit_of[c] == suit and row[c] > row[a] for c in unseen)
        out[a] = (suit, len(same), same.index(a), master, sum(table.suit_of[c] == suit for c in unseen))
    return out


def choices(cards: dict, trump: int | None) -> dict[str, int]:
    trumps = {a: c for a, c in cards.items() if c[0] == trump}
    side = {a: c for a, c in cards.items() if c[0] != trump}
    found = {}
    if trumps:
        found["top trump"] = min(trumps, key=lambda a: trumps[a][2])
        found["lowest trump"] = max(trumps, key=lambda a: trumps[a][2])
    winners = [a for a in side if side[a][3]]
    lows = [a for a in side if side[a][2] == side[a][1] - 1]
    if winners:
        found["side winner, longest suit"] = max(winners, key=lambda a: (side[a][1], -side[a][2]))
        found["side winner, shortest suit"] = min(winners, key=lambda a: (side[a][1], side[a][2]))
    if lows:
        found["low, longest side suit"] = max(lows, key=lambda a: side[a][1])
        found["low, shortest side suit"] = min(lows, key=lambda a: side[a][1])
    return found


def group(state: GameState, seat: int, cards: dict, led: int, trump: int | None) -> tuple[str, str, str]:
    log = state.hand_log
    role = "contractor" if seat == log.contractor else "partner" if seat in state.contracting_side else "defender"
    c = cards[led]
    kind = "trump" if c[0] == trump else "side winner" if c[3] else "side card"
    trumps = [cards[a] for a in cards if cards[a][0] == trump]
    if trump is None:
        played = any(c >= JOKER_BASE for t in log.tricks for c in t.cards)
        joker = "joker played" if played else "joker held" if any(c >= JOKER_BASE for c in state.hand(seat)) else \
            "joker unseen"
        return role, kind, f"no-trumps, {joker}"
    if not trumps:
        return role, kind, "no trumps"
    top = min(trumps, key=lambda t: t[2])
    unseen = top[4]
    holding = "drawn" if not unseen else f"mine{min(len(trumps), 4)}-out{min(unseen, 4)}{'M' if top[3] else 'x'}"
    return role, kind, holding


def arguments(doc: str) -> argparse.ArgumentParser:
    """The options the rollout benchmarks share (``follow_rollouts.py`` adds its own)."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("-r", "--ruleset", default="pagat-australian")
    parser.add_argument("-n", "--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--made", type=float, default=10.0, help="tricks a contract made counts as")
    parser.add_argument("--rows", type=int, default=25)
    return parser


Decide = Callable[[GameState, int, int], "tuple[tuple[str, ...], dict[str, int]] | None"]


def rollout_gains(ruleset: str, hands: int, seed: int, keep: Callable[[GameState], bool],
                  decide: Decide) -> dict[tuple[str, ...], list[tuple[int, int]]]:
    """The hands of ``play_gain.py`` that ``keep`` takes, played by `club` in every seat; at each card where
    ``decide(state, seat, club's card)`` gives a group and named choices, each choice played and the hand played on
    by `club`: per (group, choice), the side's tricks and contracts made with it less those with `club`'s card."""
    gains: dict[tuple[str, ...], list[tuple[int, int]]] = collections.defaultdict(list)
    for number, state in enumerate(first_leads(ruleset, hands, seed, keep=keep)):
        side = set(state.contracting_side)
        kinds = dict.fromkeys(range(state.rules.players), "club")
        players = {c: make_player("club", c, random.Random(number * 10 + c)) for c in set(state.rules.controller)}
        deal = state.deals
        while state.deals == deal and state.phase == Phase.PLAY and not state.is_terminal():
            seat = state.current_player()
            card = players[state.rules.controller[seat]].act(state, state.legal_actions())
            decided = decide(state, seat, card)
            if decided is not None:
                key, found = decided
                sign = 1 if seat in side else -1
                outcome = {}
                for a in {card, *found.values()}:
                    after = state.clone()
                    after.apply(a)
                    won = play_out(after, kinds, number)
                    outcome[a] = (won, int(state.contract.made(won)))
                for name, a in found.items():
                    gains[(*key, name)].append((sign * (outcome[a][0] - outcome[card][0]),
                                                sign * (outcome[a][1] - outcome[card][1])))
            state.apply(card)
    return gains


def a_lead(state: GameState, seat: int, card: int) -> tuple[tuple[str, ...], dict[str, int]] | None:
    """The group and the choices of a lead with a choice (None for any other card)."""
    cards = describe(state, seat) if not state.trick_view()[0] and len(state.legal_actions()) > 1 else {}
    if card not in cards:
        return None
    trump = state.contract.trump
    return group(state, seat, cards, card, trump), choices(cards, trump)


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--contracts", choices=("trumps", "no-trumps", "all"), default="trumps")
    args = parser.parse_args()
    no_trumps = {"trumps": (False,), "no-trumps": (True,), "all": (False, True)}[args.contracts]
    gains = rollout_gains(args.ruleset, args.hands, args.seed,
                          lambda s: s.contract.goal == "at-least" and (s.contract.trump is None) in no_trumps, a_lead)
    print(f"{args.ruleset}: leads of {args.hands} hands (seed {args.seed}), each choice against club's card, "
          f"club playing on (a contract made counts {args.made:g} tricks)")
    print_rows(gains, args.made, args.rows, ("leader", "club led", "trumps held / unseen"))


def print_rows(gains: dict[tuple[str, ...], list[tuple[int, int]]], made: float, rows: int,
               headers: tuple[str, ...]) -> None:
    """The groups (a key, then the choice) whose mean gain over `club`'s card is furthest above zero, in standard
    errors, as a Markdown table: decisions, those the choice changed, tricks, made and the score with its 95%."""
    found_rows = []
    for key, found in gains.items():
        scores = [t + made * m for t, m in found]
        if len(scores) < 30 or statistics.stdev(scores) == 0:
            continue
        error = statistics.stdev(scores) / len(scores) ** 0.5
        found_rows.append((statistics.mean(scores) / error, key, found, scores, error))
    found_rows.sort(key=lambda row: -row[0])
    print(f"| {' | '.join(headers)} | instead | decisions | changed | tricks | made | score (95%) |")
    print("|" + "---|" * (len(headers) + 6))
    for _, key, found, scores, error in found_rows[:rows]:
        changed = sum(1 for d in found if d != (0, 0))
        print(f"| {' | '.join(key)} | {len(found)} | {changed} | {statistics.mean(d[0] for d in found):+.3f} | "
              f"{statistics.mean(d[1] for d in found):+.3f} | {statistics.mean(scores):+.2f} ± {1.96 * error:.2f} |")

if __name__ == "__main__":
    main()
