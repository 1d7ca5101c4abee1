"""The double-dummy solver's bounds at a lead: what a position is worth before a card of it is searched.

``Bounds`` extends ``solver_moves.Moves`` (the hand's tables as C arrays and the position) with the tests the
search (``solver_search.Search``, which extends ``Bounds``) makes at each trick's lead: the cards that must take a
trick whoever plays what, the leader's sure tricks and those it cashes through a partner's entry, and a misère
settled at a lead (beaten by a lead under its lowest card, safe when it can answer every lead lower).  Typed with
Cython's pure-Python mode where the code is (``cython.locals``); ``solver_bounds.pxd`` declares the fields and the
methods so that the search's module calls them as C.  The module runs unchanged as plain Python.  What each bound
says, and why it is exact, is in docs/solver.md ("Bounds at each lead", "Misères settled at a lead").
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # the pure-Python build: Cython is a build requirement only
    from . import cython_shim as cython  # type: ignore[no-redef, unused-ignore]

from .kernel import PlayKernel
from .solver_moves import Moves

_ONE = cython.declare(cython.ulonglong, 1)


@cython.cclass
class Bounds(Moves):
    """One hand's tables and position (``Moves``) with the bounds at a lead; the fields are declared in
    ``solver_bounds.pxd``: ``least``/``most`` and ``forced_least``/``forced_most``, set by ``bounds``."""

    def __init__(self, kernel: PlayKernel, lows: bool) -> None:
        Moves.__init__(self, kernel, lows)
        self.least = self.most = self.forced_least = self.forced_most = 0

    @cython.cfunc
    @cython.locals(target=cython.int, seat=cython.int)
    @cython.returns(cython.int)
    def misere_seat(self) -> int:
        """The one seat of a misère still holding cards, where a misère is settled at a lead (the bounds below do
        not read a rules' per-trick end, a dummy's face-down cards, a joker led at any time or named by whoever
        plays it); else -1."""
        if self.check or self.cover_mask or self.any_time or self.named_follow:
            return -1
        target = -1
        for seat in range(self.players):
            if self.on_side[seat] and self.hands[seat]:
                if target >= 0:
                    return -1
                target = seat
        return target

    @cython.cfunc
    @cython.locals(leader=cython.int, target=cython.int, seat=cython.int, s=cython.int, _i=cython.int,
                   least=cython.int, under=cython.bint, theirs=cython.ulonglong, legal=cython.ulonglong,
                   hand=cython.ulonglong)
    @cython.returns(cython.bint)
    def leads_under(self, leader: int) -> bool:
        """A misère beaten from this lead: its one seat holds a suit in which the leader leads under its lowest
        card and every other seat can play under that card too (its every card then takes the trick)."""
        target = self.misere_seat()
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
        target = self.misere_seat()
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
        side_cards = other_cards = 0
        for seat in range(self.players):
            if self.on_side[seat]:
                side_cards |= self.held(seat)
            else:
                other_cards |= self.held(seat)
        side_best = other_best = 0
        if (side_cards | other_cards) & self.everywhere:
            self.top(other_cards, 4)
            self.top(side_cards, 8)
            for seat in range(self.players):
                m = self.held(seat) & self.everywhere
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
    @cython.exceptval(check=False)
    @cython.locals(seat=cython.int, hand=cython.ulonglong, m=cython.ulonglong, low=cython.ulonglong)
    @cython.returns(cython.ulonglong)
    def held(self, seat: int) -> int:
        """The cards ``seat`` will play: its hand and, under a dummy's face-up cards, the face-down ones."""
        hand = self.hands[seat]
        m = hand & self.cover_mask
        while m:
            low = m & -m
            m ^= low
            hand |= self.under[self.low(low)]
        return hand

    @cython.cfunc
    @cython.locals(leader=cython.int, partner=cython.int, s=cython.int, best=cython.int, n=cython.int,
                   hand=cython.ulonglong)
    @cython.returns(cython.int)
    def entry_tricks(self, leader: int) -> int:
        """Tricks the leader's side can cash through a partner: the leader leads a suit the partner enters in
        (``enters``); the partner, on lead, then cashes its sure tricks (that trick among them).  ``tops[0:4]`` is
        left the leader's others'."""
        if self.cover_mask or self.any_time:
            return 0
        hand = self.hands[leader] & ~self.joker_mask
        best = 0
        for partner in range(self.players):
            if partner == leader or self.on_side[partner] != self.on_side[leader] or not self.hands[partner]:
                continue
            for s in range(4):
                if hand & self.suit_mask[s] and self.enters(partner, s):
                    self.top(self.present & ~self.hands[partner], 0)
                    n = self.sure_tricks(partner)
                    if n > best:
                        best = n
                    break
        if best:
            self.top(self.present & ~self.hands[leader], 0)
        return best

    @cython.cfunc
    @cython.locals(partner=cython.int, s=cython.int, o=cython.int, mine=cython.ulonglong, others=cython.ulonglong)
    @cython.returns(cython.bint)
    def enters(self, partner: int, s: int) -> bool:
        """Whether a lead of suit ``s`` is won by ``partner``: it holds the suit's top card, and every seat that
        could take a trick of another suit (a trump, a joker) still follows."""
        mine = self.hands[partner] & self.suit_mask[s]
        others = self.present & ~self.hands[partner] & self.suit_mask[s]
        if not mine or (others and self.strongest(others, s) >= self.strongest(mine, s)):
            return False
        for o in range(self.players):
            if o != partner and self.hands[o] & self.crossing and not self.hands[o] & self.suit_mask[s]:
                return False
        return True

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
