"""D4, a misdeal without a face card (“500 (juego de cartas)”): a hand dealt without a jack, queen, king or joker
(aces do not count) is thrown in and the same dealer deals again, ``deal.misdeal_without_face_card``:

- ``must``: as soon as such a hand is dealt (``ThrowIn.begin``), before anybody calls;
- ``may``: its holder may call ``misdeal`` in the auction, as their first call (``Misdeal``, a step of
  stage ``"call"`` offered beside the calls).  The call joins the hand's calls; records write it there.

Either way the hand log says ``misdeal`` and nothing else happens in that deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivehundred.rules import effects
from fivehundred.rules.cards import JACK, JOKER_BASE, KING, QUEEN
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog

MISDEAL = 950
"""The action id of a misdeal called in the auction."""
RULE = "D4: a hand without a face card may be thrown in, by its holder, as their first call"


def faceless(cards: list[int]) -> bool:
    """Whether a hand holds no jack, queen, king or joker."""
    return not any(card >= JOKER_BASE or card % 20 in (JACK, QUEEN, KING) for card in cards)


class ThrowIn(Step):
    """``must``: a deal with a hand without a face card is thrown in as soon as it is dealt."""

    name = "misdeal-dealt"
    stage = "before-auction"

    def begin(self, state: GameState) -> None:
        if any(map(faceless, state.hand_log.hands)):
            state.carry_out(effects.ThrowIn())

    def actor(self, state: GameState) -> int | None:
        return None


class Misdeal(Step):
    """``may``: the holder of a hand without a face card may call a misdeal as their first call."""

    name = "misdeal"
    stage = "call"
    actions = range(MISDEAL, MISDEAL + 1)
    rule = RULE

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        seat = state.current_player()
        if seat < 0 or any(caller == seat for caller, _ in log.calls) or not faceless(log.hands[seat]):
            return None
        return seat

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [MISDEAL]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        state.carry_out(effects.ThrowIn(caller=seat))

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        return "only a player without a face card may call a misdeal, as a first call"

    def text(self, action: int) -> str:
        return "misdeal"

    def kind(self, action: int) -> str:
        return "call"

    def parse(self, text: str) -> int:
        if text.strip().lower() == "misdeal":
            return MISDEAL
        raise ValueError(f"{text!r} is not a misdeal")

    def public(self, state: GameState, log: HandLog) -> None:
        return None  # the call is among the calls, which every seat sees


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    mode = ruleset.deal.misdeal_without_face_card
    return [ThrowIn()] if mode == "must" else [Misdeal()] if mode == "may" else None

