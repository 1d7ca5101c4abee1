"""Pricing a shown misère as defenders who see it would attack it: the suits it cannot get under.

Against an open misère the defenders see the contractor's hand once the first trick is complete.  A good
defender counts, for each of the contractor's cards of a suit, the defenders' cards of that suit below it:
the contractor answers each low lead with one of its own lower cards, so once the defenders hold more cards
under its ``i``-th lowest card than it holds below that card (``i`` of them), leading the suit low again and
again forces that card to win.  ``suit_forced_chance`` is the chance of that for one suit of the hand the
contractor keeps, from the unseen cards under each of its cards and each defender's share of them;
``no_forcing_chance`` the chance that no suit of the hand is so forced (the product over its suits), and
``open_leads_chance`` that averaged over kitties the contractor may take (the club player's pricing of an
open misère multiplies its make chance by it, to the power ``open_leads``).  ``misere_bids.pxd`` types it for the
compiled players: ``solver``'s reading of the calls prices every open misère of every hidden hand it deals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fivehundred.rules.cards import NO_SUIT

from .evaluation import _Denomination, misere_kept

KITTY_SAMPLES = 16
"""Kitties an open misère's lead chance is averaged over (``open_leads_chance``)."""


def under_lead_chance(below: int, above: int, defenders: int, share: float) -> float:
    """The chance that defenders who see a misère hand force its lowest card of a suit, with ``below``
    cards of the suit under it and ``above`` over it that the contractor has not seen, each defender
    holding each of those cards with chance ``share``: one of them holds a card under it to lead, and
    no other defender holds cards of the suit over it only (and so must overtake)."""
    if below <= 0:
        return 0.0
    miss = 1.0 - share
    lead = 1.0 - max(0.0, 1.0 - defenders * share) ** below
    overtakes = miss ** (below - 1) * (1.0 - miss ** above)
    return lead * (1.0 - overtakes) ** (defenders - 1)


def at_least_of(n: int, k: int, p: float) -> float:
    """P(Binomial(``n``, ``p``) ≥ ``k``)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    p = min(1.0, max(0.0, p))
    term = (1.0 - p) ** n  # P(X = 0)
    below = 0.0
    for i in range(k):
        below += term
        if p >= 1.0:
            return 1.0
        term *= (n - i) / (i + 1) * p / (1.0 - p)
    return max(0.0, 1.0 - below)


def suit_forced_chance(kept: Sequence[int], held: Sequence[int], misere: _Denomination, defenders: int,
                       share: float, deep: bool = True) -> float:
    """The chance that defenders who see the contractor's ``kept`` cards of one suit (lowest first; ``held``:
    every card it has seen of the suit, its discards too) force one of them: its lowest card led under
    (``under_lead_chance``), or its ``i``-th lowest card (``i`` ≥ 1) once the defenders hold more than ``i``
    unseen cards under it, each of which a defender holds with chance ``defenders × share`` (the contractor
    answers each low lead with one of its ``i`` lower cards; one lead more forces the card).  ``deep`` False:
    its lowest card only (``ClubParams.open_attack`` 0, as the club player priced it before issue 30)."""
    if not kept:
        return 0.0
    rank, size = misere.rank, misere.size[misere.table.suit_of[kept[0]]]
    ranks = [rank[c] for c in held]  # 0 is the top card: a higher rank index is a lower card
    lowest = rank[kept[0]]
    below = size - 1 - lowest
    above = lowest
    for x in ranks:
        if x > lowest:
            below -= 1
        elif x < lowest:
            above -= 1
    forced = under_lead_chance(below, above, defenders, share)
    if not deep:
        return forced
    held_by_one = min(1.0, defenders * share)
    for i in range(1, len(kept)):
        r = rank[kept[i]]
        under = size - 1 - r
        for x in ranks:
            if x > r:
                under -= 1
        if under > i:
            forced = max(forced, at_least_of(under, i + 1, held_by_one))
    return forced


def no_forcing_chance(held: Sequence[int], kept: Sequence[Sequence[int]], misere: _Denomination, defenders: int,
                      share: float, deep: bool = True) -> float:
    """The chance that no suit of ``kept`` (by suit, lowest first; ``held`` before the discards) is forced: the
    product over its suits of one less ``suit_forced_chance``."""
    chance = 1.0
    suit_of = misere.table.suit_of
    for s, cards in enumerate(kept):
        if not cards or s == NO_SUIT:  # a kept free joker is the misère danger's (it wins any trick)
            continue
        suited = [c for c in held if suit_of[c] == s]
        chance *= 1.0 - suit_forced_chance(cards, suited, misere, defenders, share, deep)
    return chance


def open_leads_chance(hand: Sequence[int], deck: Sequence[int], misere: _Denomination, defenders: int,
                      hand_size: int, kitty: int, deep: bool = True) -> float:
    """``no_forcing_chance`` of ``hand`` once it has taken a kitty of ``kitty`` cards and discarded as many,
    averaged over ``KITTY_SAMPLES`` kitties drawn from the unseen cards of ``deck`` by a generator seeded with
    the hand (the same hand, the same chance); each defender holds ``hand_size`` of the unseen cards (``deep``: as
    ``suit_forced_chance``)."""
    share = hand_size / max(1, len(deck) - len(hand) - kitty)
    if not kitty:
        return no_forcing_chance(list(hand), misere_kept(hand, misere, 0), misere, defenders, share, deep)
    draw = random.Random(str(sorted(hand)))
    unseen = sorted(set(deck) - set(hand))
    chance = 0.0
    for _ in range(KITTY_SAMPLES):
        full = [*hand, *draw.sample(unseen, kitty)]
        chance += no_forcing_chance(full, misere_kept(full, misere, kitty), misere, defenders, share, deep)
    return chance / KITTY_SAMPLES
