"""The engine's fast loops against its plain path: the same seeds must give the same game, card for card.

``play_out`` runs the play (and a plain auction) in tight loops, and draws itself for players that
promise uniform choices (``uniform_draw``); ``apply()`` one action at a time is the reference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.state import GameState, new_game
from fivehundred.records.record import game_to_dict
from fivehundred.rules.loading import load_ruleset, ruleset_paths
from fivehundred.rules.manager import compile_rules, make_player
from fivehundred.rules.ruleset import Ruleset

RULESETS = sorted(ruleset_paths())


class ActingRandom(RandomPlayer):
    """Chooses exactly as ``RandomPlayer`` does, but through ``act``: the engine may not draw for it."""

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        return super().act(state, legal)


def _players(kind: type[RandomPlayer], n: int, game: int) -> list[RandomPlayer]:
    return [kind(seat, random.Random(f"{game}:{seat}")) for seat in range(n)]


def _played(name: str | Ruleset, game: int, kind: type[RandomPlayer], stepwise: bool = False) -> dict[str, Any]:
    rules = compile_rules(load_ruleset(name) if isinstance(name, str) else name)
    state, rng = new_game(rules, game)
    players = _players(kind, rules.players, game)
    if stepwise:  # one validated apply() at a time, every action checked against legal_actions()
        while not state.is_terminal():
            seat = state.current_player()
            if seat < 0:
                if state.deals == 61:
                    break
                state.deal(rng)
                continue
            legal = list(state.legal_actions())
            action = players[rules.controller[seat]].act(state, legal)
            assert action in legal
            state.apply(action)
    else:
        state.play_out(players, rng, max_deals=61)
    record = game_to_dict(state, seed=game, game=game, players=[kind.__name__] * rules.players)
    # The fast loops keep the step count as apply() does, and leave the state each seat sees as it does.
    return {**record, "steps": state.step, "seen": [state.observation(seat) for seat in range(rules.players)]}


def test_the_uniform_promise_is_kept_only_by_random_player_itself() -> None:
    assert RandomPlayer(0, random.Random(1)).uniform_draw is not None
    assert ActingRandom(0, random.Random(1)).uniform_draw is None


def test_the_random_factory_makes_the_player_the_class_makes() -> None:
    made, built = make_player("random", 2, random.Random(7)), RandomPlayer(2, random.Random(7))
    assert type(made) is RandomPlayer and made.seat == built.seat == 2
    assert made.uniform_draw is not None and made.uniform_draw() == built.uniform_draw()  # type: ignore[misc]
    legal = list(range(10, 40))
    assert [made.act(None, legal) for _ in range(20)] == [built.act(None, legal) for _ in range(20)]  # type: ignore[arg-type]


@pytest.mark.parametrize("name", RULESETS)
def test_drawing_for_uniform_players_plays_the_same_games(name: str) -> None:
    for game in range(6):
        fast = _played(name, game, RandomPlayer)
        slow = _played(name, game, ActingRandom)
        fast["players"] = slow["players"]
        assert fast == slow, f"{name}, game {game}"


@pytest.mark.parametrize("name", RULESETS)
def test_play_out_plays_the_games_apply_plays(name: str) -> None:
    for game in range(4):
        assert _played(name, game, ActingRandom) == _played(name, game, ActingRandom, stepwise=True), (
            f"{name}, game {game}")


def test_the_three_paths_agree_when_a_set_contractor_sits_out_the_next_auction(tmp_path: Path) -> None:
    """R1: the uniform hand starts its auction with the barred seat already passed, as ``apply()`` does."""
    path = tmp_path / "ralphing.yaml"
    path.write_text("extends: pagat-australian\nname: ralphing\nauction:\n  set_bar: 2\n  set_bar_misere: 1\n"
                    "game:\n  target: 5000\n  swamp: null\n")  # long games: random bidders fail often
    ralphing = load_ruleset(path)
    assert compile_rules(ralphing).auction.set_bar == 2
    short_auctions = 0
    for game in range(8):
        fast = _played(ralphing, game, RandomPlayer)
        slow = _played(ralphing, game, ActingRandom)
        fast["players"] = slow["players"]
        assert fast == slow == _played(ralphing, game, ActingRandom, stepwise=True) | {"players": slow["players"]}
        short_auctions += sum(len({call["seat"] for call in hand["calls"]}) < 4 for hand in slow["hands"])
    assert short_auctions, "no contractor was ever barred: the test would not see the bar"


def test_a_clone_taken_mid_trick_carries_on_as_the_original() -> None:
    """A player may clone the state inside ``act`` (Monte Carlo does): the clone knows the best card so
    far, so the trick it finishes with the original's cards has the original's winner."""
    rules = compile_rules(load_ruleset("pagat-australian"))
    clones: list[tuple[GameState, int]] = []

    class Cloner(ActingRandom):
        def act(self, state: GameState, legal: Sequence[int]) -> int:
            if state.phase.name == "PLAY" and len(state.observation(self.seat).current_trick) == 2:
                clones.append((state.clone(), len(state.hands_log[-1].tricks)))
            return super().act(state, legal)

    checked = 0
    for game in range(5):
        clones.clear()
        state, rng = new_game(rules, game)
        state.play_out(_players(Cloner, 4, game), rng, max_deals=1)
        tricks = state.hands_log[-1].tricks
        for clone, k in clones:
            if k >= len(tricks):
                continue
            for card in tricks[k].cards[2:]:
                clone.apply(card)
            assert clone.hands_log[-1].tricks[k].winner == tricks[k].winner, (game, k)
            checked += 1
    assert checked > 10


def _carry_on(state: GameState) -> GameState:
    """Play the deal to its end, each action picked by the step number alone (no generator to share)."""
    while state.current_player() >= 0:
        legal = state.legal_actions()
        state.apply(legal[(state.step * 7) % len(legal)])
    return state


@pytest.mark.parametrize("name", ["pagat-australian", "five-handed", "two-handed", "canadian"])
def test_a_clone_carries_on_as_the_original_from_any_point(name: str) -> None:
    """Cloned at every step of a deal (the auction's passes, the exchange, mid-trick) and played on
    alike, the clone ends the deal exactly as the original did."""
    rules = compile_rules(load_ruleset(name))
    for game in range(3):
        state, rng = new_game(rules, game)
        state.deal(rng)
        start = state.clone()
        whole = game_to_dict(_carry_on(start.clone()))
        replay = start.clone()
        while replay.current_player() >= 0:
            assert game_to_dict(_carry_on(replay.clone())) == whole, (name, game, replay.step)
            legal = replay.legal_actions()
            replay.apply(legal[(replay.step * 7) % len(legal)])


def test_a_clone_before_the_first_deal_and_late_in_a_game_parts_ways_with_the_original() -> None:
    rules = compile_rules(load_ruleset("pagat-australian"))
    fresh = GameState(rules, first_dealer=0).clone()  # nothing dealt yet: the hand's attributes are None
    fresh.deal(random.Random(1))
    assert fresh.phase.name == "AUCTION" and len(fresh.hand(fresh.current_player())) == 10
    for seed in range(20):  # the first game that reaches a second hand
        state, rng = new_game(rules, seed)
        while len(state.hands_log) < 2 and not state.is_terminal():
            if state.current_player() == -1:
                state.deal(rng)
            else:
                state.apply(_carry_on_action(state))
        if not state.is_terminal():
            break
    assert len(state.hands_log) == 2 and not state.is_terminal()
    before = game_to_dict(state)
    other = state.clone()
    assert other.hands_log[:-1] == state.hands_log[:-1]  # finished hands: shared, as nothing changes them
    other.play_out([RandomPlayer(seat, random.Random(seat)) for seat in range(4)], rng, max_deals=50)
    assert game_to_dict(state) == before and other.step > state.step and other.is_terminal()


def _carry_on_action(state: GameState) -> int:
    legal = state.legal_actions()
    return legal[(state.step * 7) % len(legal)]


@pytest.mark.parametrize("name", ["pagat-australian", "canadian", "five-handed"])
def test_play_out_may_start_in_the_middle_of_a_trick(name: str) -> None:
    rules = compile_rules(load_ruleset(name))
    for game in range(4):
        for stop_after in (1, 2, 5):  # cards into the play
            records = []
            for path in ("play_out", "stepwise"):
                state, rng = new_game(rules, game)
                players = _players(ActingRandom, rules.players, game)
                state.deal(rng)
                played = 0
                while state.current_player() >= 0 and played < stop_after:
                    if state.phase.name == "PLAY":
                        played += 1
                    seat = state.current_player()
                    state.apply(players[rules.controller[seat]].act(state, list(state.legal_actions())))
                if path == "play_out":
                    state.play_out(players, rng, max_deals=1)
                else:
                    while state.current_player() >= 0:
                        seat = state.current_player()
                        state.apply(players[rules.controller[seat]].act(state, list(state.legal_actions())))
                records.append(game_to_dict(state, seed=game, game=game))
            assert records[0] == records[1], (name, game, stop_after)
