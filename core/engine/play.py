"""The play of the tricks (rules 16–22): the legal plays, a card played, a trick won, and the loop that plays
whole hands at table speed (``GameState.play_out``) — a base of ``GameState``, on the fields ``Exchange``
declares.  ``play.pxd`` types the loop for the compiled engine.

The rules of a trick are each written once, in the play kernel (``fivehundred.engine.kernel``) and the hand's
play table: follow suit is ``PlayTable.follows``, the trick's winner ``kernel.trick_winner``, the end of the
play ``kernel.play_over`` (with the contract's goal, ``kernel.decided_by``).  A card applied alone
(``_play``) and the play loop (``_tricks``, for players who act and for players the engine draws for) call
them, and end a trick in one place (``_end_trick``).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from fivehundred.rules.actions import CHANCE, JOKER_LEAD, TERMINAL, Phase
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import NOBODY, GameResult, HandOutcome, follow_suit

from .hand_log import Trick
from .kernel import decided_by, play_over, trick_winner
from .reading import Reading

try:
    import cython
except ImportError:  # the pure-Python build, where Cython (a build requirement only) is not installed
    from . import cython_shim as cython  # type: ignore[no-redef, unused-ignore]

if TYPE_CHECKING:
    from fivehundred.rules.steps import Step

    from .state import GameState

_PLAY, _DEAL, _GAME_OVER = Phase.PLAY, Phase.DEAL, Phase.GAME_OVER
_new_tuple = tuple.__new__


def _trick(leader: int, cards: list[int], winner: int, named: int | None,
           follow_names: dict[int, int] | None) -> Trick:
    """``Trick(leader, cards, winner, named, follow_names)`` for the play loop, a trick a call, without the
    constructor's argument parsing (compiled, ``play.pxd``: the record's C fields set directly)."""
    trick = Trick.__new__(Trick)
    trick.leader, trick.cards, trick.winner = leader, cards, winner
    trick.named, trick.follow_names = named, follow_names
    return trick


class Play(Reading):
    """The play of ``GameState`` (a base class: it works on the state's hand attributes)."""

    # Slots (with the exchange's own; ``GameState`` adds none): a game has more attributes than an instance dict
    # shares keys for, and a simulation makes a game object per game (the benchmark, one per deal).
    __slots__ = ("_barred", "_bidding", "_covered", "_deck_order", "_follow_names", "_held",
                 "_led", "_legal", "_legal_step", "_named", "_open_hand_shown", "_power_led", "_redeals",
                 "_reuse_deck", "_trick", "_unled", "_won", "dealer", "deals", "hands_log",
                 "misere_play_out", "result", "rules", "step", "totals")

    misere_play_out: bool
    step: int
    totals: list[int]
    result: GameResult | None
    _unled: list[int]
    _barred: frozenset[int]
    _redeals: int
    deals: int
    _deck_order: list[int] | None
    _reuse_deck: list[int] | None
    _legal: list[int] | None
    _legal_step: int

    def _legal_plays(self) -> list[int]:
        legal = self._table_plays()
        legal_filter = self._table.legal_filter
        if legal_filter is not None:
            legal = sorted(legal_filter(self, self._turn, legal))
        if not self._trick and self.rules.lead_steps:
            offered = self._offered_at_lead()
            if offered:
                legal = sorted(legal + offered)  # a step's ids are above every play's
        return legal

    def _offered_at_lead(self) -> list[int]:
        """What the steps of the play offer the seat about to lead, beside its cards (a claim)."""
        return self._offered(self.rules.lead_steps)

    def _offered(self, steps: Sequence[Step]) -> list[int]:
        """What ``steps`` offer the seat to act beside its calls or cards."""
        seat, state = self._turn, cast("GameState", self)
        return [a for step in steps if step.actor(state) == seat for a in step.legal(state, seat)]

    def _table_plays(self) -> list[int]:
        """Rules 16, 21, 22 as the hand's play table says them (before a variant's filter): follow suit
        (``PlayTable.follows``); leading a free joker naming a suit (``PlayTable.joker_lead_suits``)."""
        seat = self._turn
        table = self._table
        buckets = self._buckets[seat]
        held = self._held[seat]
        if self._trick:
            return list(table.follows(buckets, held, self._led))
        free = buckets[NO_SUIT]
        if not free:
            return list(held)
        tricks_left = self.rules.hand_size - len(self.hands_log[-1].tricks)
        legal = [c for c in held if c < JOKER_BASE]
        suits = table.joker_lead_suits(self._unled, tricks_left, not legal)
        for j in free:
            legal.extend(JOKER_LEAD + 4 * (j - JOKER_BASE) + s for s in suits)
        return legal

    def _play(self, card: int, named: int | None) -> None:
        """One card played by the seat to act (``apply()``); ``named``: the suit named for a joker."""
        seat = self._turn
        self._buckets[seat][self._suit_of[card]].remove(card)
        self._held[seat].remove(card)
        trick = self._trick
        if trick:
            if named is not None:  # a follower's joker with a named suit (``PlayTable.legal_filter``'s offer)
                if self._follow_names is None:
                    self._follow_names = {}
                self._follow_names[card] = named
        else:
            led = self._suit_of[card] if named is None else named
            self._led = led
            self._named = named
            if led in self._unled:
                self._unled.remove(led)
            self._power_led = self._table.power[led]
        trick.append(card)
        if len(trick) == self._trick_size:
            leader = self._leader
            winner = trick_winner(self._power_led, trick, leader, self._next, self._follow_names, self._led)[0]
            self._end_trick(leader, trick, winner, self._named)
        else:
            self._turn = self._next[seat]

    def _apply_play(self, action: int) -> None:
        if action < JOKER_LEAD:
            self._play(action, None)
        elif action >= FIRST_STEP_ACTION:  # a step's offer at the lead
            self.rules.step_of_action[action].apply(cast("GameState", self), self._turn, action)
        else:
            n, suit = divmod(action - JOKER_LEAD, 4)
            self._play(JOKER_BASE + n, suit)

    def _end_trick(self, leader: int, trick: list[int], winner: int, named: int | None) -> int:
        """A complete trick won by ``winner``: log it, count it, turn up the cards under those played from a
        hand laid out, show an open hand after the first trick (rule 18), and score the hand when the play is
        over (``play_over``, then the rules' per-trick check).  The next leader, or -1 when the hand is
        over.  The one end of a trick: ``_play`` and the play loop both end theirs here."""
        log = self.hands_log[-1]
        tricks = log.tricks
        tricks.append(_trick(leader, trick, winner, named, self._follow_names))
        self._follow_names = None
        if self._covered:
            self._turn_up(tricks[-1])
        self._trick = []
        self._won[winner] += 1
        if self._open and len(tricks) == 1:
            self._open_hand_shown = True  # rule 18
        check = self.rules.trick_check
        if play_over(len(tricks), self.rules.hand_size, winner, self._decided_by) or (
                check is not None and check(self)):
            self._score_hand()
            return -1
        self._leader = self._turn = winner
        return winner

    def _turn_up(self, trick: Trick) -> None:
        """After a trick, the face-down cards under the cards played from a hand laid out are turned up."""
        seat = trick.leader
        for card in trick.cards:
            below = self._covered.get(seat, {}).pop(card, None)
            if below is not None:
                insort(self._held[seat], below)
                insort(self._buckets[seat][self._suit_of[below]], below)
            seat = self._next[seat]

    def _score_hand(self) -> None:
        log = self.hands_log[-1]
        assert log.contract is not None
        rules = self.rules
        team_of = rules.team_of
        totals, tricks_won = self.totals, self._won
        by_team = [0] * len(totals)
        side_tricks = 0
        side = self._side
        for seat, won in enumerate(tricks_won):
            by_team[team_of[seat]] += won
            if seat in side:
                side_tricks += won
        contract, contractor = log.contract, log.contractor
        ct = team_of[contractor] if contractor >= 0 else -1  # -1: played with nobody's bid (AllPassed.played_as)
        made = contractor >= 0 and contract.made(side_tricks)
        outcome = _new_tuple(HandOutcome, (contract, contractor, ct, tuple(tricks_won), tuple(by_team), made,
                                           sum(tricks_won), rules.hand_size, rules.in_order(side), tuple(totals),
                                           log.steps))  # HandOutcome(...) without its interpreted __new__
        log.outcome = outcome
        self._barred = rules.auction.barred_after(outcome) if rules.bars_after else NOBODY
        scores = list(rules.score_hand(outcome))
        # A new totals list each hand, so the log keeps this one; the hand's trick counts are its own too.
        self.totals = totals = [total + points for total, points in zip(totals, scores, strict=True)]
        log.tricks_won, log.scores, log.totals = tricks_won, scores, totals
        self.result = rules.game_result(tuple(totals), outcome)
        if self.result is not None:
            self.phase = _GAME_OVER
            self._turn = TERMINAL
        else:
            self._next_deal()

    def _next_deal(self) -> None:
        self._redeals = 0
        self.dealer = (self.dealer + 1) % self.rules.players
        self.phase = _DEAL
        self._turn = CHANCE

    # --- what the engine's modules outside the state's classes change (compiled, the state's private fields are C
    # fields that only code typed with the state's class reaches: exchange.pxd) ---------------------------------

    def _copy_fields(self, src: Play) -> None:
        """Every field of ``src`` (``Exchange.__slots__`` and ``Play.__slots__``), shared: ``GameState.clone``
        then copies what is mutable (tests/test_state_api.py checks that every slot is here)."""
        self._barred = src._barred
        self._bidding = src._bidding
        self._buckets = src._buckets
        self._covered = src._covered
        self._decided_by = src._decided_by
        self._deck_order = src._deck_order
        self._follow_names = src._follow_names
        self._held = src._held
        self._leader = src._leader
        self._led = src._led
        self._legal = src._legal
        self._legal_step = src._legal_step
        self._named = src._named
        self._next = src._next
        self._open = src._open
        self._open_hand_shown = src._open_hand_shown
        self._out = src._out
        self._power_led = src._power_led
        self._redeals = src._redeals
        self._reuse_deck = src._reuse_deck
        self._side = src._side
        self._sitting_out = src._sitting_out
        self._step = src._step
        self._suit_of = src._suit_of
        self._table = src._table
        self._trick = src._trick
        self._trick_size = src._trick_size
        self._turn = src._turn
        self._unled = src._unled
        self._won = src._won
        self.dealer = src.dealer
        self.deals = src.deals
        self.hands_log = src.hands_log
        self.misere_play_out = src.misere_play_out
        self.phase = src.phase
        self.result = src.result
        self.rules = src.rules
        self.step = src.step
        self.totals = src.totals

    def _set_side(self, seats: frozenset[int]) -> None:
        """The contracting side is ``seats`` (the ``SetSide`` effect)."""
        self._side = seats

    def _play_every_trick(self) -> None:
        """The hand is played to its last trick, whatever a trick lost decides (the ``PlayEveryTrick`` effect)."""
        contract = self.hands_log[-1].contract
        if self.phase == _PLAY and contract is not None:
            self._decided_by = decided_by(contract, self._side, True)

    def _set_tricks_won(self, won: list[int]) -> None:
        """Tricks won so far by seat are ``won`` (the kernel's probe of the rules' per-trick check)."""
        self._won = won


def _tricks(state: Play, acts: list[Any], draws: list[Callable[[], float]] | None) -> None:
    """The play from a lead to the hand's end, trick after trick, with every table in a local: what
    ``_table_plays`` and ``_play`` do card by card, without their calls.  For players who act (``draws`` None),
    each sees the state as ``apply()`` would leave it (turn, step, trick, led suit); for players who all pick
    ``legal[int(draw() * len(legal))]`` (``draws``) the engine draws for them, taking the card straight from the
    hand as ``_table_plays`` would list it, and nobody looks at the state until the hand is over.  A variant's
    filter of the plays and steps at the lead go through ``apply()`` (``GameState.play_out``).  The record and
    engine-path tests replay the games through ``apply()``: the same game, card for card.  (A function of the
    module so that the compiled engine can type its locals, ``play.pxd``.)"""
    table = state._table
    suit_of, power, compulsory = table.suit_of, table.power, table.joker_void_compulsory
    buckets, held, nxt, size, unled = state._buckets, state._held, state._next, state._trick_size, state._unled
    log_tricks = state.hands_log[-1].tricks
    hand_size = state.rules.hand_size
    acting = draws is None
    track_unled = acting or bool(table.free_jokers)  # only a free joker's lead (rule 22) asks which suits were led
    seat = state._turn
    while True:
        hand, cards = buckets[seat], held[seat]
        named = None
        jokers = hand[NO_SUIT]
        if acting:
            state.step += 1
            action = acts[seat](state, state._table_plays() if jokers else list(cards))
            if action < JOKER_LEAD:
                card = action
            else:
                n, named = divmod(action - JOKER_LEAD, 4)
                card = JOKER_BASE + n
            _remove(cards, card)
        elif jokers:  # a free joker may be led naming a suit (rule 22): drawn as _table_plays lists it
            others = len(cards) - len(jokers)  # the jokers sort last
            suits = table.joker_lead_suits(unled, hand_size - len(log_tricks), not others)
            draw = draws[seat]()  # type: ignore[index]
            i = int(draw * (others + len(jokers) * len(suits)))
            if i < others:
                card = _pop(cards, i)
            else:
                n, s = divmod(i - others, len(suits))
                card, named = jokers[n], suits[s]
                _remove(cards, card)
        else:
            draw = draws[seat]()  # type: ignore[index]
            card = _pop(cards, int(draw * len(cards)))
        led = suit_of[card] if named is None else named
        _remove(hand[suit_of[card]], card)
        if track_unled and led in unled:
            unled.remove(led)
        row = power[led]
        leader = seat
        trick = [card]
        if acting:
            state._trick, state._led, state._named, state._power_led = trick, led, named, row
        for _ in range(size - 1):
            seat = nxt[seat]
            hand, cards = buckets[seat], held[seat]
            pool = follow_suit(hand, cards, led, compulsory)  # rules 16 and 21, as _table_plays lists them
            if acting:
                state._turn = seat
                state.step += 1
                card = acts[seat](state, list(pool))
                _remove(hand[suit_of[card]], card)
                _remove(cards, card)
            else:
                draw = draws[seat]()  # type: ignore[index]
                card = _pop(pool, int(draw * len(pool)))
                _remove(hand[suit_of[card]] if pool is cards else cards, card)
            trick.append(card)
        if not acting:
            state.step += size
        seat = state._end_trick(leader, trick, trick_winner(row, trick, leader, nxt)[0], named)
        if seat < 0:
            return


def _remove(cards: list[int], card: int) -> None:
    """``cards.remove(card)`` for the play loop, where ``card`` is in ``cards``: compiled (``play.pxd``), a C loop
    to the card and a C deletion, where the list's own method costs a Python call."""
    i = 0
    held = cards[0]
    while held != card:
        i += 1
        held = cards[i]
    del cards[i]


def _pop(cards: list[int], i: int) -> int:
    """``cards.pop(i)`` for the play loop (compiled: C, as ``_remove``)."""
    card = cards[i]
    del cards[i]
    return card


if not cython.compiled:  # the pure-Python engine: the lists' own methods (the branch is not compiled)
    _remove = list.remove  # type: ignore[assignment]
    _pop = list.pop  # type: ignore[assignment]
