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

The worlds also agree with the contractor's bid, where the seat cannot see the contractor's hand: a world
is dealt again (up to ``TRIES`` times, then the most plausible one dealt is kept) while the contractor's
cards of the hand (those left and those it played) are far weaker than ``club`` would bid on: an estimate of
its own tricks in the contract's denomination (``evaluation.own_tricks``) under the tricks bid less
``BID_SLACK``; for a misère it plays alone (closed), a danger of taking a trick (``evaluation.misere_risk``)
over ``MISERE_SLACK``.  Uniform worlds give the contractor its mere share of what the seat does not see:
measured on ``club``'s contracts of the reference ruleset, the median contractor of seven of a suit holds
0.9 tricks less than it bid by that estimate, the median uniform world 3.5 less; a closed misère's median
danger 1.4, a uniform world's 4.7.  A misère's worlds are ``MISERE_WORLDS_FACTOR`` times as many (each is
solved in far less time: the hand ends at the contractor's first trick).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from fivehundred.engine.state import FIRST_STEP_ACTION, GameState
from fivehundred.rules.actions import Phase

from .club import ClubPlayer
from .defence import MisereDefender
from .evaluation import _info, _key, _plain, _solo_misere, misere_risk, own_tricks
from .misere_search import world_seed
from .params import ClubParams, ParamsError, params_spec
from .unseen import Knowledge, determinise, knowledge

DEFAULT_WORLDS = 8
SOLVE_CARDS = 10
"""Cards in hand from which the play is solved (before: ``club``'s card): every card of a ten-card hand.  A whole
reference hand takes the compiled solver about 20 ms (median) to value every lead (``benchmarks/solver.py
--cards``): a game of two ``solver`` seats about 3 s of CPU."""
MADE = 100
"""A world's worth of the contract's goal met, against one trick more or less."""
TRIES = 24
"""Deals tried for a world before the most plausible one dealt is kept."""
BID_SLACK = 3.0
"""Tricks a contractor's own estimate may fall under its bid in a world (the 5th percentile of ``club``'s own
contractors, reference ruleset: 2.9 under for seven of a suit, 3.6 for seven no-trumps)."""
MISERE_SLACK = 2.6
"""The most danger a closed misère's hand may hold in a world (the 95th percentile of ``club``'s: 2.5)."""
MISERE_WORLDS_FACTOR = 4


class SolverPlayer(ClubPlayer):
    """``club``'s auction and exchange; the play by sampled worlds solved double dummy."""

    def __init__(self, seat: int, rng: random.Random, worlds: int = DEFAULT_WORLDS, cards: int = SOLVE_CARDS,
                 params: ClubParams | None = None):
        super().__init__(seat, rng, params)
        self.worlds = worlds
        self.cards = cards

    @classmethod
    def from_spec(cls, seat: int, rng: random.Random, arg: str | None = None) -> SolverPlayer:
        """``solver``, ``solver:N`` (worlds a decision, at least 1), ``solver:N:C`` (solved from ``C`` cards
        in hand; 10 or more: the whole hand), each optionally ending in ``club``'s parameters for the auction
        and the exchange as ``club:`` takes them (``solver:FILE.json``, ``solver:8:10:default``)."""
        if not arg:
            return cls(seat, rng)
        parts = arg.split(":")
        numbers: list[int] = []
        while parts and parts[0].isdigit() and len(numbers) < 2:
            numbers.append(int(parts.pop(0)))
        if numbers and min(numbers) < 1:
            raise ValueError(f"solver:{arg}: at least one world and one card (solver:8, solver:8:5)")
        try:
            params = params_spec(":".join(parts)) if parts else None
        except (OSError, ValueError, ParamsError) as e:
            raise ValueError(f"solver:{arg}: give solver:WORLDS, solver:WORLDS:CARDS, then optionally club's "
                             f"parameters (default, a ruleset's set or FILE.json): {e}") from None
        worlds = numbers[0] if numbers else DEFAULT_WORLDS
        cards = numbers[1] if len(numbers) > 1 else SOLVE_CARDS
        return cls(seat, rng, worlds, cards, params)

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

    seat = state.current_player()
    contract = state.contract
    assert contract is not None
    sign = 1 if seat in state.contracting_side else -1
    per_trick = 1 if contract.goal == "at-least" else -1 if contract.goal == "none" else 0
    if contract.goal == "none":
        worlds *= MISERE_WORLDS_FACTOR
    rng = random.Random("solver:" + world_seed(state, seat))
    k = knowledge(state, seat)
    bid = BidReading.of(state, k)
    total = dict.fromkeys(plays, 0)
    for _ in range(worlds):
        values = fivehundred.solve_cards(bid.world(state, seat, rng, k) if bid else determinise(state, seat, rng, k))
        for action in plays:
            v = values.get(action)
            if v is None:
                continue
            total[action] += sign * (MADE * contract.made(v) + per_trick * v)
    best = max(total.values())
    if default in total and total[default] == best:
        return default
    return next(a for a in plays if total[a] == best)


class BidReading:
    """How far a world's contractor is from a hand ``club`` would have bid the contract on."""

    def __init__(self, contractor: int, played: list[int], score: Callable[[list[int]], float]) -> None:
        self.contractor = contractor
        self.played = played
        self.score = score
        """The world's contractor's cards of the hand -> 0 or more when plausible, less the further from it."""

    @classmethod
    def of(cls, state: GameState, k: Knowledge) -> BidReading | None:
        """The reading of the contract of ``state``, or None where the worlds need none (the contractor's hand
        seen, a contract ``club`` does not price by its own tricks)."""
        contract = state.contract
        contractor = state.hand_log.contractor
        if contract is None or contractor < 0 or contractor not in k.hidden:
            return None
        info = _info(state.rules)
        if _plain(contract) and state.play_table is not None and state.play_table.nomination is None:
            d = info.denominations.get(_key(contract))
            if d is None:
                return None
            least = contract.tricks - BID_SLACK
            return cls(contractor, k.played_by[contractor], lambda hand: own_tricks(hand, d) - least)
        if _solo_misere(contract) and not contract.open and info.misere is not None:
            m = info.misere
            return cls(contractor, k.played_by[contractor], lambda hand: MISERE_SLACK - misere_risk(hand, m, 0))
        return None

    def world(self, state: GameState, seat: int, rng: random.Random, k: Knowledge) -> GameState:
        """A world of ``determinise``'s that agrees with the bid, dealt again up to ``TRIES`` times."""
        best, best_score = None, float("-inf")
        for _ in range(TRIES):
            world = determinise(state, seat, rng, k)
            score = self.score([*world.hand(self.contractor), *self.played])
            if score >= 0:
                return world
            if score > best_score:
                best, best_score = world, score
        assert best is not None
        return best
