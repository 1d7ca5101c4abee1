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
from typing import Any

import pytest
from helpers import act

import fivehundred
from fivehundred.bots.heuristic import HeuristicPlayer, _info
from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.reading import next_seats, voids_shown
from fivehundred.engine.state import CHANCE, JOKER_LEAD, GameState, Phase, new_game
from fivehundred.rules.cards import card_str, parse_cards
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


@pytest.mark.parametrize("name", RULESETS)
def test_the_players_read_the_voids_the_table_shows(name: str) -> None:
    """The rule-of-thumb players' reading of the play (``TrickReader._situation``, which adds a trick at a time)
    holds the voids as the table counts them (``voids_shown``), read from the state or from an observation: a
    free joker a plugin lets be played with the suit held shows no void (canadian), a void player that plays
    another card where the free joker is compulsory holds none (rule 21, a misère), a hand laid out on the table
    shows none (two-handed)."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    info = _info(rules)
    readers = [HeuristicPlayer(s, random.Random(s)) for s in range(rules.players)]
    checked = 0
    for state in games(name):
        if state.phase != Phase.PLAY:
            continue
        seat = state.current_player()
        table = state.play_table
        assert table is not None
        obs = state.observation(seat)
        shown = obs.voids_shown(table, rules.players, laid_out=rules.dummies)
        reader = readers[rules.controller[seat]]
        assert reader._situation(seat, reader._seen(state, seat), info).void == shown
        assert reader._situation(seat, obs, info).void == shown
        checked += 1
    assert checked


TWO_HANDED_DEAL = ("9H 8S KD AD 5H JH JK 6S 10D 5C", "8H QD QS 6H 7S 6C 9D 4H 6D AH",
                   "10S KC KH 7H QH AC QC AS 5D 10C", "KS 7D 10H JS 8D 8C 5S 9S JD JC", "7C 4D 9C")
"""P2 (two-handed): N and E live, S and W their dummies, each laid out as dealt: the first five cards face down,
each under the face-up card five places on (W's 8♦ under the J♣, its 7♦ under the 5♠)."""


def test_a_dummy_that_showed_out_may_hold_the_suit_under_its_face_up_cards() -> None:
    """A hand laid out shows no void (P2): W plays the 8♣ to a trump lead while its 8♦ lies face down, plays that
    8♦ once it turns up, and still has the 7♦ face down.  With every opponent's trumps counted, N leads a trump;
    reading W as void in trumps (as the players did before they read the table's count) it would lead a club."""
    from fivehundred.bots.club import ClubPlayer

    rules = compile_rules(fivehundred.load_ruleset("two-handed"))
    n, e, w, diamonds = 0, 1, 3, 2
    state = GameState(rules, first_dealer=n)
    state.deal_cards([parse_cards(h) for h in TWO_HANDED_DEAL[:4]], parse_cards(TWO_HANDED_DEAL[4]))
    act(state, "6H 7D pass 6S 8S 5H | JK 6D 5D JD | JH 9D 7H 8C | AD QD 10C JC | KD 6C QH 8D")
    assert state.current_player() == n and state.contract is not None and state.contract.trump == diamonds
    assert [card_str(c) for c in state.hand_log.tricks[1].cards][3] == "8C"  # W showed out of trumps …
    assert [card_str(c) for c in state.hand_log.tricks[3].cards][3] == "8D"  # … and then followed
    assert parse_cards("7D")[0] in state.hand_log.hands[w] and parse_cards("7D")[0] not in state.played
    assert state.voids(w) == frozenset() and diamonds in state.voids(e)

    class ReadingDummiesVoid(HeuristicPlayer):
        def _situation(self, seat: int, obs: Any, info: Any) -> Any:
            p = super()._situation(seat, obs, info)
            p.void[w] |= 1 << diamonds
            return p

    legal = state.legal_actions()
    for player in (HeuristicPlayer(n, random.Random(0)), ClubPlayer(n, random.Random(0))):
        info = _info(rules)
        assert player._situation(n, player._seen(state, n), info).void[w] == 0
        assert state.action_to_str(player.act(state, legal)) == "10D"
    assert state.action_to_str(ReadingDummiesVoid(n, random.Random(0)).act(state, legal)) == "5C"
