"""Why an action is illegal, in words naming the rule (``IllegalActionError``): what ``GameState.apply``
raises for an action out of turn or not among ``legal_actions()``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fivehundred.rules import rules_text as R
from fivehundred.rules.actions import CALL, JOKER_LEAD, Phase
from fivehundred.rules.cards import JOKER_BASE, SUIT_LETTERS
from fivehundred.rules.errors import IllegalActionError

if TYPE_CHECKING:
    from .state import GameState

_AUCTION, _DISCARD, _NOMINATE, _PLAY = Phase.AUCTION, Phase.DISCARD, Phase.NOMINATE, Phase.PLAY


def raise_out_of_turn(state: GameState, seat: int, action: int) -> None:
    """Raise the error for ``seat`` acting (``action``) when it is not its turn."""
    name = state.rules.seats[seat] if 0 <= seat < state.rules.players else str(seat)
    text = state.action_to_str(action)
    if state.phase == _AUCTION and state._bidding.passed[seat]:
        raise IllegalActionError(f"{name} calls {text} after passing", rule=R.PASSED, seat=name, action=text)
    if state.phase == _AUCTION and state._bidding.over:
        raise IllegalActionError(f"{name} calls after the auction ended", rule=R.CONTRACTOR_RAISE,
                                 seat=name, action=text)
    actor = state.current_player()
    expected = state.rules.seats[actor] if actor >= 0 else "nobody"
    raise IllegalActionError(f"{name} acts ({text}) but it is {expected}'s turn", rule=R.OUT_OF_TURN,
                             seat=name, action=text)


def why_illegal(state: GameState, action: int) -> IllegalActionError:
    """The error for ``action``, not among the legal actions of the seat to act, naming the rule it breaks."""
    seat = state.current_player()
    name = state.rules.seats[seat] if seat >= 0 else "nobody"
    try:
        text = state.action_to_str(action)
    except (IndexError, KeyError):
        text = str(action)

    def error(message: str, rule: str) -> IllegalActionError:
        return IllegalActionError(f"{name}: {text}: {message}", rule=rule, seat=name, action=text)

    step = state.current_step
    if step is not None and action in step.actions:
        return error(step.why_illegal(state, seat, action), step.rule)
    expected = {_AUCTION: "call", _DISCARD: "discard", _NOMINATE: "nominate", _PLAY: "play"}.get(state.phase)
    if step is not None:
        expected = step.kind(step.actions.start)
    kind = state.action_kind(action)
    if kind == "unknown":
        return error("no such action", R.WRONG_PHASE)
    offer = state.rules.step_of_action.get(action) if state.phase in (_PLAY, _AUCTION) else None
    if offer is not None and offer.stage in ("lead", "call"):
        return error(offer.why_illegal(state, seat, action), offer.rule)
    if expected is None or (kind != expected and not (expected == "play" and kind == "lead-joker")):
        where = f"the {step.name} step" if step is not None else f"the {state.phase.name.lower()} phase"
        return error(f"a {kind} is not possible in {where}", R.WRONG_PHASE)
    if state.phase == _AUCTION:
        rung = action - CALL
        if rung >= len(state.rules.ladder):
            return error("no such call", R.NOT_ON_LADDER)
        why = state.rules.auction.why_illegal(state._bidding, seat, rung)
        if why is not None:
            return error(*why)
        contract = state.rules.ladder[rung]
        if rung <= state._bidding.standing:
            standing = state.rules.call_text(state._bidding.standing)
            return error(f"does not beat the standing bid {standing}", R.NOT_HIGHER)
        if contract.requires_standing is not None:
            needed = state.rules.call_text(contract.requires_standing)
            rule = R.MISERE_NEEDS_SEVEN if contract.kind == "misere" else f"ladder: {contract.call} needs {needed}"
            return error(f"needs a standing bid of at least {needed}", rule)
        return error("not a legal call now", R.NOT_HIGHER)
    if state.phase == _DISCARD:
        return error("the card is not in the hand discarding", R.DISCARD)
    if state.phase == _NOMINATE:
        return error("not a suit", R.NOMINATE)
    return _why_illegal_play(state, action, error)


def _why_illegal_play(state: GameState, action: int, error: Any) -> IllegalActionError:
    seat = state.current_player()
    table = state.play_table
    assert table is not None  # the play phase
    if table.explain_illegal is not None:  # a variant's own restriction names its own rule
        found = table.explain_illegal(state, seat, action, state._table_plays())
        if found is not None:
            return error(*found)
    named = None
    card = action
    if action >= JOKER_LEAD:
        n, named = divmod(action - JOKER_LEAD, 4)
        card = JOKER_BASE + n
    held = state.hand(seat)
    if card not in held:
        return error("the card is not in this hand", R.NOT_IN_HAND)
    free = card in table.free_jokers
    led = state.led_suit
    if led is not None:
        if named is not None:
            return error("a suit is named only when leading the joker", R.JOKER_NAME)
        hand = state._buckets[seat]
        if table.follows(hand, list(held), led) is hand[led]:
            rule = R.JOKER_ON_LEAD if free else R.FOLLOW_SUIT
            return error(f"holds a card of the suit led ({SUIT_LETTERS[led]})", rule)
        return error("a player void in the suit led must play the joker", R.JOKER_COMPULSORY)
    if free and named is None:
        return error("a led joker must name a suit (e.g. JK:H)", R.JOKER_LEAD_SUIT)
    if named is not None and not free:
        return error("a suit is named only for a free joker", R.JOKER_NAME)
    if not state._unled:
        return error("every suit has been led and this is not the last trick", R.JOKER_LEAD_LATE)
    return error(f"{SUIT_LETTERS[named or 0]} has already been led", R.JOKER_LEAD_SUIT)
