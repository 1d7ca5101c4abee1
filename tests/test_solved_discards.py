"""The searched kitty exchange (``solver:ex=N``; ``club``'s misère discards, ``misere_exchange_worlds``;
``fivehundred.bots.solved_discards``): its candidates start from ``club``'s own discards by rules of thumb, it is read
from the player spec and the tuned set, it is deterministic, and on a deal where the rules of thumb's discards lose
the contract against best play the searched ones keep it."""

from __future__ import annotations

import random

import pytest

import fivehundred
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import tuned_for
from fivehundred.bots.solved_discards import SPARE, best_discards, discard_order, searched_exchange
from fivehundred.bots.solver_player import SolverPlayer
from fivehundred.engine.state import GameState, new_game
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import make_player


def _exchange(name: str, seed: str) -> GameState:
    """The first hand of ``seed``, bid by ``club`` pricing an open misère by its danger curve (``misere_bid_worlds``
    0: the player these hands were chosen from), at the contractor's first discard."""
    state, rng = new_game(fivehundred.load_ruleset(name), seed)
    curve = tuned_for(name).model_copy(update={"misere_bid_worlds": 0.0})
    bidders = [ClubPlayer(s, random.Random(s), curve) for s in range(state.rules.players)]
    state.deal(rng)
    while state.phase not in (Phase.DISCARD, Phase.GAME_OVER) and state.current_player() >= 0:
        state.apply(bidders[state.rules.controller[state.current_player()]].act(state, state.legal_actions()))
    return state


def _exchanged(state: GameState, first: ClubPlayer) -> GameState:
    """``state`` after the exchange, the contractor's decisions ``first``'s, the others' ``club``'s."""
    state = state.clone()
    seat = state.current_player()
    clubs = [ClubPlayer(s, random.Random(s)) for s in range(state.rules.players)]
    while state.phase != Phase.PLAY:
        s = state.rules.controller[state.current_player()]
        state.apply((first if s == seat else clubs[s]).act(state, state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["pagat-australian", "canadian", "nullo", "three-handed", "six-handed"])
def test_the_first_candidate_is_club_s_own_discards(name: str) -> None:
    """``discard_order`` reads ``club``'s order of throwing: its first cards are those ``club`` discards, on every
    exchange the search covers in 40 seeded deals (misères among them where the ruleset has them)."""
    seen = 0
    for i in range(40):
        state = _exchange(name, f"order:{i}")
        if not searched_exchange(state):
            continue
        seen += 1
        count = len(state.hand(state.current_player())) - state.rules.hand_size
        thumb = tuned_for(name, search=False)  # the order of throwing: club's misère discards search from it
        after = _exchanged(state, ClubPlayer(state.current_player(), random.Random(0), thumb))
        assert sorted(discard_order(state, count)) == sorted(after.hand_log.discards)
        assert len(discard_order(state, SPARE)) == SPARE
    assert seen >= 20


def test_searched_discards_keep_an_open_misere_that_club_s_discards_lose() -> None:
    """Seed ``ex:80``: West's open misère holds ♠5 6 9 A ♣5 7 8 K ♦Q ♥4 9 J and the joker after the kitty.  By rules
    of thumb (``club:fast``) it throws ♠A ♦Q and the joker, and a defence that sees every card beats it; searched over
    eight worlds (``solver:ex=8``), and by the shipped ``club`` over its ``misere_exchange_worlds``, West throws ♦Q ♥9
    ♥J, keeps ♥4 alone, and no defence takes a trick from it."""
    state = _exchange("pagat-australian", "ex:80")
    west = state.current_player()
    assert state.contract is not None and state.contract.call == "open-misere" and searched_exchange(state)
    thumb = _exchanged(state, ClubPlayer(west, random.Random(0), tuned_for("pagat-australian", search=False)))
    searched = _exchanged(state, SolverPlayer(west, random.Random(0), exchange_worlds=8))
    club = _exchanged(state, ClubPlayer(west, random.Random(0)))
    names = [sorted(state.action_to_str(200 + c).split()[-1] for c in s.hand_log.discards)
             for s in (thumb, searched, club)]
    assert names == [["AS", "JK", "QD"], ["9H", "JH", "QD"], ["9H", "JH", "QD"]]
    assert [fivehundred.solve(s) for s in (thumb, searched, club)] == [1, 0, 0]
    models = [ClubPlayer(s, random.Random(s)) for s in range(4)]
    assert best_discards(state, 8, 3, models) == best_discards(state, 8, 3, models)  # seeded by the position


def test_the_exchange_worlds_are_read_from_the_player_spec() -> None:
    player = make_player("solver:4:6:ex=8:bid=2:default", 0, random.Random(0))
    assert isinstance(player, SolverPlayer)
    assert (player.worlds, player.cards, player.exchange_worlds, player.bid_worlds) == (4, 6, 8, 2)
    assert make_player("solver", 0, random.Random(0)).exchange_worlds == 0
    with pytest.raises(ValueError, match="ex="):
        make_player("solver:ex=x", 0, random.Random(0))


def test_a_contract_the_search_does_not_cover_keeps_club_s_discards() -> None:
    """A dummy laid out (two-handed) or no exchange in progress: not searched."""
    state = _exchange("two-handed", "order:1")
    assert state.phase != Phase.DISCARD or not searched_exchange(state)
    state, _ = new_game(fivehundred.load_ruleset("pagat-australian"), 1)
    assert not searched_exchange(state)
