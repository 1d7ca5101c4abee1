"""Every hook of ``fivehundred.rules.hookspecs`` answered during a passing test of this session.

The census (``hookcensus.py``, installed by ``conftest.py``) watches the plugin managers the package
makes while the tests run; ``conftest.py`` puts this test last.  It is taken only when the whole
suite runs: a session of a few files or of deselected tests does not exercise everything.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hookcensus import CENSUS, HookCensus, hook_names

from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.state import new_game
from fivehundred.rules.manager import Rules, make_plugin_manager
from fivehundred.rules.ruleset import Ruleset


def test_every_hookspec_answered_during_a_passing_test() -> None:
    partial = CENSUS.partial(Path(__file__).parent)
    if partial is not None:
        pytest.skip(f"the hook census is taken when the whole suite runs: {partial}")
    assert len(hook_names()) >= 10
    failure = CENSUS.verdict(Path(__file__).parent)
    assert failure is None, failure


# --- the census itself ---------------------------------------------------------------------------


def test_the_hooks_are_read_from_the_hookspecs_module_now() -> None:
    pm = make_plugin_manager(entry_points=False)
    assert hook_names() == sorted(name for name in dir(pm.hook) if name.startswith("fivehundred_"))


def test_a_hook_counts_when_it_answers_during_a_passing_test(pagat: Ruleset) -> None:
    census = HookCensus()
    pm = make_plugin_manager(entry_points=False)
    census.watch(pm)
    census.watch(pm)  # watched once: a second watch adds no second monitor

    census.start("passing")
    assert pm.hook.fivehundred_trick_check(ruleset=pagat) is None  # no answer: the reference has no check
    assert pm.hook.fivehundred_build_deck(ruleset=pagat)
    assert pm.hook.fivehundred_house_rules() == []  # no built-in implementation: nothing answered
    pm.hook.fivehundred_register_players(register=lambda name, factory: None)  # answers through its callback
    for when in ("setup", "call", "teardown"):
        census.report(when, passed=True, failed=False)
    census.finish()
    assert census.exercised == {"fivehundred_build_deck": "passing", "fivehundred_register_players": "passing"}

    census.start("failing")
    assert pm.hook.fivehundred_deal_pattern(ruleset=pagat)
    census.report("call", passed=False, failed=True)
    census.finish()
    census.start("skipped")
    assert pm.hook.fivehundred_deal_pattern(ruleset=pagat)
    census.report("call", passed=False, failed=False)
    census.finish()
    assert pm.hook.fivehundred_deal_pattern(ruleset=pagat)  # between tests: not counted either
    assert "fivehundred_deal_pattern" not in census.exercised
    assert "fivehundred_deal_pattern" in census.unexercised() and "fivehundred_build_deck" not in census.unexercised()


def test_the_per_hand_callers_are_counted_too(pagat: Ruleset) -> None:
    """The scoring hooks run without pluggy once compiled (``Rules.score_hand``): the census sees them."""
    pm = make_plugin_manager(entry_points=False)
    rules = Rules(pagat, pm)
    state, rng = new_game(rules, "census")
    pluggy_calls: list[str] = []
    undo = pm.add_hookcall_monitoring(lambda name, impls, kwargs: pluggy_calls.append(name), lambda *args: None)
    state.play_out([RandomPlayer(seat, random.Random(seat)) for seat in range(4)], rng, max_deals=50)
    undo()
    assert state.is_terminal()
    assert "fivehundred_score_hand" not in pluggy_calls  # the compiled caller, not pluggy, ran the hook
    assert {"fivehundred_score_hand", "fivehundred_game_result"} <= CENSUS.pending


def test_workers_censuses_merge_into_one_verdict(tmp_path: Path) -> None:
    """Under pytest-xdist each worker counts its own tests' answers; the controller's verdict is
    taken on their union, and only for a session of the whole suite."""
    (tmp_path / "test_a.py").write_text("")
    (tmp_path / "test_b.py").write_text("")
    names = hook_names()
    first, second = HookCensus(), HookCensus()
    first.exercised = {name: "test_a.py::t" for name in names[:3]}
    second.exercised = {name: "test_b.py::t" for name in names[2:]}
    for census in (first, second):
        census.test_modules = {"test_a.py", "test_b.py"}
    controller = HookCensus()
    controller.merge(first.export())
    assert controller.verdict(tmp_path) is not None and names[-1] in controller.verdict(tmp_path)  # type: ignore[operator]
    controller.merge(second.export())
    assert controller.exercised[names[2]] == "test_a.py::t"  # the first worker's test is kept
    assert controller.verdict(tmp_path) is None
    partial = HookCensus()
    partial.merge({"exercised": {}, "modules": ["test_a.py"], "deselected": 0})
    assert partial.verdict(tmp_path) is None  # not the whole suite: no verdict
