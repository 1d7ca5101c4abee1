"""House rule ``pass-left``: after the deal, before the auction, every player passes one card face down
to the player on their left.  Each chooses in turn from the dealer's left; the cards change hands
together once everybody has chosen, so nobody passes on a card just received.

Switch it on in a ruleset::

    house_rules:
      pass-left: {}

This rule adds a *step* to the hand (``fivehundred.rules.steps.Step``) rather than adjusting a built-in
answer: the step says who acts and what is legal, applies a choice, explains an illegal one, writes
itself to a game record and reads itself back, so ``simulate``, ``validate`` and the bots handle it
with no change to fivehundred itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fivehundred import Step, card_str, hookimpl, parse_card
from fivehundred.rules.effects import MoveCard
from fivehundred.rules.ruleset import Ruleset

RULE = "pass-left"
PASS = 2000
"""Action ids: ``PASS + card`` passes that card (ids fivehundred leaves to plugins: 500 and up)."""


class PassLeft(Step):
    """``HandLog.steps["pass-left"]``: the card each seat chose, by seat, in the order they chose."""

    name = RULE
    stage = "before-auction"
    order = 100
    actions = range(PASS, PASS + 100)
    record_key = "passed_left"
    rule = "house rule pass-left: before the auction each player passes one card of their own to the left"

    def actor(self, state: Any) -> int | None:
        chosen = state.hand_log.steps.get(self.name, {})
        n = state.rules.players
        order = [(state.dealer + k) % n for k in range(1, n + 1)]  # from the dealer's left, the dealer last
        return next((seat for seat in order if seat not in chosen), None)

    def legal(self, state: Any, seat: int) -> list[int]:
        return [PASS + card for card in state.hand(seat)]

    def apply(self, state: Any, seat: int, action: int) -> None:
        chosen = state.hand_log.steps.setdefault(self.name, {})
        chosen[seat] = action - PASS
        n = state.rules.players
        if len(chosen) == n:  # everybody has chosen: the cards change hands together
            state.carry_out(*(MoveCard(card, giver, (giver + 1) % n) for giver, card in chosen.items()))

    def why_illegal(self, state: Any, seat: int, action: int) -> str:
        return "the card is not in the hand of the player passing"

    def text(self, action: int) -> str:
        return f"pass {card_str(action - PASS)}"

    def parse(self, text: str) -> int:
        return PASS + parse_card(text.split()[-1])

    def kind(self, action: int) -> str:
        return "pass"

    def write(self, state: Any, log: Any) -> dict[str, Any]:
        chosen = log.steps.get(self.name)
        if not chosen:
            return {}
        return {self.record_key: {state.rules.seats[seat]: card_str(card) for seat, card in chosen.items()}}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(seat, card) for seat, card in hand.get(self.record_key, {}).items()]

    def public(self, state: Any, log: Any) -> Any:
        return None  # a passed card is seen only by its giver and its receiver (both hold it at some time)

    def copy_data(self, data: Any) -> Any:
        return dict(data)


@hookimpl
def fivehundred_house_rules() -> list[str]:
    return [RULE]


@hookimpl
def fivehundred_ruleset_paths() -> list[Path]:
    """``pagat-pass-left``: the reference game with this rule on."""
    return [Path(__file__).with_name("pagat-pass-left.yaml")]


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    options = ruleset.house_rules.get(RULE)
    if options is None:
        return []
    problems = [(f"house_rules.{RULE}.{key}", f"{RULE} takes no options") for key in options]
    if ruleset.players.dummies:
        problems.append((f"house_rules.{RULE}", f"{RULE} needs every seat in play (no dummies, P2)"))
    return problems


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    return [PassLeft()] if RULE in ruleset.house_rules else None
