"""L2, claims (seed 003): the contractor, about to lead, lays the hand down and claims every
remaining trick; a wrong claim costs the contracting side ``play.claim_penalty``.

A claim is right when the contracting side takes every remaining trick however the defenders play,
with every hand known (the claimer shows its cards; a claim is judged, as at the table, on the
cards, not on a line of play).  ``takes_every_trick`` decides that by an exhaustive AND/OR search
of the rest of the hand through the engine itself (so joker, nomination and follow rules of every
variant hold): the side needs one card that keeps every trick, the defence one card that wins one.
Positions are memoised on the cards left and the trick in progress, which keeps late claims (the
usual ones) to a few hundred positions; a search that would pass ``budget`` positions is not a
proof, and the claim is judged wrong, as a claim the claimer cannot show is contested and lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivehundred.rules.actions import CLAIM, JOKER_LEAD, Phase
from fivehundred.rules.cards import JOKER_BASE

if TYPE_CHECKING:
    from .state import GameState

BUDGET = 3_000
"""Positions searched at most before a claim counts as not shown."""


class _OutOfBudget(Exception):
    pass


def takes_every_trick(state: GameState, budget: int = BUDGET) -> bool:
    """Whether the contracting side takes every remaining trick of the hand against any defence."""
    side = state.contracting_side
    memo: dict[tuple[object, ...], bool] = {}
    left = [budget]

    def search(position: GameState) -> bool:
        players = range(position.rules.players)
        key = (tuple(position.hand(s) for s in players), position.trick, position.current_player(), position.led_suit)
        known = memo.get(key)
        if known is not None:
            return known
        left[0] -= 1
        if left[0] < 0:
            raise _OutOfBudget
        ours = position.current_player() in side
        tricks = len(position.hands_log[-1].tricks)
        result = not ours  # the side: no card keeps every trick; the defence: no card wins one
        for action in _strongest_first(position):
            after = position.clone()
            after.apply_unchecked(action)
            log = after.hands_log[-1]
            if len(log.tricks) > tricks and log.tricks[tricks].winner not in side:
                holds = False
            else:  # the hand over (scored on the copy only) with every trick the side's, or play on
                holds = after.phase != Phase.PLAY or search(after)
            if holds == ours:
                result = ours
                break
        memo[key] = result
        return result

    if _defence_holds_a_sure_trick(state):
        return False
    try:
        return search(_searchable(state))
    except _OutOfBudget:
        return False


def _strongest_first(position: GameState) -> list[int]:
    """Plays ordered by how strongly they bid for the trick (the likeliest to settle a position first)."""
    table, led = position.play_table, position.led_suit
    assert table is not None
    row = table.power[led] if led is not None else None

    def strength(action: int) -> int:
        card = action if action < JOKER_LEAD else JOKER_BASE + (action - JOKER_LEAD) // 4
        return (row or table.power[min(table.suit_of[card], 3)])[card]

    plays = [a for a in position.legal_actions() if a != CLAIM]
    if table.legal_filter is None and not position.rules.dummies:
        plays = _one_per_run(position, plays)
    return sorted(plays, key=strength, reverse=True)


def _one_per_run(position: GameState, plays: list[int]) -> list[int]:
    """Cards of one suit that no other card still in play separates (in a hand or on the table) are
    interchangeable: whichever is played, the same tricks follow.  Keep the highest of each run."""
    table = position.play_table
    assert table is not None
    mine = set(plays)
    live = [card for seat in range(position.rules.players) for card in position.hand(seat)] + list(position.trick)
    kept: list[int] = []
    for action in plays:
        suit = table.suit_of[action] if action < JOKER_LEAD else 4
        if suit > 3:
            kept.append(action)  # a free joker or a joker led as a suit: its own
            continue
        order = table.power[suit]
        above = [c for c in live if table.suit_of[c] == suit and order[c] > order[action]]
        nearest = min(above, key=order.__getitem__, default=None)
        if nearest is None or nearest not in mine:
            kept.append(action)  # the top of its run
    return kept


def _searchable(state: GameState) -> GameState:
    """A copy holding only the hand in progress (every position searched is a copy of it)."""
    copy = state.clone()
    copy.hands_log = copy.hands_log[-1:]
    return copy


def _defence_holds_a_sure_trick(state: GameState) -> bool:
    """A shortcut for most wrong claims: a defender holds the card that wins whatever suit is led (the
    top trump, a free joker), and every card is played out, so it takes a trick.  Only where the
    tables alone decide tricks (no variant filter, no per-trick end, no face-down dummy cards)."""
    table = state.play_table
    if table is None or table.legal_filter is not None or state.rules.trick_check is not None or state.rules.dummies:
        return False
    power = table.power
    remaining = [card for seat in range(state.rules.players) for card in state.hand(seat)]
    tops = {max(remaining, key=power[led].__getitem__) for led in range(4)}
    if len(tops) != 1:
        return False
    top = tops.pop()
    if any(power[led][top] <= power[led][card] for led in range(4) for card in remaining if card != top):
        return False  # a tie for the top: no sure trick
    return not any(top in state.hand(seat) for seat in state.contracting_side)
