"""The worked house-rule plugin of ``examples/house-rules``, installed like any third-party package.

These tests need ``pip install ./examples/house-rules``; without it they are skipped, except when
``FIVEHUNDRED_REQUIRE_EXAMPLE=1`` (set by ``.ci/run``, which installs it), where a missing package
fails them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from helpers import MISERE, MISERE_AUCTION, MISERE_CLEAN_PLAY, SUITED, E, N, S, W, act, legal, new_hand
from typer.testing import CliRunner

import fivehundred
from fivehundred.cli.app import app
from fivehundred.rules.cards import card_str
from fivehundred.rules.errors import IllegalActionError, RulesetError, UnknownNameError
from fivehundred.rules.loading import load_ruleset, ruleset_paths
from fivehundred.rules.manager import BLOCK_ENV, compile_rules, make_plugin_manager, set_plugin_manager

DIST = "fivehundred-misere-penalty"
REQUIRE_ENV = "FIVEHUNDRED_REQUIRE_EXAMPLE"

try:
    metadata.distribution(DIST)
    import fivehundred_misere_penalty
except (metadata.PackageNotFoundError, ImportError):
    if os.environ.get(REQUIRE_ENV):
        raise
    pytest.skip(f"the example plugin is not installed (pip install ./examples/house-rules; {REQUIRE_ENV}=1 "
                "makes this a failure)", allow_module_level=True)

RULESET = "pagat-misere-penalty"
FAILED_MISERE = f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S | AD 9D JK"
"""N bids misère, keeps the joker un-nominated and must play it on E's A♦ lead: N wins trick 2."""


@pytest.fixture
def fresh_manager() -> Iterator[None]:
    """Each test builds the process-wide plugin manager anew (after its env switches) and leaves none."""
    set_plugin_manager(None)
    yield
    set_plugin_manager(None)


def ruleset_file() -> Path:
    return ruleset_paths()[RULESET]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- installed: the plugin is found through its entry points --------------------------------


def test_the_package_registers_both_house_rules(fresh_manager: None) -> None:
    pm = fivehundred.rules.manager.plugin_manager()
    assert pm.get_plugin("misere-penalty") is fivehundred_misere_penalty
    assert pm.get_plugin("no-trumps-from") is not None
    from fivehundred.rules.explain import house_rule_sources

    sources = house_rule_sources()
    assert DIST in sources["misere-penalty"] and DIST in sources["no-trumps-from"]


def test_its_ruleset_loads_by_name_and_switches_the_rule_on(fresh_manager: None) -> None:
    rs = load_ruleset(RULESET)
    assert rs.house_rules == {"misere-penalty": {"points": 100}}
    assert ruleset_file().parent == Path(fivehundred_misere_penalty.__file__).parent


def test_a_failed_misere_gives_the_defenders_100_with_the_rule_and_0_without(fresh_manager: None) -> None:
    on = new_hand(MISERE, rules=compile_rules(load_ruleset(RULESET)))
    off = new_hand(MISERE, rules=compile_rules(load_ruleset("pagat-australian")))
    for st in (on, off):
        act(st, FAILED_MISERE)
        assert st.hands_log[0].tricks[1].winner == 0  # N won a trick: the misère failed
    assert on.hands_log[0].scores == [-250, 100]
    assert off.hands_log[0].scores == [-250, 0]


def test_a_made_misere_scores_as_without_the_rule(fresh_manager: None) -> None:
    st = new_hand(MISERE, rules=compile_rules(load_ruleset(RULESET)))
    act(st, f"{MISERE_AUCTION} 7H 6H JK {MISERE_CLEAN_PLAY}")
    assert st.hands_log[0].scores == [250, 0]


def test_the_points_are_an_option(fresh_manager: None, tmp_path: Path) -> None:
    path = write(tmp_path / "fifty.yaml", f"extends: {RULESET}\nhouse_rules:\n  misere-penalty: {{points: 50}}\n")
    st = new_hand(MISERE, rules=compile_rules(load_ruleset(path)))
    act(st, FAILED_MISERE)
    assert st.hands_log[0].scores == [-250, 50]


def test_no_trumps_from_7_drops_6nt_from_the_ladder(fresh_manager: None, tmp_path: Path) -> None:
    path = write(tmp_path / "nt7.yaml", "extends: pagat-australian\nhouse_rules:\n  no-trumps-from: {level: 7}\n")
    on = new_hand(MISERE, rules=compile_rules(load_ruleset(path)))
    off = new_hand(MISERE, rules=compile_rules(load_ruleset("pagat-australian")))
    assert "6NT" in legal(off) and "6NT" not in legal(on)
    assert {"6H", "7S", "7NT"} <= legal(on)
    with pytest.raises(ValueError, match="'6NT' is not a call"):
        on.parse_action("6NT")
    # misère still needs a standing 7-level bid: its requires_standing was renumbered with the ladder
    act(on, "6H")
    assert "misere" not in legal(on)
    act(on, "7S")
    assert "misere" in legal(on)
    assert [c.rung for c in on.rules.ladder] == list(range(len(on.rules.ladder)))


def test_a_game_under_the_ruleset_replays_as_valid(fresh_manager: None, tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    summary = fivehundred.simulate(games=4, seed=3, ruleset=RULESET, players="random", out=records)
    assert summary.games == 4
    report = fivehundred.validate([records])
    assert report.ok, [str(p) for p in report.problems]


def test_simulate_runs_with_its_ruleset_by_name_and_by_path(fresh_manager: None) -> None:
    runner = CliRunner()
    for ref in (RULESET, str(ruleset_file())):
        result = runner.invoke(app, ["simulate", "-r", ref, "-n", "5", "-p", "random", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["ruleset"] == RULESET


def test_rules_show_names_the_house_rule_and_its_package(fresh_manager: None) -> None:
    result = CliRunner().invoke(app, ["rules", "show", RULESET])
    assert result.exit_code == 0, result.output
    assert "misere-penalty (points: 100)" in result.stdout
    assert DIST in result.stdout


# --- not installed (or blocked): the ruleset is refused, naming the rule --------------------


def test_without_the_plugin_the_ruleset_file_is_refused_naming_the_rule(fresh_manager: None) -> None:
    path = ruleset_file()
    set_plugin_manager(make_plugin_manager(entry_points=False))
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    [problem] = info.value.problems
    assert problem.startswith(f"{path}:")
    assert "house_rules.misere-penalty: house rule 'misere-penalty' is not provided by any installed plugin" in problem


def test_a_blocked_plugin_is_absent_and_says_so(fresh_manager: None, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ruleset_file()
    monkeypatch.setenv(BLOCK_ENV, "misere-penalty")
    set_plugin_manager(None)
    with pytest.raises(UnknownNameError):
        load_ruleset(RULESET)  # its ruleset_paths hook is blocked too: the name is unknown
    with pytest.raises(RulesetError, match="'misere-penalty': its plugin is blocked by FIVEHUNDRED_BLOCK_PLUGINS"):
        load_ruleset(path)


def test_simulate_without_the_plugin_is_a_clean_user_error(fresh_manager: None) -> None:
    path = ruleset_file()
    set_plugin_manager(make_plugin_manager(entry_points=False))
    result = CliRunner().invoke(app, ["simulate", "-r", str(path), "-n", "1"])
    assert result.exit_code == 1
    assert "'misere-penalty' is not provided by any installed plugin" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("option", "words"), [
    ("misere-penalty: {points: lots}", "misere-penalty: points must be a whole number, not 'lots'"),
    ("misere-penalty: {pionts: 100}", "unknown option of misere-penalty (it takes: points)"),
    ("no-trumps-from: {level: seven}", "no-trumps-from: level must be a bid level such as 7, not 'seven'"),
])
def test_the_plugins_check_their_options_at_load_time(fresh_manager: None, tmp_path: Path, option: str,
                                                      words: str) -> None:
    path = write(tmp_path / "bad.yaml", f"extends: pagat-australian\nhouse_rules:\n  {option}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    [problem] = info.value.problems
    assert problem.startswith(f"{path}:3: house_rules.") and problem.endswith(words), problem


# --- pass-left: a house rule that adds a step to the hand -----------------------------------------

PASS_RULESET = "pagat-pass-left"


def test_pass_left_every_player_passes_a_card_left_before_the_auction(fresh_manager: None) -> None:
    from fivehundred.engine.state import Phase

    st = new_hand(SUITED, dealer=W, rules=compile_rules(load_ruleset(PASS_RULESET)))
    assert st.phase == Phase.STEP and st.current_player() == N  # from the dealer's left
    assert legal(st) == {f"pass {c}" for c in SUITED[N].split()}
    with pytest.raises(IllegalActionError) as caught:
        st.apply(st.parse_action("pass AH"))  # not N's card
    assert caught.value.rule.startswith("house rule pass-left") and "not in the hand" in str(caught.value)
    for card in ("5S", "5C", "5D"):
        st.apply(st.parse_action(f"pass {card}"))
        assert card in {card_str(c) for c in st.hand(st.current_player() - 1)}  # nothing moves until all chose
    st.apply(st.parse_action("pass 5H"))  # W, the dealer, chooses last: now the cards change hands
    assert st.phase == Phase.AUCTION and st.current_player() == N
    held = [{card_str(c) for c in st.hand(seat)} for seat in range(4)]
    assert "5H" in held[N] and "5S" in held[E] and "5C" in held[S] and "5D" in held[W]
    assert "5S" not in held[N] and "5H" not in held[W]
    assert st.observation(E).steps == {}  # a passed card is not shown to the table


def test_pass_left_games_are_recorded_and_validated_through_the_step(fresh_manager: None, tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    summary = fivehundred.simulate(games=6, seed=5, ruleset=PASS_RULESET, players="random", out=records)
    assert summary.games == 6
    games = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    assert all(set(h["passed_left"]) == {"N", "E", "S", "W"} for g in games for h in g["hands"] if not h.get("misdeal"))
    assert fivehundred.validate([records]).problems == []
    hand = games[0]["hands"][0]
    giver = next(iter(hand["passed_left"]))
    hand["passed_left"][giver] = next(c for c in hand["kitty"])  # a card the giver never held
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(games[0]) + "\n", encoding="utf-8")
    problems = fivehundred.validate([bad]).problems
    assert len(problems) == 1 and problems[0].rule.startswith("house rule pass-left")


def test_the_readme_example_naming_the_house_rule_loads_as_printed(tmp_path: Path) -> None:
    from readme_examples import yaml_examples

    examples = [e for e in yaml_examples() if "misere-penalty" in e.text]  # the README's and docs/plugins.md's
    assert examples
    for example in examples:
        ruleset = load_ruleset(example.write(tmp_path))
        compile_rules(ruleset)
        assert ruleset.house_rules == {"misere-penalty": {"points": 100}}
