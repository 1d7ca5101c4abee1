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
TABLE_LIMIT = 1 << 26
"""Entries the transposition table holds at most (compiled, about 5 GB at six seats); once it is full, a position not
in it is searched without being stored, so that a search's memory has a bound (read when a search is made)."""
_WIDTH = cython.declare(cython.int, 64)
"""Moves a ply may list (a hand's cards, a free joker's named suits); ``moves`` holds 80 plies (a search plays
at most 64 cards)."""
_ONE = cython.declare(cython.ulonglong, 1)
_MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
"""What a product keeps (the pure build's integers do not wrap at 64 bits, C's do)."""


def fits(kernel: PlayKernel) -> bool:
    """Whether ``Search`` takes this hand (at most ``MAX_CARDS`` cards and ``MAX_SEATS`` seats)."""
    return len(kernel.cards) <= MAX_CARDS and kernel.players <= MAX_SEATS


_FIELDS = cython.declare(cython.int, 5)
"""An entry of the transposition table: what it knows of a position at a lead, as ints (``evals[entry * 5 + i]``):
the side can force at least ``AT_LEAST`` tricks and not ``NOT_AT_LEAST``; at most ``AT_MOST`` and not
``NOT_AT_MOST``; ``MOVE``: the lead that settled the last search from there (-1: none).  Other windows asked (an
exact goal's) are in ``Search.windows``."""
AT_LEAST = cython.declare(cython.int, 0)
NOT_AT_LEAST = cython.declare(cython.int, 1)
AT_MOST = cython.declare(cython.int, 2)
NOT_AT_MOST = cython.declare(cython.int, 3)
MOVE = cython.declare(cython.int, 4)
_MIX = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
"""The multiplier of the table's hash (Fibonacci hashing)."""


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
@cython.locals(h=cython.ulonglong, word=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _mixed(h: int, word: int) -> int:
    """The table's hash so far ``h`` with one more word of a key mixed in (the whole key's: times ``_MIX`` at the
    end)."""
    h = ((h ^ word) * _MIX) & _MASK64
    return h ^ (h >> 29)


@cython.cclass
class Search(Bounds):
    """The search on one hand's tables (``Moves``) and bounds at a lead (``Bounds``), with its transposition table
    (see the module's text)."""

    cython.declare(kernel=object, tt=dict, windows=dict, keys=cython.p_ulonglong, evals=cython.p_int,
                   slots=cython.p_int, room=cython.int, width=cython.int, words=cython.int, limit=cython.int,
                   kbuf=cython.ulonglong[9])
    nodes = cython.declare(cython.longlong, visibility="readonly")
    """Positions visited (cards tried), over every search."""
    entries = cython.declare(cython.int, visibility="readonly")
    """Positions the transposition table holds."""

    def __init__(self, kernel: PlayKernel, lows: bool) -> None:
        Bounds.__init__(self, kernel, lows)
        self.kernel = kernel
        self.nodes = 0
        self.kbuf = [0] * 9
        self.words = (7 if kernel.cover_mask else 5) if kernel.relative else 1 + kernel.players
        self.windows: dict[tuple[int, int, int], bool] = {}
        self.entries = 0
        self.room = self.width = 0
        self.limit = TABLE_LIMIT
        if cython.compiled:  # the table in C: a key's words and an entry's ints by entry, the slots of a hash
            self.keys = cython.NULL
            self.evals = cython.NULL
            self.slots = cython.NULL
            self.grow()
        else:  # the pure build: a dict from the key's words to the entry, the entries' ints in a list
            self.tt: dict[tuple[int, ...], int] = {}
            self.evals = []

    def __dealloc__(self) -> None:
        if cython.compiled:
            free(self.keys)  # type: ignore[name-defined]  # noqa: F821 - cimported by solver_search.pxd
            free(self.evals)  # type: ignore[name-defined]  # noqa: F821
            free(self.slots)  # type: ignore[name-defined]  # noqa: F821

    # --- the transposition table ---------------------------------------------------------------

    @cython.cfunc
    @cython.locals(i=cython.int, entry=cython.int, room=cython.int, width=cython.int, slots=cython.p_int,
                   keys=cython.p_ulonglong, evals=cython.p_int, size=cython.Py_ssize_t)
    @cython.returns(cython.int)
    def grow(self) -> int:
        """Twice the room for entries (compiled only), and the hash's slots rebuilt four times as many."""
        room = self.room * 2 if self.room else 1024
        width = room * 4
        size = cython.cast(cython.Py_ssize_t, room)
        keys = cython.cast(cython.p_ulonglong, realloc(self.keys, size * self.words * 8))  # type: ignore[name-defined]  # noqa: F821
        if keys == cython.NULL:
            raise MemoryError
        self.keys = keys
        evals = cython.cast(cython.p_int, realloc(self.evals, size * _FIELDS * 4))  # type: ignore[name-defined]  # noqa: F821
        if evals == cython.NULL:
            raise MemoryError
        self.evals = evals
        slots = cython.cast(cython.p_int, malloc(cython.cast(cython.Py_ssize_t, width) * 4))  # type: ignore[name-defined]  # noqa: F821
        if slots == cython.NULL:
            raise MemoryError
        for i in range(width):
            slots[i] = -1
        free(self.slots)  # type: ignore[name-defined]  # noqa: F821
        self.slots, self.room, self.width = slots, room, width
        for entry in range(self.entries):
            i = cython.cast(cython.int, self.hash_of(entry * self.words) & (width - 1))
            while slots[i] >= 0:
                i = (i + 1) & (width - 1)
            slots[i] = entry
        return 0

    @cython.cfunc
    @cython.inline
    @cython.locals(at=cython.int, w=cython.int, h=cython.ulonglong)
    @cython.returns(cython.ulonglong)
    def hash_of(self, at: int) -> int:
        """The hash of the key stored from word ``at`` of ``keys`` (compiled only)."""
        h = 0
        for w in range(self.words):
            h = _mixed(h, self.keys[at + w])
        return (h * _MIX) & _MASK64

    @cython.cfunc
    @cython.locals(cap=cython.int, i=cython.int, w=cython.int, entry=cython.int, at=cython.int,
                   h=cython.ulonglong, same=cython.bint)
    @cython.returns(cython.int)
    def find(self, cap: int) -> int:
        """The entry of the position whose key ``key`` left in ``kbuf``; a new one, knowing only that the side takes
        between 0 and ``cap`` tricks from there, when the table has none; -1 when it has none and is full."""
        if not cython.compiled:
            words = tuple(self.kbuf[:self.words])
            entry = self.tt.get(words, -1)
            if entry < 0:
                if self.entries >= self.limit:
                    return -1
                entry = self.tt[words] = self.entries
                self.evals.extend((0, cap + 1, cap, -1, -1))
                self.entries += 1
            return entry
        h = 0
        for w in range(self.words):
            h = _mixed(h, self.kbuf[w])
        i = cython.cast(cython.int, (h * _MIX) & _MASK64 & (self.width - 1))
        while True:
            entry = self.slots[i]
            if entry < 0:
                break
            at = entry * self.words
            same = True
            for w in range(self.words):
                if self.keys[at + w] != self.kbuf[w]:
                    same = False
                    break
            if same:
                return entry
            i = (i + 1) & (self.width - 1)
        if self.entries >= self.limit:
            return -1
        if self.entries == self.room:
            self.grow()
            return self.find(cap)
        entry = self.entries
        self.entries += 1
        self.slots[i] = entry
        at = entry * self.words
        for w in range(self.words):
            self.keys[at + w] = self.kbuf[w]
        at = entry * _FIELDS
        self.evals[at + AT_LEAST] = 0
        self.evals[at + NOT_AT_LEAST] = cap + 1
        self.evals[at + AT_MOST] = cap
        self.evals[at + NOT_AT_MOST] = -1
        self.evals[at + MOVE] = -1
        return entry

    @cython.locals(seat=cython.int, b=cython.int, tmask=cython.ulonglong, result=cython.bint)
    def run(self, pos: Position, lo: int, hi: int) -> bool:
        """Whether the side can force its tricks from ``pos`` on into ``[lo, hi]``."""
        tmask = self.place(pos)
        if not pos.trick:
            return bool(self.lead(pos.leader, lo, hi, 0))
        seat = pos.trick[-1][0]
        result = self.play(self.next_seat[seat], len(pos.trick), pos.led, pos.best, pos.winner, tmask, lo, hi, 0,
                           -1)
        return bool(result)

    def lead_bounds(self, pos: Position) -> tuple[int, int, int, int]:
        """The bounds the search takes at a lead (``pos`` has no card of a trick played), on the side's tricks
        from here: ``(least, most)`` when the side plays for tricks and the others against it, ``(forced_least,
        forced_most)`` whoever plays what.  For tests (a bound that crossed the value would cut a search wrong) and
        for ``deal_par``'s first bounds on a contract's tricks."""
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
                   _i=cython.int, led=cython.int, taken=cython.int, entry=cython.int, at=cython.int,
                   sure=cython.int, result=cython.bint)
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
        self.key(leader)
        entry = self.find(cap)
        if entry < 0:  # the table is full: the position is searched as if it held nothing of it
            return self.unstored(leader, lo, hi, depth, left)
        at = entry * _FIELDS
        if hi == cap:
            if lo <= self.evals[at + AT_LEAST]:
                return True
            if lo >= self.evals[at + NOT_AT_LEAST]:
                return False
        elif lo == 0:
            if hi >= self.evals[at + AT_MOST]:
                return True
            if hi <= self.evals[at + NOT_AT_MOST]:
                return False
        else:
            if lo >= self.evals[at + NOT_AT_LEAST] or hi <= self.evals[at + NOT_AT_MOST]:
                return False
            if (entry, lo, hi) in self.windows:
                return bool(self.windows[(entry, lo, hi)])
        if self.ends_early and lo == 0 and hi == 0 and not self.on_side[leader] and self.leads_under(leader):
            if self.evals[at + NOT_AT_MOST] < 0:
                self.evals[at + NOT_AT_MOST] = 0
            return False
        if self.lows and lo == 0 and not self.on_side[leader] and self.misere_safe():
            if self.evals[at + AT_MOST] > 0:
                self.evals[at + AT_MOST] = 0
            return True
        self.top(self.present & ~self.hands[leader], 0)
        if self.quick:  # bounds from the cards that must take tricks and the leader's winners to cash
            self.bounds(leader, left)
            if self.least > self.evals[at + AT_LEAST]:
                self.evals[at + AT_LEAST] = self.least
            if self.most + 1 < self.evals[at + NOT_AT_LEAST]:
                self.evals[at + NOT_AT_LEAST] = self.most + 1
            if self.forced_most < self.evals[at + AT_MOST]:
                self.evals[at + AT_MOST] = self.forced_most
            if self.forced_least - 1 > self.evals[at + NOT_AT_MOST]:
                self.evals[at + NOT_AT_MOST] = self.forced_least - 1
            if lo > self.most or hi < self.forced_least:
                return False
            if (hi == cap and lo <= self.least) or (lo == 0 and hi >= self.forced_most) or (
                    lo <= self.forced_least and self.forced_most <= hi):
                return True
        result = self.play(leader, 0, -1, -1, -1, 0, lo, hi, depth, entry)
        if hi == cap:  # the search below may have grown the table: the entry is found again by its number
            if result:
                if lo > self.evals[at + AT_LEAST]:
                    self.evals[at + AT_LEAST] = lo
            elif lo < self.evals[at + NOT_AT_LEAST]:
                self.evals[at + NOT_AT_LEAST] = lo
        elif lo == 0:
            if result:
                if hi < self.evals[at + AT_MOST]:
                    self.evals[at + AT_MOST] = hi
            elif hi > self.evals[at + NOT_AT_MOST]:
                self.evals[at + NOT_AT_MOST] = hi
        else:
            self.windows[(entry, lo, hi)] = result
        return result

    @cython.cfunc
    @cython.locals(leader=cython.int, lo=cython.int, hi=cython.int, depth=cython.int, left=cython.int)
    @cython.returns(cython.bint)
    def unstored(self, leader: int, lo: int, hi: int, depth: int, left: int) -> bool:
        """``lead`` for a position the full table cannot take: the same tests at the lead, nothing stored."""
        if self.ends_early and lo == 0 and hi == 0 and not self.on_side[leader] and self.leads_under(leader):
            return False
        if self.lows and lo == 0 and not self.on_side[leader] and self.misere_safe():
            return True
        self.top(self.present & ~self.hands[leader], 0)
        if self.quick:
            self.bounds(leader, left)
            if lo > self.most or hi < self.forced_least:
                return False
            if (hi == left and lo <= self.least) or (lo == 0 and hi >= self.forced_most) or (
                    lo <= self.forced_least and self.forced_most <= hi):
                return True
        return self.play(leader, 0, -1, -1, -1, 0, lo, hi, depth, -1)

    @cython.cfunc
    @cython.locals(leader=cython.int, s=cython.int, b=cython.int, n=cython.int, seat=cython.int,
                   m=cython.ulonglong, low=cython.ulonglong, code=cython.ulonglong, w0=cython.ulonglong,
                   w1=cython.ulonglong, w2=cython.ulonglong, w3=cython.ulonglong, w4=cython.ulonglong,
                   w5=cython.ulonglong, extra=cython.ulonglong)
    @cython.returns(cython.int)
    def key(self, leader: int) -> int:
        """The transposition table's key of the position at a lead: where the hands are relative (only the
        order of the cards left matters, ``PlayKernel.relative``), each card left by its holder in the order
        of its suit, the cards gone squeezed out; else the hands themselves: in ``kbuf``, its ``words`` words."""
        extra = leader
        if self.key_unled:
            extra |= cython.cast(cython.ulonglong, self.unled) << 3
        if self.check:
            for seat in range(self.players):
                extra |= cython.cast(cython.ulonglong, self.won[seat]) << (7 + 4 * seat)
        self.kbuf[0] = extra
        if not self.relative:
            for seat in range(self.players):
                self.kbuf[1 + seat] = self.hands[seat]
            return 0
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
        self.kbuf[1], self.kbuf[2], self.kbuf[3], self.kbuf[4] = w0, w1, w2, w3
        if not self.cover_mask:
            return 0
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
        self.kbuf[5], self.kbuf[6] = w4, w5
        return 0

    # --- the search ----------------------------------------------------------------------------

    @cython.cfunc
    @cython.locals(seat=cython.int, count=cython.int, led=cython.int, best=cython.int, winner=cython.int,
                   tmask=cython.ulonglong, lo=cython.int, hi=cython.int, depth=cython.int, entry=cython.int,
                   side=cython.bint, last=cython.bint, base=cython.int, n=cython.int, i=cython.int, m=cython.int,
                   b=cython.int, named=cython.int, led2=cython.int, best2=cython.int, winner2=cython.int,
                   strength=cython.int, hand=cython.ulonglong, bit=cython.ulonglong, unled=cython.int,
                   result=cython.bint)
    @cython.returns(cython.bint)
    def play(self, seat: int, count: int, led: int, best: int, winner: int, tmask: int, lo: int, hi: int,
             depth: int, entry: int) -> bool:
        """Whether the side forces ``[lo, hi]`` with ``seat`` to play the trick's card ``count``."""
        self.nodes += 1
        side = self.on_side[seat]
        last = count == self.trick_size - 1
        base = depth * _WIDTH
        if count == 0:
            n = self.leads(seat, base)
            if entry >= 0 and self.evals[entry * _FIELDS + MOVE] >= 0:  # the lead that settled it last time first
                m = self.evals[entry * _FIELDS + MOVE]
                for i in range(n):
                    if self.moves[base + i] == m:
                        while i > 0:
                            self.moves[base + i] = self.moves[base + i - 1]
                            i -= 1
                        self.moves[base] = m
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
                                   depth + 1, -1)
            else:
                result = self.end_trick(winner2, tmask | bit, lo, hi, depth + 1)
            self.hands[seat] = hand
            self.unled = unled
            if result == side:
                if entry >= 0:
                    self.evals[entry * _FIELDS + MOVE] = m
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
