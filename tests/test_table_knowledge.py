"""What every seat may know, stated once (``fivehundred.engine.reading``): the voids shown, the seats in play
order, the cards unseen by a seat and the trick's standing, read alike from the state and from an observation.

The statements are checked mechanically (the rule they encode is written in one module, read by the state,
the observation and the sampling players), and against the games themselves: random games of rulesets with
the features that make them differ (seats sitting out, free jokers, jokers filtered by a plugin, dummies).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import fivehundred
from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.reading import next_seats, voids_shown
from fivehundred.engine.state import CHANCE, JOKER_LEAD, GameState, Phase, new_game
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import compile_rules

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("core", "plugins", "cli") for p in (ROOT / folder).rglob("*.py"))
RULESETS = sorted(ruleset_paths())


def _readers(pattern: str) -> set[str]:
    found = set()
    for path in SOURCES:
        if re.search(pattern, path.read_text(encoding="utf-8")):
            found.add(path.relative_to(ROOT).as_posix())
    return found


# What a void shown is: the compulsory joker's void (rule 21) is read where the play table is built and used
# (rules/tables.py) and where voids are worked out, once.
VOID_RULE = r"joker_void_compulsory"
# The play order skipping the seats that sit out: ``(s + k) % n`` tried round the table, skipping ``out``.
SKIPPING_ORDER = r"%\s*\w+\s+not\s+in\s+\w+\s+for\s+\w+\s+in\s+range|\(\w+ \+ \w+\) % \w+ not in \w+\)"


def test_a_void_shown_is_worked_out_in_one_place() -> None:
    # The play kernel reads the field too, compiling what is legal (a void player must play the joker), not
    # what a play shows of a void; so does the engine's play loop, handing it to ``follow_suit`` (a C call).
    assert _readers(VOID_RULE) == {"core/rules/tables.py", "core/engine/reading.py", "core/engine/kernel.py",
                                   "core/engine/play.py"}


def test_the_play_order_skipping_seats_out_is_worked_out_in_one_place() -> None:
    assert _readers(SKIPPING_ORDER) == {"core/engine/exchange.py"}


def test_the_checks_would_catch_a_restatement() -> None:
    """The patterns above match the restatements this module replaced (montecarlo's, heuristic's)."""
    restated = "nxt = [next(((s + k) % n for k in range(1, n + 1) if (s + k) % n not in sitting), s) for s in range(n)]"
    assert re.search(SKIPPING_ORDER, restated)
    assert re.search(VOID_RULE, "compulsory = table.joker_void_compulsory and plain")


def test_next_seats_skips_the_seats_sitting_out() -> None:
    assert next_seats(4) == (1, 2, 3, 0)
    assert next_seats(4, {2}) == (1, 3, 3, 0)  # the seat out is followed by the next seat in
    assert next_seats(6, {1, 3}) == (2, 2, 4, 4, 5, 0)
    assert next_seats(3, {0, 1}) == (2, 2, 2)


def games(name: str, count: int = 3, deals: int = 3) -> Iterator[GameState]:
    """The state before every action of a few seeded games with random players."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    for g in range(count):
        state, deal_rng = new_game(rules, f"knowledge:{g}")
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


@pytest.mark.parametrize("name", RULESETS)
def test_the_state_and_an_observation_know_the_same(name: str) -> None:
    checked = 0
    for state in games(name):
        rules = state.rules
        n = rules.players
        for seat in range(n):
            obs = state.observation(seat)
            assert obs.play_order(n) == state.play_order
            unseen = state.unseen(seat)
            assert unseen == obs.unseen(rules.deck) and list(unseen) == sorted(unseen)
            assert not set(unseen) & (set(obs.hand) | set(obs.discards) | set(state.played))
            assert not set(unseen) & {c for _, cards in obs.open_hands for c in cards}
            if obs.hand:  # every card of the others' hidden hands is unseen by this seat
                shown = {s for s, _ in obs.open_hands}
                hidden = {c for s in range(n) if s != seat and s not in shown for c in state.hand(s)}
                assert hidden <= set(unseen)
        if state.phase != Phase.PLAY:
            continue
        table = state.play_table
        assert table is not None
        obs = state.observation(state.current_player())
        masks = obs.voids_shown(table, n, laid_out=rules.dummies)
        assert masks == voids_shown(obs.tricks_played(), state.play_order, table, n, rules.dummies)
        for s in range(n):
            if s in rules.dummies:  # a hand laid out shows no void
                assert not state.voids(s) and not masks[s]
                continue
            assert state.voids(s) == frozenset(v for v in range(5) if masks[s] >> v & 1)
            assert not any(table.suit_of[card] in state.voids(s) for card in state.hand(s))
        checked += 1
    assert checked


@pytest.mark.parametrize("name", ["pagat-australian", "two-handed", "five-handed"])
def test_the_trick_standing_names_who_wins_the_trick(name: str) -> None:
    """Before the last card of a trick, the standing names the winner unless the last card beats it."""
    checked = 0
    for state in games(name):
        assert state.trick_standing == (-1, -1) or (state.phase == Phase.PLAY and state.trick)
        if state.phase != Phase.PLAY or not state.trick:
            continue
        seat, strength = state.trick_standing
        assert seat in state.play_order and strength >= 0
        table = state.play_table
        assert table is not None and state.led_suit is not None
        size = len(state.trick)
        for action in state.legal_actions():
            if action >= JOKER_LEAD:
                continue
            after = state.clone()
            tricks_before = len(after.hand_log.tricks)
            after.apply(action)
            if len(after.hand_log.tricks) > tricks_before:  # the card closed the trick
                beats = table.power[state.led_suit][action] > strength
                assert after.hand_log.tricks[-1].winner == (state.current_player() if beats else seat)
                checked += 1
            else:
                now, best = after.trick_standing
                assert len(after.trick) == size + 1
                assert (now, best) == ((state.current_player(), table.power[state.led_suit][action])
                                       if table.power[state.led_suit][action] > strength else (seat, strength))
    assert checked
