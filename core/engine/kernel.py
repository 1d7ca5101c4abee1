"""The play kernel: one hand's play tables compiled once into bitmasks, for searching the play.

``PlayKernel.of(state)`` reads a game in its play phase (after the exchange and the nomination) and
compiles the hand's ``PlayTable`` (``GameState.play_table``), its play order (seats sitting out
skipped), the contracting side and the contract's goal into what a search executes card after card:

* a card is a bit: ``cards[i]`` is the card of bit ``i``; the cards of each suit *as this hand counts
  them* (a bower as trump, a nominated joker as its suit, a free joker in ``NO_SUIT``) take
  consecutive bits, from the weakest to the strongest, so that the cards a seat may follow with are
  ``hand & suit_mask[led]`` and two cards of a suit touch when no card still in play lies between
  their bits;
* ``power[led][i]``: the strength of bit ``i`` in a trick led in ``led`` (the play table's, 0 never wins);
* ``Position``: the hands as masks, the trick in progress, the suits not yet led, the tricks won.

``legal(position)`` gives the plays of the seat to act as ``GameState.legal_actions()`` lists them
(rules 16, 21, 22 from the table, and the Canadian joker J2 and J5's joker at any time when the
contract's joker rules have them); ``play(position, action)`` plays one and ends the trick, by the
table's powers (the highest wins, the first of equals), a misère at its first trick lost, and the
rules' per-trick check (E6).  ``tests/test_kernel.py`` plays every shipped ruleset at random through
the engine and the kernel side by side and checks both agree on every play and every trick.

What the kernel cannot compile it refuses with ``KernelError`` (a play restriction reading the hand's
history, J3 and J4): a caller then searches through the engine itself (``fivehundred.engine.solver``).

Compiled, ``kernel.pxd`` makes ``trick_winner`` and ``play_over`` C functions (the engine's play cimports them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from fivehundred.rules.actions import JOKER_LEAD, Phase
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import NOBODY, Contract

from .hand_log import Trick

_J2_J5 = "fivehundred.plugins.tricks"
"""The module whose ``legal_filter`` (the joker variants J2–J5) the kernel knows how to compile."""


class KernelError(ValueError):
    """A hand the kernel cannot compile (the caller falls back to the engine)."""


@dataclass(slots=True)
class Position:
    """Where a hand's play stands, as the kernel keeps it."""

    hands: list[int]
    """Each seat's cards as a mask of bits (a laid-out hand: its face-up cards)."""
    leader: int
    trick: list[tuple[int, int, int]]
    """The trick in progress as (seat, bit, named suit or -1)."""
    led: int
    best: int
    winner: int
    unled: int
    """The suits not yet led this hand, as a 4-bit mask."""
    won: list[int]
    played: int
    """Tricks completed."""
    over: bool = False

    def copy(self) -> Position:
        return Position(list(self.hands), self.leader, list(self.trick), self.led, self.best, self.winner,
                        self.unled, list(self.won), self.played, self.over)

    @property
    def turn(self) -> int:
        """The seat to play (meaningless once ``over``)."""
        return self.leader if not self.trick else -1


class PlayKernel:
    """One hand's play, compiled (see the module's text)."""

    def __init__(self, state: Any) -> None:
        if state.phase != Phase.PLAY:
            raise KernelError("the play kernel reads a hand in its play phase (after the exchange)")
        table = state.play_table
        rules = state.rules
        contract: Contract = state.contract
        self.contract = contract
        self.hand_size: int = rules.hand_size
        self.players: int = rules.players
        self.next_seat: tuple[int, ...] = tuple(state.play_order)
        out = state.sitting_out
        self.seats: tuple[int, ...] = tuple(s for s in range(self.players) if s not in out)
        self.trick_size = len(self.seats)
        self.side: frozenset[int] = state.contracting_side
        self.side_mask = sum(1 << s for s in self.side)
        self.decided: frozenset[int] = state._decided_by
        """The seats whose trick decides the hand before its last (``decided_by``)."""
        self.ends_early: bool = bool(self.decided)
        self.trick_check = rules.trick_check
        self._probe: Any = state.clone() if self.trick_check is not None else None
        self._checked: dict[tuple[tuple[int, ...], int], bool] = {}
        self._compile_table(state, table, rules.deck)
        self._compile_filter(table, rules, contract)
        self._compile_covers(state)

    @classmethod
    def of(cls, state: Any) -> tuple[PlayKernel, Position]:
        """The kernel of ``state``'s hand and the position it stands at; the rules' per-trick check (E6) left
        out where it cannot end the hand from there (``check_may_end``: a search then bounds its tricks)."""
        kernel = cls(state)
        pos = kernel.position(state)
        if kernel.trick_check is not None and not kernel.check_may_end(state, pos):
            kernel.trick_check = None
        return kernel, pos

    def serves(self, state: Any) -> bool:
        """Whether this kernel compiles ``state``'s hand as its own: the same rules, play table, contract, side and
        seats, and nothing it compiles from the cards where they lie (a dummy's face-down cards) nor from the game
        (a per-trick check).  Another deal of the same play then differs only in its ``position``."""
        return (self._probe is None and not self.cover_mask and not state._covered
                and state.phase == Phase.PLAY and state.play_table is self.table and state.contract is self.contract
                and state.rules.hand_size == self.hand_size and tuple(state.play_order) == self.next_seat
                and state.contracting_side == self.side and state._decided_by == self.decided
                and tuple(s for s in range(self.players) if s not in state.sitting_out) == self.seats)

    def check_may_end(self, state: Any, pos: Position) -> bool:
        """Whether the rules' per-trick check (E6) ends the hand after any trick still to play from ``pos``: asked
        of every count of tricks won the seats in play can reach (the check reads only those, ``checked``).  The
        answer is kept by what the check reads (the game's score, the contract and its side, the tricks won so
        far), so the worlds a player samples of one decision ask it once."""
        key = (self.trick_check, tuple(state.totals), self.contract, self.side, self.seats, self.hand_size,
               tuple(pos.won), pos.played)
        known = _CHECK_MAY_END.get(key)
        if known is None:
            if len(_CHECK_MAY_END) >= _CHECK_MAY_END_SIZE:
                _CHECK_MAY_END.clear()
            known = _CHECK_MAY_END[key] = any(self.checked(won, played) for won, played in self._reachable(pos))
        return known

    def _reachable(self, pos: Position) -> Iterator[tuple[tuple[int, ...], int]]:
        """Every (tricks won by seat, tricks played) a trick's end still to come may leave."""
        for extra in range(1, self.hand_size - pos.played + 1):
            for split in _splits(extra, len(self.seats)):
                won = list(pos.won)
                for seat, n in zip(self.seats, split, strict=True):
                    won[seat] += n
                yield tuple(won), pos.played + extra

    # --- compiling --------------------------------------------------------------------------

    def _compile_table(self, state: Any, table: Any, deck: Any) -> None:
        suit_of, power = table.suit_of, table.power
        in_play = sorted(set(deck))
        def order(c: int) -> tuple[int, int, int]:
            s = suit_of[c]
            return (s, power[s][c] if s < NO_SUIT else power[0][c], c)
        cards = sorted(in_play, key=order)
        self.cards: list[int] = cards
        self.bit: dict[int, int] = {c: i for i, c in enumerate(cards)}
        self.suit: list[int] = [suit_of[c] for c in cards]
        self.suit_mask: list[int] = [0] * 5
        for i, c in enumerate(cards):
            self.suit_mask[suit_of[c]] |= 1 << i
        self.power: list[list[int]] = [[power[led][c] for c in cards] for led in range(4)]
        self.free_mask: int = self.suit_mask[NO_SUIT]
        self.joker_mask: int = sum(1 << i for i, c in enumerate(cards) if c >= JOKER_BASE)
        self.compulsory: bool = table.joker_void_compulsory
        self.table = table
        self.mergeable: list[bool] = [self._monotone(s) for s in range(4)] + [False]
        self.relative: bool = all(self._strict(s) for s in range(5))
        """Whether only the order of the cards left matters (every suit strictly ordered by its bits in every
        trick, or never winning): positions then match by the cards' ranks among those left."""

    def _monotone(self, suit: int) -> bool:
        """Whether every trick orders the cards of ``suit`` as their bits do (touching cards then play alike)."""
        bits = [i for i in range(len(self.cards)) if self.suit[i] == suit]
        return all(row[a] <= row[b] for row in self.power for a, b in pairwise(bits))

    def _strict(self, suit: int) -> bool:
        bits = [i for i in range(len(self.cards)) if self.suit[i] == suit]
        return all(all(row[a] < row[b] for a, b in pairwise(bits)) or not any(row[b] for b in bits)
                   for row in self.power)

    def _compile_filter(self, table: Any, rules: Any, contract: Contract) -> None:
        self.named_follow = self.any_time = False
        if table.legal_filter is None:
            return
        joker = rules.joker_rules(contract)
        if getattr(table.legal_filter, "__module__", None) != _J2_J5 or joker.no_renege or joker.first_or_last:
            raise KernelError("this hand's play restrictions read its history (J3, J4 or a plugin's own)")
        self.named_follow = joker.named_when_played
        self.any_time = joker.void_play == "any-time"

    def _compile_covers(self, state: Any) -> None:
        """Two-handed dummies: the face-down card under each face-up card, turned up after its trick."""
        self.under: list[int] = [0] * len(self.cards)
        self.cover_mask = 0
        for under in state._covered.values():
            for top, below in under.items():
                self.under[self.bit[top]] = 1 << self.bit[below]
                self.cover_mask |= 1 << self.bit[top]

    # --- positions --------------------------------------------------------------------------

    def face_down(self, hand: int) -> int:
        """The face-down cards under the face-up ones of ``hand`` (a dummy's, P2): still to be played."""
        covers, under = hand & self.cover_mask, 0
        while covers:
            low = covers & -covers
            under |= self.under[low.bit_length() - 1]
            covers ^= low
        return under

    def mask(self, cards: Any) -> int:
        bit = self.bit
        return sum(1 << bit[c] for c in cards)

    def position(self, state: Any) -> Position:
        """Where ``state``'s play stands."""
        n = self.players
        hands = [self.mask(state.hand(s)) for s in range(n)]
        trick_cards, led, leader, won = state.trick_view()
        unled = sum(1 << s for s in state._unled)
        names = state._follow_names or {}
        pos = Position(hands, leader, [], -1, -1, -1, unled, list(won), len(state.hand_log.tricks))
        seat = leader
        for k, card in enumerate(trick_cards):
            b = self.bit[card]
            named = -1
            if k == 0 and state.hand_log and led is not None and card >= JOKER_BASE and self.suit[b] == NO_SUIT:
                named = led
            elif k and card in names:
                named = names[card]
            pos.trick.append((seat, b, named))
            pos.hands[seat] |= self.under[b]
            seat = self.next_seat[seat]
        if pos.trick:
            pos.led = led
            pos.winner, pos.best = self.standing(pos)
        return pos

    def standing(self, pos: Position) -> tuple[int, int]:
        """Who wins the trick in progress so far, and how strongly (``trick_winner`` on the kernel's bits)."""
        trick = pos.trick
        names = {b: named for _, b, named in trick[1:] if named >= 0}
        return trick_winner(self.power[pos.led], [b for _, b, _ in trick], trick[0][0], self.next_seat,
                            names or None, pos.led)

    # --- the plays ------------------------------------------------------------------------------

    def turn(self, pos: Position) -> int:
        """The seat to play."""
        return self.next_seat[pos.trick[-1][0]] if pos.trick else pos.leader

    def moves(self, pos: Position, seat: int) -> list[tuple[int, int]]:
        """The plays of ``seat`` as (bit, named suit or -1), in bit order (a joker's names by suit)."""
        hand = pos.hands[seat]
        out: list[tuple[int, int]] = []
        if not pos.trick:
            free = hand & self.free_mask
            if not free:
                return [(b, -1) for b in card_bits(hand)]
            plain = hand & ~self.joker_mask
            unled = [s for s in range(4) if pos.unled >> s & 1]
            suits = self.table.joker_lead_suits(unled, self.hand_size - pos.played, not plain)
            out = [(b, -1) for b in card_bits(plain)]
            for b in card_bits(free):
                out.extend((b, s) for s in suits)
            return out
        legal = self.table.follows([hand & m for m in self.suit_mask], hand, pos.led)  # rules 16, 21
        if self.any_time and hand & self.joker_mask:
            legal |= hand & self.free_mask
        if self.named_follow and legal & self.free_mask and hand & self.joker_mask:
            out = [(b, -1) for b in card_bits(legal & ~self.free_mask)]
            for b in card_bits(legal & self.free_mask):
                out.extend((b, s) for s in range(4))
            return out
        return [(b, -1) for b in card_bits(legal)]

    def action(self, move: tuple[int, int]) -> int:
        """The engine's action for a play (a joker with a named suit: ``JOKER_LEAD + 4n + suit``)."""
        b, named = move
        card = self.cards[b]
        return card if named < 0 else JOKER_LEAD + 4 * (card - JOKER_BASE) + named

    def move(self, action: int) -> tuple[int, int]:
        if action >= FIRST_STEP_ACTION:
            raise KernelError(f"action {action} is a step's, not a card")
        if action < JOKER_LEAD:
            return self.bit[action], -1
        n, named = divmod(action - JOKER_LEAD, 4)
        return self.bit[JOKER_BASE + n], named

    def legal(self, pos: Position) -> list[int]:
        """The seat to play's legal cards as ``GameState.legal_actions()`` lists them (steps' offers aside)."""
        return sorted(self.action(m) for m in self.moves(pos, self.turn(pos)))

    def play(self, pos: Position, action: int) -> int | None:
        """Play ``action`` for the seat to act; the trick's winner when it completes it, else None."""
        b, named = self.move(action)
        seat = self.turn(pos)
        pos.hands[seat] &= ~(1 << b)
        pos.hands[seat] |= self.under[b]
        if not pos.trick:
            led = named if named >= 0 else self.suit[b]
            pos.led = led
            pos.unled &= ~(1 << led)
        pos.trick.append((seat, b, named))
        pos.winner, pos.best = self.standing(pos)
        if len(pos.trick) < self.trick_size:
            return None
        winner = pos.winner
        pos.won[winner] += 1
        pos.played += 1
        pos.trick = []
        pos.leader = winner
        pos.over = self.ends_here(pos, winner)
        return winner

    def ends_here(self, pos: Position, winner: int) -> bool:
        """Whether the hand ends after a trick won by ``winner``: its last trick, a misère's first trick
        lost (rule 27), or the rules' per-trick check (E6)."""
        if play_over(pos.played, self.hand_size, winner, self.decided):
            return True
        return self.trick_check is not None and self.checked(tuple(pos.won), pos.played)

    def checked(self, won: tuple[int, ...], played: int) -> bool:
        """The rules' per-trick check (``Rules.trick_check``, E6) of a hand at ``won`` tricks by seat after
        ``played`` tricks, asked of a copy of the game once per distinct count.  The check is assumed to
        read only the trick counts (the shipped E6 does); the tests check it against the engine."""
        key = (won, played)
        hit = self._checked.get(key)
        if hit is None:
            probe = self._probe
            probe._set_tricks_won(list(won))
            tricks = probe.hands_log[-1].tricks
            del tricks[played:]
            while len(tricks) < played:
                tricks.append(tricks[-1] if tricks else _blank_trick())
            hit = self._checked[key] = bool(self.trick_check(probe))
        return hit

    def side_tricks(self, pos: Position) -> int:
        return sum(pos.won[s] for s in self.side)


_CHECK_MAY_END: dict[tuple[Any, ...], bool] = {}
"""``PlayKernel.check_may_end``'s answers, by what they depend on; emptied when it holds ``_CHECK_MAY_END_SIZE``."""
_CHECK_MAY_END_SIZE = 4096


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to share ``total`` tricks among ``parts`` seats."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def trick_winner(row: Sequence[int], cards: Sequence[int], leader: int, next_seat: Sequence[int],
                 named: Mapping[int, int] | None = None, led: int = -1) -> tuple[int, int]:
    """Who wins a trick (or, of a trick in progress, wins it so far) and how strongly: ``(seat, strength)``.

    ``cards`` are in play order from ``leader`` (seats after each other by ``next_seat``); a card's strength
    is ``row[card]``, the hand's play table for the suit led (``PlayTable.power[led]``: for a free joker led,
    the suit named for it).  A joker a follower played naming a suit (``named``: card to suit) ranks in that
    suit only: as ``row`` ranks it when it names ``led``, else 0.  The highest wins, the first of equals
    (rule 17).  The one statement of the trick's winner: the engine's play (card by card and in its play
    loop), its read API (``GameState.trick_standing``) and the kernel's positions call it."""
    seat = winner = leader
    card = cards[0]
    best = row[card]
    for i in range(1, len(cards)):
        seat = next_seat[seat]
        card = cards[i]
        strength = row[card] if named is None or named.get(card, led) == led else 0
        if strength > best:
            best, winner = strength, seat
    return winner, best


def play_over(played: int, hand_size: int, winner: int, decided: frozenset[int]) -> bool:
    """Whether the play ends after a trick won by ``winner``, ``played`` tricks into a hand of ``hand_size``:
    its last trick, or a trick that decides the contract (``decided_by``: a misère's first trick lost,
    rule 27).  (The rules' per-trick check, E6, reads the whole game: the engine and the kernel ask it
    after this.)  The one statement of the end of the play."""
    return played >= hand_size or winner in decided


def decided_by(contract: Contract, side: frozenset[int], every_trick: bool) -> frozenset[int]:
    """The contract's goal as the end of the play: the seats whose trick decides the hand before its last
    trick.  A contract to take no trick (``goal: none``, rule 27's misère) is lost at the contracting side's
    first trick, and the play stops there, unless the hand is played to its last trick (``every_trick``: the
    ruleset's ``play.misere_ends_early: false``, a step's ``PlayEveryTrick``, a record played out); a
    contract to take at least or exactly some tricks is played out.  The one statement of that end: the
    engine's play (``GameState``'s ``_decided_by``, set as the play begins) and the kernel read it."""
    return side if contract.goal == "none" and not every_trick else NOBODY


def _blank_trick() -> Any:
    return Trick(0, [], 0)


def card_bits(mask: int) -> list[int]:
    """The cards (bit indices) of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
