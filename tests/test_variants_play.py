"""Variants of the deck and of the play, the joker's above all (VARIANTS.md: D1–D3, C8, J1–J5, L1).

Every test plays a concrete deal under a ruleset that extends the reference and shows where the
outcome (a legal play, a trick's winner, the number of discards) differs from the reference.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from helpers import (
    MISERE,
    MISERE_AUCTION,
    RULES,
    RULESET,
    STRONG_NT,
    STRONG_NT_W_JOKER,
    SUITED,
    E,
    N,
    W,
    act,
    cards,
    contract,
    legal,
    log,
    names,
    new_hand,
    trick,
)

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.engine.state import GameState, Phase
from fivehundred.plugins.tricks import Turn, past_play, renege
from fivehundred.records.record import hand_to_dict
from fivehundred.rules.actions import JOKER_LEAD
from fivehundred.rules.cards import CLUBS, DIAMONDS, HEARTS, NO_SUIT, SPADES, parse_card
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import Rules, compile_rules


def variant(tmp_path: Path, name: str, body: str | dict[str, Any]) -> Rules:
    """A ruleset that extends the reference with ``body`` (YAML text or a mapping), compiled."""
    text = body if isinstance(body, str) else yaml.safe_dump(body, sort_keys=False)
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: pagat-australian\nname: {name}\n" + textwrap.dedent(text), encoding="utf-8")
    return compile_rules(fivehundred.load_ruleset(path))


def trumps_in(rules: Rules, call: str) -> int:
    """How many cards of the deck count as trumps in the contract ``call``."""
    c = rules.ladder[rules.parse_call(call)]
    assert c.trump is not None
    table = rules.play_table(c)
    return sum(table.suit_of[card] == c.trump for card in rules.deck)


def both(deal: tuple[str, ...], script: str, rules: Rules) -> tuple[GameState, GameState]:
    """The same deal and actions under the reference and under ``rules``."""
    reference, varied = new_hand(deal), new_hand(deal, rules=rules)
    act(reference, script)
    act(varied, script)
    return reference, varied


def refused(st: GameState, token: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        st.apply(st.parse_action(token))
    return caught.value


def reason(st: GameState, plain: GameState, token: str) -> tuple[str, str] | None:
    """Why the variant refuses ``token``, given the plain plays (those of ``plain``, the same
    position under the reference, or ``st`` itself for what the engine already enforces)."""
    table = st.play_table
    assert table is not None and table.explain_illegal is not None
    explain = table.explain_illegal
    return explain(st, st.current_player(), st.parse_action(token), plain.legal_actions())


# --- D1: the 45-card deck --------------------------------------------------------------------

FOURS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]
D1 = f"""
    deck:
      suits: {{S: {FOURS}, C: {FOURS}}}
    deal:
      packets: [{{each: 3}}, {{kitty: 3}}, {{each: 4}}, {{kitty: 2}}, {{each: 3}}]
"""


def test_D1_45_card_deck_deals_a_kitty_of_5_and_the_contractor_discards_5(tmp_path: Path) -> None:
    rules = variant(tmp_path, "d1", D1)
    assert len(rules.deck) == 45 and (rules.hand_size, rules.kitty_size) == (10, 5)
    assert rules.deal_slots[1] == (12, 13, 14, 31, 32)  # 3 each, 3 to the kitty, 4 each, 2, 3 each
    deck = sorted(rules.deck)
    hands, kitty = [deck[i * 10:(i + 1) * 10] for i in range(4)], deck[40:]
    with pytest.raises(IllegalActionError):  # the reference deck has no black 4s
        GameState(RULES, first_dealer=W).deal_cards(hands, kitty)
    st = GameState(rules, first_dealer=W)
    st.deal_cards(hands, kitty)
    act(st, "7S pass pass pass")
    assert len(st.observation(N).hand) == 15
    for card in deck[:4]:
        act(st, fivehundred.card_str(card))
    assert st.phase == Phase.DISCARD  # the reference would be playing after 3
    act(st, fivehundred.card_str(deck[4]))
    assert st.phase == Phase.PLAY and len(st.observation(N).hand) == 10
    assert len(log(st).discards) == 5


# --- D2: two jokers ---------------------------------------------------------------------------

D2 = """
    deck: {jokers: 2}
    deal:
      packets: [{each: 3}, {kitty: 1}, {each: 4}, {kitty: 1}, {each: 3}, {kitty: 2}]
"""
TWO_JOKERS = (
    "JK2 AS KS QS AC KC QC AH KH AD",
    "JK 5C 6C 7C 8C 4H 5H 6H 7H 8H",
    "JS 10S 9S 8S 7S 6S 5S 9C 10C JC",
    "KD QD JD 10D 9D 8D 7D 6D 5D 4D",
    "QH JH 10H 9H",
)
"""North holds the second joker, East the first; East is void in spades and diamonds."""
BOTH_JOKERS = ("JK JK2 AS KS QS AC KC QC AH KH", "AD" + TWO_JOKERS[1][2:], *TWO_JOKERS[2:])


def test_D2_two_jokers_make_14_trumps_in_a_red_suit(tmp_path: Path) -> None:
    rules = variant(tmp_path, "d2", D2)
    assert len(rules.deck) == 44 and rules.kitty_size == 4
    assert [trumps_in(rules, c) for c in ("7S", "7C", "7D", "7H")] == [13, 13, 14, 14]
    assert [trumps_in(RULES, c) for c in ("7S", "7C", "7D", "7H")] == [12, 12, 13, 13]


def test_D2_the_first_joker_beats_the_second_as_a_trump(tmp_path: Path) -> None:
    st = new_hand(TWO_JOKERS, rules=variant(tmp_path, "d2", D2))
    act(st, "7H pass pass pass QH JH 10H 9H JK2")
    assert legal(st) == names("JK 4H 5H 6H 7H 8H")  # E follows the trump lead
    act(st, "JK 5S")
    assert legal(st) == {"JD"}  # W's left bower is its only trump
    act(st, "JD")
    assert log(st).tricks[0].winner == E


def test_D2_free_jokers_in_no_trumps_the_higher_wins(tmp_path: Path) -> None:
    st = new_hand(TWO_JOKERS, rules=variant(tmp_path, "d2", D2))
    act(st, "7NT pass pass pass QH JH 10H 9H")
    assert st.phase == Phase.NOMINATE  # the contractor holds a joker: either may be nominated
    act(st, "none")
    assert {"JK2:S", "JK2:C", "JK2:D", "JK2:H"} <= legal(st)  # the second joker is led as the first is
    act(st, "JK2:S")
    assert "JK" in legal(st)  # E, void in spades, may play the other free joker
    act(st, "JK 5S 4D")
    assert log(st).tricks[0].winner == E and log(st).tricks[0].named == SPADES


def test_D2_a_contractor_holding_both_jokers_nominates_both(tmp_path: Path) -> None:
    st = new_hand(BOTH_JOKERS, rules=variant(tmp_path, "d2", D2))
    act(st, "7NT pass pass pass QH JH 10H 9H H")
    assert {"JK", "JK2"} <= legal(st) and not any(":" in t for t in legal(st))  # led as hearts
    act(st, "JK2")
    assert legal(st) == names("4H 5H 6H 7H 8H")
    act(st, "8H 5S 4D")
    assert log(st).tricks[0].winner == N
    table = st.play_table
    assert table is not None
    jk, jk2, ah = parse_card("JK"), parse_card("JK2"), parse_card("AH")
    assert table.power[HEARTS][jk] > table.power[HEARTS][jk2] > table.power[HEARTS][ah]


def test_D2_a_nomination_leaves_a_defenders_joker_free(tmp_path: Path) -> None:
    st = new_hand(TWO_JOKERS, rules=variant(tmp_path, "d2", D2))
    act(st, "7NT pass pass pass QH JH 10H 9H H AS JK 5S 4D")
    assert log(st).tricks[0].winner == E  # E's joker is free and wins the spade trick (rule 20)


# --- D3: 4♠ and 4♦ removed, the other 4 of the trump colour a trump ----------------------------

D3_DECK = """
    deck:
      suits:
        C: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4"]
        D: [A, K, Q, J, "10", "9", "8", "7", "6", "5"]
"""
COLOUR_FOURS = (
    "JK JS JC AS KS QS 10S 9S 8S 5S",
    "4C AD KD QD JD 10D 9D 8D 7D 6D",
    "AC KC QC 10C 9C 8C 7C 6C 5C 5D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H",
    "7S 6S 4H",
)
"""In spades East's only trump is the 4♣; West holds no trump at all."""


def test_D3_the_four_of_the_trump_colour_is_a_trump_below_the_five(tmp_path: Path) -> None:
    plain = variant(tmp_path, "d3-deck", D3_DECK)
    rules = variant(tmp_path, "d3", textwrap.dedent(D3_DECK) + "trumps: {colour_four: true}\n")
    assert len(rules.deck) == 43
    assert [trumps_in(rules, c) for c in ("7S", "7C", "7D", "7H")] == [13] * 4  # always 13 trumps
    assert [trumps_in(plain, c) for c in ("7S", "7C", "7D", "7H")] == [12, 13, 12, 13]
    spades = rules.play_table(contract("7S"))
    four, five = parse_card("4C"), parse_card("5S")
    assert 0 < spades.power[SPADES][four] < spades.power[SPADES][five]
    script = "7S pass pass pass 7S 6S 4H 5S"
    without, with_four = new_hand(COLOUR_FOURS, rules=plain), new_hand(COLOUR_FOURS, rules=rules)
    act(without, script)
    act(with_four, script)
    assert len(legal(without)) == 10  # the 4♣ is a club: East is void in trumps
    assert legal(with_four) == {"4C"}  # a trump: East must follow the trump lead with it
    act(with_four, "4C 5D 5H")
    assert log(with_four).tricks[0].winner == N  # the 5♠ beats the 4♣


def test_D3_needs_one_four_of_each_colour(tmp_path: Path) -> None:
    with pytest.raises(fivehundred.RulesetError, match=r"trumps\.colour_four"):
        variant(tmp_path, "d3-bad", "trumps: {colour_four: true}\n")  # the reference deck has 4♦ and 4♥


# --- C8: jacks above aces in no-trumps ----------------------------------------------------------


def jacks_high_body() -> dict[str, Any]:
    ladder: list[dict[str, Any]] = []
    for rung in RULESET.auction.ladder:
        ladder.append({"call": rung.call, "value": rung.value}
                      | ({"requires_standing": rung.requires_standing} if rung.requires_standing else {}))
        if rung.call == "7NT":
            ladder.append({"call": "j5-7", "value": 230})
    return {"auction": {"ladder": ladder},
            "contracts": {"j5-7": {"kind": "no-trumps", "goal": "at-least", "tricks": 7, "partner_plays": True,
                                   "jacks_high": True}}}


def test_C8_a_jack_beats_its_ace_in_the_jacks_high_contract(tmp_path: Path) -> None:
    rules = variant(tmp_path, "c8", jacks_high_body())
    reference, c8 = new_hand(STRONG_NT), new_hand(STRONG_NT, rules=rules)
    act(reference, "7NT pass pass pass JK 5D 6D AS JS 8S 5S")
    act(c8, "j5-7 pass pass pass JK 5D 6D AS JS 8S 5S")
    assert log(reference).tricks[0].winner == N  # the A♠
    assert log(c8).tricks[0].winner == E  # the J♠ above it
    assert log(c8).contract is not None and log(c8).contract.jacks_high
    assert c8.current_player() == E


def test_C8_jacks_high_only_without_trumps(tmp_path: Path) -> None:
    body = jacks_high_body()
    body["contracts"]["j5-7"] |= {"kind": "trumps", "trump": "S"}
    with pytest.raises(fivehundred.RulesetError, match="jacks_high"):
        variant(tmp_path, "c8-bad", body)


# --- J1: the joker led only to the last trick -------------------------------------------------


def test_J1_joker_led_only_to_the_last_trick(tmp_path: Path) -> None:
    rules = variant(tmp_path, "j1", "joker: {lead: last-trick}\n")
    reference, j1 = both(STRONG_NT, "7NT pass pass pass 4D 5D 6D none", rules)
    assert {"JK:S", "JK:C", "JK:D", "JK:H"} <= legal(reference)
    assert not any(t.startswith("JK") for t in legal(j1))
    refused(j1, "JK:S")
    assert reason(j1, j1, "JK:S") == ("the joker may be led only to the last trick",
                                      "J1: in no-trumps and misère the joker is led only to the last trick")
    assert RULES.play_table(contract("7NT")).explain_illegal is None
    act(j1, "AS 9S 6S 5S | AC 9C 6C 5C | AH 4H 9H 5H | AD KD JD 7D | KS 10S 7S 6H | KC 10C 7C 7H"
            "| KH JH 10H 8H | QS JS 8S 8D | QC JC 8C 9D")
    assert legal(j1) == {"JK:S", "JK:C", "JK:D", "JK:H"}  # the last trick
    act(j1, "JK:S QH QD 10D")
    assert log(j1).tricks[9].winner == N


# --- J2: the joker named when played -------------------------------------------------------------

J2 = "joker: {nomination: when-played}\n"


def test_J2_no_nomination_before_play(tmp_path: Path) -> None:
    reference, j2 = both(STRONG_NT, "7NT pass pass pass 4D 5D 6D", variant(tmp_path, "j2", J2))
    assert reference.phase == Phase.NOMINATE
    assert j2.phase == Phase.PLAY and log(j2).nomination is None
    assert {"JK:S", "JK:C", "JK:D", "JK:H"} <= legal(j2) and "JK" not in legal(j2)  # led: named (rule 22)


def test_J2_a_follower_names_the_joker_and_wins_only_as_the_suit_led(tmp_path: Path) -> None:
    rules = variant(tmp_path, "j2", J2)
    script = "7NT pass pass pass 5D 6D 7D AS 9S 6S 5S KS 10S 7S"
    reference, j2 = both(STRONG_NT_W_JOKER, script, rules)
    assert legal(reference) == names("5C 8H 7H 6H 5H 10D 9D 8D JK")
    assert legal(j2) == names("5C 8H 7H 6H 5H 10D 9D 8D JK:S JK:C JK:D JK:H")
    refused(reference, "JK:S")
    refused(j2, "JK")
    assert reason(j2, reference, "JK") == ("a joker played must be named, e.g. JK:H",
                                          "J2: the joker has no suit until played; whoever plays it names one")
    as_led = new_hand(STRONG_NT_W_JOKER, rules=rules)
    act(as_led, script + " JK:S")
    assert log(as_led).tricks[1].winner == W  # the top spade
    act(j2, "JK:C")
    assert log(j2).tricks[1].winner == N  # a club thrown on a spade trick cannot win
    assert log(j2).tricks[1].cards[3] == parse_card("JK")


def test_J2_misere_contractor_throws_the_joker_away_by_naming_another_suit(tmp_path: Path) -> None:
    reference, j2 = new_hand(MISERE), new_hand(MISERE, rules=variant(tmp_path, "j2", J2))
    act(reference, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S AD 9D")
    act(j2, f"{MISERE_AUCTION} 4D 5D 7H 5S AS 9S AD 9D")
    assert legal(reference) == {"JK"}  # rule 21: compulsory, and it wins (rule 23)
    act(reference, "JK")
    assert log(reference).tricks[1].winner == N and log(reference).scores == [-250, 0]
    assert legal(j2) == {"JK:S", "JK:C", "JK:D", "JK:H"}  # still compulsory, but named
    act(j2, "JK:H")
    assert log(j2).tricks[1].winner == E  # the misère goes on


def test_J2_a_record_keeps_a_followers_named_joker(tmp_path: Path) -> None:
    st = new_hand(STRONG_NT_W_JOKER, rules=variant(tmp_path, "j2", J2))
    act(st, "7NT pass pass pass 5D 6D 7D AS 9S 6S 5S KS 10S 7S JK:C")
    assert hand_to_dict(st, log(st))["tricks"][1]["cards"] == ["KS", "10S", "7S", "JK:C"]


# --- J3: no renege with the joker -------------------------------------------------------------


def test_J3_the_joker_may_not_be_used_as_a_suit_its_holder_showed_void_in(tmp_path: Path) -> None:
    rules = variant(tmp_path, "j3", "joker: {no_renege: true}\n")
    script = "7NT pass pass pass 5D 6D 7D | AS 9S 6S 5S | KS 10S 7S 8H | QS JS 8S"  # W shows void in spades
    reference, j3 = both(STRONG_NT_W_JOKER, script, rules)
    assert legal(reference) == names("5C 7H 6H 5H 10D 9D 8D JK")  # rule 21: W is void
    assert legal(j3) == names("5C 7H 6H 5H 10D 9D 8D")
    refused(j3, "JK")
    message, rule = reason(j3, reference, "JK") or ("", "")
    assert rule.startswith("J3:") and "void" in message
    act(reference, "JK")
    act(j3, "5C")
    assert log(reference).tricks[2].winner == W and log(j3).tricks[2].winner == N


def test_J3_a_seat_that_followed_suit_may_still_use_the_joker_as_it(tmp_path: Path) -> None:
    rules = variant(tmp_path, "j3", "joker: {no_renege: true}\n")
    st = new_hand(STRONG_NT_W_JOKER, rules=rules)
    act(st, "7NT pass pass pass 5D 6D 7D | AS 9S 6S 5S | KS 10S 7S")  # W followed spades, now void
    assert "JK" in legal(st)


# --- J4: the joker only as the first or the last card of a suit -----------------------------------


def test_J4_a_nominated_joker_is_played_first_or_last_of_its_suit(tmp_path: Path) -> None:
    rules = variant(tmp_path, "j4", "joker: {first_or_last: true}\n")
    reference, j4 = both(STRONG_NT, "7NT pass pass pass 4D 5D 6D H | AH 4H 9H 5H", rules)
    assert "JK" in legal(reference)  # rule 19: led as a heart without restriction
    assert "JK" not in legal(j4) and {"KH", "AS"} <= legal(j4)  # N has played a heart and holds the K♥
    refused(j4, "JK")
    message, rule = reason(j4, reference, "JK") or ("", "")
    assert rule.startswith("J4:") and "first or the last" in message
    act(j4, "KH JH 10H 6H")
    assert "JK" in legal(j4)  # now its holder's last heart


def test_J4_a_free_joker_is_led_as_a_suit_its_holder_has_not_played(tmp_path: Path) -> None:
    rules = variant(tmp_path, "j4", "joker: {first_or_last: true}\n")
    script = "7NT pass pass pass AC KC QC none 4D KD QD 10D | 9C 6C 5C AS | 4H 9H 5H AH"  # N throws the A♠
    reference, j4 = both(STRONG_NT, script, rules)
    assert st_leads(reference) == {"JK:S"}  # rule 22: spades alone are unled
    assert st_leads(j4) == set()  # N has played a spade and still holds the K♠ Q♠
    message, rule = reason(j4, reference, "JK:S") or ("", "")
    assert rule.startswith("J4:") and "S" in message


def st_leads(st: GameState) -> set[str]:
    return {t for t in legal(st) if t.startswith("JK")}


# --- J5: the joker at any time in no-trumps -----------------------------------------------------

J5 = "joker: {void_play_in_no_trumps: any-time, lead: any}\n"


def test_J5_the_joker_may_be_played_while_holding_the_suit_led(tmp_path: Path) -> None:
    reference, j5 = both(STRONG_NT_W_JOKER, "7NT pass pass pass 5D 6D 7D AS 9S 6S", variant(tmp_path, "j5", J5))
    assert legal(reference) == {"5S"}  # rule 21
    assert legal(j5) == {"5S", "JK"}
    act(j5, "JK")
    assert log(j5).tricks[0].winner == W


def test_J5_the_joker_may_be_led_as_any_suit_at_any_time(tmp_path: Path) -> None:
    reference, j5 = both(STRONG_NT, "7NT pass pass pass 4D 5D 6D none AS 9S 6S 5S", variant(tmp_path, "j5", J5))
    assert "JK:S" not in legal(reference)  # rule 22: spades have been led
    assert {"JK:S", "JK:C", "JK:D", "JK:H"} <= legal(j5)


def test_J5_misere_keeps_its_own_setting(tmp_path: Path) -> None:
    st = new_hand(MISERE, rules=variant(tmp_path, "j5", J5))
    act(st, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S AD 9D")
    assert legal(st) == {"JK"}  # void_play_in_misere is still compulsory (rule 21)


# --- L1: the player at the dealer's left leads ------------------------------------------------------


def test_L1_dealer_left_leads_to_the_first_trick(tmp_path: Path) -> None:
    rules = variant(tmp_path, "l1", "play: {first_lead: dealer-left}\n")
    reference, l1 = both(SUITED, "pass 7C pass pass 4D 4H 5C", rules)
    assert log(l1).contractor == E
    assert reference.current_player() == E  # rule 16: the contractor leads
    assert l1.current_player() == N  # the dealer (W)'s left


def test_L1_skips_a_dealer_left_who_sits_the_misere_out(tmp_path: Path) -> None:
    rules = variant(tmp_path, "l1", "play: {first_lead: dealer-left}\n")
    script = "pass pass 6S 7S misere pass"  # dealer E: S and W pass, N misère over E's 7♠
    reference, l1 = new_hand(MISERE, dealer=E), new_hand(MISERE, dealer=E, rules=rules)
    for st in (reference, l1):
        act(st, f"{script} 7H 6H JK")
        assert log(st).contractor == N and st.phase == Phase.PLAY
    assert reference.current_player() == N
    assert l1.current_player() == W  # S, at the dealer's left, lays the hand aside


# --- the filters are built once per contract, and only for variants ------------------------------


def test_reference_tables_have_no_play_filter() -> None:
    for c in RULES.ladder:
        assert RULES.play_table(c).legal_filter is None
    assert RULES.play_table(contract("7NT"), HEARTS).legal_filter is None


@pytest.mark.parametrize("joker", [
    "{nomination: when-played}",
    "{no_renege: true, first_or_last: true}",
    "{nomination: when-played, no_renege: true, first_or_last: true, void_play_in_no_trumps: any-time, lead: any}",
    "{void_play_in_misere: any-time, first_or_last: true, nomination: none}",
])
def test_joker_variants_play_whole_games(tmp_path: Path, joker: str) -> None:
    """Random games under the joker variants run to their end, never leaving a player without a play."""
    rules = variant(tmp_path, "joker-mix", f"joker: {joker}\n")
    nt = rules.play_table(contract("7NT"))
    assert nt.legal_filter is not None and rules.play_table(contract("7NT")) is nt  # built once per contract
    played = 0
    for game in range(12):
        st = play_game(rules.ruleset, "variants-play", "random", game=game, max_deals=30)
        for hand in st.hands_log:
            assert all(len(t.cards) in (3, 4) for t in hand.tricks)
            played += len(hand.tricks)
    assert played >= 50


# --- found by the mutation run: trick tables and the joker ----------------------------------------------


FIRST_JOKER_TO_NORTH = (
    "JK AS KS QS AC KC QC AH KH AD",
    "JK2 5C 6C 7C 8C 4H 5H 6H 7H 8H",
    "JS 10S 9S 8S 7S 6S 5S 9C 10C JC",
    "KD QD JD 10D 9D 8D 7D 6D 5D 4D",
    "QH JH 10H 9H",
)
"""North holds the first joker, East the second and no spade."""


def test_D2_a_nominated_first_joker_beats_a_defenders_free_second_joker(tmp_path: Path) -> None:
    st = new_hand(FIRST_JOKER_TO_NORTH, rules=variant(tmp_path, "variant", D2))
    act(st, "7NT pass pass pass QH JH 10H 9H S JK")  # the first joker nominated and led as a spade
    assert "JK2" in legal(st)  # East, void in spades, may play its free joker (rule 21)
    act(st, "JK2 5S 4D")
    assert log(st).tricks[0].winner == N  # the highest spade beats the lower joker (D2, rule 19)


def test_J2_in_suit_contracts_none_the_joker_is_a_blank(tmp_path: Path) -> None:
    rules = variant(tmp_path, "variant", "joker: {nomination: when-played, in_suit_contracts: none}\n")
    joker = parse_card("JK")
    for call in ("7S", "7H"):
        table = rules.play_table(rules.ladder[rules.parse_call(call)])
        assert table.suit_of[joker] == NO_SUIT
        assert all(power[joker] == 0 for power in table.power)  # it never wins a trick it is played to
        assert table.joker_lead == "any"


def test_J2_a_blank_joker_led_wins_a_trick_nobody_follows_or_trumps(tmp_path: Path) -> None:
    """J2's blank joker in a suit contract has no power, but led it names a suit and is that trick's only card of
    the suit led: with nobody following the suit named nor trumping, it takes the trick (rule 17's highest card of
    the suit led), as the first of cards that all score nothing.  (Found by the mutation run: kernel.py's
    ``trick_winner`` with ``>=`` gave the trick to the last discard.)"""
    rules = variant(tmp_path, "variant", "joker: {nomination: when-played, in_suit_contracts: none}\n")
    st = new_hand(("JK AH KH QH JH 10H 9H 8H 7H 6H", "AS KS QS JS 10S AC KC QC JC 10C",
                   "9S 8S 7S 6S 5S 9C 8C 7C 6C 5C", "AD KD QD 10D 9D 8D 7D 6D 5D 4D", "5H 4H JD"), rules=rules)
    act(st, "7C pass pass pass 5H 4H JD JK:H AS 9S AD")
    assert log(st).tricks[0].winner == N


def test_J2_J3_a_named_joker_is_refused_only_as_the_suit_shown_void(tmp_path: Path) -> None:
    rules = variant(tmp_path, "variant", "joker: {nomination: when-played, no_renege: true}\n")
    st = new_hand(STRONG_NT_W_JOKER, rules=rules)
    act(st, "7NT pass pass pass 5D 6D 7D | AS 9S 6S 5S | KS 10S 7S 8H | QS JS 8S")  # W showed void in spades
    assert legal(st) == names("5C 7H 6H 5H 10D 9D 8D JK:C JK:D JK:H")
    act(st, "JK:H")
    assert log(st).tricks[2].winner == N  # a heart thrown on a spade trick


def test_D2_J2_the_second_joker_is_named_as_any_suit_by_a_follower(tmp_path: Path) -> None:
    rules = variant(tmp_path, "variant", D2 + "    joker: {nomination: when-played}\n")
    st = new_hand(FIRST_JOKER_TO_NORTH, rules=rules)
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
    st = new_hand(second_to_north, rules=variant(tmp_path, "variant", D2))
    act(st, "7NT pass pass pass QH JH 10H 9H S JK2 JK 5S 4D")
    assert log(st).tricks[0].winner == E  # rule 20: a free joker wins any trick; D2: the first is the higher


def test_J4_a_nominated_joker_may_be_the_first_card_of_its_suit(tmp_path: Path) -> None:
    st = new_hand(STRONG_NT, rules=variant(tmp_path, "variant", "joker: {first_or_last: true}\n"))
    act(st, "7NT pass pass pass 4D 5D 6D H")
    assert {"JK", "AH", "KH"} <= legal(st)  # N has played no heart yet: the joker may lead them
    act(st, "JK 4H 9H 5H")
    assert log(st).tricks[0].winner == N


def test_D2_J2_J3_the_second_joker_named_as_a_suit_shown_void_is_refused(tmp_path: Path) -> None:
    rules = variant(tmp_path, "variant", D2 + "    joker: {nomination: when-played, no_renege: true}\n")
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
    d2 = variant(tmp_path, "variant", D2)
    for rules, jokers in ((RULES, ("JK",)), (d2, ("JK", "JK2"))):
        for call in ("7S", "7H", "7NT", "misere"):
            table = rules.play_table(rules.ladder[rules.parse_call(call)])
            assert table.jokers == tuple(parse_card(j) for j in jokers)


def test_rule_22_a_later_deal_counts_its_own_tricks_to_the_last() -> None:
    """Rule 22: a free joker may be led naming any suit only to the last trick of *this* hand.  The first hand
    ends after nine tricks (rule 27: the misère contractor's joker, compulsory when void, wins trick 9); in the
    next deal, one trick in, the joker may name only the suits not yet led."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 5H 6H 7H none")  # N keeps 5S 6S 7S 5C 6C 7C 4D 5D 4H JK
    act(st, "5S AS 9S | KS 10S 6S | QS JS 7S | AC 9C 5C | KC 10C 6C | QC JC 7C | AD 9D 4D | KD 10D 5D")
    act(st, "QD JD")
    assert legal(st) == {"JK"}  # rule 21: void in diamonds, the joker is compulsory in misère
    act(st, "JK")  # and wins: the misère is lost at trick 9
    first = st.hands_log[0]
    assert len(first.tricks) == 9 and first.scores == [-250, 0]
    assert st.phase == Phase.DEAL and st.dealer == N
    st.deal_cards([cards(h) for h in STRONG_NT[3:4] + STRONG_NT[:3]], cards(STRONG_NT[4]))  # N's hand to E
    act(st, "7NT pass pass pass 4D 5D 6D none")
    act(st, "AS 9S 6S 5S")
    assert {t for t in legal(st) if t.startswith("JK")} == {"JK:C", "JK:D", "JK:H"}


NORTH_NEVER_LEADS_DIAMONDS = (
    "JK AS KS QS JS AC KC QC AH KH",
    "10S 9S 8S 7S JC 10C 9C QH JH 10H",
    "6S 5S 8C 7C 6C 5C 9H 8H 7H 6H",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "5H 4H 4D",
)
"""North holds the joker and the top spades, clubs and hearts; West every diamond but the 4♦."""


def test_rule_22_the_last_trick_names_any_suit_even_with_a_suit_never_led() -> None:
    """Rule 22: to the last trick the leader may name any suit, not only the suits not yet led."""
    st = new_hand(NORTH_NEVER_LEADS_DIAMONDS)
    act(st, "7NT pass pass pass 5H 4H 4D none")
    for lead in ["AS", "KS", "QS", "JS", "AC", "KC", "QC", "AH"]:
        trick(st, lead)
    assert {t for t in legal(st) if t.startswith("JK")} == {"JK:D"}  # trick 9: only diamonds are unled
    trick(st, "KH")
    assert [t.winner for t in log(st).tricks] == [N] * 9
    assert legal(st) == {"JK:S", "JK:C", "JK:D", "JK:H"}  # trick 10, diamonds never led: any suit
