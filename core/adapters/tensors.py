"""A player's observation as a flat tensor, kept up to date from one observation to the next.

A ``Layout`` lays a table's pieces (``fivehundred.adapters.table.Piece``) out flat.  A ``View`` is one
player's tensor under one layout, on one episode: asked again, it changes only what changed since it was
last asked.  The pieces of the hand's history grow (a call fills a row, a card played an entry), and every
other piece is drawn again only when the value it shows has changed, and then from the value it showed:
only the entries that differ are written (a card that left the hand, the seat that won a trick).  What each
piece shows comes from the engine's public state API (``GameState.cards_seen`` for the cards a seat sees,
``public_steps`` for the steps, ``fivehundred.rules.steps.private_steps`` for what a seat alone sees of
them), never from a rule of its own: the tests compare every tensor with one drawn afresh from
``GameState.observation``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from fivehundred.engine.state import Phase
from fivehundred.rules.steps import Step, private_steps

if TYPE_CHECKING:
    from .table import Episode, Piece, Table

_float = np.float32
_NOTHING = object()
_DEAL, _PLAY = Phase.DEAL, Phase.PLAY


class Layout:
    """Pieces one after another in a flat tensor: their offsets and the tensor's size."""

    def __init__(self, table: Table, pieces: Sequence[Piece]):
        self.table = table
        self.pieces = tuple(pieces)
        self.offsets: list[int] = []
        offset = 0
        for piece in self.pieces:
            self.offsets.append(offset)
            offset += piece.size
        self.size = offset
        self._initial: dict[int, np.ndarray] = {}
        names = [p.name for p in self.pieces]
        where = {p.name: (o, p.shape) for p, o in zip(self.pieces, self.offsets, strict=True)}
        self.grown = [(_GROWN[name], *where[name]) for name in names if name in _GROWN]
        self.play_grown = [(_GROWN[name], *where[name]) for name in names if name in _GROWN and name in _IN_PLAY]
        redrawn = [name for name in names if name not in _GROWN]
        self.redrawn = [(_REDRAWN[name], *where[name]) for name in redrawn]
        self.play_redrawn = [i for i, name in enumerate(redrawn) if name in _IN_PLAY]
        """The redrawn pieces that can change from one card played to the next."""
        self.all_redrawn = list(range(len(redrawn)))

    def initial(self, player: int, episode: Episode) -> np.ndarray:
        """The player's tensor before the first dealer is drawn, ``episode`` being there (the same in every
        episode of the table: do not modify)."""
        flat = self._initial.get(player)
        if flat is None:
            flat = self._initial[player] = View(self, player).update(episode)
        return flat

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Each piece's part of ``flat``, shaped."""
        return {p.name: flat[o:o + p.size].reshape(p.shape) for p, o in zip(self.pieces, self.offsets, strict=True)}


class View:
    """One player's tensor under a layout, on one episode, brought up to date when asked (``update``)."""

    __slots__ = ("calls", "current", "drawn", "flat", "hand", "layout", "player", "playing", "redrawn", "seen",
                 "state", "trick_cards", "tricks", "version")

    def __init__(self, layout: Layout, player: int):
        self.layout, self.player = layout, player
        self.flat = flat = np.zeros(layout.size, _float)
        self.redrawn = [(source, draw, flat[offset:offset + math.prod(shape)].reshape(shape))
                        for (source, draw), offset, shape in layout.redrawn]
        self.playing = False
        """Whether the tensor shows the play of its hand (then only the pieces of the play can change)."""
        self.drawn: list[Any] = [_NOTHING] * len(self.redrawn)
        """The value each redrawn piece shows now."""
        self.state: Any = None
        self.version: tuple[int, bool] | None = None
        self.hand = -1
        """The hand (its place in the game's log) whose history the tensor holds; -1: none."""
        self.calls = self.tricks = self.trick_cards = 0
        """How much of that history is in: calls, whole tricks, cards of the trick after them."""
        self.seen: tuple[Any, ...] | None = None
        self.current: tuple[Any, ...] = ()
        """The trick in progress as the update found it: (leader, cards, play order)."""

    def update(self, episode: Episode) -> np.ndarray:
        """The tensor as the episode stands now (the view's own array: copy it to keep it)."""
        state = episode.state
        version = (-1 if state is None else state.step, episode.over)
        if state is self.state and version == self.version:
            return self.flat
        phase = state.phase if state is not None else _DEAL
        hand = len(state.hands_log) - 1 if state is not None and state.hands_log and phase != _DEAL else -1
        if state is not self.state or hand != self.hand:
            self.flat.fill(0)
            self.drawn = [_NOTHING] * len(self.redrawn)
            self.calls = self.tricks = self.trick_cards = 0
            self.playing = False
        self.state, self.version, self.hand, self.seen = state, version, hand, None
        self.current = (-1, (), ()) if hand < 0 else (state.trick_leader, state.trick,  # type: ignore[union-attr]
                                                      state.play_order)  # type: ignore[union-attr]
        playing = hand >= 0 and phase == _PLAY
        still = playing and self.playing  # only cards played since: the contract, the calls... stand
        layout = self.layout
        table, drawn, redrawn = layout.table, self.drawn, self.redrawn
        for i in layout.play_redrawn if still else layout.all_redrawn:
            source, draw, view = redrawn[i]
            value = source(self, episode)
            old = drawn[i]
            if value != old:
                draw(table, view, old, value)  # old is _NOTHING when the piece is all zeros
                drawn[i] = value
        if hand >= 0 and layout.grown:
            log = state.hands_log[-1]  # type: ignore[union-attr]
            calls = log.calls
            fresh = _cards_since(self, log.tricks)
            entries: list[int] = []
            for grow, offset, shape in layout.play_grown if still else layout.grown:
                entries += grow(table, offset, shape, calls, self.calls, fresh)
            _set(self.flat, entries)
            self.calls = len(calls)
        self.playing = playing
        return self.flat

    def cards_seen(self, episode: Episode) -> tuple[Any, ...]:
        """``GameState.cards_seen`` for the player's seat, asked once an update."""
        if self.seen is None:
            state = episode.state
            self.seen = state.cards_seen(self.layout.table.deciders[self.player]) if state else ((), (), ())
        return self.seen


# --- the history of the hand: appended to ------------------------------------------------------

Grow = Callable[["Table", int, tuple[int, ...], Sequence[tuple[int, int]], int, Sequence[tuple[int, int, int]]],
                list[int]]
"""(table, the piece's offset, its shape, the hand's calls, the calls already in, the cards new since) -> the
entries of the flat tensor to set to 1."""


def _cards_since(view: View, tricks: Sequence[Any]) -> list[tuple[int, int, int]]:
    """(trick number, seat, card) of each card played since the view last looked, in order (``tricks``: the
    hand's tricks over)."""
    number, skip = view.tricks, view.trick_cards
    leader, current, order = view.current
    if number == len(tricks) and skip == len(current):
        return []
    out: list[tuple[int, int, int]] = []
    while number < len(tricks):
        trick = tricks[number]
        out += _placed(number, trick.leader, trick.cards, skip, order)
        number, skip = number + 1, 0
    if current:
        out += _placed(number, leader, current, skip, order)
        skip = len(current)
    view.tricks, view.trick_cards = number, skip
    return out


def _placed(number: int, leader: int, cards: Sequence[int], skip: int,
            order: Sequence[int]) -> list[tuple[int, int, int]]:
    seat = leader
    for _ in range(skip):
        seat = order[seat]
    out = []
    for card in cards[skip:]:
        out.append((number, seat, card))
        seat = order[seat]
    return out


def _grow_calls(table: Table, offset: int, shape: tuple[int, ...], calls: Sequence[tuple[int, int]], start: int,
                cards: Sequence[tuple[int, int, int]]) -> list[int]:
    width = shape[1]
    return [offset + seat * width + call + 2 for seat, call in calls[start:]]  # misdeal -2, pass -1, the rungs


def _grow_call_order(table: Table, offset: int, shape: tuple[int, ...], calls: Sequence[tuple[int, int]],
                     start: int, cards: Sequence[tuple[int, int, int]]) -> list[int]:
    rows, width = shape
    seats = table.rules.players
    out: list[int] = []
    for i in range(start, min(len(calls), rows)):
        seat, call = calls[i]
        out += (offset + i * width + seat, offset + i * width + seats + call + 2)
    return out


def _grow_played(table: Table, offset: int, shape: tuple[int, ...], calls: Sequence[tuple[int, int]], start: int,
                 cards: Sequence[tuple[int, int, int]]) -> list[int]:
    index, width = table.card_index, shape[1]
    return [offset + seat * width + index[card] for _, seat, card in cards]


def _grow_trick_of_card(table: Table, offset: int, shape: tuple[int, ...], calls: Sequence[tuple[int, int]],
                        start: int, cards: Sequence[tuple[int, int, int]]) -> list[int]:
    index, width = table.card_index, shape[1]
    return [offset + index[card] * width + number for number, _, card in cards]


_IN_PLAY = frozenset({"to_act", "hand", "shown", "trick", "led", "tricks_won", "steps", "private_steps", "played",
                      "trick_of_card"})
"""The pieces that change during the play (a step's public data may: a plugin's step says what it shows)."""

_GROWN: dict[str, Grow] = {"calls": _grow_calls, "call_order": _grow_call_order, "played": _grow_played,
                           "trick_of_card": _grow_trick_of_card}


# --- every other piece: a value, drawn again when it changes -----------------------------------


def _set(flat: np.ndarray, entries: Sequence[int]) -> None:
    """``flat[entries] = 1`` for a one-dimensional ``flat``: through a memoryview, one entry at a time (cheaper
    than numpy's indexing by a list, or by an int, for the few entries an update sets)."""
    if entries:
        out: Any = flat.data  # a memoryview (typed as taking ints; it takes the floats of its format)
        for entry in entries:
            out[entry] = 1.0


def _afresh(draw: Callable[[Table, np.ndarray, Any], None]) -> Draw:
    """A draw of the whole piece from its value, the piece cleared first."""
    def redraw(table: Table, v: np.ndarray, old: Any, new: Any) -> None:
        if old is not _NOTHING:
            v.fill(0)
        draw(table, v, new)
    return redraw


def _one(table: Table, v: np.ndarray, old: Any, index: int) -> None:
    size = v.shape[0]
    if old is not _NOTHING and 0 <= old < size:
        v[old] = 0
    if 0 <= index < size:
        v[index] = 1


def _card_set(table: Table, v: np.ndarray, old: Any, cards: Sequence[int]) -> None:
    """The cards set: only those that came or went since ``old`` changed."""
    index = table.card_index
    if old is _NOTHING or not old:
        _set(v, [index[card] for card in cards])
        return
    now, before = set(cards), set(old)
    for card in before.difference(now):
        v[index[card]] = 0
    for card in now.difference(before):
        v[index[card]] = 1


def _fill_cards(table: Table, v: np.ndarray, cards: Sequence[int]) -> None:
    if cards:
        index = table.card_index
        v[[index[card] for card in cards]] = 1


def _seat_set(table: Table, v: np.ndarray, seats: Sequence[int]) -> None:
    for seat in seats:
        v[seat] = 1


def _phase(view: View, e: Episode) -> int:
    if e.over:
        return -1
    return int(e.state.phase) if e.state is not None else int(_DEAL)


def _draw_phase(table: Table, v: np.ndarray, index: int) -> None:
    v[index] = 1


def _contract(view: View, e: Episode) -> int:
    contract = e.state.contract if e.state is not None else None
    return -1 if contract is None else contract.rung + 1  # rung -1: the hand nobody bid (B10 'no-trumps')


def _nomination(view: View, e: Episode) -> int:
    state = e.state
    if state is None or state.contract is None:
        return -1
    nomination = state.hand_log.nomination
    return 4 if nomination is None else nomination


def _shown(table: Table, v: np.ndarray, shown: Sequence[tuple[int, Sequence[int]]]) -> None:
    for seat, cards in shown:
        _fill_cards(table, v[seat], cards)


def _trick(view: View, e: Episode) -> tuple[Any, ...]:
    return view.current if view.current[1] else ()


def _led(view: View, e: Episode) -> int:
    led = e.state.led_suit if e.state is not None else None
    return -1 if led is None else led


def _draw_trick(table: Table, v: np.ndarray, old: Any, trick: tuple[Any, ...]) -> None:
    """The trick's cards by seat: only the cards played since ``old`` when it is the same trick."""
    shown = 0
    if old is not _NOTHING and old:
        if trick and old[0] == trick[0] and old[2] == trick[2] and trick[1][:len(old[1])] == old[1]:
            shown = len(old[1])
        else:
            v.fill(0)
    if trick:
        leader, cards, order = trick
        index = table.card_index
        for _, seat, card in _placed(0, leader, cards, shown, order):
            v[seat, index[card]] = 1


def _draw_tricks_won(table: Table, v: np.ndarray, old: Any, won: Sequence[int]) -> None:
    """Each seat's share of the tricks: only the seats whose count changed since ``old``."""
    if old is not _NOTHING and len(old) != len(won):
        v.fill(0)
        old = _NOTHING
    shares = _shares(table.rules.hand_size)
    if old is _NOTHING:
        for seat, now in enumerate(won):
            if now:
                v[seat] = shares[now]
        return
    for seat, (before, now) in enumerate(zip(old, won, strict=True)):
        if before != now:
            v[seat] = shares[now]


@cache
def _shares(hand_size: int) -> np.ndarray:
    """``n / hand_size`` for every number of tricks n, in the tensor's float type."""
    return np.arange(hand_size + 1, dtype=_float) / hand_size


def _draw_totals(table: Table, v: np.ndarray, totals: tuple[int, ...]) -> None:
    if totals:
        v[:] = _scaled_totals(max(table.ruleset.game.target, 1), totals)


@lru_cache(maxsize=4096)
def _scaled_totals(target: int, totals: tuple[int, ...]) -> np.ndarray:
    """The totals over twice the target, within ±1 (kept: every deal begins from the same ones; do not modify)."""
    return np.clip(np.asarray(totals, _float) / (2.0 * target), -1.0, 1.0)


def _steps(view: View, e: Episode) -> tuple[int, ...]:
    """The entries the steps' public data sets (``Step.public_indices``), each step after the ones before it."""
    state = e.state
    public = state.public_steps() if state is not None else {}
    if not public:
        return ()
    rules = state.rules  # type: ignore[union-attr]
    return _entries(rules, public, "public", lambda step: step.public_size(rules),
                    lambda step, data: step.public_indices(data, rules))


def _private_steps(view: View, e: Episode) -> tuple[int, ...]:
    """The entries the steps' data that the player's seat alone sees sets (``Step.private_indices``)."""
    state = e.state
    own = private_steps(state, view.layout.table.deciders[view.player]) if state is not None else {}
    if not own:
        return ()
    rules = state.rules  # type: ignore[union-attr]
    return _entries(rules, own, "private", lambda step: step.private_size(rules),
                    lambda step, data: step.private_indices(data, rules))


def _entries(rules: Any, data: dict[str, Any], kind: str, size_of: Callable[[Step], int],
             indices_of: Callable[[Step, Any], Iterable[int]]) -> tuple[int, ...]:
    """The steps' entries of ``data`` (by step name), each step's after the ones before it."""
    out, offset = [], 0
    for step in rules.steps:
        size = size_of(step)
        if step.name in data:
            for i in indices_of(step, data[step.name]):
                if not 0 <= i < size:
                    raise ValueError(f"step {step.name!r}: {kind}_indices gave entry {i}, outside its {kind}_size "
                                     f"{size}, for {data[step.name]!r}")
                out.append(offset + i)
        offset += size
    return tuple(out)


def _draw_steps(table: Table, v: np.ndarray, entries: Sequence[int]) -> None:
    for i in entries:
        v[i] = 1


Source = Callable[[View, "Episode"], Any]
Draw = Callable[["Table", np.ndarray, Any, Any], None]
"""(table, the piece, the value it shows or ``_NOTHING`` when it is all zeros, the value to show)."""

_REDRAWN: dict[str, tuple[Source, Draw]] = {
    "player": (lambda view, e: view.player, _one),
    "phase": (_phase, _afresh(_draw_phase)),
    "to_act": (lambda view, e: e.seat_to_act(), _one),
    "dealer": (lambda view, e: e.state.dealer if e.state is not None else -1, _one),
    "hand": (lambda view, e: view.cards_seen(e)[0], _card_set),
    "discards": (lambda view, e: view.cards_seen(e)[1], _card_set),
    "shown": (lambda view, e: view.cards_seen(e)[2], _afresh(_shown)),
    "contract": (_contract, _one),
    "contractor": (lambda view, e: e.state.contractor if e.state is not None else -1, _one),
    "side": (lambda view, e: e.state.contracting_side if e.state is not None else frozenset(), _afresh(_seat_set)),
    "nomination": (_nomination, _one),
    "trick": (_trick, _draw_trick),
    "led": (_led, _one),
    "tricks_won": (lambda view, e: e.state.tricks_won_by_seat if e.state is not None else (), _draw_tricks_won),
    "totals": (lambda view, e: tuple(e.state.totals) if e.state is not None else (), _afresh(_draw_totals)),
    "sitting": (lambda view, e: e.state.sitting_out if e.state is not None else frozenset(), _afresh(_seat_set)),
    "steps": (_steps, _afresh(_draw_steps)),
    "private_steps": (_private_steps, _afresh(_draw_steps)),
    "dealt": (lambda view, e: e.hand_seen(view.player), _card_set),
}
