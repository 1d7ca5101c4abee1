"""FC (“500 (juego de cartas)”, French-Canadian): the last kitty card dealt lies face up, for every player to
see until the contractor takes the kitty (``deal.kitty_face_up``: how many of the last kitty cards).  A step with no
actions: it turns the cards up as the hand is dealt, and observations show them to every seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step, card_position

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState
    from fivehundred.rules.manager import Rules


class FaceUpKitty(Step):
    """``HandLog.steps["kitty-face-up"]``: the kitty cards lying face up."""

    name = "kitty-face-up"
    stage = "before-auction"
    order = 50

    def __init__(self, count: int):
        self.count = count

    def begin(self, state: GameState) -> None:
        log = state.hand_log
        log.steps[self.name] = tuple(log.kitty[-self.count:])  # the kitty as dealt: the last cards last

    def actor(self, state: GameState) -> int | None:
        return None

    def copy_data(self, data: Any) -> Any:
        return data

    def public_size(self, rules: Rules) -> int:
        return len(rules.deck)  # the cards face up

    def public_indices(self, public: Any, rules: Rules) -> Iterable[int]:
        return [card_position(rules, card) for card in public]


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    count = ruleset.deal.kitty_face_up
    return [FaceUpKitty(count)] if count else None


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    kitty = sum(p.kitty or 0 for p in ruleset.deal.packets)
    if ruleset.deal.kitty_face_up > kitty:
        return [("deal.kitty_face_up", f"{ruleset.deal.kitty_face_up} face-up cards but a kitty of {kitty}")]
    return []
