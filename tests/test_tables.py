"""The plain values and tables the engine executes (``fivehundred.rules.tables``), checked where the
mutation run (``mutation/run.py``, docs/testing.md) found that a wrong rule would have passed the rest
of the suite: the contract's own test of the tricks, rule 22's joker leads, and the defaults a plugin
building its own contract or table relies on."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import NS

from fivehundred.rules.tables import ANY_SUIT, THROWN_IN, AllPassed, Contract, HandOutcome, JokerRules, PlayTable

SIX_SPADES = Contract("6S", 0, "trumps", 40, 6, trump=0)
SIX_NT = Contract("6NT", 4, "no-trumps", 120, 6)
HI_LO = Contract("hi-lo", 27, "no-trumps", 350, 5, goal="exactly")
MISERE = Contract("misere", 10, "misere", 250, 0, goal="none")


def test_a_contract_built_with_its_defaults_is_the_plain_reference_contract():
    c = SIX_SPADES
    assert (c.open, c.partner_plays, c.partner_open, c.kitty, c.kitty_to_partner, c.jacks_high) == (
        False, True, False, True, False, False)
    assert (c.first_calls, c.first_own_call, c.before_looking, c.signal, c.goal) == (None, False, False, False,
                                                                                    "at-least")
    assert c.has_trumps is True and SIX_NT.has_trumps is False


def test_a_contract_is_a_frozen_hashable_value():
    assert len({SIX_SPADES, Contract("6S", 0, "trumps", 40, 6, trump=0)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        SIX_SPADES.value = 50  # type: ignore[misc]
    rules = JokerRules(as_trump=True)
    assert hash(rules) == hash(JokerRules(as_trump=True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.nominate = True  # type: ignore[misc]


@pytest.mark.parametrize(("contract", "made"), [
    (SIX_SPADES, {6, 7, 8, 9, 10}), (HI_LO, {5}), (MISERE, {0}),
])
def test_made_is_at_least_exactly_or_none(contract, made):
    assert {t for t in range(11) if contract.made(t)} == made


def test_joker_rules_default_to_the_reference():
    j = JokerRules(as_trump=False)
    assert (j.nominate, j.lead, j.void_play, j.named_when_played, j.no_renege, j.first_or_last) == (
        False, "unled-suit", "optional", False, False, False)


def test_a_play_table_defaults_to_no_joker_rules_and_refuses_unknown_fields():
    table = PlayTable([], [])
    assert (table.jokers, table.free_jokers, table.joker_lead, table.joker_void_compulsory) == (
        (), frozenset(), "unled-suit", False)
    assert (table.nomination, table.legal_filter, table.explain_illegal, table.extra) == (None, None, None, {})
    with pytest.raises(AttributeError):
        table.jokers_lead = "any"  # type: ignore[attr-defined]  # a misspelt field is an error


def test_rule_22_a_free_joker_leads_an_unled_suit_any_suit_to_the_last_trick():
    table = PlayTable([], [])
    assert table.lead_suits_for_joker([1, 3], tricks_left=2) == [1, 3]
    assert table.lead_suits_for_joker([1, 3], tricks_left=1) == [0, 1, 2, 3]
    assert table.lead_suits_for_joker([], tricks_left=3) == []
    last = PlayTable([], [], joker_lead="last-trick")
    assert last.lead_suits_for_joker([1, 3], tricks_left=2) == []
    assert last.lead_suits_for_joker([1, 3], tricks_left=1) == [0, 1, 2, 3]
    assert PlayTable([], [], joker_lead="any").lead_suits_for_joker([2], tricks_left=5) == [0, 1, 2, 3]


def test_rule_22_a_hand_of_nothing_but_jokers_leads_one_as_any_suit():
    table = PlayTable([], [])
    assert ANY_SUIT == (0, 1, 2, 3)
    assert tuple(table.joker_lead_suits([], tricks_left=2, jokers_only=True)) == (0, 1, 2, 3)
    assert list(table.joker_lead_suits([2], tricks_left=2, jokers_only=True)) == [2]
    assert list(table.joker_lead_suits([], tricks_left=2, jokers_only=False)) == []
    assert list(table.joker_lead_suits([1], tricks_left=2, jokers_only=False)) == [1]


def test_a_hand_outcome_reads_its_kind_and_side_tricks():
    outcome = HandOutcome(SIX_SPADES, 0, NS, (4, 2, 3, 1), (7, 3), True, 10, 10, (0, 2))
    assert outcome.kind == "trumps" and outcome.side_tricks == 7
    assert HandOutcome(MISERE, 1, 1, (0, 3, 0, 0), (0, 3), False, 3, 10, (1,)).kind == "misere"


def test_a_table_built_of_tuples_is_handed_over_as_lists():
    """The compiled engine's play loops index a table's rows as lists (core/engine/state.pxd): a plugin
    may build them as tuples, and gets the same values."""
    table = PlayTable((0, 1, 4), ((5, 0, 0), [0, 6, 0], (0, 0, 0), (0, 0, 0), (0, 0, 9)))
    assert type(table.suit_of) is list and table.suit_of == [0, 1, 4]
    assert type(table.power) is list and all(type(row) is list for row in table.power)
    assert table.power == [[5, 0, 0], [0, 6, 0], [0, 0, 0], [0, 0, 0], [0, 0, 9]]
    lists = PlayTable([0], [[1]])
    assert PlayTable(lists.suit_of, lists.power).suit_of is lists.suit_of  # lists already: kept, not copied


def test_a_table_is_made_of_lists_whatever_the_shape_it_was_built_of():
    """Each shape a plugin may build a table of: the rows as tuples in a list, lists in a tuple; lists of lists are
    kept as they are."""
    assert PlayTable([0], [(1,), (2,)]).power == [[1], [2]]
    assert all(type(row) is list for row in PlayTable([0], [(1,), (2,)]).power)
    table = PlayTable((0,), ([1], [2]))
    assert type(table.power) is list and table.power == [[1], [2]]
    lists = PlayTable([0], [[1], [2]])
    assert PlayTable(lists.suit_of, lists.power).power is lists.power


def test_a_failed_contract_costs_its_value_or_fail_value_plus_the_penalty():
    """C6's penalty adds to the value lost, C7's ``fail_value`` replaces it: the cost the built-in scoring takes
    off (test_variants_scoring.py: test_C6_fail_penalty_adds_to_the_loss, test_C7_fail_value_replaces_the_value_lost)
    and the bots price a failure with."""
    grand = Contract("grand", 25, "no-trumps", 220, 10, partner_plays=False)
    assert grand.fail_cost == 220
    assert dataclasses.replace(grand, fail_penalty=100).fail_cost == 320
    assert dataclasses.replace(grand, fail_value=500).fail_cost == 500
    assert dataclasses.replace(grand, fail_value=500, fail_penalty=100).fail_cost == 600


def test_a_deal_everybody_passed_is_by_default_thrown_in_and_the_deal_passes_on():
    """Rule 13 as the auction rules' default (``AllPassed()``, ``THROWN_IN``): not played, no redeal by the same
    dealer (B10's redeals), the next deal shuffled (not B10's 'same-cards')."""
    assert AllPassed() == THROWN_IN
    assert (THROWN_IN.played_as, THROWN_IN.redeals, THROWN_IN.same_cards) == (None, 0, False)
    assert THROWN_IN.rule.startswith("rule 13:")
