"""The effects a step hands to ``GameState.carry_out`` (``fivehundred.rules.effects``): what each does, and when
the engine refuses one.  The built-in steps' effects are tested with their variants (test_variants_*)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import MISERE, MISERE_AUCTION, E, N, S, W, act, finish, new_hand
from test_variants_steps import with_steps

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.cards import parse_card, parse_cards
from fivehundred.rules.effects import EndAuction, EndPlay, MoveCard, PlayEveryTrick, SetContract
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.steps import Step

TAKE_IT = 1100


class TakeIt(Step):
    """A house rule's call: the first caller may take the hand at the lowest rung, which ends the auction."""

    name = "take-it"
    stage = "call"
    actions = range(TAKE_IT, TAKE_IT + 1)

    def actor(self, state: GameState) -> int | None:
        return state.current_player() if not state.hand_log.calls and state.phase == Phase.AUCTION else None

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [TAKE_IT]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        state.hand_log.steps[self.name] = seat
        state.carry_out(EndAuction(holder=seat, call=0))


class TakeItPlugin:
    @hookimpl
    def fivehundred_hand_steps(self, ruleset: Any) -> list[Step]:
        return [TakeIt()]


def test_end_auction_gives_the_contract_to_its_holder_and_the_hand_goes_on_to_the_kitty() -> None:
    rules = with_steps(TakeItPlugin())
    state = GameState(rules, first_dealer=3)
    state.deal_cards([list(rules.deck[i * 10:(i + 1) * 10]) for i in range(4)], rules.deck[40:])
    seat = state.current_player()
    assert TAKE_IT in state.legal_actions()
    state.apply(TAKE_IT)
    assert state.contractor == seat and state.contract == rules.ladder[0]
    assert state.phase == Phase.DISCARD and state.current_player() == seat  # rule 14: the kitty, then discards
    assert state.hand_log.calls == []  # nobody called: the step's record says what happened
    with pytest.raises(IllegalActionError, match="only while it is open"):
        state.carry_out(EndAuction(holder=seat, call=1))


def test_end_auction_with_nobody_holding_a_bid_is_a_deal_everybody_passed() -> None:
    state = new_hand(MISERE)
    dealer = state.dealer
    state.carry_out(EndAuction(holder=-1, call=-1))
    assert state.phase == Phase.DEAL and state.dealer == (dealer + 1) % 4  # rule 13: thrown in, the deal passes on
    with pytest.raises(ValueError, match="a holder and a bid, or with neither"):
        new_hand(MISERE).carry_out(EndAuction(holder=N, call=-1))


def test_carry_out_refuses_what_is_not_an_effect_and_effects_out_of_their_moment() -> None:
    state = new_hand(MISERE)
    with pytest.raises(TypeError, match="not an effect"):
        state.carry_out("pass the joker")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not hold"):
        state.carry_out(MoveCard(parse_card("AS"), N, S))  # East holds it
    with pytest.raises(IllegalActionError, match="about to be led"):
        state.carry_out(EndPlay(rest_to=N))  # not in the play
    act(state, f"{MISERE_AUCTION} 4D 5D 7H none 5S")
    with pytest.raises(IllegalActionError, match="before the play"):
        state.carry_out(MoveCard(parse_card("6S"), N, S))
    with pytest.raises(IllegalActionError, match="before the play"):
        state.carry_out(SetContract(state.rules.ladder[0]))
    with pytest.raises(IllegalActionError, match="about to be led"):
        state.carry_out(EndPlay(rest_to=N))  # a trick is in progress


def test_move_card_moves_it_into_the_receivers_sorted_hand() -> None:
    state = new_hand(MISERE)
    card = parse_card("5S")
    state.carry_out(MoveCard(card, N, S))
    assert card not in state.hand(N) and card in state.hand(S) and list(state.hand(S)) == sorted(state.hand(S))


def test_play_every_trick_during_the_play_keeps_a_lost_misere_going() -> None:
    """The misère's early end is its goal's (``kernel.decided_by``): a step asking for every trick even once the
    play has begun plays the hand out, as ``misere_play_out`` does from the start."""
    state = new_hand(MISERE)
    act(state, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S")
    state.carry_out(PlayEveryTrick())
    act(state, "AD 9D JK")  # North, the contractor, wins trick 2: the misère is lost
    assert state.phase == Phase.PLAY and state.current_player() == N
    finish(state)
    hand = state.hands_log[0]
    assert len(hand.tricks) == 10 and hand.scores == [-250, 0]


def test_end_play_gives_every_trick_left_to_the_seat_and_scores_the_hand() -> None:
    state = new_hand(MISERE)
    act(state, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S")
    state.carry_out(EndPlay(rest_to=E))  # East won trick 1; the nine left go to East too
    hand = state.hands_log[0]
    assert hand.tricks_won[E] == 10 and hand.tricks_won[N] == 0 and hand.scores == [250, 0]
    assert state.phase == Phase.DEAL


def test_the_shipped_steps_use_only_effects() -> None:
    """Steps change a hand only through ``carry_out``: no built-in plugin calls a state method that changes it."""
    from pathlib import Path

    mutators = {"throw_in", "open_bid", "pass_card", "take_remaining_tricks", "set_contract", "lay_out",
                "owe_discards", "play_every_trick", "set_contracting_side"}
    plugins = Path(fivehundred.__file__).parent / "plugins"
    used = {name for path in plugins.glob("*.py") for name in mutators if f".{name}(" in path.read_text()}
    assert not used
    assert not any(hasattr(GameState, name) for name in mutators - {"set_contracting_side"})


def test_play_every_trick_reads_this_hands_contract_after_a_deal_thrown_in() -> None:
    """``PlayEveryTrick`` in a later deal: after a first deal everybody passed (rule 13: thrown in, no contract),
    the effect still plays this hand's lost misère out."""
    state = new_hand(MISERE, dealer=S)
    act(state, "pass pass pass pass")  # W, N, E, S: the deal is thrown in and passes to W
    assert state.hands_log[0].contract is None and state.dealer == W
    state.deal_cards([parse_cards(hand) for hand in MISERE[:4]], parse_cards(MISERE[4]))
    act(state, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S")
    state.carry_out(PlayEveryTrick())
    act(state, "AD 9D JK")  # North, the contractor, wins trick 2: the misère is lost
    assert state.phase == Phase.PLAY and state.current_player() == N
    finish(state)
    assert len(state.hands_log[1].tricks) == 10 and state.hands_log[1].scores == [-250, 0]
