"""Every ruleset as an OpenSpiel game (``fivehundred.openspiel``): OpenSpiel's own conformance check, the
deal as explicit chance, the shape derived from the ruleset, returns, cloning and serialization, OpenSpiel's
bots, and records of games played through OpenSpiel that ``fivehundred.validate`` accepts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import SHIPPED_RULESETS
from extras import need

pyspiel = need("pyspiel", "openspiel")

import fivehundred  # noqa: E402
import fivehundred.openspiel  # noqa: E402 - registers python_fivehundred
from fivehundred.engine.state import Phase  # noqa: E402
from fivehundred.records.record import dumps  # noqa: E402
from fivehundred.rules.manager import compile_rules  # noqa: E402


def load(ruleset: str = "pagat-australian", **params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_fivehundred", {"ruleset": ruleset, **params})


def play_randomly(state: pyspiel.State, rng: random.Random, stop_after: int | None = None) -> pyspiel.State:
    moves = 0
    while not state.is_terminal() and (stop_after is None or moves < stop_after):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return state


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_openspiel_conformance_check_on_every_ruleset(ruleset: str) -> None:
    pyspiel.random_sim_test(load(ruleset), num_sims=2, serialize=True, verbose=False)
    # a whole game, cut short after three deals to keep the check quick: several hands, the cap, a draw
    pyspiel.random_sim_test(load(ruleset, episode="game", max_deals=3), num_sims=1, serialize=True, verbose=False)


def test_a_whole_game_to_its_end() -> None:
    game = load("pagat-australian", episode="game", max_deals=1000)
    state = play_randomly(game.new_initial_state(), random.Random(3))
    engine = state.engine_state
    assert engine.result is not None
    winners = {p for p, r in enumerate(state.returns()) if r == 1.0}
    seats = {game_seat for game_seat in range(4) if engine.rules.team_of[game_seat] == engine.result.winner}
    assert winners == seats and sorted(state.returns()) == [-1.0, -1.0, 1.0, 1.0]


def test_the_shape_comes_from_the_ruleset() -> None:
    pagat = load()
    rules = compile_rules(fivehundred.load_ruleset("pagat-australian"))
    # 43 plays, 4 joker leads, 43 discards, 5 nominations, pass, 27 calls (a misdeal only where D4 is on)
    assert pagat.num_distinct_actions() == 43 + 4 + 43 + 5 + 1 + 27
    assert pagat.num_players() == 4 and pagat.max_chance_outcomes() == 43
    assert pagat.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pagat.max_utility() == -pagat.min_utility() >= 2 * 520
    assert pagat.max_game_length() >= 4 * rules.hand_size + rules.kitty_size + 4
    assert load("three-handed").num_players() == 3
    two = load("two-handed")  # two deciders, each playing a dummy too (P2)
    assert two.num_players() == 2
    whole = load("pagat-australian", episode="game", max_deals=10)
    assert (whole.min_utility(), whole.max_utility()) == (-1.0, 1.0)
    assert whole.max_game_length() == 10 * pagat.max_game_length()
    assert load("six-handed-individual", episode="game").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_the_deal_is_explicit_chance_one_card_at_a_time() -> None:
    state = load().new_initial_state()
    first = state.chance_outcomes()
    assert [p for _, p in first] == [0.25] * 4  # the first dealer
    state.apply_action(2)
    for dealt in range(43):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 43 - dealt and sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])  # the deck dealt in reverse order of the sorted deck
    engine = state.engine_state
    assert engine.dealer == 2 and engine.phase == Phase.AUCTION
    # the dealer's left (W) gets the first packet of three: the three highest cards of the sorted deck
    deck = sorted(engine.rules.deck, reverse=True)
    assert set(deck[:3]) <= set(engine.hand_log.hands[3])
    assert engine.hand_log.kitty == [deck[12], deck[29], deck[42]]  # packets 3, kitty, 4, kitty, 3, kitty


@pytest.mark.parametrize("ruleset", ["pagat-australian", "two-handed", "three-handed-dead-hand", "nullo",
                                     "six-handed-three-teams"])
def test_python_answers_are_openspiels_own(ruleset: str) -> None:
    """``is_chance_node``, ``legal_actions()`` and the tensors answer Python callers without calling into C++: at
    every node of whole games, for every player, they give what OpenSpiel's own (C++) methods give, and raise
    OpenSpiel's error where those do."""
    game = load(ruleset, episode="game", max_deals=3)
    rng = random.Random(11)
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            if not state.is_chance_node() and not state.is_terminal():
                assert state.legal_actions() == pyspiel.State.legal_actions(state, state.current_player())
                assert state.information_state_tensor() == pyspiel.State.information_state_tensor(state)
                assert state.observation_tensor() == pyspiel.State.observation_tensor(state)
            for player in range(game.num_players()):
                assert (state.information_state_tensor(player)
                        == pyspiel.State.information_state_tensor(state, player)), player
                assert state.observation_tensor(player) == pyspiel.State.observation_tensor(state, player), player
            for call in (state.information_state_tensor, state.observation_tensor):
                with pytest.raises(pyspiel.SpielError):
                    call(game.num_players())
                if state.is_chance_node() or state.is_terminal():
                    with pytest.raises(pyspiel.SpielError):
                        call()
            if state.is_terminal():
                break
            legal = state.legal_actions()
            legal.clear()  # the caller's own list
            state.apply_action(rng.choice(state.legal_actions()))


def test_returns_are_score_differences_for_a_deal() -> None:
    state = play_randomly(load().new_initial_state(), random.Random(5))
    engine = state.engine_state
    ns, ew = engine.totals
    assert state.returns() == [ns - ew, ew - ns, ns - ew, ew - ns]
    assert any(log.outcome is not None for log in engine.hands_log) or engine.totals == [0, 0]


def test_clone_and_serialization_keep_the_state_and_part_ways() -> None:
    game = load("five-handed")
    state = play_randomly(game.new_initial_state(), random.Random(8), stop_after=70)
    copy = state.clone()
    assert str(copy) == str(state) and copy.information_state_string(0) == state.information_state_string(0)
    copy.apply_action(copy.legal_actions()[0])
    assert copy.history() != state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.history() == state.history()
    assert state2.observation_tensor(1) == state.observation_tensor(1)


def test_a_resampled_state_keeps_what_the_player_knows() -> None:
    state = play_randomly(load().new_initial_state(), random.Random(4), stop_after=1 + 43 + 12)
    player = state.current_player()
    sampler = random.Random(0).random
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
    others = {tuple(w.engine_state.hand((player + 1) % 4)) for w in worlds}
    assert len(others) > 1  # the cards the player cannot see are dealt afresh


def test_information_state_hides_others_cards_and_remembers_the_deal() -> None:
    state = play_randomly(load().new_initial_state(), random.Random(2), stop_after=1 + 43 + 4)
    engine = state.engine_state
    for player in range(4):
        seen = state.information_state_string(player)
        own = " ".join(fivehundred.card_str(c) for c in sorted(engine.hand_log.hands[player]))
        assert f"dealt: {own}" in seen
        for other in range(4):
            if other != player:
                theirs = " ".join(fivehundred.card_str(c) for c in engine.hand(other))
                assert theirs not in seen
    public = state.observation_string(0)
    assert "dealt" not in public and "hand: " in public
    tensor = state.information_state_tensor(0)
    assert len(tensor) == load().information_state_tensor_size() and sum(tensor) > 10


def test_mcts_and_is_mcts_bots_play_a_deal() -> None:
    import numpy as np
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    game = load("three-handed")
    rng = random.Random(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [mcts.MCTSBot(game, 2, 4, evaluator, random_state=np.random.RandomState(2)),
            ISMCTSBot(game, evaluator, 2, 4, random_state=np.random.RandomState(3)),  # the state resamples
            ISMCTSBot(game, evaluator, 2, 4, random_state=np.random.RandomState(4))]
    bots[2].set_resampler(fivehundred.openspiel.resampler(4))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_a_game_played_through_openspiel_is_a_valid_record(ruleset: str, tmp_path: Path) -> None:
    state = play_randomly(load(ruleset, episode="game", max_deals=2).new_initial_state(), random.Random(ruleset))
    path = tmp_path / "games.jsonl"
    path.write_text(dumps(state.record(seed="openspiel")) + "\n", encoding="utf-8")
    report = fivehundred.validate([path])
    assert report.ok, str(report)
    assert state.engine_state.deals == 2 or state.engine_state.result is not None


def test_every_built_in_step_passes_the_conformance_check(tmp_path: Path) -> None:
    """The steps no shipped ruleset has (C6/C7 declaration and gift, R2 breach): the tensors' declared shapes hold."""
    path = tmp_path / "every-step.yaml"
    path.write_text("name: every-step\nextends: pagat-australian\nscoring: {breach: 100}\n"
                    "declarations: {slam: [7], declare: true}\n", encoding="utf-8")
    game = load(str(path))
    assert game.information_state_tensor_shape()[0] == game.table.layout(
        game.table.pieces_for(private=True, recall=True)).size
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_the_example_script_plays_as_the_readme_shows() -> None:
    """``examples/openspiel_bots.py`` (the README's command, with fewer deals and simulations)."""
    import subprocess
    import sys

    script = Path(__file__).parent.parent / "examples" / "openspiel_bots.py"
    run = subprocess.run([sys.executable, str(script), "--ruleset", "three-handed", "--deals", "1",
                          "--simulations", "8"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("deal 1: ") and "mean returns over 1 deals: MCTS " in run.stdout
