"""Trick tables and the joker, checked where the mutation run (``mutation/run.py``, docs/testing.md)
found that a wrong rule would have passed the rest of the suite."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import SimpleNamespace

from helpers import RULES, STRONG_NT, STRONG_NT_W_JOKER, E, N, W, act, legal, log, names, new_hand

import fivehundred
from fivehundred.plugins.tricks import Turn, past_play, renege
from fivehundred.rules.actions import JOKER_LEAD
from fivehundred.rules.cards import CLUBS, DIAMONDS, HEARTS, NO_SUIT, SPADES, parse_card
from fivehundred.rules.manager import Rules, compile_rules


def variant(tmp_path: Path, body: str) -> Rules:
    path = tmp_path / "variant.yaml"
    path.write_text("extends: pagat-australian\nname: variant\n" + textwrap.dedent(body), encoding="utf-8")
    return compile_rules(fivehundred.load_ruleset(path))


D2 = """
    deck: {jokers: 2}
    deal:
      packets: [{each: 3}, {kitty: 1}, {each: 4}, {kitty: 1}, {each: 3}, {kitty: 2}]
"""
FIRST_JOKER_TO_NORTH = (
    "JK AS KS QS AC KC QC AH KH AD",
    "JK2 5C 6C 7C 8C 4H 5H 6H 7H 8H",
    "JS 10S 9S 8S 7S 6S 5S 9C 10C JC",
    "KD QD JD 10D 9D 8D 7D 6D 5D 4D",
    "QH JH 10H 9H",
)
"""North holds the first joker, East the second and no spade."""


def test_D2_a_nominated_first_joker_beats_a_defenders_free_second_joker(tmp_path: Path) -> None:
    st = new_hand(FIRST_JOKER_TO_NORTH, rules=variant(tmp_path, D2))
    act(st, "7NT pass pass pass QH JH 10H 9H S JK")  # the first joker nominated and led as a spade
    assert "JK2" in legal(st)  # East, void in spades, may play its free joker (rule 21)
    act(st, "JK2 5S 4D")
    assert log(st).tricks[0].winner == N  # the highest spade beats the lower joker (D2, rule 19)


def test_J2_in_suit_contracts_none_the_joker_is_a_blank(tmp_path: Path) -> None:
    rules = variant(tmp_path, "joker: {nomination: when-played, in_suit_contracts: none}\n")
    joker = parse_card("JK")
    for call in ("7S", "7H"):
        table = rules.play_table(rules.ladder[rules.parse_call(call)])
        assert table.suit_of[joker] == NO_SUIT
        assert all(power[joker] == 0 for power in table.power)  # it never wins a trick it is played to
        assert table.joker_lead == "any"


def test_J2_J3_a_named_joker_is_refused_only_as_the_suit_shown_void(tmp_path: Path) -> None:
    rules = variant(tmp_path, "joker: {nomination: when-played, no_renege: true}\n")
    st = new_hand(STRONG_NT_W_JOKER, rules=rules)
    act(st, "7NT pass pass pass 5D 6D 7D | AS 9S 6S 5S | KS 10S 7S 8H | QS JS 8S")  # W showed void in spades
    assert legal(st) == names("5C 7H 6H 5H 10D 9D 8D JK:C JK:D JK:H")
    act(st, "JK:H")
    assert log(st).tricks[2].winner == N  # a heart thrown on a spade trick


def test_D2_J2_the_second_joker_is_named_as_any_suit_by_a_follower(tmp_path: Path) -> None:
    st = new_hand(FIRST_JOKER_TO_NORTH, rules=variant(tmp_path, D2 + "    joker: {nomination: when-played}\n"))
    act(st, "7NT pass pass pass QH JH 10H 9H AS")
    assert legal(st) == names("JK2:S JK2:C JK2:D JK2:H 5C 6C 7C 8C 4H 5H 6H 7H 8H")
    act(st, "JK2:S 5S 4D")
    assert log(st).tricks[0].winner == E  # named as the suit led, the joker is its top card


def test_the_joker_is_a_trump_only_in_a_suit_contract() -> None:
    for call, as_trump in (("7S", True), ("7H", True), ("7NT", False), ("misere", False)):
        assert RULES.joker_rules(RULES.ladder[RULES.parse_call(call)]).as_trump is as_trump


def test_D2_a_defenders_free_first_joker_beats_a_nominated_second_joker(tmp_path: Path) -> None:
    second_to_north = (FIRST_JOKER_TO_NORTH[0].replace("JK", "JK2"), FIRST_JOKER_TO_NORTH[1].replace("JK2", "JK"),
                       *FIRST_JOKER_TO_NORTH[2:])
    st = new_hand(second_to_north, rules=variant(tmp_path, D2))
    act(st, "7NT pass pass pass QH JH 10H 9H S JK2 JK 5S 4D")
    assert log(st).tricks[0].winner == E  # rule 20: a free joker wins any trick; D2: the first is the higher


def test_J4_a_nominated_joker_may_be_the_first_card_of_its_suit(tmp_path: Path) -> None:
    st = new_hand(STRONG_NT, rules=variant(tmp_path, "joker: {first_or_last: true}\n"))
    act(st, "7NT pass pass pass 4D 5D 6D H")
    assert {"JK", "AH", "KH"} <= legal(st)  # N has played no heart yet: the joker may lead them
    act(st, "JK 4H 9H 5H")
    assert log(st).tricks[0].winner == N


def test_D2_J2_J3_the_second_joker_named_as_a_suit_shown_void_is_refused(tmp_path: Path) -> None:
    rules = variant(tmp_path, D2 + "    joker: {nomination: when-played, no_renege: true}\n")
    st = new_hand(FIRST_JOKER_TO_NORTH, rules=rules)
    act(st, "7NT pass pass pass QH JH 10H 9H AS 5C 5S 4D KS")  # E showed void in spades
    assert legal(st) == names("JK2:C JK2:D JK2:H 6C 7C 8C 4H 5H 6H 7H 8H")


def test_J3_the_joker_as_its_holders_last_card_may_be_any_suit() -> None:
    table = RULES.play_table(RULES.ladder[RULES.parse_call("7NT")])
    joker = parse_card("JK")
    turn = Turn.__new__(Turn)
    turn.seat, turn.table, turn.led, turn.played, turn.voids = W, table, SPADES, frozenset(), frozenset({SPADES})
    turn.hand = (joker,)
    assert renege(turn, joker) is None and renege(turn, JOKER_LEAD + SPADES) is None
    turn.hand = (parse_card("5C"), joker)
    assert renege(turn, joker) is not None and renege(turn, JOKER_LEAD + SPADES) is not None
    assert renege(turn, JOKER_LEAD + HEARTS) is None


def test_past_play_reads_the_current_hand_only() -> None:
    """J3 and J4 read the suits a seat played and showed void in this hand, not in an earlier one."""
    def trick(leader: int, cards: str) -> SimpleNamespace:
        return SimpleNamespace(leader=leader, cards=[parse_card(c) for c in cards.split()], named=None)

    table = RULES.play_table(RULES.ladder[RULES.parse_call("7NT")])
    earlier = SimpleNamespace(tricks=[trick(N, "AH KH QH 9D")])  # W showed void in hearts then
    current = SimpleNamespace(tricks=[trick(N, "AS 5C QS 9S"), trick(E, "4D 5D")])  # E showed void in spades now
    state = SimpleNamespace(hands_log=[earlier, current], play_order=(1, 2, 3, 0))
    assert past_play(state, W, table.suit_of) == (frozenset({SPADES}), frozenset())
    assert past_play(state, E, table.suit_of) == (frozenset({CLUBS, DIAMONDS}), frozenset({SPADES}))
    assert past_play(state, N, table.suit_of) == (frozenset({SPADES}), frozenset())


def test_every_trick_table_lists_the_decks_jokers(tmp_path: Path) -> None:
    d2 = variant(tmp_path, D2)
    for rules, jokers in ((RULES, ("JK",)), (d2, ("JK", "JK2"))):
        for call in ("7S", "7H", "7NT", "misere"):
            table = rules.play_table(rules.ladder[rules.parse_call(call)])
            assert table.jokers == tuple(parse_card(j) for j in jokers)
