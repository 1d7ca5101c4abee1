"""What the package works out once and keeps: the compiled rules, by the ruleset's content and plugin manager,
bounded; the players' tables, kept with the rules they are worked out from."""

from __future__ import annotations

import gc
import weakref

import fivehundred
from fivehundred.bots.evaluation import _info
from fivehundred.rules import manager
from fivehundred.rules.manager import RULES_KEPT, compile_rules, make_plugin_manager, player_factories

RULESET = fivehundred.load_ruleset("pagat-australian")


class _Marker:
    """Put in ``Rules.derived``: gone when the rules are (``Rules`` has no weak references)."""


def _watched(rules: manager.Rules) -> weakref.ref[_Marker]:
    marker = rules.derived["test"] = _Marker()
    return weakref.ref(marker)


def _renamed(i: int) -> fivehundred.Ruleset:
    return RULESET.model_copy(update={"description": f"{RULESET.description} ({i})"})


def test_rules_are_compiled_once_per_content_and_manager() -> None:
    pm = make_plugin_manager()
    rules = compile_rules(RULESET, pm)
    assert compile_rules(RULESET.model_copy(), pm) is rules  # the same content: the same rules
    assert compile_rules(_renamed(0), pm) is not rules
    other = make_plugin_manager()
    assert compile_rules(RULESET, other) is not rules and compile_rules(RULESET, other).pm is other


def test_the_compiled_rules_kept_are_bounded_and_the_least_recently_used_go_first() -> None:
    pm = make_plugin_manager()
    first = compile_rules(_renamed(-1), pm)
    kept = _watched(compile_rules(_renamed(-2), pm))
    for i in range(RULES_KEPT - 1):
        compile_rules(_renamed(i), pm)
        assert compile_rules(_renamed(-1), pm) is first  # used again: kept
    assert len(manager._compiled) == RULES_KEPT
    gc.collect()
    assert kept() is None  # the least recently used went, and nothing else held it
    assert compile_rules(_renamed(-1), pm) is first


def test_a_plugin_manager_is_released_once_its_rules_are() -> None:
    pm = make_plugin_manager()
    rules = _watched(compile_rules(RULESET, pm))
    assert player_factories(pm) is player_factories(pm)  # kept while the manager lives
    gone = weakref.ref(pm)
    del pm
    for i in range(RULES_KEPT):
        compile_rules(_renamed(i))
    gc.collect()
    assert gone() is None and rules() is None


def test_the_players_tables_are_kept_with_their_rules() -> None:
    pm = make_plugin_manager()
    rules, other = compile_rules(RULESET, pm), compile_rules(_renamed(0), pm)
    assert _info(rules) is _info(rules) and _info(rules).rules is rules
    assert _info(other) is not _info(rules) and rules.derived["evaluation"] is _info(rules)
