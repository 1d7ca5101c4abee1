"""Defending an open misère by search (``fivehundred.bots.misere_search``): the search on plain lists
agrees with the same search played on the engine's own clones, and the club defender keeps kills the
heuristic defence let through."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import fivehundred
from fivehundred.bots import misere_search as ms
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import tuned_for
from fivehundred.engine.state import GameState
from fivehundred.rules.actions import Phase
from fivehundred.rules.cards import NO_SUIT
from fivehundred.rules.manager import compile_rules


def misere_positions(name: str, games: int, most_cards: int) -> list[GameState]:
    """Positions of the play of misères (any kind) in seeded club games, with at most ``most_cards`` cards
    left in the hand of the seat to play."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    found = []
    for game in range(games):
        rng = random.Random(f"{name}:{game}")
        state = GameState(rules, first_dealer=0)
        players = [ClubPlayer(s, random.Random(s), tuned_for(name).model_copy(update={"misere_worlds": 0.0}))
                   for s in range(rules.players)]
        state.deal(rng)
        while not state.is_terminal() and len(state.hands_log) < 6:
            if state.phase == Phase.DEAL:
                state.deal(rng)
                continue
            c = state.contract
            if state.phase == Phase.PLAY and c is not None and c.kind == "misere" \
                    and len(state.hand(state.current_player())) <= most_cards:
                found.append(state.clone())
            seat = state.current_player()
            state.apply(players[seat].act(state, state.legal_actions()))
    return found


@pytest.mark.parametrize("name", ["pagat-australian", "six-handed-two-jokers", "three-handed"])
def test_the_search_on_lists_agrees_with_the_search_on_the_engine(name: str) -> None:
    positions = misere_positions(name, 30, 4)
    assert len(positions) >= 10
    kills = compared = 0
    for state in positions:
        targets = ms.targets_of(state)
        seats = ms.seats_in_play(state)
        table = state.play_table
        assert table is not None
        if not ms._plain(state) or any(table.suit_of[c] == NO_SUIT for s in seats for c in state.hand(s)):
            continue  # a free joker in play: the search on lists does not lead it (the engine's does)
        try:
            fast = ms._Cards(state, targets, seats).start(state)
            engine = ms._Search(targets, seats).kills(state)
        except ms._Budget:
            continue
        assert fast == engine, [state.hand(s) for s in seats]
        kills += fast
        compared += 1
    assert compared >= 10 and kills < compared
    if name == "pagat-australian":
        assert kills > 0  # both answers were met


def test_the_searching_defence_lets_through_no_more_open_miseres(tmp_path: Path) -> None:
    """On the open misères of 20 seeded games of the reference ruleset, replayed hand by hand, club defending
    by search lets through at most as many as the heuristic defence."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from misere_defence import nosearch_spec, open_misere_hands, replay  # benchmarks/misere_defence.py

    rs = fivehundred.load_ruleset("pagat-australian")
    rules = compile_rules(rs)
    heuristic = nosearch_spec(rs.name, tmp_path)
    hands = open_misere_hands(rs, heuristic, 20, 3)
    assert len(hands) >= 10
    through = {d: sum(replay(rules, log, totals, d, "club", f"3:{g}:{n}") for g, n, totals, log in hands)
               for d in (heuristic, "club")}
    assert through["club"] <= through[heuristic]
