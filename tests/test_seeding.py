"""How a seed becomes a game's generators (``fivehundred.engine.seeding``): fixed, process-independent;
the players' generator exactly ``random.Random`` of an integer, the deals' a keyed BLAKE2b stream; and
the shuffle (``_shuffled``) exactly uniform."""

from __future__ import annotations

import collections
import copy
import pickle
import random
from hashlib import blake2b

import pytest

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.engine.seeding import (
    PLAYERS_STREAM,
    HashedRandom,
    deal_generator,
    game_generators,
    game_key,
    generator,
    stream_seed,
)
from fivehundred.engine.state import _shuffled, new_game


def test_the_seed_mapping_is_pinned() -> None:
    # A pin of the mapping itself (docs/python.md, "How a seed becomes generators"): changing it changes the
    # games of every seed, so it must be a deliberate change, said in the README and the changelog, not by accident.
    assert game_key(1) == 0x9557BCF21522E2A1C4DD3F9F0074C820
    assert game_key("1") == game_key(1)
    assert game_key("1:0") == 0x691CF08BE1EEEE046687DF58532944D4
    deal, players = game_generators("7:3")
    assert deal.randbytes(8).hex() == "6b685647029a2594"
    assert [round(deal.random(), 12) for _ in range(3)] == [0.423076593246, 0.926463093145, 0.35763727113]
    assert [players.randrange(1000) for _ in range(4)] == [313, 970, 11, 538]


def test_the_players_generator_is_exactly_random_Random_of_its_integer_seed() -> None:
    for seed in (0, 1, "x", "123:45", 2**70):
        key = game_key(seed)
        players = game_generators(seed)[1]
        plain = random.Random(stream_seed(key, PLAYERS_STREAM))
        assert type(players) is random.Random
        assert players.getstate() == plain.getstate() == generator(key, PLAYERS_STREAM).getstate()
        assert players.gauss(0, 1) == plain.gauss(0, 1) and players.getstate() == plain.getstate()


def test_the_deal_generator_is_blake2b_of_the_game_key_and_a_block_number() -> None:
    key = game_key("5:2")
    expected = b"".join(blake2b(b"fivehundred:deals:" + key.to_bytes(16, "little") + block.to_bytes(8, "little"),
                                digest_size=64).digest() for block in range(3))
    deals = game_generators("5:2")[0]
    assert type(deals) is HashedRandom
    drawn = deals.randbytes(3) + deals.randbytes(100) + deals.randbytes(29)  # across block boundaries
    assert drawn == expected[:132]
    again = deal_generator(key)
    assert again.randbytes(150) == expected[:150]
    assert HashedRandom(key + 1).randbytes(8) != expected[:8]


def test_the_deal_generator_draws_as_a_random_Random() -> None:
    rng = HashedRandom(game_key(3))
    bits = rng.getrandbits(12)
    assert 0 <= bits < 4096 and rng.getrandbits(0) == 0
    with pytest.raises(ValueError):
        rng.getrandbits(-1)
    floats = [rng.random() for _ in range(4000)]
    assert all(0.0 <= f < 1.0 for f in floats) and 0.47 < sum(floats) / len(floats) < 0.53
    counts = collections.Counter(rng.randrange(6) for _ in range(6000))
    assert sorted(counts) == list(range(6)) and min(counts.values()) > 850  # 1000 expected each
    assert sorted(rng.sample(range(10), 10)) == list(range(10)) and rng.choice("ab") in "ab"
    assert isinstance(rng.gauss(0, 1), float) and isinstance(rng.uniform(1, 2), float)


def test_the_deal_generator_keeps_its_place_when_copied_pickled_or_restored() -> None:
    rng = HashedRandom(game_key(4))
    rng.randbytes(70)
    for twin in (copy.copy(rng), copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))):
        assert type(twin) is HashedRandom
        assert twin.getstate() == rng.getstate()
    state = rng.getstate()
    ahead = rng.randbytes(90)
    rng.setstate(state)
    assert rng.randbytes(90) == ahead
    with pytest.raises(ValueError, match="not a HashedRandom state"):
        rng.setstate(random.Random(1).getstate())
    rng.seed(game_key(4))
    assert rng.randbytes(70) + rng.randbytes(90) == HashedRandom(game_key(4)).randbytes(160)
    assert HashedRandom(game_key("x")).randbytes(8) == HashedRandom("x").randbytes(8)  # a seed is hashed to a key


def test_batch_game_i_deals_as_new_game_of_seed_colon_i() -> None:
    rs = fivehundred.load_ruleset("pagat-australian")
    for game in range(5):
        played = play_game(rs, 11, "random", game=game)
        fresh, rng = new_game(rs, f"11:{game}")
        assert fresh.dealer == played.hands_log[0].dealer
        assert fresh.dealer == int(deal_generator(game_key(f"11:{game}")).random() * 4)  # the D1 draw
        fresh.deal(rng)
        assert [list(h) for h in fresh.hands_log[0].hands] == [list(h) for h in played.hands_log[0].hands]


def test_the_deals_do_not_depend_on_what_the_players_draw() -> None:
    rs = fivehundred.load_ruleset("pagat-australian")
    for game in range(3):
        by_random = play_game(rs, 12, "random", game=game)
        by_club = play_game(rs, 12, "club", game=game)
        deals = min(len(by_random.hands_log), len(by_club.hands_log))
        assert [log.hands for log in by_random.hands_log[:deals]] == [log.hands for log in by_club.hands_log[:deals]]


def test_every_order_of_a_shuffle_is_equally_likely() -> None:
    # 4 cards: 24 orders, 24,000 shuffles. A chi-square of 23 degrees of freedom stays under 49.7 but for
    # one time in 1,000; a shuffle off by a position drawn twice as often fails it by far.
    for rng in (random.Random(1), HashedRandom(game_key(1))):
        counts = collections.Counter(tuple(_shuffled([0, 1, 2, 3], rng)) for _ in range(24_000))
        assert len(counts) == 24
        assert sum((c - 1000) ** 2 / 1000 for c in counts.values()) < 49.7


class _Bytes(random.Random):
    """A generator that hands out the given bytes, then bytes 0xFF."""

    def __init__(self, data: bytes):
        super().__init__(0)
        self.data, self.asked = data, []

    def randbytes(self, n: int) -> bytes:
        self.asked.append(n)
        out, self.data = self.data[:n], self.data[n:]
        return out + b"\xff" * (n - len(out))


def test_a_draw_that_would_favour_a_position_is_drawn_again() -> None:
    # Three cards; the last position is drawn among 3 from the first byte. 2**8 % 3 == 1, so the byte 0
    # (m = 0, low 0 < 1) is rejected: used, it would have put card 10 last. The next byte, 0xFF, picks
    # (0xFF * 3) >> 8 == 2 (12 stays last); then the byte 0 picks position 0 of 2 (accepted: 2**8 % 2 ==
    # 0), swapping 10 and 11.
    rng = _Bytes(bytes([0, 0xFF, 0]))
    assert _shuffled([10, 11, 12], rng) == [11, 10, 12]
    assert rng.asked == [3 + 8]
    exhausted = _Bytes(bytes(11))  # eleven bytes 0, all rejected for the last position: more are asked for
    assert _shuffled([10, 11, 12], exhausted) == [10, 11, 12]  # the bytes 0xFF keep every card in place
    assert exhausted.asked == [11, 16]


def test_a_position_among_more_than_256_is_drawn_from_two_bytes() -> None:
    # 258 cards: the last position from the word 0x8001 (bytes 01 80): m = 0x8001 * 258, low 258 (not
    # rejected), j = 129. Every later byte 0xFF keeps its card in place.
    rng = _Bytes(bytes([0x01, 0x80]))
    deck = _shuffled(range(258), rng)
    assert deck[257] == 129 and deck[129] == 257
    assert [card for i, card in enumerate(deck) if i not in (129, 257)] == [i for i in range(258)
                                                                           if i not in (129, 257)]
    assert rng.asked == [258 + 2 + 8]
    generator = random.Random(3)
    counts = collections.Counter(_shuffled(range(300), generator)[0] for _ in range(30_000))
    assert len(counts) == 300  # chi-square, 299 degrees of freedom: under 375 but for one time in 1,000
    assert sum((c - 100) ** 2 / 100 for c in counts.values()) < 375


def test_a_deck_too_large_to_shuffle_is_refused() -> None:
    with pytest.raises(ValueError, match="65,536"):
        _shuffled(range(70_000), random.Random(1))
