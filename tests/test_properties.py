"""Properties of every shipped ruleset, at every step of seeded games that hypothesis chooses.

(a) every card of the deck is in exactly one place: a hand (a dummy's face-down cards included), the
    kitty until it is taken, the discards, a dead hand, a hand laid aside, a trick played or the trick
    being played;
(b) no ruleset field says that scores are zero-sum (defenders score their tricks, S6 aside), so the
    weaker invariant: each team's total is the sum of its scores hand by hand, and a hand without a
    contract scores nothing;
(c) ``clone()`` is the state: a clone taken at any step plays on exactly as the original does, and
    changes to it leave the original alone; and the game's record replays (``fivehundred.records.validation``)
    to the same game;
(d) ``observation(seat)`` shows no card that the seat may not know: only the cards it was dealt or
    was given (the kitty it took, cards passed to it), cards played, and hands laid open (a dummy's
    face-up cards, an open contractor or partner once the first trick is done).

The games are driven one action at a time through ``GameState.apply``, by heuristic players or by
random ones who pass often and bid low (long games with all-pass deals and misères), for a few deals
each.  Each test is bounded by a count of examples and seeds, never by time.
"""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fivehundred
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.engine.state import CHANCE, GameState, Phase, new_game
from fivehundred.records.record import game_to_dict
from fivehundred.records.validation import _Replay, validate_record
from fivehundred.rules.actions import CALL, DISCARD
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import Rules, compile_rules

SHIPPED = sorted(ruleset_paths())
DEALS = 3
"""Deals per game: enough for a second and third hand (totals, the dealer moving on), few for speed."""

PROPERTY = settings(max_examples=8, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
"""Per ruleset (every shipped one): bounded by examples, derandomized so that every run plays the same games."""

_rules: dict[str, Rules] = {}


def rules_for(name: str) -> Rules:
    if name not in _rules:
        _rules[name] = compile_rules(fivehundred.load_ruleset(name))
    return _rules[name]


# --- driving games -------------------------------------------------------------------------------

Chooser = Callable[[GameState, list[int]], int]


def chooser(rules: Rules, game: dict[str, Any]) -> Chooser:
    """Who acts: heuristic players, or random ones who bid the ``favourite`` rung whenever they may
    (so that rare contracts are played), else pass with ``pass_rate`` or bid at most ``reach`` rungs
    over the standing bid, and in a plugin's step mostly take its first action.  A dummy's controller
    acts for it."""
    seed = game["seed"]
    if game["heuristic"]:
        bots = [HeuristicPlayer(seat, random.Random(f"{seed}:{seat}")) for seat in range(rules.players)]
        return lambda state, legal: bots[rules.controller[state.current_player()]].act(state, legal)
    rng = random.Random(seed)
    favourite = None if game["favourite"] is None else CALL + game["favourite"] % len(rules.ladder)
    pass_rate, reach = game["pass_rate"], game["reach"]

    def act(state: GameState, legal: list[int]) -> int:
        if state.phase == Phase.AUCTION and len(legal) > 1:
            if favourite in legal:
                return favourite
            return legal[0] if rng.random() < pass_rate else rng.choice(legal[1:1 + reach])
        if state.phase == Phase.STEP and rng.random() < 0.8:
            return legal[0]  # a plugin's step: mostly its first action (a blind bid's is to look first)
        return rng.choice(legal)

    return act


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32), "heuristic": st.booleans(), "pass_rate": st.floats(0.0, 0.9),
    "reach": st.integers(1, 6), "favourite": st.none() | st.integers(0, 63),
})


def steps(name: str, game: dict[str, Any], deals: int = DEALS) -> Iterator[tuple[GameState, int | None, random.Random]]:
    """A game of ruleset ``name`` played for ``deals`` deals (or to its end), one step at a time: the
    state after each deal and action, the action (None for a deal) and the generator that deals.  It
    stops between hands."""
    rules = rules_for(name)
    state, deal_rng = new_game(rules, f"properties:{game['seed']}")
    act = chooser(rules, game)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            if state.deals >= deals:
                return
            state.deal(deal_rng)
            yield state, None, deal_rng
            continue
        action = act(state, state.legal_actions())
        state.apply(action)
        yield state, action, deal_rng


def last_state(name: str, game: dict[str, Any], deals: int = DEALS) -> GameState:
    [(state, _, _)] = deque(steps(name, game, deals), maxlen=1)
    assert state.phase in (Phase.DEAL, Phase.GAME_OVER)
    return state


# --- (a) every card is accounted for -------------------------------------------------------------


def card_places(state: GameState) -> Counter[int]:
    """Where the cards of the hand in progress are now, counted: each must be in one place.

    Read through ``GameState``'s public read API and the hand log, but for a dummy's face-down cards (P2),
    which nothing public names."""
    log = state.hand_log
    places: Counter[int] = Counter()
    for seat in range(state.rules.players):
        places.update(state.hand(seat))  # what the seat holds (a dummy: face up)
        places.update(state._covered.get(seat, {}).values())  # P2: a dummy's face-down cards
    taken = log.contract is not None and log.contract.kitty and log.contractor >= 0
    if not taken:
        places.update(log.kitty)
    places.update(log.discards)
    places.update(log.dead)
    places.update(state.played)  # the tricks played and the trick in progress
    for seat in state.sitting_out:  # rule 15: a hand laid aside for the play, as it was held then
        places.update(log.aside[seat])
    return places


@pytest.mark.parametrize("name", SHIPPED)
@PROPERTY
@given(game=games)
def test_every_card_is_in_one_place_at_every_step(name: str, game: dict[str, Any]) -> None:
    deck = Counter(rules_for(name).deck)
    assert sum(deck.values()) == len(deck), "a deck holds each card once"
    played = 0
    for state, _, _ in steps(name, game):
        if state.phase == Phase.DEAL:
            continue  # between hands: nothing is in play (and the read API shows nothing)
        places = card_places(state)
        assert places == deck, (f"step {state.step}, {state.phase.name}: missing {sorted((deck - places).elements())}, "
                                f"extra {sorted((places - deck).elements())}")
        played += 1
    assert played


# --- (b) totals are the sums of the hands' scores ------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
@PROPERTY
@given(game=games)
def test_totals_are_the_sums_of_the_scores_hand_by_hand(name: str, game: dict[str, Any]) -> None:
    state = last_state(name, game, deals=5)
    teams = len(state.rules.team_names)
    running = [0] * teams
    for log in state.hands_log:
        if log.contract is None:  # all passed (redeal), or a misdeal: nothing is scored
            assert log.scores == [] and log.tricks == [], f"hand {log.number}"
            continue
        if not log.scores:  # the hand being played when the game was left
            assert log is state.hands_log[-1] and not state.is_terminal()
            continue
        assert len(log.scores) == teams
        running = [total + points for total, points in zip(running, log.scores, strict=True)]
        assert log.totals == running, f"hand {log.number}: totals {log.totals}, scores summed {running}"
    assert state.totals == running
    record = game_to_dict(state)
    if record["result"] is not None:
        assert list(record["result"]["totals"].values()) == running


# --- (c) clone() and the record's replay are the game ---------------------------------------------


def same_state(a: GameState, b: GameState) -> None:
    assert (a.phase, a.current_player(), a.dealer, a.deals, a.totals) == (
        b.phase, b.current_player(), b.dealer, b.deals, b.totals)
    if a.current_player() >= 0:
        assert a.legal_actions() == b.legal_actions()
    for seat in range(a.rules.players):
        assert a.observation(seat) == b.observation(seat), f"seat {seat}"
    assert game_to_dict(a) == game_to_dict(b)


@pytest.mark.parametrize("name", SHIPPED)
@PROPERTY
@given(game=games, at=st.integers(0, 10**6))
def test_a_clone_plays_on_as_the_original(name: str, game: dict[str, Any], at: int) -> None:
    """A clone taken at any step (``at`` modulo the game's length) plays on, action for action and
    deal for deal, as the original; and a clone changed leaves the original alone."""
    at %= sum(1 for _ in steps(name, game))  # the same game is played again below
    clone: GameState | None = None
    clone_rng = random.Random()
    compared = 0
    for index, (state, action, deal_rng) in enumerate(steps(name, game)):
        if clone is not None:  # the clone does what the original just did
            if action is None:
                clone.deal(clone_rng)
            else:
                clone.apply(action)
            same_state(state, clone)
            compared += 1
        elif index == at:
            clone = state.clone()
            clone_rng = copy.copy(deal_rng)  # the deal generator where the original's is
            same_state(state, clone)
            before = game_to_dict(state), [state.observation(s) for s in range(state.rules.players)]
            scratch = state.clone()
            if scratch.current_player() >= 0:
                scratch.apply(scratch.legal_actions()[-1])
            elif not scratch.is_terminal():
                scratch.deal(random.Random(0))
            scratch.totals[0] += 1000
            scratch.hands_log[-1].calls.append((0, 0))
            assert (game_to_dict(state), [state.observation(s) for s in range(state.rules.players)]) == before
    assert clone is not None


@pytest.mark.parametrize("name", SHIPPED)
@PROPERTY
@given(game=games)
def test_the_record_replays_to_the_same_game(name: str, game: dict[str, Any]) -> None:
    state = last_state(name, game)
    record = game_to_dict(state, seed=game["seed"])
    assert validate_record(record) == []
    replay = _Replay(state.rules, state.hands_log[0].dealer)
    for hand in record["hands"]:
        replay.hand(hand)
    same_state(state, replay.state)


# --- (d) an observation hides what its seat may not know ------------------------------------------


def may_know(state: GameState, seat: int) -> set[int]:
    """The cards ``seat`` has seen this hand, by the rules: its own, those given to it, those played
    or laid open (never the kitty it did not take, others' hands and discards, a dead hand)."""
    log = state.hand_log
    rules = state.rules
    known: set[int] = set()
    if seat not in rules.dummies:  # a dummy (P2) sees nothing: its controller plays it from the table
        known.update(log.hands[seat])
        passed = log.steps.get("pass-left", {})  # the house-rules example: a card from the right-hand seat
        known.update(card for giver, card in passed.items() if (giver + 1) % rules.players == seat)
    known.update(log.steps.get("kitty-face-up", ()))  # FC: the kitty cards dealt face up
    contract, contractor = log.contract, log.contractor
    if contract is not None and contractor >= 0:
        side = state.contracting_side
        if seat == contractor:
            if contract.kitty:
                known.update(log.kitty)  # rule 14 (C1 too: the contractor takes it, then passes cards on)
            if "gift" in log.steps:
                known.add(log.steps["gift"])  # C6, C7: the partner's card
        if seat in side and seat != contractor:
            known.update(log.steps.get("pass-to-partner", ()))  # C1: the contractor's cards passed to the partner
        if log.steps.get("partner-call", -1) >= 0:
            known.add(log.steps["partner-call"])  # P5: the called card is named to all
        if log.tricks and contract.open:
            known.update(state.hand(contractor))  # rule 18: the open misère hand, after the first trick
        if log.tricks and contract.partner_open:
            for partner in side - {contractor}:
                known.update(state.hand(partner))  # C2, C3
    for dummy in rules.dummies:
        known.update(state.hand(dummy))  # P2: a dummy's face-up cards
    for trick in log.tricks:
        known.update(trick.cards)
    known.update(state.trick)
    return known


CARD_STEPS: dict[str, Callable[[Any], list[int]]] = {
    "kitty-face-up": list,
    "partner-call": lambda card: [card] if card >= 0 else [],
}
"""What the observation shows of the steps that show cards (the others' public data names no card)."""


def shown(observation: Any) -> set[int]:
    """Every card an observation carries."""
    cards = set(observation.hand) | set(observation.discards) | set(observation.current_trick)
    for _, played, _, _ in observation.tricks:
        cards.update(played)
    cards.update(observation.open_hand or ())
    for _, hand in observation.open_hands:
        cards.update(hand)
    for name, public in observation.steps.items():
        cards.update(CARD_STEPS.get(name, lambda _: [])(public))
    return cards


@pytest.mark.parametrize("name", SHIPPED)
@PROPERTY
@given(game=games)
def test_an_observation_shows_only_what_its_seat_may_know(name: str, game: dict[str, Any]) -> None:
    checked = 0
    for state, _, _ in steps(name, game):
        if state.phase == Phase.DEAL or not state.hands_log:
            continue
        for seat in range(state.rules.players):
            leak = shown(state.observation(seat)) - may_know(state, seat)
            assert not leak, (f"step {state.step}, {state.phase.name}: seat {state.rules.seats[seat]} is shown "
                              f"{sorted(fivehundred.card_str(c) for c in leak)}")
            checked += 1
    assert checked


def test_the_contractor_does_not_see_the_partner_s_own_discards_in_C1() -> None:
    """Double misère (C1, perfect): the contractor passes three cards to the partner, who discards three
    of its own face down (rule 14); the contractor must not see those."""
    state, rng = new_game(rules_for("perfect"), "C1 discards")
    state.deal(rng)
    while state.phase == Phase.STEP:  # the blind misère round: everybody looks at their cards
        state.apply(state.legal_actions()[0])
    state.apply(state.parse_action("double-misere"))
    while state.phase == Phase.AUCTION:
        state.apply(state.parse_action("pass"))
    log = state.hand_log
    while state.phase == Phase.STEP:  # the contractor passes three cards
        state.apply(state.legal_actions()[0])
    passed = log.steps["pass-to-partner"]
    while state.phase == Phase.DISCARD:
        own = [a for a in state.legal_actions() if a - DISCARD not in passed]  # the partner's own cards
        state.apply(own[0])
    partner = next(iter(state.contracting_side - {log.contractor}))
    discarded = set(log.discards) - set(passed)
    assert discarded and discarded <= set(log.hands[partner])
    assert not discarded & set(state.observation(log.contractor).discards)
