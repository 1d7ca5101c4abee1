"""R2, breach (seed 003): before play on a 7+ contract a defender may call breach, a bet that the
defence will beat the contract by one trick more than defeating it needs (5 tricks against a 7-bid,
2 against a 10-bid; against any misère, the misère side taking 3 tricks).  The breach is paid on top
of the hand's usual scores:

- win/lose: the contract is made → the contractors score it, the breaching side loses ``breach``;
- lose/lose: the contract fails but the breach is not reached → both lose;
- lose/win: the breach is reached → the contractors lose the contract, the breaching side gains ``breach``.

The engine offers the call (the ``breach`` exchange step, ``ruleset.scoring.breach`` not null) and
reports the seat that called it as ``HandOutcome.breach``; this wrapper adds the breach to the
scores that the other scoring plugins decided.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from fivehundred.markers import applies_when, hookimpl
from fivehundred.ruleset import Ruleset
from fivehundred.tables import Contract, HandOutcome

MISERE_BREACH = 3
"""Seed 003: against misère, open misère and double misère a breach is always 3 tricks (taken by the
misère side; the engine offers breach only on 7+ contracts, and a misère usually ends at its first trick)."""


@hookimpl(wrapper=True, trylast=True)  # the innermost wrapper: other plugins' wrappers see the breach
@applies_when(lambda ruleset: ruleset.scoring.breach is not None)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> Generator[None, list[int] | None,
                                                                                 list[int] | None]:
    scores = yield
    value = ruleset.scoring.breach
    if scores is None or value is None or outcome.breach < 0:
        return scores
    team_of = ruleset.players.team_of()
    adjusted = list(scores)
    adjusted[team_of[outcome.breach]] += value if breach_reached(outcome, team_of) else -value
    return adjusted


def tricks_to_breach(contract: Contract, hand_size: int) -> int:
    """Tricks a breach needs: the defenders' tricks one more than it takes to defeat the contract;
    in misère, the misère side's tricks."""
    if contract.goal == "none":
        return MISERE_BREACH
    return hand_size - contract.tricks + 2


def breach_reached(outcome: HandOutcome, team_of: Sequence[int]) -> bool:
    """Whether the tricks of the defenders (every seat off the contracting side) reach the breach;
    in misère, whether the misère side's do."""
    side = set(outcome.side) or {seat for seat, team in enumerate(team_of) if team == outcome.contractor_team}
    side_tricks = sum(won for seat, won in enumerate(outcome.tricks_by_seat) if seat in side)
    counted = side_tricks if outcome.contract.goal == "none" else outcome.tricks_played - side_tricks
    return counted >= tricks_to_breach(outcome.contract, outcome.hand_size)



@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    breach = ruleset.scoring.breach
    if breach is not None and breach <= 0:
        return [("scoring.breach", f"the breach value {breach} must be above 0: a breach call wins or loses it (R2)")]
    return []
