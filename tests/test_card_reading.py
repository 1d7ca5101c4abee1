"""Reading the cards the others played (``fivehundred.bots.card_reading``): the replay of a hand in a world is
faithful (the true deal, played by ``club``, holds no surprise), and the ``solver`` player's worlds read by it hold
the others' true cards more often than worlds dealt uniformly."""

from __future__ import annotations

import random

import pytest

import fivehundred
from fivehundred.bots.card_reading import play_surprises, replayed_surprises
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.solved_worlds import sample_worlds
from fivehundred.bots.solver_player import SolverPlayer
from fivehundred.bots.unseen import determinise, knowledge
from fivehundred.engine.state import GameState
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import compile_rules


def _decisions(name: str, hands: int, seed: str = "read",
               spec: str | None = None) -> list[tuple[GameState, list[ClubPlayer]]]:
    """Every card with a choice of the first ``hands`` hands of a game played by ``club`` (``club:SPEC``) in every
    seat (its positions, cloned, with the players)."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    rng = random.Random(seed)
    players = [ClubPlayer.from_spec(s, random.Random(s), spec) for s in range(rules.players)]
    state = GameState(rules, first_dealer=0)
    found = []
    while not state.is_terminal() and len(state.hands_log) <= hands:
        if state.phase == Phase.DEAL:
            state.deal(rng)
            continue
        legal = state.legal_actions()
        seat = state.current_player()
        if state.phase == Phase.PLAY and len(legal) > 1 and len(state.hands_log) <= hands:
            found.append((state.clone(), players))
        state.apply(players[state.rules.controller[seat]].act(state, legal))
    return found


@pytest.mark.parametrize(("name", "hands"), [("pagat-australian", 2), ("canadian", 2), ("three-handed", 2),
                                             ("six-handed", 2), ("nullo", 2), ("american-1904", 2),
                                             ("french-canadian", 3)])
def test_the_true_deal_holds_no_surprise_and_uniform_worlds_do(name: str, hands: int) -> None:
    """Replayed from the deal through the calls, the exchange and every card, the true deal of a ``club`` game
    gives ``club`` no card it would not have played (its open-misère searches too: a decision's worlds are seeded by
    what the seat has seen); worlds dealt uniformly give some.  (french-canadian's hands are mostly a grosse misère,
    one seat alone with a choice of cards against two: three hands for twenty decisions.)"""
    decisions = _decisions(name, hands)
    assert len(decisions) >= 20
    uniform = 0
    for state, players in decisions:
        seat = state.current_player()
        k = knowledge(state, seat)
        hidden = [s for s in k.hidden if s != seat]
        assert replayed_surprises(state.clone(), hidden, players, 99) == 0
        uniform += replayed_surprises(determinise(state, seat, random.Random(1), k), hidden, players, 99)
    assert uniform > len(decisions) // 2


def test_a_hand_the_replay_cannot_follow_reads_as_no_surprise() -> None:
    """Where a step after the auction (five-handed's partner call) stops the replay, every world weighs the same."""
    decisions = _decisions("five-handed", 1)
    assert decisions
    state, players = decisions[-1]
    seat = state.current_player()
    k = knowledge(state, seat)
    world = determinise(state, seat, random.Random(2), k)
    assert play_surprises(world, [s for s in k.hidden if s != seat], players, 99) == 0


def test_worlds_read_by_the_cards_played_hold_the_true_cards_more_often() -> None:
    """At the later cards of ``club:fast`` games (four tricks or more played), the cards the read worlds give each
    hidden seat are its true cards more often than in worlds dealt uniformly, and the worlds are the same for the
    same decision.  (``club:fast`` is how ``solver`` models the others; ``club``'s open-misère searches in every
    replay would take this test past its timeout on a pure-Python install.)"""
    read_hits = uniform_hits = 0
    positions = [(s, p) for g in range(3) for s, p in _decisions("pagat-australian", 3, f"read:{g}", "fast")
                 if len(s.hand_log.tricks) >= 4]
    assert len(positions) >= 40
    for state, players in positions:
        seat = state.current_player()
        hidden = [s for s in knowledge(state, seat).hidden if s != seat]
        read = sample_worlds(state, seat, 4, players)
        uniform = sample_worlds(state, seat, 4)
        for worlds, hits in ((read, 1), (uniform, 0)):
            same = sum(len(set(w.hand(s)) & set(state.hand(s))) for w in worlds for s in hidden)
            if hits:
                read_hits += same
            else:
                uniform_hits += same
        assert [w.hand(h) for w in read for h in hidden] == \
            [w.hand(h) for w in sample_worlds(state, seat, 4, players) for h in hidden]
    assert read_hits > uniform_hits * 1.1


def test_the_reading_is_on_by_default_and_off_by_its_setting() -> None:
    rng = random.Random(0)
    assert SolverPlayer.from_spec(0, rng).read_cards
    assert SolverPlayer.from_spec(0, rng, "8:read=1").read_cards
    off = SolverPlayer.from_spec(0, rng, "read=0")
    assert not off.read_cards and off.worlds == 8
    with pytest.raises(ValueError, match="read="):
        SolverPlayer.from_spec(0, rng, "read=yes")
