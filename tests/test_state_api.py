"""GameState's public read API (for plugins and bots) against the engine's own attributes, at every
step of seeded games of every shipped ruleset; and the determinisation API for sampling bots."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import fivehundred
from fivehundred.bots.players import RandomPlayer
from fivehundred.bots.unseen import knowledge
from fivehundred.engine.state import CHANCE, GameState, Phase, new_game
from fivehundred.plugins.partner import called_card
from fivehundred.records.validation import validate_record
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import ruleset_paths

RULESETS = sorted(ruleset_paths())


def steps(name: str, games: int = 2, deals: int = 3) -> Iterator[GameState]:
    """The state before every action of a few seeded games with random players."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    for g in range(games):
        state, deal_rng = new_game(rules, f"api:{g}")
        assert state.hand(0) == () and state.contract is None and state.contractor == -1
        assert state.tricks_won_by_seat == (0,) * rules.players and state.play_table is None
        bots = [RandomPlayer(s, random.Random(g * 10 + s)) for s in range(rules.players)]
        while not state.is_terminal() and state.deals <= deals:
            seat = state.current_player()
            if seat == CHANCE:
                if state.deals == deals:
                    break
                state.deal(deal_rng)
                continue
            yield state
            state.apply(bots[rules.controller[seat]].act(state, state.legal_actions()))
        yield state


@pytest.mark.parametrize("name", RULESETS)
def test_the_read_api_says_what_the_engine_holds(name: str) -> None:
    checked = 0
    for state in steps(name):
        rules, players = state.rules, state.rules.players
        if state.phase == Phase.DEAL:
            assert state.hand(0) == () and state.contract is None and state.contracting_side == frozenset()
            continue
        log = state.hands_log[-1]
        obs = state.observation(0)
        assert all(state.hand(s) == tuple(state._held[s]) for s in range(players))
        assert state.contract is log.contract and state.contractor == log.contractor
        assert state.contracting_side == state._side
        assert state.tricks_won_by_seat == obs.tricks_won
        by_team = [0] * len(rules.team_names)
        for s, won in enumerate(obs.tricks_won):
            by_team[rules.team_of[s]] += won
        assert state.tricks_won_by_team == tuple(by_team)
        assert state.trick_view() == (state.trick, state.led_suit, state.trick_leader, state.tricks_won_by_seat)
        for s in range(players):  # the shortcut when nothing lies on the table, against the seats shown
            hand, discards, shown = state.cards_seen(s)
            assert shown == tuple((p, tuple(state._held[p])) for p in state._public_seats() if p != s)
            assert discards == state._discards_made_by(s) and hand in ((), state.hand(s))
        if state.phase not in (Phase.PLAY, Phase.GAME_OVER):
            assert state.trick == () and state.led_suit is None and state.trick_leader == -1
            assert state.play_order == rules.next_seat and state.play_table is None
            continue
        assert state.play_table is state._table and state.play_order == state._next
        assert state.sitting_out == state._out and sorted(state.sitting_out) == list(obs.sitting)
        assert state.played == tuple(c for t in log.tricks for c in t.cards) + state.trick
        for dummy in rules.dummies:
            assert state.covering(dummy) == tuple(sorted(state._covered[dummy]))
        if state.phase == Phase.GAME_OVER:
            continue
        assert state.trick == obs.current_trick and state.led_suit == obs.led and state.trick_leader == obs.leader
        table = state.play_table
        assert table is not None
        k = knowledge(state, state.current_player())
        for s in range(players):
            voids = state.voids(s)
            assert sum(1 << v for v in voids) == (0 if s in rules.dummies else k.void[s])
            assert not any(table.suit_of[card] in voids for card in state.hand(s))  # shown void: holds none
        checked += 1
    assert checked > 0


def test_voids_are_shown_by_not_following() -> None:
    shown = set()
    for state in steps("pagat-australian", games=3):
        if state.phase == Phase.PLAY:
            shown.update((s, suit) for s in range(4) for suit in state.voids(s))
    assert len(shown) > 3


@pytest.mark.parametrize("name", ["pagat-australian", "two-handed", "five-handed"])
def test_redistribute_keeps_the_engine_consistent(name: str) -> None:
    """Swap the hidden hands of a clone mid-play: the engine's split by suit follows, the legal plays
    are the new hand's, the game plays on and its record still validates under the new deal."""
    done = 0
    for state in steps(name, games=3):
        if state.phase != Phase.PLAY or state.trick or len(state.hands_log[-1].tricks) != 2:
            continue
        world = state.clone()
        acting = world.current_player()
        others = [s for s in range(world.rules.players) if s != acting and world.hand(s)
                  and len(world.hand(s)) == len(world.hand(acting)) and s not in world.rules.dummies]
        if not others:
            continue
        other = others[0]
        mine, theirs = world.hand(acting), world.hand(other)
        world.redistribute({acting: theirs, other: mine})
        assert world.hand(acting) == theirs and world.hand(other) == mine
        suit_of = world._suit_of
        for s in (acting, other):
            assert world._buckets[s] == [[c for c in world._held[s] if suit_of[c] == b] for b in range(5)]
        legal = world.legal_actions()
        assert all(a in theirs for a in legal if a < JOKER_BASE)
        for dummy in world.rules.dummies:
            ups = world.covering(dummy)
            with pytest.raises(ValueError):
                world.redistribute(covered={dummy: dict.fromkeys((*ups, -1), 0)})
        done += 1
    assert done > 0


def test_a_step_or_a_sampling_bot_may_set_the_contracting_side() -> None:
    for state in steps("five-handed", games=4):
        log = state.hands_log[-1] if state.hands_log else None
        if state.phase != Phase.PLAY or log is None or (called_card(log) or -1) < 0:
            continue
        world = state.clone()
        someone = next(s for s in range(world.rules.players) if s != world.contractor)
        world.set_contracting_side(frozenset({world.contractor, someone}))
        assert world.contracting_side == {world.contractor, someone}
        world.set_contracting_side(frozenset({world.contractor}))
        assert world.contracting_side == {world.contractor}
        assert state.contracting_side != world.contracting_side or len(state.contracting_side) == 1
        return
    pytest.fail("no called partner in these games")


def test_a_record_still_validates_after_reading() -> None:
    """Reading never changes a game: the record of a game read at every step validates."""
    from fivehundred.records.record import game_to_dict

    last = None
    for state in steps("canadian", games=1):
        _ = state.voids(0), state.played, state.trick, state.hand(1), state.tricks_won_by_team
        last = state
    assert last is not None and validate_record(game_to_dict(last)) == []
