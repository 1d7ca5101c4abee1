"""What the rule-of-thumb players work out of a hand before they see a card played: tricks a hand should take
in each denomination (``own_tricks``), its sure winners, and the risk of a misère (``misere_risk``,
``misere_kept``), over what they work out once per ruleset (``_RulesInfo``, ``_Denomination``).
``evaluation.pxd`` types them for the compiled players."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.rules.cards import JOKER_BASE, MAX_CARD, NO_SUIT
from fivehundred.rules.manager import Rules
from fivehundred.rules.tables import Contract, PlayTable

NT = NO_SUIT
"""The denomination key used for no-trumps (trump suits are 0–3)."""

BID_KINDS = ("trumps", "no-trumps")

_Layout = tuple[Contract, PlayTable, list[int], frozenset[int], list[list[int]]]
"""The contract, its play table, the next seat to play from each seat (skipping the seats that sit the
hand out), those seats, and the deck by suit, highest first: the start of a ``_Track`` (``situation._layout``)."""

TRUMP_HONOURS = (0.9, 0.8, 0.65, 0.45, 0.3, 0.12, 0.1)
"""Worth of the top trumps (joker, right bower, left bower, A, K, Q, 10) over a plain trump."""


# --- what the player works out once per ruleset ---------------------------------------------


class _Denomination:
    """One denomination (a trump suit or no-trumps, or misère) with its play table (compiled, an
    extension type: evaluation.pxd)."""

    __slots__ = ("dangers", "holdings", "rank", "size", "table", "throws", "trump")

    def __init__(self, trump: int | None, table: PlayTable, rank: list[int], size: list[int]):
        self.trump = trump
        self.table = table
        self.rank = rank
        """rank[c]: how many cards of c's (table) suit outrank c; 0 is the top card."""
        self.size = size
        """size[s]: cards of suit s in the deck (s = NO_SUIT: the free jokers)."""
        self.dangers: dict[int, float] = {}
        """``_suit_danger`` by holding (the suit, then the cards lowest first), as worked out so far."""
        self.throws: dict[int, tuple[tuple[float, int], int]] = {}
        """``_suit_throw`` by holding, as worked out so far."""
        self.holdings: dict[int, float] = {}
        """A suit's tricks by holding (its rank indices as bits, shifted left one; bit 0: a side suit in a trump
        contract), as worked out so far."""


class _RulesInfo:
    def __init__(self, rules: Rules):
        self.rules = rules
        self.deck = tuple(sorted(rules.deck))
        self.players = rules.players
        self.team_of = rules.team_of
        self.partners = [
            tuple(s for s in range(rules.players) if s != seat and rules.team_of[s] == rules.team_of[seat])
            for seat in range(rules.players)
        ]
        self.denominations: dict[int, _Denomination] = {}
        for contract in rules.ladder:
            key = _key(contract)
            if _plain(contract) and key not in self.denominations:
                self.denominations[key] = self.denomination(contract)
        misere = next((c for c in rules.ladder if _solo_misere(c)), None)
        self.misere = self.denomination(misere) if misere is not None else None
        self.layouts: dict[tuple[int, int | None, int, int], _Layout] = {}
        """``_layout`` by the contract's id, the nomination, the contractor and the seat sitting out."""

    def denomination(self, contract: Contract, nomination: int | None = None) -> _Denomination:
        table = self.rules.play_table(contract, nomination)
        rank = [0] * MAX_CARD
        size = [0] * 5
        for s in range(5):
            row = table.power[s if s < 4 else 0]
            cards = sorted((c for c in self.deck if table.suit_of[c] == s), key=lambda c: -row[c])
            size[s] = len(cards)
            for i, c in enumerate(cards):
                rank[c] = i
        return _Denomination(contract.trump, table, rank, size)


def _info(rules: Rules) -> _RulesInfo:
    """The players' tables for ``rules``, worked out once and kept with the rules (``Rules.derived``: released
    with them)."""
    info = rules.derived.get("evaluation")
    if info is None:
        info = rules.derived["evaluation"] = _RulesInfo(rules)
    return info


def _key(contract: Contract) -> int:
    return NT if contract.trump is None else contract.trump


def _plain(contract: Contract) -> bool:
    """A trump or no-trump contract to take at least its tricks, with the kitty: the kind we bid."""
    return (contract.kind in BID_KINDS and getattr(contract, "goal", "at-least") == "at-least"
            and getattr(contract, "kitty", True) and not getattr(contract, "signal", False))


def _solo_misere(contract: Contract) -> bool:
    """A misère the contractor plays alone."""
    return contract.kind == "misere" and not contract.partner_plays and getattr(contract, "goal", "none") == "none"


# --- hand evaluation ------------------------------------------------------------------------
# The weights were fitted on self-play: contracts forced on random deals, played out by this
# player, regressing the tricks the contractor took on features of the hand before the kitty.
# "Own tricks" therefore include what the kitty exchange is usually worth.


def _rank_masks(hand: Sequence[int], d: _Denomination) -> list[int]:
    """By (table) suit: the hand's rank indices as bits (bit r: the card of rank index r)."""
    masks = [0, 0, 0, 0, 0]
    suit_of, rank = d.table.suit_of, d.rank
    for c in hand:
        s = suit_of[c]
        r = rank[c]
        masks[s] |= 1 << r
    return [masks[0], masks[1], masks[2], masks[3], masks[4]]  # compiled, ``masks`` is a C array (evaluation.pxd)


def _ranks(mask: int) -> list[int]:
    """The rank indices of a holding's bits, best first."""
    ranks = []
    r = 0
    while mask:
        if mask & 1:
            ranks.append(r)
        mask >>= 1
        r += 1
    return ranks


def _trump_tricks(ranks: list[int]) -> float:
    """Tricks from a trump holding (rank indices, best first)."""
    length = len(ranks)
    tricks = 0.55 * length + 0.15 * max(0, length - 4) + 0.25 * max(0, length - 5)
    for r in ranks:
        if r < len(TRUMP_HONOURS):
            tricks += TRUMP_HONOURS[r]
    return tricks


def _side_tricks(ranks: list[int]) -> float:
    """Tricks from a side suit in a trump contract (rank indices, best first)."""
    length = len(ranks)
    tricks = 0.0
    for i, r in enumerate(ranks):
        higher = r - i
        if higher <= 0:
            tricks += (0.95, 0.8, 0.5, 0.3)[min(i, 3)]  # later rounds get ruffed
        elif higher == 1:
            if i == 0:
                tricks += 0.5 if length >= 2 else 0.15
            elif i == 1:
                tricks += 0.4
        elif higher == 2 and length >= 3 and i <= 1:
            tricks += 0.2
    if length >= 5:
        tricks += (length - 4) * 0.25
    return 0.7 * tricks + (0.15 if not length else 0.0)


def _no_trump_tricks(ranks: list[int]) -> float:
    """Tricks from a suit in no-trumps (rank indices, best first)."""
    length = len(ranks)
    if not length:
        return 0.0
    tricks = 0.0
    ace = ranks[0] == 0
    for r in ranks[:3]:
        if r == 0:
            tricks += 1.2
        elif r == 1:
            tricks += 1.2 if ace else 0.85 if length >= 2 else 0.25
        elif r == 2 and length >= 3:
            tricks += 0.4
    if ace and length >= 5:
        tricks += 0.55 * (length - 4)
    return tricks


def own_tricks(hand: Sequence[int], d: _Denomination) -> float:
    """Tricks the hand should take by itself as contractor in denomination ``d``."""
    masks = _rank_masks(hand, d)
    known = d.holdings
    if len(known) >= DANGERS_KEPT:
        known.clear()
    trump = d.trump
    if trump is None:
        tricks = 2.0 * len(_ranks(masks[NO_SUIT])) - 0.3  # a free joker wins a trick and gives control
        for s in range(4):
            key = masks[s] << 1
            worth = known.get(key)
            if worth is None:
                worth = known[key] = _no_trump_tricks(_ranks(masks[s]))
            tricks += worth
        return tricks
    key = masks[trump] << 1  # a trump holding: bit 0 clear, a side suit's set
    worth = known.get(key)
    if worth is None:
        worth = known[key] = _trump_tricks(_ranks(masks[trump]))
    tricks = worth
    size = d.size
    for s in range(4):
        if s != trump and size[s]:
            key = masks[s] << 1 | 1
            worth = known.get(key)
            if worth is None:
                worth = known[key] = _side_tricks(_ranks(masks[s]))
            tricks += worth
    return tricks


def jokers_held(hand: Sequence[int]) -> int:
    """How many jokers ``hand`` holds."""
    jokers = 0
    for card in hand:
        if card >= JOKER_BASE:
            jokers += 1
    return jokers


def _suit_danger(cards: list[int], suit: int, d: _Denomination) -> float:
    """Danger of our cards of one suit (sorted lowest first)."""
    if suit == NO_SUIT:
        return 3.0 * len(cards)  # a free joker wins whatever trick it is played to
    key = _holding_key(cards, suit, d)
    known = d.dangers.get(key)
    if known is None:
        if len(d.dangers) >= DANGERS_KEPT:
            d.dangers.clear()
        size, rank = d.size[suit], d.rank
        # sum() of a list, not of a generator: compiled, a generator would be a closure (evaluation.pxd)
        known = d.dangers[key] = sum([_danger(suit, size - 1 - rank[c] - below, below)
                                      for below, c in enumerate(cards)])
    return known


DANGERS_KEPT = 1 << 16
"""Suit holdings whose misère danger a denomination remembers (the misère discards weigh the same
holdings again and again)."""


def _danger(suit: int, others_below: int, mine_below: int) -> float:
    """How likely a card is to be forced to win a misère trick.

    The defenders can lead under it with the cards of its suit below it that others hold; each
    of our own lower cards answers one such lead.
    """
    if suit == NO_SUIT:
        return 3.0
    excess = others_below - mine_below
    if excess <= 0:
        return 0.0
    return min(1.0, 0.15 + 0.12 * excess)


def _holding_key(cards: list[int], suit: int, d: _Denomination) -> int:
    """A holding of one suit (sorted, lowest first) as a memo key: its rank indices as bits, above the suit."""
    rank = d.rank
    key = 0
    for c in cards:
        r = rank[c]
        key |= 1 << r
    return key << 3 | suit


def _misere_suits(hand: Sequence[int], d: _Denomination) -> list[list[int]]:
    """The hand by (table) suit, lowest first (ranks differ within a suit)."""
    groups: list[list[int]] = [[], [], [], [], []]
    suit_of, rank = d.table.suit_of, d.rank
    for c in hand:  # an insertion sort: a handful of cards a suit
        s = suit_of[c]
        g = groups[s]
        r = rank[c]
        i = len(g)
        while i:
            x = g[i - 1]
            if rank[x] >= r:
                break
            i -= 1
        g.insert(i, c)
    return groups


def sure_winners(hand: Sequence[int], d: _Denomination, count: int) -> list[int]:
    """The ``count`` cards of ``hand`` likeliest to win a trick in ``d``: fewest cards of their suit
    above them in other hands first (an ace, a king under our own ace), then the higher."""
    suit_of, rank = d.table.suit_of, d.rank
    above_ours = {c: sum(1 for x in hand if suit_of[x] == suit_of[c] and rank[x] < rank[c]) for c in hand}
    return sorted(hand, key=lambda c: (rank[c] - above_ours[c], rank[c]))[:count]


def _misere_throw(hand: Sequence[int], d: _Denomination) -> int:
    """The card whose discard most reduces the danger of a misère hand (ties: the highest)."""
    best, best_key = hand[0], (-1.0, 0)
    for s, g in enumerate(_misere_suits(hand, d)):
        if g:
            key, c = _suit_throw(g, s, d)
            if key > best_key:
                best, best_key = c, key
    return best


def _suit_throw(g: list[int], s: int, d: _Denomination) -> tuple[tuple[float, int], int]:
    """(relief, -rank) of the first card of holding ``g`` (lowest first) whose discard most reduces
    its danger, and that card."""
    memo = _holding_key(g, s, d)
    known = d.throws.get(memo)
    if known is None:
        if len(d.throws) >= DANGERS_KEPT:
            d.throws.clear()
        base = _suit_danger(g, s, d)
        best_key: tuple[float, int] | None = None
        best = g[0]
        for c in g:
            relief = base - _suit_danger([x for x in g if x != c], s, d)
            key = (round(relief, 6), -d.rank[c])
            if best_key is None or key > best_key:
                best, best_key = c, key
        assert best_key is not None
        known = d.throws[memo] = (best_key, best)
    return known


def misere_risk(hand: Sequence[int], d: _Denomination, discards: int) -> float:
    """Total danger of a misère hand once ``discards`` cards are thrown (greedily)."""
    return sum([_suit_danger(g, s, d) for s, g in enumerate(misere_kept(hand, d, discards))])


def misere_kept(hand: Sequence[int], d: _Denomination, discards: int) -> list[list[int]]:
    """The cards a misère hand keeps once ``discards`` cards are thrown (greedily), by (table) suit,
    lowest first."""
    rest = list(hand)
    groups = _misere_suits(rest, d)
    # _misere_throw(rest, d), with the holdings sorted once and each suit's best throw kept: a discard leaves
    # the other suits as they were
    throws = [_suit_throw(g, s, d) if g else None for s, g in enumerate(groups)]
    for _ in range(min(discards, len(rest) - 1)):
        best, best_key = rest[0], (-1.0, 0)
        for s in range(5):
            throw = throws[s]
            if throw is not None and throw[0] > best_key:
                best_key, best = throw
        rest.remove(best)
        s = d.table.suit_of[best]
        g = groups[s]
        g.remove(best)
        throws[s] = _suit_throw(g, s, d) if g else None
    return groups


LONG_SUIT = 4
"""Cards of one suit a misère hand holds before ``misere_length`` counts each one more."""


def misere_length(hand: Sequence[int], d: _Denomination, discards: int) -> int:
    """The cards beyond ``LONG_SUIT`` in the suits of a misère hand once ``discards`` cards are thrown
    (``misere_kept``; a free joker is no suit's)."""
    extra = 0
    groups = misere_kept(hand, d, discards)
    for s in range(4):
        if len(groups[s]) > LONG_SUIT:
            extra += len(groups[s]) - LONG_SUIT
    return extra


def _least_useful(hand: Sequence[int], d: _Denomination, partner_cards: Sequence[int] = ()) -> int:
    """The card the contractor can best spare: never a trump or a free joker while there is
    another; keep winners and guarded kings (the cards above them in our hand or among a partner's
    ``partner_cards`` in sight, a dummy's face-up cards); shorten short side suits (in trumps, to ruff)."""
    suit_of, rank = d.table.suit_of, d.rank
    trump = -1 if d.trump is None else d.trump
    cards, shown = list(hand), list(partner_cards)
    counts = [0, 0, 0, 0, 0]
    for c in cards:
        counts[suit_of[c]] += 1
    best, least = cards[0], 0.0
    for i in range(len(cards)):  # min(hand, key=...), written out (evaluation.pxd: no closure)
        c = cards[i]
        s = suit_of[c]
        r = rank[c]
        if s in (NO_SUIT, trump):
            keep = 1000.0 - r
        else:
            higher = r
            for x in cards:
                if suit_of[x] == s and rank[x] < r:
                    higher -= 1
            for x in shown:
                if suit_of[x] == s and rank[x] < r:
                    higher -= 1
            value = 60.0 if higher == 0 else 25.0 if higher == 1 and counts[s] >= 2 else \
                8.0 if higher == 2 and counts[s] >= 3 else 0.0
            keep = value - 0.5 * r + (6.0 if trump < 0 else 3.0) * counts[s]
        if i == 0 or keep < least:
            best, least = c, keep
    return best

