"""The double-dummy solver's tables and moves: one hand's play kernel as C arrays, the position searched, the bit
helpers, and a seat's plays at a lead or following, in the order the search tries them (``Moves``, the base of
``solver_search.Search``, which runs the search itself).

The types are Cython's pure-Python mode, written where the code is (``cython.locals``: the hands as 64-bit
masks, the move generation ``cfunc``), and ``solver_moves.pxd`` declares ``Moves``'s C fields and methods for
``solver_search`` to cimport (a subclass in another module reads them as C only through a ``.pxd``).  The
module runs unchanged as plain Python (``cython_shim`` stands in where Cython is not installed).
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # the pure-Python build: Cython is a build requirement only
    from . import cython_shim as cython  # type: ignore[no-redef, unused-ignore]

from .kernel import PlayKernel

_ONE = cython.declare(cython.ulonglong, 1)
_MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
"""What a product of masks keeps (the pure build's integers do not wrap at 64 bits, C's do)."""
_DEBRUIJN = cython.declare(cython.ulonglong, 0x03F79D71B4CB0A89)
"""A de Bruijn sequence: a single bit times it has its index in its top 6 bits, through ``_debruijn_bits``."""


def _debruijn_bits(multiplier: int) -> list[int]:
    table = [0] * 64
    for i in range(64):
        table[((multiplier << i) & 0xFFFFFFFFFFFFFFFF) >> 58] = i
    return table


@cython.cclass
class Moves:
    """One hand's play tables as C arrays and the position searched (the hands, the cards still in play, the
    tricks won), and the plays of a seat in the order the search tries them; the fields are declared in
    ``solver_moves.pxd``."""

    def __init__(self, kernel: PlayKernel, lows: bool) -> None:
        self.suit, self.power, self.under = [0] * 64, [0] * 256, [0] * 64
        self.owner, self.rank_at, self.bits = [0] * 64, [0] * 64, _debruijn_bits(0x03F79D71B4CB0A89)
        self.suit_mask, self.mergeable = [0] * 5, [0] * 5
        self.on_side, self.next_seat, self.hands, self.won = [False] * 8, [0] * 8, [0] * 8, [0] * 8
        self.tops, self.moves, self.scratch, self.danger = [0] * 12, [0] * 5120, [0] * 256, [0] * 5
        for b in range(len(kernel.cards)):
            self.suit[b] = kernel.suit[b]
            self.under[b] = kernel.under[b]
            for led in range(4):
                self.power[led * 64 + b] = kernel.power[led][b]
        for s in range(5):
            self.suit_mask[s] = kernel.suit_mask[s]
            self.mergeable[s] = kernel.mergeable[s]
        self.players = kernel.players
        for seat in range(kernel.players):
            self.on_side[seat] = seat in kernel.side
            self.next_seat[seat] = kernel.next_seat[seat]
        self.free_mask, self.joker_mask, self.cover_mask = kernel.free_mask, kernel.joker_mask, kernel.cover_mask
        self.crossing = self.everywhere = 0
        for b in range(len(kernel.cards)):
            rows = [kernel.power[led][b] for led in range(4)]
            if any(rows[led] for led in range(4) if led != kernel.suit[b]):
                self.crossing |= 1 << b  # a card that can take a trick led in another suit (a trump, a joker)
            if all(rows) and not (kernel.named_follow and kernel.free_mask >> b & 1):
                self.everywhere |= 1 << b  # a card that can take a trick led in any suit
        self.hand_size, self.trick_size = kernel.hand_size, kernel.trick_size
        self.compulsory, self.any_time, self.named_follow = kernel.compulsory, kernel.any_time, kernel.named_follow
        self.ends_early, self.check = kernel.ends_early, kernel.trick_check is not None
        self.relative = kernel.relative
        self.quick = not self.ends_early and not self.check
        self.lows = lows
        self.key_unled = bool(kernel.free_mask) and kernel.table.joker_lead == "unled-suit"
        self.lead_suits = kernel.table.joker_lead_suits
        self.present, self.played, self.unled = 0, 0, 0  # the position: ``Search.run`` sets it

    # --- bits ----------------------------------------------------------------------------------

    # Compiled, the bit helpers are solver_moves.pxd's inline C methods: their bodies are there so that the search's
    # module inlines them too (called through the type's table of methods, the search ran some 5% slower).  The
    # pure build runs these, the same arithmetic.
    if not cython.compiled:
        @cython.cfunc
        @cython.inline
        @cython.exceptval(check=False)
        @cython.locals(x=cython.ulonglong)
        @cython.returns(cython.int)
        def low(self, x: int) -> int:
            """The index of the lowest bit of ``x`` (not 0)."""
            return self.bits[(((x & -x) * _DEBRUIJN) & _MASK64) >> 58]

        @cython.cfunc
        @cython.inline
        @cython.exceptval(check=False)
        @cython.locals(x=cython.ulonglong)
        @cython.returns(cython.int)
        def high(self, x: int) -> int:
            """The index of the highest bit of ``x`` (not 0)."""
            x |= x >> 1
            x |= x >> 2
            x |= x >> 4
            x |= x >> 8
            x |= x >> 16
            x |= x >> 32
            return self.bits[(((x ^ (x >> 1)) * _DEBRUIJN) & _MASK64) >> 58]

        @cython.cfunc
        @cython.inline
        @cython.exceptval(check=False)
        @cython.locals(x=cython.ulonglong)
        @cython.returns(cython.int)
        def count(self, x: int) -> int:
            """The number of bits of ``x``."""
            x = x - ((x >> 1) & 0x5555555555555555)
            x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
            return ((x * 0x0101010101010101) & _MASK64) >> 56

    # --- the moves -----------------------------------------------------------------------------

    @cython.cfunc
    @cython.inline
    @cython.locals(b=cython.int, prev=cython.int, gap=cython.ulonglong)
    @cython.returns(cython.bint)
    def touches(self, b: int, prev: int) -> bool:
        """Whether card ``b`` of a hand plays as its card ``prev`` just below it (one suit, nothing between)."""
        if prev < 0 or self.suit[b] != self.suit[prev] or not self.mergeable[self.suit[b]]:
            return False
        if self.cover_mask >> b & 1:
            return False
        gap = (_ONE << b) - (_ONE << (prev + 1))
        return not self.present & gap

    @cython.cfunc
    @cython.locals(seat=cython.int, base=cython.int, n=cython.int, nf=cython.int, nl=cython.int, np=cython.int,
                   nr=cython.int, b=cython.int, prev=cython.int, s=cython.int, i=cython.int, other=cython.int,
                   hand=cython.ulonglong, free=cython.ulonglong, plain=cython.ulonglong, rest=cython.ulonglong,
                   low=cython.ulonglong, cards=cython.ulonglong, safe=cython.int, partner_tops=cython.int)
    @cython.returns(cython.int)
    def leads(self, seat: int, base: int) -> int:
        """The leader's plays into ``moves`` from ``base`` (a move is ``bit | (named + 1) << 8``), the cards no
        other can beat first (the highest first), then the others, low first: those of a suit whose top card a
        partner holds and no opponent can ruff, of the other suits no opponent can ruff, of the rest; their
        number."""
        hand = self.hands[seat]
        free = hand & self.free_mask
        plain = hand if not free else hand & ~self.joker_mask
        rest = 0
        for other in range(self.players):
            if other != seat:
                rest |= self.hands[other]
        safe = partner_tops = 0
        for s in range(4):
            cards = rest & self.suit_mask[s]
            if hand & self.suit_mask[s] and self.followed(seat, s):
                safe |= 1 << s
                if cards and self.on_side[self.owner[self.high(cards)] - 1] == self.on_side[seat]:
                    partner_tops |= 1 << s
        nf = nl = np = nr = 0
        prev = -1
        rest = plain
        while rest:
            low = rest & -rest
            rest ^= low
            b = self.low(low)
            if self.touches(b, prev):
                prev = b
                continue
            prev = -1 if self.cover_mask >> b & 1 else b
            s = self.suit[b]
            if s < 4 and self.power[s * 64 + b] > self.tops[s] and not self.lows:
                self.scratch[nf] = b
                nf += 1
            elif s < 4 and partner_tops >> s & 1 and not self.lows:
                self.scratch[128 + np] = b
                np += 1
            elif s < 4 and not self.lows and not safe >> s & 1:
                self.scratch[192 + nr] = b
                nr += 1
            else:
                self.scratch[64 + nl] = b
                nl += 1
        if self.lows and not self.on_side[seat] and nl > 1:
            self.misere_leads(nl)
        n = 0
        for i in range(nf - 1, -1, -1):
            self.moves[base + n] = self.scratch[i]
            n += 1
        for i in range(np):
            self.moves[base + n] = self.scratch[128 + i]
            n += 1
        for i in range(nl):
            self.moves[base + n] = self.scratch[64 + i]
            n += 1
        for i in range(nr):
            self.moves[base + n] = self.scratch[192 + i]
            n += 1
        if free:
            n = self.joker_leads(seat, base, n, free, not plain)
        return n

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
    @cython.locals(cards=cython.ulonglong, led=cython.int, p=cython.int, n=cython.int, low=cython.ulonglong)
    @cython.returns(cython.int)
    def count_under(self, cards: int, led: int, p: int) -> int:
        """How many of ``cards`` are weaker than power ``p`` in a trick led in suit ``led``."""
        n = 0
        while cards:
            low = cards & -cards
            cards ^= low
            if self.power[led * 64 + self.low(low)] < p:
                n += 1
        return n

    @cython.cfunc
    @cython.locals(nl=cython.int, s=cython.int, i=cython.int, j=cython.int, x=cython.int, other=cython.int,
                   misere=cython.ulonglong, others=cython.ulonglong)
    @cython.returns(cython.int)
    def misere_leads(self, nl: int) -> int:
        """A defender's leads against a misère (``scratch`` from 64, ``nl`` of them, low first) put suit by suit,
        the suits in which most of the others' cards lie under the misère's lowest card first (a void suit
        last): the leads that beat it are mostly there."""
        misere = others = 0
        for other in range(self.players):
            if self.on_side[other]:
                misere |= self.hands[other]
            else:
                others |= self.hands[other]
        for s in range(5):
            self.danger[s] = -1
            if s < 4 and misere & self.suit_mask[s]:
                self.danger[s] = self.count_under(others & self.suit_mask[s], s,
                                            self.lowest(misere & self.suit_mask[s], s))
        for i in range(65, 64 + nl):  # a stable insertion sort, the most dangerous suit first
            x = self.scratch[i]
            j = i - 1
            while j >= 64 and self.danger[self.suit[self.scratch[j]]] < self.danger[self.suit[x]]:
                self.scratch[j + 1] = self.scratch[j]
                j -= 1
            self.scratch[j + 1] = x
        return 0

    @cython.cfunc
    @cython.locals(nl=cython.int, s=cython.int, b=cython.int, i=cython.int, j=cython.int, x=cython.int,
                   other=cython.int, others=cython.ulonglong)
    @cython.returns(cython.int)
    def misere_throws(self, nl: int) -> int:
        """A misère's seat out of the suit led: its cards (``scratch`` from 0, ``nl`` of them) put in order of the
        others' cards of their suit under each, fewest first (``follows`` tries them from the last: the card most
        of the others' cards could get under is thrown first)."""
        others = 0
        for other in range(self.players):
            if not self.on_side[other]:
                others |= self.hands[other]
        for i in range(nl):
            b = self.scratch[i]
            s = self.suit[b]
            self.scratch[128 + i] = 0 if s > 3 else self.count_under(others & self.suit_mask[s], s,
                                                                     self.power[s * 64 + b])
        for i in range(1, nl):  # a stable insertion sort on the counts, each card's carried with it
            x, b = self.scratch[i], self.scratch[128 + i]
            j = i - 1
            while j >= 0 and self.scratch[128 + j] > b:
                self.scratch[j + 1], self.scratch[129 + j] = self.scratch[j], self.scratch[128 + j]
                j -= 1
            self.scratch[j + 1], self.scratch[129 + j] = x, b
        return 0

    @cython.cfunc
    @cython.locals(seat=cython.int, s=cython.int, other=cython.int)
    @cython.returns(cython.bint)
    def followed(self, seat: int, s: int) -> bool:
        """Whether every seat of the other side still in the hand holds a card of suit ``s`` (none can ruff)."""
        for other in range(self.players):
            if self.on_side[other] != self.on_side[seat] and self.hands[other] and not (
                    self.hands[other] & self.suit_mask[s]):
                return False
        return True

    @cython.cfunc
    @cython.locals(seat=cython.int, base=cython.int, n=cython.int, b=cython.int, s=cython.int,
                   free=cython.ulonglong, low=cython.ulonglong)
    @cython.returns(cython.int)
    def joker_leads(self, seat: int, base: int, n: int, free: int, only_jokers: bool) -> int:
        """A free joker led: one move per suit the table lets it name (rule 22)."""
        unled = [s for s in range(4) if self.unled >> s & 1]
        suits = self.lead_suits(unled, self.hand_size - self.played, only_jokers)
        while free:
            low = free & -free
            free ^= low
            b = self.low(low)
            for s in suits:
                self.moves[base + n] = b | (s + 1) << 8
                n += 1
        return n

    @cython.cfunc
    @cython.locals(seat=cython.int, led=cython.int, best=cython.int, winner=cython.int, base=cython.int,
                   n=cython.int, nl=cython.int, nh=cython.int, b=cython.int, prev=cython.int, i=cython.int,
                   j=cython.int, x=cython.int, other=cython.int, hand=cython.ulonglong, legal=cython.ulonglong,
                   named=cython.ulonglong, rest=cython.ulonglong, low=cython.ulonglong, void=cython.bint)
    @cython.returns(cython.int)
    def follows(self, seat: int, led: int, best: int, winner: int, base: int) -> int:
        """The plays of a seat following into ``moves`` from ``base``: the cheapest card that takes the trick
        first, low cards under a partner's winner; in a misère the contractor ducks with its highest losing
        card, the others stay low; a void seat's cards by their strength.  Their number."""
        hand = self.hands[seat]
        legal = hand & self.suit_mask[led]
        if not legal:
            legal = (hand & self.free_mask) if self.compulsory and hand & self.free_mask else hand
        if self.any_time and hand & self.joker_mask:
            legal |= hand & self.free_mask
        named = 0
        if self.named_follow and legal & self.free_mask and hand & self.joker_mask:
            named = legal & self.free_mask
            legal &= ~self.free_mask
        nl = nh = 0
        prev = -1
        rest = legal
        while rest:
            low = rest & -rest
            rest ^= low
            b = self.low(low)
            if self.touches(b, prev):
                prev = b
                continue
            prev = -1 if self.cover_mask >> b & 1 else b
            if self.power[led * 64 + b] > best:
                self.scratch[64 + nh] = b
                nh += 1
            else:
                self.scratch[nl] = b
                nl += 1
        void = nl + nh > 1 and self.suit[self.scratch[0] if nl else self.scratch[64]] != led
        if void:  # by strength (a stable insertion sort); a misère's seat by the danger of each card
            if self.lows and self.on_side[seat]:
                self.misere_throws(nl)
            else:
                self.sort(0, nl, led)
            self.sort(64, nh, led)
        n = 0
        if self.lows and self.on_side[seat]:
            for i in range(nl - 1, -1, -1):
                self.moves[base + n] = self.scratch[i]
                n += 1
            n = self.copy(64, nh, base, n)
        elif self.lows or self.on_side[winner] == self.on_side[seat]:
            n = self.copy(0, nl, base, n)
            n = self.copy(64, nh, base, n)
        else:
            n = self.copy(64, nh, base, n)
            n = self.copy(0, nl, base, n)
        if named:
            other = 0 if led else 1
            while named:
                low = named & -named
                named ^= low
                b = self.low(low)
                self.moves[base + n] = b | (led + 1) << 8
                self.moves[base + n + 1] = b | (other + 1) << 8
                n += 2
        return n

    @cython.cfunc
    @cython.locals(start=cython.int, count=cython.int, led=cython.int, i=cython.int, j=cython.int, x=cython.int)
    @cython.returns(cython.int)
    def sort(self, start: int, count: int, led: int) -> int:
        for i in range(start + 1, start + count):
            x = self.scratch[i]
            j = i - 1
            while j >= start and self.power[led * 64 + self.scratch[j]] > self.power[led * 64 + x]:
                self.scratch[j + 1] = self.scratch[j]
                j -= 1
            self.scratch[j + 1] = x
        return 0

    @cython.cfunc
    @cython.locals(start=cython.int, count=cython.int, base=cython.int, n=cython.int, i=cython.int)
    @cython.returns(cython.int)
    def copy(self, start: int, count: int, base: int, n: int) -> int:
        for i in range(start, start + count):
            self.moves[base + n] = self.scratch[i]
            n += 1
        return n
