"""Variants between the deal and the first lead (VARIANTS.md D4, D5, P2, P3, P5, C1–C4, C6, C7, B9,
B10), the mid-hand end E6 and the breach R2.

Each test plays a concrete deal under the reference and under the variant and asserts both sides of
the difference.  Variant rulesets are small YAML files that extend ``pagat-australian``; the shipped
rulesets (two-handed, three-handed, three-handed-dead-hand, five-handed, perfect) are used as they are.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest
import yaml
from helpers import (
    EW,
    FACELESS,
    FIVE_DEAL,
    MISERE,
    MISERE_AUCTION,
    MISERE_CLEAN_PLAY,
    NS,
    RULES,
    SPLIT,
    SUITED,
    E,
    N,
    S,
    W,
    act,
    cards,
    finish,
    legal,
    log,
    new_hand,
    trick,
    tricks,
)

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.plugins import deck as deck_plugin
from fivehundred.records.record import game_to_dict
from fivehundred.records.validation import validate_record
from fivehundred.rules.cards import JOKER_BASE, card_str, parse_card, parse_cards
from fivehundred.rules.effects import LayOut, ThrowIn
from fivehundred.rules.errors import IllegalActionError, RulesetError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.tables import HandOutcome

SPADES = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"]


# --- building variants and acting ---------------------------------------------------------------


def variant(tmp_path: Path, name: str, **sections: Any) -> Rules:
    """The compiled rules of ``pagat-australian`` with ``sections`` merged over it."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "extends": "pagat-australian", **sections}, sort_keys=False),
                    encoding="utf-8")
    return compile_rules(fivehundred.load_ruleset(path))


def shipped(name: str) -> Rules:
    return compile_rules(fivehundred.load_ruleset(name))


def do(st: GameState, *actions: str) -> None:
    """Apply actions given in full text (``call AS``, ``no breach``, ``give 5D``), each checked."""
    for text in actions:
        st.apply(st.parse_action(text))


def refused(st: GameState, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        do(st, text)
    return caught.value


def dealt(rules: Rules, deal: Sequence[str], *, dealer: int, dead: str = "") -> GameState:
    """A game under ``rules`` whose first hand is ``deal`` (hands by seat, then the kitty)."""
    st = GameState(rules, first_dealer=dealer)
    st.deal_cards([cards(h) for h in deal[:-1]], cards(deal[-1]), cards(dead))
    return st


def texts(card_ids: Sequence[int]) -> set[str]:
    return {card_str(c) for c in card_ids}


def validates(st: GameState) -> None:
    """The game's record replays without a problem under its own ruleset."""
    problems = validate_record(game_to_dict(st), ruleset=st.rules.ruleset)
    assert problems == [], problems


# --- D4: a misdeal without a face card ------------------------------------------------------------



def test_D4_must_throws_a_faceless_deal_in_and_the_same_dealer_deals_again(tmp_path: Path) -> None:
    must = variant(tmp_path, "misdeal-must", deal={"misdeal_without_face_card": "must"})
    ref = new_hand(FACELESS, dealer=W)
    assert ref.phase == Phase.AUCTION and ref.current_player() == N and not log(ref).misdeal
    st = new_hand(FACELESS, dealer=W, rules=must)
    assert st.phase == Phase.DEAL and st.current_player() == -1  # chance: deal again
    assert log(st).misdeal and log(st).calls == [] and st.dealer == W
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))  # every hand has a face card
    assert [h.dealer for h in st.hands_log] == [W, W] and not log(st).misdeal
    assert st.phase == Phase.AUCTION and st.current_player() == N
    act(st, "7NT pass pass pass 4D 4H JK")
    tricks(st, SPADES)
    assert log(st).scores == [250, 0]
    validates(st)


def test_D4_may_only_the_faceless_player_may_call_misdeal_as_a_first_call(tmp_path: Path) -> None:
    may = variant(tmp_path, "misdeal-may", deal={"misdeal_without_face_card": "may"})
    ref = new_hand(FACELESS, dealer=W)
    assert "misdeal" not in legal(ref)
    with pytest.raises(ValueError, match="not a call of this ruleset"):  # a ruleset without D4 has no such call
        ref.parse_action("misdeal")
    st = new_hand(FACELESS, dealer=W, rules=may)
    assert st.phase == Phase.AUCTION and legal(st) == legal(ref) | {"misdeal"}  # thrown in only if N wishes
    act(st, "6S")
    assert "misdeal" not in legal(st)  # East holds face cards
    assert refused(st, "misdeal").rule.startswith("D4:")
    act(st, "7S pass pass")
    assert st.current_player() == N and "misdeal" not in legal(st)  # no longer N's first call
    st = new_hand(FACELESS, dealer=W, rules=may)
    act(st, "misdeal")
    assert st.phase == Phase.DEAL and st.dealer == W and log(st).misdeal
    assert [may.call_text(c) for _, c in log(st).calls] == ["misdeal"]
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    assert st.dealer == W and st.current_player() == N and "misdeal" not in legal(st)
    act(st, "7NT pass pass pass 4D 4H JK")
    tricks(st, SPADES)
    validates(st)


# --- D5: the first dealer by cut ------------------------------------------------------------------


class FakeCut:
    """A generator whose every draw is fixed: ``sample`` returns the cut cards, ``random`` 0.0."""

    def __init__(self, cut: str):
        self.cut = parse_cards(cut)

    def sample(self, population: Sequence[int], k: int) -> list[int]:
        assert k == len(self.cut) and set(self.cut) <= set(population)
        return list(self.cut)

    def random(self) -> float:
        return 0.0


def fake_cut(cut: str) -> random.Random:
    return cast(random.Random, FakeCut(cut))


@pytest.mark.parametrize(("cut", "dealer"), [
    ("KS 5H 9C JK", E),  # the 5 is lowest
    ("JK AS 7D AH", S),  # the ace is high, the joker highest
    ("9S 6C 6D KH", E),  # a tie goes to the earlier seat
])
def test_D5_the_lowest_card_cut_deals(tmp_path: Path, cut: str, dealer: int) -> None:
    by_cut = variant(tmp_path, "cut", deal={"first_dealer": "cut"})
    assert deck_plugin.fivehundred_first_dealer(RULES.ruleset, fake_cut(cut)) == N  # reference: the draw decides
    assert deck_plugin.fivehundred_first_dealer(by_cut.ruleset, fake_cut(cut)) == dealer
    assert by_cut.first_dealer(fake_cut(cut)) == dealer
    assert GameState(by_cut, rng=fake_cut(cut)).dealer == dealer


def test_D5_the_cut_comes_from_the_seeded_generator(tmp_path: Path) -> None:
    by_cut = variant(tmp_path, "cut", deal={"first_dealer": "cut"})
    for seed in range(8):
        cut = random.Random(seed).sample(list(by_cut.deck), 4)
        lowest = min(range(4), key=lambda seat: (cut[seat] >= JOKER_BASE, cut[seat] % 20))
        assert GameState(by_cut, rng=random.Random(seed)).dealer == lowest
        assert fivehundred.new_game(by_cut, seed)[0].dealer == fivehundred.new_game(by_cut, seed)[0].dealer
    assert any(GameState(by_cut, rng=random.Random(seed)).dealer != GameState(RULES, rng=random.Random(seed)).dealer
               for seed in range(8))


# --- P2: two players, each with a dummy -----------------------------------------------------------

TWO_HANDED = (
    "AD KD QD JD 10D AS KS QS JS 10S",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C",
    "5D 9S 8S 7S 6S AH KH QH JH 10H",
    "9D 8D 7D 6D 4D 5S 9H 8H 7H 6H",
    "5H 4H JK",
)
"""N and E are live; S (N's dummy) and W (E's dummy) lie on the table, the first five cards face
down, each under the face-up card five places on: S's 5♦ lies under the A♥, W's 9♦ under the 5♠."""


def test_P2_dummies_do_not_call(tmp_path: Path) -> None:
    two = shipped("two-handed")
    assert two.dummies == {S, W} and two.controller == (N, E, N, E)
    ref, st = new_hand(TWO_HANDED, dealer=W), dealt(two, TWO_HANDED, dealer=W)
    act(ref, "7NT pass")
    act(st, "7NT pass")
    assert ref.phase == Phase.AUCTION and ref.current_player() == S
    assert st.phase == Phase.DISCARD and st.current_player() == N and log(st).contractor == N


def test_P2_face_down_cards_play_only_once_the_covering_cards_trick_is_over() -> None:
    ref, st = new_hand(TWO_HANDED, dealer=W), dealt(shipped("two-handed"), TWO_HANDED, dealer=W)
    for game in (ref, st):
        act(game, "7NT pass" + (" pass pass" if game is ref else "") + " 5H 4H JK | AD 5C")
        assert game.current_player() == S
    assert legal(ref) == {"5D"}  # the reference's S must follow with its only diamond
    assert legal(st) == {"AH", "KH", "QH", "JH", "10H"}  # the 5♦ is still face down
    assert dict(st.observation(E).open_hands)[S] == tuple(cards("10H JH QH KH AH"))
    refused(st, "5D")
    act(st, "AH 5S")
    assert log(st).tricks[0].winner == N and st.current_player() == N
    assert "5D" in texts(dict(st.observation(E).open_hands)[S])  # turned up
    act(st, "KD 6C")
    assert legal(st) == {"5D"}  # now face up, and it must follow suit
    act(st, "5D")
    assert legal(st) == {"9D"}  # W's 9♦ came up from under the 5♠
    act(st, "9D")
    finish(st)
    validates(st)


def test_P2_the_live_partner_decides_for_the_dummy_and_records_validate(tmp_path: Path) -> None:
    asked: list[tuple[int, int]] = []

    class Recorder:
        def __init__(self, seat: int):
            self.seat = seat

        def act(self, state: GameState, legal_actions: list[int]) -> int:
            asked.append((self.seat, state.current_player()))
            return legal_actions[-1]  # the highest call: somebody bids, so the hand is played

    st = GameState(shipped("two-handed"), first_dealer=W)
    st.play_out([Recorder(seat) for seat in range(4)], random.Random(1), max_deals=2)
    assert {seat for _, seat in asked} >= {S, W}  # the dummies' cards are played …
    assert {(player, seat) for player, seat in asked} <= {(N, N), (N, S), (E, E), (E, W)}  # … by their partners
    out = tmp_path / "two.jsonl"
    fivehundred.simulate(games=2, seed=3, ruleset="two-handed", out=out)
    report = fivehundred.validate([out])
    assert report.checked == 2 and report.problems == []


def test_P2_a_hand_is_laid_out_only_from_its_own_cards_as_it_is_dealt() -> None:
    st = dealt(shipped("two-handed"), TWO_HANDED, dealer=W)
    assert st.covering(S) == tuple(cards("10H JH QH KH AH")) and st.hand(S) == st.covering(S)
    assert st.voids(S) == frozenset()  # a face-down card may turn up in any suit
    with pytest.raises(ValueError, match="laid out"):  # only as the hand is dealt, from a step's begin
        st.carry_out(LayOut(N, {parse_card("QS"): parse_card("JS")}))


# --- P3: three players ----------------------------------------------------------------------------

DEAD_HAND = (
    "QS JS 10S 9S 8S 7S 6S 5S 9C 4H",
    "JC 10C 8C 7C 6C 5C QD JD 10D 9D",
    "QC 8D 7D 6D 5D QH JH 10H 9H 8H",
    "4D 5H 6H",
)
DEAD = "JK AS KS AC KC AD KD AH KH 7H"
"""Three-handed with the 43-card deck: the joker and the aces and kings lie in the dead hand, so A's
right bower is the top trump in play and C's Q♣ the top club."""


def test_P3_the_dead_hand_is_out_of_play_and_each_plays_alone() -> None:
    with pytest.raises(IllegalActionError, match="dead hand"):  # the same 43 cards: no dead hand in the reference
        GameState(RULES, first_dealer=W).deal_cards([cards(h) for h in DEAD_HAND[:3]], cards(DEAD_HAND[3]),
                                                    cards(DEAD))
    three = shipped("three-handed-dead-hand")
    assert (three.players, three.hand_size, three.kitty_size, three.dead_size) == (3, 10, 3, 10)
    st = dealt(three, DEAD_HAND, dealer=2, dead=DEAD)
    act(st, "7S pass pass 4D 5H 6H")
    act(st, "JS JC 5D | QS 5C 6D | 10S 6C 7D | 9S 7C 8D | 8S 8C 8H | 7S 10C 9H | 6S 9D 10H | 5S 10D JH")
    act(st, "9C JD QC | QH 4H QD")  # the Q♣ is the top club in play, the Q♥ the top heart
    played = [c for t in log(st).tricks for c in t.cards]
    assert {len(t.cards) for t in log(st).tricks} == {3} and len(played) == 30
    assert not set(played) & set(cards(DEAD)) and log(st).dead == cards(DEAD)
    assert log(st).tricks_won == [8, 0, 2]
    assert log(st).scores == [140, 0, 20]  # each defender scores its own tricks
    assert game_to_dict(st)["hands"][0]["dead"] == DEAD.split()
    validates(st)


def test_P3_three_handed_33_cards_and_misere_at_any_time() -> None:
    three = shipped("three-handed")
    assert (len(three.deck), three.players, three.hand_size, three.kitty_size) == (33, 3, 10, 3)
    st = GameState(three, first_dealer=2)
    st.deal(random.Random(4))
    assert [len(h) for h in log(st).hands] == [10, 10, 10] and log(st).dead == []
    assert {"misere", "open-misere"} <= legal(st)
    assert "misere" not in legal(new_hand(SUITED))  # the reference needs a 7-bid first


def test_P3_dead_hand_records_carry_it(tmp_path: Path) -> None:
    out = tmp_path / "dead.jsonl"
    fivehundred.simulate(games=1, seed=2, ruleset="three-handed-dead-hand", out=out)
    record = json.loads(out.read_text(encoding="utf-8"))
    assert all(len(h["dead"]) == 10 for h in record["hands"])
    assert fivehundred.validate([out]).problems == []


# --- P5: five players, a called partner ----------------------------------------------------------



def five_handed_8nt(called: str) -> GameState:
    st = dealt(shipped("five-handed"), FIVE_DEAL, dealer=4)
    act(st, "8NT pass pass pass pass 5S 4S JK")
    assert st.phase == Phase.STEP and st.observation(0).step == "partner-call" and st.current_player() == 0
    do(st, called)
    tricks(st, ["AS", "KS", "QS", "JS", "10S", "9S", "2H"])
    finish(st)
    return st


def test_P5_the_contractor_calls_a_card_whose_holder_partners_them() -> None:
    st = dealt(shipped("five-handed"), FIVE_DEAL, dealer=4)
    act(st, "8NT pass pass pass pass 5S 4S JK")
    calls = legal(st)
    assert "alone" in calls and "call AH" in calls and "call 2S" in calls
    assert not {"call JK", "call AS", "call 2H", "call 5S"} & calls  # not the joker, nor A's own or discarded
    for text in ("call JK", "call AS", "call 5S"):
        refused(st, text)
    do(st, "call AH")
    assert st.phase == Phase.PLAY and log(st).steps.get("partner-call") == parse_card("AH")
    assert all(st.observation(seat).steps.get("partner-call") == parse_card("AH") for seat in range(5))
    partnered = five_handed_8nt("call AH")
    assert partnered.hands_log[0].tricks_won == [6, 4, 0, 0, 0]
    assert partnered.hands_log[0].scores == [320, 320, 0, 0, 0]  # B's four tricks made A's eight
    alone = five_handed_8nt("alone")
    assert alone.hands_log[0].steps.get("partner-call") == -1
    assert alone.hands_log[0].scores == [-320, 40, 0, 0, 0]
    assert game_to_dict(partnered)["hands"][0]["partner_call"] == "AH"
    validates(partnered)


def test_P5_the_reference_calls_no_partner() -> None:
    st = new_hand(SUITED, dealer=W)
    act(st, "8NT pass pass pass 4D 4H JK")
    assert st.phase == Phase.PLAY and log(st).steps.get("partner-call") is None


def test_P5_calling_the_joker_is_refused_naming_P5() -> None:
    st = dealt(shipped("five-handed"), FIVE_DEAL, dealer=4)
    act(st, "8NT pass pass pass pass 5S 4S JK")
    assert refused(st, "call JK").rule.startswith("P5")


# --- C1, C2, C3: both partners play misère ---------------------------------------------------------


def perfect_hand(rules: Rules | None = None) -> GameState:
    """MISERE under ``perfect``, every player having looked at its cards (no blind misère, B8)."""
    st = new_hand(MISERE, dealer=W, rules=rules or shipped("perfect"))
    do(st, "look", "look", "look", "look")
    return st


def test_C1_double_misere_the_partner_receives_the_passed_cards_and_discards() -> None:
    st = perfect_hand()
    act(st, "double-misere pass pass pass")
    assert st.phase == Phase.STEP and st.current_step.name == "pass-to-partner"
    assert st.current_player() == N and len(st.observation(N).hand) == 13 and "pass JK" in legal(st)
    act(st, "7H 6H JK")
    assert log(st).steps["pass-to-partner"] == cards("7H 6H JK") and log(st).discards == []
    assert "pass-to-partner" not in st.observation(E).steps  # seen by the partners only
    assert st.phase == Phase.DISCARD
    assert st.current_player() == S and len(st.observation(S).hand) == 13 and "discard JK" in legal(st)
    act(st, "JK 7H 6H")
    assert log(st).discards == cards("JK 7H 6H") and st.phase == Phase.PLAY
    assert st.observation(E).sitting == ()  # both partners play
    game_ref = new_hand(MISERE, dealer=W)
    act(game_ref, f"{MISERE_AUCTION} 7H 6H JK")
    assert game_ref.observation(E).sitting == (S,)  # the reference misère: the partner sits out


def test_C1_double_misere_both_partners_must_take_no_trick() -> None:
    ref = new_hand(MISERE, dealer=W)
    act(ref, f"{MISERE_AUCTION} 7H 6H JK {MISERE_CLEAN_PLAY}")
    assert {len(t.cards) for t in log(ref).tricks} == {3} and log(ref).scores == [250, 0]
    perfect = shipped("perfect")
    clean = perfect_hand(perfect)
    act(clean, "double-misere pass pass pass 7H 6H JK JK 7H 6H")
    finish(clean)
    assert {len(t.cards) for t in log(clean).tricks} == {4} and log(clean).tricks_won == [0, 10, 0, 0]
    assert log(clean).scores == [450, 0]
    kept = perfect_hand(perfect)
    act(kept, "double-misere pass pass pass 7H 6H JK 7H 6H 8H")  # S keeps the joker
    trick(kept, "5S")
    trick(kept, "KS")  # S is void in spades: the joker is compulsory in misère, and wins
    assert log(kept).tricks[-1].winner == S and len(log(kept).tricks) == 2
    assert log(kept).scores == [-450, 0]


def test_C3_patastrophe_both_partners_hands_are_open_after_trick_1() -> None:
    ref = new_hand(MISERE, dealer=W)
    act(ref, "6S 7S pass pass open-misere pass 7H 6H JK")
    trick(ref, "5S")
    assert [seat for seat, _ in ref.observation(E).open_hands] == [N]
    st = perfect_hand()
    act(st, "patastrophe pass pass pass 7H 6H JK")
    assert all(st.observation(seat).open_hands == () for seat in range(4))
    trick(st, "5S")
    for seat in (E, W):
        shown = dict(st.observation(seat).open_hands)
        assert sorted(shown) == [N, S] and shown[S] == st.observation(S).hand
    assert [seat for seat, _ in st.observation(N).open_hands] == [S]
    assert [seat for seat, _ in st.observation(S).open_hands] == [N]


def test_C2_double_shields_only_the_partners_hand_is_open(tmp_path: Path) -> None:
    c2 = variant(tmp_path, "double-shields",
                 auction={"ladder": [*RULES.ruleset.model_dump()["auction"]["ladder"],
                                     {"call": "double-shields", "value": 600}]},
                 contracts={"double-shields": {"kind": "misere", "partner_plays": True, "kitty_to_partner": True,
                                               "partner_open": True}})
    st = new_hand(MISERE, dealer=W, rules=c2)
    act(st, "double-shields pass pass pass 7H 6H JK JK 7H 6H")
    assert st.observation(E).open_hands == ()
    trick(st, "5S")
    assert [seat for seat, _ in st.observation(E).open_hands] == [S]  # the contractor's own hand stays hidden
    assert st.observation(E).open_hand is None
    assert [seat for seat, _ in st.observation(N).open_hands] == [S]


# --- C4: Wilkinson misère; B9: no-kitty bids ------------------------------------------------------


def wilkinson(tmp_path: Path) -> Rules:
    ladder = [{k: v for k, v in rung.items() if k != "requires_standing"}
              for rung in RULES.ruleset.model_dump(exclude_defaults=True)["auction"]["ladder"]]
    return variant(tmp_path, "wilkinson", auction={"ladder": ladder},
                   contracts={"misere": {"kind": "misere", "open": True},
                              "open-misere": {"kind": "misere", "open": True, "kitty": False}})


def test_C4_wilkinson_closed_misere_bid_any_time_and_played_open(tmp_path: Path) -> None:
    ref = new_hand(MISERE, dealer=W)
    assert "misere" not in legal(ref)
    refused(ref, "misere")
    st = new_hand(MISERE, dealer=W, rules=wilkinson(tmp_path))
    assert "misere" in legal(st)
    act(st, "misere pass pass pass 7H 6H JK")
    trick(st, "5S")
    assert st.observation(E).open_hand == st.observation(N).hand  # shown, though bid as closed misère
    act(ref, f"{MISERE_AUCTION} 7H 6H JK")
    trick(ref, "5S")
    assert ref.observation(E).open_hand is None and ref.observation(E).open_hands == ()


def test_C4_wilkinson_open_misere_without_the_kitty(tmp_path: Path) -> None:
    ref = new_hand(MISERE, dealer=W)
    act(ref, "open-misere pass pass pass")
    assert ref.phase == Phase.DISCARD and len(ref.observation(N).hand) == 13
    st = new_hand(MISERE, dealer=W, rules=wilkinson(tmp_path))
    act(st, "open-misere pass pass pass")
    assert st.phase == Phase.PLAY and st.observation(N).hand == tuple(sorted(cards(MISERE[0])))
    act(st, MISERE_CLEAN_PLAY)
    assert log(st).discards == [] and log(st).scores == [500, 0]
    assert not set(cards(MISERE[4])) & {c for t in log(st).tricks for c in t.cards}  # the kitty stays out


def test_B9_a_no_kitty_contract_is_played_as_dealt(tmp_path: Path) -> None:
    b9 = variant(tmp_path, "no-kitty",
                 auction={"ladder": [*RULES.ruleset.model_dump()["auction"]["ladder"],
                                     {"call": "10NT-no-kitty", "value": 600}]},
                 contracts={"10NT-no-kitty": {"kind": "no-trumps", "goal": "at-least", "tricks": 10,
                                              "partner_plays": True, "kitty": False}})
    ref = new_hand(SUITED, dealer=W)
    act(ref, "10NT pass pass pass")
    assert ref.phase == Phase.DISCARD and len(ref.observation(N).hand) == 13
    st = new_hand(SUITED, dealer=W, rules=b9)
    act(st, "10NT-no-kitty pass pass pass")
    assert st.phase == Phase.PLAY and st.observation(N).hand == tuple(sorted(cards(SUITED[0])))
    tricks(st, SPADES)
    assert log(st).discards == [] and log(st).scores == [600, 0]


# --- B10: when everybody passes --------------------------------------------------------------------



def test_B10_all_pass_played_at_no_trumps_for_ten_a_trick(tmp_path: Path) -> None:
    ref = new_hand(SPLIT, dealer=W)
    act(ref, "pass pass pass pass")
    assert ref.phase == Phase.DEAL and ref.dealer == N and log(ref).contract is None and ref.totals == [0, 0]
    nt = variant(tmp_path, "all-pass-nt", deal={"all_pass": "no-trumps"})
    st = new_hand(SPLIT, dealer=W, rules=nt)
    act(st, "pass pass pass pass")
    assert st.phase == Phase.PLAY and log(st).contractor == -1 and log(st).discards == []
    assert st.current_player() == N  # the dealer's left leads
    tricks(st, [*SPADES[:9], "4H"])
    assert log(st).tricks_won == [9, 0, 0, 1] and log(st).scores == [90, 10] and st.dealer == N
    st = new_hand(SUITED, dealer=S, rules=nt)
    act(st, "pass pass pass pass")
    assert st.current_player() == W  # W holds the hearts and wins every trick it leads
    finish(st)
    assert log(st).scores == [0, 100]


def test_B10_redeals_the_same_dealer_deals_up_to_twice_more(tmp_path: Path) -> None:
    redeal = variant(tmp_path, "redeals", deal={"redeals": 2})
    for rules, dealers in ((RULES, [W, N, E, S]), (redeal, [W, W, W, N])):
        st = GameState(rules, first_dealer=W)
        for _ in dealers:
            st.deal_cards([cards(h) for h in SPLIT[:4]], cards(SPLIT[4]))
            act(st, "pass pass pass pass")
        assert [h.dealer for h in st.hands_log] == dealers


def test_B10_same_cards_the_next_dealer_deals_them_unshuffled(tmp_path: Path) -> None:
    same = variant(tmp_path, "same-cards", deal={"all_pass": "same-cards"})
    for rules, reused in ((RULES, False), (same, True)):
        st = GameState(rules, first_dealer=W)
        st.deal(random.Random(1))
        first = log(st)
        act(st, "pass pass pass pass")
        st.deal(random.Random(2))
        assert st.dealer == N
        again = log(st)
        # dealt in the same order from the new dealer's left: each hand moves one seat on
        assert (again.hands == [first.hands[(seat - 1) % 4] for seat in range(4)]) is reused
        assert (again.kitty == first.kitty) is reused


# --- C6 slam call, C7 declare --------------------------------------------------------------------


def declared(rules: Rules, declaration: str, keep: str) -> GameState:
    """SUITED, dealer W: N bids 7NT, keeps nine spades and ``keep`` (5♠: all ten tricks; 4♥: W wins
    one), declares, S gives the 5♦, N discards it, and N leads nine spades then ``keep``."""
    st = new_hand(SUITED, dealer=W, rules=rules)
    act(st, f"7NT pass pass pass 4D JK {'4H' if keep == '5S' else '5S'}")
    assert st.phase == Phase.STEP and st.current_step.name == "declaration" and st.current_player() == N
    assert legal(st) == {"no declaration", declaration}
    do(st, declaration)
    assert st.phase == Phase.STEP and st.current_step.name == "gift" and st.current_player() == S
    do(st, "give 5D")
    assert st.phase == Phase.DISCARD and st.current_player() == N and len(st.observation(N).hand) == 11
    do(st, "discard 5D")
    assert st.phase == Phase.PLAY and st.observation(E).sitting == (S,)
    assert st.observation(E).steps.get("declaration") == declaration and log(st).steps.get("gift") == parse_card("5D")
    gift = {seat: st.observation(seat).seen.get("gift") for seat in range(4)}  # seen by the giver and the contractor
    assert gift == {N: parse_card("5D"), E: None, S: parse_card("5D"), W: None}
    tricks(st, [*SPADES[:9], keep])
    finish(st)
    return st


def test_C6_slam_call_partner_gives_a_card_and_sits_out_all_ten_or_value_plus_100(tmp_path: Path) -> None:
    ref = new_hand(SUITED, dealer=W)
    act(ref, "7NT pass pass pass 4D JK 5S")
    assert ref.phase == Phase.PLAY
    tricks(ref, [*SPADES[:9], "4H"])
    finish(ref)
    assert log(ref).tricks_won == [9, 0, 0, 1] and log(ref).scores == [220, 10]
    c6 = variant(tmp_path, "slam", declarations={"slam": [7]})
    made = declared(c6, "slam", "5S")  # worth an eight-bid in the same suit: 8NT, 320 (not the slam's 250)
    assert made.hands_log[0].tricks_won == [10, 0, 0, 0] and made.hands_log[0].scores == [320, 0]
    failed = declared(c6, "slam", "4H")
    assert failed.hands_log[0].tricks_won == [9, 0, 0, 1] and failed.hands_log[0].scores == [-320, 10]
    assert game_to_dict(failed)["hands"][0]["declaration"] == "slam"
    validates(failed)


def test_C6_slam_is_called_only_at_the_listed_levels(tmp_path: Path) -> None:
    c6 = variant(tmp_path, "slam", declarations={"slam": [7]})
    st = new_hand(SUITED, dealer=W, rules=c6)
    act(st, "8NT pass pass pass 4D JK 4H")
    assert st.phase == Phase.PLAY and log(st).steps.get("declaration") is None
    st = new_hand(SUITED, dealer=W, rules=c6)
    act(st, "7NT pass pass pass 4D JK 4H")
    do(st, "no declaration")
    assert st.phase == Phase.PLAY and st.observation(E).sitting == () and log(st).steps.get("declaration") == "none"


def test_C7_declare_the_contractor_plays_alone_for_all_ten_or_loses_500(tmp_path: Path) -> None:
    c7 = variant(tmp_path, "declare", declarations={"declare": True})
    made = declared(c7, "declare", "5S")
    assert made.hands_log[0].scores == [250, 0]
    failed = declared(c7, "declare", "4H")
    assert failed.hands_log[0].scores == [-500, 10]
    validates(failed)
    ref = new_hand(SUITED, dealer=W)
    act(ref, "7NT pass pass pass 4D JK 4H")
    assert ref.phase == Phase.PLAY and log(ref).steps.get("declaration") is None


# --- E6: the mid-hand end ---------------------------------------------------------------------------


def test_E6_the_hand_ends_once_the_defenders_reach_500_and_the_contract_is_lost(tmp_path: Path) -> None:
    any_500 = variant(tmp_path, "any", game={"win": "any"})
    e6 = variant(tmp_path, "mid-hand", game={"win": "any", "mid_hand": True})
    for rules, played in ((any_500, 10), (e6, 8)):
        st = new_hand(SPLIT, dealer=W, rules=rules, totals=[300, 470])
        act(st, "7NT pass pass pass 5H 4D JK")
        tricks(st, [*SPADES[:4], "4H"])  # N takes four, then W takes every trick left
        finish(st)
        # E6: W's third trick takes EW to 500, but N (at 300) could still win by making 7NT; after
        # W's fourth N can take at most six
        assert len(log(st).tricks) == played
        assert st.is_terminal() and st.result is not None and st.result.winner == EW
    assert st.totals == [80, 510]


def test_E6_the_hand_goes_on_while_the_contractor_can_still_make_it(tmp_path: Path) -> None:
    e6 = variant(tmp_path, "mid-hand", game={"win": "any", "mid_hand": True})
    st = new_hand(SPLIT, dealer=W, rules=e6, totals=[300, 490])
    act(st, "7NT pass pass pass 5H 4D JK")
    trick(st, "4H")  # EW reach 500 at once, but N could still take seven of the nine left and reach 520
    assert st.phase == Phase.PLAY
    tricks(st, ["AH", "KH", "QH"])
    assert len(log(st).tricks) == 4 and st.totals == [80, 530]  # ended when N could no longer make it


# --- R2: breach -----------------------------------------------------------------------------------


def test_R2_each_defender_in_turn_may_call_breach_on_a_seven_bid(tmp_path: Path) -> None:
    ref = new_hand(SUITED, dealer=W)
    act(ref, "7NT pass pass pass 4D JK 4H")
    assert ref.phase == Phase.PLAY
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = new_hand(SUITED, dealer=W, rules=r2)
    act(st, "7NT pass pass pass 4D JK 4H")
    assert st.phase == Phase.STEP and st.current_step.name == "breach" and st.current_player() == E
    assert legal(st) == {"breach", "no breach"}
    do(st, "no breach")
    assert st.phase == Phase.STEP and st.current_step.name == "breach" and st.current_player() == W
    do(st, "breach")
    assert st.phase == Phase.PLAY and log(st).steps.get("breach", []) == [(E, False), (W, True)]
    assert game_to_dict(st)["hands"][0]["breach_calls"] == [{"seat": "E", "breach": False},
                                                            {"seat": "W", "breach": True}]
    st = new_hand(SUITED, dealer=W, rules=r2)
    act(st, "7NT pass pass pass 4D JK 4H")
    do(st, "breach")
    assert st.phase == Phase.PLAY and log(st).steps.get("breach", []) == [(E, True)]  # one call is enough
    st = new_hand(SUITED, dealer=W, rules=r2)
    act(st, "6NT pass pass pass 4D JK 4H")
    assert st.phase == Phase.PLAY and log(st).steps.get("breach", []) == []  # below the 7 level: no breach


BREACH_CASES = [
    (8, -1, [140, 20]),  # no breach: the reference scores
    (8, W, [140, 20 - 100]),  # win/lose: made; the breaching side loses the breach
    (6, W, [-140, 40 - 100]),  # lose/lose: defeated by 4, one short of the breach
    (5, E, [-140, 50 + 100]),  # lose/win: 5 defence tricks against a 7-bid
]


def breach_by(seat: int) -> dict[str, list[tuple[int, bool]]]:
    """A hand's step data in which ``seat`` called breach (``HandOutcome.steps``); nobody for -1."""
    return {"breach": [(seat, True)]} if seat >= 0 else {}


@pytest.mark.parametrize(("north", "breacher", "scores"), BREACH_CASES)
def test_R2_breach_win_lose_cases(tmp_path: Path, north: int, breacher: int, scores: list[int]) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    seven = r2.ladder[r2.parse_call("7S")]
    tricks_by_seat = (north, 10 - north, 0, 0)
    outcome = HandOutcome(seven, N, NS, tricks_by_seat, (north, 10 - north), north >= 7, 10, 10, (N, S),
                          (0, 0), breach_by(breacher))
    assert r2.score_hand(outcome) == scores
    assert RULES.score_hand(outcome) == [140 if north >= 7 else -140, 10 * (10 - north)]  # breach ignored


def test_R2_breach_needs_one_trick_more_than_defeat(tmp_path: Path) -> None:
    from fivehundred.plugins.breach import tricks_to_breach

    for call, needed in (("7S", 5), ("8H", 4), ("9NT", 3), ("10C", 2), ("misere", 3)):
        assert tricks_to_breach(RULES.ladder[RULES.parse_call(call)], 10) == needed
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    misere = r2.ladder[r2.parse_call("misere")]
    for north, defence in ((3, 100), (1, -100)):  # against misère the misère side's tricks count
        played_out = HandOutcome(misere, N, NS, (north, 10 - north, 0, 0), (north, 10 - north), False, 10, 10, (N,),
                                 (0, 0), breach_by(E))
        assert r2.score_hand(played_out) == [-250, defence]


def test_R2_nobody_wins_or_loses_the_game_on_breach_points(tmp_path: Path) -> None:
    """“500 (juego de cartas)”: a breach is not a bid, so its points cannot take a side out ("the back door")."""
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    seven = r2.ladder[r2.parse_call("7S")]
    reached = HandOutcome(seven, N, NS, (4, 6, 0, 0), (4, 6), False, 10, 10, (N, S), (0, 390), breach_by(E))
    assert r2.score_hand(reached) == [-140, 60 + 100]  # lose/win: EW 390 + 160 = 550
    assert r2.game_result([-140, 550], reached) is None  # defenders never win on points (rule 30), breach or not
    failed = HandOutcome(seven, N, NS, (7, 3, 0, 0), (7, 3), True, 10, 10, (N, S), (0, -420), breach_by(E))
    assert r2.score_hand(failed) == [140, 30 - 100]  # win/lose: EW -420 + 30 - 100 = -490
    assert r2.game_result([140, -520], failed._replace(totals_before=(0, -450))) is None  # -420 without it
    assert RULES.game_result([140, -520], failed) is not None  # the same totals swamp EW without a breach
    made_to_500 = failed._replace(totals_before=(380, 0))
    result = r2.game_result([520, -70], made_to_500)  # the contract's own points still win
    assert result is not None and result.winner == NS


def test_R2_a_failed_breacher_and_a_breached_seven_bidder_sit_out_the_next_auction(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    seven, eight = (r2.ladder[r2.parse_call(c)] for c in ("7S", "8S"))
    made = HandOutcome(seven, N, NS, (7, 3, 0, 0), (7, 3), True, 10, 10, (N, S), (0, 0), breach_by(E))
    lost_short = HandOutcome(seven, N, NS, (6, 4, 0, 0), (6, 4), False, 10, 10, (N, S), (0, 0), breach_by(W))
    breached = HandOutcome(seven, N, NS, (4, 6, 0, 0), (4, 6), False, 10, 10, (N, S), (0, 0), breach_by(E))
    breached_eight = HandOutcome(eight, N, NS, (4, 6, 0, 0), (4, 6), False, 10, 10, (N, S), (0, 0), breach_by(E))
    assert r2.auction.barred_after(made) == {E}  # win/lose
    assert r2.auction.barred_after(lost_short) == {W}  # lose/lose
    assert r2.auction.barred_after(breached) == {N}  # lose/win on a seven-bid
    assert r2.auction.barred_after(breached_eight) == frozenset()  # the bar is for a seven-bid only
    assert RULES.auction.barred_after(made) == frozenset()
    st = new_hand(SPLIT, dealer=W, rules=r2)  # in play: W breaches and reaches it, N bid seven
    act(st, "7NT pass pass pass 5H 4D JK")
    do(st, "no breach", "breach")
    tricks(st, [*SPADES[:5], "4H"])
    finish(st)
    st.deal(random.Random(3))
    assert st.auction_barred == {N}


def test_R2_a_breach_value_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"scoring\.breach"):
        variant(tmp_path, "bad-breach", scoring={"breach": 0})


def test_R2_breach_is_scored_in_play(tmp_path: Path) -> None:
    r2 = variant(tmp_path, "breach", scoring={"breach": 100})
    st = new_hand(SPLIT, dealer=W, rules=r2)
    act(st, "7NT pass pass pass 5H 4D JK")
    do(st, "no breach", "breach")
    tricks(st, [*SPADES[:5], "4H"])  # N takes five, W the other five: the breach is reached
    finish(st)
    assert log(st).tricks_won == [5, 0, 0, 5]
    assert log(st).scores == [-220, 50 + 100]


def test_D4_a_deal_is_thrown_in_only_before_the_auction_ends(tmp_path: Path) -> None:
    st = new_hand(FACELESS, dealer=W, rules=variant(tmp_path, "misdeal-may", deal={"misdeal_without_face_card": "may"}))
    assert st.action_to_str(st.legal_actions()[-1]) == "misdeal"  # a step's offer, beside the calls
    act(st, "7NT pass pass pass")
    with pytest.raises(IllegalActionError, match="thrown in only before the auction ends"):
        st.carry_out(ThrowIn(caller=N))


# --- records of every exchange variant replay ---------------------------------------------------------


@pytest.mark.parametrize(("name", "sections", "field"), [
    ("misdeal-must", {"deal": {"misdeal_without_face_card": "must"}}, "misdeal"),
    ("misdeal-may", {"deal": {"misdeal_without_face_card": "may"}}, "misdeal"),
    ("slam", {"declarations": {"slam": [7, 8]}}, "declaration"),
    ("declare", {"declarations": {"declare": True}}, "declaration"),
    ("breach", {"scoring": {"breach": 100}}, "breach_calls"),
    ("all-pass-nt", {"deal": {"all_pass": "no-trumps"}}, None),
    ("same-cards", {"deal": {"all_pass": "same-cards", "redeals": 1}}, None),
])
def test_exchange_variant_records_validate(tmp_path: Path, name: str, sections: dict[str, Any],
                                           field: str | None) -> None:
    rules = variant(tmp_path, name, **sections)
    out = tmp_path / f"{name}.jsonl"
    # club's auction and exchange without its double-dummy searches: the records are under test, not the play
    fivehundred.simulate(games=12, seed=1, ruleset=rules.ruleset, players="club:fast", out=out)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert field is None or any(field in hand for record in records for hand in record["hands"])
    assert fivehundred.validate([out], ruleset=rules.ruleset).problems == []


class _DoubleMisereBidder:
    """A random player that bids double misère whenever it may (to reach C1's pass in a few games)."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        if state.phase == Phase.STEP and state.current_step is not None and state.current_step.name == "blind":
            return legal[0]  # look at the cards (no blind misère, B8, which would outbid everything)
        if state.phase == Phase.AUCTION:
            eager = [a for a in legal if state.action_to_str(a) == "double-misere"]
            if eager:
                return eager[0]
            if any(state.rules.call_text(call) == "double-misere" for _, call in state.hand_log.calls):
                return next(a for a in legal if state.action_to_str(a) == "pass")  # let it stand
        return legal[int(self.rng.random() * len(legal))]


def test_C1_records_carry_the_pass_and_a_card_passed_that_was_not_held_is_refused() -> None:
    perfect = shipped("perfect")
    for game in range(20):
        st, rng = fivehundred.new_game(perfect.ruleset, f"C1:{game}")
        st.play_out([_DoubleMisereBidder(s, random.Random(f"{game}:{s}")) for s in range(4)], rng, 6)
        record = game_to_dict(st, seed=game, game=0)
        hand = next((h for h in record["hands"] if "passed" in h), None)
        if hand is None:
            continue
        assert validate_record(record, ruleset=perfect.ruleset) == []
        assert len(hand["passed"]) == perfect.kitty_size and len(hand["discards"]) == perfect.kitty_size
        contractor = hand["contract"]["contractor"]
        held = set(hand["hands"][contractor]) | set(hand["kitty"])
        hand["passed"][0] = next(c for seat, cards in hand["hands"].items() if seat != contractor
                                 for c in cards if c not in held)
        problems = validate_record(record, ruleset=perfect.ruleset)
        assert problems and problems[0].rule.startswith("C1") and problems[0].field.endswith(".passed")
        return
    raise AssertionError("no double misère in 20 games")
