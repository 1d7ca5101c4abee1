"""P2, dummies (two-handed Five Hundred, “Cómo jugar”): each player has a dummy partner whose ten cards are
dealt onto the table, the first five face down and the other five face up, one on each face-down card.
The dummy never calls (``AuctionRules.silent``, set by the bidding plugin); its partner plays its face-up
cards for it (``Rules.controller``), and when a face-up card has been played the card under it is turned
up once the trick is over.  Every seat sees a dummy's face-up cards.

The laying out is a step without actions (``LaidOut.begin``, as soon as the hand is dealt), through the
``LayOut`` effect (``fivehundred.rules.effects``); the engine turns the covered cards up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivehundred.rules import effects
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step

from .bidding import dummy_seats

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState


class LaidOut(Step):
    """The dummies' hands laid out as dealt: the first half face down, each under a card of the second."""

    name = "dummies"
    stage = "before-auction"

    def __init__(self, seats: frozenset[int]):
        self.seats = sorted(seats)

    def begin(self, state: GameState) -> None:
        for seat in self.seats:
            dealt = state.hand_log.hands[seat]
            half = len(dealt) // 2
            state.carry_out(effects.LayOut(seat, dict(zip(dealt[half:], dealt[:half], strict=True))))

    def actor(self, state: GameState) -> int | None:
        return None


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    seats = dummy_seats(ruleset)
    return [LaidOut(seats)] if seats else None
