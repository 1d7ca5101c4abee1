"""A plugin that answers a hook with the wrong type is named, with the hook and the answer, once; never a
bare TypeError from inside the engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred import hookimpl
from fivehundred.rules.manager import compile_rules, make_plugin_manager, set_plugin_manager


class Scorer:
    """Answers every hand's score with ``points``."""

    def __init__(self, points: Any):
        self.points = points

    @hookimpl(tryfirst=True)
    def fivehundred_score_hand(self, ruleset: Any, outcome: Any) -> Any:
        return self.points


class Ladder:
    @hookimpl(tryfirst=True)
    def fivehundred_bid_ladder(self, ruleset: Any) -> Any:
        return 42 if ruleset.game.target == 300 else None


class Ender:
    @hookimpl(tryfirst=True)
    def fivehundred_game_result(self, ruleset: Any, totals: Any, outcome: Any) -> Any:
        return "over"


@pytest.fixture
def plugin(request: pytest.FixtureRequest) -> Iterator[str]:
    obj = request.param
    pm = make_plugin_manager(entry_points=False, extra=())
    pm.register(obj, name="bad-plugin")
    set_plugin_manager(pm)
    try:
        yield "bad-plugin"
    finally:
        set_plugin_manager(None)


@pytest.mark.parametrize("plugin", [Scorer("lots"), Scorer([1.5, None]), Scorer([10]), Scorer([True, 0])],
                         indirect=True, ids=["string", "floats-and-none", "one-team", "bool"])
def test_a_wrong_score_names_the_plugin(plugin: str) -> None:
    with pytest.raises(fivehundred.PluginError) as caught:
        fivehundred.simulate(1, 0, REF, "random")
    message = str(caught.value)
    assert f"plugin {plugin!r} answered fivehundred_score_hand for ruleset {REF!r}" in message
    assert "not a list of 2 integers (one per team)" in message


@pytest.mark.parametrize("plugin", [Scorer([1.5, None])], indirect=True)
def test_with_workers_the_wrong_score_is_one_error(plugin: str) -> None:
    result = run("simulate", "-n", "4", "-p", "random", "--workers", "2")
    output = one_line_error(result, f"plugin {plugin!r} answered fivehundred_score_hand")
    assert output.count("error:") == 1 and "TypeError" not in output


@pytest.mark.parametrize("plugin", [Ender()], indirect=True)
def test_a_wrong_game_result_names_the_plugin(plugin: str) -> None:
    with pytest.raises(fivehundred.PluginError, match=f"plugin {plugin!r} answered fivehundred_game_result"):
        fivehundred.simulate(1, 0, REF, "random")


@pytest.mark.parametrize("plugin", [Ladder()], indirect=True)
def test_a_wrong_ladder_is_found_when_the_ruleset_is_compiled(plugin: str, tmp_path: Path) -> None:
    short = write(tmp_path / "short.yaml", f"extends: {REF}\ngame: {{target: 300}}\n")
    with pytest.raises(fivehundred.PluginError, match=f"plugin {plugin!r} answered fivehundred_bid_ladder for "
                       "ruleset 'short' with 42, not a non-empty list of Contract"):
        compile_rules(fivehundred.load_ruleset(short))
    one_line_error(run("validate", short), "0 of 1 valid", "fivehundred_bid_ladder")
    one_line_error(run("simulate", "-n", "1", "-r", short), "fivehundred_bid_ladder")


def test_a_house_rule_of_a_blocked_plugin_says_it_is_blocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVEHUNDRED_BLOCK_PLUGINS", "raiser,other")
    set_plugin_manager(None)
    try:
        path = write(tmp_path / "house.yaml", f"extends: {REF}\nhouse_rules:\n  raiser: {{}}\n  nothing: {{}}\n")
        with pytest.raises(fivehundred.RulesetError) as caught:
            fivehundred.load_ruleset(path)
    finally:
        monkeypatch.delenv("FIVEHUNDRED_BLOCK_PLUGINS")
        set_plugin_manager(None)
    blocked, unknown = caught.value.problems
    assert blocked == f"{path}:3: house_rules.raiser: house rule 'raiser': its plugin is blocked by " \
        "FIVEHUNDRED_BLOCK_PLUGINS"
    assert unknown.startswith(f"{path}:4: house_rules.nothing: house rule 'nothing' is not provided")
    assert unknown.endswith("plugins blocked by FIVEHUNDRED_BLOCK_PLUGINS: raiser, other)")
