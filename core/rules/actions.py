"""Phases of a hand and the encoding of the engine's actions as ints, with their text.

One int space, one range per kind of action, so that an action means the same in every phase; the
steps plugins add (``fivehundred.rules.steps``) own ranges of their own above these.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from .cards import JOKER_BASE, SUIT_LETTERS, card_str, parse_card, parse_suit


class Phase(IntEnum):
    DEAL = 0
    AUCTION = 1
    DISCARD = 2
    NOMINATE = 3
    PLAY = 4
    GAME_OVER = 5
    STEP = 6
    """A step a plugin adds to the hand (``fivehundred.rules.steps``): ``GameState.current_step`` names it."""


CHANCE = -1
TERMINAL = -4

JOKER_LEAD = 100  # + 4 * joker number + named suit
DISCARD = 200  # + card
NOMINATE = 300  # + suit; NOMINATE + 4 = keep the joker free
NO_NOMINATION = NOMINATE + 4
PASS_ACTION = 400
CALL = 401  # + rung, below 500 (``fivehundred.rules.steps.FIRST_STEP_ACTION``): plugins' steps own the ids above

THROWN_IN_CALL = -2
"""Among a hand's calls (``HandLog.calls``, beside ``-1`` for a pass and the rungs): the call that threw the deal
in (the ``ThrowIn`` effect), written ``misdeal``."""

KINDS = (
    (0, JOKER_LEAD, "play"), (JOKER_LEAD, JOKER_LEAD + 16, "lead-joker"), (DISCARD, DISCARD + 100, "discard"),
    (NOMINATE, NO_NOMINATION + 1, "nominate"), (PASS_ACTION, 500, "call"),
)
"""The engine's own actions; a step's actions are named by the step (``Rules.step_of_action``)."""

PHASE_KINDS = {
    Phase.AUCTION: ("call",), Phase.DISCARD: ("discard",), Phase.NOMINATE: ("nominate",),
    Phase.PLAY: ("play", "lead-joker"),
}


def action_kind(action: int) -> str:
    """The kind of action an int encodes (play, lead-joker, discard, nominate, call, partner,
    declare, give, breach, claim) or ``unknown``."""
    for low, high, kind in KINDS:
        if low <= action < high:
            return kind
    return "unknown"


def action_text(action: int, call_text: Callable[[int], str]) -> str:
    """Text of an action; ``call_text(call)`` names calls (the ruleset's ladder)."""
    kind = action_kind(action)
    if kind == "play":
        return card_str(action)
    if kind == "lead-joker":
        n, suit = divmod(action - JOKER_LEAD, 4)
        return f"{card_str(JOKER_BASE + n)}:{SUIT_LETTERS[suit]}"
    if kind == "discard":
        return f"discard {card_str(action - DISCARD)}"
    if kind == "nominate":
        return "nominate none" if action == NO_NOMINATION else f"nominate {SUIT_LETTERS[action - NOMINATE]}"
    if kind == "call":
        return call_text(action - CALL)
    return f"action {action}"


def parse_action_text(text: str, phase: Phase, parse_call: Callable[[str], int]) -> int:
    """The action ``text`` means in ``phase``; ``parse_call(text)`` reads calls (the ladder)."""
    t = text.strip()
    words = t.lower().split()
    if phase == Phase.AUCTION:
        return CALL + parse_call(t)
    if phase == Phase.DISCARD:
        return DISCARD + parse_card(words[-1])
    if phase == Phase.NOMINATE:
        return NO_NOMINATION if words[-1] == "none" else NOMINATE + parse_suit(words[-1])
    if ":" in t:
        card_text, suit_text = t.split(":", 1)
        card = parse_card(card_text)
        if card < JOKER_BASE:
            raise ValueError(f"{text!r}: only a joker is played with a named suit")
        return JOKER_LEAD + 4 * (card - JOKER_BASE) + parse_suit(suit_text)
    return parse_card(t)
