"""One or more tests per numbered rule of docs/rules.md (the pagat-australian reference profile).

Every test plays concrete deals through ``GameState`` (see ``helpers`` for the deals) and checks
what the rule says must happen; test names carry the rule number.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
from helpers import (
    EW,
    MISERE,
    MISERE_AUCTION,
    MISERE_CLEAN_PLAY,
    MISERE_W_JOKER,
    NS,
    RULES,
    STRONG_NT,
    STRONG_NT_W_JOKER,
    SUITED,
    TRUMPS,
    WORKED,
    WORKED_SCRIPT,
    E,
    N,
    S,
    W,
    act,
    cards,
    contract,
    finish,
    legal,
    log,
    names,
    new_hand,
    rejects,
    trick,
    trick_cards,
    tricks,
)

import fivehundred
from fivehundred.engine.state import CALL, CHANCE, GameState, Phase
from fivehundred.rules.cards import NO_SUIT, card_str, parse_card
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.tables import HandOutcome

SPADES_HIGH_TO_LOW = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"]


def suited_hand(call: str, discards: str, leads: list[str], **kwargs: object) -> GameState:
    """SUITED deal, dealer W: N bids ``call``, the others pass, N discards and leads ``leads``
    (each followed by the others' first legal card); the rest of the hand is played out."""
    st = new_hand(SUITED, **kwargs)
    act(st, f"{call} pass pass pass {discards}")
    tricks(st, leads)
    finish(st)
    return st


def nt_tricks_for_north(call: str, won: int, **kwargs: object) -> GameState:
    """SUITED deal in no-trumps: N wins exactly ``won`` spade tricks, then hands the lead to W
    with the 4♥ and W wins the rest."""
    return suited_hand(call, "5S 4D JK", [*SPADES_HIGH_TO_LOW[:won], "4H"], **kwargs)


# --- 1. Players and cards ------------------------------------------------------------------------


def test_rule_01_four_players_two_partnerships():
    """Rule 1: exactly four players in two fixed partnerships sitting opposite; partners share one
    score."""
    assert RULES.players == 4
    assert RULES.seats == ("N", "E", "S", "W")
    assert RULES.team_of == (NS, EW, NS, EW)  # N–S and E–W: partners sit opposite
    # 8NT by N: N wins three spade tricks, then gives the lead to partner S with the 4♦; S wins the
    # other seven.  N alone took 3 of the 8 bid, but the partnership's 10 tricks make the contract.
    st = suited_hand("8NT", "5S 4H JK", ["AS", "KS", "QS", "4D"])
    assert log(st).tricks_won == [3, 0, 7, 0]
    assert log(st).scores == [320, 0]
    assert st.totals == [320, 0]  # one score per partnership


def test_rule_02_deck_of_43_cards():
    """Rule 2: 43 cards: ♥ and ♦ hold A K Q J 10 9 8 7 6 5 4; ♠ and ♣ hold A K Q J 10 9 8 7 6 5;
    plus one joker."""
    red = names("A K Q J 10 9 8 7 6 5 4")
    black = names("A K Q J 10 9 8 7 6 5")
    expected = {r + s for s in "HD" for r in red} | {r + s for s in "SC" for r in black} | {"JK"}
    assert len(RULES.deck) == 43
    assert len(set(RULES.deck)) == 43
    assert {card_str(c) for c in RULES.deck} == expected
    st = GameState(RULES, first_dealer=W)
    with pytest.raises(IllegalActionError):  # the 4♠ is not in the deck
        st.deal_cards([cards(h) for h in SUITED[:4]], cards("4S 4H JK"))
    with pytest.raises(IllegalActionError):  # a card dealt twice (and the 4♦ missing)
        st.deal_cards([cards(h) for h in SUITED[:4]], cards("4H 4H JK"))


def test_rule_03_suit_contract_ranking_tables():
    """Rule 3: trumps, high to low: joker, right bower, left bower, A K Q 10 9 8 7 6 5 (4); the left
    bower is a trump and not a card of its printed suit; red trumps: 13 cards, black: 12; other
    suits rank A K Q J 10 … down."""
    hearts = RULES.play_table(contract("7H"))
    order = cards("JK JH JD AH KH QH 10H 9H 8H 7H 6H 5H 4H")
    for led in range(4):
        powers = [hearts.power[led][c] for c in order]
        assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
        lowest_trump = powers[-1]
        for c in RULES.deck:
            if c not in order:
                assert hearts.power[led][c] < lowest_trump, card_str(c)
    assert {c for c in RULES.deck if hearts.suit_of[c] == 3} == set(order)  # 13 red trumps
    assert hearts.suit_of[parse_card("JD")] == 3  # the left bower is a heart ...
    diamonds = cards("AD KD QD 10D 9D 8D 7D 6D 5D 4D")  # ... so diamonds have no jack
    assert {c for c in RULES.deck if hearts.suit_of[c] == 2} == set(diamonds)
    assert [hearts.power[2][c] for c in diamonds] == sorted((hearts.power[2][c] for c in diamonds), reverse=True)
    clubs = cards("AC KC QC JC 10C 9C 8C 7C 6C 5C")  # a plain suit keeps its jack between Q and 10
    assert [hearts.power[1][c] for c in clubs] == sorted((hearts.power[1][c] for c in clubs), reverse=True)

    spades = RULES.play_table(contract("7S"))
    black = cards("JK JS JC AS KS QS 10S 9S 8S 7S 6S 5S")
    assert {c for c in RULES.deck if spades.suit_of[c] == 0} == set(black)  # 12 black trumps
    powers = [spades.power[3][c] for c in black]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)


def test_rule_03_left_bower_beats_the_ace_of_trumps():
    """Rule 3: the left bower ranks above the ace of trumps (and is a trump for every purpose)."""
    st = new_hand(TRUMPS)
    act(st, "7H pass pass pass 6D 5D 4D AH")
    assert legal(st) == {"JD", "QH"}  # E's trumps: the left bower and the queen
    act(st, "JD")
    assert legal(st) == {"4H", "JK"}  # S's trumps: the 4♥ and the joker
    act(st, "4H 5H")
    assert log(st).tricks[0].winner == E


def test_rule_04_no_trumps_and_misere_have_no_trumps_and_no_bowers():
    """Rule 4: in no-trumps and misère there is no trump suit and no bowers; every suit ranks
    A K Q J 10 9 8 7 6 5 (4).  Decision: misère is played without trumps."""
    for call in ("7NT", "misere", "open-misere"):
        table = RULES.play_table(contract(call))
        for suit, ranks in (("S", "A K Q J 10 9 8 7 6 5"), ("H", "A K Q J 10 9 8 7 6 5 4")):
            led = "SCDH".index(suit)
            own = cards(" ".join(r + suit for r in ranks.split()))
            assert all(table.suit_of[c] == led for c in own), call
            powers = [table.power[led][c] for c in own]
            assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers), call
            others = [c for c in RULES.deck if c not in own and card_str(c) != "JK"]
            assert all(table.power[led][c] < powers[-1] for c in others), call  # no trump beats the suit
    # In play: 7NT on the TRUMPS deal.  The J♦ is an ordinary diamond below the Q♦, and a void
    # player's J♥ is no trump.
    st = new_hand(TRUMPS)
    act(st, "7NT pass pass pass 6D 5D 4D QD")
    assert legal(st) == {"8D", "9D", "JD"}
    act(st, "JD 10D JH")
    assert log(st).tricks[0].winner == N


def test_rule_04_misere_jacks_stay_in_their_suit():
    """Rule 4 (decision): misère has no trumps: a J♦ played to a Q♦ lead loses to it."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 7H 6H JK {MISERE_CLEAN_PLAY}")
    assert trick_cards(st, 8) == ["QD", "JD", "4H"]
    assert log(st).tricks[8].winner == E


# --- 2. Dealing --------------------------------------------------------------------------------


def test_rule_05_first_dealer_random_and_clockwise_order():
    """Rule 5: the first dealer is chosen at random; deal, bidding and play go clockwise."""
    dealers = {GameState(RULES, rng=random.Random(seed)).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert GameState(RULES, rng=random.Random(7)).dealer == GameState(RULES, rng=random.Random(7)).dealer
    # Dealer E: the calls go S, W, N, E.
    st = new_hand(SUITED, dealer=E)
    turns = []
    for _ in range(4):
        turns.append(st.current_player())
        act(st, "pass")
    assert turns == [S, W, N, E]
    # Play: N leads, then E, S, W.
    st = new_hand(WORKED)
    act(st, "8H pass pass pass 5C 5D 4D")
    turns = []
    for token in ["AH", "JD", "KH", "JK"]:
        turns.append(st.current_player())
        act(st, token)
    assert turns == [N, E, S, W]


class _UnshuffledRandom(random.Random):
    """A generator that leaves the deck in ``RULES.deck`` order: the engine's Fisher–Yates draws each
    position from two bytes (``randbytes``), and the word 0xFFFF keeps the card in place."""

    def randbytes(self, n: int) -> bytes:
        return b"\xff" * n


def test_rule_06_deal_pattern_3_1_4_1_3_1_from_dealers_left():
    """Rule 6: deal starting at the dealer's left: 3 to each, 1 to the kitty; 4 to each, 1 to the
    kitty; 3 to each, the last card to the kitty.  Each player has 10, the kitty 3, unseen until
    the auction ends."""
    deck = list(RULES.deck)
    first_packet, second_packet, third_packet = range(0, 3), range(13, 17), range(30, 33)
    expected: dict[int, set[int]] = {}
    for i in range(4):  # i-th seat clockwise from the dealer's left
        positions = [p + 3 * i for p in first_packet] + [p + 4 * i for p in second_packet]
        positions += [p + 3 * i for p in third_packet]
        expected[i] = {deck[p] for p in positions}
    for dealer in (W, E):
        st = GameState(RULES, first_dealer=dealer)
        st.deal(_UnshuffledRandom())
        dealt = log(st)
        for i in range(4):
            assert set(dealt.hands[(dealer + 1 + i) % 4]) == expected[i], (dealer, i)
        assert sorted(dealt.kitty) == sorted([deck[12], deck[29], deck[42]])
    # A real shuffle: 10 cards each and 3 in the kitty, every card once; nobody sees the kitty.
    st = GameState(RULES, first_dealer=W)
    st.deal(random.Random(5))
    dealt = log(st)
    assert [len(h) for h in dealt.hands] == [10, 10, 10, 10] and len(dealt.kitty) == 3
    assert sorted([c for h in dealt.hands for c in h] + list(dealt.kitty)) == sorted(RULES.deck)
    for seat in range(4):
        seen = st.observation(seat).hand
        assert sorted(seen) == sorted(dealt.hands[seat])
        assert not set(seen) & set(dealt.kitty)
    with pytest.raises(IllegalActionError):  # 11 cards to North and 2 to the kitty
        GameState(RULES, first_dealer=W).deal_cards(
            [cards(SUITED[0] + " 4D"), *(cards(h) for h in SUITED[1:4])], cards("4H JK"))


def test_rule_07_deal_passes_left_after_every_deal():
    """Rule 7: the deal passes to the left after every deal, including one in which everybody
    passed."""
    st = new_hand(SUITED, dealer=W)
    act(st, "pass pass pass pass")
    assert st.dealer == N and st.phase == Phase.DEAL
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    assert st.current_player() == E  # the new dealer's left calls first
    act(st, "pass 7NT pass pass 4H 4D JK")  # S is the contractor
    finish(st)
    assert log(st).scores == [250, 0]
    assert st.dealer == E and st.phase == Phase.DEAL
    assert st.current_player() == CHANCE


# --- 3. Auction ----------------------------------------------------------------------------------


def test_rule_08_dealers_left_calls_first_and_bids_strictly_higher():
    """Rule 8: the player at the dealer's left calls first; a bid must be strictly higher than the
    standing bid (jumps allowed)."""
    st = new_hand(SUITED, dealer=W)
    assert st.current_player() == N
    act(st, "7H")
    assert st.current_player() == E
    rejects(st, "7H", 8)  # equal
    rejects(st, "7D", 8)  # lower
    rejects(st, "6NT", 8)
    assert "7D" not in legal(st) and "7H" not in legal(st)
    assert {"7NT", "9NT", "10NT"} <= legal(st)
    act(st, "9NT")  # a jump
    assert log(st).calls[-1] == (E, RULES.parse_call("9NT"))


def test_rule_08_passed_player_is_skipped_and_bidder_may_raise():
    """Rule 8: a player who has passed may not bid again and is skipped from then on; a player who
    has bid may bid again, higher, when the turn returns."""
    st = new_hand(SUITED, dealer=W)
    act(st, "6S pass 6H pass")  # N 6♠, E passes, S 6♥, W passes
    assert st.current_player() == N
    act(st, "7S")  # N raises over S
    assert st.current_player() == S  # E, who passed, is skipped
    with pytest.raises(IllegalActionError) as caught:  # E tries to come back in
        st.apply(st.parse_action("8S"), seat=E)
    assert caught.value.rule.startswith("rule 8:")
    act(st, "7H")
    assert st.current_player() == N  # W passed too: S's 7♥ goes straight back to N
    act(st, "8S pass")
    assert st.phase == Phase.DISCARD
    assert log(st).contractor == N and log(st).contract.call == "8S"
    assert [seat for seat, _ in log(st).calls] == [N, E, S, W, N, S, N, S]


def test_rule_09_ladder_of_27_rungs():
    """Rule 9: bids are 6–10 tricks with a trump suit or no-trumps; the ladder, low to high, has 27
    rungs with misère between 7NT and 8♠ and open misère between 10♦ and 10♥."""
    calls = [f"{level}{d}" for level in (6, 7) for d in ("S", "C", "D", "H", "NT")]
    calls += ["misere"] + [f"{level}{d}" for level in (8, 9) for d in ("S", "C", "D", "H", "NT")]
    calls += ["10S", "10C", "10D", "open-misere", "10H", "10NT"]
    assert len(RULES.ladder) == 27
    assert [RULES.parse_call(c) for c in calls] == list(range(27))
    assert [r.rung for r in RULES.ladder] == list(range(27))
    for bad in ("5H", "11NT", "6X"):
        with pytest.raises(ValueError):
            RULES.parse_call(bad)
    for rung in RULES.ladder:
        if rung.kind != "misere":
            assert 6 <= rung.tricks <= 10


def test_rule_09_position_decides_not_points():
    """Rule 9: position on the ladder decides, not points (8♠ = 240 outbids misère = 250)."""
    assert contract("8S").value < contract("misere").value
    st = new_hand(SUITED)
    act(st, "7S misere")
    assert "8S" in legal(st)
    act(st, "8S")
    assert "misere" not in legal(st)
    rejects(st, "misere", 8)
    act(st, "10D")
    assert "open-misere" in legal(st)
    act(st, "open-misere")
    assert "10D" not in legal(st) and {"10H", "10NT"} <= legal(st)
    act(st, "10H pass pass pass")
    assert log(st).contract.call == "10H" and log(st).contractor == E


def test_rule_10_misere_only_over_a_seven_level_bid():
    """Rule 10: misère may be bid only when the standing bid is 7♠–7NT."""
    st = new_hand(SUITED)
    assert "misere" not in legal(st)
    rejects(st, "misere", 10)  # as the opening bid
    act(st, "6NT")
    assert "misere" not in legal(st)
    rejects(st, "misere", 10)  # over a 6-level bid
    act(st, "7S")
    assert "misere" in legal(st)  # over 7♠
    act(st, "7NT")
    assert "misere" in legal(st)  # over 7NT
    act(st, "misere pass pass pass")
    assert log(st).contract.kind == "misere" and log(st).contractor == W


def test_rule_11_open_misere_whenever_it_outranks():
    """Rule 11: open misère may be bid whenever it outranks the standing bid, including as the
    opening bid."""
    st = new_hand(SUITED)
    assert "open-misere" in legal(st)
    act(st, "open-misere pass pass pass")
    c = log(st).contract
    assert c.kind == "misere" and c.open and c.value == 500 and log(st).contractor == N
    st = new_hand(SUITED)
    act(st, "9NT")
    assert "open-misere" in legal(st)
    act(st, "10H")
    assert "open-misere" not in legal(st)
    rejects(st, "open-misere", 8)


def test_rule_12_auction_ends_when_three_pass_the_standing_bid():
    """Rule 12: the auction ends when a bid stands and the other three have passed; that bid is the
    contract and its bidder may not raise it."""
    st = new_hand(SUITED)
    act(st, "7H pass pass")
    assert st.phase == Phase.AUCTION and st.current_player() == W
    act(st, "pass")
    assert st.phase == Phase.DISCARD  # N is not asked again
    assert log(st).contract.call == "7H" and log(st).contractor == N
    assert all(text.startswith("discard") for text in legal(st))
    with pytest.raises(IllegalActionError):  # the contractor may not raise the contract
        st.apply(CALL + RULES.parse_call("8H"), seat=N)
    assert log(st).contract.call == "7H"


def test_rule_12_fourth_player_may_bid_after_three_passes():
    """Rule 12: if the first three pass, the fourth may still bid (or pass)."""
    st = new_hand(SUITED)
    act(st, "pass pass pass")
    assert st.current_player() == W and {"pass", "6S", "10NT", "open-misere"} <= legal(st)
    act(st, "6S")
    assert st.phase == Phase.DISCARD and log(st).contractor == W and log(st).contract.call == "6S"


def test_rule_13_all_pass_scores_nothing_and_redeals():
    """Rule 13: if all four pass, nothing is scored and the next dealer (to the left) deals a new
    hand."""
    st = new_hand(SUITED, dealer=S, totals=[120, -40])
    act(st, "pass pass pass pass")
    assert st.totals == [120, -40]
    assert log(st).contract is None and log(st).scores == []
    assert st.phase == Phase.DEAL and st.current_player() == CHANCE and st.dealer == W
    assert not st.is_terminal()
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    assert st.phase == Phase.AUCTION and st.current_player() == N and len(st.hands_log) == 2


# --- 4. Kitty and play -------------------------------------------------------------------------


def test_rule_14_contractor_takes_kitty_and_discards_any_three():
    """Rule 14: the contractor takes the 3 kitty cards without showing them and discards any 3
    cards face down (kitty cards or the joker included), keeping 10.  Discards are dead."""
    st = new_hand(SUITED)
    kitty = set(cards("4D 4H JK"))
    for seat in range(4):  # during the auction nobody sees the kitty
        assert not kitty & set(st.observation(seat).hand)
    act(st, "7NT pass pass pass")
    assert st.current_player() == N
    assert set(st.observation(N).hand) == set(cards(SUITED[0])) | kitty  # 13 cards
    for seat in (E, S, W):
        assert len(st.observation(seat).hand) == 10 and not kitty & set(st.observation(seat).hand)
    rejects(st, "AC", 14)  # not in the contractor's hand
    act(st, "JK 4D 5S")  # the joker, a kitty card and one of N's own cards
    assert st.phase == Phase.PLAY  # no joker left to nominate
    assert set(log(st).discards) == set(cards("JK 4D 5S"))
    assert set(st.observation(N).hand) == set(cards("AS KS QS JS 10S 9S 8S 7S 6S 4H"))
    assert set(st.observation(N).discards) == set(cards("JK 4D 5S"))
    assert st.observation(E).discards == ()  # face down
    assert "5S" not in legal(st)
    rejects(st, "5S", 16)  # a discard cannot be played
    tricks(st, ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "4H"])
    finish(st)
    played = [c for t in log(st).tricks for c in t.cards]
    assert len(played) == 40 and not set(played) & set(log(st).discards)
    assert log(st).scores == [220, 30]  # tricks alone score: 7 for N–S, 3 for E–W


def test_rule_14_misere_contractor_also_takes_the_kitty():
    """Rule 14: the contractor takes the kitty in every contract, misères included."""
    st = new_hand(MISERE)
    act(st, MISERE_AUCTION)
    assert st.phase == Phase.DISCARD and st.current_player() == N
    assert set(st.observation(N).hand) == set(cards(MISERE[0] + " " + MISERE[4]))
    act(st, "JK 7H 6H")
    assert len(st.observation(N).hand) == 10 and st.phase == Phase.PLAY


@pytest.mark.parametrize("call", ["misere", "open-misere"])
def test_rule_15_misere_partner_sits_out(call):
    """Rule 15: in misère and open misère the contractor's partner lays the hand aside and does not
    play: tricks have 3 cards and the turn skips the partner."""
    auction = MISERE_AUCTION if call == "misere" else "open-misere pass pass pass"
    st = new_hand(MISERE)
    act(st, f"{auction} 7H 6H JK")
    assert st.observation(S).sitting_out == S
    assert st.observation(S).hand == ()
    turns = []
    for card in MISERE_CLEAN_PLAY.replace("|", " ").split():
        turns.append(st.current_player())
        act(st, card)
    assert S not in turns
    assert turns[:3] == [N, E, W]  # N leads, E, then W: S is skipped
    assert len(log(st).tricks) == 10
    assert all(len(t.cards) == 3 for t in log(st).tricks)


def test_rule_16_contractor_leads_first_trick():
    """Rule 16: the contractor leads to the first trick (not the dealer's left)."""
    st = new_hand(SUITED, dealer=W)
    act(st, "pass 6C pass pass")  # E is the contractor; N, at the dealer's left, passed
    assert log(st).contractor == E
    act(st, "4D 4H JK")
    assert st.phase == Phase.PLAY and st.current_player() == E
    st = new_hand(SUITED, dealer=W)
    act(st, "pass pass 6D pass")  # S is the contractor
    act(st, "4D 4H JK")
    assert st.current_player() == S


def test_rule_16_must_follow_suit_left_bower_is_a_trump():
    """Rule 16: each player must follow suit if able; in a suit contract the left bower counts as a
    trump and never follows its printed suit.  A player unable to follow may play any card; there
    is no duty to beat the trick or to trump."""
    st = new_hand(TRUMPS)
    act(st, "7H pass pass pass 6D 5D 4D AD")
    # E holds J♦ 9♦ 8♦: the J♦ is a heart here, so E must follow with the 9♦ or 8♦.
    assert legal(st) == {"8D", "9D"}
    rejects(st, "JD", 16)
    rejects(st, "QH", 16)
    act(st, "8D")
    assert legal(st) == {"7D", "10D"}  # S follows, and need not beat the A♦
    act(st, "7D")
    assert legal(st) == names("JH 10H 9H 8H 7H 6H 5H 5S 5C QC")  # W void: any card
    act(st, "5C")  # no duty to trump
    assert log(st).tricks[0].winner == N
    act(st, "KD 9D 10D 5S")
    # Now E's only "diamond" is the J♦, which is a trump: E is void in diamonds and may play anything.
    act(st, "QD")
    assert legal(st) == {"JD", "JS", "10S", "9S", "JC", "10C", "9C", "QH"}
    act(st, "JD 6C QC")
    assert log(st).tricks[2].winner == E  # the left bower trumps the Q♦
    # E leads trumps: W may play any of its trumps, including ones that do not beat the trick.
    act(st, "QH")
    assert legal(st) == {"4H", "JK"}  # S's trumps: the 4♥ and the joker
    act(st, "4H")
    assert legal(st) == {"JH", "10H", "9H", "8H", "7H", "6H", "5H"}
    act(st, "6H KH")
    assert log(st).tricks[3].winner == N


def test_rule_16_joker_and_left_bower_must_follow_a_trump_lead():
    """Rule 16: a trump lead must be followed with the joker or the left bower when they are the only
    trumps held."""
    st = new_hand(WORKED)
    act(st, "8H pass pass pass 5C 5D 4D AH")
    assert legal(st) == {"JD"}  # E's only trump is the left bower
    rejects(st, "7D", 16)
    act(st, "JD KH")
    assert legal(st) == {"JK"}  # W's only trump is the joker
    rejects(st, "AC", 16)


def test_rule_16_joker_is_a_trump_not_playable_while_holding_the_suit_led():
    """Rule 16: in a suit contract the joker counts as a trump: a player holding the suit led must
    follow suit and may not play the joker."""
    st = new_hand(TRUMPS)
    act(st, "7H pass pass pass 6D 5D 4D AD 8D")
    assert "JK" not in legal(st)  # S holds 10♦ 7♦
    rejects(st, "JK", 16)


def test_rule_17_highest_trump_wins_else_highest_of_suit_led():
    """Rule 17: the highest trump wins the trick; if none, the highest card of the suit led.  The
    winner leads next."""
    st = new_hand(TRUMPS)
    act(st, "7H pass pass pass 6D 5D 4D")
    act(st, "AD 8D 7D 5C | KD 9D 10D 5S")  # no trump: the highest diamond wins
    assert [t.winner for t in log(st).tricks] == [N, N]
    act(st, "QD JD 6C QC")
    assert log(st).tricks[2].winner == E  # the left bower, a trump, beats the Q♦ led
    assert st.current_player() == E  # the winner leads next
    act(st, "QH 4H 6H KH")
    assert log(st).tricks[3].winner == N and st.current_player() == N
    act(st, "AH 9S JK JH")
    assert log(st).tricks[4].winner == S  # the joker beats the right bower and the ace
    assert st.current_player() == S
    act(st, "6S 5H AS 10S")
    assert log(st).tricks[5].winner == W  # the 6♥ trump beats the A♠ led
    # No trumps: off-suit aces cannot beat the 5♥ following a 4♥ lead.
    st = new_hand(SUITED)
    act(st, "7NT pass pass pass 5S 4D JK 4H AC AD 5H")
    assert log(st).tricks[0].winner == W


def test_rule_17_ten_tricks_winner_leads_each():
    """Rule 17: the winner of each trick leads the next; a hand has ten tricks."""
    st = new_hand(WORKED)
    act(st, WORKED_SCRIPT)
    hand = st.hands_log[0]
    assert len(hand.tricks) == 10 and all(len(t.cards) == 4 for t in hand.tricks)
    assert sum(hand.tricks_won) == 10
    assert hand.tricks[0].leader == N
    for before, after in zip(hand.tricks, hand.tricks[1:], strict=False):
        assert after.leader == before.winner
    assert [t.winner for t in hand.tricks] == [W, W, N, N, N, N, N, S, N, N]


def test_rule_18_open_misere_hand_shown_after_first_trick():
    """Rule 18: in open misère the contractor's hand is laid face up once the first trick is
    complete; the contractor still chooses every card.  Decision: from then on every player's
    observation includes that hand."""
    st = new_hand(MISERE)
    act(st, "open-misere pass pass pass 7H 6H JK")
    for seat in (E, S, W):
        assert st.observation(seat).open_hand is None
    act(st, "5S AS")
    for seat in (E, S, W):  # the first trick is not complete yet
        assert st.observation(seat).open_hand is None
    act(st, "9S")
    shown = set(cards("6S 7S 5C 6C 7C 4D 5D 4H 5H"))
    for seat in (E, S, W):
        assert set(st.observation(seat).open_hand) == shown
    act(st, "KS 10S")
    assert st.current_player() == N  # the contractor still plays its own cards
    act(st, "6S")
    for seat in (E, S, W):
        assert set(st.observation(seat).open_hand) == shown - {parse_card("6S")}
    # The contractor's own observation still holds the whole hand.
    assert set(st.observation(N).hand) == shown - {parse_card("6S")}


def test_rule_18_plain_misere_hand_stays_hidden():
    """Rule 18 applies to open misère only: in misère the contractor's hand stays hidden."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 7H 6H JK 5S AS 9S KS 10S 6S")
    for seat in (E, S, W):
        assert st.observation(seat).open_hand is None


# --- 5. The joker in no-trumps and misère ----------------------------------------------------------


def test_rule_19_contractor_holding_joker_may_nominate_after_kitty():
    """Rule 19: a contractor who holds the joker after the kitty exchange may nominate its suit
    before the lead to the first trick.  Decision: the nomination is announced to all."""
    st = new_hand(STRONG_NT)  # the joker is in the kitty
    act(st, "7NT pass pass pass 4D 5D 6D")
    assert st.phase == Phase.NOMINATE and st.current_player() == N
    assert legal(st) == {"nominate S", "nominate C", "nominate D", "nominate H", "nominate none"}
    act(st, "H")
    assert st.phase == Phase.PLAY and st.current_player() == N
    assert log(st).nomination == 3
    for seat in range(4):
        assert st.observation(seat).nomination == 3


def test_rule_19_no_nomination_without_the_joker():
    """Rule 19: only a contractor holding the joker after the kitty exchange nominates: not one who
    discarded it, not when a defender holds it, and not in a suit contract."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass JK 5D 6D")  # the joker discarded
    assert st.phase == Phase.PLAY and log(st).nomination is None
    st = new_hand(STRONG_NT_W_JOKER)
    act(st, "7NT pass pass pass 5D 6D 7D")  # West, a defender, holds it
    assert st.phase == Phase.PLAY
    st = new_hand(STRONG_NT)
    act(st, "7S pass pass pass 4D 5D 6D")  # a trump contract: the joker is the top trump
    assert st.phase == Phase.PLAY


def test_rule_19_misere_contractor_may_nominate():
    """Rule 19: the nomination applies in misère too."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H")
    assert st.phase == Phase.NOMINATE and st.current_player() == N


def test_rule_19_nominated_joker_is_highest_of_its_suit_and_must_follow_it():
    """Rule 19: the nominated joker is the highest card of that suit, and must be played to a lead
    of that suit when it is its holder's only card of the suit."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass 5D 6D QC H")  # N keeps A♥ K♥ and the joker as hearts
    act(st, "AH 4H 9H 5H | KH JH 10H 6H | 4D KD JD 7D")
    assert log(st).tricks[2].winner == E
    act(st, "QH 6S 7H")  # E leads the Q♥; S is void, W follows
    assert legal(st) == {"JK"}  # N's only heart left is the joker
    rejects(st, "AS", 16)
    act(st, "JK")
    assert log(st).tricks[3].winner == N  # the highest heart beats the Q♥


def test_rule_19_nominated_joker_led_as_its_suit_without_restriction():
    """Rule 19: the nominated joker may be led as that suit with no other restriction (unlike a free
    joker, rule 22), even once every suit has been led; the others must follow that suit."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass 4D 5D 6D H")
    act(st, "AH 4H 9H 5H | AS 9S 6S 5S | AC 9C 6C 5C | AD KD JD 7D")  # all four suits led
    assert "JK" in legal(st)
    assert not any(":" in text for text in legal(st))  # it is led as a heart, naming nothing
    act(st, "JK")
    assert legal(st) == {"QH", "JH"}  # E must follow hearts
    act(st, "JH 10H 6H")
    assert log(st).tricks[4].winner == N
    assert log(st).tricks[4].named is None


def test_rule_19_nominated_joker_discarded_on_another_suit_cannot_win():
    """Rule 19: the nominated joker may be discarded on another suit, where it cannot win."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass AC KC QC H")  # N is void in clubs
    act(st, "4D KD QD 10D")
    assert log(st).tricks[0].winner == E
    act(st, "9C 6C 5C")
    assert "JK" in legal(st) and len(legal(st)) == 9  # void: any card, the joker included
    act(st, "JK")
    assert log(st).tricks[1].winner == E  # the 9♣ wins: a heart cannot win a club trick


def test_rule_20_unnominated_joker_wins_any_trick():
    """Rule 20: a joker that is not nominated belongs to no suit and wins any trick it is played to."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass AC KC QC none")
    assert log(st).nomination is None
    assert RULES.play_table(contract("7NT"), None).suit_of[parse_card("JK")] == NO_SUIT
    act(st, "4D KD QD 10D | 9C 6C 5C JK")
    assert log(st).tricks[1].winner == N


def test_rule_20_defenders_joker_wins_any_trick():
    """Rule 20: a joker held by a defender belongs to no suit and wins any trick it is played to."""
    st = new_hand(STRONG_NT_W_JOKER)
    act(st, "7NT pass pass pass 5D 6D 7D")
    act(st, "AS 9S 6S 5S | KS 10S 7S JK")
    assert log(st).tricks[1].winner == W  # the joker beats the K♠ led
    assert st.current_player() == W


def test_rule_21_free_joker_only_when_void_in_the_suit_led():
    """Rule 21: on another player's lead the joker may be played only when its holder has no card of
    the suit led."""
    st = new_hand(STRONG_NT_W_JOKER)
    act(st, "7NT pass pass pass 5D 6D 7D AS 9S 6S")
    assert legal(st) == {"5S"}  # W holds the 5♠
    rejects(st, "JK", 21)
    # The contractor's free joker on a defender's lead: same rule.
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass AC KC QC none 4D KD QD 10D 9S 6S 5S")
    assert legal(st) == {"AS", "KS", "QS"}
    rejects(st, "JK", 21)


def test_rule_21_free_joker_optional_in_no_trumps():
    """Rule 21: when void in the suit led, playing the free joker is optional in no-trumps."""
    st = new_hand(STRONG_NT_W_JOKER)
    act(st, "7NT pass pass pass 5D 6D 7D AS 9S 6S 5S KS 10S 7S")
    assert legal(st) == names("5C 8H 7H 6H 5H 10D 9D 8D JK")  # W may keep the joker
    act(st, "5C")
    assert log(st).tricks[1].winner == N
    st = new_hand(STRONG_NT)  # the contractor, void in clubs, may keep it too
    act(st, "7NT pass pass pass AC KC QC none 4D KD QD 10D 9C 6C 5C")
    assert legal(st) == names("AS KS QS AH KH AD 5D 6D JK")
    act(st, "5D")
    assert log(st).tricks[1].winner == E


def test_rule_21_free_joker_compulsory_in_misere_for_a_defender():
    """Rule 21: in misère a player void in the suit led must play the free joker (whoever holds it)."""
    st = new_hand(MISERE_W_JOKER)
    act(st, f"{MISERE_AUCTION} 7H 6H KH")
    assert st.phase == Phase.PLAY  # the contractor has no joker to nominate
    act(st, "4H AH")
    assert legal(st) == {"JK"}  # W, void in hearts, must play the joker
    rejects(st, "9S", 21)
    act(st, "JK")
    assert log(st).tricks[0].winner == W


def test_rule_21_free_joker_compulsory_in_misere_for_the_contractor():
    """Rule 21: in misère the contractor void in the suit led must play its un-nominated joker."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S AD 9D")
    assert legal(st) == {"JK"}
    rejects(st, "6H", 21)


def test_rule_21_nominated_joker_is_never_compulsory_in_misere():
    """Rule 21 applies to a free joker: a nominated joker is a card of its suit, so a misère
    contractor void in the suit led may keep it."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H H 5S AS 9S AD 9D")
    assert legal(st) == names("6S 7S 5C 6C 7C 4H 5H 6H JK")


def test_rule_22_led_joker_names_an_unled_suit_and_others_follow_it():
    """Rule 22: leading the joker, the leader names a suit that has not been led yet in this hand;
    the others must follow that suit if able."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass 4D 5D 6D none")
    assert {"JK:S", "JK:C", "JK:D", "JK:H"} <= legal(st)
    assert "JK" not in legal(st)
    rejects(st, "JK", 22)  # a led free joker must name a suit
    act(st, "JK:H")
    assert legal(st) == {"QH", "JH", "4H"}  # E must follow hearts
    rejects(st, "9S", 16)
    act(st, "4H")
    assert legal(st) == {"10H", "9H"}
    act(st, "9H")
    assert legal(st) == {"8H", "7H", "6H", "5H"}
    act(st, "5H")
    assert log(st).tricks[0].winner == N  # and the free joker wins (rule 20)
    assert log(st).tricks[0].named == 3


def test_rule_22_joker_lead_restricted_to_unled_suits_then_last_trick():
    """Rule 22: the named suit must not have been led yet; once all four suits have been led the
    joker may not be led except to the last trick, when the leader may name any suit."""
    st = new_hand(STRONG_NT)
    act(st, "7NT pass pass pass 4D 5D 6D none")
    act(st, "AS 9S 6S 5S")
    assert {t for t in legal(st) if t.startswith("JK")} == {"JK:C", "JK:D", "JK:H"}
    rejects(st, "JK:S", 22)  # spades have been led
    act(st, "AC 9C 6C 5C | AH 4H 9H 5H")
    assert {t for t in legal(st) if t.startswith("JK")} == {"JK:D"}
    act(st, "AD KD JD 7D")  # now every suit has been led
    assert not any(t.startswith("JK") for t in legal(st))
    for suit in "SCDH":
        rejects(st, f"JK:{suit}", 22)
    act(st, "KS 10S 7S 6H | KC 10C 7C 7H | KH JH 10H 8H | QS JS 8S 8D | QC JC 8C 9D")
    assert [len(t.cards) for t in log(st).tricks] == [4] * 9
    assert st.observation(N).hand == (parse_card("JK"),)
    assert legal(st) == {"JK:S", "JK:C", "JK:D", "JK:H"}  # the last trick: any suit
    act(st, "JK:S QH QD 10D")
    assert log(st).tricks[9].winner == N
    assert log(st).tricks_won == [10, 0, 0, 0]
    assert log(st).scores == [250, 0]  # 7NT, all ten tricks


def test_rule_22_decision_named_suit_counts_as_led(tmp_path: Path):
    """Rule 22, decision: the suit named for a led joker counts as led from then on.

    With the reference deck's single joker this cannot be observed (the joker is gone once led), so
    this test uses the reference rules with a second joker (and a 4-card kitty): after the joker is
    led as a diamond, the second joker may no longer be led as a diamond although no diamond card
    was led."""
    path = tmp_path / "two-jokers.yaml"
    path.write_text(textwrap.dedent("""
        extends: pagat-australian
        name: two-jokers-test
        deck: {jokers: 2}
        deal:
          packets: [{each: 3}, {kitty: 1}, {each: 4}, {kitty: 1}, {each: 3}, {kitty: 2}]
    """), encoding="utf-8")
    rules = compile_rules(fivehundred.load_ruleset(path))
    north = cards("JK JK2 AS AC AH KS KC KH QS QC")
    rest = [c for c in sorted(rules.deck) if c not in north]
    st = GameState(rules, first_dealer=W)
    st.deal_cards([north, rest[0:10], rest[10:20], rest[20:30]], rest[30:34])
    act(st, "7NT pass pass pass")
    for c in rest[30:34]:
        act(st, card_str(c))
    act(st, "none")
    trick(st, "JK:D")
    assert log(st).tricks[0].winner == N
    assert trick_cards(st, 0)[0] == "JK" and log(st).tricks[0].named == 2
    assert {t for t in legal(st) if t.startswith("JK2")} == {"JK2:S", "JK2:C", "JK2:H"}
    rejects(st, "JK2:D", 22)


def test_rule_23_unnominated_joker_makes_misere_fail():
    """Rule 23: an un-nominated joker kept by a misère contractor must eventually win a trick (the
    misère fails)."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S | AD 9D")
    assert legal(st) == {"JK"}  # void in diamonds: the joker is compulsory (rule 21) ...
    act(st, "JK")
    hand = st.hands_log[0]
    assert hand.tricks[1].winner == N  # ... and wins (rule 20)
    assert hand.scores == [-250, 0]
    assert st.phase == Phase.DEAL


def test_rule_23_nominated_joker_can_be_thrown_away_in_misere():
    """Rule 23: a nominated joker can be thrown away on another suit and lose, so the misère can be
    made."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H H 5S AS 9S | AD 9D JK")
    assert log(st).tricks[1].winner == E
    act(st, "KD 10D 4H | QD JD 5H | KS 10S 6S | QS JS 7S | AC 9C 5C | KC 10C 6C | QC JC 7C | AH KH 6H")
    hand = st.hands_log[0]
    assert len(hand.tricks) == 10 and hand.tricks_won[N] == 0
    assert hand.scores == [250, 0]


# --- 6. Scoring ----------------------------------------------------------------------------------

AVONDALE = {
    "6S": 40, "6C": 60, "6D": 80, "6H": 100, "6NT": 120,
    "7S": 140, "7C": 160, "7D": 180, "7H": 200, "7NT": 220,
    "8S": 240, "8C": 260, "8D": 280, "8H": 300, "8NT": 320,
    "9S": 340, "9C": 360, "9D": 380, "9H": 400, "9NT": 420,
    "10S": 440, "10C": 460, "10D": 480, "10H": 500, "10NT": 520,
    "misere": 250, "open-misere": 500,
}


@pytest.mark.parametrize("call", list(AVONDALE))
def test_rule_24_avondale_contract_values(call):
    """Rule 24: contract values (Avondale table)."""
    c = contract(call)
    assert c.value == AVONDALE[call]
    if c.kind == "misere":
        outcome = HandOutcome(c, N, NS, (0, 6, 0, 4), (0, 10), True, 10, 10, (N, S))
    else:
        outcome = HandOutcome(c, N, NS, (c.tricks, 10 - c.tricks, 0, 0), (c.tricks, 10 - c.tricks), True, 10, 10,
                              (N, S))
    assert RULES.score_hand(outcome)[NS] == AVONDALE[call]


def test_rule_24_contract_values_in_play():
    """Rule 24: a contract made exactly scores its value (9♠ = 340, 7NT = 220)."""
    # 9♠: N leads the right bower (E must follow with the left bower), then eight more trumps; the
    # 4♥ gives W the last trick.
    st = suited_hand("9S", "5S 4D JK", ["JS", "AS", "KS", "QS", "10S", "9S", "8S", "7S", "6S", "4H"])
    assert trick_cards(st, 0) == ["JS", "JC", "5D", "5H"]
    assert log(st).tricks_won == [9, 0, 0, 1]
    assert log(st).scores == [340, 10]
    st = nt_tricks_for_north("7NT", 7)
    assert log(st).scores == [220, 30]


def test_rule_25_extra_tricks_score_nothing():
    """Rule 25: contract made: contractors score the value; extra tricks score nothing."""
    st = nt_tricks_for_north("7NT", 9)
    assert log(st).tricks_won == [9, 0, 0, 1]
    assert log(st).scores == [220, 10]


def test_rule_25_all_ten_on_contract_below_250_scores_250():
    """Rule 25: taking all ten on a contract worth less than 250 scores 250 instead."""
    st = suited_hand("6NT", "4D 4H JK", SPADES_HIGH_TO_LOW)
    assert log(st).tricks_won == [10, 0, 0, 0] and log(st).scores == [250, 0]
    # 8♠ is worth 240, still below 250.
    st = suited_hand("8S", "4D 4H JK", ["JS", "AS", "KS", "QS", "10S", "9S", "8S", "7S", "6S", "5S"])
    assert log(st).tricks_won == [10, 0, 0, 0] and log(st).scores == [250, 0]


def test_rule_25_no_slam_bonus_on_higher_contracts():
    """Rule 25: no bonus for all ten tricks on a contract worth 250 or more."""
    st = suited_hand("8NT", "4D 4H JK", SPADES_HIGH_TO_LOW)
    assert log(st).tricks_won == [10, 0, 0, 0] and log(st).scores == [320, 0]


def test_rule_25_failed_contract_loses_its_value():
    """Rule 25: a contract is made with at least the number bid; failed, the contractors lose the
    value."""
    st = nt_tricks_for_north("7NT", 6)
    assert log(st).tricks_won == [6, 0, 0, 4]
    assert log(st).scores == [-220, 40]
    st = nt_tricks_for_north("7NT", 0)
    assert log(st).scores == [-220, 100]


def test_rule_26_defenders_score_10_per_trick_made_or_failed():
    """Rule 26: defenders score 10 per trick they take, whether the contract is made or not."""
    made = nt_tricks_for_north("6NT", 8)
    assert log(made).scores == [120, 20]
    failed = nt_tricks_for_north("9NT", 5)
    assert log(failed).scores == [-420, 50]
    assert failed.totals == [-420, 50]


def test_rule_27_misere_made_scores_250_defenders_nothing():
    """Rule 27: misère is made only if the contractor takes no trick: +250; defenders score 0."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 7H 6H JK {MISERE_CLEAN_PLAY}")
    hand = st.hands_log[0]
    assert hand.tricks_won == [0, 10, 0, 0]
    assert hand.scores == [250, 0] and st.totals == [250, 0]


def test_rule_27_open_misere_made_scores_500():
    """Rule 27: open misère made: +500; defenders score 0."""
    st = new_hand(MISERE, totals=[0, 0])
    act(st, f"open-misere pass pass pass 7H 6H JK {MISERE_CLEAN_PLAY}")
    assert st.hands_log[0].scores == [500, 0]
    assert st.is_terminal() and st.result.winner == NS  # 500 reached by a made contract (rule 30)


def test_rule_27_misere_failed_ends_hand_at_once():
    """Rule 27: a misère contractor who wins a trick loses 250, defenders score 0.  Decision: the
    hand ends as soon as the misère contractor wins a trick."""
    st = new_hand(MISERE)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S | AD 9D JK")
    hand = st.hands_log[0]
    assert len(hand.tricks) == 2 and hand.tricks[1].winner == N
    assert hand.scores == [-250, 0] and st.totals == [-250, 0]
    assert st.phase == Phase.DEAL and st.dealer == N


def test_rule_27_open_misere_failed_loses_500():
    """Rule 27: open misère failed: −500 (and the hand ends at once)."""
    st = new_hand(MISERE, totals=[100, 0])
    act(st, "open-misere pass pass pass 4D 5D 7H none 5S AS 9S | AD 9D JK")
    hand = st.hands_log[0]
    assert len(hand.tricks) == 2
    assert hand.scores == [-500, 0] and st.totals == [-400, 0]
    assert not st.is_terminal()


def test_rule_27_misere_play_out_option_plays_remaining_tricks():
    """Rule 27: a game in which the remaining tricks were played out is equally valid:
    ``GameState(..., misere_play_out=True)`` keeps the hand going; the score is the same."""
    st = new_hand(MISERE, misere_play_out=True)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S | AD 9D JK")
    assert st.phase == Phase.PLAY and st.current_player() == N  # N, the winner, leads trick 3
    finish(st)
    hand = st.hands_log[0]
    assert len(hand.tricks) == 10 and all(len(t.cards) == 3 for t in hand.tricks)
    assert hand.tricks_won[N] >= 1
    assert hand.scores == [-250, 0] and st.totals == [-250, 0]


# --- 7. End of the game --------------------------------------------------------------------------


def test_rule_28_game_end_checked_only_after_the_whole_hand():
    """Rule 28: checks happen only after a whole hand is scored, both sides' points included."""
    st = new_hand(SUITED, totals=[480, 0])
    act(st, "6NT pass pass pass 5S 4D JK")
    tricks(st, SPADES_HIGH_TO_LOW[:6])  # six tricks: the contract is already made ...
    assert st.phase == Phase.PLAY and not st.is_terminal() and st.result is None
    assert st.totals == [480, 0]  # ... but nothing is scored or checked mid-hand
    tricks(st, ["4H"])
    finish(st)
    assert st.is_terminal() and st.result.winner == NS
    assert st.totals == [600, 40] == log(st).totals  # E–W's 4 tricks were scored too


def test_rule_29_side_at_minus_500_loses():
    """Rule 29: a side at −500 or worse loses at once (the other side wins)."""
    st = nt_tricks_for_north("7NT", 6, totals=[-280, 0])
    assert st.totals == [-500, 40]
    assert st.is_terminal() and st.result.winner == EW
    assert st.current_player() < 0 and st.legal_actions() == []
    st = nt_tricks_for_north("7NT", 6, totals=[-400, 300])
    assert st.totals == [-620, 340] and st.is_terminal() and st.result.winner == EW


def test_rule_29_minus_490_plays_on():
    """Rule 29: only −500 or worse loses: a side at −490 plays on."""
    st = nt_tricks_for_north("7NT", 6, totals=[-270, 0])
    assert st.totals == [-490, 40]
    assert not st.is_terminal() and st.phase == Phase.DEAL


def test_rule_30_contracting_side_making_contract_to_500_wins():
    """Rule 30: a side wins when it was the contracting side, made its contract, and now has 500 or
    more."""
    st = nt_tricks_for_north("7NT", 7, totals=[300, 0])
    assert st.totals == [520, 30]
    assert st.is_terminal() and st.result.winner == NS
    st = nt_tricks_for_north("7NT", 7, totals=[270, 0])  # 490: not yet
    assert st.totals == [490, 30] and not st.is_terminal()


def test_rule_30_side_already_at_500_from_defence_wins_by_making_a_contract():
    """Rule 30, decision: this includes a side that already stood at 500+ from defence points."""
    st = nt_tricks_for_north("6NT", 6, totals=[510, 300])
    assert st.totals == [630, 340]
    assert st.is_terminal() and st.result.winner == NS


def test_rule_30_failed_contract_does_not_win_even_above_500():
    """Rule 30: the contract must be made: contractors who fail and still stand at 500+ play on."""
    st = nt_tricks_for_north("6NT", 5, totals=[700, 0])
    assert st.totals == [580, 50]
    assert not st.is_terminal() and st.phase == Phase.DEAL


def test_rule_31_defence_points_never_win_and_are_not_capped():
    """Rule 31: defence points alone never win, and they are not capped (a defending side may stand
    at 510 and play on)."""
    st = nt_tricks_for_north("7NT", 7, totals=[0, 490])
    assert st.totals == [220, 520]
    assert not st.is_terminal() and st.result is None and st.phase == Phase.DEAL
    # Defending again from 520: still no win, and the total keeps growing.
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    act(st, "pass 7NT pass pass 5D 4D JK")  # N deals now: E passes, S bids 7NT
    assert log(st).contractor == S
    finish(st)  # S runs nine diamonds, then the 4♥ gives W the last trick
    assert log(st).scores == [220, 10]
    assert st.totals[EW] > 520 and not st.is_terminal()


# --- 8. The worked example -----------------------------------------------------------------------


def test_section_8_worked_example():
    """§8: hearts trumps.  N leads A♥, E plays J♦ (left bower), S plays K♥, W plays the joker: all
    four followed a trump lead; W wins.  8♥ is worth 300: contractors taking 8 tricks score 300,
    defenders with 2 score 20.  Contractors at 210 reach 510 and win; defenders who stood at 490
    also reach 510 but do not win by defending."""
    st = new_hand(WORKED, totals=[210, 490])
    act(st, "8H pass pass pass 5C 5D 4D AH")
    assert legal(st) == {"JD"}  # E must follow the trump lead with the left bower
    act(st, "JD KH")
    assert legal(st) == {"JK"}  # W must follow with the joker
    act(st, "JK")
    first = log(st).tricks[0]
    assert first.leader == N and trick_cards(st, 0) == ["AH", "JD", "KH", "JK"] and first.winner == W
    remaining = WORKED_SCRIPT.split("AH JD KH JK", 1)[1]
    act(st, remaining)
    hand = st.hands_log[0]
    assert hand.contract.call == "8H" and hand.contract.value == 300 and hand.contractor == N
    assert [hand.tricks_won[N] + hand.tricks_won[S], hand.tricks_won[E] + hand.tricks_won[W]] == [8, 2]
    assert hand.scores == [300, 20]
    assert st.totals == [510, 510]
    assert st.is_terminal() and st.result.winner == NS
