"""The shuffle: a deck in a uniformly random order from the deal's seeded generator
(``fivehundred.engine.seeding`` makes the generator; ``GameState.deal`` shuffles with it)."""

# Compiled (COMPILED_MODULES, core/engine/build.py): shuffle.pxd gives ``shuffled``'s locals C integers (the
# positions, the draws and the bytes read).  The pure-Python engine never reads that file.

from __future__ import annotations

import random
from collections.abc import Sequence


def shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """``cards`` in a uniformly random order: Fisher–Yates, each position drawn by Lemire's
    multiply-and-shift from the next byte of ``rng.randbytes`` (two bytes for a position among more than
    256), a draw that would favour a position rejected, so that every order is exactly as likely.  One
    call for the bytes of a whole deck: the generator is asked once a deal, not once a card."""
    deck = list(cards)
    n = len(deck)
    if n > 1 << 16:
        raise ValueError(f"a deck of {n} cards: the shuffle draws at most two bytes a position (65,536 cards)")
    # A byte a position (two above 256), and 9 spare for rejected draws: a 43-card deck rejects 1.6 on
    # average, and asks for more about once in 10**5 deals.
    data = _random_bytes(rng, n + max(0, n - 256) + 8)
    used = 0
    for i in range(n - 1, 0, -1):
        size = i + 1
        wide = size > 256
        while True:
            if used + wide >= len(data):
                data = _random_bytes(rng, 16)
                used = 0
            if wide:
                m = (data[used] | data[used + 1] << 8) * size
                used += 2
                low, j = m & 0xFFFF, m >> 16
                if low >= size or low >= 0x10000 % size:  # Lemire: the 2**16 % size lowest are rejected
                    break
            else:
                m = data[used] * size
                used += 1
                low, j = m & 0xFF, m >> 8
                if low >= size or low >= 0x100 % size:
                    break
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _random_bytes(rng: random.Random, n: int) -> bytes:
    """``rng.randbytes(n)``: from the standard generator, the same bytes without its interpreted method."""
    if type(rng) is random.Random:
        return rng.getrandbits(n << 3).to_bytes(n, "little")
    return rng.randbytes(n)
