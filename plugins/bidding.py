"""The bid ladder and the auction (rules 8–13).

Ladder data: B1, B2, B3, B4, B11 (which calls, in which order, worth what), B7 and B8 (rung flags
``first_calls``, ``signal``, ``first_own_call``).  Auction flow: B5, B6 (``auction.rounds``,
``rebid``, ``winner_may_raise``), B10 ``dealer-must-bid`` and R1 set bars (``auction.set_bar*``).
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.rules.auction import (
    AuctionRules,
    RebidAfterInterveningBid,
    ReentryAfterChange,
    SingleRoundAuction,
    WinnerMayRaise,
)
from fivehundred.rules.cards import parse_suit
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset, parse_call
from fivehundred.rules.tables import AllPassed, Contract, Kind


@hookimpl(trylast=True)
def fivehundred_bid_ladder(ruleset: Ruleset) -> list[Contract]:
    rungs = ruleset.auction.ladder
    index = {r.call: i for i, r in enumerate(rungs)}
    ladder = []
    for i, rung in enumerate(rungs):
        common = {
            "requires_standing": index[rung.requires_standing] if rung.requires_standing else None,
            "first_calls": rung.first_calls, "first_own_call": rung.first_own_call, "signal": rung.signal,
            "before_looking": rung.before_looking,
        }
        parsed = parse_call(rung.call)
        if parsed is not None:
            level, trump = parsed
            kind: Kind = "no-trumps" if trump is None else "trumps"
            ladder.append(Contract(rung.call, i, kind, rung.value, level, trump, **common))  # type: ignore[arg-type]
            continue
        c = ruleset.contracts[rung.call]
        ladder.append(Contract(
            rung.call, i, c.kind, rung.value, c.tricks, None if c.trump is None else parse_suit(c.trump),
            open=c.open, partner_plays=c.partner_plays, goal=c.goal, partner_open=c.partner_open, kitty=c.kitty,
            kitty_to_partner=c.kitty_to_partner, jacks_high=c.jacks_high, fail_penalty=c.fail_penalty,
            fail_value=c.fail_value, **common))  # type: ignore[arg-type]
    return ladder


@hookimpl(trylast=True)
def fivehundred_auction_rules(ruleset: Ruleset, ladder: Sequence[Contract]) -> AuctionRules:
    a = ruleset.auction
    flow: type[AuctionRules] = AuctionRules
    if a.rounds == "single":
        flow = SingleRoundAuction
    elif a.winner_may_raise:
        flow = WinnerMayRaise
    elif a.rebid == "after-intervening-bid":
        flow = RebidAfterInterveningBid
    elif a.reentry == "if-bid-changed":
        flow = ReentryAfterChange
    return flow(ladder, dealer_must_bid=ruleset.deal.all_pass == "dealer-must-bid",
                set_bar=a.set_bar, set_bar_misere=a.set_bar_misere, all_passed=all_passed(ruleset),
                silent=dummy_seats(ruleset))


def dummy_seats(ruleset: Ruleset) -> frozenset[int]:
    """The seats of P2's dummies, which never call (``AuctionRules.silent``)."""
    seats = ruleset.players.seats
    return frozenset(seats.index(dummy) for dummy in ruleset.players.dummies)


NO_BID = Contract("no-bid", -1, "no-trumps", 0, 0, kitty=False)
"""B10 'no-trumps': the hand everybody passed, played at no-trumps with no contractor."""


def all_passed(ruleset: Ruleset) -> AllPassed:
    """Rule 13 and B10: a deal everybody passed is thrown in (dealt again by the same dealer up to
    ``deal.redeals`` times, then the deal passes on), played at no-trumps, or dealt again unshuffled."""
    how = ruleset.deal.all_pass
    if how == "no-trumps":
        return AllPassed(played_as=NO_BID, rule="B10 'no-trumps': a deal everybody passed is played at no-trumps")
    if how == "same-cards":
        return AllPassed(redeals=ruleset.deal.redeals, same_cards=True,
                         rule="B10 'same-cards': the next dealer deals the same cards")
    return AllPassed(redeals=ruleset.deal.redeals)


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Contradictions in the ladder and the auction fields (B6, B7, R1)."""
    return [*_ladder_problems(ruleset), *_flow_problems(ruleset), *_set_bar_problems(ruleset)]


def _ladder_problems(ruleset: Ruleset) -> list[tuple[str, str]]:
    rungs = ruleset.auction.ladder
    index = {r.call: i for i, r in enumerate(rungs)}
    callers = len(ruleset.players.seats) - len(ruleset.players.dummies)
    problems = []
    for i, rung in enumerate(rungs):
        key = f"auction.ladder.{i}"
        if rung.value <= 0 and not rung.signal:
            problems.append((f"{key}.value", f"ladder entry without a value: {rung.call} is worth {rung.value}, "
                             "but a call that can become the contract needs a positive value"))
        needed = index.get(rung.requires_standing or "", -1)
        if needed >= i:
            problems.append((f"{key}.requires_standing", f"{rung.call} requires a standing {rung.requires_standing}, "
                             f"which is not below {rung.call} on the ladder: {rung.call} could never be called"))
        if rung.first_calls is not None and rung.first_calls > callers:
            problems.append((f"{key}.first_calls", f"first_calls {rung.first_calls} is more than the {callers} calls "
                             "of the first round (B7: inkles belong to the first callers)"))
    if all(r.signal for r in rungs):
        problems.append(("auction.ladder", "every call on the ladder is a signal (B7): no auction could make a "
                         "contract"))
    return problems


def _flow_problems(ruleset: Ruleset) -> list[tuple[str, str]]:
    a = ruleset.auction
    if a.reentry != "never" and (a.rounds == "single" or a.winner_may_raise or a.rebid != "always"):
        return [("auction.reentry", "re-entry after a pass ('if-bid-changed') needs rounds 'unlimited', rebid "
                 "'always' and no winner's raise: those auctions order the calls their own way")]
    if not a.winner_may_raise:
        return []
    if a.rounds == "single":
        return [("auction.winner_may_raise", "the winner's raise after all others passed (B6) needs rounds "
                 "'unlimited': in a single round the others need not have passed")]
    if a.rebid == "after-intervening-bid":
        return [("auction.winner_may_raise", "the winner's raise (B6) contradicts rebid 'after-intervening-bid': "
                 "nobody bids between the winner's bid and the raise; use rebid 'always'")]
    return []


def _set_bar_problems(ruleset: Ruleset) -> list[tuple[str, str]]:
    a = ruleset.auction
    problems = []
    if a.set_bar_misere is not None:
        misere = [r.call for r in a.ladder if r.call in ruleset.contracts and ruleset.contracts[r.call].goal == "none"]
        if not misere:
            problems.append(("auction.set_bar_misere", "set_bar_misere (R1) is set but the ladder has no misère"))
        elif a.set_bar_misere > 1 and ruleset.play.misere_ends_early:
            problems.append(("auction.set_bar_misere", f"set_bar_misere {a.set_bar_misere} (R1) can never be reached: "
                             "the hand stops at the misère contractor's first trick (play.misere_ends_early)"))
    if a.set_bar is not None:
        most = max((_tricks(ruleset, r.call) for r in a.ladder), default=0)
        if a.set_bar > most:
            problems.append(("auction.set_bar", f"set_bar {a.set_bar} (R1) can never be reached: no contract on the "
                             f"ladder needs more than {most} tricks"))
    return problems


def _tricks(ruleset: Ruleset, call: str) -> int:
    """Tricks a call obliges its contractor to take (0 for a misère)."""
    parsed = parse_call(call)
    if parsed is not None:
        return parsed[0]
    c = ruleset.contracts.get(call)
    return 0 if c is None or c.goal == "none" else c.tricks
