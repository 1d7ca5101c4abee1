"""Scoring and the end of the game, checked where the mutation run (``mutation/run.py``,
docs/testing.md) found that a wrong rule would have passed the rest of the suite.

The hooks are asked directly, as the engine asks them after a hand: a ruleset laid over the reference
(``model_copy``), the totals after the hand and the hand's outcome; nothing private of the plugin is read."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EW, NS, RULES

import fivehundred
from fivehundred.plugins.scoring import contract_points, fivehundred_game_result, fivehundred_score_hand
from fivehundred.rules.ruleset import Ruleset, Slam
from fivehundred.rules.tables import Contract, HandOutcome

SEVEN_NT = RULES.ladder[RULES.parse_call("7NT")]
MADE = HandOutcome(SEVEN_NT, 0, NS, (4, 2, 4, 0), (8, 2), True, 10, 10, (0, 2), (0, 0))
"""North and South made 7NT with eight tricks."""
FAILED = HandOutcome(SEVEN_NT, 0, NS, (3, 3, 3, 1), (6, 4), False, 10, 10, (0, 2), (0, 0))
"""North and South fell one short of 7NT."""


def game(**fields: Any) -> Ruleset:
    """The reference with these ``game`` fields."""
    ref = RULES.ruleset
    return ref.model_copy(update={"game": ref.game.model_copy(update=fields)})


def test_each_ruleset_is_judged_by_its_own_target_whichever_was_asked_first():
    """Both hooks keep what a ruleset fixes per ruleset object: a copy with another target, asked
    between two questions about the reference, answers by its own target, and the reference by its."""
    ruleset = game(target=750)
    for _ in range(2):
        assert fivehundred_game_result(RULES.ruleset, [520, 0], MADE) == (NS, "NS made its contract and reached 520")
        assert fivehundred_game_result(ruleset, [520, 0], MADE) is None
        assert fivehundred_game_result(ruleset, [760, 0], MADE) == (NS, "NS made its contract and reached 760")


def test_E5_bust_without_a_swamp_ends_the_game():
    bust = game(swamp=None, exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [1010, 40], MADE) == (
        EW, "NS passed 1000 with 1010; EW, highest of the others with 40, wins")
    assert fivehundred_game_result(bust, [-2000, 40], FAILED) is None  # no swamp: play on


def test_E5_bust_is_named_as_such_beside_a_swamp():
    bust = game(exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [40, 1020], FAILED) == (
        NS, "EW passed 1000 with 1020; NS, highest of the others with 40, wins")


def test_the_first_side_at_the_swamp_is_named():
    """Both sides at the swamp (a variant's penalties can do it): the first listed is named, and the
    higher of the two wins, no other side being left."""
    assert fivehundred_game_result(RULES.ruleset, [-600, -550], FAILED) == (
        EW, "NS fell to -600; EW, highest of the others with -550, wins")


@pytest.mark.parametrize(("totals", "winner"), [
    ([450, 0], None),  # a side at 0 is not negative: no spread win
    ([0, -450], None),
    ([200, -100], None),  # 300 apart, short of the 400 spread
    ([300, -100], NS),  # exactly the spread
    ([1, -399], NS),
    ([400, -1], NS),
    ([-150, 250], EW),
])
def test_E4_spread_needs_one_side_positive_one_negative_and_the_distance(totals, winner):
    spread = game(spread=400)
    result = fivehundred_game_result(spread, totals, FAILED)
    assert (result and result.winner) == winner if winner is not None else result is None


THREE_TEAMS = fivehundred.load_ruleset("six-handed-three-teams")
"""Teams A, B and C (seats A1 B1 C1 A2 B2 C2): three sides, so that two can tie for the highest."""
A, B, C = 0, 1, 2


def three_teams(contractor_team: int, made: bool = False, **fields: Any) -> tuple[Ruleset, HandOutcome]:
    """Six-handed in three teams with these ``game`` fields, and a hand whose contract the team played."""
    ruleset = THREE_TEAMS.model_copy(update={"game": THREE_TEAMS.game.model_copy(update=fields)})
    seat = contractor_team if contractor_team >= 0 else 0
    tricks = (2, 2, 1, 2, 1, 2)
    outcome = HandOutcome(SEVEN_NT, seat if contractor_team >= 0 else -1, contractor_team, tricks, (4, 3, 3), made,
                          10, 10, (seat, seat + 3) if contractor_team >= 0 else (), (0, 0, 0))
    return ruleset, outcome


@pytest.mark.parametrize(("totals", "ct", "winner"), [
    ((300, 300, -150), B, B),  # a tie for the highest goes to the contractor's team …
    ((300, 300, -150), A, A),
    ((300, 300, -150), C, A),  # … else to the first listed
    ((-150, 300, 300), A, B),
    ((-150, 300, 300), C, C),
    ((300, 280, -150), B, A),  # a higher total beats the contractor's tie-break
    ((280, 300, -150), A, B),
])
def test_E4_the_highest_side_wins_ties_to_the_contractor_then_the_first(totals, ct, winner):
    ruleset, outcome = three_teams(ct, spread=400)
    result = fivehundred_game_result(ruleset, list(totals), outcome)
    assert result is not None and result.winner == winner


@pytest.mark.parametrize(("totals", "ct", "winner"), [
    ((-600, 100, 100), A, B),  # the contractor's team went out: the first of the tied others
    ((100, -600, 100), B, A),
    ((100, 100, -600), B, B),  # the contractor's team is among the tied
    ((100, 120, -600), A, B),
    ((-600, -600, -600), C, C),  # every side out: the highest of all, the contractor's on a tie …
    ((-600, -600, -600), -1, A),  # … the first listed when nobody contracted
    ((-600, -550, -600), -1, B),
])
def test_rule_29_the_highest_of_the_others_wins_ties_to_the_contractor_then_the_first(totals, ct, winner):
    ruleset, outcome = three_teams(ct)
    result = fivehundred_game_result(ruleset, list(totals), outcome)
    assert result is not None and result.winner == winner


def test_E5_the_first_side_past_bust_is_named():
    bust = game(exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [1010, 1050], MADE) == (
        EW, "NS passed 1000 with 1010; EW, highest of the others with 1050, wins")


FIVE = fivehundred.load_ruleset("five-handed")
"""Five lone players (seat = team); the contractor (seat 0) calls seat 2 as partner (P5)."""


@pytest.mark.parametrize(("value", "made", "half"), [(240, True, 120), (125, True, 62), (5, True, 2), (1, True, 0),
                                                     (1, False, 0), (5, False, -2), (125, False, -62),
                                                     (250, False, -125)])
def test_P5_the_partner_scores_the_contract_in_full_or_half_rounded_toward_zero(value, made, half):
    contract = Contract("6S", 5, "trumps", value, 6, trump=0)
    tricks = (4, 1, 2, 2, 1) if made else (3, 2, 2, 2, 1)
    outcome = HandOutcome(contract, 0, 0, tricks, tricks, made, 10, 10, (0, 2), (0,) * 5)
    points = value if made else -value
    defence = [0, 10 * tricks[1], 0, 10 * tricks[3], 10 * tricks[4]]
    halved = FIVE.model_copy(update={"players": FIVE.players.model_copy(update={"called_partner_share": "half"})})
    assert fivehundred_score_hand(halved, outcome) == [points, defence[1], half, defence[3], defence[4]]
    assert fivehundred_score_hand(FIVE, outcome) == [points, defence[1], points, defence[3], defence[4]]


@pytest.mark.parametrize(("value", "all_ten"), [(240, 400), (249, 400), (250, 250), (260, 260)])
def test_rule_25_slam_only_below_its_bound(value, all_ten):
    """A slam worth 400 for contracts below 250: a contract worth exactly 250 scores its value."""
    rs = RULES.ruleset.scoring.model_copy(update={"slam": Slam(below=250, scores=400)})
    contract = Contract("8S", 15, "trumps", value, 8, trump=0)
    assert contract_points(rs, contract, 10, 10, True) == all_ten
    assert contract_points(rs, contract, 9, 10, True) == value


def test_E4_the_spread_win_names_the_distance():
    assert fivehundred_game_result(game(spread=400), [300, -150], FAILED) == (
        NS, "NS leads by 450 (point spread of 400)")


@pytest.mark.parametrize(("totals", "out"), [([-520, 0], True), ([-520, -1], False), ([-520, 30], True)])
def test_E3_the_swamp_takes_a_side_out_only_while_the_others_are_not_negative(totals, out):
    e3 = game(swamp_needs_opponents_not_negative=True)
    result = fivehundred_game_result(e3, totals, FAILED)
    assert (result == (EW, f"NS fell to -520; EW, highest of the others with {totals[1]}, wins")) if out \
        else result is None
