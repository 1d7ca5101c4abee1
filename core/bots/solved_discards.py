"""The solver's kitty exchange: the contractor's discards chosen over sampled worlds solved double dummy.

The candidates are every set of the cards to discard among the ``SPARE`` cards ``club`` would throw first (its
order of least use; for a misère, of danger): ``club``'s own set is the first.  Each candidate is made in
``worlds`` deals of the cards the contractor cannot see (``unseen.determinise``), ``club`` plays what is left of
the exchange (a joker's nomination, a step), and the hand is solved double dummy from the first lead; the set
with the best total (what the hand scores for the contractor's side, ``worth_table``, as ``best_card`` counts it)
is discarded,
``club``'s among equals.  Searched only where ``club``'s discards follow that order: a contract to take tricks
(no dummy laid out), a misère played alone, the discards kept by the contractor.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from fivehundred.engine.solver import Solver
from fivehundred.engine.state import GameState
from fivehundred.rules.actions import DISCARD, Phase

from .evaluation import _info, _key, _least_useful, _misere_throw
from .solved_worlds import world_seed, worth_table
from .unseen import clone, determinise, knowledge

SPARE = 5
"""``club``'s first cards to throw the candidates are drawn from: three of five, ten sets."""


def searched_exchange(state: GameState) -> bool:
    """Whether the seat to discard in ``state`` throws cards ``club`` orders by one rule (``discard_order``)."""
    contract = state.contract
    if contract is None or state.phase != Phase.DISCARD or contract.kitty_to_partner:
        return False
    if contract.kind == "misere":
        return not contract.partner_plays
    return contract.goal == "at-least" and not state.rules.dummies


def discard_order(state: GameState, count: int) -> list[int]:
    """The first ``count`` cards of the seat to discard in the order ``club`` throws them."""
    contract = state.contract
    assert contract is not None
    info = _info(state.rules)
    misere = contract.kind == "misere"
    d = (info.misere or info.denomination(contract)) if misere else \
        (info.denominations.get(_key(contract)) or info.denomination(contract))
    rest = list(state.hand(state.current_player()))
    order = []
    for _ in range(min(count, len(rest))):
        card = _misere_throw(rest, d) if misere else _least_useful(rest, d)
        order.append(card)
        rest.remove(card)
    return order


def exchange_start(state: GameState) -> GameState | None:
    """``state`` at the first discard of the exchange in progress: the discards the seat to play has made so far back
    in its hand (``state`` itself before the first); None where others have discarded too (a step's cards)."""
    seat = state.current_player()
    hand, made, _ = state.cards_seen(seat)
    if not made:
        return state
    if state.hand_log.discarders is not None:
        return None
    start = clone(state)
    start.redistribute({seat: [*hand, *made]})
    log = start.hands_log[-1]
    log.discards = [c for c in log.discards if c not in made]
    return start


def best_discards(state: GameState, worlds: int, discards: int, players: Sequence[Any]) -> list[int]:
    """The ``discards`` cards to throw (see the module's text): ``players`` (one ``club`` a seat) finish the exchange
    in each world.  ``club``'s own set is valued first, and kept at once where it scores the most a hand can in every
    world (a misère made in each): no other set could pass it."""
    seat = state.current_player()
    candidates = [list(c) for c in combinations(discard_order(state, SPARE), discards)]
    if len(candidates) <= 1:
        return candidates[0] if candidates else []
    rng = random.Random("solver-discards:" + world_seed(state, seat))
    k = knowledge(state, seat)
    worth = worth_table(state, seat)
    per_world = []  # in each world, the candidates that reach the play and their solvers (a search shared by them)
    for _ in range(worlds):
        world = determinise(state, seat, rng, k)
        played = [(i, s) for i, s in enumerate(_exchanged(world, cards, players) for cards in candidates)
                  if s.phase == Phase.PLAY]
        per_world.append((played, Solver.of_worlds([s for _, s in played])))
    own = sum(worth[solvers[0].value()] for played, solvers in per_world if played and played[0][0] == 0)
    if own == max(worth) * worlds:
        return candidates[0]
    total = [0.0] * len(candidates)
    for played, solvers in per_world:
        for (i, _), solver in zip(played, solvers, strict=True):
            total[i] += worth[solver.value()]
    return candidates[total.index(max(total))]


def _exchanged(world: GameState, cards: Sequence[int], players: Sequence[Any]) -> GameState:
    """A clone of ``world`` with ``cards`` discarded and the rest of the exchange played by ``players``."""
    s = clone(world)
    for card in cards:
        s.apply_unchecked(DISCARD + card)
    controller = s.rules.controller
    while s.phase not in (Phase.PLAY, Phase.GAME_OVER) and s.current_player() >= 0:
        s.apply_unchecked(players[controller[s.current_player()]].act(s, s.legal_actions()))
    return s
