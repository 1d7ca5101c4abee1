"""The solver player: the play by sampling the unseen cards and solving each sample double dummy.

``solver`` (``solver:N``: ``N`` worlds a decision, ``DEFAULT_WORLDS`` without) bids, exchanges and
nominates as ``club`` does (its pricing of the calls, its discards).  In the play, at each card with a
choice, it deals ``N`` worlds of the cards it cannot see, uniformly among those consistent with everything
it has seen (``fivehundred.bots.unseen.determinise``: the calls, its own discards, cards shown, voids
shown, an open misère's exposed hand, a called card), asks the double-dummy solver for the value of each
legal card in each world, once its hand holds at most ``SOLVE_CARDS`` cards (``solver:N:C``: ``C``; before,
``club``'s card) (``fivehundred.solve_cards``: the contracting side's tricks in the hand with best
play from there), and plays the card with the best total over the worlds: for the contracting side a world
counts ``MADE`` when the contract's goal is met (``Contract.made``) plus, for a contract to take at least
its tricks, each trick; the other sides count the same against it.  Among cards of equal total it plays
``club``'s own card.  The worlds come from a generator seeded with what the seat has seen: the same
decision gets the same worlds, so a game is a pure function of its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fivehundred.engine.state import FIRST_STEP_ACTION, GameState
from fivehundred.rules.actions import Phase

from .club import ClubPlayer
from .defence import MisereDefender
from .misere_search import world_seed

DEFAULT_WORLDS = 8
SOLVE_CARDS = 5
"""Cards in hand from which the play is solved (before: ``club``'s card).  The solver's first cut takes seconds
for a whole hand; at five cards a few milliseconds (``benchmarks/solver.py``)."""
MADE = 100
"""A world's worth of the contract's goal met, against one trick more or less."""


class SolverPlayer(ClubPlayer):
    """``club``'s auction and exchange; the play by sampled worlds solved double dummy."""

    def __init__(self, seat: int, rng: random.Random, worlds: int = DEFAULT_WORLDS, cards: int = SOLVE_CARDS):
        super().__init__(seat, rng)
        self.worlds = worlds
        self.cards = cards

    @classmethod
    def from_spec(cls, seat: int, rng: random.Random, arg: str | None = None) -> SolverPlayer:
        """``solver``, ``solver:N`` (worlds a decision, at least 1) or ``solver:N:C`` (solved from ``C`` cards
        in hand; 10 or more: the whole hand)."""
        if not arg:
            return cls(seat, rng)
        parts = arg.split(":")
        try:
            numbers = [int(x) for x in parts]
        except ValueError:
            raise ValueError(f"solver:{arg}: give whole numbers, solver:WORLDS or solver:WORLDS:CARDS") from None
        if len(numbers) > 2 or min(numbers) < 1:
            raise ValueError(f"solver:{arg}: at least one world and one card (solver:8, solver:8:5)")
        return cls(seat, rng, *numbers)

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        if state.phase != Phase.PLAY:
            return ClubPlayer.act(self, state, legal)
        plays = [a for a in legal if a < FIRST_STEP_ACTION]
        if len(plays) <= 1 or len(state.hand(state.current_player())) > self.cards:
            return ClubPlayer.act(self, state, legal)  # club's card (its open-misère defence searches too)
        default: int = MisereDefender.act(self, state, legal)  # club's card, without that search
        return best_card(state, self.worlds, plays, default)


def best_card(state: GameState, worlds: int, plays: Sequence[int], default: int) -> int:
    """The card of ``plays`` with the best total over ``worlds`` sampled worlds solved double dummy
    (``default`` among equals)."""
    import fivehundred

    from .unseen import determinise, knowledge

    seat = state.current_player()
    contract = state.contract
    assert contract is not None
    sign = 1 if seat in state.contracting_side else -1
    per_trick = 1 if contract.goal == "at-least" else -1 if contract.goal == "none" else 0
    rng = random.Random("solver:" + world_seed(state, seat))
    k = knowledge(state, seat)
    total = dict.fromkeys(plays, 0)
    for _ in range(worlds):
        values = fivehundred.solve_cards(determinise(state, seat, rng, k))
        for action in plays:
            v = values.get(action)
            if v is None:
                continue
            total[action] += sign * (MADE * contract.made(v) + per_trick * v)
    best = max(total.values())
    if default in total and total[default] == best:
        return default
    return next(a for a in plays if total[a] == best)
