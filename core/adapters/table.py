"""A ruleset as a game of a fixed shape for the research frameworks, and one episode of it.

``Table`` fixes what a framework declares once per game, all from the ruleset: the players (the seats
that decide: a dummy, P2, is played by its controller), a dense action space over the engine's action
ids, the chance outcomes of a deal (the deck drawn one card at a time), the tensors' pieces and
shapes, the utility bounds and the longest episode.  ``Episode`` plays one deal or a whole game on a
``GameState`` through its public API (legal actions, apply, observation, clone, the hand log) and adds
no rule of its own: what it knows of the rules it asks the compiled ``Rules``.

Episodes: ``deal`` ends when the first hand is over (scored, or thrown in by a call); a deal the rules
throw in at once (D4 'must') is dealt again.  Its returns are score differences: each player's team's
points for the hand minus the mean of the other teams'.  ``game`` runs to the game's end and returns the
result (+1 to the winning side, −1 to the others); a game still going after ``max_deals`` deals is a
draw (0 to everyone).  The first dealer is drawn uniformly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from fivehundred.bots.unseen import determinise
from fivehundred.engine.state import (
    CALL,
    CHANCE,
    DISCARD,
    JOKER_LEAD,
    NO_NOMINATION,
    NOMINATE,
    PASS_ACTION,
    TERMINAL,
    GameState,
    HandLog,
    Observation,
    Phase,
)
from fivehundred.records.record import game_to_dict
from fivehundred.rules.cards import JOKER_BASE, SUIT_LETTERS, card_str
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import private_steps

from .tensors import Layout, View

_DEAL, _GAME_OVER = Phase.DEAL, Phase.GAME_OVER  # globals: an enum member read through its type is slow

EPISODES = ("deal", "game")
MAX_DEALS = 200
"""A whole game (episode ``game``) not over after this many deals is a draw."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One named part of an observation tensor."""

    name: str
    shape: tuple[int, ...]
    private: bool = False
    """Only the observing player's own cards (left out of a public observation)."""
    recall: bool = False
    """History kept only in the information state (perfect recall)."""

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Table:
    """A ruleset as a game of a fixed shape (see the module's text)."""

    def __init__(self, ruleset: str | Path | Ruleset = "pagat-australian", episode: str = "deal",
                 max_deals: int = MAX_DEALS):
        if episode not in EPISODES:
            raise ValueError(f"episode {episode!r}: one of {', '.join(EPISODES)}")
        if max_deals < 1:
            raise ValueError(f"max_deals {max_deals}: at least 1")
        self.ruleset = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
        self.ruleset_ref = self.ruleset.name if isinstance(ruleset, Ruleset) else str(ruleset)
        self.episode, self.max_deals = episode, max_deals
        rules = self.rules = compile_rules(self.ruleset)
        seats = rules.players
        self.deciders: tuple[int, ...] = tuple(sorted(set(rules.controller)))
        """The seat of each player: every seat but the dummies (P2), which their controllers play."""
        self.player_of_seat = tuple(self.deciders.index(rules.controller[s]) for s in range(seats))
        self.names = tuple(rules.seats[s] for s in self.deciders)
        self.players = len(self.deciders)
        self.cards: tuple[int, ...] = tuple(sorted(rules.deck))
        self.card_index = {card: i for i, card in enumerate(self.cards)}
        self.actions: tuple[int, ...] = tuple(sorted(self._engine_actions()))
        """The engine's action id of each dense action index."""
        self.action_index = {action: i for i, action in enumerate(self.actions)}
        self.max_chance_outcomes = max(len(self.cards), seats)
        teams = len(rules.team_names)
        sizes = [sum(1 for s in self.deciders if rules.team_of[s] == t) for t in range(teams)]
        if episode == "deal":
            bound = 2.0 * self._most_a_hand_scores()
            self.min_utility, self.max_utility = -bound, bound
            self.zero_sum = len(set(sizes)) == 1  # each team's difference from the others' mean sums to 0
        else:
            self.min_utility, self.max_utility = -1.0, 1.0
            self.zero_sum = len(sizes) == 2 and sizes[0] == sizes[1]
        per_deal = self._longest_deal()
        self.max_game_length = per_deal if episode == "deal" else per_deal * max_deals
        self.auction_length = seats * (len(rules.ladder) + 2)
        self.pieces = self._pieces()
        self._layouts: dict[tuple[Piece, ...], Layout] = {}
        self.information_state = self.layout(self.pieces_for(private=True, recall=True))
        """The layout of a player's information state: what it saw this hand (OpenSpiel's information state)."""
        self.observation = self.layout(self.pieces_for(private=True, recall=False))
        """The layout of what a player sees now (OpenSpiel's observation)."""

    @property
    def key(self) -> tuple[str, str, int]:
        return self.ruleset_ref, self.episode, self.max_deals

    def _engine_actions(self) -> set[int]:
        rules = self.rules
        actions = set(rules.deck) | {DISCARD + c for c in rules.deck}
        actions |= {JOKER_LEAD + 4 * (c - JOKER_BASE) + s for c in rules.deck if c >= JOKER_BASE for s in range(4)}
        actions |= {NOMINATE + s for s in range(4)} | {NO_NOMINATION, PASS_ACTION}
        actions |= {CALL + rung for rung in range(len(rules.ladder))}
        actions |= {a for step in rules.steps for a in step.actions}
        return actions

    def _most_a_hand_scores(self) -> float:
        """A bound on any team's points for one hand, from the ladder and the scoring fields."""
        rules, scoring = self.rules, self.ruleset.scoring
        contract = max(max(abs(c.value), abs(c.value if c.fail_value is None else c.fail_value) + c.fail_penalty)
                       for c in rules.ladder)
        slam = scoring.slam.scores if scoring.slam is not None else 0
        per_trick = max(scoring.defender_trick_points, scoring.defender_points_in_misere, scoring.overtrick_points)
        return float(contract + slam + per_trick * rules.hand_size + self.ruleset.play.claim_penalty
                     + abs(scoring.breach or 0))

    def _longest_deal(self) -> int:
        """A bound on the players' actions in one deal: calls, discards, steps, the nomination, the plays."""
        rules = self.rules
        seats, hand = rules.players, rules.hand_size
        calls = seats * (len(rules.ladder) + 2) + 1
        exchange = 2 * (rules.kitty_size + hand) + 1 + len(rules.steps) * seats * (hand + 1)
        return calls + exchange + seats * hand + 1

    def _pieces(self) -> tuple[Piece, ...]:
        rules = self.rules
        seats, deck, calls = rules.players, len(self.cards), len(rules.ladder) + 2
        steps = sum(step.public_size(rules) for step in rules.steps)
        own = sum(step.private_size(rules) for step in rules.steps)
        return (*self._plain_pieces(seats, deck, calls), *((Piece("steps", (steps,)),) if steps else ()),
                *((Piece("private_steps", (own,), private=True),) if own else ()),
                *self._recall_pieces(seats, deck, calls))

    def _plain_pieces(self, seats: int, deck: int, calls: int) -> tuple[Piece, ...]:
        rules = self.rules
        return (
            Piece("player", (self.players,)), Piece("phase", (len(Phase) + 1,)), Piece("to_act", (seats,)),
            Piece("dealer", (seats,)), Piece("hand", (deck,), private=True), Piece("discards", (deck,), private=True),
            Piece("shown", (seats, deck)), Piece("calls", (seats, calls)), Piece("contract", (len(rules.ladder) + 1,)),
            Piece("contractor", (seats,)), Piece("side", (seats,)), Piece("nomination", (5,)),
            Piece("played", (seats, deck)), Piece("trick", (seats, deck)), Piece("led", (5,)),
            Piece("tricks_won", (seats,)), Piece("totals", (len(rules.team_names),)), Piece("sitting", (seats,)),
        )

    def _recall_pieces(self, seats: int, deck: int, calls: int) -> tuple[Piece, ...]:
        return (
            Piece("dealt", (deck,), private=True, recall=True),
            Piece("trick_of_card", (deck, self.rules.hand_size), recall=True),
            Piece("call_order", (self.auction_length, seats + calls), recall=True),
        )

    def pieces_for(self, *, private: bool, recall: bool) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if (private or not p.private) and (recall or not p.recall))

    def layout(self, pieces: Sequence[Piece]) -> Layout:
        """The pieces laid out flat (one layout per set of pieces: ask once, keep it)."""
        key = tuple(pieces)
        layout = self._layouts.get(key)
        if layout is None:
            layout = self._layouts[key] = Layout(self, key)
        return layout

    def action_text(self, action_index: int) -> str:
        """A player's action by its dense index."""
        action = self.actions[action_index]
        step = self.rules.step_of_action.get(action)
        return step.text(action) if step is not None else _engine_text(action, self.rules)


def _engine_text(action: int, rules: Any) -> str:
    from fivehundred.rules.actions import action_text

    return action_text(action, rules.call_text)


@lru_cache(maxsize=64)
def table_for(ruleset: str, episode: str = "deal", max_deals: int = MAX_DEALS) -> Table:
    """The table of a ruleset (by shipped name or YAML path), built once."""
    return Table(ruleset, episode, max_deals)


# --- an episode --------------------------------------------------------------------------------


class Episode:
    """One episode (a deal or a game) played on a ``GameState`` through its public API.

    Chance is either explicit (``chance_outcomes``/``apply_chance``: the first dealer, then each card
    of the deck in turn, as OpenSpiel draws it) or sampled (``deal(rng)``: the engine's own shuffle,
    as ``fivehundred.new_game`` deals a seeded game).
    """

    __slots__ = ("_dense", "_engine_legal", "_views", "deck", "moves", "over", "player", "state", "table", "undrawn")

    def __init__(self, table: Table, views: dict[tuple[int, Layout], View] | None = None):
        self.table = table
        self.state: GameState | None = None
        self.deck: list[int] = []
        """The cards drawn so far for the deal in progress (explicit chance)."""
        self.undrawn: list[int] = list(range(len(table.cards)))
        """The indices of the cards not drawn yet for the deal in progress, in order."""
        self.moves: list[int] | None = []
        """Every chance outcome and action index so far (explicit chance only: what replays the episode)."""
        self.over = False
        self.player = CHANCE
        """The player to act, ``CHANCE`` while cards are to be dealt, ``TERMINAL`` once the episode is over."""
        self._engine_legal: list[int] | None = None
        self._dense: list[int] = []
        self._views: dict[tuple[int, Layout], View] = {} if views is None else views
        """Each player's tensors (by layout), kept up to date as they are asked for (``views``: an earlier episode's
        arrays, taken over by ``renewed``)."""

    def renewed(self) -> Episode:
        """A new episode of the same table that takes over this one's tensors' arrays (this episode's tensors
        are not to be asked for again)."""
        views, self._views = self._views, {}
        return Episode(self.table, views)

    # --- turns and moves ---

    def current_player(self) -> int:
        """The player to act, ``CHANCE`` while cards are to be dealt, ``TERMINAL`` once the episode is over."""
        return self.player

    def seat_to_act(self) -> int:
        return self.state.current_player() if self.state is not None and not self.over else -1

    def legal_actions(self) -> list[int]:
        """The dense indices of the legal actions, sorted (the engine's ids keep their order; do not modify the
        list: it is kept while the state stands)."""
        if self.player < 0:
            return []
        legal = self.state.legal_actions()  # type: ignore[union-attr]  # the engine's, kept while the state stands
        if legal is not self._engine_legal:
            index = self.table.action_index
            self._engine_legal, self._dense = legal, [index[a] for a in legal]
        return self._dense

    def apply_action(self, action_index: int) -> None:
        state = self.state
        if state is None or self.player < 0:
            raise ValueError("no player is to act")
        state.apply(self.table.actions[action_index])
        if self.moves is not None:
            self.moves.append(action_index)
        if state.phase == _DEAL and self.table.episode == "deal":
            self.over = True  # the hand is over: scored, or thrown in
        self._settle()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance node, with their probabilities: the first dealer, then the next card."""
        if self.state is None:
            seats = self.table.rules.players
            return [(seat, 1.0 / seats) for seat in range(seats)]
        left = self.undrawn
        chance = 1.0 / len(left)
        return [(i, chance) for i in left]

    def apply_chance(self, outcome: int) -> None:
        if self.player != CHANCE:
            raise ValueError("no card is to be dealt")
        table = self.table
        if self.state is None:
            self.state = GameState(table.rules, first_dealer=outcome)
        else:
            card = table.cards[outcome]
            try:
                self.undrawn.remove(outcome)
            except ValueError:
                raise ValueError(f"{card_str(card)} is already dealt") from None
            self.deck.append(card)
            if len(self.deck) == len(table.cards):
                deck, self.deck, self.undrawn = self.deck, [], list(range(len(table.cards)))
                self.state.deal_deck(deck)
        if self.moves is not None:
            self.moves.append(outcome)
        if not self.deck:  # the first dealer drawn, or the deck dealt (while dealing, the state is as it was)
            self._settle()

    def chance_text(self, outcome: int) -> str:
        if self.state is None:
            return f"first dealer {self.table.rules.seats[outcome]}"
        return f"deal {card_str(self.table.cards[outcome])}"

    def deal(self, rng: Any) -> None:
        """Sampled chance: while cards are to be dealt, the engine shuffles with ``rng`` and deals."""
        self.moves = None
        if self.state is None:
            self.state = GameState(self.table.rules, rng=rng)  # the first dealer as the ruleset draws it
        while self.current_player() == CHANCE:
            self.state.deal(rng)
            self._settle()

    def _settle(self) -> None:
        """What follows without a choice: a deck dealt again unshuffled (B10), the end of the episode."""
        state = self.state
        assert state is not None
        while state.phase == _DEAL and state.deck_to_redeal is not None and not self._capped():
            state.deal_deck(state.deck_to_redeal)
        if state.is_terminal() or self._capped():
            self.over = True
        if self.over:
            self.player = TERMINAL
        elif state.phase == _DEAL:
            self.player = CHANCE
        else:
            self.player = self.table.player_of_seat[state.current_player()]

    def _capped(self) -> bool:
        state = self.state
        return (self.table.episode == "game" and state is not None and state.phase == _DEAL
                and state.deals >= self.table.max_deals)

    # --- results ---

    def returns(self) -> list[float]:
        table = self.table
        if not self.over or self.state is None:
            return [0.0] * table.players
        team_of = table.rules.team_of
        if table.episode == "game":
            by_seat = self.state.returns()
            return [by_seat[seat] for seat in table.deciders]
        points = self.state.totals  # a deal episode is the game's first hand: its totals are the hand's points
        others = len(points) - 1
        total = sum(points)
        return [float(points[t] - (total - points[t]) / others) for t in (team_of[s] for s in table.deciders)]

    def record(self, **kwargs: Any) -> dict[str, Any]:
        """The game so far as a game record (``fivehundred.records``): what ``fivehundred validate`` checks."""
        if self.state is None:
            raise ValueError("nothing has been dealt yet")
        return game_to_dict(self.state, **kwargs)

    # --- copies ---

    def clone(self) -> Episode:
        other = Episode(self.table)
        other.state = self.state.clone() if self.state is not None else None
        other.deck = list(self.deck)
        other.undrawn = list(self.undrawn)
        other.moves = list(self.moves) if self.moves is not None else None
        other.over, other.player = self.over, self.player
        return other

    def determinised(self, player: int, rng: Any) -> Episode:
        """A copy the player cannot tell from this one: the cards it cannot see dealt afresh, uniformly among
        the deals that agree with all it knows (``fivehundred.bots.unseen.determinise``).  Not replayable:
        its cards are no longer the ones its chance outcomes drew."""
        other = self.clone()
        if self.state is not None and self.state.phase != _DEAL and not self.over:
            other.state = determinise(self.state, self.table.deciders[player], rng)
        other.moves = None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        if self.moves is None:
            raise TypeError("an episode dealt by a generator is not replayable: deal with explicit chance")
        return replay, (self.table.key, tuple(self.moves))

    # --- what a player sees ---

    def observation(self, player: int) -> Observation | None:
        if self.state is None:
            return None
        return self.state.observation(self.table.deciders[player])

    def hand_seen(self, player: int) -> tuple[int, ...]:
        """The player's own seat's cards as dealt this hand, once it has looked at them."""
        state = self.state
        if state is None or state.phase == _DEAL or not state.hands_log:
            return ()
        step = state.current_step
        if step is not None and step.hides_own_hand:
            return ()
        return tuple(sorted(state.hand_log.hands[self.table.deciders[player]]))

    def past_hands(self) -> list[HandLog]:
        """The hands of this episode that are over."""
        state = self.state
        if state is None:
            return []
        logs = state.hands_log
        return list(logs) if state.phase in (_DEAL, _GAME_OVER) else list(logs[:-1])

    def tensor(self, player: int, layout: Layout, out: np.ndarray | None = None) -> np.ndarray:
        """The layout's pieces for ``player``, flat (``Table.layout``): a new array, or written into ``out`` when
        given.  The player's tensor is kept with the episode and brought up to date from when it was last asked."""
        if self.state is None:
            flat = layout.initial(player, self)
        else:
            view = self._views.get((player, layout))
            if view is None:
                view = self._views[player, layout] = View(layout, player)
            flat = view.update(self)
        if out is None:
            return flat.copy()
        out[:] = flat
        return out

    def text(self, player: int, *, private: bool = True, recall: bool = False) -> str:
        """What ``player`` sees, as text; with ``recall``, everything it has seen this episode."""
        table = self.table
        seat = table.deciders[player]
        seats = table.rules.seats
        lines = [f"player {player} ({seats[seat]})"]
        if recall:
            lines += [_past_hand_text(table, log, seat, private) for log in self.past_hands()]
        obs = self.observation(player)
        if self.over:
            lines.append("over: " + " ".join(f"{name} {r:g}" for name, r in zip(table.names, self.returns(),
                                                                               strict=True)))
        if obs is None:
            return "\n".join([*lines, "first dealer to draw"])
        if recall and private and self.hand_seen(player):
            lines.append("dealt: " + _cards(self.hand_seen(player)))
        lines += _observation_text(table, self.state, obs, private)  # type: ignore[arg-type]
        return "\n".join(lines)


def replay(key: tuple[str, str, int], moves: Sequence[int]) -> Episode:
    """The episode that ``moves`` (chance outcomes and action indices, in order) make under a table."""
    episode = Episode(table_for(*key))
    for move in moves:
        if episode.current_player() == CHANCE:
            episode.apply_chance(move)
        else:
            episode.apply_action(move)
    return episode


# --- text --------------------------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards) or "-"


def _calls_text(rules: Any, calls: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{rules.seats[s]} {rules.call_text(c)}" for s, c in calls) or "-"


def _trick_text(rules: Any, order: Sequence[int], leader: int, cards: Sequence[int]) -> str:
    seat, out = leader, []
    for card in cards:
        out.append(f"{rules.seats[seat]} {card_str(card)}")
        seat = order[seat]
    return " ".join(out)


def _observation_text(table: Table, state: GameState, obs: Observation, private: bool) -> list[str]:
    rules = table.rules
    seats = rules.seats
    to_act = state.current_player()
    lines = [f"{obs.phase.name.lower()}; dealer {seats[obs.dealer]}"
             + (f"; {seats[to_act]} to act" if to_act >= 0 else "")
             + (f" ({obs.step})" if obs.step else "")]
    if private:
        lines.append("hand: " + _cards(obs.hand))
        if obs.discards:
            lines.append("discards: " + _cards(obs.discards))
    lines += [f"shown {seats[s]}: {_cards(cards)}" for s, cards in obs.open_hands]
    if obs.calls:
        lines.append("calls: " + _calls_text(rules, obs.calls))
    if obs.contract is not None:
        by = seats[obs.contractor] if obs.contractor >= 0 else "nobody"
        side = " ".join(seats[s] for s in sorted(state.contracting_side))
        nominated = f"; nominated {SUIT_LETTERS[obs.nomination]}" if obs.nomination is not None else ""
        lines.append(f"contract: {obs.contract.call} by {by} (side {side or '-'}){nominated}")
    order = state.play_order
    for number, (leader, cards, winner, _) in enumerate(obs.tricks, 1):
        lines.append(f"trick {number}: {_trick_text(rules, order, leader, cards)} > {seats[winner]}")
    if obs.current_trick:
        lines.append(f"trick {len(obs.tricks) + 1}: {_trick_text(rules, order, obs.leader, obs.current_trick)}")
    if obs.tricks_won:
        lines.append("won: " + " ".join(f"{seats[s]} {n}" for s, n in enumerate(obs.tricks_won)))
    if obs.steps:
        lines.append("steps: " + repr(dict(sorted(obs.steps.items()))))
    own = private_steps(state, obs.seat) if private else {}
    if own:
        lines.append("seen: " + repr(dict(sorted(own.items()))))
    lines.append("totals: " + " ".join(f"{name} {t}" for name, t in zip(rules.team_names, obs.totals, strict=True)))
    return lines


def _past_hand_text(table: Table, log: HandLog, seat: int, private: bool) -> str:
    rules = table.rules
    seats = rules.seats
    parts = [f"hand {log.number}: dealer {seats[log.dealer]}"]
    if private:
        parts.append("dealt " + _cards(sorted(log.hands[seat])))
    parts.append("calls " + _calls_text(rules, log.calls))
    if log.contract is not None:
        by = seats[log.contractor] if log.contractor >= 0 else "nobody"
        parts.append(f"contract {log.contract.call} by {by}")
        if private and seat == log.contractor and log.discards:
            parts.append("discards " + _cards(log.discards))
    if log.nomination is not None:
        parts.append(f"nominated {SUIT_LETTERS[log.nomination]}")
    parts += [f"{seats[t.leader]} led {_cards(t.cards)} > {seats[t.winner]}" for t in log.tricks]
    if log.scores:
        parts.append("scores " + " ".join(f"{n} {p}" for n, p in zip(rules.team_names, log.scores, strict=True)))
    return "; ".join(parts)


def table_text(episode: Episode) -> str:
    """The whole table as a watcher sees it: every hand, the kitty, the calls, the trick, the scores."""
    state = episode.state
    table = episode.table
    if state is None:
        return "(no cards dealt yet)"
    rules = table.rules
    phase = state.phase.name.lower()
    lines = [f"{rules.ruleset.name}: deal {state.deals}, {phase}, dealer {rules.seats[state.dealer]}"]
    if state.hands_log and state.phase not in (_DEAL, _GAME_OVER):
        lines += [f"  {rules.seats[s]:>3}: {_cards(state.hand(s))}" for s in range(rules.players)]
        log = state.hand_log
        if log.kitty and log.contract is None:
            lines.append(f"kitty: {_cards(log.kitty)}")
    obs = state.observation(table.deciders[0])
    lines += _observation_text(table, state, obs, private=False)[1:]
    if episode.over:
        lines.append("over: " + " ".join(f"{n} {r:g}" for n, r in zip(table.names, episode.returns(), strict=True)))
    return "\n".join(lines)
