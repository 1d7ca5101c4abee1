"""The auction's rules, checked where the mutation run (``mutation/run.py``, docs/testing.md) found
that a wrong rule would have passed the rest of the suite."""

from __future__ import annotations

import pytest
from helpers import RULES

from fivehundred.rules.auction import PASS, AuctionRules, Bidding, SingleRoundAuction, WinnerMayRaise
from fivehundred.rules.tables import Contract, HandOutcome


def test_a_bidding_built_with_its_defaults_has_no_holder_and_three_passes_do_not_end_it():
    bidding = Bidding(players=4, turn=0)
    assert bidding.holder == -1 and bidding.standing == PASS and bidding.passed == [False] * 4
    auction = RULES.auction
    for seat in (1, 2, 3):
        auction.apply(bidding, seat, PASS)
    assert not bidding.over  # nobody holds a bid: the fourth seat may still call (rule 12)
    assert bidding.turn == 0
    auction.apply(bidding, 0, PASS)
    assert bidding.over and bidding.holder == -1


def test_dealer_must_bid_does_not_bind_the_holder_of_a_bid_asked_to_raise():
    """B10 with B6's last call: seat 0 (North) holds 6S and the three others passed; its extra call may
    be a pass, since a bid stands (B10 binds only when nobody has bid)."""
    auction = WinnerMayRaise(RULES.ladder, dealer_must_bid=True)
    for holder in (0, 2):
        bidding = auction.start(dealer=(holder - 1) % 4, players=4)
        assert bidding.turn == holder
        auction.apply(bidding, holder, 0)
        for seat in range(1, 4):
            auction.apply(bidding, (holder + seat) % 4, PASS)
        assert not bidding.over and bidding.turn == holder
        assert PASS in auction.legal_calls(bidding, holder)
        assert auction.why_illegal(bidding, holder, PASS) is None
        auction.apply(bidding, holder, PASS)
        assert bidding.over and bidding.holder == holder and bidding.standing == 0


def test_a_bidding_has_only_its_own_fields():
    bidding = Bidding(players=4, turn=0)
    with pytest.raises(AttributeError):
        bidding.stand = 3  # type: ignore[attr-defined]  # a misspelt field is an error, not a new attribute


def test_the_dealer_may_pass_unless_the_auction_says_it_must_bid():
    plain = AuctionRules(RULES.ladder)
    bidding = plain.start(dealer=3, players=4)
    for seat in (0, 1, 2):
        plain.apply(bidding, seat, PASS)
    assert bidding.turn == 3 and PASS in plain.legal_calls(bidding, 3)
    plain.apply(bidding, 3, PASS)
    assert bidding.over and bidding.holder == -1  # rule 13: all passed, a redeal


def test_a_single_round_auction_goes_clockwise_from_the_dealers_left():
    auction = SingleRoundAuction(RULES.ladder)
    bidding = auction.start(dealer=1, players=4)
    order = []
    for call in (0, PASS, 1, PASS):
        order.append(bidding.turn)
        auction.apply(bidding, bidding.turn, call)
    assert order == [2, 3, 0, 1]
    assert bidding.over and bidding.holder == 0 and bidding.standing == 1


def outcome(contract: Contract, side_tricks: int) -> HandOutcome:
    """North (seat 0) contracted with South; North took all the side's tricks."""
    hand_size = 10
    by_seat = (side_tricks, hand_size - side_tricks, 0, 0)
    return HandOutcome(contract, 0, 0, by_seat, (side_tricks, hand_size - side_tricks), contract.made(side_tricks),
                       hand_size, hand_size, (0, 2))


SIX_SPADES = Contract("6S", 0, "trumps", 40, 6, trump=0)
HI_LO = Contract("hi-lo", 27, "no-trumps", 350, 5, goal="exactly")


@pytest.mark.parametrize(("contract", "taken", "barred"), [
    (SIX_SPADES, 3, True),  # three short of six: set by the bar
    (SIX_SPADES, 4, False),
    (SIX_SPADES, 10, False),  # overtricks are no shortfall
    (HI_LO, 5, False),  # exactly five: made
    (HI_LO, 8, True),  # three over an exact contract miss it by three
    (HI_LO, 2, True),
    (HI_LO, 7, False),
])
def test_R1_set_bar_counts_the_tricks_missed(contract, taken, barred):
    auction = AuctionRules(RULES.ladder, set_bar=3)
    assert auction.barred_after(outcome(contract, taken)) == (frozenset({0}) if barred else frozenset())


def test_bars_from_plugins_apply_after_every_hand():
    auction = AuctionRules(RULES.ladder)
    auction.bars.append(lambda done: frozenset({done.contractor + 1}))
    auction.bars.append(lambda done: frozenset({3}))
    assert auction.barred_after(outcome(SIX_SPADES, 6)) == {1, 3}
    assert AuctionRules(RULES.ladder).barred_after(outcome(SIX_SPADES, 0)) == frozenset()


MISERE = Contract("misere", 10, "misere", 250, 0, goal="none")


@pytest.mark.parametrize(("taken", "barred"), [(2, False), (3, True), (6, True)])
def test_R1_misere_bar_alone(taken, barred):
    """R1 with ``set_bar_misere`` and no ``set_bar``: a misère contractor taking three tricks sits out."""
    auction = AuctionRules(RULES.ladder, set_bar_misere=3)
    assert auction.barred_after(outcome(MISERE, taken)) == (frozenset({0}) if barred else frozenset())
    assert auction.barred_after(outcome(SIX_SPADES, 0)) == frozenset()  # no bar for a set trump contract


def test_B7_an_inkle_left_standing_leaves_no_holder():
    inkle = Contract("6S", 0, "trumps", 40, 6, trump=0, first_calls=2, signal=True)
    auction = AuctionRules([inkle, *RULES.ladder[1:]])
    bidding = auction.start(dealer=3, players=4)
    for seat, call in enumerate((0, PASS, PASS, PASS)):
        auction.apply(bidding, seat, call)
    assert bidding.over and (bidding.standing, bidding.holder) == (PASS, -1)
