"""How a seed becomes a game's generators: the same in every process, with no global random state.

A game's key is one hash of its seed text: ``game_key(seed)`` for ``new_game(ruleset, seed)``, and
``game_key(f"{seed}:{game}")`` for game ``game`` of a batch (so batch game ``i`` deals as
``new_game(ruleset, f"{seed}:{i}")`` does). Its generators are seeded with integers made from the key
and a fixed stream number: stream 0 deals (and draws the first dealer), stream 1 is the players' (one
generator the seats share, drawn from in the order they act). BLAKE2b gives the same key in any process
(``hash()`` would not: it is salted per process), and one hash per game replaces one string seed per
generator, which ``random.Random`` would hash through SHA-512 each time.

Most of what a generator costs is the Mersenne Twister filling its 624-word state from the seed
(about 28k instructions, 5–6 µs, the same for an int or a str seed), which is why a game has two
generators and not one per seat: the deals stay apart from the players' draws (so the same seed deals
the same cards whatever the players), and the players share theirs.  ``generator`` skips only the
``Random.__init__``/``seed`` calls in Python around it.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable
from hashlib import blake2b

DEAL_STREAM = 0
"""The stream of the game's deal generator."""
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


def game_generators(seed: int | str) -> tuple[random.Random, random.Random]:
    """The deal generator and the players' generator of the game of ``seed``."""
    base = game_key(seed) << _STREAM_BITS
    return _make(base | DEAL_STREAM), _make(base | PLAYERS_STREAM)
