"""Scoring and the end of the game, checked where the mutation run (``mutation/run.py``,
docs/testing.md) found that a wrong rule would have passed the rest of the suite.

The hooks are asked directly, as the engine asks them after a hand: a ruleset laid over the reference
(``model_copy``), the totals after the hand and the hand's outcome."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import EW, NS, RULES

from fivehundred.plugins import scoring
from fivehundred.plugins.scoring import contract_points, fivehundred_game_result
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


def test_the_plan_of_a_ruleset_is_read_once():
    ruleset = game(target=750)
    assert scoring._plan_of(ruleset) is scoring._plan_of(ruleset)
    assert scoring._plan_of(ruleset).target == 750


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


@pytest.mark.parametrize(("teams", "totals", "ct", "best"), [
    ((0, 1, 2), (100, 100, 100), 2, 2),  # a tie goes to the contractor's team …
    ((0, 1, 2), (100, 100, 100), 1, 1),
    ((0, 1, 2), (100, 100, 100), 5, 0),  # … then to the first listed
    ((1, 2), (0, 100, 100), 0, 1),
    ((0, 1, 2), (100, 100, 120), 0, 2),  # a higher total beats the contractor's tie-break
    ((0, 1, 2), (90, 100, 100), 0, 1),
])
def test_the_highest_side_wins_ties_to_the_contractor_then_the_first(teams, totals, ct, best):
    assert scoring._highest(teams, totals, ct) == best


def test_E5_the_first_side_past_bust_is_named():
    bust = game(exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [1010, 1050], MADE) == (
        EW, "NS passed 1000 with 1010; EW, highest of the others with 1050, wins")


@pytest.mark.parametrize(("points", "half"), [(240, 120), (250, 125), (5, 2), (1, 0), (0, 0), (-1, 0), (-5, -2),
                                              (-250, -125)])
def test_P5_half_share_rounds_toward_zero(points, half):
    assert scoring._partner_share(points, "half") == half
    assert scoring._partner_share(points, "full") == points


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
