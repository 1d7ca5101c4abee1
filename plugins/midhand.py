"""E6, the 1904 mid-hand end: a side that reaches the target during a hand ends it, unless the
contractor can still make the contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fivehundred.markers import hookimpl
from fivehundred.ruleset import Ruleset


@hookimpl(trylast=True)
def fivehundred_trick_check(ruleset: Ruleset) -> Callable[[Any], bool] | None:
    if not ruleset.game.mid_hand:
        return None
    target, per_trick = ruleset.game.target, ruleset.scoring.defender_trick_points

    def reached_during_the_hand(state: Any) -> bool:
        log = state.hands_log[-1]
        contract, side = log.contract, state.contracting_side
        if contract is None or not side or contract.goal != "at-least":
            return False
        rules = state.rules
        tricks_won = state.tricks_won_by_seat
        taken = sum(tricks_won[s] for s in side)
        if taken + rules.hand_size - len(log.tricks) >= contract.tricks:
            return False  # the contractor can still go out
        defence: dict[int, int] = {}
        for seat, won in enumerate(tricks_won):
            if seat not in side:
                defence[rules.team_of[seat]] = defence.get(rules.team_of[seat], 0) + won
        return any(state.totals[team] + per_trick * won >= target for team, won in defence.items())

    return reached_during_the_hand
