"""The double-dummy solver's search: "can the contracting side force its tricks into ``[lo, hi]``?" on one
hand's play kernel, in C integers when compiled.

``Search`` extends ``solver_bounds.Bounds`` (itself ``solver_moves.Moves``: the hand's tables as C arrays, the
position, the moves in the order tried; with the bounds at a lead) with the search itself: the transposition
table, the play of a trick, the window asked.  The types are Cython's pure-Python mode, written where the code is
(``cython.locals`` and ``cython.declare``: the hands as 64-bit masks, the search's functions ``cfunc``);
``solver_search.pxd`` only cimports ``Bounds`` (declared in ``solver_bounds.pxd`` and ``solver_moves.pxd``), so
that the search reads its fields and calls its methods as C.  The module runs unchanged as plain Python
(``cython_shim`` stands in where Cython is not installed).  A hand of more than ``MAX_CARDS`` cards or
``MAX_SEATS`` seats is not searched here (``fits``): the solver then searches through the engine.  What the
search does is in ``solver.py``'s text and docs/solver.md.
"""
from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # the pure-Python build: Cython is a build requirement only
    from . import cython_shim as cython  # type: ignore[no-redef, unused-ignore]

from .kernel import PlayKernel, Position
from .solver_bounds import Bounds

MAX_CARDS = 64
"""Cards in the deck a search takes (a card is a bit of a 64-bit mask)."""
MAX_SEATS = 8
_WIDTH = cython.declare(cython.int, 64)
"""Moves a ply may list (a hand's cards, a free joker's named suits); ``moves`` holds 80 plies (a search plays
at most 64 cards)."""
_ONE = cython.declare(cython.ulonglong, 1)


def fits(kernel: PlayKernel) -> bool:
    """Whether ``Search`` takes this hand (at most ``MAX_CARDS`` cards and ``MAX_SEATS`` seats)."""
    return len(kernel.cards) <= MAX_CARDS and kernel.players <= MAX_SEATS


@cython.cclass
class Entry:
    """What the transposition table knows of a position at a lead: the side can force at least ``at_least``
    tricks and not ``not_at_least``; at most ``at_most`` and not ``not_at_most``; other windows asked
    (an exact goal's) in ``windows``; ``move``: the lead that settled the last search from here."""

    cython.declare(at_least=cython.int, not_at_least=cython.int, at_most=cython.int, not_at_most=cython.int,
                   move=cython.int, windows=dict)

    def __init__(self, cap: int) -> None:
        self.at_least = 0
        self.not_at_least = cap + 1
        self.at_most = cap
        self.not_at_most = -1
        self.move = -1
        self.windows: dict[tuple[int, int], bool] | None = None


@cython.cclass
class Search(Bounds):
    """The search on one hand's tables (``Moves``) and bounds at a lead (``Bounds``), with its transposition table
    (see the module's text)."""

    cython.declare(kernel=object, tt=dict)
    nodes = cython.declare(cython.longlong, visibility="readonly")
    """Positions visited (cards tried), over every search."""

    def __init__(self, kernel: PlayKernel, lows: bool) -> None:
        Bounds.__init__(self, kernel, lows)
        self.kernel = kernel
        self.tt: dict[Any, Entry] = {}
        self.nodes = 0

    @cython.locals(seat=cython.int, b=cython.int, tmask=cython.ulonglong, result=cython.bint)
    def run(self, pos: Position, lo: int, hi: int) -> bool:
        """Whether the side can force its tricks from ``pos`` on into ``[lo, hi]``."""
        tmask = self.place(pos)
        if not pos.trick:
            return bool(self.lead(pos.leader, lo, hi, 0))
        seat = pos.trick[-1][0]
        result = self.play(self.next_seat[seat], len(pos.trick), pos.led, pos.best, pos.winner, tmask, lo, hi, 0,
                           None)
        return bool(result)

    def lead_bounds(self, pos: Position) -> tuple[int, int, int, int]:
        """The bounds the search takes at a lead (``pos`` has no card of a trick played), on the side's tricks
        from here: ``(least, most)`` when the side plays for tricks and the others against it, ``(forced_least,
        forced_most)`` whoever plays what.  For tests: a bound that crossed the value would cut a search wrong."""
        self.place(pos)
        if not self.quick:  # a misère ended at its first trick lost, a per-trick end: no bounds taken
            return 0, self.hand_size - self.played, 0, self.hand_size - self.played
        self.top(self.present & ~self.hands[pos.leader], 0)
        self.bounds(pos.leader, self.hand_size - self.played)
        return self.least, self.most, self.forced_least, self.forced_most

    @cython.cfunc
    @cython.locals(seat=cython.int, b=cython.int, tmask=cython.ulonglong)
    @cython.returns(cython.ulonglong)
    def place(self, pos: Position) -> int:
        """Set the position searched to ``pos``; the mask of the trick's cards."""
        self.present = 0
        for seat in range(self.players):
            self.hands[seat] = pos.hands[seat]
            self.won[seat] = pos.won[seat]
            self.present |= pos.hands[seat]
            for b in range(64):
                if pos.hands[seat] >> b & 1:
                    self.owner[b] = seat + 1
                    if self.cover_mask >> b & 1:
                        self.present |= self.under[b]
                        self.owner[self.low(self.under[b])] = seat + 1
        tmask = 0
        for _seat, b, _named in pos.trick:
            tmask |= _ONE << b
        self.present |= tmask
        self.played, self.unled = pos.played, pos.unled
        return tmask

    # --- a trick's lead ------------------------------------------------------------------------

    @cython.cfunc
    @cython.locals(leader=cython.int, lo=cython.int, hi=cython.int, depth=cython.int, left=cython.int,
                   cap=cython.int, b=cython.int, best=cython.int, winner=cython.int, seat=cython.int,
                   _i=cython.int, led=cython.int, taken=cython.int, entry=Entry, sure=cython.int,
                   result=cython.bint)
    @cython.returns(cython.bint)
    def lead(self, leader: int, lo: int, hi: int, depth: int) -> bool:
        left = self.hand_size - self.played
        cap = 1 if self.ends_early else left
        if lo < 0:
            lo = 0
        if hi > cap:
            hi = cap
        if lo > hi:
            return False
        if lo == 0 and hi == cap:
            return True
        if left == 1 and not self.present & self.free_mask:  # the last trick: every card forced
            b = self.high(self.hands[leader])
            led = self.suit[b]
            best, winner, seat = self.power[led * 64 + b], leader, leader
            for _i in range(self.trick_size - 1):
                seat = self.next_seat[seat]
                b = self.high(self.hands[seat])
                if self.power[led * 64 + b] > best:
                    best, winner = self.power[led * 64 + b], seat
            taken = self.on_side[winner]
            return lo <= taken <= hi
        key = self.key(leader)
        entry = self.tt.get(key)
        if entry is None:
            entry = Entry(cap)
            self.tt[key] = entry
        if hi == cap:
            if lo <= entry.at_least:
                return True
            if lo >= entry.not_at_least:
                return False
        elif lo == 0:
            if hi >= entry.at_most:
                return True
            if hi <= entry.not_at_most:
                return False
        else:
            if lo >= entry.not_at_least or hi <= entry.not_at_most:
                return False
            if entry.windows is not None and (lo, hi) in entry.windows:
                return bool(entry.windows[(lo, hi)])
        if self.ends_early and lo == 0 and hi == 0 and not self.on_side[leader] and self.leads_under(leader):
            if entry.not_at_most < 0:
                entry.not_at_most = 0
            return False
        if self.lows and lo == 0 and not self.on_side[leader] and self.misere_safe():
            if entry.at_most > 0:
                entry.at_most = 0
            return True
        self.top(self.present & ~self.hands[leader], 0)
        if self.quick:  # bounds from the cards that must take tricks and the leader's winners to cash
            self.bounds(leader, left)
            if self.least > entry.at_least:
                entry.at_least = self.least
            if self.most + 1 < entry.not_at_least:
                entry.not_at_least = self.most + 1
            if self.forced_most < entry.at_most:
                entry.at_most = self.forced_most
            if self.forced_least - 1 > entry.not_at_most:
                entry.not_at_most = self.forced_least - 1
            if lo > self.most or hi < self.forced_least:
                return False
            if (hi == cap and lo <= self.least) or (lo == 0 and hi >= self.forced_most) or (
                    lo <= self.forced_least and self.forced_most <= hi):
                return True
        result = self.play(leader, 0, -1, -1, -1, 0, lo, hi, depth, entry)
        if hi == cap:
            if result:
                if lo > entry.at_least:
                    entry.at_least = lo
            elif lo < entry.not_at_least:
                entry.not_at_least = lo
        elif lo == 0:
            if result:
                if hi < entry.at_most:
                    entry.at_most = hi
            elif hi > entry.not_at_most:
                entry.not_at_most = hi
        else:
            if entry.windows is None:
                entry.windows = {}
            entry.windows[(lo, hi)] = result
        return result

    @cython.cfunc
    @cython.locals(leader=cython.int, s=cython.int, b=cython.int, n=cython.int, seat=cython.int,
                   m=cython.ulonglong, low=cython.ulonglong, code=cython.ulonglong, w0=cython.ulonglong,
                   w1=cython.ulonglong, w2=cython.ulonglong, w3=cython.ulonglong, w4=cython.ulonglong,
                   w5=cython.ulonglong, extra=cython.ulonglong)
    def key(self, leader: int) -> object:
        """The transposition table's key of the position at a lead: where the hands are relative (only the
        order of the cards left matters, ``PlayKernel.relative``), each card left by its holder in the order
        of its suit, the cards gone squeezed out; else the hands themselves."""
        extra = leader
        if self.key_unled:
            extra |= cython.cast(cython.ulonglong, self.unled) << 3
        if self.check:
            for seat in range(self.players):
                extra |= cython.cast(cython.ulonglong, self.won[seat]) << (7 + 4 * seat)
        if not self.relative:
            return (extra, *[self.hands[seat] for seat in range(self.players)])
        w0 = w1 = w2 = w3 = 0
        n = 0
        for s in range(5):  # each card's holder in 3 bits, suit after suit, a 0 between suits
            m = self.present & self.suit_mask[s]
            while m:
                low = m & -m
                m ^= low
                b = self.low(low)
                code = self.owner[b]
                self.rank_at[b] = n
                if n < 21:
                    w0 |= code << (3 * n)
                elif n < 42:
                    w1 |= code << (3 * (n - 21))
                elif n < 63:
                    w2 |= code << (3 * (n - 42))
                else:
                    w3 |= code << (3 * (n - 63))
                n += 1
            n += 1
        if not self.cover_mask:
            return (extra, w0, w1, w2, w3)
        w4 = w5 = 0
        n = 0
        m = self.present & self.cover_mask
        while m:  # each face-down card: the places of its face-up card and its own among the cards left
            low = m & -m
            m ^= low
            b = self.low(low)
            code = self.rank_at[b] | self.rank_at[self.low(self.under[b])] << 6
            if n < 5:
                w4 |= code << (12 * n)
            else:
                w5 |= code << (12 * (n - 5))
            n += 1
        return (extra, w0, w1, w2, w3, w4, w5)

    # --- the search ----------------------------------------------------------------------------

    @cython.cfunc
    @cython.locals(seat=cython.int, count=cython.int, led=cython.int, best=cython.int, winner=cython.int,
                   tmask=cython.ulonglong, lo=cython.int, hi=cython.int, depth=cython.int, entry=Entry,
                   side=cython.bint, last=cython.bint, base=cython.int, n=cython.int, i=cython.int, m=cython.int,
                   b=cython.int, named=cython.int, led2=cython.int, best2=cython.int, winner2=cython.int,
                   strength=cython.int, hand=cython.ulonglong, bit=cython.ulonglong, unled=cython.int,
                   result=cython.bint)
    @cython.returns(cython.bint)
    def play(self, seat: int, count: int, led: int, best: int, winner: int, tmask: int, lo: int, hi: int,
             depth: int, entry: Entry | None) -> bool:
        """Whether the side forces ``[lo, hi]`` with ``seat`` to play the trick's card ``count``."""
        self.nodes += 1
        side = self.on_side[seat]
        last = count == self.trick_size - 1
        base = depth * _WIDTH
        if count == 0:
            n = self.leads(seat, base)
            if entry is not None and entry.move >= 0:  # the lead that settled this position last time first
                for i in range(n):
                    if self.moves[base + i] == entry.move:
                        while i > 0:
                            self.moves[base + i] = self.moves[base + i - 1]
                            i -= 1
                        self.moves[base] = entry.move
                        break
        else:
            n = self.follows(seat, led, best, winner, base)
        hand = self.hands[seat]
        unled = self.unled
        for i in range(n):
            m = self.moves[base + i]
            b = m & 255
            bit = _ONE << b
            self.hands[seat] = (hand & ~bit) | self.under[b]
            if count == 0:
                named = (m >> 8) - 1
                led2 = named if named >= 0 else self.suit[b]
                best2, winner2 = self.power[led2 * 64 + b], seat
                self.unled = unled & ~(1 << led2)
            else:
                led2 = led
                if m < 256 or (m >> 8) - 1 == led:
                    strength = self.power[led * 64 + b]
                else:
                    strength = 0
                if strength > best:
                    best2, winner2 = strength, seat
                else:
                    best2, winner2 = best, winner
            if not last:
                result = self.play(self.next_seat[seat], count + 1, led2, best2, winner2, tmask | bit, lo, hi,
                                   depth + 1, None)
            else:
                result = self.end_trick(winner2, tmask | bit, lo, hi, depth + 1)
            self.hands[seat] = hand
            self.unled = unled
            if result == side:
                if entry is not None:
                    entry.move = m
                return side
        return not side

    @cython.cfunc
    @cython.locals(winner=cython.int, cards=cython.ulonglong, lo=cython.int, hi=cython.int, depth=cython.int,
                   taken=cython.int, present=cython.ulonglong, played=cython.int, result=cython.bint)
    @cython.returns(cython.bint)
    def end_trick(self, winner: int, cards: int, lo: int, hi: int, depth: int) -> bool:
        taken = self.on_side[winner]
        present, played = self.present, self.played
        self.won[winner] += 1
        self.present, self.played = present & ~cards, played + 1
        if played + 1 >= self.hand_size or (self.ends_early and taken) or (self.check and self.checked()):
            result = lo <= taken <= hi
        else:
            result = self.lead(winner, lo - taken, hi - taken, depth)
        self.won[winner] -= 1
        self.present, self.played = present, played
        return result

    @cython.cfunc
    @cython.returns(cython.bint)
    def checked(self) -> bool:
        kernel: Any = self.kernel
        return bool(kernel.checked(tuple([self.won[s] for s in range(self.players)]), self.played))
