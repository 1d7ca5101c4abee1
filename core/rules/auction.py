"""The auction: who calls next, which calls are legal, and when it is over.

``AuctionRules`` is rules 8–13 plus what the ladder's rungs say about themselves (B7 inkles that only
the first callers may make and that never become the contract, B8 blind calls) and two switches
from the ruleset (B10 the dealer must bid, R1 set bars).  Subclasses change the order of calls:
``SingleRoundAuction`` (B5), ``RebidAfterInterveningBid`` and ``WinnerMayRaise`` (B6), ``ReentryAfterChange``
(a pass is final only until the bid changes: Trickster Cards' "bid after pass if bid changed").

Compiled, ``auction.pxd`` makes ``next_caller`` and ``closed`` C functions (the engine's uniform auction cimports them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .tables import NOBODY, THROWN_IN, AllPassed, Contract, HandOutcome

PASS = -1
"""The pass, as a call; bids are rung indices on the ladder (0 = lowest)."""

ONLY_PASS: tuple[int, ...] = (PASS,)

# Rules of the variants, as cited in errors (see ``AuctionRules.why_illegal``).
DEALER_MUST_BID = "B10 dealer-must-bid: when all the others have passed without a bid, the dealer may not pass"
FIRST_CALLS = "B7: a {call} may be called only among the first {n} calls of the auction"
FIRST_OWN_CALL = "B8: {call} may be called only as the caller's first call of the auction"
BLIND = "B8: a blind bid is made only before the caller looks at its cards, in the round before the auction"
REBID = "B6: a player who has bid may bid again only after another player has bid"
REENTRY = ("auction.reentry 'if-bid-changed': a player who has passed may call again only once the standing bid "
           "has changed since that pass")


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
        if not self.passed:
            self.passed = [False] * self.players

    def has_called(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.calls)


_new_object = object.__new__


class AuctionRules:
    """Rules 8–13: an auction of as many rounds as needed in which a pass is final.

    Subclass and override ``out`` (who is passed over), ``next_turn`` (who is asked first) or
    ``legal_calls`` for other auctions (single round, re-bidding rules); return the subclass from
    ``fivehundred_auction_rules``.  ``legal_calls``
    should return shared tuples where it can (the engine memoises by identity).

    :param dealer_must_bid: B10: the last seat to call, when all the others have passed without a
      bid, may not pass.
    :param set_bar: R1: a contractor falling this many tricks short sits out the next auction.
    :param set_bar_misere: R1: … or a misère contractor taking this many tricks.
    :param all_passed: what becomes of a deal everybody passed (rule 13; B10). A plugin that builds
      its own auction rules passes ``fivehundred.plugins.bidding.all_passed(ruleset)`` to keep the
      ruleset's ``deal.all_pass`` and ``deal.redeals``.
    :param silent: seats that never call (P2's dummies): they are out of every auction from the start.
    """

    def __init__(self, ladder: Sequence[Contract], *, dealer_must_bid: bool = False,
                 set_bar: int | None = None, set_bar_misere: int | None = None,
                 all_passed: AllPassed = THROWN_IN, silent: frozenset[int] = frozenset()):
        self.ladder = tuple(ladder)
        self.all_passed = all_passed
        self.silent = silent
        # calls_over[standing + 1]: pass, then the rungs a player may call over that standing bid.
        self.calls_over = [
            (PASS, *(
                r.rung
                for r in self.ladder
                if r.rung > standing and (r.requires_standing is None or standing >= r.requires_standing)
                and not r.before_looking  # B8: a blind bid is made before the auction, never in it
            ))
            for standing in range(-1, len(self.ladder))
        ]
        self.dealer_must_bid = dealer_must_bid
        self.set_bar = set_bar
        self.set_bar_misere = set_bar_misere
        self._first_calls = tuple((r.rung, r.first_calls) for r in self.ladder if r.first_calls is not None)
        self._first_own = frozenset(r.rung for r in self.ladder if r.first_own_call)
        self._signals = frozenset(r.rung for r in self.ladder if r.signal)
        self.plain = not (self._first_calls or self._first_own or self._signals or dealer_must_bid)
        """No call depends on who calls or on the calls so far, and every bid can stand:
        ``calls_over`` answers alone."""
        own = type(self)
        self.table_driven = self.plain and all(getattr(own, name) is getattr(AuctionRules, name)
                                               for name in ("legal_calls", "apply", "next_turn", "out"))
        """This auction is its tables: the legal calls ``calls_over[standing + 1]``, the turn ``next_caller`` past
        the seats that passed, the end ``closed`` (derived from the methods: a subclass that changes any of them
        is not)."""
        self._shared: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.bars: list[Callable[[HandOutcome], frozenset[int]]] = []
        """Further bars on the next auction, from plugins (R2's breach): seats barred after a hand."""

    def start(self, dealer: int, players: int, out: frozenset[int] = frozenset()) -> Bidding:
        """A new auction; the ``silent`` seats and those in ``out`` (players barred from bidding) take no part."""
        passed = [False] * players
        for seats in (self.silent, out):
            for seat in seats:
                passed[seat] = True
        bidding = _new_object(Bidding)  # Bidding(players, dealer, PASS, -1, passed) without its interpreted __init__
        bidding.players, bidding.turn, bidding.standing, bidding.holder = players, dealer, PASS, -1
        bidding.passed, bidding.calls, bidding.over = passed, [], False
        self.next_turn(bidding)
        return bidding

    def barred_after(self, outcome: HandOutcome) -> frozenset[int]:
        """Seats that may not call in the next auction after this hand (R1 set / ralphing).

        The contractor alone is barred when the contracting side fell ``set_bar`` or more tricks
        short of an at-least contract (missed an exact one by as many), or took ``set_bar_misere``
        or more tricks in a misère.
        """
        barred = frozenset().union(*(bar(outcome) for bar in self.bars)) if self.bars else NOBODY
        if self.set_bar is None and self.set_bar_misere is None:
            return barred
        contract = outcome.contract
        taken = outcome.side_tricks
        if contract.goal == "none":
            bar, missed = self.set_bar_misere, taken
        elif contract.goal == "exactly":
            bar, missed = self.set_bar, abs(contract.tricks - taken)
        else:
            bar, missed = self.set_bar, contract.tricks - taken
        return barred | (frozenset((outcome.contractor,)) if bar is not None and missed >= bar else frozenset())

    def legal_calls(self, bidding: Bidding, seat: int) -> tuple[int, ...]:
        """The calls ``seat`` may make now: ``PASS`` (-1) and rung indices, ascending."""
        calls = self.calls_over[bidding.standing + 1]
        if self.plain:
            return calls
        barred = self._barred_calls(bidding, seat)
        if not barred:
            return calls
        kept = tuple(c for c in calls if c not in barred) or ONLY_PASS
        return self._shared.setdefault(kept, kept)

    def _barred_calls(self, bidding: Bidding, seat: int) -> set[int]:
        """Calls the rungs' own restrictions (B7, B8) and B10 forbid ``seat`` now."""
        barred = {rung for rung, limit in self._first_calls if len(bidding.calls) >= limit}
        if self._first_own and bidding.has_called(seat):
            barred |= self._first_own
        if self.dealer_must_bid and self._last_to_call_unopened(bidding):
            barred.add(PASS)
        return barred

    @staticmethod
    def _last_to_call_unopened(bidding: Bidding) -> bool:
        """No bid yet and every other seat has passed (or sits the auction out): this seat's pass would close
        the auction (``closed``) with nobody's bid standing."""
        return bidding.holder < 0 and closed(sum(bidding.passed) + 1, bidding.players, bidding.holder)

    def why_illegal(self, bidding: Bidding, seat: int, call: int) -> tuple[str, str] | None:
        """Why this auction's own rules forbid ``seat`` to make ``call`` now, as ``(message, rule)``;
        None when they do not (a bid not above the standing one, say: rules 8–10 explain that)."""
        if call == PASS:
            if self.dealer_must_bid and self._last_to_call_unopened(bidding):
                return "everyone else has passed: the dealer must bid", DEALER_MUST_BID
            return None
        if call <= bidding.standing:
            return None
        name = self.ladder[call].call if 0 <= call < len(self.ladder) else str(call)
        if 0 <= call < len(self.ladder) and self.ladder[call].before_looking:
            return "a blind bid is made before the auction, before looking at one's cards", BLIND
        for rung, limit in self._first_calls:
            if rung == call and len(bidding.calls) >= limit:
                return (f"{len(bidding.calls)} calls have been made already",
                        FIRST_CALLS.format(call=name, n=limit))
        if call in self._first_own and bidding.has_called(seat):
            return "this player has called before", FIRST_OWN_CALL.format(call=name)
        return None

    def apply(self, bidding: Bidding, seat: int, call: int) -> None:
        bidding.calls.append((seat, call))
        if call == PASS:
            bidding.passed[seat] = True
        else:
            bidding.standing, bidding.holder = call, seat
        self.next_turn(bidding)
        if bidding.over and bidding.standing in self._signals:
            # B7: an inkle is a signal, never a contract: the auction ends as if all had passed.
            bidding.standing, bidding.holder = PASS, -1

    def next_turn(self, bidding: Bidding) -> None:
        """Whose call it is after the last one, or the auction's end: the one statement of both (rules 11
        and 12, ``closed``; ``next_caller``, the next seat round the table not ``out``).  The engine and every
        auction flow go through it; a flow changes who is passed over (``out``)
        or who is asked first (``WinnerMayRaise``), never the loop.  Where none of that is overridden and the
        calls depend only on the standing bid (``table_driven``), the engine draws the calls of uniform
        players from ``calls_over`` with ``closed`` and ``next_caller`` alone."""
        n = bidding.players
        if closed(sum(bidding.passed), n, bidding.holder):
            bidding.over = True
            return
        seat = next_caller(self.out(bidding), bidding.turn, n)
        if seat < 0:
            bidding.over = True  # nobody may call again (B5: every seat has called once)
        else:
            bidding.turn = seat

    def out(self, bidding: Bidding) -> list[bool]:
        """By seat, whether it is passed over when its turn comes round (rule 11: a pass is final)."""
        return bidding.passed


def next_caller(out: Sequence[bool], seat: int, players: int) -> int:
    """The next seat after ``seat`` round the table that is not ``out``; -1 when every seat is."""
    for _ in range(players):
        seat = (seat + 1) % players
        if not out[seat]:
            return seat
    return -1


def closed(passes: int, players: int, holder: int) -> bool:
    """Rules 11 and 12: the auction is over once everybody has passed, or everybody but the holder of
    the standing bid (passes are final)."""
    return passes == players or (holder >= 0 and passes == players - 1)


class SingleRoundAuction(AuctionRules):
    """Each player calls exactly once, in turn; the highest bid wins (variant B5)."""

    def out(self, bidding: Bidding) -> list[bool]:
        called = {seat for seat, _ in bidding.calls}
        return [passed or seat in called for seat, passed in enumerate(bidding.passed)]


class RebidAfterInterveningBid(AuctionRules):
    """B6: a player who has bid may bid again only once another player has bid since.

    With passes final the holder of the standing bid is asked again only when an auction flow
    gives it a further call (as ``WinnerMayRaise`` does); it may then only pass.
    """

    def legal_calls(self, bidding: Bidding, seat: int) -> tuple[int, ...]:
        if bidding.holder == seat:
            return ONLY_PASS
        return super().legal_calls(bidding, seat)

    def why_illegal(self, bidding: Bidding, seat: int, call: int) -> tuple[str, str] | None:
        if call != PASS and bidding.holder == seat:
            return "nobody has bid since this player's bid", REBID
        return super().why_illegal(bidding, seat, call)


class WinnerMayRaise(AuctionRules):
    """B6: once all the others have passed over a bid, its bidder has one more call: raise or pass.

    A bid made when all the others had already passed (the last seat bidding after three passes)
    is that call: the auction ends on it.
    """

    def next_turn(self, bidding: Bidding) -> None:
        last_caller = bidding.calls[-1][0] if bidding.calls else -1
        raise_due = bidding.holder >= 0 and closed(sum(bidding.passed), bidding.players, bidding.holder)
        if raise_due and last_caller != bidding.holder:
            bidding.turn = bidding.holder
            return
        super().next_turn(bidding)


class ReentryAfterChange(AuctionRules):
    """A player who has passed is asked again once the standing bid has changed since that pass
    (``auction.reentry: if-bid-changed``, Trickster Cards' "bid after pass if bid changed").

    ``Bidding.passed`` holds whose latest call was a pass; the auction still ends as soon as a bid
    stands and every other seat's latest call is a pass, without asking again those who passed.
    Seats out of the auction from the start (dummies, bars) never made a call and stay out.
    """

    def apply(self, bidding: Bidding, seat: int, call: int) -> None:
        if call != PASS:
            bidding.passed[seat] = False  # a re-entry: this seat's latest call is a bid
        super().apply(bidding, seat, call)

    def out(self, bidding: Bidding) -> list[bool]:
        return [passed and not self._changed_since_pass(bidding, seat) for seat, passed in enumerate(bidding.passed)]

    @staticmethod
    def _changed_since_pass(bidding: Bidding, seat: int) -> bool:
        """The seat passed (its latest call) and a bid has been made since."""
        last = max((i for i, (s, _) in enumerate(bidding.calls) if s == seat), default=None)
        return last is not None and any(call != PASS for _, call in bidding.calls[last + 1:])
