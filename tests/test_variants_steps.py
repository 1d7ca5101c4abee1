"""Steps of a hand that plugins contribute (``fivehundred.rules.steps``), and the variants added as steps:
R2's breach against every misère (always at 3 tricks), P5's hidden lone hand and its ban on calling a
trump.  Each variant test plays a concrete deal under the variant and under the reference.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import (
    FIVE_DEAL,
    MISERE,
    MISERE_AUCTION,
    MISERE_CLEAN_PLAY,
    SUITED,
    E,
    N,
    W,
    act,
    finish,
    legal,
    log,
    new_hand,
    trick,
    tricks,
)
from test_variants_exchange import dealt, do, refused, shipped, validates, variant

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.records.record import game_to_dict
from fivehundred.records.validation import validate_record
from fivehundred.rules.actions import CALL
from fivehundred.rules.effects import EndAuction, EndPlay, ThrowIn
from fivehundred.rules.errors import PluginError
from fivehundred.rules.manager import Rules, compile_rules, make_plugin_manager, set_plugin_manager
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.steps import FIRST_STEP_ACTION, Step

# --- R2: breach against misère, always at 3 tricks --------------------------------------------------

HIGH_MISERE = ("AS KS QS 5C 6C 7C 4D 5D 4H 5H", "5S 6S 7S AC KC QC AD KD QD AH", *MISERE[2:])
"""MISERE with North's three low spades swapped for East's three top ones: North's spade leads win."""


def misere_hand(rules: Rules, deal: tuple[str, ...] = MISERE) -> GameState:
    st = new_hand(deal, dealer=W, rules=rules)
    act(st, MISERE_AUCTION + " 7H 6H JK")  # N plays misère and discards the kitty
    return st


def test_R2_breach_may_be_called_against_misere(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = misere_hand(r2)
    assert st.phase == Phase.STEP and st.current_step is not None and st.current_step.name == "breach"
    assert st.current_player() == E and legal(st) == {"breach", "no breach"}
    reference = misere_hand(shipped("pagat-australian"))
    assert reference.phase == Phase.PLAY  # the reference has no breach at all


def test_R2_a_breached_misere_is_played_out_and_the_breach_is_three_tricks(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = misere_hand(r2, HIGH_MISERE)
    do(st, "no breach", "breach")  # W calls it
    tricks(st, ["AS", "KS", "QS"])  # North wins three spade leads: the misère is lost, and the breach reached
    assert st.phase == Phase.PLAY and st.observation(N).tricks_won[N] == 3  # played on past the first trick lost
    finish(st)
    assert len(log(st).tricks) == 10 and log(st).tricks_won == [3, 7, 0, 0]
    assert log(st).scores == [-250, 100]  # lose/win: the misère lost, the breaching side gains the breach
    validates(st)


def test_R2_an_unbreached_misere_still_ends_at_its_first_trick_lost(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = misere_hand(r2, HIGH_MISERE)
    do(st, "no breach", "no breach")
    trick(st, "AS")
    assert st.phase != Phase.PLAY and len(log(st).tricks) == 1  # rule 27
    assert log(st).scores == [-250, 0]


def test_R2_a_misere_made_against_a_breach_costs_the_breacher(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = misere_hand(r2)
    do(st, "breach")
    act(st, MISERE_CLEAN_PLAY)
    assert log(st).tricks_won[N] == 0 and log(st).scores == [250, -100]  # win/lose
    assert game_to_dict(st)["hands"][0]["breach_calls"] == [{"seat": "E", "breach": True}]
    validates(st)


def test_R2_no_breach_on_hi_lo_or_below_seven(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = new_hand(SUITED, dealer=W, rules=r2)
    act(st, "6NT pass pass pass 4D JK 4H")
    assert st.phase == Phase.PLAY and "breach" not in log(st).steps


# --- P5: the hidden lone hand and the ban on calling a trump ---------------------------------------


def five_handed(tmp_path: Path, **players: Any) -> Rules:
    path = tmp_path / "five.yaml"
    path.write_text(yaml.safe_dump({"name": "five-variant", "extends": "five-handed", "players": players}),
                    encoding="utf-8")
    return compile_rules(fivehundred.load_ruleset(path))


def test_P5_the_contractor_may_call_its_own_card_and_play_alone_unknown(tmp_path: Path) -> None:
    reference = dealt(shipped("five-handed"), FIVE_DEAL, dealer=4)
    act(reference, "8NT pass pass pass pass 5S 4S JK")
    assert "call AS" not in legal(reference)
    st = dealt(five_handed(tmp_path, call_own_card=True), FIVE_DEAL, dealer=4)
    act(st, "8NT pass pass pass pass 5S 4S JK")
    assert {"call AS", "call 2H", "call AH"} <= legal(st) and "call 5S" not in legal(st)  # never a discard
    refused(st, "call 5S")
    do(st, "call AS")
    assert st.contracting_side == {0}  # alone, though every seat only knows that AS was called
    assert all(st.observation(seat).steps["partner-call"] == st.hand_log.hands[0][0] for seat in range(5))
    tricks(st, ["AS", "KS", "QS", "JS", "10S", "9S", "2H"])
    finish(st)
    assert log(st).scores == [-320, 40, 0, 0, 0]  # scored as a lone hand: A's six tricks fail 8NT
    validates(st)


def test_P5_a_trump_may_not_be_called_when_the_ruleset_forbids_it(tmp_path: Path) -> None:
    st = dealt(five_handed(tmp_path, call_trumps=False), FIVE_DEAL, dealer=4)
    act(st, "8H pass pass pass pass 5S 4S JK")
    calls = legal(st)
    assert not {"call AH", "call 4H", "call JH", "call JD"} & calls  # hearts and both bowers are trumps
    assert {"call AC", "call 2S", "alone"} <= calls
    error = refused(st, "call JD")
    assert error.rule.startswith("P5") and "trumps cannot be called" in str(error)
    shipped_five = dealt(shipped("five-handed"), FIVE_DEAL, dealer=4)
    act(shipped_five, "8H pass pass pass pass 5S 4S JK")
    assert {"call AH", "call JD"} <= legal(shipped_five)


# --- the step machinery -----------------------------------------------------------------------------


class Cut(Step):
    """A test step before the auction: the dealer's right-hand player says "cut" or "knock"."""

    name = "cut"
    stage = "before-auction"
    actions = range(1000, 1002)
    record_key = "cut"
    rule = "house rule: the player on the dealer's right cuts or knocks"

    def actor(self, state: GameState) -> int | None:
        return None if self.name in state.hand_log.steps else state.dealer - 1 if state.dealer else 3

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [1000, 1001]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        state.hand_log.steps[self.name] = "knock" if action == 1001 else "cut"

    def text(self, action: int) -> str:
        return "knock" if action == 1001 else "cut"

    def parse(self, text: str) -> int:
        return {"cut": 1000, "knock": 1001}[text]

    def write(self, state: GameState, log: Any) -> dict[str, Any]:
        return {self.record_key: log.steps[self.name]}

    def recorded(self, hand: Any) -> list[tuple[str | None, str]]:
        return [(None, hand[self.record_key])] if self.record_key in hand else []


class CutPlugin:
    @hookimpl
    def fivehundred_hand_steps(self, ruleset: Any) -> list[Step]:
        return [Cut()]


def with_steps(*plugins: object) -> Rules:
    pm = make_plugin_manager(entry_points=False, extra=plugins)
    return compile_rules(fivehundred.load_ruleset("pagat-australian"), pm)


@pytest.fixture
def cut_rules() -> Iterator[Rules]:
    """The reference rules with the ``Cut`` step, its plugin manager the process's for the test."""
    pm = make_plugin_manager(entry_points=False, extra=[CutPlugin()])
    set_plugin_manager(pm)
    try:
        yield compile_rules(fivehundred.load_ruleset("pagat-australian"), pm)
    finally:
        set_plugin_manager(None)


def test_a_plugin_step_before_the_auction_is_played_recorded_and_validated(cut_rules: Rules) -> None:
    rules = cut_rules
    st = new_hand(SUITED, dealer=W, rules=rules)
    assert st.phase == Phase.STEP and st.current_player() == 2 and legal(st) == {"cut", "knock"}
    assert st.observation(N).step == "cut"
    with pytest.raises(fivehundred.IllegalActionError) as caught:
        st.apply(CALL + rules.parse_call("7NT"))  # a call before the step is done
    assert "a call is not possible in the cut step" in str(caught.value)
    do(st, "knock")
    assert st.phase == Phase.AUCTION and st.current_player() == N and st.observation(E).steps == {"cut": "knock"}
    act(st, "7NT pass pass pass 4D JK 4H")
    finish(st)
    record = game_to_dict(st)
    assert record["hands"][0]["cut"] == "knock"
    assert validate_record(record, ruleset=rules.ruleset) == []  # the validator replays the step through itself
    record["hands"][0]["cut"] = "shuffle"
    problems = validate_record(record, ruleset=rules.ruleset)
    assert problems and "cannot read the action" in str(problems[0])
    del record["hands"][0]["cut"]
    problems = validate_record(record, ruleset=rules.ruleset)
    assert problems and "no cut" in str(problems[0])


def test_a_cloned_state_keeps_its_own_step_data() -> None:
    st = new_hand(SUITED, dealer=W, rules=with_steps(CutPlugin()))
    do(st, "cut")
    copy = st.clone()
    copy.hand_log.steps["cut"] = "knock"
    assert st.hand_log.steps == {"cut": "cut"}


def test_steps_sharing_action_ids_are_refused_naming_both() -> None:
    class Other(Cut):
        name = "other"

    class OtherPlugin:
        @hookimpl
        def fivehundred_hand_steps(self, ruleset: Any) -> list[Step]:
            return [Other()]

    with pytest.raises(PluginError, match="'cut' and 'other' both use action id 1000"):
        with_steps(CutPlugin(), OtherPlugin())


def test_a_step_may_not_take_the_engines_action_ids() -> None:
    class Thief(Cut):
        actions = range(400, 402)  # the pass and the first call

    class ThiefPlugin:
        @hookimpl
        def fivehundred_hand_steps(self, ruleset: Any) -> list[Step]:
            return [Thief()]

    with pytest.raises(PluginError, match="overlap the engine's"):
        with_steps(ThiefPlugin())


def test_the_built_in_steps_run_in_order_with_disjoint_action_ids(tmp_path: Path) -> None:
    rules = variant(tmp_path, "every-step", scoring={"breach": 100}, declarations={"slam": [7], "declare": True})
    assert [s.name for s in rules.early_steps] == ["declaration", "gift"]
    assert [s.name for s in rules.late_steps] == ["breach"]  # after the nomination (rule 19)
    assert [s.name for s in shipped("five-handed").steps] == ["partner-call"]
    assert shipped("pagat-australian").steps == ()
    ids = [a for name in ("five-handed",) for s in shipped(name).steps for a in s.actions]
    ids += [a for s in rules.steps for a in s.actions]
    assert len(ids) == len(set(ids)) and min(ids) >= 500


# --- B8: a blind bid before looking at the cards ---------------------------------------------------


def test_B8_a_blind_bid_is_made_before_looking_and_stands_when_the_auction_opens() -> None:
    perfect = shipped("perfect")
    st = new_hand(MISERE, dealer=W, rules=perfect)
    assert st.phase == Phase.STEP and st.current_step is not None and st.current_step.name == "blind"
    assert st.current_player() == N and legal(st) == {"look", "blind blind-misere"}
    assert all(st.observation(seat).hand == () for seat in range(4))  # nobody has looked yet
    do(st, "look", "blind blind-misere")  # N looks; E bids blind misère without looking
    assert st.phase == Phase.AUCTION and st.current_player() == 2  # the calls go on from E's left
    blind = perfect.parse_call("blind-misere")
    assert st.observation(N).hand and st.observation(E).steps["blind"] == ((N, -1), (E, blind))
    act(st, "pass pass pass")
    assert log(st).contract is not None and log(st).contract.call == "blind-misere" and log(st).contractor == E
    assert game_to_dict(st)["hands"][0]["blind_calls"] == [{"seat": "N", "call": "look"},
                                                          {"seat": "E", "call": "blind-misere"}]


def test_B8_a_blind_bid_cannot_be_made_in_the_auction() -> None:
    st = new_hand(MISERE, dealer=W, rules=shipped("perfect"))
    do(st, "look", "look", "look", "look")
    assert st.phase == Phase.AUCTION and "blind-misere" not in legal(st)
    error = refused(st, "blind-misere")
    assert error.rule.startswith("B8") and "before looking" in str(error)


def test_B8_blind_games_replay_through_the_step(tmp_path: Path) -> None:
    out = tmp_path / "perfect.jsonl"
    summary = fivehundred.simulate(games=30, seed=4, ruleset="perfect", players="random", out=out)
    assert summary.by_call.get("blind-misere", [0])[0] > 0
    assert fivehundred.validate([out]).problems == []
    records = [line for line in out.read_text(encoding="utf-8").splitlines() if '"blind-misere"' in line]
    tampered = records[0].replace('"call":"blind-misere"}', '"call":"look"}', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(tampered + "\n", encoding="utf-8")
    assert fivehundred.validate([bad]).problems  # the blind bid is part of what is checked


# --- FC: the kitty dealt in two packets, its last card face up --------------------------------------


def test_FC_the_kitty_comes_in_two_packets_and_its_last_card_lies_face_up() -> None:
    fc = shipped("french-canadian")
    hands, kitty, _ = fc.deal_slots
    assert kitty == (12, 13, 14, 27, 28, 29)  # three each, three to the kitty, three each, three more, four each
    assert hands[0][:6] == (0, 1, 2, 15, 16, 17)
    st = GameState(fc, first_dealer=3)
    st.deal(random.Random(1))
    face_up = (st.hand_log.kitty[-1],)
    assert all(st.observation(seat).steps["kitty-face-up"] == face_up for seat in range(4))
    assert st.phase == Phase.AUCTION  # a step without actions: nobody acts for it
    reference = GameState(shipped("pagat-australian"), first_dealer=3)
    reference.deal(random.Random(1))
    assert reference.observation(0).steps == {}


# --- found by the mutation run: a step's action ids and effects at the engine's edges -------------------


class TakeItFirst(Step):
    """A call with the first id a step may take: the first caller takes the hand at the lowest rung."""

    name = "take-it-first"
    stage = "call"
    actions = range(FIRST_STEP_ACTION, FIRST_STEP_ACTION + 1)

    def actor(self, state: GameState) -> int | None:
        return state.current_player() if not state.hand_log.calls and state.phase == Phase.AUCTION else None

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [FIRST_STEP_ACTION]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        state.hand_log.steps[self.name] = seat
        state.carry_out(EndAuction(holder=seat, call=0))


class Concede(TakeItFirst):
    """A step at the lead with the first id a step may take: the contractor, about to lead, concedes every
    remaining trick to the seat on its left."""

    name = "concede"
    stage = "lead"

    def actor(self, state: GameState) -> int | None:
        return state.hand_log.contractor if self.name not in state.hand_log.steps else None

    def apply(self, state: GameState, seat: int, action: int) -> None:
        state.hand_log.steps[self.name] = seat
        state.carry_out(EndPlay(rest_to=(seat + 1) % 4))


class CutOrThrowIn(Cut):
    """``Cut``, where a knock throws the deal in (the same dealer deals again)."""

    def apply(self, state: GameState, seat: int, action: int) -> None:
        super().apply(state, seat, action)
        if action == 1001:
            state.carry_out(ThrowIn())


def plugin_of(step: Step) -> object:
    class Plugin:
        @hookimpl
        def fivehundred_hand_steps(self, ruleset: Any) -> list[Step]:
            return [step]

    return Plugin()


def test_a_call_step_may_take_the_first_step_id() -> None:
    """A step's offer beside the calls with id ``FIRST_STEP_ACTION`` is the step's, not a call."""
    st = new_hand(SUITED, dealer=W, rules=with_steps(plugin_of(TakeItFirst())))
    assert st.current_player() == N and FIRST_STEP_ACTION in st.legal_actions()
    st.apply(FIRST_STEP_ACTION)
    assert st.hand_log.steps == {"take-it-first": N} and st.hand_log.calls == []
    assert st.contractor == N and st.contract == st.rules.ladder[0]
    assert st.phase == Phase.DISCARD and st.current_player() == N  # rule 14: the kitty, then the discards


def test_a_step_at_the_lead_may_take_the_first_step_id() -> None:
    """A step's offer at the lead with id ``FIRST_STEP_ACTION`` is the step's, not a joker's lead."""
    st = new_hand(SUITED, dealer=W, rules=with_steps(plugin_of(Concede())))
    act(st, "7NT pass pass pass 4D JK 4H")
    assert st.current_player() == N and FIRST_STEP_ACTION in st.legal_actions()
    trick(st, "AS")
    st.apply(FIRST_STEP_ACTION)
    hand = st.hands_log[0]
    assert hand.steps == {"concede": N} and hand.tricks_won == [1, 9, 0, 0]
    assert hand.scores[0] < 0 and st.phase == Phase.DEAL  # 7NT lost (rule 24)


def test_a_step_before_the_auction_that_throws_the_deal_in_ends_the_hand_there() -> None:
    """A step whose effect throws the deal in leaves the hand thrown in: no auction opens on it."""
    st = new_hand(SUITED, dealer=W, rules=with_steps(plugin_of(CutOrThrowIn())))
    assert st.phase == Phase.STEP and st.current_player() == 2
    do(st, "knock")
    assert st.phase == Phase.DEAL and st.current_player() == -1 and st.dealer == W  # the same dealer deals again
    assert st.hands_log[0].misdeal and st.hands_log[0].calls == []
