"""The bid ladder and the auction (rules 8–13; variants B1, B2, B4, B5 are ladder data)."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.auction import AuctionRules, SingleRoundAuction
from fivehundred.cards import parse_suit
from fivehundred.markers import hookimpl
from fivehundred.ruleset import Ruleset, parse_call
from fivehundred.tables import Contract, Kind


@hookimpl(trylast=True)
def fivehundred_bid_ladder(ruleset: Ruleset) -> list[Contract]:
    rungs = ruleset.auction.ladder
    index = {r.call: i for i, r in enumerate(rungs)}
    ladder = []
    for i, rung in enumerate(rungs):
        common = {
            "requires_standing": index[rung.requires_standing] if rung.requires_standing else None,
            "first_calls": rung.first_calls, "first_own_call": rung.first_own_call, "signal": rung.signal,
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
    if ruleset.auction.rounds == "single":
        return SingleRoundAuction(ladder)
    return AuctionRules(ladder)
