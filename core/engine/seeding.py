"""How a seed becomes a game's generators: the same in every process, with no global random state.

A game's key is one hash of its seed text: ``game_key(seed)`` for ``new_game(ruleset, seed)``, and
``game_key(f"{seed}:{game}")`` for game ``game`` of a batch (so batch game ``i`` deals as
``new_game(ruleset, f"{seed}:{i}")`` does). BLAKE2b gives the same key in any process (``hash()`` would
not: it is salted per process).

A game has two generators, so that the same seed deals the same cards whatever the players draw:

- the deals' (``deal_generator``): a ``HashedRandom``, whose bytes are BLAKE2b blocks keyed with the game
  key, block after block (counter mode). It draws the first dealer and a few dozen bytes a deal, and
  costs nothing to start;
- the players' (``generator(key, PLAYERS_STREAM)``): exactly ``random.Random(key << 8 | 1)``, one
  Mersenne Twister the seats share, drawn from in the order they act (card by card, where the
  Twister's C draws are the cheapest). Filling its 624-word state from the seed is most of what it
  costs (about 28k instructions, 4–5 µs); ``generator`` skips only the ``Random.__init__``/``seed``
  calls in Python around it.
"""

from __future__ import annotations

import _random
import os
import random
from collections.abc import Callable
from hashlib import blake2b
from typing import Any

PLAYERS_STREAM = 1
"""The stream of the generator the game's players share."""
_STREAM_BITS = 8


def game_key(seed: int | str) -> int:
    """A 128-bit key for the game of ``seed`` (a string or an int: ``1`` and ``"1"`` are the same)."""
    return int.from_bytes(blake2b(f"fivehundred:{seed}".encode(), digest_size=16).digest(), "little")


def stream_seed(key: int, stream: int) -> int:
    """The integer seed of stream ``stream`` of the game with key ``key``."""
    return (key << _STREAM_BITS) | stream


def _made_directly(seed: int) -> random.Random:
    """``random.Random(seed)``, seeded by the C ``seed`` alone: ``Random.__init__`` is ``seed(x)`` and
    ``gauss_next = None``, and ``Random.seed`` hands an int straight to the C ``seed``."""
    rng = random.Random.__new__(random.Random)
    _c_seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # set by Random.__init__, read by gauss()
    return rng


_c_seed = _random.Random.seed  # the Mersenne Twister's own, under random.Random


def _same_as_random(make: Callable[[int], random.Random]) -> bool:
    try:
        return all(make(n).getstate() == random.Random(n).getstate()
                   for n in (0, 1, 2**64 + 3, stream_seed(game_key(0), 1)))
    except Exception:
        return False


_make = _made_directly if _same_as_random(_made_directly) else random.Random
"""Checked once: on a Python whose ``random.Random`` is built otherwise, the plain constructor."""


def generator(key: int, stream: int) -> random.Random:
    """The generator of stream ``stream`` of a game: exactly ``random.Random(stream_seed(key, stream))``."""
    return _make(stream_seed(key, stream))


def deal_generator(key: int) -> HashedRandom:
    """The generator that deals the game with key ``key`` (and draws its first dealer)."""
    return HashedRandom(key)


def game_generators(seed: int | str) -> tuple[HashedRandom, random.Random]:
    """The deal generator and the players' generator of the game of ``seed``."""
    key = game_key(seed)
    return HashedRandom(key), _make((key << _STREAM_BITS) | PLAYERS_STREAM)


_BLOCK = 64  # BLAKE2b's largest digest, in bytes
_KEY_BYTES = 16
_HASHED_PREFIX = b"fivehundred:deals:"
"""Block ``b`` of key ``k`` is BLAKE2b-512 of this, ``k`` (16 bytes) and ``b`` (8 bytes), little-endian."""


class HashedRandom(random.Random):
    """A ``random.Random`` whose bytes are BLAKE2b hashes of its key and a block number, 64 bytes a block
    (counter mode). It starts for the price of a few attribute sets, where a Mersenne Twister fills 624
    words; each 64 bytes drawn cost one hash (about 0.3 µs), where the Twister is far cheaper: the
    generator for a few dozen bytes a deal, not for a draw per card.  Every method of ``random.Random``
    works (they draw through ``random``, ``getrandbits`` and ``randbytes``); ``seed(key)`` restarts the
    stream, and ``getstate``/``setstate``, copying and pickling keep its place."""

    def __init__(self, key: int = 0) -> None:  # random.Random pickles by calling the class bare
        self.seed(key)
        self.gauss_next = None  # as Random.__init__ leaves it (read by gauss())

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Restart at block 0 of ``a``: a 128-bit key; a string or other int is hashed to one as a seed
        (``game_key``); None draws one from the operating system."""
        if a is None:
            a = int.from_bytes(os.urandom(_KEY_BYTES), "little")
        elif not (isinstance(a, int) and 0 <= a < 1 << 8 * _KEY_BYTES):
            a = game_key(a)
        self._key = a
        self._prefix = _HASHED_PREFIX + a.to_bytes(_KEY_BYTES, "little")
        self._block = 0
        self._buffer = b""
        self._used = 0

    def randbytes(self, n: int) -> bytes:
        """The stream's next ``n`` bytes."""
        buffer = self._buffer
        start = self._used
        end = start + n
        if end > len(buffer):
            buffer = buffer[start:]
            prefix, block = self._prefix, self._block
            while len(buffer) < n:
                buffer += blake2b(prefix + block.to_bytes(8, "little"), digest_size=_BLOCK).digest()
                block += 1
            self._buffer, self._block = buffer, block
            start, end = 0, n
        self._used = end
        return buffer[start:end]

    def getrandbits(self, k: int) -> int:
        if k <= 0:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self.randbytes(n), "little") >> (8 * n - k)

    def random(self) -> float:
        return (int.from_bytes(self.randbytes(7), "little") >> 3) * (1.0 / (1 << 53))

    def getstate(self) -> tuple[Any, ...]:
        return ("blake2b", self._key, self._block, self._buffer[self._used:], self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if len(state) != 5 or state[0] != "blake2b":
            raise ValueError(f"not a HashedRandom state: {state!r:.60}")
        _, key, block, rest, self.gauss_next = state
        self.seed(key)
        self._block, self._buffer = block, rest
