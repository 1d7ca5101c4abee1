"""Five Hundred as a PettingZoo AEC environment.

    from fivehundred.pettingzoo import env
    table = env(ruleset="pagat-australian", render_mode="ansi")
    table.reset(seed=1)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        mask = observation["action_mask"]
        table.step(None if termination or truncation else table.action_space(agent).sample(mask))

The agents are the seats that decide (a dummy, P2, is played by its controller), named as the ruleset
names them.  Each observation is the agent's information state as a flat ``float32`` vector
(``observation``) and the legal actions (``action_mask``); ``observation_text(agent)`` says it in words.
``observation="observation"`` hands out OpenSpiel's observation tensor instead (what the agent sees now, without
the hand as dealt, the order of the calls and the trick of each card: 794 values against 5,095 in the reference
game).  The episode
(``deal`` or ``game``), the rewards (score differences for a deal, ±1 for a game) and the action space are
``fivehundred.adapters.table``'s; the deal is the engine's own, seeded as ``fivehundred.new_game`` seeds a
game.  ``render_mode="ansi"`` renders the whole table as text.
"""

from __future__ import annotations

import operator
import random
from pathlib import Path
from typing import Any, ClassVar

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # the framework is an optional extra
    raise ImportError("fivehundred.pettingzoo needs PettingZoo: pip install 'fivehundred[pettingzoo]'") from error

import numpy as np

from fivehundred.adapters.table import MAX_DEALS, Episode, Table, table_for, table_text
from fivehundred.engine.seeding import deal_generator, game_key
from fivehundred.rules.ruleset import Ruleset

OBSERVATIONS = ("information_state", "observation")
"""What an observation's vector holds: the information state (everything the agent has seen this episode) or
the observation (what it sees now), as OpenSpiel's tensors of the same names."""


def env(ruleset: str | Path | Ruleset = "pagat-australian", render_mode: str | None = None, episode: str = "deal",
        max_deals: int = MAX_DEALS, observation: str = "information_state") -> AECEnv:
    """The AEC environment of a ruleset (a shipped name, a YAML path or a loaded ``Ruleset``), wrapped as
    PettingZoo's own environments are (actions in order)."""
    return _OrderEnforcing(raw_env(ruleset, render_mode, episode, max_deals, observation))


def _forwarded(name: str) -> property:
    read, checked = operator.attrgetter(name), name != "_cumulative_rewards"  # as PettingZoo checks them

    def get(self: _OrderEnforcing) -> Any:
        if checked and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return read(self.env)
    return property(get, doc=f"The environment's ``{name}`` (PettingZoo's check first: not before ``reset``).")


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, cheaper at every step.  Through the wrapper's ``__getattr__`` each
    read of the environment's attributes first fails an ordinary lookup (an AttributeError made and dropped: a
    fifth of a step), and any read of the wrapper's own goes through that hook too: the attributes every step
    reads are properties here, and ``last()`` and ``step()`` ask the environment itself once the wrapper's
    checks pass (PettingZoo's own methods otherwise, with their errors and warnings)."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's error
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)


class raw_env(AECEnv):  # PettingZoo names the unwrapped environment so
    metadata: ClassVar[dict[str, Any]] = {"name": "fivehundred_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, ruleset: str | Path | Ruleset = "pagat-australian", render_mode: str | None = None,
                 episode: str = "deal", max_deals: int = MAX_DEALS, observation: str = "information_state"):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {', '.join(self.metadata['render_modes'])}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation {observation!r}: one of {', '.join(OBSERVATIONS)}")
        self.render_mode = render_mode
        self.recall = observation == "information_state"
        self.table: Table = (Table(ruleset, episode, max_deals) if isinstance(ruleset, Ruleset)
                             else table_for(str(ruleset), episode, max_deals))
        table = self.table
        self.layout = table.information_state if self.recall else table.observation
        size = self.layout.size
        self.possible_agents = list(table.names)
        self.agent_of = dict(enumerate(self.possible_agents))
        self.player_of = {name: p for p, name in enumerate(self.possible_agents)}
        self.observation_spaces = {name: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (len(table.actions),), np.int8),
        }) for name in self.possible_agents}
        self.action_spaces = {name: gymnasium.spaces.Discrete(len(table.actions)) for name in self.possible_agents}
        self.episode = Episode(table)
        self._rng = random.Random("fivehundred:pettingzoo")

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = deal_generator(game_key(seed))  # as fivehundred.new_game deals a seeded game
        self.episode = self.episode.renewed()
        self.episode.deal(self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agent_of[self.episode.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.player_of[agent]
        mask = np.zeros(len(self.table.actions), np.int8)
        if not self.episode.over and self.episode.current_player() == player:
            legal = self.episode.legal_actions()
            if len(legal) > 16:
                mask[legal] = 1
            else:  # cheaper one by one than indexing by a list
                for action in legal:
                    mask[action] = 1
        return {"observation": self.episode.tensor(player, self.layout), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent must act"
        self._cumulative_rewards[agent] = 0.0
        self.episode.apply_action(int(action))
        if not self.episode.over:
            self.episode.deal(self._rng)  # the next hand of a whole game
        if self.episode.over:
            self.rewards = dict(zip(self.possible_agents, self.episode.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agent_of[self.episode.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def observation_text(self, agent: str) -> str:
        """What ``agent`` has seen this episode, as text (the information state that ``observe`` encodes)."""
        return self.episode.text(self.player_of[agent], recall=self.recall)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' to env()")
            return None
        return table_text(self.episode)

    def record(self, **kwargs: Any) -> dict[str, Any]:
        """The game so far as a ``fivehundred`` game record (``fivehundred validate`` checks it)."""
        return self.episode.record(**kwargs)

    def close(self) -> None:
        pass
