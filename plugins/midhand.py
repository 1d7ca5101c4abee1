"""E6, the 1904 mid-hand end: a side that reaches the target during a hand ends it, unless the
contractor can still win, that is make the contract and so reach the target itself.

“500 (juego de cartas)” quotes the 1904 rules: "if any player scores out during the play of a hand, the balance of
the hand is not played, unless the bidder can win", which it reads as "the first to make 500 wins,
unless the bidder makes 500 later in the same hand".  So the hand goes on only while the contracting
side can still take the tricks it bid *and* the most that contract could score (every trick left
taken: overtricks, a slam) would bring the contractor's team to the target; otherwise the defence
has won and the rest of the hand is not played (it is scored with the tricks taken so far).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset

from .scoring import contract_points


@hookimpl(trylast=True)
def fivehundred_trick_check(ruleset: Ruleset) -> Callable[[Any], bool] | None:
    if not ruleset.game.mid_hand:
        return None
    target, per_trick, scoring = ruleset.game.target, ruleset.scoring.defender_trick_points, ruleset.scoring

    def reached_during_the_hand(state: Any) -> bool:
        log = state.hands_log[-1]
        contract, side = log.contract, state.contracting_side
        if contract is None or not side or contract.goal != "at-least":
            return False
        rules = state.rules
        tricks_won = state.tricks_won_by_seat
        defence: dict[int, int] = {}
        for seat, won in enumerate(tricks_won):
            if seat not in side:
                defence[rules.team_of[seat]] = defence.get(rules.team_of[seat], 0) + won
        if not any(state.totals[team] + per_trick * won >= target for team, won in defence.items()):
            return False  # nobody has scored out: play on
        best = sum(tricks_won[s] for s in side) + rules.hand_size - len(log.tricks)
        if best < contract.tricks:
            return True  # the contract can no longer be made
        most = contract_points(scoring, contract, best, rules.hand_size, True)
        return state.totals[rules.team_of[log.contractor]] + most < target  # the bidder can no longer win

    return reached_during_the_hand
