"""The bid ladder and the auction (rules 8–13; variants B1, B2, B4, B5 are ladder data)."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.auction import AuctionRules, SingleRoundAuction
from fivehundred.markers import hookimpl
from fivehundred.ruleset import Ruleset, parse_call
from fivehundred.tables import Contract, Kind


@hookimpl(trylast=True)
def fivehundred_bid_ladder(ruleset: Ruleset) -> list[Contract]:
    rungs = ruleset.auction.ladder
    index = {r.call: i for i, r in enumerate(rungs)}
    ladder = []
    for i, rung in enumerate(rungs):
        required = index[rung.requires_standing] if rung.requires_standing else None
        parsed = parse_call(rung.call)
        if parsed is not None:
            level, trump = parsed
            kind: Kind = "no-trumps" if trump is None else "trumps"
            ladder.append(Contract(rung.call, i, kind, rung.value, level, trump, requires_standing=required))
        else:
            special = ruleset.contracts[rung.call]
            ladder.append(Contract(rung.call, i, special.kind, rung.value, 0, None, open=special.open,
                                   partner_plays=special.partner_plays, requires_standing=required))
    return ladder


@hookimpl(trylast=True)
def fivehundred_auction_rules(ruleset: Ruleset, ladder: Sequence[Contract]) -> AuctionRules:
    if ruleset.auction.rounds == "single":
        return SingleRoundAuction(ladder)
    return AuctionRules(ladder)
