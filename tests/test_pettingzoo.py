"""Every ruleset as a PettingZoo AEC environment (``fivehundred.pettingzoo``): PettingZoo's own API and seed
tests, the agents and spaces, rewards, the table rendered as text, and records of games played through the
environment that ``fivehundred.validate`` accepts."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SHIPPED_RULESETS
from extras import need

need("pettingzoo", "pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import fivehundred  # noqa: E402
from fivehundred.engine.state import Phase  # noqa: E402
from fivehundred.pettingzoo import env  # noqa: E402
from fivehundred.records.record import dumps  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's advice on names and spaces


def play(table: object, seed: int, limit: int = 100_000) -> dict[str, float]:
    """Random legal play to the end of the episode; each agent's reward as it learnt it at the end."""
    table.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    final = {}
    for agent in table.agent_iter(limit):  # type: ignore[attr-defined]
        observation, reward, termination, truncation, _ = table.last()  # type: ignore[attr-defined]
        if termination or truncation:
            final[agent] = reward
            table.step(None)  # type: ignore[attr-defined]
            continue
        assert reward == 0  # rewards come at the end of the episode only
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))  # type: ignore[attr-defined]
    return final


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_pettingzoo_api_and_seed_tests_on_every_ruleset(ruleset: str) -> None:
    api_test(env(ruleset=ruleset), num_cycles=300)
    seed_test(lambda: env(ruleset=ruleset), num_cycles=300)
    api_test(env(ruleset=ruleset, episode="game", max_deals=2), num_cycles=300)
    api_test(env(ruleset=ruleset, observation="observation"), num_cycles=100)


def test_agents_spaces_and_the_mask() -> None:
    table = env(ruleset="pagat-australian")
    assert table.possible_agents == ["N", "E", "S", "W"]
    two = env(ruleset="two-handed")
    assert two.possible_agents == ["N", "E"]  # each plays a dummy too (P2)
    table.reset(seed=1)
    observation, reward, termination, truncation, _ = table.last()
    space = table.observation_space(table.agent_selection)
    assert space.contains(observation) and reward == 0 and not termination and not truncation
    unwrapped = table.unwrapped
    legal = unwrapped.episode.legal_actions()
    assert list(np.flatnonzero(observation["action_mask"])) == legal
    others = [a for a in table.agents if a != table.agent_selection]
    assert not table.observe(others[0])["action_mask"].any()


def test_rewards_are_the_deals_score_differences() -> None:
    table = env(ruleset="pagat-australian")
    rewards = play(table, seed=4)
    ns, ew = table.unwrapped.episode.state.totals
    assert rewards == {"N": ns - ew, "E": ew - ns, "S": ns - ew, "W": ew - ns} and ns != ew


def test_a_whole_game_rewards_the_winning_side() -> None:
    table = env(ruleset="three-handed", episode="game", max_deals=1000)
    rewards = play(table, seed=2)
    state = table.unwrapped.episode.state
    assert state.result is not None
    rules = state.rules
    assert rewards == {
        name: 1.0 if rules.team_of[seat] == state.result.winner else -1.0 for seat, name in enumerate(rules.seats)}


def test_the_same_seed_deals_the_same_game_as_the_engine() -> None:
    table = env(ruleset="pagat-australian")
    table.reset(seed=7)
    twin, rng = fivehundred.new_game(fivehundred.load_ruleset("pagat-australian"), 7)
    twin.deal(rng)
    mine = table.unwrapped.episode.state
    assert mine.dealer == twin.dealer and mine.hand_log.hands == twin.hand_log.hands


def test_ansi_render_shows_the_table() -> None:
    table = env(ruleset="pagat-australian", render_mode="ansi")
    table.reset(seed=3)
    for _ in range(12):
        observation, *_ = table.last()
        table.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    text = table.render()
    state = table.unwrapped.episode.state
    assert text.startswith("pagat-australian: deal 1")
    for seat, name in enumerate(state.rules.seats):
        assert f"{name}: " + " ".join(fivehundred.card_str(c) for c in state.hand(seat)) in text
    assert "calls: " in text and "totals: NS 0 EW 0" in text
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")


def test_the_observation_kind_chooses_the_tensor_and_the_text() -> None:
    recall, now = env(ruleset="pagat-australian"), env(ruleset="pagat-australian", observation="observation")
    assert recall.observation_space("N")["observation"].shape == (5095,)
    assert now.observation_space("N")["observation"].shape == (794,)  # OpenSpiel's observation tensor's size
    for table in (recall, now):
        table.reset(seed=3)
        for _ in range(12):  # the highest call, then into the play
            observation, *_ = table.last()
            table.step(int(np.flatnonzero(observation["action_mask"])[-1]))
        assert table.unwrapped.episode.state.phase == Phase.PLAY
    episode, player = now.unwrapped.episode, now.unwrapped.player_of[now.agent_selection]
    assert now.unwrapped.observation_text(now.agent_selection) == episode.text(player, recall=False)
    assert recall.unwrapped.observation_text(recall.agent_selection) == episode.text(player, recall=True)
    with pytest.raises(ValueError, match="observation 'tensor': one of information_state, observation"):
        env(observation="tensor")


@pytest.mark.parametrize("ruleset", SHIPPED_RULESETS)
def test_a_game_played_through_pettingzoo_is_a_valid_record(ruleset: str, tmp_path: Path) -> None:
    table = env(ruleset=ruleset, episode="game", max_deals=2)
    play(table, seed=11)
    path = tmp_path / "games.jsonl"
    path.write_text(dumps(table.unwrapped.record(seed=11)) + "\n", encoding="utf-8")
    report = fivehundred.validate([path])
    assert report.ok, str(report)


def test_every_built_in_step_passes_the_api_test(tmp_path: Path) -> None:
    """The steps no shipped ruleset has (C6/C7 declaration and gift, R2 breach) and their part of the tensors."""
    path = tmp_path / "every-step.yaml"
    path.write_text("name: every-step\nextends: pagat-australian\nscoring: {breach: 100}\n"
                    "declarations: {slam: [7], declare: true}\n", encoding="utf-8")
    api_test(env(ruleset=str(path)), num_cycles=600)
    seed_test(lambda: env(ruleset=str(path)), num_cycles=300)


@pytest.mark.parametrize(("ruleset", "kind"), [
    *((name, "information_state") for name in ("pagat-australian", "perfect", "two-handed", "six-handed-three-teams",
                                               "five-handed", "french-canadian", "nullo")),
    *((name, "observation") for name in ("pagat-australian", "two-handed", "six-handed-three-teams"))])
def test_every_observation_is_the_information_state_drawn_afresh(ruleset: str, kind: str) -> None:
    """At every step of seeded episodes, one after another in one environment (its tensors kept from episode to
    episode), each agent's observation equals the tensor drawn afresh from ``GameState.observation``
    (``test_adapter_tensors.reference``) and is the caller's own array; the mask is the acting agent's legal
    actions and nobody else's.  ``observation="observation"``: the same without the pieces of recall."""
    from test_adapter_tensors import reference

    table = env(ruleset=ruleset, observation=kind)
    assert {p.name for p in table.unwrapped.layout.pieces} >= {"hand", "played", "trick"}
    assert ("call_order" in {p.name for p in table.unwrapped.layout.pieces}) == (kind == "information_state")
    raw = table.unwrapped
    pieces = raw.layout.pieces
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(4):
        table.reset(seed=seed)
        for agent in table.agent_iter():
            episode = raw.episode
            for other in table.possible_agents:
                observed = table.observe(other)
                want = reference(episode, raw.player_of[other], pieces)
                assert np.array_equal(observed["observation"], want), (ruleset, seed, other)
                observed["observation"][:] = 9  # the caller's: the next observation is not touched
                mask = np.zeros(len(raw.table.actions), np.int8)
                if other == agent and not episode.over:
                    mask[episode.legal_actions()] = 1
                assert np.array_equal(observed["action_mask"], mask)
                checked += 1
            observation, _, termination, truncation, _ = table.last()
            legal = np.flatnonzero(observation["action_mask"])
            table.step(None if termination or truncation else int(rng.choice(legal)))
    assert checked > 150


def test_the_wrapper_answers_as_pettingzoos_own(caplog: pytest.LogCaptureFixture) -> None:
    """``env()``'s wrapper reads the per-step attributes as properties and passes ``last()`` and ``step()``
    straight on: before ``reset``, through an episode and after its end it answers, raises and warns as
    PettingZoo's ``OrderEnforcingWrapper`` around the same environment."""
    from pettingzoo.utils import wrappers

    from fivehundred.pettingzoo import raw_env

    def answers(table: object) -> list[str]:
        out = []
        for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                     "_cumulative_rewards", "num_agents"):
            try:
                out.append(repr(getattr(table, name)))
            except AttributeError as error:
                out.append(f"AttributeError: {error}")
        for call in (lambda: table.last(), lambda: table.step(None)):  # type: ignore[attr-defined]
            try:
                value = call()
                out.append(repr(value) if value is None else repr(value[1:]))
            except (AttributeError, AssertionError, KeyError) as error:
                out.append(f"{type(error).__name__}: {error}")
        return out

    ours, theirs = env(), wrappers.OrderEnforcingWrapper(raw_env())
    assert type(ours) is not wrappers.OrderEnforcingWrapper and isinstance(ours, wrappers.OrderEnforcingWrapper)
    assert answers(ours) == answers(theirs)  # before reset: PettingZoo's errors
    rewards = []
    for table in (ours, theirs):
        rewards.append(play(table, seed=4))
    assert rewards[0] == rewards[1]
    ours.step(None)  # a step after the end: PettingZoo's warning, logged
    assert "step() called after all agents are terminated" in caplog.text
    assert answers(ours) == answers(theirs)  # after the end


def test_the_example_script_evaluates_a_policy_as_the_readme_shows() -> None:
    """``examples/pettingzoo_policy.py`` (the README's command, with fewer deals)."""
    import subprocess
    import sys

    script = Path(__file__).parent.parent / "examples" / "pettingzoo_policy.py"
    run = subprocess.run([sys.executable, str(script), "--ruleset", "pagat-australian", "--deals", "20"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "pagat-australian: 'N's side" in run.stdout and "points a deal against random play" in run.stdout
