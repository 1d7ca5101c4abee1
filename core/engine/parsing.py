"""Actions as text: what an action is called (``7H``, ``pass``, ``discard 4D``, a step's own words), its kind,
and the action a text means in the current phase (``GameState.action_to_str``, ``action_kind``,
``parse_action``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivehundred.rules.actions import Phase, action_kind, action_text, parse_action_text

if TYPE_CHECKING:
    from .state import GameState

_AUCTION, _PLAY, _STEP = Phase.AUCTION, Phase.PLAY, Phase.STEP


def action_to_str(state: GameState, action: int) -> str:
    """An action as text (``GameState.action_to_str``)."""
    step = state.rules.step_of_action.get(action)
    return step.text(action) if step is not None else action_text(action, state.rules.call_text)


def kind_of(state: GameState, action: int) -> str:
    """The kind of an action: the engine's (``fivehundred.rules.actions.action_kind``) or its step's."""
    step = state.rules.step_of_action.get(action)
    return step.kind(action) if step is not None else action_kind(action)


def parse_action(state: GameState, text: str) -> int:
    """The action ``text`` means in the current phase: ``7H``/``pass``, ``discard 4D``,
    ``nominate H``/``nominate none``, ``10C`` or ``JK:S`` for a joker led as spades; in a plugin's
    step, as the step reads it (``call AS``/``alone``, ``slam``, ``give 5C``, ``breach``…)."""
    current = state.current_step
    if current is not None:
        return current.parse(text)
    rules = state.rules
    offering = rules.lead_steps if state.phase == _PLAY else rules.call_steps if state.phase == _AUCTION else ()
    for step in offering:  # what steps offer beside the cards (a claim) or the calls (a misdeal)
        try:
            return step.parse(text)
        except ValueError:
            pass
    return parse_action_text(text, state.phase, state.rules.parse_call)

