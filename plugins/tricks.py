"""Trick-taking tables: trumps and bowers, no-trumps, misère, and the joker (rules 3–4, 16–23).

Variants read here, once per contract: D2 (a second joker, below the first), D3
(``trumps.colour_four``), C8 (``jacks_high``), J1 (``joker.lead: last-trick``), J2
(``joker.nomination: when-played``, ``joker.in_suit_contracts: none``), J3 (``joker.no_renege``),
J4 (``joker.first_or_last``), J5 (``void_play_in_no_trumps: any-time``, ``lead: any``).

J2–J5 restrict or widen the plain legal plays according to what happened earlier in the hand, so
the trick table carries a ``legal_filter`` built from the steps below; the reference game has none.

How the sources are read where they are vague:

* A joker is *used as* a suit: the suit it is led as (named, or nominated by the contractor), the
  suit a follower names for it (J2), and otherwise the suit led to the trick it is played to.
* J2 (“Cómo jugar” and “500 (juego de cartas)”): the joker has no suit until played.  Leading it, its holder
  names the suit led, as in rule 22.  Following with it (allowed as rule 21 allows a free joker), its holder names
  any suit: named as the suit led it is the top card of that suit and wins (the encyclopedia article: "one may win
  a trick with the joker by naming the suit to follow"); named as another suit it is a card of that
  suit thrown on the trick, which cannot win — the choice rule 19 gives the contractor before play,
  given to whoever plays the joker when it is played.  With ``in_suit_contracts: none`` the joker
  is no trump in a suit contract: a blank card of no suit that never wins except as a lead that
  nobody follows or trumps.
* J3 (the encyclopedia article): a seat has shown void in a suit when it played a card of another suit to a trick
  led in that suit (a free joker shows nothing).  The joker may not be used as such a suit unless
  it is its holder's last card.
* J4 (the encyclopedia article, "only as the first or the last card of a suit"): used as a suit, the joker must be
  the first card of that suit its holder plays in the hand (none played before) or the last (its
  holder has no other card of the suit).  Like J3 it applies to every contract without trumps,
  misère included (the encyclopedia article: "no-trump games, misère included").
* J5 (the how-to page): in no-trumps the free joker may also be played to a lead while holding the suit led.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fivehundred.rules import rules_text as R
from fivehundred.rules.actions import JOKER_LEAD
from fivehundred.rules.cards import (
    ACE,
    JACK,
    JOKER_BASE,
    MAX_CARD,
    NO_SUIT,
    SUIT_LETTERS,
    rank_of,
    same_colour,
    suit_of,
)
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.tables import Contract, JokerRules, PlayTable

TOP = 1000  # a joker's power: above every other card
TRUMP = 500  # trumps rank above every card of a plain suit
FOUR = 4


@hookimpl(trylast=True)
def fivehundred_joker_rules(ruleset: Ruleset, contract: Contract) -> JokerRules:
    j = ruleset.joker
    if contract.trump is not None:
        return JokerRules(as_trump=j.in_suit_contracts == "top-trump")
    void = j.void_play_in_misere if contract.kind == "misere" else j.void_play_in_no_trumps
    return JokerRules(as_trump=False, nominate=j.nomination == "contractor", lead=j.lead, void_play=void,
                      named_when_played=j.nomination == "when-played", no_renege=j.no_renege,
                      first_or_last=j.first_or_last)


def plain_tables(deck: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Every card its printed suit; within the suit led, higher rank wins."""
    suit_table = [NO_SUIT] * MAX_CARD
    power = [[0] * MAX_CARD for _ in range(4)]
    for c in deck:
        if c < JOKER_BASE:
            suit_table[c] = suit_of(c)
            power[suit_of(c)][c] = rank_of(c)
    return suit_table, power


@hookimpl(trylast=True)
def fivehundred_trick_table(
    ruleset: Ruleset, contract: Contract, joker: JokerRules, nomination: int | None, deck: Sequence[int],
    nominated: frozenset[int],
) -> PlayTable:
    suit_table, power = plain_tables(deck)
    jokers = tuple(c for c in deck if c >= JOKER_BASE)
    trump = contract.trump
    if trump is not None:
        return trump_table(suit_table, power, deck, trump, joker.as_trump, ruleset.trumps.colour_four)
    if contract.jacks_high:  # C8: each jack above its ace, in its own suit
        for c in deck:
            if c < JOKER_BASE and rank_of(c) == JACK:
                power[suit_of(c)][c] = ACE + 1
    free = []
    for j in jokers:
        if nomination is None or j not in nominated:  # D2: a defender's joker stays free
            free.append(j)
            for led in range(4):
                power[led][j] = TOP - (j - JOKER_BASE)
        else:  # rule 19: the highest card of the nominated suit, and of that suit only
            suit_table[j] = nomination
            power[nomination][j] = TOP - (j - JOKER_BASE)
    table = PlayTable(suit_table, power, jokers, frozenset(free), joker.lead, joker.void_play == "compulsory",
                      nomination)
    steps = play_steps(joker, table)
    if steps:
        table.legal_filter = legal_filter(steps, table)
    if steps or joker.lead == "last-trick":
        table.explain_illegal = explainer(steps, table, joker)
    return table


def trump_table(suit_table: list[int], power: list[list[int]], deck: Sequence[int], trump: int,
                joker_trumps: bool, colour_four: bool) -> PlayTable:
    """Rule 3: trumps above every plain card, bowers as trumps; D3's borrowed 4; J2's blank joker."""
    jokers = tuple(c for c in deck if c >= JOKER_BASE)
    for c in deck:
        strength = trump_strength(c, trump, colour_four) if joker_trumps or c < JOKER_BASE else 0
        if strength:
            suit_table[c] = trump
            for led in range(4):
                power[led][c] = TRUMP + strength
    if joker_trumps:
        return PlayTable(suit_table, power, jokers)
    # J2 'in_suit_contracts: none': the joker is a blank of no suit, led as any suit, never winning.
    return PlayTable(suit_table, power, jokers, joker_lead="any")


def trump_strength(card: int, trump: int, colour_four: bool = False) -> int:
    """0 for a non-trump; else higher is stronger: joker, right bower, left bower, A K Q 10 … (rule 3).

    D3: the 4 of the other suit of the trump colour is a trump too, ranking as the 4 of trumps,
    just below the 5 (the encyclopedia article lists trumps down to "5, (4)"); the deck holds one 4 per colour.
    """
    if card >= JOKER_BASE:
        return 400 - (card - JOKER_BASE)
    suit, rank = suit_of(card), rank_of(card)
    if rank == JACK and suit == trump:
        return 300
    if rank == JACK and suit == same_colour(trump):
        return 299
    if colour_four and rank == FOUR and suit == same_colour(trump):
        return FOUR
    return rank if suit == trump else 0


# --- the joker's variant restrictions (J2-J5) -------------------------------------------------


class Turn:
    """The player to act, as a play restriction sees it: hand, current trick, and past play."""

    __slots__ = ("hand", "led", "played", "seat", "table", "voids")

    def __init__(self, state: Any, seat: int, table: PlayTable):
        seen = state.observation(seat)
        self.seat = seat
        self.table = table
        self.hand: tuple[int, ...] = seen.hand
        self.led: int | None = seen.led if seen.current_trick else None
        """The suit led to the current trick; None when this seat leads."""
        self.played, self.voids = past_play(state, seat, table.suit_of)

    def suit_cards(self, suit: int) -> list[int]:
        """The cards of ``suit`` in hand (a nominated joker included)."""
        return [c for c in self.hand if self.table.suit_of[c] == suit]


def past_play(state: Any, seat: int, suit_table: Sequence[int]) -> tuple[frozenset[int], frozenset[int]]:
    """The suits ``seat`` has played cards of in this hand's completed tricks, and those it has
    shown void in (a card of another suit played to a trick led in it; a free joker shows nothing)."""
    played: set[int] = set()
    voids: set[int] = set()
    for trick in state.hands_log[-1].tricks:
        seats = trick_seats(state, trick.leader, len(trick.cards))
        if seat not in seats:
            continue
        card = trick.cards[seats.index(seat)]
        suit = suit_table[card]
        led = trick.named if trick.named is not None else suit_table[trick.cards[0]]
        if suit != NO_SUIT:
            played.add(suit)
            if suit != led:
                voids.add(led)
    return frozenset(played), frozenset(voids)


def trick_seats(state: Any, leader: int, count: int) -> list[int]:
    """The seats that played a trick of ``count`` cards led by ``leader``, in order.

    Follows the engine's play order for this hand (``GameState.play_order``, which skips seats
    sitting the hand out).
    """
    after: tuple[int, ...] = state.play_order
    seats = [leader]
    while len(seats) < count:
        seats.append(after[seats[-1]])
    return seats


def joker_of(action: int) -> int | None:
    """The joker an action plays, or None for any other card."""
    if action >= JOKER_LEAD:
        return JOKER_BASE + (action - JOKER_LEAD) // 4
    return action if action >= JOKER_BASE else None


def used_as(action: int, turn: Turn) -> int | None:
    """The suit a joker action uses the joker as (see the module docstring); None for other cards."""
    if action >= JOKER_LEAD:
        return (action - JOKER_LEAD) % 4
    if action < JOKER_BASE:
        return None
    suit = turn.table.suit_of[action]
    return turn.led if suit == NO_SUIT else suit


Step = Callable[[Turn, list[int]], list[int]]
Refusal = Callable[[Turn, int], tuple[str, str] | None]
Steps = list[tuple[Step, Refusal | None]]
Filter = Callable[[Any, int, list[int]], list[int]]
Explain = Callable[[Any, int, int, list[int]], tuple[str, str] | None]


def any_time(turn: Turn, legal: list[int]) -> list[int]:
    """J5: a follower may play the free joker even while holding the suit led."""
    if turn.led is None:
        return legal
    extra = [c for c in turn.hand if c in turn.table.free_jokers and c not in legal]
    return legal + extra


def named_when_played(turn: Turn, legal: list[int]) -> list[int]:
    """J2: a follower playing the free joker names its suit: ``JK:S`` … ``JK:H``, never plain ``JK``."""
    if turn.led is None:
        return legal
    out: list[int] = []
    for a in legal:
        if a in turn.table.free_jokers:
            out.extend(JOKER_LEAD + 4 * (a - JOKER_BASE) + s for s in range(4))
        else:
            out.append(a)
    return out


def renege(turn: Turn, action: int) -> tuple[str, str] | None:
    """J3: the joker used as a suit its holder has shown void in, while holding other cards."""
    suit = used_as(action, turn)
    if suit is None or suit not in turn.voids or len(turn.hand) == 1:
        return None
    return (f"the joker may not be used as {SUIT_LETTERS[suit]}: this player has shown void in it",
            "J3: no renege with the joker: it may not be used as a suit its holder has shown void in")


def middle_of_suit(turn: Turn, action: int) -> tuple[str, str] | None:
    """J4: the joker used as a suit after its holder played that suit, while holding more of it."""
    suit = used_as(action, turn)
    if suit is None or suit not in turn.played:
        return None
    joker = joker_of(action)
    if not [c for c in turn.suit_cards(suit) if c != joker]:
        return None
    letter = SUIT_LETTERS[suit]
    return (f"the joker used as {letter} must be the first or the last {letter} its holder plays",
            "J4: in no-trumps the joker is played only as the first or the last card of a suit")


def refusing(refuse: Refusal) -> Step:
    def step(turn: Turn, legal: list[int]) -> list[int]:
        return [a for a in legal if refuse(turn, a) is None]

    step.__doc__ = refuse.__doc__
    return step


def play_steps(joker: JokerRules, table: PlayTable) -> Steps:
    """The restrictions this contract's joker rules impose, in order: what may be added, then how a
    joker is named, then what is forbidden."""
    if not table.jokers:
        return []
    steps: Steps = []
    if joker.void_play == "any-time":
        steps.append((any_time, None))
    if joker.named_when_played:
        steps.append((named_when_played, unnamed_follow))
    for wanted, refuse in ((joker.no_renege, renege), (joker.first_or_last, middle_of_suit)):
        if wanted:
            steps.append((refusing(refuse), refuse))
    return steps


def unnamed_follow(turn: Turn, action: int) -> tuple[str, str] | None:
    """J2: a follower played the free joker without naming its suit."""
    if turn.led is None or action not in turn.table.free_jokers:
        return None
    return ("a joker played must be named, e.g. JK:H",
            "J2: the joker has no suit until played; whoever plays it names one")


def legal_filter(steps: Steps, table: PlayTable) -> Filter:
    def restrict(state: Any, seat: int, legal: list[int]) -> list[int]:
        held = state.hand(seat)  # sorted: a joker would be last, and these rules concern only its holder
        if not held or held[-1] < JOKER_BASE:
            return legal
        turn = Turn(state, seat, table)
        for step, _ in steps:
            legal = step(turn, legal) or legal  # a restriction never leaves a player without a play
        return legal

    return restrict


def explainer(steps: Steps, table: PlayTable, joker: JokerRules) -> Explain:
    def explain(state: Any, seat: int, action: int, plain: list[int]) -> tuple[str, str] | None:
        turn = Turn(state, seat, table)
        legal = plain
        for step, refuse in steps:
            narrowed = step(turn, legal) or legal
            if action in legal and action not in narrowed and refuse is not None:
                return refuse(turn, action)
            legal = narrowed
        if action in legal or action < JOKER_LEAD or joker_of(action) not in turn.hand:
            return None
        if turn.led is not None:  # a joker named by a follower (J2) who may not play it at all
            held = joker.named_when_played and turn.suit_cards(turn.led)
            return (f"holds a card of the suit led ({SUIT_LETTERS[turn.led]})", R.JOKER_ON_LEAD) if held else None
        if joker.lead == "last-trick" and joker_of(action) in table.free_jokers:
            return ("the joker may be led only to the last trick",
                    "J1: in no-trumps and misère the joker is led only to the last trick")
        return None

    return explain


# --- contradictions in a ruleset --------------------------------------------------------------


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if ruleset.trumps.colour_four:
        fours = {s for s, ranks in ruleset.deck.suits.items() if "4" in ranks}
        for pair in ("SC", "DH"):
            if len(fours & set(pair)) != 1:
                problems.append(("trumps.colour_four", f"the deck must hold exactly one 4 of {pair[0]} and "
                                 f"{pair[1]} so that it can join the trumps of that colour (D3 removes 4S and 4D)"))
    for name, c in ruleset.contracts.items():
        if c.jacks_high and c.kind == "trumps":
            problems.append((f"contracts.{name}.jacks_high", "jacks rank above aces only without trumps (C8)"))
    return problems
