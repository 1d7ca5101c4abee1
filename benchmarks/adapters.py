#!/usr/bin/env python3
"""Random play through the research frameworks' adapters, beside the native engine, in one run.

    python benchmarks/adapters.py                          # reference ruleset, 5 blocks
    python benchmarks/adapters.py --ruleset three-handed --deals 200 --blocks 3
    python benchmarks/adapters.py --json

Each block times, one after another in this process (their order rotating from block to block), the
same number of one-deal episodes of uniformly random players:

- ``native``: the engine's own path, ``GameState.play_out`` with ``random`` players (as
  ``benchmarks/bench.py`` measures it; the engine draws for uniform players at table speed);
- ``native steps``: the engine's public API one decision at a time, as an adapter drives it
  (``legal_actions``, a uniform choice, ``apply``), the deck shuffled by the engine;
- ``openspiel``: ``pyspiel.load_game("python_fivehundred")``, each chance node sampled from
  ``chance_outcomes()`` (one node per card), each decision from ``legal_actions()``;
- ``openspiel+obs``: the same, reading the acting player's ``information_state_tensor()`` before each
  decision (what a learning agent does; OpenSpiel hands the tensor over as a list of floats);
- ``openspiel+observer``: the same information state read through OpenSpiel's Python observation API
  (``open_spiel.python.observation.make_observation``, ``set_from``: the tensor as a NumPy array);
- ``openspiel (trivial game)``, ``openspiel+obs (trivial game)``: the same loops around an OpenSpiel Python
  game that does nothing but count its moves, with as many chance nodes (and outcomes) and decisions as a deal
  and a tensor of the same size: OpenSpiel's own cost for a game written in Python;
- ``pettingzoo``: ``fivehundred.pettingzoo.env()`` driven by the documented loop (``agent_iter``,
  ``last()``, a uniform choice among the mask's actions, ``step``): ``last()`` builds the observation;
- ``pettingzoo, observation``: the same with ``env(observation="observation")`` (OpenSpiel's observation
  tensor: what the agent sees now, without recall);
- ``pettingzoo (trivial env)``: the same loop around a PettingZoo environment that does nothing but
  hand the turn round 4 agents, with a fixed observation and mask, for as many steps as a deal takes,
  in PettingZoo's ``OrderEnforcingWrapper``: the framework's own cost per step;
- ``pettingzoo (trivial, wrapper)``: the same environment in ``fivehundred.pettingzoo``'s wrapper (PettingZoo's,
  with the attributes read at every step as properties): the cost per step below which ``fivehundred``'s
  environment cannot go.

The figures are medians over the blocks, in deals per CPU second of this process (``--clock wall``: per
second of wall time), and each adapter's slowdown against ``native`` (median of the blocks' ratios, since
the machine's speed drifts over seconds).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.manager import compile_rules, make_player

clock = time.process_time
"""What a measure times: this process's CPU time (``--clock cpu``, the default: the machine may be shared, and
every measure runs on one thread), or the wall clock (``--clock wall``)."""


def native(ruleset: str, deals: int, seed: int) -> float:
    rules = compile_rules(fivehundred.load_ruleset(ruleset))
    rng = random.Random(seed)
    bots = [make_player("random", seat, random.Random(seed * 10 + seat)) for seat in range(rules.players)]
    start = clock()
    for i in range(deals):
        state = GameState(rules, first_dealer=i % rules.players)
        state.deal(rng)
        state.play_out(bots, rng, max_deals=1)
    return deals / (clock() - start)


def native_steps(ruleset: str, deals: int, seed: int) -> float:
    rules = compile_rules(fivehundred.load_ruleset(ruleset))
    rng = random.Random(seed)
    start = clock()
    for i in range(deals):
        state = GameState(rules, first_dealer=i % rules.players)
        state.deal(rng)
        while state.current_player() >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            if state.phase == Phase.DEAL:  # the hand is over, or thrown in (B10: dealt again unshuffled)
                if state.deck_to_redeal is None:
                    break
                state.deal_deck(state.deck_to_redeal)
    return deals / (clock() - start)


def openspiel(ruleset: str, deals: int, seed: int, observe: str = "", game: Any = None) -> float:
    """Random play through OpenSpiel; before each decision the acting player's information state is read as
    ``observe`` says: not at all (``""``), as OpenSpiel's list of floats (``"tensor"``:
    ``information_state_tensor()``), or through OpenSpiel's Python observation API (``"observer"``:
    ``make_observation``, ``set_from``, a NumPy array)."""
    import pyspiel

    import fivehundred.openspiel  # noqa: F401 - registers the game

    game = game or pyspiel.load_game("python_fivehundred", {"ruleset": ruleset})
    look = _reader(game, observe)
    rng = random.Random(seed)
    start = clock()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                if look is not None:
                    look(state)
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
    return deals / (clock() - start)


def _reader(game: Any, observe: str) -> Callable[[Any], Any] | None:
    """What reads the acting player's information state before each decision (``openspiel``'s ``observe``)."""
    if not observe:
        return None
    if observe == "tensor":
        return lambda state: state.information_state_tensor()
    import pyspiel
    from open_spiel.python.observation import make_observation

    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    return lambda state: observation.set_from(state, state.current_player())


def pettingzoo(ruleset: str, deals: int, seed: int, observation: str = "information_state") -> float:
    from fivehundred.pettingzoo import env

    table = env(ruleset=ruleset, observation=observation)
    return _zoo_loop(table, deals, seed)


def _zoo_loop(table: Any, deals: int, seed: int) -> float:
    rng = random.Random(seed)
    start = clock()
    for deal in range(deals):
        table.reset(seed=seed * 100_000 + deal)
        for _agent in table.agent_iter():
            observation, _, termination, truncation, _ = table.last()
            if termination or truncation:
                table.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            table.step(int(legal[int(rng.random() * len(legal))]))
    return deals / (clock() - start)


def pettingzoo_parts(ruleset: str, deals: int, seed: int) -> dict[str, float]:
    """CPU µs a step of the PettingZoo loop, and within it the adapter's ``observe`` (and the tensor's part of it:
    ``Episode.tensor``, brought up to date and copied) and ``step`` (engine and adapter), each timed around its
    call (the timing itself adds about a µs to each)."""
    from fivehundred.adapters.table import Episode
    from fivehundred.pettingzoo import env, raw_env

    spent = dict.fromkeys(("observe", "tensor", "step"), 0.0)
    calls = dict.fromkeys(spent, 0)
    owners: dict[str, Any] = {"observe": raw_env, "step": raw_env, "tensor": Episode}
    originals = {name: getattr(owner, name) for name, owner in owners.items()}

    def timed(name: str) -> Callable[..., Any]:
        call = originals[name]

        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start
                calls[name] += 1
        return run

    table = env(ruleset=ruleset)
    for name, owner in owners.items():
        setattr(owner, name, timed(name))
    try:
        start = time.process_time()
        _zoo_loop(table, deals, seed)
        total = time.process_time() - start
    finally:
        for name, owner in owners.items():
            setattr(owner, name, originals[name])
    steps = calls["step"]
    return {"loop": total / steps * 1e6, **{name: t / steps * 1e6 for name, t in spent.items()}}


def trivial_env(steps: int, size: int, actions: int, wrapper: Any = None) -> Any:
    """A PettingZoo environment that only hands the turn round: ``steps`` steps, then every agent is done, wrapped
    in PettingZoo's ``OrderEnforcingWrapper`` (or ``wrapper``)."""
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    class Trivial(AECEnv):  # type: ignore[misc]
        metadata = {"name": "trivial_v0", "render_modes": [], "is_parallelizable": False}  # noqa: RUF012

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["N", "E", "S", "W"]
            space = gymnasium.spaces.Dict({"observation": gymnasium.spaces.Box(-1.0, 1.0, (size,), np.float32),
                                           "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8)})
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = {a: gymnasium.spaces.Discrete(actions) for a in self.possible_agents}
            self._obs = {"observation": np.zeros(size, np.float32), "action_mask": np.ones(actions, np.int8)}

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = "N"
            self._left = steps

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            return self._obs

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self._left -= 1
            if self._left == 0:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[(self.possible_agents.index(agent) + 1) % 4]
            self._accumulate_rewards()

    return (wrapper or wrappers.OrderEnforcingWrapper)(Trivial())


def trivial_game(cards: int, decisions: int, actions: int, size: int) -> Any:
    """An OpenSpiel Python game that does nothing: a chance node for the first dealer and one per card (as many
    outcomes as cards left), then ``decisions`` turns of 8 legal actions, and a tensor of ``size`` zeros."""
    import pyspiel

    name = "python_fivehundred_bench_trivial"
    kind = pyspiel.GameType(
        short_name=name, long_name=name, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4, min_num_players=4, provides_information_state_string=True,
        provides_information_state_tensor=True, provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=actions, max_chance_outcomes=cards, num_players=4, min_utility=-1.0,
                            max_utility=1.0, utility_sum=0.0, max_game_length=cards + decisions + 1)

    class Observer:
        def __init__(self) -> None:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"all": self.tensor}

        def set_from(self, state: Any, player: int) -> None:
            pass

        def string_from(self, state: Any, player: int) -> str:
            return ""

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            if self.moves <= cards:
                return int(pyspiel.PlayerId.CHANCE)
            if self.moves > cards + decisions:
                return int(pyspiel.PlayerId.TERMINAL)
            return self.moves % 4

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(8))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            left = max(1, cards - self.moves)
            return [(i, 1.0 / left) for i in range(left)]

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def is_terminal(self) -> bool:
            return self.moves > cards + decisions

        def returns(self) -> list[float]:
            return [0.0] * 4

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer()

    if name not in pyspiel.registered_names():
        pyspiel.register_game(kind, Game)
    return pyspiel.load_game(name)


def decisions_per_deal(ruleset: str, deals: int, seed: int) -> float:
    """The mean number of decisions in a random one-deal episode (the trivial env's length)."""
    from fivehundred.adapters.table import Episode, table_for

    rng, total = random.Random(seed), 0
    for _ in range(deals):
        episode = Episode(table_for(ruleset))
        episode.deal(rng)
        while not episode.over:
            legal = episode.legal_actions()
            episode.apply_action(legal[int(rng.random() * len(legal))])
            total += 1
    return total / deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="pagat-australian")
    ap.add_argument("--deals", type=int, default=300, help="deals per measure and block")
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="time CPU seconds or wall seconds")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--parts", action="store_true", help="only where a PettingZoo step's CPU time goes (µs a step)")
    a = ap.parse_args()
    global clock
    clock = time.process_time if a.clock == "cpu" else time.perf_counter
    from fivehundred.adapters.table import table_for

    if a.parts:
        pettingzoo(a.ruleset, 5, 0)  # warm up
        runs = [pettingzoo_parts(a.ruleset, a.deals, a.seed + block) for block in range(a.blocks)]
        print(f"{a.ruleset}: CPU µs a PettingZoo step (median of {a.blocks} blocks of {a.deals} deals), "
              f"engine {fivehundred.engine_build()}")
        for name in runs[0]:
            print(f"  {name:<8} {statistics.median(r[name] for r in runs):6.1f}")
        return
    table = table_for(a.ruleset)
    steps = round(decisions_per_deal(a.ruleset, 100, a.seed))
    size = sum(p.size for p in table.pieces_for(private=True, recall=True))
    from fivehundred.pettingzoo import _OrderEnforcing

    trivial = trivial_env(steps, size, len(table.actions))
    trivial_here = trivial_env(steps, size, len(table.actions), _OrderEnforcing)
    nothing = trivial_game(len(table.cards), steps, len(table.actions), size)
    measures: dict[str, Callable[[int], float]] = {
        "native": lambda s: native(a.ruleset, a.deals, s),
        "native steps": lambda s: native_steps(a.ruleset, a.deals, s),
        "openspiel": lambda s: openspiel(a.ruleset, a.deals, s),
        "openspiel+obs": lambda s: openspiel(a.ruleset, a.deals, s, observe="tensor"),
        "openspiel+observer": lambda s: openspiel(a.ruleset, a.deals, s, observe="observer"),
        "openspiel (trivial game)": lambda s: openspiel(a.ruleset, a.deals, s, game=nothing),
        "openspiel+obs (trivial game)": lambda s: openspiel(a.ruleset, a.deals, s, observe="tensor", game=nothing),
        "pettingzoo": lambda s: pettingzoo(a.ruleset, a.deals, s),
        "pettingzoo, observation": lambda s: pettingzoo(a.ruleset, a.deals, s, "observation"),
        "pettingzoo (trivial env)": lambda s: _zoo_loop(trivial, a.deals, s),
        "pettingzoo (trivial, wrapper)": lambda s: _zoo_loop(trivial_here, a.deals, s),
    }
    names = list(measures)
    openspiel(a.ruleset, 5, 0)  # warm up: imports, registration, the table
    pettingzoo(a.ruleset, 5, 0)
    rows: list[dict[str, float]] = []
    for block in range(a.blocks):
        shift = block % len(names)
        row = {}
        for name in names[shift:] + names[:shift]:
            row[name] = measures[name](a.seed + block)
        rows.append(row)
    result: dict[str, Any] = {"ruleset": a.ruleset, "deals": a.deals, "blocks": a.blocks, "clock": a.clock,
                              "decisions_per_deal": steps, "engine": fivehundred.engine_build(),
                              "python": sys.version.split()[0], "deals_per_s": {}, "slowdown": {}}
    for name in names:
        result["deals_per_s"][name] = statistics.median(r[name] for r in rows)
        result["slowdown"][name] = statistics.median(r["native"] / r[name] for r in rows)
    if a.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{a.ruleset}: random one-deal episodes ({steps} decisions a deal), {a.deals} deals x {a.blocks} blocks, "
          f"{a.clock} time, engine {result['engine']}, Python {result['python']}")
    for name in names:
        print(f"  {name:<30} {result['deals_per_s'][name]:>8.0f} deals/s   {result['slowdown'][name]:>5.1f}x native")


if __name__ == "__main__":
    main()
