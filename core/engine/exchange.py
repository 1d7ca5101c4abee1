"""Between the auction and the first lead: kitty, discards, the joker's nomination (rules 14–15, 19),
and the steps plugins add (``fivehundred.rules.steps``).

``_advance`` finds the next step due from what the hand's log already holds.
"""

# Compiled (COMPILED_MODULES, core/engine/build.py): exchange.pxd declares ``Exchange``, the base of ``GameState``, an
# extension type whose attributes (every field of the state, ``Play.__slots__``'s too) are C fields; and it gives
# ``_by_suit`` C-typed locals.  The pure-Python engine never reads that file.

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from fivehundred.rules.actions import Phase
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.tables import NOBODY, Contract, PlayTable

from .kernel import decided_by

if TYPE_CHECKING:
    from fivehundred.rules.manager import Rules
    from fivehundred.rules.steps import Step

    from .hand_log import HandLog


_PLAY, _DISCARD, _NOMINATE, _STEP = Phase.PLAY, Phase.DISCARD, Phase.NOMINATE, Phase.STEP


class Exchange:
    """The exchange steps of ``GameState`` (a mixin: it works on the state's hand attributes)."""

    __slots__ = ("_buckets", "_decided_by", "_leader", "_next", "_open", "_out", "_side", "_sitting_out", "_step",
                 "_suit_of", "_table", "_trick_size", "_turn", "phase")
    """What the exchange steps set (the rest of the state's slots are ``GameState``'s)."""

    rules: Rules
    hands_log: list[HandLog]
    dealer: int
    phase: Phase
    _turn: int
    _held: list[list[int]]
    _covered: dict[int, dict[int, int]]
    _buckets: list[list[list[int]]]
    _side: frozenset[int]
    _out: frozenset[int]
    _sitting_out: int
    _next: tuple[int, ...]
    _trick_size: int
    _table: PlayTable
    _suit_of: list[int]
    _leader: int
    _decided_by: frozenset[int]
    """The seats whose trick ends the hand before its last (``fivehundred.engine.kernel.decided_by``)."""
    _open: bool
    _open_hand_shown: bool
    _step: Step | None
    """The plugin step in progress (``Phase.STEP``)."""

    # --- kitty and discards ----------------------------------------------------------------

    def _take_kitty(self, contractor: int, contract: Contract) -> None:
        log = self.hands_log[-1]
        log.contract, log.contractor = contract, contractor
        self._side = self.rules.team_seats[contractor] if contractor >= 0 else NOBODY
        if contract.kitty:
            held = self._held[contractor]
            held += log.kitty
            held.sort()
        self._advance()

    def _discards_due(self) -> int:
        """Rule 14: the kitty's discards (when the contract takes the kitty) and those a step asked for."""
        log = self.hands_log[-1]
        assert log.contract is not None
        return (self.rules.kitty_size if log.contract.kitty else 0) + log.discards_owed

    def _discard(self, card: int) -> None:
        seat = self._turn
        self._held[seat].remove(card)
        self._discarded(seat, card)

    def _discarded(self, seat: int, card: int) -> bool:
        """``card`` has left ``seat``'s hand as a discard: whether the same seat discards again."""
        log = self.hands_log[-1]
        log.discards.append(card)
        if log.discarders is not None or seat != log.contractor:
            self._note_discarder(log, seat)
        if len(log.discards) < self._discards_due() and len(self._held[seat]) > self.rules.hand_size:
            return True  # the same seat discards again
        self._advance()
        return False

    @staticmethod
    def _note_discarder(log: HandLog, seat: int) -> None:
        """Keep who made each discard once somebody other than the contractor has made one."""
        if log.discarders is None:
            log.discarders = [log.contractor] * (len(log.discards) - 1)
        log.discarders.append(seat)

    def _discarder(self) -> int:
        """Rule 14: the contractor discards; when a step has passed cards on before the discards (to the
        partner), whoever holds more than a hand does, from the contractor round the table."""
        log = self.hands_log[-1]
        held, size, n = self._held, self.rules.hand_size, self.rules.players
        order = [(log.contractor + k) % n for k in range(n)]
        return next((seat for seat in order if len(held[seat]) > size), log.contractor)

    def _discards_made_by(self, seat: int) -> tuple[int, ...]:
        """The discards ``seat`` made this hand, which it alone has seen (rule 14: face down)."""
        log = self.hands_log[-1]
        if log.discarders is None:
            return tuple(log.discards) if seat == log.contractor else ()
        return tuple(card for card, by in zip(log.discards, log.discarders, strict=True) if by == seat)

    # --- the steps, in order ---------------------------------------------------------------

    def _advance(self) -> None:
        """Move to the next step this hand needs: discards, the plugins' steps before the nomination,
        the nomination, the plugins' later steps; then the play."""
        log = self.hands_log[-1]
        contract, contractor = log.contract, log.contractor
        assert contract is not None
        rules = self.rules
        if rules.first_steps and self._to_step(rules.first_steps):
            return
        if len(log.discards) < self._discards_due():
            self._to(_DISCARD, contractor if not rules.first_steps else self._discarder())
            return
        if self._to_step(rules.early_steps):
            return
        if self._may_nominate() and not log.nominated:
            self._to(_NOMINATE, contractor)
        elif not self._to_step(rules.late_steps):
            self._start_play(log.nomination)

    def _to_step(self, steps: tuple[Step, ...]) -> bool:
        """Make the first of ``steps`` that is due the current one; False when none is."""
        for step in steps:
            seat = step.actor(self)  # type: ignore[arg-type]
            if seat is not None:
                self.phase, self._turn, self._step = _STEP, seat, step
                return True
        return False

    def _to(self, phase: Phase, seat: int) -> None:
        self.phase, self._turn = phase, seat

    # --- nomination (rule 19) -------------------------------------------------------------------

    def _may_nominate(self) -> bool:
        log = self.hands_log[-1]
        assert log.contract is not None
        if log.contractor < 0 or not self._held[log.contractor]:
            return False
        holds_joker = self._held[log.contractor][-1] >= JOKER_BASE  # the hand is sorted: a joker comes last
        return holds_joker and self.rules.joker_rules(log.contract).nominate

    def _nominate(self, suit: int | None) -> None:
        log = self.hands_log[-1]
        log.nomination, log.nominated = suit, True
        self._advance()

    # --- the play begins ------------------------------------------------------------------------

    def _start_play(self, nomination: int | None) -> None:
        log = self.hands_log[-1]
        assert log.contract is not None
        contract, contractor = log.contract, log.contractor
        jokers = None
        if nomination is not None:
            jokers = frozenset(c for c in self._held[contractor] if c >= JOKER_BASE) if contractor >= 0 else frozenset()
        rules = self.rules
        table = self._table = rules.play_table(contract, nomination, jokers)
        n = rules.players
        if contract.partner_plays:
            self._out = NOBODY
            self._sitting_out = -1
            self._next = rules.next_seat
            self._trick_size = n
        else:
            out = self._out = self._side - {contractor}
            self._sitting_out = min(out, default=-1)
            for seat in out:  # rule 15: the partner lays the hand aside
                log.aside[seat], self._held[seat] = self._held[seat], []
            self._next = next_seats(n, out)
            self._trick_size = n - len(out)
        self._suit_of = table.suit_of
        self._buckets = _by_suit(self._held, table.suit_of)
        first = contractor if rules.contractor_leads and contractor >= 0 else (self.dealer + 1) % n
        if first in self._out:
            first = self._next[first]
        self._leader = self._turn = first
        self._decided_by = decided_by(contract, self._side, log.played_out)  # rule 27: a misère lost at its first trick
        self._open = contract.open or contract.partner_open
        self.phase = _PLAY

    def _exposed_seats(self) -> list[int]:
        """Seats whose hands are shown once the first trick is complete (rule 18; ``Contract.partner_open``)."""
        log = self.hands_log[-1]
        if log.contract is None or not self._open_hand_shown:
            return []
        c = log.contract
        partners = sorted(self._side - {log.contractor} - self._out) if c.partner_open else []
        return ([log.contractor] if c.open else []) + partners

    def _public_seats(self) -> list[int]:
        """Every seat whose cards all can see: exposed hands (after trick 1) and hands laid out on the table
        (their face-up cards)."""
        shown = self._exposed_seats() if self.hands_log else []
        return sorted(set(shown) | self._covered.keys())


def _by_suit(hands: list[list[int]], suit_of: list[int]) -> list[list[list[int]]]:
    """Each hand split by the suit each card counts as (``NO_SUIT`` last), in order (typed by ``exchange.pxd``)."""
    by_seat = []
    for held in hands:
        buckets: list[list[int]] = [[], [], [], [], []]
        for card in held:
            suit = suit_of[card]
            buckets[suit].append(card)
        by_seat.append(buckets)
    return by_seat


def next_seats(players: int, out: Collection[int] = ()) -> tuple[int, ...]:
    """The seats in play order: ``next_seats(players, out)[s]`` plays after ``s``, the next seat round the table
    that does not sit the hand out (``out``: the misère contractor's partners, rule 15); ``s`` itself when every
    other seat does.  The one statement of the play order: the state's ``play_order``, the observation's
    ``play_order`` and the players read it."""
    return tuple(next(((s + k) % players for k in range(1, players + 1) if (s + k) % players not in out), s)
                 for s in range(players))
