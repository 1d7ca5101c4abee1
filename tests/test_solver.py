"""The double-dummy solver (``fivehundred.solve``, ``fivehundred.solve_cards``) against exhaustive minimax
over the engine's own ``legal_actions()`` (clone and apply): equal on random endings of every shipped
ruleset, from every card of a trick."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest
from test_kernel import play_phases

import fivehundred
from fivehundred.bots.unseen import determinise, knowledge
from fivehundred.engine import solver as solver_module
from fivehundred.engine import solver_search
from fivehundred.engine.kernel import PlayKernel
from fivehundred.engine.solver import Solver
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.cards import CLUBS, DIAMONDS, HEARTS, JOKER_BASE, SPADES
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.steps import FIRST_STEP_ACTION

SHIPPED = sorted(ruleset_paths())


def side_tricks(state: GameState, deal: int) -> int:
    log = state.hands_log[deal - 1]
    return sum(log.tricks_won[s] for s in log.outcome.side)


def minimax(state: GameState, memo: dict[Any, tuple[int, int]] | None = None, hand: GameState | None = None) -> int:
    """The side's total tricks with best play for the contract's goal, every card tried through the engine
    (``hand``: the state the contract and the side are read from, when ``state`` may be past the hand)."""
    memo = {} if memo is None else memo
    hand = hand or state
    contract, side, deal = hand.contract, hand.contracting_side, hand.deals
    goal, k = contract.goal, contract.tricks

    def badness(t: int) -> int:  # what the side minimises, the others maximise
        return -t if goal == "at-least" else t if goal == "none" else 2 * abs(t - k) - (t < k)

    def node(s: GameState) -> tuple[int, int]:
        if s.deals != deal or s.phase != Phase.PLAY:
            t = side_tricks(s, deal)
            return badness(t), t
        key = (tuple(s.hand(seat) for seat in range(s.rules.players)), s.trick, s.trick_leader,
               s.tricks_won_by_seat, led_so_far(s), tuple(sorted((s._follow_names or {}).items())))
        if key not in memo:
            results = []
            for action in s.legal_actions():
                if action < FIRST_STEP_ACTION:
                    child = s.clone()
                    child.apply(action)
                    results.append(node(child))
            memo[key] = min(results) if s.current_player() in side else max(results)
        return memo[key]

    return node(state)[1]


def led_so_far(s: GameState) -> frozenset[int]:
    """The suits led this hand: with the hands, the trick and the tricks won, all the shipped rules read of the
    past (a free joker's lead, rule 22; the E6 check)."""
    suit_of = s.play_table.suit_of
    return frozenset(t.named if t.named is not None else suit_of[t.cards[0]] for t in s.hand_log.tricks)


def endings(name: str, seed: int, count: int, prefer: tuple[str, ...] = (), totals: tuple[int, ...] = ()
            ) -> list[GameState]:
    """Random positions of the play with at most five tricks left (any card of a trick)."""
    out: list[GameState] = []
    for state, rng in play_phases(name, seed, 20 * count, prefer, totals):
        if len(out) == count:
            break
        size = state.rules.hand_size
        left = rng.choice((1, 2, 3, 4, 5) if state.rules.players <= 4 else (1, 2, 3, 4))
        deal = state.deals
        cards_in = rng.randrange(state.rules.players - len(state.sitting_out))
        while state.deals == deal and state.phase == Phase.PLAY and (
                size - len(state.hand_log.tricks) > left or (len(state.trick) < cards_in)):
            legal = [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
            if state.contract.goal == "none" and state.current_player() in state.contracting_side:
                legal = [min(legal, key=lambda a: a % 20 if a < JOKER_BASE else JOKER_BASE)]  # its lowest card
            state.apply(rng.choice(legal))
        if state.deals == deal and state.phase == Phase.PLAY:
            out.append(state.clone())
    return out


GOALS = [("perfect", "hi-lo"), ("perfect", "patastrophe"), ("perfect", "double-misere"),
         ("pagat-australian", "open-misere"), ("french-canadian", "grosse-misere"), ("nullo", "nullo"),
         ("three-handed", "misere"), ("canadian", "8NT"), ("canadian", "misere"), ("two-handed", "7NT"),
         ("american-1904", "totals:450")]
"""Contracts random calls seldom reach, each made the contract of a dozen hands; and hands played near the
target, where the 1904 game ends a hand when a side scores out (E6)."""


@pytest.mark.parametrize(("name", "call"), [(name, "") for name in SHIPPED] + GOALS)
def test_the_solver_equals_minimax_over_the_engine(name: str, call: str) -> None:
    checked = 0
    totals = (int(call[7:]),) * 2 if call.startswith("totals:") else ()
    count = 6 if call else 10
    for state in endings(name, 3, count, () if totals else (call,), totals):
        assert not call or totals or state.contract.call == call
        memo: dict[Any, tuple[int, int]] = {}
        expected = minimax(state.clone(), memo)
        assert fivehundred.solve(state) == expected, (name, state.hand_log.number)
        cards = fivehundred.solve_cards(state)
        assert sorted(cards) == [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
        solver = Solver.of(state)
        for action, value in cards.items():
            child = state.clone()
            child.apply(action)
            assert value == minimax(child, memo, state), (name, action)
            assert solver.keeps(action, expected) == (value == expected), (name, action)  # one question
        assert max(cards.values()) >= expected or state.contract.goal != "at-least"
        checked += 1
    assert checked >= count // 2


def test_the_e6_check_is_searched_only_where_it_can_end_the_hand() -> None:
    """The 1904 mid-hand end (E6) fires only when a defending side scores out: at 0 points no count of tricks
    still to play can reach 500, and the kernel leaves the check out (the search then bounds its tricks); at 450
    it keeps it for some hands, and the solver agrees with minimax on those (test above, ``totals:450``)."""
    from fivehundred.engine.kernel import PlayKernel

    far = endings("american-1904", 3, 6, (), (0, 0))
    near = endings("american-1904", 3, 6, (), (450, 450))
    assert far and near
    assert all(PlayKernel.of(state)[0].trick_check is None for state in far)
    kept = [state for state in near if PlayKernel.of(state)[0].trick_check is not None]
    assert kept
    for state in kept:
        assert fivehundred.solve(state) == minimax(state.clone())


def leads(name: str, seed: int, count: int) -> list[GameState]:
    """Positions at a trick's lead, two to four tricks left (three in six-handed rulesets), played at random."""
    out: list[GameState] = []
    for state, rng in play_phases(name, seed, 20 * count):
        if len(out) == count:
            break
        deal, size = state.deals, state.rules.hand_size
        left = rng.choice((2, 3, 4) if state.rules.players <= 4 else (2, 3))
        while state.deals == deal and state.phase == Phase.PLAY and (
                size - len(state.hand_log.tricks) > left or state.trick):
            state.apply(rng.choice([a for a in state.legal_actions() if a < FIRST_STEP_ACTION]))
        if state.deals == deal and state.phase == Phase.PLAY:
            out.append(state.clone())
    return out


def covered_endings(seed: int, count: int, at_lead: bool = False) -> list[GameState]:
    """Two-handed positions with four or five tricks left in which a dummy still has face-down cards (its face-up
    cards played last where it can), at any card of a trick (``at_lead``: at a lead)."""
    out: list[GameState] = []
    for state, rng in play_phases("two-handed", seed, 20 * count):
        if len(out) == count:
            break
        deal, left = state.deals, rng.choice((4, 5))
        cards_in = 0 if at_lead else rng.randrange(state.rules.players)
        while state.deals == deal and state.phase == Phase.PLAY and (
                state.rules.hand_size - len(state.hand_log.tricks) > left or len(state.trick) < cards_in):
            legal = [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
            kept = [a for a in legal if a not in state.covering(state.current_player())]
            state.apply(rng.choice(kept or legal))
        if state.deals == deal and state.phase == Phase.PLAY and any(
                state.covering(seat) for seat in range(state.rules.players)):
            out.append(state.clone())
    return out


def parted_by_face_down(state: GameState) -> bool:
    """Whether the seat to play holds two cards of a suit with only face-down cards between them (touching,
    were those cards not still to be played)."""
    kernel, pos = PlayKernel.of(state)
    face_down = sum(kernel.face_down(hand) for hand in pos.hands)
    present = face_down | sum(pos.hands) | sum(1 << b for _, b, _ in pos.trick)
    mine = [b for b in range(len(kernel.cards)) if pos.hands[kernel.turn(pos)] >> b & 1]
    return any(kernel.suit[a] == kernel.suit[b] and present & ((1 << b) - (2 << a)) and
               not present & ~face_down & ((1 << b) - (2 << a)) for a, b in pairwise(mine))


def test_face_down_cards_keep_the_solver_exact() -> None:
    """A dummy's face-down cards are still to be played: they count in the bounds and part the cards around them
    (two-handed, P2).  Each legal card valued by ``solve_cards`` equals minimax over the engine, on positions
    where a dummy has face-down cards, one of them with the seat to play holding cards that only face-down
    ones part (valued alike, they were wrong)."""
    positions = covered_endings(5, 12)
    assert len(positions) == 12
    assert any(parted_by_face_down(state) for state in positions)
    for state in positions:
        memo: dict[Any, tuple[int, int]] = {}
        assert fivehundred.solve(state) == minimax(state.clone(), memo)
        for action, value in fivehundred.solve_cards(state).items():
            child = state.clone()
            child.apply(action)
            assert value == minimax(child, memo, state), (state.hand_log.number, action)


def test_face_down_cards_count_in_the_bounds_at_a_lead() -> None:
    """The cards that must take a trick whoever plays what are read from every card still to play, face-down ones
    too: an opponent's card is not sure of its trick while a face-down card of the side beats it."""
    cut = 0
    for state in covered_endings(4, 12, at_lead=True):
        solver = Solver.of(state)
        value = minimax(state.clone()) - solver.k.side_tricks(solver.root)
        least, most, forced_least, forced_most = solver.search.lead_bounds(solver.root)
        assert forced_least <= value <= forced_most and least <= value <= most, state.hand_log.number
        cut += forced_least > 0 or forced_most < state.rules.hand_size - len(state.hand_log.tricks)
    assert cut


@pytest.mark.parametrize("name", SHIPPED)
def test_the_bounds_at_a_lead_hold_the_value(name: str) -> None:
    """The bounds the search cuts with at a lead (the cards that must take tricks, the leader's sure tricks, those
    it cashes through a partner's entry) never cross the value: the tricks the side takes from the lead with best
    play lie between the sure bounds (a contract to take tricks), the tricks whoever plays what between the
    forced ones."""
    bounded = 0
    positions = leads(name, 5, 24)
    assert len(positions) >= 20
    for state in positions:
        solver = Solver.of(state)
        if not isinstance(solver, Solver):  # searched through the engine: no bounds
            continue
        value = minimax(state.clone()) - solver.k.side_tricks(solver.root)
        least, most, forced_least, forced_most = solver.search.lead_bounds(solver.root)
        where = (name, state.hand_log.number, len(state.hand_log.tricks))
        assert forced_least <= value <= forced_most, where
        if state.contract.goal == "at-least":
            assert least <= value <= most, where
        left = state.rules.hand_size - len(state.hand_log.tricks)
        bounded += least > 0 or most < left
    assert bounded, "no position where a bound cut: the test checked nothing"


def kernel_minimax(kernel: Any, pos: Any) -> int:
    """The side's total tricks with best play for tricks (both sides), every play tried on the kernel."""
    if pos.over or pos.played == kernel.hand_size:
        return int(kernel.side_tricks(pos))
    seat = kernel.turn(pos)
    values = []
    for move in kernel.moves(pos, seat):
        child = pos.copy()
        kernel.play(child, kernel.action(move))
        values.append(kernel_minimax(kernel, child))
    return max(values) if seat in kernel.side else min(values)


def test_no_entry_is_counted_through_a_suit_an_opponent_ruffs() -> None:
    """The leader's side cashes a partner's winners only after reaching the partner.  Spades trumps, four tricks
    left: the leader holds a low club and low hearts, the partner the top two clubs and diamonds, the opponent on
    the leader's left a low trump, two low diamonds and a low heart (void in clubs), the other the top hearts.
    The leader's one way to the partner is clubs, which its left ruffs, and the defence takes every trick.  A
    bound that counted the partner's diamonds through that entry would claim two tricks the side cannot take."""
    state = next(s for s, _ in play_phases("pagat-australian", 3, 40, ("7S",)) if s.contract.call == "7S")
    kernel, pos = PlayKernel.of(state)
    leader = min(kernel.side)
    left, partner = kernel.next_seat[leader], kernel.next_seat[kernel.next_seat[leader]]
    right = kernel.next_seat[partner]

    def low_first(suit: int) -> list[int]:  # the cards of a suit still in the hand, weakest first
        bits = [b for b in range(len(kernel.cards)) if kernel.suit[b] == suit and not kernel.joker_mask >> b & 1]
        return sorted(bits, key=lambda b: kernel.power[suit][b])

    spades, clubs, diamonds, hearts = (low_first(suit) for suit in (SPADES, CLUBS, DIAMONDS, HEARTS))
    cards = {leader: [clubs[0], *hearts[1:4]], left: [spades[0], diamonds[0], diamonds[1], hearts[0]],
             partner: [clubs[-1], clubs[-2], diamonds[-1], diamonds[-2]], right: [clubs[1], *hearts[-3:]]}
    pos.hands = [sum(1 << b for b in cards[seat]) for seat in range(4)]
    pos.leader, pos.played, pos.unled = leader, kernel.hand_size - 4, 0
    pos.won = [0] * 4
    pos.won[leader] = kernel.hand_size - 4
    solver = Solver(kernel, pos)
    least, _, _, _ = solver.search.lead_bounds(pos)
    assert kernel_minimax(kernel, pos.copy()) == kernel.hand_size - 4 == solver.value()
    assert least == 0


def misere_leads(name: str, call: str, count: int) -> list[GameState]:
    """Positions of misère hands at a lead by a defender, two to six tricks left (the contractor plays its lowest
    card, the others at random)."""
    out: list[GameState] = []
    for state, rng in play_phases(name, 11, 30 * count, (call,)):
        if len(out) == count:
            break
        if state.contract.goal != "none":
            continue
        deal, size = state.deals, state.rules.hand_size
        left = rng.choice((2, 3, 4, 5, 6))
        while state.deals == deal and state.phase == Phase.PLAY and (
                size - len(state.hand_log.tricks) > left or state.trick):
            legal = [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
            if state.current_player() in state.contracting_side:
                legal = [min(legal, key=lambda a: a % 20 if a < JOKER_BASE else JOKER_BASE)]
            state.apply(rng.choice(legal))
        if state.deals == deal and state.phase == Phase.PLAY and state.current_player() not in state.contracting_side:
            out.append(state.clone())
    return out


@pytest.mark.parametrize(("name", "call", "bounded"), [
    ("pagat-australian", "open-misere", True), ("pagat-australian", "misere", True), ("three-handed", "misere", True),
    ("canadian", "misere", False)])
def test_a_misere_nobody_can_beat_is_settled_at_the_lead_and_the_value_stays_exact(name: str, call: str,
                                                                                     bounded: bool) -> None:
    """At a defender's lead, a misère whose one seat can answer every lead in every suit with a lower card (and
    holds no joker) is safe without a card searched (``Bounds.misere_safe``); every value equals minimax over the
    engine, so the bound never settles a misère that could be beaten.  Not on canadian: whoever plays the joker
    names its suit there (J2), which the bound does not read."""
    settled = 0
    positions = misere_leads(name, call, 30)
    assert len(positions) >= 20
    for state in positions:
        expected = minimax(state.clone())
        solver = Solver.of(state)
        assert solver.value() == expected, (name, state.hand_log.number)
        settled += solver.nodes == 0
    assert (settled > 0) == bounded


@pytest.mark.parametrize(("name", "call"), [(name, "") for name in SHIPPED] + GOALS)
def test_the_worlds_of_one_decision_share_a_search_and_get_the_answers_each_gets_alone(name: str, call: str) -> None:
    """``Solver.of_worlds``: the deals a player samples at one card share a kernel and a transposition table where
    the hand compiles alike (in every ruleset without dummies' face-down cards or a per-trick check), and every
    card is worth what a solver of that world alone says."""
    totals = (int(call[7:]),) * 2 if call.startswith("totals:") else ()
    shared = 0
    for n, state in enumerate(endings(name, 5, 6, () if totals else (call,), totals)):
        seat = state.current_player()
        rng = random.Random(f"worlds:{n}")
        k = knowledge(state, seat)
        worlds = [determinise(state, seat, rng, k) for _ in range(5)]
        solvers = Solver.of_worlds(worlds)
        shared += sum(s.k is solvers[0].k for s in solvers[1:] if isinstance(s, Solver))
        for world, solver in zip(worlds, solvers, strict=True):
            assert solver.card_values() == Solver.of(world).card_values(), (name, n)
            assert solver.value() == fivehundred.solve(world)
        compiles_alike = state.rules.trick_check is None and name != "two-handed"  # no E6, no face-down cards
    assert shared > 0 or not compiles_alike


def test_a_world_gets_a_search_of_its_own_once_the_shared_table_is_full(monkeypatch: pytest.MonkeyPatch) -> None:
    state = endings("pagat-australian", 5, 1)[0]
    seat = state.current_player()
    k = knowledge(state, seat)
    rng = random.Random(1)
    worlds = [determinise(state, seat, rng, k) for _ in range(3)]
    assert len({id(s.search) for s in Solver.of_worlds(worlds)}) == 1
    monkeypatch.setattr(solver_module, "SHARED_ENTRIES", 0)
    solvers = Solver.of_worlds(worlds)
    assert len({id(s.search) for s in solvers}) == 3
    assert [s.card_values() for s in solvers] == [Solver.of(w).card_values() for w in worlds]


@pytest.mark.parametrize(("name", "call"), [("pagat-australian", ""), ("six-handed-three-teams", ""),
                                           ("three-handed", "misere"), ("two-handed", "7NT")])
def test_a_full_table_searches_on_without_storing_and_the_values_stay_exact(name: str, call: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``TABLE_LIMIT`` bounds a search's memory: past it, positions are searched without being stored."""
    past = 0
    for state in endings(name, 4, 6, (call,) if call else ()):
        unlimited = Solver.of(state)
        expected = unlimited.value()
        assert expected == minimax(state.clone())
        monkeypatch.setattr(solver_search, "TABLE_LIMIT", 1)
        solver = Solver.of(state)
        assert solver.value() == expected and solver.search.entries <= 1
        past += unlimited.search.entries > 1  # the positions it would have stored, it searched unstored
        memo: dict[Any, tuple[int, int]] = {}
        for action, value in fivehundred.solve_cards(state).items():
            child = state.clone()
            child.apply(action)
            assert value == minimax(child, memo, state), (name, action)
        monkeypatch.undo()
    assert past
