"""The auction's rules, checked where the mutation run (``mutation/run.py``, docs/testing.md) found
that a wrong rule would have passed the rest of the suite."""

from __future__ import annotations

from helpers import RULES

from fivehundred.rules.auction import PASS, Bidding, WinnerMayRaise


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
