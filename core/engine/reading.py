"""Reading the game: what a state shows plugins, bots and tests, public and read-only (a base of
``GameState``, on the fields ``Exchange`` declares): the contract, the trick in progress, the tricks won,
the seats in play order, and what every seat may know of the hands (voids shown, cards unseen)."""

# Compiled (COMPILED_MODULES, core/engine/build.py): reading.pxd declares ``Reading`` an extension type (no fields
# of its own: exchange.pxd declares them) and ``trick_voids`` a C function (the players cimport it).  The
# pure-Python engine never reads that file.

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from fivehundred.rules.actions import Phase
from fivehundred.rules.cards import NO_SUIT
from fivehundred.rules.tables import NOBODY, Contract, PlayTable

from .exchange import Exchange, next_seats  # noqa: F401 - next_seats: part of the read API
from .kernel import trick_winner

if TYPE_CHECKING:
    from fivehundred.rules.auction import Bidding
    from fivehundred.rules.steps import Step

    from .hand_log import HandLog

_DEAL, _PLAY, _GAME_OVER, _STEP = Phase.DEAL, Phase.PLAY, Phase.GAME_OVER, Phase.STEP


class Reading(Exchange):
    """The public read API of ``GameState`` (a base class: it works on the state's hand attributes)."""

    __slots__ = ()

    _bidding: Bidding
    _trick: list[int]
    _won: list[int]
    _led: int
    _named: int | None
    _follow_names: dict[int, int] | None
    _power_led: list[int]

    # --- reading the game (public and read-only, for plugins and bots) ------------------------
    # Everything outside the engine modules (state, exchange) reads a state through this block and
    # never through its private attributes (tests/test_architecture.py checks it).  Between hands
    # (and before the first deal) the hand's values are empty: no cards, no contract, -1, zeros.

    def _in_hand(self) -> bool:
        return bool(self.hands_log) and self.phase != _DEAL

    @property
    def contract(self) -> Contract | None:
        """The hand's contract once the auction is won (as a step may have changed it), else None."""
        return self.hands_log[-1].contract if self._in_hand() else None

    @property
    def contractor(self) -> int:
        """The contractor's seat; -1 before the auction is won and in a hand played with nobody's bid
        (``AllPassed.played_as``)."""
        return self.hands_log[-1].contractor if self._in_hand() else -1

    @property
    def contracting_side(self) -> frozenset[int]:
        """The contracting side's seats: the contractor's team, or as a step set it (the contractor and a
        called partner); empty before the auction is won."""
        return self._side if self._in_hand() else NOBODY

    @property
    def trick(self) -> tuple[int, ...]:
        """The cards of the trick in progress, in play order from its leader."""
        return tuple(self._trick) if self.phase == _PLAY else ()

    @property
    def trick_leader(self) -> int:
        """The seat that led (or is to lead) the trick in progress; -1 outside the play."""
        return self._leader if self.phase == _PLAY else -1

    @property
    def led_suit(self) -> int | None:
        """The suit led to the trick in progress (for a free joker led, the suit named for it)."""
        return self._led if self.phase == _PLAY and self._trick else None

    @property
    def tricks_won_by_seat(self) -> tuple[int, ...]:
        """Tricks each seat has won this hand."""
        return tuple(self._won) if self._in_hand() else (0,) * self.rules.players

    @property
    def tricks_won_by_team(self) -> tuple[int, ...]:
        """Tricks each team has won this hand."""
        by_team = [0] * len(self.rules.team_names)
        for seat, won in enumerate(self.tricks_won_by_seat):
            by_team[self.rules.team_of[seat]] += won
        return tuple(by_team)

    def voids(self, seat: int) -> frozenset[int]:
        """Suits ``seat`` has shown it holds no card of this hand, by not following the suit led (suits
        as the hand's play table counts them: a bower follows trumps, a nominated joker its suit).
        ``NO_SUIT`` is in the set when a void player had to play a free joker (misère, rule 21) and
        played another card: it holds none.  Where a plugin filters the plays (joker variants) a free joker
        played shows no void; a hand laid out on the table (``lay_out``) shows none, as a face-down card
        may turn up in any suit.  (``voids_shown``, on this hand's tricks.)"""
        if self.phase not in (_PLAY, _GAME_OVER) or seat in self._covered:
            return NOBODY
        tricks = [(t.leader, t.cards, t.named) for t in self.hands_log[-1].tricks]
        if self.phase == _PLAY and self._trick:
            tricks.append((self._leader, self._trick, self._named))
        mask = voids_shown(tricks, self._next, self._table, self.rules.players)[seat]
        return frozenset(suit for suit in range(NO_SUIT + 1) if mask >> suit & 1)

    def unseen(self, seat: int) -> tuple[int, ...]:
        """The cards of the deck ``seat`` has not seen this hand, sorted: not in its hand or its own discards,
        not exposed on the table, not played (``Observation.unseen``).  A step's own knowledge (a kitty turned
        face up, a card passed) is the step's to add."""
        return self.observation(seat).unseen(self.rules.deck)  # type: ignore[attr-defined]

    @property
    def trick_standing(self) -> tuple[int, int]:
        """Who wins the trick in progress so far and how strongly: ``(seat, strength)``, the strength as the
        hand's play table ranks the card in the suit led (a joker played with a named suit ranks in that suit
        only); ``(-1, -1)`` when no card of a trick is on the table."""
        if self.phase != _PLAY or not self._trick:
            return -1, -1
        return trick_winner(self._power_led, self._trick, self._leader, self._next, self._follow_names, self._led)

    @property
    def played(self) -> tuple[int, ...]:
        """Every card played this hand, trick by trick in play order, the trick in progress last."""
        if not self._in_hand():
            return ()
        return tuple(card for t in self.hands_log[-1].tricks for card in t.cards) + self.trick

    @property
    def sitting_out(self) -> frozenset[int]:
        """Seats sitting the hand out (the partners of a misère contractor, rule 15), once the play begins."""
        return self._out if self._in_hand() else NOBODY

    @property
    def play_order(self) -> tuple[int, ...]:
        """``play_order[s]`` plays after ``s`` in this hand's tricks (seats sitting out skipped); the
        ruleset's seat order before the play begins."""
        return self._next if self.phase in (_PLAY, _GAME_OVER) else self.rules.next_seat

    @property
    def play_table(self) -> PlayTable | None:
        """The hand's trick table (built from the contract and the nomination) once the play begins."""
        return self._table if self.phase in (_PLAY, _GAME_OVER) else None

    def covering(self, seat: int) -> tuple[int, ...]:
        """The face-up cards of a hand laid out on the table that still have a face-down card under them, sorted."""
        return tuple(sorted(self._covered.get(seat, ()))) if self._in_hand() else ()

    # The determinisation API, for sampling bots (``fivehundred.bots.montecarlo``): on a clone only, since
    def public_steps(self) -> dict[str, Any]:
        """What every seat may know of the plugins' steps this hand, by step name (``Step.public``)."""
        if not self.hands_log or self.phase == _DEAL or not self.hands_log[-1].steps:
            return {}
        log = self.hands_log[-1]
        shown = ((step.name, step.public(self, log)) for step in self.rules.steps if step.name in log.steps)
        return {name: public for name, public in shown if public is not None}

    @property
    def current_step(self) -> Step | None:
        """The plugin step in progress (``Phase.STEP``), or None."""
        return self._step if self.phase == _STEP else None

    @property
    def hand_log(self) -> HandLog:
        """The log of the hand being played (the last one dealt)."""
        return self.hands_log[-1]

    @property
    def auction_barred(self) -> frozenset[int]:
        """Seats that take no part in this hand's auction (the auction rules' ``silent`` seats, and those they
        bar after the last hand, ``AuctionRules.barred_after``)."""
        return frozenset(s for s, out in enumerate(self._bidding.passed) if out) if self.hands_log else NOBODY


def voids_shown(tricks: Iterable[tuple[int, Sequence[int], int | None]], next_seat: Sequence[int], table: PlayTable,
                players: int, laid_out: Collection[int] = ()) -> list[int]:
    """The suits each seat has shown it holds no card of, as a bit per suit (``1 << suit``), from the tricks
    played as ``(leader, cards, suit named for a free joker led)``, in play order (``next_seat``).  A follower
    that does not play the suit led shows a void in it, unless it played a free joker where a plugin filters
    the plays (the joker may be played while holding the suit); where a void player must play a free joker
    (``PlayTable.joker_void_compulsory``, rule 21) and played another card, it holds none (``NO_SUIT``).  A
    hand laid out on the table (``laid_out``) shows none: a face-down card may turn up in any suit.  The one
    statement of what a void shown is: ``GameState.voids``, ``Observation.voids_shown`` and the sampling
    players read it, and the rule-of-thumb players read it a trick at a time (``trick_voids``)."""
    void = [0] * players
    plain, compulsory = void_marks(table)
    suit_of = table.suit_of
    for leader, cards, named in tricks:
        trick_voids(void, leader, cards, named, next_seat, suit_of, plain, compulsory, laid_out)
    return void


def void_marks(table: PlayTable) -> tuple[bool, bool]:
    """What a play shows at ``table`` (``voids_shown``): whether a free joker played to another suit shows a
    void in it (no plugin filters the plays), and whether a void player that played another card shows it holds
    no free joker (rule 21: it must play one where the table makes it compulsory)."""
    plain = table.legal_filter is None
    return plain, table.joker_void_compulsory and plain


def trick_voids(void: list[int], leader: int, cards: Sequence[int], named: int | None, next_seat: Sequence[int],
                suit_of: Sequence[int], plain: bool, compulsory: bool, laid_out: Collection[int] = ()) -> None:
    """Add to ``void`` (a bit per suit, by seat) what one trick shows, as ``voids_shown`` counts it: the trick
    led by ``leader`` (``named``: the suit named for a free joker led), the play table's ``suit_of`` and its
    ``void_marks`` (``plain``, ``compulsory``).  A player reading the play as it goes adds each trick once,
    and the trick in progress to a copy."""
    led = named if named is not None else suit_of[cards[0]]
    if led == NO_SUIT:
        return
    player = leader
    for i in range(1, len(cards)):
        player = next_seat[player]
        suit = suit_of[cards[i]]
        if suit != led and (suit != NO_SUIT or plain) and player not in laid_out:
            void[player] |= 1 << led
            if compulsory and suit != NO_SUIT:
                void[player] |= 1 << NO_SUIT
