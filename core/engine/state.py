"""The game as an explicit state machine, in the style of OpenSpiel.

deal → auction → kitty exchange → nomination → play → score → next deal, or game over.

``current_player()`` names who acts (a seat index, ``CHANCE`` when cards must be dealt,
``TERMINAL`` when the game is over); ``legal_actions()`` lists the legal actions as sorted ints;
``apply(action)`` validates and plays one.  The deal is the only chance event: ``deal(rng)``
shuffles with the caller's seeded generator, ``deal_cards(hands, kitty)`` replays a recorded one.
"""

from __future__ import annotations

import dataclasses
import random
from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from fivehundred.rules import rules_text as R
from fivehundred.rules.actions import (  # noqa: F401 - re-exported: the state's public vocabulary
    CALL,
    CHANCE,
    DISCARD,
    JOKER_LEAD,
    NO_NOMINATION,
    NOMINATE,
    PASS_ACTION,
    PHASE_KINDS,
    TERMINAL,
    THROWN_IN_CALL,
    Phase,
    action_kind,
    action_text,
    parse_action_text,
)
from fivehundred.rules.auction import PASS as PASS_CALL
from fivehundred.rules.auction import Bidding, closed
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT, SUIT_LETTERS
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.steps import FIRST_STEP_ACTION, Step, private_steps
from fivehundred.rules.tables import NOBODY, Contract, GameResult, HandOutcome, PlayTable

from .exchange import Exchange, _by_suit

# Module constants: an enum member lookup costs more than the comparison it feeds.
_DEAL, _AUCTION, _DISCARD, _NOMINATE, _PLAY, _GAME_OVER, _STEP = (
    Phase.DEAL, Phase.AUCTION, Phase.DISCARD, Phase.NOMINATE, Phase.PLAY, Phase.GAME_OVER, Phase.STEP)


@dataclass(slots=True)
class Trick:
    leader: int
    cards: list[int]
    winner: int
    named: int | None = None
    """The suit named for a free joker led to this trick."""
    follow_names: dict[int, int] | None = None
    """Suits named for jokers played by followers, by joker (where the play table offers a follower a joker
    with a named suit)."""


def _trick(leader: int, cards: list[int], winner: int, named: int | None,
           follow_names: dict[int, int] | None) -> Trick:
    """``Trick(leader, cards, winner, named, follow_names)`` for the play loops, a trick a call: the
    dataclass's ``__init__`` is Python written at class creation, which compiling the engine leaves
    interpreted."""
    trick = _new_object(Trick)
    trick.leader, trick.cards, trick.winner = leader, cards, winner
    trick.named, trick.follow_names = named, follow_names
    return trick


_new_object = object.__new__


def _take(cards: list[int], card: int) -> None:
    """``cards.remove(card)`` for the play loops: compiled, a C call on a typed list (``state.pxd``), not a
    method looked up on the list at every card."""
    cards.remove(card)


_new_tuple = tuple.__new__


@dataclass(slots=True)
class HandLog:
    """Everything that happened in one deal, as the record keeps it."""

    number: int
    dealer: int
    hands: list[list[int]]
    kitty: list[int]
    dead: list[int] = field(default_factory=list)
    """The cards the deal pattern deals to nobody (its ``dead`` packets), out of play."""
    misdeal: bool = False
    """The deal was thrown in before the play and the same dealer dealt again (``GameState.throw_in``)."""
    calls: list[tuple[int, int]] = field(default_factory=list)
    contract: Contract | None = None
    contractor: int = -1
    discards: list[int] = field(default_factory=list)
    discarders: list[int] | None = None
    """Who made each discard, once a seat other than the contractor has made one (None: the contractor
    made them all)."""
    nomination: int | None = None
    nominated: bool = False
    played_out: bool = False
    """A step asked for every trick to be played (a misère then does not end at its first trick lost)."""
    discards_owed: int = 0
    """Discards a step asked of the contractor beyond the kitty's (a card received from the partner)."""
    aside: dict[int, list[int]] = field(default_factory=dict)
    """Rule 15: the hands laid aside by the partners of a misère contractor, as held then (a step before
    the play may have changed them since the deal)."""
    steps: dict[str, Any] = field(default_factory=dict)
    """What each of the plugins' steps recorded this hand, by step name (``fivehundred.rules.steps``)."""
    tricks: list[Trick] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    outcome: HandOutcome | None = None
    """The hand as scored (contracting side, contract kind, made), None until it is: what readers use."""


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know: its own cards and everything played or announced in public."""

    seat: int
    phase: Phase
    dealer: int
    hand: tuple[int, ...]
    calls: tuple[tuple[int, int], ...]
    contract: Contract | None
    contractor: int
    nomination: int | None
    discards: tuple[int, ...]
    """The seat's own discards (only the contractor has any)."""
    tricks: tuple[tuple[int, tuple[int, ...], int, int | None], ...]
    current_trick: tuple[int, ...]
    led: int | None
    """The suit led to the current trick (for a free joker led, the suit named for it)."""
    leader: int
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    open_hand: tuple[int, ...] | None
    """The open misère contractor's hand, once exposed."""
    open_hands: tuple[tuple[int, tuple[int, ...]], ...]
    """Every exposed hand as (seat, cards): the open misère contractor's, a partner's whose contract shows
    it (``Contract.partner_open``)."""
    sitting_out: int
    sitting: tuple[int, ...] = ()
    """Every seat sitting the hand out (the misère contractor's partners)."""
    step: str | None = None
    """The plugin step in progress (``Phase.STEP``), by name."""
    steps: dict[str, Any] = field(default_factory=dict)
    """What every seat may know of the plugins' steps this hand, by step name (``Step.public``)."""
    seen: dict[str, Any] = field(default_factory=dict)
    """What this seat alone (with the others a step names) knows of the steps this hand, beyond ``steps``
    (``Step.private``: the card given to it or by it)."""


class GameState(Exchange):
    """One game of Five Hundred under a compiled ruleset (see ``fivehundred.rules.manager.Rules``)."""

    # Slots (with the exchange's own): a game has more attributes than an instance dict shares keys for,
    # and a simulation makes a game object per game (the benchmark, one per deal).
    __slots__ = ("_barred", "_best", "_bidding", "_covered", "_deck_order", "_follow_names", "_held",
                 "_led", "_legal", "_legal_step", "_named", "_open_hand_shown", "_power_led", "_redeals",
                 "_reuse_deck", "_trick", "_unled", "_winner", "_won", "dealer", "deals", "hands_log",
                 "misere_play_out", "result", "rules", "step", "totals")

    # The state of the hand in progress (set when a hand is dealt, and when its play starts).
    _held: list[list[int]]
    _buckets: list[list[list[int]]]
    _bidding: Bidding
    _trick: list[int]
    _won: list[int]
    _unled: list[int]
    _next: tuple[int, ...]
    _trick_size: int
    _table: PlayTable
    _suit_of: list[int]
    _power_led: list[int]
    _led: int
    _named: int | None
    _follow_names: dict[int, int] | None
    _best: int
    _winner: int
    _leader: int
    _sitting_out: int
    _open_hand_shown: bool
    _covered: dict[int, dict[int, int]]
    """For each seat whose hand is laid out on the table (``lay_out``), its face-up cards and the face-down
    card under each."""
    _side: frozenset[int]
    """The contracting side's seats."""
    _out: frozenset[int]
    """Seats sitting the hand out (the misère contractor's partners)."""
    _ends_early: bool
    _open: bool

    def __init__(self, rules: Rules | Any, *, first_dealer: int | None = None,
                 rng: random.Random | None = None, misere_play_out: bool = False):
        _clear_slots(self)  # the attributes of a hand in progress stay None until one is dealt
        self.rules: Rules = rules if isinstance(rules, Rules) else compile_rules(rules)
        n = self.rules.players
        if first_dealer is None:
            first_dealer = self.rules.first_dealer(rng or random.Random(0))
        self.dealer = first_dealer % n
        self.phase = _DEAL
        self.totals = [0] * len(self.rules.team_names)
        self.hands_log: list[HandLog] = []
        self.deals = 0
        self.result: GameResult | None = None
        self.misere_play_out = misere_play_out or self.rules.misere_played_out
        self._barred: frozenset[int] = NOBODY
        self._redeals = 0
        self._reuse_deck: list[int] | None = None
        self._deck_order: list[int] | None = None
        self._covered = {}
        self.step = 0
        self._legal: list[int] | None = None
        self._legal_step = -1
        self._turn = CHANCE
        self._step = None

    # --- public API ----------------------------------------------------------------------

    def current_player(self) -> int:
        return self._turn  # CHANCE while cards are to be dealt, TERMINAL once the game is over

    def is_terminal(self) -> bool:
        return self.phase == _GAME_OVER

    def returns(self) -> list[float]:
        """Per seat: +1 for the winning side, −1 for the others, 0 while the game goes on."""
        if self.result is None:
            return [0.0] * self.rules.players
        return [1.0 if self.rules.team_of[s] == self.result.winner else -1.0 for s in range(self.rules.players)]

    # --- reading the game (public and read-only, for plugins and bots) ------------------------
    # Everything outside the engine modules (state, exchange) reads a state through this block and
    # never through its private attributes (tests/test_architecture.py checks it).  Between hands
    # (and before the first deal) the hand's values are empty: no cards, no contract, -1, zeros.

    def _in_hand(self) -> bool:
        return bool(self.hands_log) and self.phase != _DEAL

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, sorted (of a hand laid out on the table, its face-up cards only)."""
        return tuple(self._held[seat]) if self.hands_log and self.phase != _DEAL else ()  # _in_hand(), inlined

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

    def trick_view(self) -> tuple[tuple[int, ...], int | None, int, tuple[int, ...]]:
        """``(trick, led_suit, trick_leader, tricks_won_by_seat)`` in one call: what a player reads at each card."""
        if self.phase != _PLAY:
            return (), None, -1, self.tricks_won_by_seat
        trick = self._trick
        return tuple(trick), self._led if trick else None, self._leader, tuple(self._won)

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
        may turn up in any suit."""
        if self.phase not in (_PLAY, _GAME_OVER) or seat in self._covered:
            return NOBODY
        table = self._table
        suit_of, plain = table.suit_of, table.legal_filter is None
        compulsory = table.joker_void_compulsory and plain
        tricks = [(t.leader, t.cards, t.named) for t in self.hands_log[-1].tricks]
        if self.phase == _PLAY and self._trick:
            tricks.append((self._leader, self._trick, self._named))
        void: set[int] = set()
        for leader, cards, named in tricks:
            led = named if named is not None else suit_of[cards[0]]
            player = leader
            for card in cards[1:]:
                player = self._next[player]
                suit = suit_of[card]
                if player == seat and led != NO_SUIT and suit != led and (suit != NO_SUIT or plain):
                    void.add(led)
                    if compulsory and suit != NO_SUIT:
                        void.add(NO_SUIT)
        return frozenset(void)

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
    # it changes cards a player may not see.  The hand log is public: the caller rewrites it to match.

    def start_at(self, totals: Sequence[int], number: int = 1) -> None:
        """Start the game where a real one stands: each team's total, and the number of the next deal.

        Before the first deal only (a record that starts at a disputed hand, a score sheet's start).
        """
        if self.deals or self.hands_log:
            raise ValueError("a game starts at a score only before its first deal")
        if len(totals) != len(self.totals) or number < 1:
            raise ValueError(f"a start needs {len(self.totals)} totals and a deal number from 1")
        self.totals = list(totals)
        self.deals = number - 1

    def redistribute(self, hands: dict[int, Sequence[int]] | None = None,
                     covered: dict[int, dict[int, int]] | None = None) -> None:
        """Give each seat of ``hands`` those cards in place of the ones it holds (the engine's per-suit
        view of the hands kept consistent), and each seat of ``covered`` (a hand laid out on the table) the
        face-down card under each of its face-up cards.  That the cards agree with the deck is the caller's business."""
        for seat, cards in (hands or {}).items():
            held = self._held[seat] = sorted(cards)
            if self._buckets:  # the play has begun: the hands are also split by suit
                self._buckets[seat] = _by_suit([held], self._suit_of)[0]
        for seat, under in (covered or {}).items():
            if sorted(under) != sorted(self._covered.get(seat, ())):
                raise ValueError(f"seat {seat}: face-down cards go under its face-up cards {self.covering(seat)}")
            self._covered[seat] = dict(under)
        self._legal_step = -1

    def deal(self, rng: random.Random) -> None:
        """Shuffle with ``rng`` and deal the next hand (the chance event)."""
        if self._reuse_deck is not None:  # the same cards again, unshuffled (AllPassed.same_cards)
            deck, self._reuse_deck = self._reuse_deck, None
        else:
            deck = _shuffled(self.rules.deck, rng)
        self._deal_from(deck)

    @property
    def deck_to_redeal(self) -> tuple[int, ...] | None:
        """After a hand everybody passed, where the auction rules say so (``AllPassed.same_cards``), the deck
        the next dealer deals again unshuffled (the next deal is then no chance event); None when the next
        deal is shuffled."""
        return tuple(self._reuse_deck) if self._reuse_deck is not None and self.phase == _DEAL else None

    def deal_deck(self, deck: Sequence[int]) -> None:
        """Deal the next hand from ``deck``, the whole deck in an order the caller drew (one card at a time, as
        OpenSpiel's chance nodes draw it): the packets go out as ``deal()`` deals a shuffled deck."""
        if self.phase != _DEAL:
            raise IllegalActionError("cards are dealt only between hands", rule=R.WRONG_PHASE)
        if sorted(deck) != sorted(self.rules.deck):
            raise IllegalActionError("the deck to deal is not exactly the ruleset's deck",
                                     rule="rule 2/6: every card of the deck is dealt once")
        if self._reuse_deck is not None and list(deck) != self._reuse_deck:
            raise IllegalActionError("the last deck must be dealt again unshuffled (deck_to_redeal)",
                                     rule=self.rules.auction.all_passed.rule)
        self._reuse_deck = None
        self._deal_from(list(deck))

    def _deal_from(self, deck: list[int]) -> None:
        pick_hands, pick_kitty, pick_dead = self.rules.deal_getters
        n = self.rules.players
        first = n - self.dealer - 1  # the dealer's left gets the first hand: seat s the (s - dealer - 1)th
        hands = [list(pick(deck)) for pick in pick_hands[first:] + pick_hands[:first]]
        self._deck_order = deck
        self._start_hand(hands, list(pick_kitty(deck)), list(pick_dead(deck)))

    def deal_cards(self, hands: Sequence[Sequence[int]], kitty: Sequence[int], dead: Sequence[int] = ()) -> None:
        """Deal given hands (by seat), kitty and dead hand, as from a record; checks every card is dealt once."""
        if self.phase != _DEAL:
            raise IllegalActionError("cards are dealt only between hands", rule=R.WRONG_PHASE)
        dealt = sorted([c for h in hands for c in h] + list(kitty) + list(dead))
        if dealt != sorted(self.rules.deck):
            raise IllegalActionError("the dealt cards are not exactly the ruleset's deck",
                                     rule="rule 2/6: every card of the deck is dealt once")
        sizes = [len(h) for h in hands]
        rules = self.rules
        if sizes != [rules.hand_size] * rules.players or len(kitty) != rules.kitty_size or len(dead) != rules.dead_size:
            raise IllegalActionError(f"hands of {sizes}, a kitty of {len(kitty)} and a dead hand of {len(dead)} "
                                     "do not match the deal", rule="rule 6: the deal pattern")
        self._deck_order = None
        self._start_hand([list(h) for h in hands], list(kitty), list(dead))

    def legal_actions(self) -> list[int]:
        """Sorted legal actions for the player to act (the list is cached: do not modify it)."""
        if self._legal_step == self.step and self._legal is not None:
            return self._legal
        phase = self.phase
        if phase == _PLAY:
            legal = self._legal_plays()
        elif phase == _AUCTION:
            legal = self._call_actions(self.rules.auction.legal_calls(self._bidding, self._turn))
            if self.rules.call_steps:
                legal = sorted(legal + self._offered(self.rules.call_steps))  # a step's ids are above every call's
        elif phase == _DISCARD:
            legal = [DISCARD + c for c in self._held[self._turn]]
        elif phase == _NOMINATE:
            legal = [NOMINATE + s for s in range(4)] + [NO_NOMINATION]
        elif phase == _STEP:
            legal = self._step.legal(self, self._turn)  # type: ignore[union-attr]
        else:
            legal = []
        self._legal, self._legal_step = legal, self.step
        return legal

    def _call_actions(self, calls: tuple[int, ...]) -> list[int]:
        """Calls as actions; memoised by identity, since auction rules return shared tuples."""
        cache = self.rules.call_actions
        hit = cache.get(id(calls))
        if hit is None or hit[0] is not calls:
            hit = cache[id(calls)] = (calls, [CALL + c for c in calls])
        return list(hit[1])

    def apply(self, action: int, *, seat: int | None = None) -> None:
        """Play ``action`` for the player to act; raises ``IllegalActionError`` naming the rule.

        ``seat``, when given, is who claims to act (a record's seat): acting out of turn is an error.
        """
        if seat is not None and seat != self.current_player():
            self._raise_out_of_turn(seat, action)
        legal = self._legal if self._legal_step == self.step and self._legal is not None else self.legal_actions()
        if action not in legal:
            raise self._why_illegal(action)
        self._apply(action)

    def apply_unchecked(self, action: int) -> None:
        """Play an action known to come from ``legal_actions()`` (the simulator's fast path)."""
        self._apply(action)

    def play_out(self, players: Sequence[Any], rng: random.Random, max_deals: int) -> None:
        """Drive the game to its end (or to ``max_deals`` deals) with one player per seat.

        Each player is asked ``act(state, legal)`` with the sorted legal actions and is trusted to
        return one of them.  The play phase runs in its own tight loop: no validation, no dispatch.
        """
        rules = self.rules
        deciders = [players[c] for c in rules.controller]  # a seat may be played by another (its controller)
        draws = [getattr(p, "uniform_draw", None) for p in deciders]
        uniform = all(draws)  # every seat picks uniformly: the engine draws for them at table speed
        acts = [] if uniform else [p.act for p in deciders]
        while True:
            seat = self._turn
            if seat >= 0:
                if self.phase == _PLAY and not self._trick:  # the loops below start at a lead
                    if uniform and self._table.legal_filter is None and not rules.lead_steps:
                        self._uniform_play(draws)  # type: ignore[arg-type]
                    else:
                        self._play_loop(acts, draws if uniform else None)  # type: ignore[arg-type]
                elif self.phase == _AUCTION and uniform and rules.plain_hands:
                    self._uniform_hand(draws)  # type: ignore[arg-type]
                elif self.phase == _AUCTION and rules.plain_auction:
                    if uniform:
                        self._uniform_auction(draws)  # type: ignore[arg-type]
                        self._auction_over()
                    else:
                        self._auction_loop(acts)
                elif uniform and self.phase == _DISCARD:  # legal: the hand, in order
                    cards = self._held[seat]
                    self.step += 1
                    self._discard(cards[int(draws[seat]() * len(cards))])  # type: ignore[misc]
                else:
                    legal = self.legal_actions()
                    self._apply(legal[int(draws[seat]() * len(legal))] if uniform  # type: ignore[misc]
                                else acts[seat](self, legal))
            elif seat == CHANCE and self.deals < max_deals:
                self.deal(rng)
            else:
                return

    def _play_loop(self, acts: list[Any], draws: list[Callable[[], float]] | None = None) -> None:
        """The play phase with every table in a local: what ``_legal_plays``, ``_play`` and
        ``_finish_trick`` do, card by card, without their calls.  The record tests replay simulated
        games through ``apply()``, so the two paths are checked against each other.

        Players see the state as ``apply()`` would leave it (turn, step, trick, led suit); the trick's
        best card so far is kept in locals (``clone()`` works it out again)."""
        table = self._table
        if table.legal_filter is not None or self.rules.lead_steps:  # a variant adds to the plays: no shortcuts
            while self.phase == _PLAY:
                self.step += 1
                legal = self._legal_plays()
                seat = self._turn
                self._apply_play(acts[seat](self, legal) if draws is None else legal[int(draws[seat]() * len(legal))])
            return
        suit_of, power, follows = table.suit_of, table.power, table.follows
        buckets, held, nxt, size, unled = self._buckets, self._held, self._next, self._trick_size, self._unled
        plain, misere_side = self._inline_trick_end()
        seat = self._turn
        while True:
            self.step += 1
            hand = buckets[seat]
            action = acts[seat](self, self._plain_legal_plays() if hand[NO_SUIT] else list(held[seat]))
            if action < JOKER_LEAD:
                card, named, led = action, None, suit_of[action]
            else:
                n, named = divmod(action - JOKER_LEAD, 4)
                card, led = JOKER_BASE + n, named
            _take(hand[suit_of[card]], card)
            _take(held[seat], card)
            if led in unled:
                unled.remove(led)
            row = power[led]
            best, winner, leader = row[card], seat, seat
            trick = self._trick
            trick.append(card)
            self._led, self._named, self._power_led = led, named, row
            for _ in range(size - 1):
                seat = self._turn = nxt[seat]
                self.step += 1
                hand = buckets[seat]
                card = acts[seat](self, list(follows(hand, held[seat], led)))
                strength = row[card] if card < JOKER_LEAD else self._named_joker_power(card, led)
                if card >= JOKER_LEAD:
                    card = self._name_followers_joker(card)
                _take(hand[suit_of[card]], card)
                _take(held[seat], card)
                trick.append(card)
                if strength > best:
                    best, winner = strength, seat
            seat = self._close_trick(plain, misere_side, leader, trick, winner, named)
            if seat < 0:
                return

    def _close_trick(self, plain: bool, misere_side: frozenset[int] | tuple[()], leader: int, trick: list[int],
                     winner: int, named: int | None) -> int:
        """A trick's end for the play loops: log it, count it, score the hand if it is over; the next
        leader, or -1 when the hand is over (non-plain hands go through ``_finish_trick``)."""
        self._winner = winner
        if not plain:
            self._finish_trick()
            return self._turn if self.phase == _PLAY else -1
        log_tricks = self.hands_log[-1].tricks
        log_tricks.append(_trick(leader, trick, winner, named, self._follow_names))
        self._follow_names = None
        self._trick = []
        self._won[winner] += 1
        if len(log_tricks) == self.rules.hand_size or winner in misere_side:
            self._score_hand()
            return -1
        self._leader = self._turn = winner
        return winner

    def _inline_trick_end(self) -> tuple[bool, frozenset[int] | tuple[()]]:
        """Whether the play loops may end a trick themselves (hands laid out on the table, open hands and per-trick
        checks go through ``_finish_trick``), and the seats whose trick ends a misère early."""
        plain = not self._covered and not self._open and self.rules.trick_check is None
        return plain, self._side if self._ends_early and not self.misere_play_out else ()

    def _uniform_play(self, draws: list[Callable[[], float]]) -> None:
        """``_play_loop`` for players who all pick ``legal[int(draw() * len(legal))]``: the engine
        draws for them, taking the card straight from the hand (the same game, card for card; a test
        plays both loops side by side).  Nobody looks at the state during the hand, so the turn, the
        step and the trick in progress are brought up to date when the loop stops."""
        _uniform_tricks(self, draws)

    def _uniform_hand(self, draws: list[Callable[[], float]]) -> None:
        """From the first call to the first lead, for uniform players under a ruleset with
        ``Rules.plain_hands``: the auction, the kitty and the discards (rule 14) in one go, each discard
        drawn as ``legal_actions()`` would list it (the same game as one ``apply()`` at a time: the
        engine-path tests play both).  A nomination, and a hand everybody passed, go back to the
        general steps."""
        self._uniform_auction(draws)
        rules, bidding, log = self.rules, self._bidding, self.hands_log[-1]
        holder = bidding.holder
        if holder < 0:
            self._all_passed()
            return
        contract = rules.ladder[bidding.standing]
        log.contract, log.contractor = contract, holder
        self._side = rules.team_seats[holder]
        held = self._held[holder]
        if contract.kitty:
            held += log.kitty
            held.sort()
            draw, discards = draws[holder], log.discards
            for _ in range(rules.kitty_size):
                discards.append(held.pop(int(draw() * len(held))))
            self.step += rules.kitty_size
        if held[-1] >= JOKER_BASE and rules.joker_rules(contract).nominate:  # rule 19 (the hand is sorted)
            self.phase, self._turn = _NOMINATE, holder
        else:
            self._start_play(None)

    def _uniform_auction(self, draws: list[Callable[[], float]]) -> None:
        """Rules 8–12 for uniform players under a plain auction (``Rules.plain_auction``: the calls
        depend only on the standing bid), each call drawn as ``legal_actions()`` would list it; the
        state is brought up to date when the auction is over (nobody looks at it before)."""
        _uniform_calls(self, draws)

    def _auction_loop(self, acts: list[Any]) -> None:
        """Rules 8–12 as ``AuctionRules`` plays them, without its calls, for players who act: for a
        ruleset whose calls depend only on the standing bid (``Rules.plain_auction``).  Each player
        sees the state as ``apply()`` would leave it."""
        bidding = self._bidding
        offers, passed, calls, n = self.rules.calls_over_actions, bidding.passed, bidding.calls, bidding.players
        next_seat = self.rules.next_seat
        passes, seat = sum(passed), self._turn
        while True:
            self.step += 1
            call = acts[seat](self, list(offers[bidding.standing + 1])) - CALL
            calls.append((seat, call))
            if call == PASS_CALL:
                passed[seat] = True
                passes += 1
            else:
                bidding.standing, bidding.holder = call, seat
            if closed(passes, n, bidding.holder):
                bidding.over = True
                self._auction_over()
                return
            seat = next_seat[seat]
            while passed[seat]:
                seat = next_seat[seat]
            bidding.turn = self._turn = seat

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows now; other hands, the kitty and others' discards stay hidden."""
        log = self.hands_log[-1] if self.hands_log and self.phase != _DEAL else None
        contractor = log.contractor if log else -1
        trick = self._trick if self.phase == _PLAY else []
        hand, discards, shown = self.cards_seen(seat)
        exposed = next((cards for s, cards in shown if s == contractor), None)
        return Observation(
            seat=seat, phase=self.phase, dealer=self.dealer,
            hand=hand,
            calls=tuple(log.calls) if log else (),
            contract=log.contract if log else None, contractor=contractor,
            nomination=log.nomination if log else None,
            discards=discards,
            tricks=tuple((t.leader, tuple(t.cards), t.winner, t.named) for t in log.tricks) if log else (),
            current_trick=tuple(trick), led=self._led if trick else None, leader=self._leader if log else -1,
            tricks_won=tuple(self._won) if log else (), totals=tuple(self.totals),
            open_hand=exposed, open_hands=shown,
            sitting_out=self._sitting_out if log else -1, sitting=tuple(sorted(self._out)) if log else (),
            step=self._step.name if self._step is not None and self.phase == _STEP else None,
            steps=self.public_steps(),
            seen=private_steps(self, seat) if log and log.steps else {},
        )

    def cards_seen(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]:
        """The cards ``seat`` sees now, as ``observation(seat)`` gives them: its own hand (none while a step
        hides it), its own discards, and every other seat's exposed cards as (seat, cards)."""
        if not self.hands_log or self.phase == _DEAL:
            return (), (), ()
        held = self._held
        hand = () if self.phase == _STEP and self._hands_unseen() else tuple(held[seat])
        discards = self._discards_made_by(seat) if self.hands_log[-1].discards else ()
        if not self._covered and not self._open_hand_shown:  # nothing on the table (``_public_seats``)
            return hand, discards, ()
        return hand, discards, tuple([(s, tuple(held[s])) for s in self._public_seats() if s != seat])

    def public_steps(self) -> dict[str, Any]:
        """What every seat may know of the plugins' steps this hand, by step name (``Step.public``)."""
        if not self.hands_log or self.phase == _DEAL or not self.hands_log[-1].steps:
            return {}
        log = self.hands_log[-1]
        shown = ((step.name, step.public(self, log)) for step in self.rules.steps if step.name in log.steps)
        return {name: public for name, public in shown if public is not None}

    def _hands_unseen(self) -> bool:
        return self.phase == _STEP and self._step is not None and self._step.hides_own_hand

    def clone(self) -> GameState:
        """An independent copy: the hand in progress and its log copied; the logs of the hands before it
        shared (nothing changes a hand's log once the next one is dealt), and the rules."""
        other = GameState.__new__(GameState)
        _copy_slots(self, other)
        other.totals = list(self.totals)
        other.hands_log = [*self.hands_log[:-1], _copy_log(self.hands_log[-1], self.rules)] if self.hands_log else []
        other._legal = None
        other._legal_step = -1
        if self.phase not in (_DEAL, _GAME_OVER):
            other._held = [list(h) for h in self._held]
            other._buckets = [[list(b) for b in bs] for bs in self._buckets] if self._buckets else []
            other._trick = list(self._trick)
            other._won = list(self._won)
            other._covered = {seat: dict(cards) for seat, cards in self._covered.items()}
            other._unled = list(self._unled)
            if self.phase == _PLAY and self._trick:
                other._best, other._winner = self._trick_standing()
            other._bidding = Bidding(players=self._bidding.players, turn=self._bidding.turn,
                                     standing=self._bidding.standing, holder=self._bidding.holder,
                                     passed=list(self._bidding.passed), calls=other.hands_log[-1].calls,
                                     over=self._bidding.over)
        return other

    # --- for the plugins' steps (fivehundred.rules.steps): what a step reads and changes ------------

    @property
    def current_step(self) -> Step | None:
        """The plugin step in progress (``Phase.STEP``), or None."""
        return self._step if self.phase == _STEP else None

    @property
    def hand_log(self) -> HandLog:
        """The log of the hand being played (the last one dealt)."""
        return self.hands_log[-1]

    def set_contracting_side(self, seats: frozenset[int]) -> None:
        """A step decides who partners the contractor this hand (a called partner)."""
        self._side = frozenset(seats)

    def set_contract(self, contract: Contract) -> None:
        """A step changes what the contract requires (a slam call: every trick)."""
        self.hands_log[-1].contract = contract

    def pass_card(self, card: int, giver: int, receiver: int) -> None:
        """A step moves a card from one hand to another before the play (a gift)."""
        if self.phase == _PLAY:
            raise IllegalActionError("cards change hands only before the play", rule=R.WRONG_PHASE)
        self._held[giver].remove(card)
        insort(self._held[receiver], card)

    def play_every_trick(self) -> None:
        """A step asks for the hand to be played to its last trick (a breach counted against a misère)."""
        self.hands_log[-1].played_out = True

    @property
    def auction_barred(self) -> frozenset[int]:
        """Seats that take no part in this hand's auction (the auction rules' ``silent`` seats, and those they
        bar after the last hand, ``AuctionRules.barred_after``)."""
        return frozenset(s for s, out in enumerate(self._bidding.passed) if out) if self.hands_log else NOBODY

    def lay_out(self, seat: int, under: dict[int, int]) -> None:
        """A step lays ``seat``'s hand out on the table as it is dealt (from ``Step.begin``): ``under`` maps
        face-up cards to the face-down card under each, which leaves the hand until the card over it has
        been played and its trick is over.  Every seat sees the face-up cards; the seat shows no void."""
        held, down = self._held[seat], set(under.values())
        if self.phase != _DEAL or self.hands_log[-1].calls or not down | set(under) <= set(held) or down & set(under):
            raise ValueError(f"seat {seat}: a hand is laid out from its own cards as it is dealt")
        self._covered[seat] = dict(under)
        self._held[seat] = [card for card in held if card not in down]

    def throw_in(self, seat: int | None = None) -> None:
        """A step throws the deal in before the play (a misdeal): the same dealer deals again.  ``seat``,
        when given, threw it in by a call, which joins the hand's calls as ``THROWN_IN_CALL``."""
        if self.phase not in (_DEAL, _AUCTION, _STEP) or self._bidding.over:
            raise IllegalActionError("a deal is thrown in only before the auction ends", rule=R.WRONG_PHASE)
        log = self.hands_log[-1]
        if seat is not None:
            log.calls.append((seat, THROWN_IN_CALL))
        log.misdeal = True
        self._redeal()

    def open_bid(self, seat: int, call: int) -> None:
        """A step before the auction makes a bid that stands when the auction opens (a blind bid): the
        calls then go on from the bidder's left."""
        bidding = self._bidding
        bidding.standing, bidding.holder, bidding.turn = call, seat, seat
        self.rules.auction.next_turn(bidding)

    def owe_discards(self, count: int) -> None:
        """A step asks the contractor for ``count`` more discards (after receiving a card)."""
        self.hands_log[-1].discards_owed += count

    # --- text ----------------------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        step = self.rules.step_of_action.get(action)
        return step.text(action) if step is not None else action_text(action, self.rules.call_text)

    def action_kind(self, action: int) -> str:
        """The kind of an action: the engine's (``fivehundred.rules.actions.action_kind``) or its step's."""
        step = self.rules.step_of_action.get(action)
        return step.kind(action) if step is not None else action_kind(action)

    def parse_action(self, text: str) -> int:
        """The action ``text`` means in the current phase: ``7H``/``pass``, ``discard 4D``,
        ``nominate H``/``nominate none``, ``10C`` or ``JK:S`` for a joker led as spades; in a plugin's
        step, as the step reads it (``call AS``/``alone``, ``slam``, ``give 5C``, ``breach``…)."""
        if self.phase == _STEP and self._step is not None:
            return self._step.parse(text)
        rules = self.rules
        offering = rules.lead_steps if self.phase == _PLAY else rules.call_steps if self.phase == _AUCTION else ()
        for step in offering:  # what steps offer beside the cards (a claim) or the calls (a misdeal)
            try:
                return step.parse(text)
            except ValueError:
                pass
        return parse_action_text(text, self.phase, self.rules.parse_call)

    # --- the hand ------------------------------------------------------------------------

    def _start_hand(self, hands: list[list[int]], kitty: list[int], dead: list[int]) -> None:
        rules = self.rules
        self.deals += 1
        log = HandLog(self.deals, self.dealer, hands, kitty, dead)
        self.hands_log.append(log)
        self._held = list(map(sorted, hands))
        self._covered = {}
        self._buckets = []
        self._trick = []
        self._won = [0] * rules.players
        self._unled = [0, 1, 2, 3]
        self._best = self._winner = self._leader = self._sitting_out = -1
        self._follow_names = self._named = None
        self._open_hand_shown = False
        self._side = self._out = NOBODY
        bidding = self._bidding = rules.auction.start(self.dealer, rules.players, self._barred)
        self._barred = NOBODY  # a bar lasts one auction
        bidding.calls = log.calls
        self.step += 1
        for step in rules.beginning_steps:
            step.begin(self)
        if not log.misdeal:  # a step may throw the deal in as soon as it is dealt
            self._open_auction()

    def _open_auction(self) -> None:
        """The first call, once the plugins' steps before the auction are done."""
        if not self._to_step(self.rules.pre_auction_steps):
            self.phase, self._turn = _AUCTION, self._bidding.turn

    def _apply(self, action: int) -> None:
        self.step += 1
        phase = self.phase
        if phase == _PLAY:
            self._apply_play(action)
        elif phase == _AUCTION:
            if action < FIRST_STEP_ACTION:
                self._call(action - CALL)
            else:  # a step's offer beside the calls
                self.rules.step_of_action[action].apply(self, self._turn, action)
        elif phase == _DISCARD:
            self._discard(action - DISCARD)
        elif phase == _NOMINATE:
            self._nominate(None if action == NO_NOMINATION else action - NOMINATE)
        elif phase == _STEP:
            step = self._step
            assert step is not None
            step.apply(self, self._turn, action)
            self._step = None
            if step.stage == "before-auction":
                self._open_auction()
            else:
                self._advance()
        else:
            raise IllegalActionError("no action is possible now", rule=R.WRONG_PHASE)

    def _call(self, call: int) -> None:
        bidding = self._bidding
        self.rules.auction.apply(bidding, self._turn, call)
        if not bidding.over:
            self._turn = bidding.turn
        else:
            self._auction_over()

    def _auction_over(self) -> None:
        bidding = self._bidding
        if bidding.holder < 0:
            self._all_passed()
        else:
            self._take_kitty(bidding.holder, self.rules.ladder[bidding.standing])

    def _all_passed(self) -> None:
        """Rule 13, as the auction rules say (``AllPassed``): play the deal with no contractor, deal again,
        or pass the deal on (with the same cards, unshuffled)."""
        policy = self.rules.auction.all_passed
        if policy.played_as is not None:
            self._take_kitty(-1, policy.played_as)
        elif self._redeals < policy.redeals:
            self._redeals += 1
            self._redeal()
        else:
            if policy.same_cards:
                self._reuse_deck = self._deck_order
            self._next_deal()

    def _redeal(self) -> None:
        """The same dealer deals again."""
        self.phase = _DEAL
        self._turn = CHANCE

    def _legal_plays(self) -> list[int]:
        legal = self._plain_legal_plays()
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
        seat = self._turn
        return [a for step in steps if step.actor(self) == seat for a in step.legal(self, seat)]

    def take_remaining_tricks(self, seat: int) -> None:
        """A step of the play gives ``seat`` every trick still to play (an upheld claim): the hand is
        over and scored.  Only between tricks."""
        if self.phase != _PLAY or self._trick:
            raise IllegalActionError("tricks are given only when a trick is about to be led", rule=R.WRONG_PHASE)
        self._won[seat] += self.rules.hand_size - len(self.hands_log[-1].tricks)
        self._score_hand()

    def _plain_legal_plays(self) -> list[int]:
        """Rules 16, 21, 22: follow suit; a free joker only when void (compulsory in misère); leading it."""
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
        seat = self._turn
        suit = self._suit_of[card]
        self._buckets[seat][suit].remove(card)
        self._held[seat].remove(card)
        trick = self._trick
        if trick:
            power = self._power_led[card]
            if named is not None:
                power = self._named_joker_power(JOKER_LEAD + 4 * (card - JOKER_BASE) + named, self._led)
                self._name_followers_joker(JOKER_LEAD + 4 * (card - JOKER_BASE) + named)
            if power > self._best:
                self._best = power
                self._winner = seat
        else:
            led = suit if named is None else named
            self._led = led
            self._named = named
            if led in self._unled:
                self._unled.remove(led)
            self._power_led = self._table.power[led]
            self._best = self._power_led[card]
            self._winner = seat
        trick.append(card)
        if len(trick) == self._trick_size:
            self._finish_trick()
        else:
            self._turn = self._next[seat]

    def _trick_standing(self) -> tuple[int, int]:
        """The best card's strength in the current trick, and its player (as ``_play`` keeps them)."""
        seat, best, winner = self._leader, -1, -1
        names = self._follow_names or {}
        for i, card in enumerate(self._trick):
            if i and card in names:
                strength = self._named_joker_power(JOKER_LEAD + 4 * (card - JOKER_BASE) + names[card], self._led)
            else:
                strength = self._power_led[card]
            if i == 0 or strength > best:
                best, winner = strength, seat
            seat = self._next[seat]
        return best, winner

    def _apply_play(self, action: int) -> None:
        if action < JOKER_LEAD:
            self._play(action, None)
        elif action >= FIRST_STEP_ACTION:  # a step's offer at the lead
            self.rules.step_of_action[action].apply(self, self._turn, action)
        else:
            n, suit = divmod(action - JOKER_LEAD, 4)
            self._play(JOKER_BASE + n, suit)

    def _name_followers_joker(self, action: int) -> int:
        """Remember the suit a follower named for a joker; return the joker."""
        n, named = divmod(action - JOKER_LEAD, 4)
        if self._follow_names is None:
            self._follow_names = {}
        self._follow_names[JOKER_BASE + n] = named
        return JOKER_BASE + n

    def _named_joker_power(self, action: int, led: int) -> int:
        """A joker played with a named suit is the top card of that suit, and of no other."""
        n, named = divmod(action - JOKER_LEAD, 4)
        return self._table.power[named][JOKER_BASE + n] if named == led else 0

    def _finish_trick(self) -> None:
        log = self.hands_log[-1]
        winner = self._winner
        log.tricks.append(_trick(self._leader, self._trick, winner, self._named, self._follow_names))
        self._follow_names = None
        if self._covered:
            self._turn_up(log.tricks[-1])
        self._trick = []
        self._won[winner] += 1
        if self._open and len(log.tricks) == 1:
            self._open_hand_shown = True  # rule 18
        lost_misere = self._ends_early and winner in self._side and not self.misere_play_out
        check = self.rules.trick_check
        if lost_misere or len(log.tricks) == self.rules.hand_size or (check is not None and check(self)):
            self._score_hand()
        else:
            self._leader = self._turn = winner

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

    # --- explaining illegal actions ------------------------------------------------------

    def _raise_out_of_turn(self, seat: int, action: int) -> None:
        name = self.rules.seats[seat] if 0 <= seat < self.rules.players else str(seat)
        text = self.action_to_str(action)
        if self.phase == _AUCTION and self._bidding.passed[seat]:
            raise IllegalActionError(f"{name} calls {text} after passing", rule=R.PASSED, seat=name, action=text)
        if self.phase == _AUCTION and self._bidding.over:
            raise IllegalActionError(f"{name} calls after the auction ended", rule=R.CONTRACTOR_RAISE,
                                     seat=name, action=text)
        actor = self.current_player()
        expected = self.rules.seats[actor] if actor >= 0 else "nobody"
        raise IllegalActionError(f"{name} acts ({text}) but it is {expected}'s turn", rule=R.OUT_OF_TURN,
                                 seat=name, action=text)

    def _why_illegal(self, action: int) -> IllegalActionError:
        seat = self.current_player()
        name = self.rules.seats[seat] if seat >= 0 else "nobody"
        try:
            text = self.action_to_str(action)
        except (IndexError, KeyError):
            text = str(action)

        def error(message: str, rule: str) -> IllegalActionError:
            return IllegalActionError(f"{name}: {text}: {message}", rule=rule, seat=name, action=text)

        step = self._step if self.phase == _STEP else None
        if step is not None and action in step.actions:
            return error(step.why_illegal(self, seat, action), step.rule)
        expected = {_AUCTION: "call", _DISCARD: "discard", _NOMINATE: "nominate", _PLAY: "play"}.get(self.phase)
        if step is not None:
            expected = step.kind(step.actions.start)
        kind = self.action_kind(action)
        if kind == "unknown":
            return error("no such action", R.WRONG_PHASE)
        offer = self.rules.step_of_action.get(action) if self.phase in (_PLAY, _AUCTION) else None
        if offer is not None and offer.stage in ("lead", "call"):
            return error(offer.why_illegal(self, seat, action), offer.rule)
        if expected is None or (kind != expected and not (expected == "play" and kind == "lead-joker")):
            where = f"the {step.name} step" if step is not None else f"the {self.phase.name.lower()} phase"
            return error(f"a {kind} is not possible in {where}", R.WRONG_PHASE)
        if self.phase == _AUCTION:
            rung = action - CALL
            if rung >= len(self.rules.ladder):
                return error("no such call", R.NOT_ON_LADDER)
            why = self.rules.auction.why_illegal(self._bidding, seat, rung)
            if why is not None:
                return error(*why)
            contract = self.rules.ladder[rung]
            if rung <= self._bidding.standing:
                standing = self.rules.call_text(self._bidding.standing)
                return error(f"does not beat the standing bid {standing}", R.NOT_HIGHER)
            if contract.requires_standing is not None:
                needed = self.rules.call_text(contract.requires_standing)
                rule = R.MISERE_NEEDS_SEVEN if contract.kind == "misere" else f"ladder: {contract.call} needs {needed}"
                return error(f"needs a standing bid of at least {needed}", rule)
            return error("not a legal call now", R.NOT_HIGHER)
        if self.phase == _DISCARD:
            return error("the card is not in the hand discarding", R.DISCARD)
        if self.phase == _NOMINATE:
            return error("not a suit", R.NOMINATE)
        return self._why_illegal_play(action, error)

    def _why_illegal_play(self, action: int, error: Any) -> IllegalActionError:
        seat = self._turn
        table = self._table
        if table.explain_illegal is not None:  # a variant's own restriction names its own rule
            found = table.explain_illegal(self, seat, action, self._plain_legal_plays())
            if found is not None:
                return error(*found)
        named = None
        card = action
        if action >= JOKER_LEAD:
            n, named = divmod(action - JOKER_LEAD, 4)
            card = JOKER_BASE + n
        if card not in self._held[seat]:
            return error("the card is not in this hand", R.NOT_IN_HAND)
        free = card in table.free_jokers
        if self._trick:
            if named is not None:
                return error("a suit is named only when leading the joker", R.JOKER_NAME)
            hand = self._buckets[seat]
            if table.follows(hand, self._held[seat], self._led) is hand[self._led]:
                rule = R.JOKER_ON_LEAD if free else R.FOLLOW_SUIT
                return error(f"holds a card of the suit led ({SUIT_LETTERS[self._led]})", rule)
            return error("a player void in the suit led must play the joker", R.JOKER_COMPULSORY)
        if free and named is None:
            return error("a led joker must name a suit (e.g. JK:H)", R.JOKER_LEAD_SUIT)
        if named is not None and not free:
            return error("a suit is named only for a free joker", R.JOKER_NAME)
        if not self._unled:
            return error("every suit has been led and this is not the last trick", R.JOKER_LEAD_LATE)
        return error(f"{SUIT_LETTERS[named or 0]} has already been led", R.JOKER_LEAD_SUIT)




def _uniform_calls(state: GameState, draws: list[Callable[[], float]]) -> None:
    """``GameState._uniform_auction``, typed by ``state.pxd`` as ``_uniform_tricks`` is."""
    rules, bidding = state.rules, state._bidding
    offers, next_seat, passed, calls, n = rules.calls_over_actions, rules.next_seat, bidding.passed, \
        bidding.calls, rules.players
    passes, standing, holder, seat, step = sum(passed), bidding.standing, bidding.holder, state._turn, state.step
    while True:
        step += 1
        offered = offers[standing + 1]
        draw = draws[seat]()
        call = offered[int(draw * len(offered))] - CALL
        calls.append((seat, call))
        if call == PASS_CALL:
            passed[seat] = True
            passes += 1
        else:
            standing, holder = call, seat
        if closed(passes, n, holder):
            break
        seat = next_seat[seat]
        while passed[seat]:
            seat = next_seat[seat]
    state.step = step
    bidding.standing, bidding.holder, bidding.turn, bidding.over = standing, holder, seat, True


def _uniform_tricks(state: GameState, draws: list[Callable[[], float]]) -> None:
    """``GameState._uniform_play``, a function of the module so that the compiled engine can type its
    locals (``state.pxd``: C integers and lists; the pure-Python engine ignores the file)."""
    table = state._table
    suit_of, power, follows = table.suit_of, table.power, table.follows
    buckets, held, nxt, size, unled = state._buckets, state._held, state._next, state._trick_size, state._unled
    plain, misere_side = state._inline_trick_end()
    log_tricks, won = state.hands_log[-1].tricks, state._won
    track_unled = bool(table.free_jokers)  # only a free joker's lead (rule 22) asks which suits were led
    hand_size = state.rules.hand_size
    tricks_left = first_left = hand_size - len(log_tricks)
    seat = state._turn
    while True:
        hand, cards = buckets[seat], held[seat]
        named = None
        jokers = hand[NO_SUIT]
        if jokers:  # a free joker may be led naming a suit (rule 22): drawn as _plain_legal_plays lists it
            others = len(cards) - len(jokers)  # the jokers sort last
            suits = table.joker_lead_suits(unled, hand_size - len(log_tricks), not others)
            draw = draws[seat]()
            i = int(draw * (others + len(jokers) * len(suits)))
            if i < others:
                card = cards.pop(i)
            else:
                n, s = divmod(i - others, len(suits))
                card, named = jokers[n], suits[s]
                cards.remove(card)
        else:
            draw = draws[seat]()
            card = cards.pop(int(draw * len(cards)))
        led = suit_of[card] if named is None else named
        hand[suit_of[card]].remove(card)
        if track_unled and led in unled:
            unled.remove(led)
        row = power[led]
        best, winner, leader = row[card], seat, seat
        trick = [card]
        for _ in range(size - 1):
            seat = nxt[seat]
            hand, cards = buckets[seat], held[seat]
            pool = follows(hand, cards, led)  # drawn from as _plain_legal_plays lists it
            draw = draws[seat]()
            card = pool.pop(int(draw * len(pool)))
            if pool is cards:
                hand[suit_of[card]].remove(card)
            else:
                cards.remove(card)
            trick.append(card)
            strength = row[card]
            if strength > best:
                best, winner = strength, seat
        if plain:  # _close_trick's plain branch, with the state brought up to date only at the end
            log_tricks.append(_trick(leader, trick, winner, named, None))
            won[winner] += 1
            tricks_left -= 1
            if tricks_left and winner not in misere_side:
                seat = winner
                continue
            state.step += (first_left - tricks_left) * size
            state._trick, state._led, state._named, state._power_led = [], led, named, row
            state._leader, state._winner = leader, winner
            state._score_hand()
            return
        # hands laid out, open hands, per-trick checks: the general trick end
        state.step += size
        state._trick, state._led, state._named, state._power_led, state._winner = trick, led, named, row, winner
        state._finish_trick()
        if state.phase != _PLAY:
            return
        seat = state._turn


def _straight_line(name: str, lines: Sequence[str]) -> Callable[..., None]:
    """A function of ``(src, dst)`` made of ``lines``: straight-line attribute assignments cost a fraction
    of a getattr/setattr loop, and ``clone()`` runs in the sampling bots' inner loops."""
    namespace: dict[str, Any] = {}
    exec(f"def {name}(src, dst=None):\n" + "".join(f"    {line}\n" for line in lines), namespace)
    return cast(Callable[..., None], namespace[name])


_SLOTS = Exchange.__slots__ + GameState.__slots__
_HAND_SLOTS = tuple(name for name in getattr(GameState, "__annotations__", ()) if name in _SLOTS)
"""The attributes of a hand in progress (declared in the class body): None until a hand is dealt.  (Compiled,
``GameState`` is an extension type, without annotations, whose fields start as None: none to clear.)"""
_clear_slots = _straight_line("_clear_slots", [f"src.{name} = None" for name in _HAND_SLOTS] or ["pass"])
_copy_slots = _straight_line("_copy_slots", [f"dst.{name} = src.{name}" for name in _SLOTS])
"""Every attribute of a state, shared (``clone`` then copies what is mutable)."""
_copy_log_fields = _straight_line("_copy_log_fields", [f"dst.{f.name} = src.{f.name}"
                                                       for f in dataclasses.fields(HandLog)])


def _copy_log(log: HandLog, rules: Rules) -> HandLog:
    copy = object.__new__(HandLog)
    _copy_log_fields(log, copy)
    copy.calls, copy.discards = list(log.calls), list(log.discards)
    copy.steps = {step.name: step.copy_data(log.steps[step.name]) for step in rules.steps if step.name in log.steps}
    copy.discarders = None if log.discarders is None else list(log.discarders)
    copy.aside = {seat: list(cards) for seat, cards in log.aside.items()} if log.aside else {}
    copy.tricks = [Trick(t.leader, list(t.cards), t.winner, t.named, t.follow_names) for t in log.tricks]
    copy.tricks_won, copy.scores, copy.totals = list(log.tricks_won), list(log.scores), list(log.totals)
    return copy


def _shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """``cards`` in a uniformly random order: Fisher–Yates, each position drawn by Lemire's
    multiply-and-shift from the next byte of ``rng.randbytes`` (two bytes for a position among more than
    256), a draw that would favour a position rejected, so that every order is exactly as likely.  One
    call for the bytes of a whole deck: the generator is asked once a deal, not once a card."""
    deck = list(cards)
    n = len(deck)
    if n > 1 << 16:
        raise ValueError(f"a deck of {n} cards: the shuffle draws at most two bytes a position (65,536 cards)")
    # A byte a position (two above 256), and 9 spare for rejected draws: a 43-card deck rejects 1.6 on
    # average, and asks for more about once in 10**5 deals.
    data = rng.randbytes(n + max(0, n - 256) + 8)
    used = 0
    for i in range(n - 1, 0, -1):
        size = i + 1
        wide = size > 256
        while True:
            if used + wide >= len(data):
                data = rng.randbytes(16)
                used = 0
            if wide:
                m = (data[used] | data[used + 1] << 8) * size
                used += 2
                low, j = m & 0xFFFF, m >> 16
                if low >= size or low >= 0x10000 % size:  # Lemire: the 2**16 % size lowest are rejected
                    break
            else:
                m = data[used] * size
                used += 1
                low, j = m & 0xFF, m >> 8
                if low >= size or low >= 0x100 % size:
                    break
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def new_game(ruleset: Any, seed: int | str, **kwargs: Any) -> tuple[GameState, random.Random]:
    """A new game and the generator that deals it; the first dealer is drawn from that generator
    (``fivehundred.engine.seeding``: the same seed gives the same generator in any process)."""
    from .seeding import deal_generator, game_key

    rng = deal_generator(game_key(seed))
    rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset)
    return GameState(rules, rng=rng, **kwargs), rng
