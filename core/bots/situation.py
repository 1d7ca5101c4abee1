"""What a rule-of-thumb player reads of the play: what it sees (``_Seen``, an ``Observation`` or the same
fields read through the state's public API), what stays the same through the play of a hand (``_layout``),
what the completed tricks have shown (``_Track``) and the situation at a decision (``_Play``).
``situation.pxd`` types them for the compiled players."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.engine.reading import next_seats, void_marks
from fivehundred.engine.state import JOKER_LEAD, Observation, Phase
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.tables import Contract, PlayTable

from .evaluation import _Layout, _RulesInfo


class _Track:
    """What the completed tricks of a hand have shown (kept between decisions).  A plain class with its
    own ``__init__`` (compiled, an extension type: situation.pxd), as are ``_Play`` and ``_Seen``."""

    __slots__ = ("contract", "exact", "key", "laid_out", "log", "misere", "next_seat", "opponents", "out_seats",
                 "power", "suit_of", "table", "tricks", "unplayed", "unseen", "void", "void_compulsory", "void_plain")

    def __init__(self, key: tuple[_RulesInfo, int, int | None, int, int], contract: Contract, next_seat: list[int],
                 out_seats: frozenset[int], unplayed: list[list[int]], table: PlayTable, void: list[int],
                 laid_out: frozenset[int]):
        self.key = key
        self.log: object = None
        self.contract = contract
        """The hand log and the contract last read with this track (``_situation``: the same, the same key)."""
        self.misere = contract.kind == "misere"
        self.exact = contract.goal == "exactly"
        """The contract's kind and goal (the key's rung chooses it), read at every decision."""
        self.next_seat = next_seat
        """The next seat to play, skipping seats that sit the hand out."""
        self.out_seats = out_seats
        self.unplayed = unplayed
        """unplayed[s]: the deck's cards of suit s less the cards of completed tricks, highest first."""
        self.table = table
        """The hand's play table (the key's rung and nomination choose it)."""
        self.suit_of, self.power = table.suit_of, table.power
        """The play table's, read at every decision."""
        self.tricks: tuple[tuple[int, tuple[int, ...], int, int | None], ...] = ()
        self.void = void
        """void[seat]: bit s set once the seat has shown out of suit s (``voids_shown``; bit ``NO_SUIT``: it holds
        no free joker)."""
        self.void_plain, self.void_compulsory = void_marks(table)
        """What a play shows at the hand's table (``void_marks``), read a trick at a time (``trick_voids``)."""
        self.opponents: dict[int, list[int]] = {}
        """By seat: the opponents taking part in the play."""
        self.unseen: dict[int, tuple[object, int, list[list[int]], frozenset[int] | None, int]] = {}
        """By seat: the hand log it was read from, the tricks counted, the cards that seat has not seen
        (``_Play.out`` before exposed hands), kept up to date from one decision to the next, its hand then
        if it may gain cards (None: it only loses them), and the cards of the trick in progress then."""
        self.laid_out = laid_out
        """Seats whose hands lie on the table and gain the cards turned up under them (P2's dummies)."""


class _Play:
    """Everything one play decision looks at (made by ``_play_of``)."""

    __slots__ = ("contractor", "dangers", "exact", "info", "misere", "next_seat", "obs", "opponents", "our_contract",
                 "out", "power", "seat", "shown", "suit_of", "table", "top", "trick_size", "trump", "void")
    seat: int
    obs: _Seen
    info: _RulesInfo
    table: PlayTable
    suit_of: list[int]
    """The play table's ``suit_of`` and ``power``, read at every turn."""
    power: list[list[int]]
    trump: int | None
    contractor: int
    our_contract: bool
    misere: bool
    exact: bool
    """The contract is a misère kind; its goal is exactly its tricks."""
    out: list[list[int]]
    """out[s]: unseen cards of suit s (others' hands, the kitty, a hand laid aside)."""
    top: list[int]
    """top[s]: the power of the best unseen card of suit s (-1: none)."""
    void: list[int]
    next_seat: list[int]
    trick_size: int
    opponents: list[int]
    """Opponents taking part in the play of this hand."""
    shown: dict[int, tuple[int, ...]]
    """Exposed hands by seat (open misère)."""
    dangers: tuple[list[float], list[float]] | None
    """``_danger_terms`` of the hand, once a misère lead has weighed them."""


def _play_of(seat: int, obs: _Seen, info: _RulesInfo, track: _Track, trump: int | None, contractor: int,
             our_contract: bool, out: list[list[int]], top: list[int], void: list[int], next_seat: list[int],
             trick_size: int, opponents: list[int], shown: dict[int, tuple[int, ...]]) -> _Play:
    """A ``_Play`` of these fields (compiled, a C function filling the extension type's fields: cheaper than
    a constructor's arguments, a decision at a time)."""
    p = _Play.__new__(_Play)
    p.seat, p.obs, p.info, p.table = seat, obs, info, track.table
    p.misere, p.exact = track.misere, track.exact
    p.suit_of, p.power = track.suit_of, track.power
    p.trump, p.contractor, p.our_contract = trump, contractor, our_contract
    p.out, p.top, p.void, p.next_seat = out, top, void, next_seat
    p.trick_size, p.opponents, p.shown, p.dangers = trick_size, opponents, shown, None
    return p


class _Seen:
    """The fields of ``Observation`` the player reads, with the same values: building a whole
    ``Observation`` (steps and all) costs more than most decisions take."""

    __slots__ = ("calls", "contract", "contractor", "current_trick", "discards", "hand", "leader", "led", "log",
                 "nomination", "open_hand", "open_hands", "phase", "seat", "sitting_out", "step", "totals", "tricks",
                 "tricks_won")
    seat: int
    phase: Phase
    hand: tuple[int, ...]
    calls: tuple[tuple[int, int], ...]
    contract: Contract | None
    contractor: int
    nomination: int | None
    discards: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[int, ...], int, int | None], ...]
    current_trick: tuple[int, ...]
    led: int | None
    leader: int
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    open_hand: tuple[int, ...] | None
    open_hands: tuple[tuple[int, tuple[int, ...]], ...]
    sitting_out: int
    step: None
    log: object
    """The hand log it was read from: the hand, and the seat's view of it, go on from there."""


def _seen_of(seat: int, phase: Phase, hand: tuple[int, ...], calls: tuple[tuple[int, int], ...],
             contract: Contract | None, contractor: int, nomination: int | None, discards: tuple[int, ...],
             tricks: tuple[tuple[int, tuple[int, ...], int, int | None], ...], current_trick: tuple[int, ...],
             led: int | None, leader: int, tricks_won: tuple[int, ...], totals: tuple[int, ...],
             open_hand: tuple[int, ...] | None, open_hands: tuple[tuple[int, tuple[int, ...]], ...],
             sitting_out: int, log: object) -> _Seen:
    """A ``_Seen`` of these fields (as ``_play_of``)."""
    o = _Seen.__new__(_Seen)
    o.seat, o.phase, o.hand, o.calls = seat, phase, hand, calls
    o.contract, o.contractor, o.nomination, o.discards = contract, contractor, nomination, discards
    o.tricks, o.current_trick, o.led, o.leader = tricks, current_trick, led, leader
    o.tricks_won, o.totals, o.open_hand, o.open_hands = tricks_won, totals, open_hand, open_hands
    o.sitting_out, o.step, o.log = sitting_out, None, log
    return o


Seen = Observation | _Seen
"""What a decision reads: an observation, or the part of one the auction and the play read."""


def _as_seen(obs: Seen) -> _Seen:
    """``obs`` as a ``_Seen`` (an ``Observation``'s fields that the player reads, with no hand log to go on from)."""
    if isinstance(obs, _Seen):
        return obs
    return _seen_of(obs.seat, obs.phase, obs.hand, obs.calls, obs.contract, obs.contractor, obs.nomination,
                    obs.discards, obs.tricks, obs.current_trick, obs.led, obs.leader, obs.tricks_won, obs.totals,
                    obs.open_hand, obs.open_hands, obs.sitting_out, None)


def _shown_cards(shown: Sequence[tuple[int, Sequence[int]]], seats: Sequence[int]) -> list[int]:
    """The cards of ``seats`` among the hands ``shown`` ((seat, cards), as ``Observation.open_hands``)."""
    return [c for s, cards in shown if s in seats for c in cards]


def _shown_hand(shown: tuple[tuple[int, tuple[int, ...]], ...], seat: int) -> tuple[int, ...] | None:
    """The cards of ``seat`` among the hands ``shown`` (None: not among them)."""
    for s, cards in shown:
        if s == seat:
            return cards
    return None


def _card(action: int) -> int:
    """The card an action plays (a joker led or played with a named suit is the joker)."""
    return action if action < JOKER_LEAD else JOKER_BASE + (action - JOKER_LEAD) // 4


def _layout(info: _RulesInfo, contract: Contract, nomination: int | None, contractor: int,
            sitting_out: int) -> _Layout:
    """What stays the same through the play of a hand of ``contract`` (``_Layout``), worked out once."""
    key = (id(contract), nomination, contractor, sitting_out)
    known = info.layouts.get(key)
    if known is not None and known[0] is contract:
        return known
    if len(info.layouts) >= LAYOUTS_KEPT:
        info.layouts.clear()
    n = info.players
    team = info.team_of
    table = info.rules.play_table(contract, nomination)
    suit_of = table.suit_of
    aside = set() if contract.partner_plays or contractor < 0 else \
        {s for s in range(n) if s != contractor and team[s] == team[contractor]}
    if sitting_out >= 0:
        aside.add(sitting_out)
    nxt = list(next_seats(n, aside))  # the play order, as the state has it (a list: _Track types it)
    by_suit: list[list[int]] = [[], [], [], [], []]
    for c in info.deck:
        by_suit[suit_of[c]].append(c)
    for s in range(4):
        by_suit[s].sort(key=table.power[s].__getitem__, reverse=True)
    known = info.layouts[key] = (contract, table, nxt, frozenset(aside), by_suit)
    return known


LAYOUTS_KEPT = 256
"""Layouts a ruleset's ``_RulesInfo`` keeps (one per contract, nomination, contractor and seat sitting out)."""
