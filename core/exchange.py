"""Between the auction and the first lead: kitty, discards, a called partner, declarations,
the joker's nomination and a breach call (rules 14–15, 19; variants B9, C1, C6, C7, P5, R2).

The steps run in a fixed order and each is skipped unless the ruleset and the contract ask for it;
``_advance`` finds the next one from what the hand's log already holds.
"""

from __future__ import annotations

import dataclasses
from bisect import insort
from typing import TYPE_CHECKING

from fivehundred.actions import Phase
from fivehundred.cards import JOKER_BASE
from fivehundred.tables import NOBODY, Contract, PlayTable

if TYPE_CHECKING:
    from fivehundred.manager import Rules
    from fivehundred.state import HandLog


_PLAY = Phase.PLAY


class Exchange:
    """The exchange steps of ``GameState`` (a mixin: it works on the state's hand attributes)."""

    __slots__ = ("_buckets", "_is_misere", "_leader", "_next", "_open", "_out", "_side", "_sitting_out", "_suit_of",
                 "_table", "_trick_size", "_turn", "phase")
    """What the exchange steps set (the rest of the state's slots are ``GameState``'s)."""

    rules: Rules
    hands_log: list[HandLog]
    dealer: int
    phase: Phase
    _turn: int
    _held: list[list[int]]
    _buckets: list[list[list[int]]]
    _side: frozenset[int]
    _out: frozenset[int]
    _sitting_out: int
    _next: tuple[int, ...]
    _trick_size: int
    _table: PlayTable
    _suit_of: list[int]
    _leader: int
    _is_misere: bool
    _open: bool
    _open_hand_shown: bool

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

    def _passes_due(self) -> int:
        """C1: the cards the contractor passes to the partner (as many as the kitty)."""
        if not self.rules.passes_to_partner:
            return 0
        log = self.hands_log[-1]
        assert log.contract is not None
        return self.rules.kitty_size if log.contract.kitty_to_partner and log.contract.kitty else 0

    def _discards_due(self) -> int:
        log = self.hands_log[-1]
        assert log.contract is not None
        return (self.rules.kitty_size if log.contract.kitty else 0) + (log.given is not None)

    def _discard(self, card: int) -> None:
        log = self.hands_log[-1]
        seat = self._turn
        self._held[seat].remove(card)
        if self.rules.passes_to_partner and len(log.passed) < self._passes_due():
            log.passed.append(card)  # C1: the contractor's discards go to the partner, who discards as many
            insort(self._held[self._partner()], card)
        else:
            log.discards.append(card)
            if len(log.discards) < self._discards_due():
                return  # the same seat discards again
        self._advance()

    def _partner(self) -> int:
        log = self.hands_log[-1]
        n = self.rules.players
        return next((log.contractor + k) % n for k in range(1, n) if (log.contractor + k) % n in self._side)

    # --- the steps, in order ---------------------------------------------------------------

    def _advance(self) -> None:
        """Move to the next exchange step this hand needs, or to the play."""
        log = self.hands_log[-1]
        contract, contractor = log.contract, log.contractor
        assert contract is not None
        rules = self.rules
        if rules.passes_to_partner and len(log.passed) < self._passes_due():
            self._to(Phase.DISCARD, contractor)
        elif len(log.discards) < self._discards_due():
            by_partner = contract.kitty_to_partner and log.given is None
            self._to(Phase.DISCARD, self._partner() if by_partner else contractor)
        elif rules.partner_called and log.partner_call is None:
            self._to(Phase.CALL_PARTNER, contractor)
        elif rules.declarations and self._may_declare() and log.declaration is None:
            self._to(Phase.DECLARE, contractor)
        elif log.declaration in ("slam", "declare") and log.given is None:
            self._to(Phase.GIVE, self._partner())
        elif self._may_nominate() and not log.nominated:
            self._to(Phase.NOMINATE, contractor)
        elif rules.breach and self._breach_turn() is not None:
            self._to(Phase.BREACH, self._breach_turn())  # type: ignore[arg-type]
        else:
            self._start_play(log.nomination)

    def _to(self, phase: Phase, seat: int) -> None:
        self.phase, self._turn = phase, seat

    # --- P5: a called partner ---------------------------------------------------------------

    def _callable_cards(self) -> list[int]:
        log = self.hands_log[-1]
        mine = set(self._held[log.contractor]) | set(log.discards)
        return [c for c in sorted(self.rules.deck) if c < JOKER_BASE and c not in mine]

    def _call_partner(self, card: int | None) -> None:
        log = self.hands_log[-1]
        log.partner_call = -1 if card is None else card
        holder = next((s for s, held in enumerate(self._held) if card in held), None) if card is not None else None
        self._side = frozenset({log.contractor} | ({holder} if holder is not None else set()))
        self._advance()

    # --- C6 slam call, C7 declare -------------------------------------------------------------

    def _may_declare(self) -> bool:
        log = self.hands_log[-1]
        d = self.rules.ruleset.declarations
        contract = log.contract
        assert contract is not None
        if contract.goal != "at-least" or len(self._side) < 2 or log.contractor < 0:
            return False
        return contract.tricks in d.slam or d.declare

    def _declare(self, declaration: str) -> None:
        log = self.hands_log[-1]
        assert log.contract is not None
        log.declaration = declaration
        d = self.rules.ruleset.declarations
        everything = self.rules.hand_size
        if declaration == "slam":
            # Seed 003: the slam is worth an eight-bid in the same suit (so underbidding to call one gains
            # nothing); failing it loses the bid's own value plus the penalty.
            c = log.contract
            log.contract = dataclasses.replace(c, call=f"{c.call} slam", tricks=everything, partner_plays=False,
                                               value=self._next_level_value(c), fail_penalty=d.slam_penalty,
                                               fail_value=c.value if c.fail_value is None else c.fail_value)
        elif declaration == "declare":
            log.contract = dataclasses.replace(log.contract, call=f"{log.contract.call} declared", tricks=everything,
                                               partner_plays=False, fail_value=d.declare_value)
        self._advance()

    def _next_level_value(self, contract: Contract) -> int:
        """The value of the bid one level up in the same denomination (the contract's own if none)."""
        return next((r.value for r in self.rules.ladder if r.kind == contract.kind and r.trump == contract.trump
                     and r.tricks == contract.tricks + 1), contract.value)

    def _give(self, card: int) -> None:
        log = self.hands_log[-1]
        self._held[self._turn].remove(card)
        insort(self._held[log.contractor], card)
        log.given = card
        self._advance()

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

    # --- R2 breach ----------------------------------------------------------------------------

    def _breach_turn(self) -> int | None:
        """The next defender who may still call breach, or None when the breach round is over."""
        log = self.hands_log[-1]
        contract = log.contract
        assert contract is not None
        if (self.rules.ruleset.scoring.breach is None or contract.goal != "at-least" or contract.tricks < 7
                or log.contractor < 0):
            return None
        if any(called for _, called in log.breach_calls):
            return None
        n = self.rules.players
        asked = {seat for seat, _ in log.breach_calls}
        defenders = [(log.contractor + k) % n for k in range(1, n) if (log.contractor + k) % n not in self._side]
        return next((s for s in defenders if s not in asked and s not in self.rules.dummies), None)

    def _breach(self, called: bool) -> None:
        self.hands_log[-1].breach_calls.append((self._turn, called))
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
            for seat in out:
                self._held[seat] = []  # rule 15: the partner lays the hand aside
            self._next = tuple(next((s + k) % n for k in range(1, n + 1) if (s + k) % n not in out) for s in range(n))
            self._trick_size = n - len(out)
        suit_of = self._suit_of = table.suit_of
        by_seat: list[list[list[int]]] = []
        for held in self._held:  # each hand split by the suit each card counts as (NO_SUIT last), in order
            buckets: list[list[int]] = [[], [], [], [], []]
            for card in held:
                buckets[suit_of[card]].append(card)
            by_seat.append(buckets)
        self._buckets = by_seat
        first = contractor if rules.contractor_leads and contractor >= 0 else (self.dealer + 1) % n
        if first in self._out:
            first = self._next[first]
        self._leader = self._turn = first
        self._is_misere = contract.goal == "none"
        self._open = contract.open or contract.partner_open
        self.phase = _PLAY

    def _exposed_seats(self) -> list[int]:
        """Seats whose hands are shown once the first trick is complete (rule 18, C2, C3)."""
        log = self.hands_log[-1]
        if log.contract is None or not self._open_hand_shown:
            return []
        c = log.contract
        partners = sorted(self._side - {log.contractor} - self._out) if c.partner_open else []
        return ([log.contractor] if c.open else []) + partners

    def _public_seats(self) -> list[int]:
        """Every seat whose cards all can see: exposed hands (after trick 1) and dummies' face-up cards."""
        shown = self._exposed_seats() if self.hands_log else []
        return sorted(set(shown) | self.rules.dummies)
