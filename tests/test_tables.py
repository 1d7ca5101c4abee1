"""The plain values and tables the engine executes (``fivehundred.rules.tables``), checked where the
mutation run (``mutation/run.py``, docs/testing.md) found that a wrong rule would have passed the rest
of the suite: the contract's own test of the tricks, rule 22's joker leads, and the defaults a plugin
building its own contract or table relies on."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import NS

from fivehundred.rules.tables import ANY_SUIT, Contract, HandOutcome, JokerRules, PlayTable

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
