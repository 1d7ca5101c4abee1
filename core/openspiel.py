"""Five Hundred as an OpenSpiel game: importing this module registers ``python_fivehundred``.

    import pyspiel
    import fivehundred.openspiel  # noqa: F401 - registers the game
    game = pyspiel.load_game("python_fivehundred", {"ruleset": "three-handed", "episode": "game"})

Parameters: ``ruleset`` (a shipped name or a YAML path; ``pagat-australian``), ``episode`` (``deal``: one
hand, returns the score differences; ``game``: to the game's end, returns ±1), ``max_deals`` (a game still
going after this many deals is a draw).  The deal is explicit chance, one node per card as OpenSpiel's card
games deal (after a first node for the first dealer); the players are the seats that decide (a dummy, P2,
is played by its controller).  Everything about the game comes from ``fivehundred.adapters.table``, over
the engine's public state API: this module only speaks OpenSpiel.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

try:
    import pyspiel
except ImportError as error:  # the framework is an optional extra
    raise ImportError("fivehundred.openspiel needs OpenSpiel: pip install 'fivehundred[openspiel]'") from error

import numpy as np

from fivehundred.adapters.table import MAX_DEALS, Episode, Piece, Table, table_for
from fivehundred.adapters.tensors import Layout
from fivehundred.engine.state import CHANCE, TERMINAL

if (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)) != (CHANCE, TERMINAL):
    raise ImportError("this OpenSpiel numbers the chance and terminal players differently from fivehundred")

SHORT_NAME = "python_fivehundred"
DEFAULTS: dict[str, Any] = {"ruleset": "pagat-australian", "episode": "deal", "max_deals": MAX_DEALS}


def _game_type(utility: Any, players: tuple[int, int] = (2, 10)) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Five Hundred (fivehundred rulesets)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=players[0],
        max_num_players=players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


class FiveHundredGame(pyspiel.Game):
    """A ruleset, as OpenSpiel sees a game: its type and info derived from the ruleset."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**DEFAULTS, **(params or {})}
        self.table: Table = table_for(str(params["ruleset"]), str(params["episode"]), int(params["max_deals"]))
        table = self.table
        utility = pyspiel.GameType.Utility.ZERO_SUM if table.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=len(table.actions),
            max_chance_outcomes=table.max_chance_outcomes,
            num_players=table.players,
            min_utility=table.min_utility,
            max_utility=table.max_utility,
            utility_sum=0.0 if table.zero_sum else None,
            max_game_length=table.max_game_length,
        )
        super().__init__(_game_type(utility, (table.players, table.players)), info, params)

    def new_initial_state(self) -> FiveHundredState:
        return FiveHundredState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Observer:
        return Observer(self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class FiveHundredState(pyspiel.State):
    """A state of the game: an ``Episode`` (OpenSpiel clones and serializes the Python attributes: the
    episode copies itself with ``GameState.clone`` and pickles as its moves, replayed)."""

    def __init__(self, game: FiveHundredGame):
        super().__init__(game)
        self.episode = Episode(game.table)

    @property
    def engine_state(self) -> Any:
        """The engine's ``GameState`` underneath (None before the first dealer is drawn)."""
        return self.episode.state

    def current_player(self) -> int:
        return self.episode.player  # the engine's CHANCE and TERMINAL are OpenSpiel's ids (checked below)

    def is_terminal(self) -> bool:
        return self.episode.over

    # is_chance_node and legal_actions answer Python callers here; OpenSpiel's own would call from C++ back
    # into current_player and _legal_actions (a third of a random deal's cost).  C++ callers still use those.
    def is_chance_node(self) -> bool:
        return self.episode.player == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None:  # OpenSpiel's answer for a given player (at a chance node: the outcomes)
            return super().legal_actions(player)
        episode = self.episode
        if episode.player == CHANCE:
            return [outcome for outcome, _ in episode.chance_outcomes()]
        return list(episode.legal_actions())  # a list of the caller's own, as OpenSpiel's

    def _legal_actions(self, player: int) -> list[int]:
        return self.episode.legal_actions()

    # The tensors too, as lists of floats: OpenSpiel's own go through C++, copying the observer's tensor piece by
    # piece before making the list (a fifth more than making the list, which costs most of all).
    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(self.episode.table.information_state, player, super().information_state_tensor)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(self.episode.table.observation, player, super().observation_tensor)

    def _tensor(self, layout: Layout, player: int | None, openspiels: Callable[..., list[float]]) -> list[float]:
        episode = self.episode
        seat = episode.player if player is None else player
        if not 0 <= seat < episode.table.players:
            return openspiels() if player is None else openspiels(player)  # OpenSpiel's error
        return episode.tensor(seat, layout).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.episode.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.episode.player == CHANCE:
            self.episode.apply_chance(action)
        else:
            self.episode.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.episode.chance_text(action)
        return self.episode.table.action_text(action)

    def returns(self) -> list[float]:
        return self.episode.returns()

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float]) -> FiveHundredState:
        """A state ``player`` cannot tell from this one, the cards it cannot see dealt afresh, drawn from
        ``probability_sampler`` (what OpenSpiel's information-set MCTS asks of a game, ``ISMCTSBot``)."""
        rng = random.Random(probability_sampler())
        other: FiveHundredState = self.clone()
        other.episode = self.episode.determinised(player, rng)
        return other

    def record(self, **kwargs: Any) -> dict[str, Any]:
        """The game as a ``fivehundred`` game record (``fivehundred validate`` checks it)."""
        return self.episode.record(**kwargs)

    def __str__(self) -> str:
        return f"{self.episode.table.key} moves={self.episode.moves}"


def resampler(seed: int | str = 0) -> Callable[[FiveHundredState, int], FiveHundredState]:
    """A seeded resampler for OpenSpiel's information-set MCTS (``bot.set_resampler(resampler(1))``), so
    that a bot's searches repeat: ``FiveHundredState.resample_from_infostate`` drawing from its own generator."""
    rng = random.Random(f"fivehundred:{seed}:resample")

    def resample(state: FiveHundredState, player: int) -> FiveHundredState:
        return state.resample_from_infostate(player, rng.random)

    return resample


class Observer:
    """OpenSpiel's observer protocol: a flat tensor with named views, and a string, for one player."""

    def __init__(self, table: Table, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("fivehundred observes one player's cards, or none (public)")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.recall = bool(iig_obs_type.perfect_recall)
        self.pieces: tuple[Piece, ...] = table.pieces_for(private=self.private, recall=self.recall)
        self.layout = table.layout(self.pieces)
        self.tensor = np.zeros(sum(p.size for p in self.pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        offset = 0
        for piece in self.pieces:
            self.dict[piece.name] = self.tensor[offset:offset + piece.size].reshape(piece.shape)
            offset += piece.size

    def set_from(self, state: FiveHundredState, player: int) -> None:
        state.episode.tensor(player, self.layout, self.tensor)

    def string_from(self, state: FiveHundredState, player: int) -> str:
        return state.episode.text(player, private=self.private, recall=self.recall)


pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM), FiveHundredGame)
