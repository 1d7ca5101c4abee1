"""The plugin system: registration, overriding and wrapping hooks, errors, env switches, entry points.

Every hook of ``fivehundred.rules.hookspecs`` is exercised here by a plugin of the test's own, and the
meta-tests at the end fail when a hook is added without documentation; ``test_hook_census.py`` fails
the whole suite when a hook never answers during a passing test.
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
import sys
import textwrap
import types
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pluggy
import pytest

import fivehundred
from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.state import GameState
from fivehundred.rules import hookspecs
from fivehundred.rules.auction import SingleRoundAuction
from fivehundred.rules.errors import PluginError, UnknownNameError
from fivehundred.rules.loading import load_ruleset, ruleset_paths
from fivehundred.rules.manager import (
    BLOCK_ENV,
    BUILTIN_PLUGINS,
    TRACE_ENV,
    Rules,
    compile_rules,
    make_plugin_manager,
    player_factories,
    plugin_manager,
    set_plugin_manager,
)
from fivehundred.rules.markers import applies_when
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.tables import Contract, GameResult, HandOutcome, JokerRules, PlayTable

hookimpl = fivehundred.hookimpl
REF = "pagat-australian"
HOOK_NAMES = sorted(name for name, _ in inspect.getmembers(hookspecs, inspect.isfunction)
                    if hasattr(getattr(hookspecs, name), "fivehundred_spec"))


@pytest.fixture(autouse=True)
def _restore_global_manager() -> Iterator[None]:
    """Tests that install a manager (or set the env switches) leave none behind."""
    yield
    set_plugin_manager(None)


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_ruleset(REF)


@pytest.fixture
def install() -> Iterator[Callable[[pluggy.PluginManager], pluggy.PluginManager]]:
    """Install a manager as the process-wide one for the test; restored afterwards."""

    def _install(pm: pluggy.PluginManager) -> pluggy.PluginManager:
        set_plugin_manager(pm)
        return pm

    yield _install
    set_plugin_manager(None)


def bots(players: int, seed: int = 7) -> list[RandomPlayer]:
    return [RandomPlayer(seat, random.Random(f"{seed}:{seat}")) for seat in range(players)]


def play_out_hand(state: GameState, players: Sequence[Any]) -> None:
    while state.current_player() >= 0:
        seat = state.current_player()
        state.apply(players[seat].act(state, state.legal_actions()))


def play_hand(rules: Rules, deal_seed: int = 1) -> GameState:
    """Deal (redealing after an all-pass) and play until one hand has been scored."""
    state = GameState(rules, first_dealer=0)
    rng = random.Random(deal_seed)
    players = bots(rules.players)
    while True:
        state.deal(rng)
        play_out_hand(state, players)
        if state.hands_log[-1].scores:
            return state


def module_plugin(name: str, *functions: Callable[..., Any]) -> types.ModuleType:
    """A plugin as a module object, as third-party plugins are; pluggy names it by ``__name__``."""
    module = types.ModuleType(name)
    for f in functions:
        setattr(module, f.__name__, f)
    return module


# --- registration and overriding ----------------------------------------------------------


def test_hookimpl_is_the_fivehundred_marker() -> None:
    assert isinstance(fivehundred.hookimpl, pluggy.HookimplMarker)
    assert fivehundred.hookimpl.project_name == "fivehundred"


def test_builtins_are_registered_by_module_name() -> None:
    pm = make_plugin_manager(entry_points=False)
    for name in BUILTIN_PLUGINS:
        assert pm.get_plugin(name) is sys.modules[name]
    assert pm.project_name == "fivehundred"


def test_make_plugin_manager_registers_extra_plugins() -> None:
    class MyPlugin:
        @hookimpl
        def fivehundred_house_rules(self) -> list[str]:
            return ["my-rule"]

    plugin = MyPlugin()
    pm = make_plugin_manager(entry_points=False, extra=[plugin])
    assert pm.is_registered(plugin)
    assert ["my-rule"] in pm.hook.fivehundred_house_rules()


def test_a_misspelt_hook_is_refused() -> None:
    class Typo:
        @hookimpl
        def fivehundred_score_hands(self, ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
            return [0, 0]

    with pytest.raises(pluggy.PluginValidationError, match="fivehundred_score_hands"):
        make_plugin_manager(entry_points=False, extra=[Typo()])


def test_a_plugin_overriding_score_hand_changes_the_scores(ruleset: Ruleset) -> None:
    seen: list[HandOutcome] = []

    class FlatScores:
        @hookimpl
        def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
            seen.append(outcome)
            return [7, 11]

    pm = make_plugin_manager(entry_points=False, extra=[FlatScores()])
    state = play_hand(Rules(ruleset, pm))
    log = state.hands_log[-1]
    assert log.scores == [7, 11]
    assert state.totals == [7, 11]
    assert len(seen) == 1 and seen[0].contract == log.contract


def test_a_plugin_returning_none_leaves_the_decision_to_the_builtin(ruleset: Ruleset) -> None:
    class Abstains:
        @hookimpl
        def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> None:
            return None

    baseline = play_hand(Rules(ruleset, make_plugin_manager(entry_points=False)))
    state = play_hand(Rules(ruleset, make_plugin_manager(entry_points=False, extra=[Abstains()])))
    assert state.hands_log[-1].scores == baseline.hands_log[-1].scores


def test_a_wrapper_adjusts_the_builtin_result(ruleset: Ruleset) -> None:
    class Doubler:
        @hookimpl(wrapper=True)
        def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> Iterator[None]:
            scores = yield
            return [2 * s for s in scores]

    baseline = play_hand(Rules(ruleset, make_plugin_manager(entry_points=False)))
    doubled = play_hand(Rules(ruleset, make_plugin_manager(entry_points=False, extra=[Doubler()])))
    base_log, log = baseline.hands_log[-1], doubled.hands_log[-1]
    assert log.contract == base_log.contract and log.tricks_won == base_log.tricks_won  # the same hand
    assert any(base_log.scores)
    assert log.scores == [2 * s for s in base_log.scores]


def test_deal_pattern_hook(ruleset: Ruleset) -> None:
    class BigKittyLast:
        @hookimpl
        def fivehundred_deal_pattern(self, ruleset: Ruleset) -> list[tuple[str, int]]:
            return [("each", 10), ("kitty", 3)]

    rules = Rules(ruleset, make_plugin_manager(entry_points=False, extra=[BigKittyLast()]))
    assert rules.pattern == (("each", 10), ("kitty", 3))
    hands, kitty, _dead = rules.deal_slots
    assert hands[0] == tuple(range(10))
    assert kitty == (40, 41, 42)


def test_first_dealer_hook(ruleset: Ruleset) -> None:
    class SouthDeals:
        @hookimpl
        def fivehundred_first_dealer(self, ruleset: Ruleset, rng: random.Random) -> int:
            return 2

    rules = Rules(ruleset, make_plugin_manager(entry_points=False, extra=[SouthDeals()]))
    assert GameState(rules, rng=random.Random(3)).dealer == 2


def test_the_first_dealer_is_asked_once_and_a_crash_names_its_plugin(ruleset: Ruleset) -> None:
    # The first-dealer hook draws from the game's generator, so its direct call (the built-in alone
    # answers it) must not ask it again through pluggy to name the culprit.
    draws = []

    class BrokenRandom(random.Random):
        def random(self) -> float:
            draws.append(1)
            raise ZeroDivisionError("no dealer")

    rules = Rules(ruleset, make_plugin_manager(entry_points=False))
    with pytest.raises(PluginError, match=r"'fivehundred.plugins.deck' crashed in fivehundred_first_dealer: "
                                          r"ZeroDivisionError: no dealer"):
        GameState(rules, rng=BrokenRandom(0))
    assert len(draws) == 1
    assert GameState(rules, rng=random.Random(3)).dealer == int(random.Random(3).random() * 4)


def test_build_deck_and_bid_ladder_wrappers(ruleset: Ruleset) -> None:
    class NoJoker:
        @hookimpl(wrapper=True)
        def fivehundred_build_deck(self, ruleset: Ruleset) -> Iterator[None]:
            deck = yield
            return [c for c in deck if not fivehundred.rules.cards.is_joker(c)]

    class DoubleValues:
        @hookimpl(wrapper=True)
        def fivehundred_bid_ladder(self, ruleset: Ruleset) -> Iterator[None]:
            ladder = yield
            return [dataclasses.replace(c, value=2 * c.value) for c in ladder]

    base = Rules(ruleset, make_plugin_manager(entry_points=False))
    rules = Rules(ruleset, make_plugin_manager(entry_points=False, extra=[NoJoker(), DoubleValues()]))
    assert len(rules.deck) == len(base.deck) - 1
    assert [c.value for c in rules.ladder] == [2 * c.value for c in base.ladder]
    assert rules.auction.ladder == rules.ladder  # fivehundred_auction_rules receives the adjusted ladder


def test_auction_rules_hook(ruleset: Ruleset) -> None:
    class OneRound:
        @hookimpl
        def fivehundred_auction_rules(self, ruleset: Ruleset, ladder: Sequence[Contract]) -> SingleRoundAuction:
            return SingleRoundAuction(ladder)

    def two_bids_two_passes(rules: Rules) -> GameState:
        state = GameState(rules, first_dealer=0)
        state.deal(random.Random(1))
        for i in range(4):
            legal = state.legal_actions()
            state.apply(legal[1] if i < 2 else legal[0])  # the lowest bid, twice; then two passes
        return state

    single = Rules(ruleset, make_plugin_manager(entry_points=False, extra=[OneRound()]))
    assert type(single.auction) is SingleRoundAuction
    contract = two_bids_two_passes(single).hands_log[-1].contract
    assert contract is not None and contract.rung == 1  # each player called once: the auction is over
    builtin = Rules(ruleset, make_plugin_manager(entry_points=False))
    assert two_bids_two_passes(builtin).hands_log[-1].contract is None  # the first bidder may call again


def test_joker_rules_and_trick_table_hooks(ruleset: Ruleset) -> None:
    class CompulsoryJoker:
        @hookimpl(wrapper=True)
        def fivehundred_joker_rules(self, ruleset: Ruleset, contract: Contract) -> Iterator[None]:
            rules = yield
            return rules if rules.as_trump else dataclasses.replace(rules, void_play="compulsory")

    class Tagged:
        @hookimpl(wrapper=True)
        def fivehundred_trick_table(self, ruleset: Ruleset, contract: Contract, joker: JokerRules,
                                    nomination: int | None, deck: Sequence[int]) -> Iterator[None]:
            table = yield
            table.extra["tagged"] = contract.call
            return table

    rules = Rules(ruleset, make_plugin_manager(entry_points=False, extra=[CompulsoryJoker(), Tagged()]))
    no_trumps = next(c for c in rules.ladder if c.kind == "no-trumps")
    hearts = next(c for c in rules.ladder if c.trump is not None)
    assert rules.joker_rules(no_trumps).void_play == "compulsory"
    assert rules.joker_rules(hearts).as_trump
    table = rules.play_table(no_trumps)
    assert isinstance(table, PlayTable)
    assert table.joker_void_compulsory
    assert table.extra["tagged"] == no_trumps.call


def test_game_result_hook_can_end_the_game(ruleset: Ruleset) -> None:
    class OneHandGame:
        @hookimpl
        def fivehundred_game_result(self, ruleset: Ruleset, totals: Sequence[int],
                                    outcome: HandOutcome) -> GameResult:
            return GameResult(outcome.contractor_team, "one hand only (house rule)")

    state = play_hand(Rules(ruleset, make_plugin_manager(entry_points=False, extra=[OneHandGame()])))
    assert state.is_terminal()
    assert state.result is not None and state.result.reason == "one hand only (house rule)"


# --- house rules, rulesets and players from plugins -----------------------------------------


class SpadesDouble:
    """A house rule: spade contracts score double when ``house_rules: {spades-double: {}}``."""

    @hookimpl
    def fivehundred_house_rules(self) -> list[str]:
        return ["spades-double"]

    @hookimpl(wrapper=True)
    def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> Iterator[None]:
        scores = yield
        if "spades-double" not in ruleset.house_rules or outcome.contract.trump != 0:
            return scores
        factor = ruleset.house_rules["spades-double"].get("factor", 2)
        return [factor * s for s in scores]


def test_an_installed_house_rule_loads_and_is_switched_by_the_ruleset(tmp_path: Path, install: Any) -> None:
    install(make_plugin_manager(entry_points=False, extra=[SpadesDouble()]))
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {REF}\nhouse_rules:\n  spades-double: {{factor: 3}}\n", encoding="utf-8")
    on, off = load_ruleset(path), load_ruleset(REF)
    assert on.house_rules == {"spades-double": {"factor": 3}}
    rules_on, rules_off = compile_rules(on), compile_rules(off)
    spades = next(c for c in rules_on.ladder if c.trump == 0 and c.tricks == 7)
    outcome = HandOutcome(spades, contractor=0, contractor_team=0, tricks_by_seat=(4, 1, 4, 1),
                          tricks_by_team=(8, 2), made=True, tricks_played=10, hand_size=10, side=(0, 2))
    assert rules_off.score_hand(outcome) == [spades.value, 20]
    assert rules_on.score_hand(outcome) == [3 * spades.value, 60]


def test_a_plugin_ships_rulesets_known_by_name(tmp_path: Path, install: Any) -> None:
    variant = tmp_path / "plugin-variant.yaml"
    variant.write_text(f"extends: {REF}\ngame: {{target: 300}}\n", encoding="utf-8")

    class ShipsRulesets:
        @hookimpl
        def fivehundred_ruleset_paths(self) -> list[Path]:
            return [variant]

    install(make_plugin_manager(entry_points=False, extra=[ShipsRulesets()]))
    assert ruleset_paths()["plugin-variant"] == variant
    assert ruleset_paths()[REF].exists()  # the bundled ones stay
    assert load_ruleset("plugin-variant").game.target == 300


def test_a_plugin_cannot_shadow_a_bundled_ruleset(tmp_path: Path, install: Any) -> None:
    impostor = tmp_path / f"{REF}.yaml"
    impostor.write_text(f"extends: {REF}\n", encoding="utf-8")

    class Shadows:
        @hookimpl
        def fivehundred_ruleset_paths(self) -> list[Path]:
            return [impostor]

    install(make_plugin_manager(entry_points=False, extra=[Shadows()]))
    assert ruleset_paths()[REF] != impostor


def test_check_ruleset_hook_adds_problems(tmp_path: Path, install: Any) -> None:
    class NoLowTargets:
        @hookimpl
        def fivehundred_check_ruleset(self, ruleset: Ruleset) -> list[tuple[str, str]]:
            return [("game", "a target under 300 ends too soon")] if ruleset.game.target < 300 else []

    install(make_plugin_manager(entry_points=False, extra=[NoLowTargets()]))
    path = tmp_path / "short.yaml"
    path.write_text(f"extends: {REF}\ngame:\n  target: 200\n", encoding="utf-8")
    with pytest.raises(fivehundred.RulesetError) as info:
        load_ruleset(path)
    assert info.value.problems == [f"{path}:2: game: a target under 300 ends too soon"]
    load_ruleset(REF)


class CountingPlayer(RandomPlayer):
    created: ClassVar[list[int]] = []

    def __init__(self, seat: int, rng: random.Random):
        super().__init__(seat, rng)
        CountingPlayer.created.append(seat)


class RegistersPlayers:
    @hookimpl
    def fivehundred_register_players(self, register: Callable[..., None]) -> None:
        register("myname", CountingPlayer)


def test_register_players_adds_a_player_usable_by_name(install: Any) -> None:
    install(make_plugin_manager(entry_points=False, extra=[RegistersPlayers()]))
    assert {"random", "myname"} <= set(player_factories())
    CountingPlayer.created.clear()
    summary = fivehundred.simulate(games=3, seed=4, ruleset=REF, players="myname")
    assert summary.games == 3
    assert summary.players == ["myname"] * 4
    assert sorted(set(CountingPlayer.created)) == [0, 1, 2, 3]
    assert len(CountingPlayer.created) == 3 * 4
    mixed = fivehundred.simulate(games=2, seed=4, ruleset=REF, players="myname,random,myname,random")
    assert mixed.players == ["myname", "random", "myname", "random"]


def test_an_unknown_player_names_the_known_ones(install: Any) -> None:
    install(make_plugin_manager(entry_points=False, extra=[RegistersPlayers()]))
    with pytest.raises(UnknownNameError, match=r"unknown player 'nobody'.*myname.*random"):
        fivehundred.simulate(games=1, players="nobody")


def test_every_registered_builtin_player_can_be_built(ruleset: Ruleset) -> None:
    from fivehundred.rules.manager import make_player

    pm = make_plugin_manager(entry_points=False)
    names = player_factories(pm)
    assert {"random", "heuristic"} <= set(names)
    for name in names:
        player = make_player(name, 0, random.Random(0), pm)
        state = GameState(Rules(ruleset, pm), first_dealer=0)
        state.deal(random.Random(0))
        assert player.act(state, state.legal_actions()) in state.legal_actions(), name


# --- errors from plugins -------------------------------------------------------------------


@hookimpl
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    raise ZeroDivisionError("boom in scoring")


def test_a_crashing_plugin_raises_plugin_error_naming_plugin_and_hook(ruleset: Ruleset) -> None:
    crashy = module_plugin("crashy_scoring", fivehundred_score_hand)
    rules = Rules(ruleset, make_plugin_manager(entry_points=False, extra=[crashy]))
    with pytest.raises(PluginError) as info:
        play_hand(rules)
    message = str(info.value)
    assert "'crashy_scoring'" in message
    assert "fivehundred_score_hand" in message
    assert "ZeroDivisionError: boom in scoring" in message
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_a_crashing_class_plugin_is_named_as_registered(ruleset: Ruleset) -> None:
    class BadDeck:
        @hookimpl
        def fivehundred_build_deck(self, ruleset: Ruleset) -> list[int]:
            return [1 // 0]

    plugin = BadDeck()
    pm = make_plugin_manager(entry_points=False, extra=[plugin])
    with pytest.raises(PluginError, match=rf"plugin '{pm.get_name(plugin)}' crashed in fivehundred_build_deck"):
        Rules(ruleset, pm)


def test_a_crashing_wrapper_is_named(ruleset: Ruleset) -> None:
    class BadWrapper:
        @hookimpl(wrapper=True)
        def fivehundred_trick_table(self, ruleset: Ruleset, contract: Contract, joker: JokerRules,
                                    nomination: int | None, deck: Sequence[int]) -> Iterator[None]:
            table = yield
            raise KeyError(f"no table for {table}")

    plugin = BadWrapper()
    pm = make_plugin_manager(entry_points=False, extra=[plugin])
    rules = Rules(ruleset, pm)
    with pytest.raises(PluginError, match=rf"'{pm.get_name(plugin)}' crashed in fivehundred_trick_table: KeyError"):
        rules.play_table(rules.ladder[0])


def test_input_errors_from_plugins_pass_through_unwrapped(ruleset: Ruleset) -> None:
    class Strict:
        @hookimpl
        def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
            raise fivehundred.IllegalActionError("no", rule="house rule 1")

    with pytest.raises(fivehundred.IllegalActionError):
        play_hand(Rules(ruleset, make_plugin_manager(entry_points=False, extra=[Strict()])))


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    raise RuntimeError("boom in check")


@hookimpl
def fivehundred_house_rules() -> list[str]:
    raise RuntimeError("boom in house rules")


@hookimpl
def fivehundred_ruleset_paths() -> list[Path]:
    raise RuntimeError("boom in ruleset paths")


@hookimpl
def fivehundred_register_players(register: Callable[..., None]) -> None:
    raise RuntimeError("boom in players")


def _simulate_one() -> None:
    fivehundred.simulate(games=1, ruleset=load_ruleset(REF), players="random")


@pytest.mark.parametrize(
    ("hook", "trigger"),
    [
        (fivehundred_check_ruleset, lambda: load_ruleset(REF)),
        (fivehundred_house_rules, lambda: load_ruleset(REF)),
        (fivehundred_ruleset_paths, lambda: load_ruleset(REF)),
        (fivehundred_register_players, _simulate_one),
    ],
    ids=["check_ruleset", "house_rules", "ruleset_paths", "register_players"],
)
def test_a_crashing_discovery_hook_raises_plugin_error(hook: Callable[..., Any], trigger: Callable[[], Any],
                                                       install: Any) -> None:
    # The "all implementations run" hooks are called through pm.hook directly (not the facade), so a
    # crash there escapes as a bare exception: a traceback in the CLI instead of a named plugin.
    install(make_plugin_manager(entry_points=False, extra=[module_plugin("crashy_discovery", hook)]))
    with pytest.raises(PluginError, match=rf"'crashy_discovery' crashed in {hook.__name__}"):
        trigger()


def test_a_blocked_builtin_is_reported_when_needed(ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BLOCK_ENV, "fivehundred.plugins.scoring")
    rules = Rules(ruleset, make_plugin_manager(entry_points=False))
    with pytest.raises(PluginError, match="no plugin answered score_hand"):
        play_hand(rules)


# --- environment switches ------------------------------------------------------------------


def test_block_env_blocks_named_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BLOCK_ENV, "fivehundred.plugins.players, fivehundred.plugins.scoring")
    pm = make_plugin_manager(entry_points=False)
    for name in ("fivehundred.plugins.players", "fivehundred.plugins.scoring"):
        assert pm.is_blocked(name)
        assert pm.get_plugin(name) is None
    assert pm.get_plugin("fivehundred.plugins.deck") is not None
    assert "random" not in player_factories(pm)


def test_a_blocked_builtin_can_be_replaced(ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    class Replacement:
        @hookimpl
        def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
            return [1, 2]

    monkeypatch.setenv(BLOCK_ENV, "fivehundred.plugins.scoring")
    pm = make_plugin_manager(entry_points=False, extra=[Replacement()])
    rules = Rules(ruleset, pm)
    outcome = HandOutcome(rules.ladder[0], 0, 0, (3, 2, 3, 2), (6, 4), True, 10, 10, (0, 2))
    assert rules.score_hand(outcome) == [1, 2]
    assert rules.game_result([1, 2], outcome) is None  # no built-in decides now


def test_no_block_env_blocks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BLOCK_ENV, "")
    pm = make_plugin_manager(entry_points=False)
    assert all(pm.get_plugin(name) is not None for name in BUILTIN_PLUGINS)


def test_trace_env_writes_hook_calls_to_stderr(ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(TRACE_ENV, "1")
    Rules(ruleset, make_plugin_manager(entry_points=False))
    captured = capsys.readouterr()
    assert captured.out == ""
    for name in ("fivehundred_build_deck", "fivehundred_deal_pattern", "fivehundred_bid_ladder",
                 "fivehundred_auction_rules"):
        assert re.search(rf"^\s*{name} \[hook\]", captured.err, re.M), name
        assert re.search(rf"^\s*finish {name} --> ", captured.err, re.M), name


def test_no_trace_without_the_env(ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(TRACE_ENV, raising=False)
    Rules(ruleset, make_plugin_manager(entry_points=False))
    assert capsys.readouterr() == ("", "")


# --- third-party plugins from the entry-point group -----------------------------------------


DEMO_PLUGIN = '''
from pathlib import Path

from fivehundred import hookimpl
from fivehundred.bots.players import RandomPlayer


@hookimpl
def fivehundred_house_rules():
    return ["demo-rule"]


@hookimpl
def fivehundred_ruleset_paths():
    return [Path(__file__).parent / "demo-variant.yaml"]


@hookimpl
def fivehundred_register_players(register):
    register("demo-bot", RandomPlayer)
'''


def make_distribution(site: Path, dist: str, module: str, source: str, entry_name: str) -> None:
    """A real installed distribution on ``site``, with a module and a ``fivehundred`` entry point."""
    (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[fivehundred]\n{entry_name} = {module}\n", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A site directory on sys.path, found by importlib.metadata like any installed package."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    before = set(sys.modules)
    yield site
    for name in set(sys.modules) - before:
        if name.startswith("fhplug_"):
            del sys.modules[name]


def test_entry_point_plugins_are_loaded(site: Path, install: Any) -> None:
    make_distribution(site, "fivehundred-demo", "fhplug_demo", DEMO_PLUGIN, "demo")
    (site / "demo-variant.yaml").write_text(
        f"extends: {REF}\nhouse_rules:\n  demo-rule: {{}}\ngame: {{target: 250}}\n", encoding="utf-8")
    pm = install(make_plugin_manager())
    assert pm.get_plugin("demo") is sys.modules["fhplug_demo"]
    assert [d.project_name for p, d in pm.list_plugin_distinfo() if p is pm.get_plugin("demo")] == [
        "fivehundred-demo"]
    # everything the plugin provides is usable by name
    assert "demo-bot" in player_factories()
    rs = load_ruleset("demo-variant")
    assert rs.house_rules == {"demo-rule": {}}
    assert rs.game.target == 250
    summary = fivehundred.simulate(games=2, seed=1, ruleset=rs, players="demo-bot")
    assert summary.games == 2


def test_entry_points_are_not_loaded_when_disabled(site: Path) -> None:
    make_distribution(site, "fivehundred-demo", "fhplug_demo", DEMO_PLUGIN, "demo")
    pm = make_plugin_manager(entry_points=False)
    assert pm.get_plugin("demo") is None
    assert "fhplug_demo" not in sys.modules


def test_block_env_blocks_an_entry_point_plugin_before_it_is_imported(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_distribution(site, "fivehundred-demo", "fhplug_demo", DEMO_PLUGIN, "demo")
    monkeypatch.setenv(BLOCK_ENV, "demo")
    pm = make_plugin_manager()
    assert pm.is_blocked("demo")
    assert pm.get_plugin("demo") is None
    assert "fhplug_demo" not in sys.modules
    assert "demo-bot" not in player_factories(pm)


BROKEN_PLUGIN = '''
raise RuntimeError("this plugin cannot start")
'''


def test_a_plugin_that_fails_to_import_is_named(site: Path) -> None:
    make_distribution(site, "fivehundred-broken", "fhplug_broken", BROKEN_PLUGIN, "broken")
    with pytest.raises(PluginError) as info:
        make_plugin_manager()
    message = str(info.value)
    assert "this plugin cannot start" in message
    # which plugin: its entry-point name, module or distribution
    assert any(name in message for name in ("'broken'", "fhplug_broken", "fivehundred-broken")), message


def test_a_broken_plugin_can_be_blocked(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_distribution(site, "fivehundred-broken", "fhplug_broken", BROKEN_PLUGIN, "broken")
    monkeypatch.setenv(BLOCK_ENV, "broken")
    pm = make_plugin_manager()
    assert pm.get_plugin("broken") is None


# --- hooks are asked per ruleset and per contract, never per card ---------------------------


class HookCalls:
    def __init__(self, pm: pluggy.PluginManager):
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.finished = 0
        self.undo = pm.add_hookcall_monitoring(self.before, self.after)

    def before(self, hook_name: str, hook_impls: Sequence[Any], kwargs: dict[str, Any]) -> None:
        self.calls.append((hook_name, dict(kwargs)))

    def after(self, outcome: Any, hook_name: str, hook_impls: Sequence[Any], kwargs: dict[str, Any]) -> None:
        self.finished += 1

    def names(self, start: int = 0) -> Counter[str]:
        return Counter(name for name, _ in self.calls[start:])


def test_hooks_are_resolved_per_ruleset_and_contract_not_per_card(ruleset: Ruleset) -> None:
    pm = make_plugin_manager(entry_points=False)
    monitor = HookCalls(pm)
    rules = Rules(ruleset, pm)
    assert monitor.names() == Counter(fivehundred_build_deck=1, fivehundred_deal_pattern=1,
                                      fivehundred_bid_ladder=1, fivehundred_auction_rules=1,
                                      fivehundred_trick_check=1, fivehundred_hand_steps=1)
    compiled = len(monitor.calls)
    per_hand: list[tuple[int, int]] = []  # (hook calls, cards played) for every deal
    scored = 0
    for seed in range(6):  # whole games: random bidders tend to end them in a few hands
        state = GameState(rules, first_dealer=seed % 4)
        rng, players = random.Random(seed), bots(4, seed=seed)
        while not state.is_terminal() and state.deals < 200:
            start = len(monitor.calls)
            state.deal(rng)
            play_out_hand(state, players)
            cards = sum(len(t.cards) for t in state.hands_log[-1].tricks)
            per_hand.append((len(monitor.calls) - start, cards))
        assert state.is_terminal()
        scored += sum(1 for log in state.hands_log if log.scores)
    monitor.undo()
    assert monitor.finished == len(monitor.calls)

    full_hands = [calls for calls, cards in per_hand if cards >= 30]
    assert len(full_hands) >= 3, per_hand
    # joker rules, trick table, score, game end: at most once each per hand, never once per card
    assert max(calls for calls, _ in per_hand) <= 4 < 40
    game = monitor.names(compiled)
    assert set(game) <= {"fivehundred_joker_rules", "fivehundred_trick_table", "fivehundred_score_hand",
                         "fivehundred_game_result"}
    # The per-hand hooks are called through the ruleset's compiled caller, not pluggy's (see the
    # equivalence tests below); the plugin functions still run once per scored hand.
    assert "fivehundred_score_hand" not in game and "fivehundred_game_result" not in game
    assert scored >= 6
    tables = [(kw["contract"].rung, kw["nomination"]) for name, kw in monitor.calls
              if name == "fivehundred_trick_table"]
    assert len(tables) == len(set(tables)), "a trick table was asked for twice for one contract and nomination"
    jokers = [kw["contract"].rung for name, kw in monitor.calls if name == "fivehundred_joker_rules"]
    assert len(jokers) == len(set(jokers)), "joker rules were asked for twice for one contract"
    cards_played = sum(cards for _, cards in per_hand)
    assert (sum(game.values()) + 2 * scored) * 5 < cards_played


def _outcomes(rules: Rules, games: int = 4) -> list[tuple[HandOutcome, list[int]]]:
    """Every scored hand of a few random games, as (outcome, totals after it)."""
    seen: list[tuple[HandOutcome, list[int]]] = []
    real = rules.score_hand

    def spy(outcome: HandOutcome) -> list[int]:
        scores = real(outcome)
        seen.append((outcome, [a + b for a, b in zip(outcome.totals_before, scores, strict=True)]))
        return scores

    rules.score_hand = spy
    try:
        for seed in range(games):
            state = GameState(rules, first_dealer=seed % rules.players)
            state.play_out(bots(rules.players, seed), random.Random(seed), max_deals=60)
    finally:
        rules.score_hand = real
    return seen


@pytest.mark.parametrize("name", sorted(ruleset_paths()))
def test_the_per_hand_caller_answers_as_pluggy_does(name: str) -> None:
    pm = make_plugin_manager(entry_points=False)
    rules = Rules(load_ruleset(name), pm)
    outcomes = _outcomes(rules)
    assert outcomes
    for outcome, totals in outcomes:
        assert rules.score_hand(outcome) == pm.hook.fivehundred_score_hand(ruleset=rules.ruleset, outcome=outcome)
        assert rules.game_result(totals, outcome) == pm.hook.fivehundred_game_result(
            ruleset=rules.ruleset, totals=totals, outcome=outcome)


def test_the_per_hand_caller_runs_wrappers_in_pluggy_order(ruleset: Ruleset) -> None:
    order: list[str] = []

    class Outer:
        @fivehundred.hookimpl(wrapper=True, tryfirst=True)
        def fivehundred_score_hand(self, ruleset: Ruleset, outcome: HandOutcome) -> Any:
            order.append("outer in")
            scores = yield
            order.append("outer out")
            return [s * 10 for s in scores]

    class Inner:
        @fivehundred.hookimpl(wrapper=True)
        def fivehundred_score_hand(self, outcome: HandOutcome) -> Any:
            order.append("inner in")
            scores = yield
            order.append("inner out")
            return [s + 1 for s in scores]

    pm = make_plugin_manager(entry_points=False, extra=[Inner(), Outer()])
    rules = Rules(ruleset, pm)
    outcome = _outcomes(Rules(ruleset, make_plugin_manager(entry_points=False)), games=1)[0][0]
    plain = Rules(ruleset, make_plugin_manager(entry_points=False)).score_hand(outcome)
    fast = rules.score_hand(outcome)
    assert order == ["outer in", "inner in", "inner out", "outer out"]
    assert fast == [(s + 1) * 10 for s in plain]
    assert fast == pm.hook.fivehundred_score_hand(ruleset=ruleset, outcome=outcome)


def test_applies_when_leaves_an_implementation_out_of_other_rulesets(ruleset: Ruleset) -> None:
    calls: list[str] = []

    class OnlyForBreach:
        @fivehundred.hookimpl(wrapper=True)
        @applies_when(lambda rs: rs.scoring.breach is not None)
        def fivehundred_score_hand(self, outcome: HandOutcome) -> Any:
            calls.append("asked")
            return (yield)

    pm = make_plugin_manager(entry_points=False, extra=[OnlyForBreach()])
    outcome = _outcomes(Rules(ruleset, make_plugin_manager(entry_points=False)), games=1)[0][0]
    Rules(ruleset, pm).score_hand(outcome)
    assert calls == []
    breach = ruleset.model_copy(update={"scoring": ruleset.scoring.model_copy(update={"breach": 50})})
    Rules(breach, pm).score_hand(outcome)
    assert calls == ["asked"]


def test_a_hook_answered_by_its_compiled_body_alone_calls_the_body(ruleset: Ruleset,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in scoring hooks are marked ``answered_by`` their arithmetic (``plugins/scoring_plan.py``): where
    they alone answer, the rules call that body directly (``_answered_by``; the census of this suite wraps the
    callers, so it is asked here); another plugin's wrapper that applies to the ruleset, or hook tracing, puts the
    general caller back, and the wrapper runs."""
    from fivehundred.plugins import scoring_plan
    from fivehundred.rules.manager import _answered_by

    def body(pm: pluggy.PluginManager, hook: str, names: tuple[str, ...]) -> Any:
        impls = list(reversed(getattr(pm.hook, hook).get_hookimpls()))
        answered = _answered_by(impls, ruleset, names)
        return None if answered is None else answered.func

    pm = make_plugin_manager(entry_points=False)
    assert body(pm, "fivehundred_score_hand", ("outcome",)) is scoring_plan.score_hand
    assert body(pm, "fivehundred_game_result", ("totals", "outcome")) is scoring_plan.game_result
    plain = Rules(ruleset, pm)
    outcome = _outcomes(plain, games=1)[0][0]
    assert plain.score_hand(outcome) == scoring_plan.score_hand(ruleset, outcome)

    class Bonus:
        @fivehundred.hookimpl(wrapper=True)
        def fivehundred_score_hand(self, outcome: HandOutcome) -> Any:
            scores = yield
            return [s + 1 for s in scores]

    wrapped = make_plugin_manager(entry_points=False, extra=[Bonus()])
    assert body(wrapped, "fivehundred_score_hand", ("outcome",)) is None
    assert body(wrapped, "fivehundred_game_result", ("totals", "outcome")) is scoring_plan.game_result
    assert Rules(ruleset, wrapped).score_hand(outcome) == [s + 1 for s in plain.score_hand(outcome)]
    monkeypatch.setenv(TRACE_ENV, "1")
    assert body(pm, "fivehundred_score_hand", ("outcome",)) is None


def test_a_second_game_on_the_same_rules_reuses_the_tables(ruleset: Ruleset) -> None:
    pm = make_plugin_manager(entry_points=False)
    rules = Rules(ruleset, pm)
    first = play_hand(rules, deal_seed=5)
    monitor = HookCalls(pm)
    second = play_hand(rules, deal_seed=5)
    monitor.undo()
    assert second.hands_log[-1].contract == first.hands_log[-1].contract
    assert monitor.names() == Counter()  # the per-hand hooks go through the compiled caller
    assert second.hands_log[-1].scores == first.hands_log[-1].scores


def test_compile_rules_is_cached_per_ruleset_and_manager(ruleset: Ruleset) -> None:
    pm = make_plugin_manager(entry_points=False)
    assert compile_rules(ruleset, pm) is compile_rules(load_ruleset(REF), pm)
    assert compile_rules(ruleset, pm) is not compile_rules(ruleset, make_plugin_manager(entry_points=False))
    assert compile_rules(ruleset) is compile_rules(ruleset, plugin_manager())


# --- meta-tests (in the style of datasette) -------------------------------------------------


def test_the_hookspecs_module_is_the_whole_extension_surface() -> None:
    assert len(HOOK_NAMES) >= 10
    pm = make_plugin_manager(entry_points=False)
    assert sorted(name for name in dir(pm.hook) if name.startswith("fivehundred_")) == HOOK_NAMES
    assert all(name.startswith("fivehundred_") for name in HOOK_NAMES)


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_every_hookspec_has_a_docstring(name: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, name))
    assert doc and len(doc.split()) >= 5, f"{name} has no docstring"


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_every_hookspec_documents_its_arguments(name: str) -> None:
    spec = getattr(hookspecs, name)
    doc = inspect.getdoc(spec) or ""
    for arg in inspect.signature(spec).parameters:
        if arg != "ruleset":  # every hook but the discovery ones gets the ruleset
            assert re.search(rf"\b{arg}\b", doc), f"{name}: argument {arg!r} is not documented"


@pytest.mark.parametrize("name", [n for n in HOOK_NAMES if getattr(hookspecs, n).fivehundred_spec["firstresult"]])
def test_builtin_defaults_of_first_result_hooks_are_trylast(name: str) -> None:
    pm = make_plugin_manager(entry_points=False)
    for impl in getattr(pm.hook, name).get_hookimpls():
        if impl.plugin_name in BUILTIN_PLUGINS:
            assert impl.trylast, f"{impl.plugin_name}.{name} must be trylast so that plugins can override it"
