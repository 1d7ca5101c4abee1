"""B8, blind misère (“Introducción a Quinientos” and “500 (juego de cartas)”): a misère bid before the bidder
has looked at its cards.

Before the auction each player in turn, from the dealer's left and before looking at their cards, may
make a blind bid (a ladder rung with ``before_looking: true``) or look at their cards.  The first blind
bid ends the round and stands as the bid when the auction opens, on the bidder's left; the others may
still overcall it.  While the round lasts nobody sees their own hand (``Step.hides_own_hand``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from fivehundred.rules import effects
from fivehundred.rules.cards import call_face
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog
    from fivehundred.rules.manager import Rules

LOOK = 1100
"""The player looks at its cards: no blind bid."""
BLIND = 1101
"""``BLIND + i`` makes the ruleset's i-th blind bid (in ladder order)."""


class BlindBid(Step):
    """``HandLog.steps["blind"]``: ``(seat, rung or -1 for a look)`` for each player asked, in order."""

    def __init__(self, calls: tuple[str, ...]):
        self.calls = calls
        """The blind bids of the ruleset's ladder, by name."""

    name = "blind"
    stage = "before-auction"
    order = 500
    actions = range(LOOK, BLIND + 100)
    record_key = "blind_calls"
    rule = "B8: a blind bid is made before the auction by a player who has not looked at its cards"
    hides_own_hand = True

    def actor(self, state: GameState) -> int | None:
        answers = state.hand_log.steps.get(self.name, [])
        if any(rung >= 0 for _, rung in answers):
            return None
        n, asked = state.rules.players, {seat for seat, _ in answers}
        order = [(state.dealer + k) % n for k in range(1, n + 1)]
        return next((s for s in order if s not in asked and s not in state.auction_barred), None)

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [LOOK, *range(BLIND, BLIND + len(self.calls))]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        rung = -1 if action == LOOK else state.rules.parse_call(self.calls[action - BLIND])
        state.hand_log.steps.setdefault(self.name, []).append((seat, rung))
        if rung >= 0:
            state.carry_out(effects.StandingBid(seat, rung))

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        return "only the ruleset's blind bids, or a look at the cards"

    def text(self, action: int) -> str:
        return "look" if action == LOOK else f"blind {self.calls[action - BLIND]}"

    def parse(self, text: str) -> int:
        words = text.split()
        if words == ["look"]:
            return LOOK
        if len(words) == 2 and words[0] == "blind" and words[1] in self.calls:
            return BLIND + self.calls.index(words[1])
        raise ValueError(f"{text!r}: 'look' or 'blind' and one of {', '.join(self.calls)}")

    def kind(self, action: int) -> str:
        return "blind"

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        answers = log.steps.get(self.name)
        if not answers:
            return {}
        seats, ladder = state.rules.seats, state.rules.ladder
        return {self.record_key: [{"seat": seats[s], "call": ladder[r].call if r >= 0 else "look"}
                                  for s, r in answers]}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(entry["seat"], entry["call"] if entry["call"] == "look" else f"blind {entry['call']}")
                for entry in hand.get(self.record_key, [])]

    def public(self, state: GameState, log: HandLog) -> Any:
        return tuple(log.steps[self.name])

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        answers = hand.get(self.record_key)
        if not answers:
            return []
        return ["before looking: " + ", ".join(
            f"{a.get('seat')} " + ("looks" if a.get("call") == "look" else f"bids {call_face(str(a.get('call')))}")
            for a in answers)]

    def copy_data(self, data: Any) -> Any:
        return list(data)

    def public_size(self, rules: Rules) -> int:
        return rules.players * (1 + len(self.calls))  # for each seat: looked, or the blind bid it made

    def public_indices(self, public: Any, rules: Rules) -> Iterable[int]:
        width = 1 + len(self.calls)
        return [seat * width + (0 if rung < 0 else 1 + self.calls.index(rules.ladder[rung].call))
                for seat, rung in public]


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    calls = tuple(rung.call for rung in ruleset.auction.ladder if rung.before_looking)
    return [BlindBid(calls)] if calls else None
