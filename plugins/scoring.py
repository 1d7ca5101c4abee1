"""Hand scoring and the end of the game (rules 24–31; variants S3, S4, S6, E1, E2 are data)."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.markers import hookimpl
from fivehundred.ruleset import Ruleset
from fivehundred.tables import GameResult, HandOutcome


@hookimpl(trylast=True)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    s = ruleset.scoring
    contract, ct = outcome.contract, outcome.contractor_team
    scores = [0] * len(outcome.tricks_by_team)
    if contract.kind == "misere":
        scores[ct] = contract.value if outcome.made else -contract.value
        defence = s.defender_points_in_misere
    else:
        taken = outcome.tricks_by_team[ct]
        if not outcome.made:
            scores[ct] = -contract.value
        elif taken == outcome.hand_size and s.slam is not None and contract.value < s.slam.below:
            scores[ct] = s.slam.scores
        else:
            scores[ct] = contract.value + s.overtrick_points * (taken - contract.tricks)
        defence = s.defender_trick_points
    for team, taken in enumerate(outcome.tricks_by_team):
        if team != ct:
            scores[team] = defence * taken
    return scores


@hookimpl(trylast=True)
def fivehundred_game_result(ruleset: Ruleset, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    g = ruleset.game
    ct = outcome.contractor_team
    if g.swamp is not None:
        for team, total in enumerate(totals):
            if total <= g.swamp:
                best = max((t for t in range(len(totals)) if t != team), key=lambda t: totals[t])
                return GameResult(best, f"side {team} fell to {total}")
    if g.win == "contract-made":
        if outcome.made and totals[ct] >= g.target:
            return GameResult(ct, f"made its contract and reached {totals[ct]}")
        return None
    reached = [t for t, total in enumerate(totals) if total >= g.target]
    if not reached:
        return None
    winner = ct if ct in reached else max(reached, key=lambda t: totals[t])
    return GameResult(winner, f"reached {totals[winner]}")
