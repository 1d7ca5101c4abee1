"""The plain values and tables that hooks return and the engine executes.

Hooks run once per ruleset (deck, ladder, auction) or once per contract (joker rules, trick table);
the play loop then reads only these tables.  Compiled, ``tables.pxd`` makes ``follow_suit`` a C function (the
engine's play loop cimports it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from .cards import NO_SUIT, SUIT_LETTERS

Kind = Literal["trumps", "no-trumps", "misere"]

NOBODY: frozenset[int] = frozenset()
"""No seats (a shared empty set: nobody barred, sitting out or on a side yet)."""


Goal = Literal["at-least", "none", "exactly"]


@dataclass(frozen=True, slots=True)
class Contract:
    """A rung of the bid ladder: what winning the auction with this call obliges the contractor to."""

    call: str
    rung: int
    kind: Kind
    value: int
    tricks: int
    """Tricks the contracting side must take (at least, or exactly; misère: none)."""
    trump: int | None = None
    open: bool = False
    """The contractor's hand is shown once the first trick is complete."""
    partner_plays: bool = True
    requires_standing: int | None = None
    """Rung index the standing bid must have reached before this call is legal."""
    goal: Goal = "at-least"
    partner_open: bool = False
    kitty: bool = True
    kitty_to_partner: bool = False
    jacks_high: bool = False
    fail_penalty: int = 0
    fail_value: int | None = None
    first_calls: int | None = None
    first_own_call: bool = False
    before_looking: bool = False
    """B8: called only in a round before the auction, before the caller looks at its cards (a blind bid)."""
    signal: bool = False

    @property
    def has_trumps(self) -> bool:
        return self.trump is not None

    def made(self, side_tricks: int) -> bool:
        """Whether the contracting side's tricks fulfil the contract."""
        if self.goal == "none":
            return side_tricks == 0
        if self.goal == "exactly":
            return side_tricks == self.tricks
        return side_tricks >= self.tricks

    @property
    def fail_cost(self) -> int:
        """What the contracting side loses when the contract fails: its value (or ``fail_value``, C7) plus
        ``fail_penalty`` (C6), as the built-in scoring counts it; the bots price a failure with the same."""
        return (self.value if self.fail_value is None else self.fail_value) + self.fail_penalty

    def __str__(self) -> str:
        return self.call


class AllPassed(NamedTuple):
    """What becomes of a deal that everybody passed (rule 13 and its variants), as the auction rules say
    (``AuctionRules.all_passed``): the engine carries it out without knowing which variant it is."""

    played_as: Contract | None = None
    """The deal is played at this contract with no contractor (each side scoring its own tricks)."""
    redeals: int = 0
    """Before the deal passes on, the same dealer deals again this many times."""
    same_cards: bool = False
    """The next dealer deals the same cards again, unshuffled."""
    rule: str = "rule 13: a deal everybody passed is thrown in and the deal passes on"
    """The rule cited when a deal breaks this (a different deck dealt where the same cards are due)."""


THROWN_IN = AllPassed()
"""Rule 13: a deal everybody passed is thrown in and the deal passes on."""


@dataclass(frozen=True, slots=True)
class JokerRules:
    """How the joker behaves under one contract.

    In a trump contract it is the top trump (``as_trump``); otherwise it is *free* (belongs to no
    suit and wins any trick) unless the contractor nominates a suit for it.
    """

    as_trump: bool
    nominate: bool = False
    """The contractor holding it may nominate its suit before the first lead (rule 19)."""
    lead: Literal["unled-suit", "last-trick", "any"] = "unled-suit"
    void_play: Literal["optional", "compulsory", "any-time"] = "optional"
    """Rule 21: when void in the suit led; J5 'any-time': also while holding the suit led."""
    named_when_played: bool = False
    """J2: the joker has no suit until played; whoever plays it, leading or following, names one."""
    no_renege: bool = False
    """J3: it may not be used as a suit its holder has shown void in (unless it is the last card)."""
    first_or_last: bool = False
    """J4: used as a suit, it must be the first or the last card of that suit its holder plays."""


ANY_SUIT = (0, 1, 2, 3)
"""Every suit a free joker may be named as."""


@dataclass(slots=True)
class PlayTable:
    """Everything the play loop needs for one hand, indexed by card id.

    ``suit_of[c]`` is the suit a card counts as (a bower as trump, a nominated joker as its suit,
    a free joker as ``NO_SUIT``); ``power[led][c]`` orders cards in a trick whose led suit is
    ``led``: the highest wins, 0 never wins.
    """

    suit_of: list[int]
    power: list[list[int]]
    jokers: tuple[int, ...] = ()
    free_jokers: frozenset[int] = frozenset()
    joker_lead: Literal["unled-suit", "last-trick", "any"] = "unled-suit"
    joker_void_compulsory: bool = False
    nomination: int | None = None
    legal_filter: Callable[[Any, int, list[int]], list[int]] | None = None
    """A variant's restriction of the plain legal plays: ``(state, seat, legal) -> legal``, given the
    rules-16/21/22 plays (followers' joker actions may name a suit: ``JOKER_LEAD + 4n + suit``).
    None for the reference game, which then plays from the tables alone."""
    explain_illegal: Callable[[Any, int, int, list[int]], tuple[str, str] | None] | None = None
    """Why ``legal_filter`` refuses an action: ``(state, seat, action, plain_legal) -> (message, rule)``,
    or None when the filter is not the reason (the engine then explains it as usual)."""
    extra: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Lists, whatever a plugin built them as: the compiled engine's play loops index them as lists.
        if type(self.suit_of) is not list:
            self.suit_of = list(self.suit_of)
        if type(self.power) is not list or any(type(row) is not list for row in self.power):
            self.power = [list(row) for row in self.power]

    def follows(self, hand: list[list[int]], held: list[int], led: int) -> list[int]:
        """Rules 16 and 21 at this table (``follow_suit``): the cards a player may follow ``led`` with, as the
        very list they are kept in.  ``hand`` is the cards by suit, ``held`` the whole hand (or, from the play
        kernel, masks)."""
        return follow_suit(hand, held, led, self.joker_void_compulsory)

    def lead_suits_for_joker(self, unled: list[int], tricks_left: int) -> list[int]:
        """Suits a free joker may be led as; an empty list means it may not be led now (rule 22)."""
        if self.joker_lead == "any":
            return [0, 1, 2, 3]
        if tricks_left == 1:
            return [0, 1, 2, 3]
        if self.joker_lead == "last-trick":
            return []
        return unled

    def joker_lead_suits(self, unled: list[int], tricks_left: int, jokers_only: bool) -> Sequence[int]:
        """Rule 22 for a hand about to lead: the suits each of its free jokers may be led as; a hand of
        nothing but jokers must lead one, naming any suit."""
        suits = self.lead_suits_for_joker(unled, tricks_left)
        return ANY_SUIT if jokers_only and not suits else suits


def follow_suit(hand: list[Any], held: Any, led: int, jokers_compulsory: bool) -> Any:
    """Rules 16 and 21: the cards a player may follow ``led`` with, as the very list they are kept in (the play
    loops take the card from it): the suit led when held; void in it, the free jokers where a misère makes them
    compulsory (``PlayTable.joker_void_compulsory``); else the whole hand.  ``hand`` is the cards by suit, lists
    (or the play kernel's masks, ``held`` then a mask too).  The one statement of follow suit: ``PlayTable.follows``
    and the engine's play loop (a C call, ``tables.pxd``) call it."""
    return hand[led] or (jokers_compulsory and hand[NO_SUIT]) or held


class HandOutcome(NamedTuple):
    """What happened in one played hand, given to the scoring and game-end hooks, and kept in the
    hand's log (``HandLog.outcome``) for everything that reads the hand afterwards.

    (A named tuple, like ``GameResult``: built once a hand, and a frozen dataclass's ``__init__``
    costs more than the scoring.)"""

    contract: Contract
    contractor: int
    contractor_team: int
    tricks_by_seat: tuple[int, ...]
    tricks_by_team: tuple[int, ...]
    made: bool
    tricks_played: int
    hand_size: int
    """Tricks in a full hand (10 in the reference game)."""
    side: tuple[int, ...]
    """Seats of the contracting side this hand, in seat order: the contractor's team (its partners
    included when they sit a misère out), or with a called partner (P5) the contractor and the
    partner; empty when nobody contracted (B10 'no-trumps').  Consumers read it, never work it out."""
    totals_before: tuple[int, ...] = ()
    """Each team's total before this hand (S5 caps defence points against it)."""
    steps: Mapping[str, Any] = {}
    """What the plugins' steps recorded this hand, by step name (``HandLog.steps``; read-only here)."""

    @property
    def kind(self) -> Kind:
        """The contract's kind: ``trumps``, ``no-trumps`` or ``misere`` (every misère, whatever its call)."""
        return self.contract.kind

    @property
    def side_tricks(self) -> int:
        """Tricks the contracting side took (``made`` is the contract's own test of them)."""
        tricks = self.tricks_by_seat
        return sum(tricks[seat] for seat in self.side)


class GameResult(NamedTuple):
    """How a game ended: the winning team index and why."""

    winner: int
    reason: str


def denomination_text(trump: int | None) -> str:
    return "NT" if trump is None or trump == NO_SUIT else SUIT_LETTERS[trump]
