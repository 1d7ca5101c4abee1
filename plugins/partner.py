"""P5, a called partner (five-handed, “500 (juego de cartas)”): after the exchange the contractor calls a card; whoever
holds it partners the contractor for the hand, unknown to the others until the card is played.  The
contractor may instead go alone.  The encyclopedia article's options: ``players.call_own_card`` lets the contractor call
a card it holds (a lone hand nobody knows of), and ``players.call_trumps: false`` forbids calling a trump.
A step of the hand (``fivehundred.rules.steps``), before the nomination.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from fivehundred.rules import effects
from fivehundred.rules.cards import JOKER_BASE, card_face, card_str, parse_card
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step, card_position, contractor_of, holder_of

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog
    from fivehundred.rules.manager import Rules

PARTNER = 500
"""Action ids: ``PARTNER + card`` calls that card."""
ALONE = 599
"""The contractor plays alone."""


class PartnerCall(Step):
    """The contractor calls a card (``HandLog.steps["partner-call"]``: the card, or -1 for alone)."""

    name = "partner-call"
    order = 200
    actions = range(PARTNER, ALONE + 1)
    record_key = "partner_call"
    rule = "P5: the contractor calls a card another player holds, or goes alone"

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        return log.contractor if log.contractor >= 0 and self.name not in log.steps else None

    def legal(self, state: GameState, seat: int) -> list[int]:
        log = state.hand_log
        players = state.rules.ruleset.players
        barred = set(log.discards) if players.call_own_card else set(state.hand(seat)) | set(log.discards)
        if not players.call_trumps and log.contract is not None and log.contract.trump is not None:
            suit_of, trump = state.rules.play_table(log.contract).suit_of, log.contract.trump
            barred.update(c for c in state.rules.deck if suit_of[c] == trump)  # the bowers too
        return [PARTNER + c for c in sorted(state.rules.deck) if c < JOKER_BASE and c not in barred] + [ALONE]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        card = None if action == ALONE else action - PARTNER
        state.hand_log.steps[self.name] = -1 if card is None else card
        holder = next((s for s in range(state.rules.players) if card in state.hand(s)), None)
        state.carry_out(effects.SetSide(frozenset({seat} | ({holder} if holder is not None else set()))))

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        players = state.rules.ruleset.players
        return ("the joker" + ("" if players.call_own_card else ", the contractor's own cards")
                + ", the discards" + ("" if players.call_trumps else " and trumps") + " cannot be called")

    def text(self, action: int) -> str:
        return "alone" if action == ALONE else f"call {card_str(action - PARTNER)}"

    def parse(self, text: str) -> int:
        words = text.lower().split()
        return ALONE if words == ["alone"] else PARTNER + parse_card(words[-1])

    def kind(self, action: int) -> str:
        return "partner"

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        if self.name not in log.steps:
            return {}
        card = log.steps[self.name]
        return {self.record_key: "alone" if card < 0 else card_str(card)}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(None, str(hand[self.record_key]))] if self.record_key in hand else []

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        called = hand.get(self.record_key)
        if called is None:
            return []
        who = contractor_of(hand)
        if called == "alone":
            return [f"{who} plays alone"]
        holder = holder_of(hand, str(called))
        held = "" if holder is None else " (its own: alone)" if holder == who else f" ({holder} holds it)"
        return [f"{who} calls {card_face(str(called))} for a partner{held}"]

    def copy_data(self, data: Any) -> Any:
        return data

    def public_size(self, rules: Rules) -> int:
        return 1 + len(rules.deck)  # alone, or the card called

    def public_indices(self, public: Any, rules: Rules) -> Iterable[int]:
        return [0 if public < 0 else 1 + card_position(rules, public)]


def called_card(log: HandLog) -> int | None:
    """The card the contractor called this hand (-1: alone), or None when no partner was called."""
    card: int | None = log.steps.get(PartnerCall.name)
    return card


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    return [PartnerCall()] if ruleset.players.partnership == "called-card" else None
