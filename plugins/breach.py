"""R2, breach (seed 003): before play on a 7+ contract a defender may call breach, a bet that the
defence will beat the contract by one trick more than defeating it needs (5 tricks against a 7-bid,
2 against a 10-bid; against any misère, the misère side taking 3 tricks).  The breach is paid on top
of the hand's usual scores:

- win/lose: the contract is made → the contractors score it, the breaching side loses ``breach``;
- lose/lose: the contract fails but the breach is not reached → both lose;
- lose/win: the breach is reached → the contractors lose the contract, the breaching side gains ``breach``.

Nobody wins or loses the game on breach points; a failed breacher, and a seven-bidder who was breached,
sit out the next auction.

The engine offers the call (the ``breach`` exchange step, ``ruleset.scoring.breach`` not null) and
reports the seat that called it as ``HandOutcome.breach``; this wrapper adds the breach to the
scores that the other scoring plugins decided.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import partial
from typing import Any

from fivehundred.markers import applies_when, hookimpl
from fivehundred.plugins import scoring
from fivehundred.ruleset import Ruleset
from fivehundred.tables import Contract, GameResult, HandOutcome

MISERE_BREACH = 3
"""Seed 003: against misère, open misère and double misère a breach is always 3 tricks (taken by the
misère side; the engine offers breach only on 7+ contracts, and a misère usually ends at its first trick)."""


@hookimpl(wrapper=True, trylast=True)  # the innermost wrapper: other plugins' wrappers see the breach
@applies_when(lambda ruleset: ruleset.scoring.breach is not None)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> Generator[None, list[int] | None,
                                                                                 list[int] | None]:
    scores = yield
    if scores is None:
        return scores
    return [a + b for a, b in zip(scores, breach_points(ruleset, outcome), strict=True)]


@hookimpl(wrapper=True, trylast=True)
@applies_when(lambda ruleset: ruleset.scoring.breach is not None)
def fivehundred_game_result(ruleset: Ruleset, totals: Sequence[int],
                            outcome: HandOutcome) -> Generator[None, GameResult | None, GameResult | None]:
    """Seed 003: a breach is not a bid, so nobody wins or loses ("goes out the back door") on the points a
    breach won or lost: the built-in end of the game is judged on the totals without this hand's breach."""
    result = yield
    points = breach_points(ruleset, outcome)
    if not any(points):
        return result
    return scoring.fivehundred_game_result(ruleset, [t - p for t, p in zip(totals, points, strict=True)], outcome)


@hookimpl(wrapper=True, trylast=True)
def fivehundred_auction_rules(ruleset: Ruleset, ladder: Sequence[Contract]) -> Generator[None, Any, Any]:
    """Seed 003's bars after a breach, for the next auction (see ``breach_bars``)."""
    auction = yield
    if auction is not None and ruleset.scoring.breach is not None:
        auction.bars.append(partial(breach_bars, ruleset.players.team_of()))
    return auction


def breach_points(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    """What the breach adds to each team's score this hand: ``breach`` to the breaching side when the
    breach is reached, ``-breach`` when not; nothing without a breach call."""
    points = [0] * len(ruleset.players.teams)
    value = ruleset.scoring.breach
    if value is not None and outcome.breach >= 0:
        team_of = ruleset.players.team_of()
        points[team_of[outcome.breach]] = value if breach_reached(outcome, team_of) else -value
    return points


def breach_bars(team_of: Sequence[int], outcome: HandOutcome) -> frozenset[int]:
    """Seed 003: a player whose breach call fails (win/lose, lose/lose) may not bid in the next round, nor
    may the player who bid a seven-trick contract that was breached (lose/win)."""
    if outcome.breach < 0:
        return frozenset()
    if not breach_reached(outcome, team_of):
        return frozenset({outcome.breach})
    seven = outcome.contract.goal == "at-least" and outcome.contract.tricks == 7
    return frozenset({outcome.contractor}) if seven else frozenset()


def tricks_to_breach(contract: Contract, hand_size: int) -> int:
    """Tricks a breach needs: the defenders' tricks one more than it takes to defeat the contract;
    in misère, the misère side's tricks."""
    if contract.goal == "none":
        return MISERE_BREACH
    return hand_size - contract.tricks + 2


def breach_reached(outcome: HandOutcome, team_of: Sequence[int]) -> bool:
    """Whether the tricks of the defenders (every seat off the contracting side) reach the breach;
    in misère, whether the misère side's do."""
    side_tricks = outcome.side_tricks
    counted = side_tricks if outcome.contract.goal == "none" else outcome.tricks_played - side_tricks
    return counted >= tricks_to_breach(outcome.contract, outcome.hand_size)



@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    breach = ruleset.scoring.breach
    if breach is not None and breach <= 0:
        return [("scoring.breach", f"the breach value {breach} must be above 0: a breach call wins or loses it (R2)")]
    return []
