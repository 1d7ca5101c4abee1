"""How a seed becomes a game's generators (``fivehundred.engine.seeding``): fixed, process-independent,
and exactly ``random.Random`` of an integer."""

from __future__ import annotations

import random

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.engine.seeding import DEAL_STREAM, game_generators, game_key, generator, stream_seed
from fivehundred.engine.state import new_game


def test_the_seed_mapping_is_pinned() -> None:
    # A pin of the mapping itself (README, "How a seed becomes generators"): changing it changes the
    # games of every seed, so it must be a deliberate change, said in the README, not an accident.
    assert game_key(1) == 0x9557BCF21522E2A1C4DD3F9F0074C820
    assert game_key("1") == game_key(1)
    assert game_key("1:0") == 0x691CF08BE1EEEE046687DF58532944D4
    deal, players = game_generators("7:3")
    assert [round(deal.random(), 12) for _ in range(3)] == [0.973325963036, 0.098802103973, 0.456411078447]
    assert [players.randrange(1000) for _ in range(4)] == [313, 970, 11, 538]


def test_each_generator_is_exactly_random_Random_of_its_integer_seed() -> None:
    for seed in (0, 1, "x", "123:45", 2**70):
        key = game_key(seed)
        made = list(game_generators(seed))
        for stream, rng in enumerate(made):
            plain = random.Random(stream_seed(key, stream))
            assert type(rng) is random.Random
            assert rng.getstate() == plain.getstate() == generator(key, stream).getstate()
            assert rng.gauss(0, 1) == plain.gauss(0, 1) and rng.getstate() == plain.getstate()
        assert made[0].random() != made[1].random()  # two different streams


def test_batch_game_i_deals_as_new_game_of_seed_colon_i() -> None:
    rs = fivehundred.load_ruleset("pagat-australian")
    for game in range(5):
        played = play_game(rs, 11, "random", game=game)
        fresh, rng = new_game(rs, f"11:{game}")
        assert fresh.dealer == played.hands_log[0].dealer
        assert fresh.dealer == generator(game_key(f"11:{game}"), DEAL_STREAM).randrange(4)  # the D1 draw
        fresh.deal(rng)
        assert [list(h) for h in fresh.hands_log[0].hands] == [list(h) for h in played.hands_log[0].hands]
