"""How the engine carries out the effects a plugin's step asks for (``fivehundred.rules.effects``).

``GameState.carry_out(*effects)`` is the one way a step changes a hand; each effect has one function here,
which checks that the effect fits the moment and changes the state as the rest of the engine keeps it.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fivehundred.rules import rules_text as R
from fivehundred.rules.actions import THROWN_IN_CALL, Phase
from fivehundred.rules.effects import (
    EndAuction,
    EndPlay,
    LayOut,
    MoveCard,
    OweDiscards,
    PlayEveryTrick,
    SetContract,
    SetSide,
    StandingBid,
    ThrowIn,
)
from fivehundred.rules.errors import IllegalActionError

if TYPE_CHECKING:
    from .state import GameState

_DEAL, _AUCTION, _STEP, _PLAY = Phase.DEAL, Phase.AUCTION, Phase.STEP, Phase.PLAY


def carry_out(state: GameState, effect: Any) -> None:
    """Carry out one effect on ``state``; TypeError for anything that is not one."""
    handler = _HANDLERS.get(type(effect))
    if handler is None:
        raise TypeError(f"{effect!r:.80} is not an effect a step may ask for (fivehundred.rules.effects)")
    handler(state, effect)


def _move_card(state: GameState, effect: MoveCard) -> None:
    if state.phase == _PLAY:
        raise IllegalActionError("cards change hands only before the play", rule=R.WRONG_PHASE)
    held = state._held[effect.giver]
    if effect.card not in held:
        raise ValueError(f"seat {effect.giver} does not hold card {effect.card} to pass on")
    held.remove(effect.card)
    insort(state._held[effect.receiver], effect.card)


def _lay_out(state: GameState, effect: LayOut) -> None:
    seat, under = effect.seat, dict(effect.under)
    held, down = state._held[seat], set(under.values())
    if state.phase != _DEAL or state.hands_log[-1].calls or not down | set(under) <= set(held) or down & set(under):
        raise ValueError(f"seat {seat}: a hand is laid out from its own cards as it is dealt")
    state._covered[seat] = under
    state._held[seat] = [card for card in held if card not in down]


def _throw_in(state: GameState, effect: ThrowIn) -> None:
    if state.phase not in (_DEAL, _AUCTION, _STEP) or state._bidding.over:
        raise IllegalActionError("a deal is thrown in only before the auction ends", rule=R.WRONG_PHASE)
    log = state.hands_log[-1]
    if effect.caller is not None:
        log.calls.append((effect.caller, THROWN_IN_CALL))
    log.misdeal = True
    state._redeal()


def _standing_bid(state: GameState, effect: StandingBid) -> None:
    bidding = state._bidding
    if bidding.calls or bidding.over:
        raise IllegalActionError("a bid stands at the auction's start only before the first call", rule=R.WRONG_PHASE)
    bidding.standing, bidding.holder, bidding.turn = effect.call, effect.seat, effect.seat
    state.rules.auction.next_turn(bidding)


def _end_auction(state: GameState, effect: EndAuction) -> None:
    bidding = state._bidding
    if state.phase not in (_AUCTION, _STEP) or bidding.over:
        raise IllegalActionError("an auction ends only while it is open", rule=R.WRONG_PHASE)
    if (effect.holder < 0) != (effect.call < 0):
        raise ValueError(f"the auction ends with a holder and a bid, or with neither (got {effect})")
    bidding.standing, bidding.holder, bidding.over = effect.call, effect.holder, True
    state._auction_over()


def _set_contract(state: GameState, effect: SetContract) -> None:
    if state.phase == _PLAY:
        raise IllegalActionError("the contract changes only before the play", rule=R.WRONG_PHASE)
    state.hands_log[-1].contract = effect.contract


def _set_side(state: GameState, effect: SetSide) -> None:
    state._set_side(frozenset(effect.seats))


def _owe_discards(state: GameState, effect: OweDiscards) -> None:
    state.hands_log[-1].discards_owed += effect.count


def _play_every_trick(state: GameState, effect: PlayEveryTrick) -> None:
    log = state.hands_log[-1]
    log.played_out = True
    state._play_every_trick()


def _end_play(state: GameState, effect: EndPlay) -> None:
    if state.phase != _PLAY or state.trick:
        raise IllegalActionError("tricks are given only when a trick is about to be led", rule=R.WRONG_PHASE)
    state._won[effect.rest_to] += state.rules.hand_size - len(state.hands_log[-1].tricks)
    state._score_hand()


_HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    MoveCard: _move_card, LayOut: _lay_out, ThrowIn: _throw_in, StandingBid: _standing_bid, EndAuction: _end_auction,
    SetContract: _set_contract, SetSide: _set_side, OweDiscards: _owe_discards, PlayEveryTrick: _play_every_trick,
    EndPlay: _end_play,
}
