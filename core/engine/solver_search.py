"""The double-dummy solver's search: "can the contracting side force its tricks into ``[lo, hi]``?" on one
hand's play kernel, in C integers when compiled.

``Search`` extends ``solver_moves.Moves`` (the hand's tables as C arrays, the position, the moves in the order
tried) with the search itself: the bounds at a lead, the transposition table, the play of a trick.  The types
are Cython's pure-Python mode, written where the code is (``cython.locals`` and ``cython.declare``: the hands
as 64-bit masks, the search's functions ``cfunc``); ``solver_search.pxd`` only cimports ``Moves`` (declared in
``solver_moves.pxd``), so that the search reads its fields and calls its methods as C.  The module runs
unchanged as plain Python (``cython_shim`` stands in where Cython is not installed).  A hand of more than
``MAX_CARDS`` cards or ``MAX_SEATS`` seats is not searched here (``fits``): the solver then searches through
the engine.  What the search does is in ``solver.py``'s text and docs/solver.md.
"""
from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # the pure-Python build: Cython is a build requirement only
    from . import cython_shim as cython  # type: ignore[no-redef, unused-ignore]

from .kernel import PlayKernel, Position
from .solver_moves import Moves

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
class Search(Moves):
    """The search on one hand's tables (``Moves``), with its transposition table (see the module's text)."""

    cython.declare(least=cython.int, most=cython.int, forced_least=cython.int, forced_most=cython.int)
    cython.declare(kernel=object, tt=dict)
    nodes = cython.declare(cython.longlong, visibility="readonly")
    """Positions visited (cards tried), over every search."""

    def __init__(self, kernel: PlayKernel, lows: bool) -> None:
        Moves.__init__(self, kernel, lows)
        self.kernel = kernel
        self.tt: dict[Any, Entry] = {}
        self.least = self.most = self.forced_least = self.forced_most = 0
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
    @cython.locals(leader=cython.int, target=cython.int, seat=cython.int, s=cython.int, _i=cython.int,
                   least=cython.int, under=cython.bint, theirs=cython.ulonglong, legal=cython.ulonglong,
                   hand=cython.ulonglong)
    @cython.returns(cython.bint)
    def leads_under(self, leader: int) -> bool:
        """A misère beaten from this lead: its one seat holds a suit in which the leader leads under its lowest
        card and every other seat can play under that card too (its every card then takes the trick)."""
        if self.check or self.cover_mask or self.any_time or self.named_follow:
            return False
        target = -1
        for seat in range(self.players):
            if self.on_side[seat] and self.hands[seat]:
                if target >= 0:
                    return False
                target = seat
        if target < 0:
            return False
        for s in range(4):
            theirs = self.hands[target] & self.suit_mask[s]
            if not theirs or not self.hands[leader] & self.suit_mask[s] & ~self.joker_mask:
                continue
            least = self.lowest(theirs, s)
            if self.lowest(self.hands[leader] & self.suit_mask[s] & ~self.joker_mask, s) >= least:
                continue
            seat = leader
            under = True
            for _i in range(self.trick_size - 1):
                seat = self.next_seat[seat]
                if seat == target:
                    continue
                hand = self.hands[seat]
                legal = hand & self.suit_mask[s]
                if not legal:
                    legal = (hand & self.free_mask) if self.compulsory and hand & self.free_mask else hand
                if self.lowest(legal, s) >= least:
                    under = False
                    break
            if under:
                return True
        return False

    @cython.cfunc
    @cython.locals(target=cython.int, seat=cython.int, s=cython.int, b=cython.int, p=cython.int, mine=cython.int,
                   theirs=cython.int, held=cython.int, others=cython.ulonglong, cards=cython.ulonglong,
                   low=cython.ulonglong, ours=cython.ulonglong, rest=cython.ulonglong, both=cython.ulonglong)
    @cython.returns(cython.bint)
    def misere_safe(self) -> bool:
        """A misère nobody can beat from this lead by another seat: its one seat holds no card that could win a
        trick led in another suit (a joker, a trump), and in every suit it can answer each lead with a lower
        card whatever the others lead in what order (its ``j``-th lowest card under their ``j``-th lowest, for as
        many cards as it holds; a trick that takes two of their cards only raises their next)."""
        if self.check or self.cover_mask or self.any_time or self.named_follow:
            return False
        target = -1
        for seat in range(self.players):
            if self.on_side[seat] and self.hands[seat]:
                if target >= 0:
                    return False
                target = seat
        if target < 0:
            return False
        others = 0
        for seat in range(self.players):
            if seat != target:
                others |= self.hands[seat]
        others &= ~self.joker_mask
        for s in range(4):
            cards = self.hands[target] & ~self.suit_mask[s]
            while cards:  # a card of another suit that counts in this suit's tricks
                low = cards & -cards
                cards ^= low
                if self.power[s * 64 + self.low(low)] > 0:
                    return False
            ours = rest = 0
            cards = (self.hands[target] | others) & self.suit_mask[s]
            while cards:  # each seat's cards of the suit by their power in a trick led in it
                low = cards & -cards
                cards ^= low
                b = self.low(low)
                p = self.power[s * 64 + b]
                if p <= 0 or p >= 64 or (ours | rest) >> p & 1:
                    return False
                if self.hands[target] >> b & 1:
                    ours |= _ONE << p
                else:
                    rest |= _ONE << p
            mine = theirs = 0
            held = self.count(ours)
            both = ours | rest
            while both and theirs < held:
                low = both & -both
                both ^= low
                if low & ours:
                    mine += 1
                else:
                    theirs += 1
                    if mine < theirs:
                        return False
        return True

    @cython.cfunc
    @cython.locals(cards=cython.ulonglong, led=cython.int, least=cython.int, p=cython.int, low=cython.ulonglong)
    @cython.returns(cython.int)
    def lowest(self, cards: int, led: int) -> int:
        """The weakest of ``cards`` (not none) in a trick led in suit ``led``: its power there."""
        least = 1 << 30
        while cards:
            low = cards & -cards
            cards ^= low
            p = self.power[led * 64 + self.low(low)]
            if p < least:
                least = p
        return least

    @cython.cfunc
    @cython.locals(leader=cython.int, s=cython.int, b=cython.int, n=cython.int, seat=cython.int,
                   m=cython.ulonglong, low=cython.ulonglong, code=cython.ulonglong, w0=cython.ulonglong,
                   w1=cython.ulonglong, w2=cython.ulonglong, w3=cython.ulonglong, extra=cython.ulonglong)
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
        return (extra, w0, w1, w2, w3)

    @cython.cfunc
    @cython.locals(cards=cython.ulonglong, slot=cython.int, s=cython.int, b=cython.int, led=cython.int,
                   p=cython.int, m=cython.ulonglong, low=cython.ulonglong)
    @cython.returns(cython.int)
    def top(self, cards: int, slot: int) -> int:
        """``tops[slot + led]``: per suit led, the strongest of ``cards`` in a trick led in that suit."""
        for led in range(4):
            self.tops[slot + led] = 0
        for s in range(5):
            m = cards & self.suit_mask[s]
            if not m:
                continue
            if self.mergeable[s]:
                m = _ONE << self.high(m)
            while m:
                low = m & -m
                m ^= low
                b = self.low(low)
                for led in range(4):
                    p = self.power[led * 64 + b]
                    if p > self.tops[slot + led]:
                        self.tops[slot + led] = p
        return 0

    @cython.cfunc
    @cython.locals(leader=cython.int, left=cython.int, seat=cython.int, slot=cython.int, n=cython.int,
                   b=cython.int, side_best=cython.int, other_best=cython.int, sure=cython.int,
                   side_cards=cython.ulonglong, other_cards=cython.ulonglong, m=cython.ulonglong, low=cython.ulonglong)
    @cython.returns(cython.int)
    def bounds(self, leader: int, left: int) -> int:
        """The side's tricks from this lead on: ``forced_least``/``forced_most`` whatever anyone plays (a card
        that beats every card of the other side in a trick led in any suit takes a trick when it is played,
        each of one seat's in its own trick); ``least``/``most`` when the side plays for the most tricks and
        the others for the fewest (the leader cashes its sure tricks).  ``tops[0:4]`` is the leader's others'."""
        self.least = self.forced_least = 0
        self.most = self.forced_most = left
        if self.cover_mask:  # a dummy's face-down cards: not counted
            return 0
        side_cards = other_cards = 0
        for seat in range(self.players):
            if self.on_side[seat]:
                side_cards |= self.hands[seat]
            else:
                other_cards |= self.hands[seat]
        side_best = other_best = 0
        if (side_cards | other_cards) & self.everywhere:
            self.top(other_cards, 4)
            self.top(side_cards, 8)
            for seat in range(self.players):
                m = self.hands[seat] & self.everywhere
                slot = 4 if self.on_side[seat] else 8
                n = 0
                while m:
                    low = m & -m
                    m ^= low
                    b = self.low(low)
                    if (self.power[b] > self.tops[slot] and self.power[64 + b] > self.tops[slot + 1] and
                            self.power[128 + b] > self.tops[slot + 2] and self.power[192 + b] > self.tops[slot + 3]):
                        n += 1
                if self.on_side[seat]:
                    if n > side_best:
                        side_best = n
                elif n > other_best:
                    other_best = n
        self.least = self.forced_least = side_best
        self.most = self.forced_most = left - other_best
        sure = self.sure_tricks(leader)
        n = self.entry_tricks(leader)
        if n > sure:
            sure = n
        if self.on_side[leader]:
            if sure > self.least:
                self.least = sure
        elif left - sure < self.most:
            self.most = left - sure
        return 0
    @cython.cfunc
    @cython.locals(leader=cython.int, partner=cython.int, o=cython.int, s=cython.int, best=cython.int,
                   n=cython.int, top=cython.int, hand=cython.ulonglong, others=cython.ulonglong,
                   entries=cython.int)
    @cython.returns(cython.int)
    def entry_tricks(self, leader: int) -> int:
        """Tricks the leader's side can cash through a partner: the leader leads a suit whose top card the partner
        holds and every seat that could take a trick of another suit still follows; the partner, on lead, then
        cashes its sure tricks (that trick among them).  ``tops[0:4]`` is left the leader's others'."""
        if self.cover_mask or self.any_time:
            return 0
        hand = self.hands[leader] & ~self.joker_mask
        best = 0
        for partner in range(self.players):
            if partner == leader or self.on_side[partner] != self.on_side[leader] or not self.hands[partner]:
                continue
            others = self.present & ~self.hands[partner]
            entries = 0
            for s in range(4):
                if not hand & self.suit_mask[s] or not self.hands[partner] & self.suit_mask[s]:
                    continue
                top = self.strongest(self.hands[partner] & self.suit_mask[s], s)
                if others & self.suit_mask[s] and self.strongest(others & self.suit_mask[s], s) >= top:
                    continue
                for o in range(self.players):
                    if o != partner and self.hands[o] & self.crossing and not self.hands[o] & self.suit_mask[s]:
                        top = -1
                if top >= 0:
                    entries += 1
            if entries:
                self.top(others, 0)
                n = self.sure_tricks(partner)
                if n > best:
                    best = n
        if best:
            self.top(self.present & ~self.hands[leader], 0)
        return best

    @cython.cfunc
    @cython.locals(cards=cython.ulonglong, led=cython.int, most=cython.int, p=cython.int, low=cython.ulonglong)
    @cython.returns(cython.int)
    def strongest(self, cards: int, led: int) -> int:
        """The strongest of ``cards`` (not none) in a trick led in suit ``led``: its power there."""
        most = -1
        while cards:
            low = cards & -cards
            cards ^= low
            p = self.power[led * 64 + self.low(low)]
            if p > most:
                most = p
        return most

    @cython.cfunc
    @cython.locals(seat=cython.int, s=cython.int, b=cython.int, o=cython.int, sure=cython.int, rounds=cython.int,
                   top=cython.int, n=cython.int, hand=cython.ulonglong, others=cython.ulonglong, m=cython.ulonglong,
                   low=cython.ulonglong, blockers=cython.ulonglong)
    @cython.returns(cython.int)
    def sure_tricks(self, seat: int) -> int:
        """Tricks the leader can cash one after the other: the larger of its cards no other card left can beat
        (``tops[0:4]``) and, suit by suit, its cards above the others' in the suit, as many rounds as every seat
        that could take a trick of another suit (a trump, a joker) still has to follow."""
        hand = self.hands[seat] & ~self.joker_mask
        sure = 0
        for s in range(4):
            m = hand & self.suit_mask[s]
            while m:
                low = m & -m
                m ^= low
                b = self.low(low)
                if self.power[s * 64 + b] > self.tops[s]:
                    sure += 1
        others = self.present & ~self.hands[seat]
        if self.cover_mask or (self.any_time and others & self.free_mask):
            return sure
        blockers = 0  # the seats holding a card that takes tricks of other suits
        for o in range(self.players):
            if o != seat and self.hands[o] & self.crossing:
                blockers |= _ONE << o
        n = 0
        for s in range(4):
            m = hand & self.suit_mask[s]
            if not m:
                continue
            top = 0
            if others & self.suit_mask[s]:
                top = self.power[s * 64 + self.high(others & self.suit_mask[s])]
                if not self.mergeable[s]:
                    self.top(others & self.suit_mask[s], 4)
                    top = self.tops[4 + s]
            rounds = 0
            while m:
                low = m & -m
                m ^= low
                if self.power[s * 64 + self.low(low)] > top:
                    rounds += 1
            for o in range(self.players):
                if rounds and blockers >> o & 1 and self.count(self.hands[o] & self.suit_mask[s]) < rounds:
                    rounds = self.count(self.hands[o] & self.suit_mask[s])
            n += rounds
        return n if n > sure else sure

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
