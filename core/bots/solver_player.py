"""The solver player: the play by sampling the unseen cards and solving each sample double dummy.

``solver`` (``solver:N``: ``N`` worlds a decision, ``DEFAULT_WORLDS`` without) bids, exchanges and
nominates as ``club`` does (its pricing of the calls, its discards; ``solver:bid=N`` searches the calls ``club``
finds close over ``N`` sampled deals, ``fivehundred.bots.bid_search``).  In the play, at each card with a
choice, once its hand holds at most ``C`` cards (``solver:N:C``; without, ``solved_from``: the whole hand at up to
four seats; before, ``club``'s card),
it plays the card with the best total over ``N`` worlds of the cards it cannot see, each solved double
dummy (``fivehundred.bots.solved_worlds.best_card``: the worlds agree with everything the seat has seen
and with the contractor's bid, and are drawn by how many of the calls and cards the others made ``club`` would have
made in them, ``card_reading``; among equals, ``club``'s card).  A misère's worlds are
``MISERE_WORLDS_FACTOR`` times as many (each is solved in far less time: the hand ends at the contractor's
first trick); an open misère's contractor plays the card that makes it in the most of them against a defence that
sees every card, and where that is half of them or fewer, or cards are level, counts too the worlds in which it is
made with ``club`` playing every seat on, as ``club``'s contractor does (``solved_worlds.table_misere_card``).
The contracting side of a contract to take tricks plays its cards out instead (``solver:out=N``, ``PLAYED_WORLDS``
without): each legal card played on in each world with ``club`` in every seat, each seeing only
its own cards (``solved_worlds.played_card``), so it plays for the defence at the table, not a seeing one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from fivehundred.engine.state import FIRST_STEP_ACTION, GameState
from fivehundred.rules.actions import Phase

from .bid_search import close_call, searched_call
from .club import ClubPlayer
from .defence import MisereDefender
from .params import ClubParams, ParamsError, params_spec, tuned_for, without_search
from .solved_discards import searched_exchange
from .solved_worlds import best_card, played_card, survival_card, table_misere_card

DEFAULT_WORLDS = 8
CARDS_IN_PLAY = 40
"""Without ``C``, the play is solved once the hands hold at most this many cards together: a whole reference hand
(ten cards at four seats) takes the compiled solver about 20 ms (median) to value every lead (``benchmarks/solver.py
--cards``), a game of two ``solver`` seats about 3 s of CPU; at six seats a whole hand takes about ten times as
long, six cards a seat (36 in play) about 4 ms."""
MISERE_WORLDS_FACTOR = 4
EXCHANGE_WORLDS = 0
"""Deals the contractor's discards are searched over (``solved_discards``; 0: ``club``'s discards)."""
READ_CARDS = True
"""Whether the worlds are weighed by the calls and cards the others made (``card_reading``)."""
BID_WORLDS = 0
"""Deals a close call of the auction is searched over (``bid_search``; 0: ``club``'s calls, see docs/players.md)."""
PLAYED_WORLDS = 16
"""Worlds in which the contracting side of a contract to take tricks plays each card on with ``club`` in every seat
(``solved_worlds.played_card``; 0: its cards solved double dummy, as the defenders' are)."""


def solved_from(state: GameState) -> int:
    """Cards in hand from which ``solver`` solves the play by default: ``CARDS_IN_PLAY`` over the seats playing
    (ten or more: the whole hand at up to four seats; six at six)."""
    return CARDS_IN_PLAY // (state.rules.players - len(state.sitting_out))


class SolverPlayer(ClubPlayer):
    """``club``'s auction and exchange; the play by sampled worlds solved double dummy."""

    def __init__(self, seat: int, rng: random.Random, worlds: int = DEFAULT_WORLDS, cards: int | None = None,
                 params: ClubParams | None = None, bid_worlds: int = BID_WORLDS,
                 exchange_worlds: int = EXCHANGE_WORLDS, played_worlds: int = PLAYED_WORLDS):
        super().__init__(seat, rng, params)
        self.worlds = worlds
        self.cards = cards
        self.bid_worlds = bid_worlds
        self.exchange_worlds = exchange_worlds
        self.played_worlds = played_worlds
        self.read_cards = READ_CARDS
        self._models: list[ClubPlayer] = []

    @classmethod
    def from_spec(cls, seat: int, rng: random.Random, arg: str | None = None) -> SolverPlayer:
        """``solver``, ``solver:N`` (worlds a decision, at least 1), ``solver:N:C`` (solved from ``C`` cards
        in hand; 10 or more: the whole hand), each optionally ending in ``club``'s parameters for the auction
        and the exchange as ``club:`` takes them (``solver:FILE.json``, ``solver:8:10:default``); ``bid=N``
        anywhere after the colon: the deals a close call is searched over (``solver:bid=0``: ``club``'s calls);
        ``ex=N``: the deals the contractor's discards are searched over (``solver:ex=0``: ``club``'s discards);
        ``read=0``: worlds not weighed by the calls and cards the others made (``card_reading``); ``out=N``: the
        worlds in which the contracting side plays its cards on with ``club`` in every seat (``out=0``: solved)."""
        if not arg:
            return cls(seat, rng)
        parts = arg.split(":")
        settings = {"bid": BID_WORLDS, "ex": EXCHANGE_WORLDS, "read": int(READ_CARDS), "out": PLAYED_WORLDS}
        for part in [p for p in parts if p.split("=")[0] in settings and "=" in p]:
            parts.remove(part)
            name, value = part.split("=", 1)
            if name == "read" and value not in ("0", "1"):
                raise ValueError(f"solver:{arg}: read= takes 1 (the worlds read by the cards played) or 0")
            if not value.isdigit():
                instead = {"bid": "club's calls", "ex": "club's discards", "out": "solved double dummy"}[name]
                raise ValueError(f"solver:{arg}: {name}= takes a number of deals searched over "
                                 f"(solver:{name}=16; {name}=0: {instead})")
            settings[name] = int(value)
        bid_worlds, exchange_worlds = settings["bid"], settings["ex"]
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
        cards = numbers[1] if len(numbers) > 1 else None
        player = cls(seat, rng, worlds, cards, params, bid_worlds, exchange_worlds, settings["out"])
        player.read_cards = bool(settings["read"])
        return player

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        if state.phase == Phase.AUCTION and self.bid_worlds and len(legal) > 1:
            return self._call(state, legal)
        if state.phase == Phase.DISCARD and self.exchange_worlds and searched_exchange(state):
            thrown = self.searched_discard(state, legal, self.exchange_worlds, self._club_models(state))
            return int(ClubPlayer.act(self, state, legal)) if thrown is None else thrown
        if state.phase != Phase.PLAY:
            return ClubPlayer.act(self, state, legal)
        plays = [a for a in legal if a < FIRST_STEP_ACTION]
        if len(plays) <= 1 or len(state.hand(state.current_player())) > (self.cards or solved_from(state)):
            return ClubPlayer.act(self, state, legal)  # club's card (its open-misère defence searches too)
        default: int = MisereDefender.act(self, state, legal)  # club's card, without its search
        contract = state.contract
        misere = contract is not None and contract.goal == "none"
        models = self._club_models(state) if self.read_cards else None
        if not misere:
            if self.played_worlds and state.current_player() in state.contracting_side:
                return played_card(state, self.played_worlds, plays, default, self._club_models(state), models)
            return best_card(state, self.worlds, plays, default, models=models)
        worlds = self.worlds * MISERE_WORLDS_FACTOR
        tie_break = None
        if state.current_player() in state.contracting_side:
            if contract is not None and contract.open:  # its defenders see this hand, not each other's
                return table_misere_card(state, worlds, plays, default, self._club_models(state))
            tie_break = partial(survival_card, players=self._club_models(state), default=default)
        return best_card(state, worlds, plays, default, tie_break, models)

    def _club_models(self, state: GameState) -> list[ClubPlayer]:
        """One ``club`` per seat, with this player's parameters but an open misère defended and played by rules of
        thumb (``without_search``: a model is asked at every card of many replays and play-outs, where a search of
        its own would cost the search's time again at each): how the search expects the others to play."""
        n = state.rules.players
        if len(self._models) != n:
            own = self.params
            params = tuned_for(state.rules.ruleset, search=False) if own is None else without_search(own)
            self._models = [ClubPlayer(s, random.Random(f"solver-bid-model:{s}"), params) for s in range(n)]
        return self._models

    def _call(self, state: GameState, legal: Sequence[int]) -> int:
        """``club``'s call, or where ``club`` finds it close to passing (``bid_search.CLOSE``), the call or the pass as
        ``bid_search.searched_call`` weighs them over ``bid_worlds`` sampled deals solved double dummy."""
        close = close_call(self, state, legal)
        if close is None:
            return int(ClubPlayer.act(self, state, legal))
        return searched_call(state, close, close[0], self.bid_worlds, self._club_models(state))
