"""C1, double nullo (“500 (juego de cartas)”): in a contract with ``kitty_to_partner``, the contractor takes the
kitty and passes as many cards to the partner, who then discards as many, choosing among its own cards
and those passed to it.

The pass is a step of the exchange placed before the discards (``order`` below ``DISCARDS_ORDER``):
the contractor gives one card at a time (``HandLog.steps["pass-to-partner"]``, written to a record as
``passed``), and the engine then asks for the discards from whoever holds more than a hand, the
partner.  The cards passed are seen by the two partners only: nothing of the step is public, all of
it is theirs (``private``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from fivehundred.rules import effects
from fivehundred.rules.cards import card_face, card_str, parse_card
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import DISCARDS_ORDER, Step, card_position, contractor_of

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog
    from fivehundred.rules.manager import Rules

PASS_BASE = 1300
"""A card passed to the partner is ``PASS_BASE + card``."""


class PassToPartner(Step):
    """The contractor passes the kitty's worth of cards, one at a time, to the partner on its left."""

    name = "pass-to-partner"
    order = DISCARDS_ORDER - 100
    actions = range(PASS_BASE, PASS_BASE + 100)
    record_key = "passed"
    rule = "C1: the contractor passes as many cards as the kitty holds to the partner, who then discards as many"

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        contract = log.contract
        if contract is None or log.contractor < 0 or not (contract.kitty_to_partner and contract.kitty):
            return None
        return log.contractor if len(log.steps.get(self.name, ())) < state.rules.kitty_size else None

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [PASS_BASE + card for card in state.hand(seat)]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        card = action - PASS_BASE
        state.carry_out(effects.MoveCard(card, seat, partner(state, seat)))
        state.hand_log.steps.setdefault(self.name, []).append(card)

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        return f"{card_str(action - PASS_BASE)} is not in the contractor's hand"

    def text(self, action: int) -> str:
        return f"pass {card_str(action - PASS_BASE)}"

    def parse(self, text: str) -> int:
        words = text.split()
        if len(words) == 2 and words[0].lower() == "pass":
            return PASS_BASE + parse_card(words[1])
        raise ValueError(f"{text!r} is not a pass to the partner ('pass 4D')")

    def kind(self, action: int) -> str:
        return "pass"

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        cards = log.steps.get(self.name)
        return {self.record_key: [card_str(card) for card in cards]} if cards else {}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(None, f"pass {card}") for card in hand.get(self.record_key, [])]

    def public(self, state: GameState, log: HandLog) -> Any:
        return None  # between the partners only

    def private(self, state: GameState, log: HandLog, seat: int) -> Any:
        cards = log.steps.get(self.name)
        return tuple(cards) if cards and seat in (log.contractor, partner(state, log.contractor)) else None

    def private_size(self, rules: Rules) -> int:
        return len(rules.deck)  # the cards passed

    def private_indices(self, private: Any, rules: Rules) -> Iterable[int]:
        return [card_position(rules, card) for card in private]

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        passed = hand.get(self.record_key)
        if not passed:
            return []
        return [f"{contractor_of(hand)} passes {' '.join(card_face(str(c)) for c in passed)} to the partner"]

    def copy_data(self, data: Any) -> Any:
        return list(data)


def partner(state: GameState, contractor: int) -> int:
    """The contractor's partner in C1: the first seat of the contracting side on its left."""
    n, side = state.rules.players, state.contracting_side
    return next((contractor + k) % n for k in range(1, n) if (contractor + k) % n in side)


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    passes = any(c.kitty_to_partner for c in ruleset.contracts.values())
    return [PassToPartner()] if passes else None
