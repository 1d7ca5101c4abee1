"""The auction: who calls next, which calls are legal, and when it is over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fivehundred.tables import Contract, HandOutcome

PASS = -1
"""The pass, as a call; bids are rung indices on the ladder (0 = lowest)."""


@dataclass(slots=True)
class Bidding:
    """The state of one auction: standing bid, its holder, who has passed, calls so far."""

    players: int
    turn: int
    standing: int = PASS
    holder: int = -1
    passed: list[bool] = field(default_factory=list)
    calls: list[tuple[int, int]] = field(default_factory=list)
    over: bool = False

    def __post_init__(self) -> None:
        self.passed = [False] * self.players


class AuctionRules:
    """Rules 8–13: an auction of as many rounds as needed in which a pass is final.

    Subclass and override ``next_turn`` / ``legal_calls`` for other auctions (single round,
    re-bidding rules); return the subclass from ``fivehundred_auction_rules``.  ``legal_calls``
    should return shared tuples where it can (the engine memoises by identity).
    """

    def __init__(self, ladder: Sequence[Contract]):
        self.ladder = tuple(ladder)
        # calls_over[standing + 1]: pass, then the rungs a player may call over that standing bid.
        self.calls_over = [
            (PASS, *(
                r.rung
                for r in self.ladder
                if r.rung > standing and (r.requires_standing is None or standing >= r.requires_standing)
            ))
            for standing in range(-1, len(self.ladder))
        ]

    def start(self, dealer: int, players: int, out: frozenset[int] = frozenset()) -> Bidding:
        """A new auction; seats in ``out`` (dummies, players barred from bidding) take no part."""
        bidding = Bidding(players=players, turn=dealer)
        for seat in out:
            bidding.passed[seat] = True
        self.next_turn(bidding)
        return bidding

    def barred_after(self, outcome: HandOutcome) -> frozenset[int]:
        """Seats that may not call in the next auction after this hand (R1); none by default."""
        return frozenset()

    def legal_calls(self, bidding: Bidding, seat: int) -> tuple[int, ...]:
        """The calls ``seat`` may make now: ``PASS`` (-1) and rung indices, ascending."""
        return self.calls_over[bidding.standing + 1]

    def apply(self, bidding: Bidding, seat: int, call: int) -> None:
        bidding.calls.append((seat, call))
        if call == PASS:
            bidding.passed[seat] = True
        else:
            bidding.standing, bidding.holder = call, seat
        self.next_turn(bidding)

    def next_turn(self, bidding: Bidding) -> None:
        passes = sum(bidding.passed)
        n = bidding.players
        if passes == n or (bidding.holder >= 0 and passes == n - 1):
            bidding.over = True
            return
        seat = bidding.turn
        for _ in range(n):
            seat = (seat + 1) % n
            if not bidding.passed[seat]:
                break
        bidding.turn = seat


class SingleRoundAuction(AuctionRules):
    """Each player calls exactly once, in turn; the highest bid wins (variant B5)."""

    def next_turn(self, bidding: Bidding) -> None:
        n = bidding.players
        called = {seat for seat, _ in bidding.calls}
        seat = bidding.turn
        for _ in range(n):
            seat = (seat + 1) % n
            if seat not in called and not bidding.passed[seat]:
                bidding.turn = seat
                return
        bidding.over = True
