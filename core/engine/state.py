"""The game as an explicit state machine, in the style of OpenSpiel.

deal → auction → kitty exchange → nomination → play → score → next deal, or game over.

``current_player()`` names who acts (a seat index, ``CHANCE`` when cards must be dealt,
``TERMINAL`` when the game is over); ``legal_actions()`` lists the legal actions as sorted ints;
``apply(action)`` validates and plays one.  The deal is the only chance event: ``deal(rng)``
shuffles with the caller's seeded generator, ``deal_cards(hands, kitty)`` replays a recorded one.
"""

# Compiled (COMPILED_MODULES, core/engine/build.py): state.pxd declares ``GameState`` an extension type (its fields
# on ``Exchange``, exchange.pxd), its read methods cpdef, and C-typed locals for ``_uniform_calls``.

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

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
from fivehundred.rules.auction import Bidding, closed, next_caller
from fivehundred.rules.effects import Effect, SetSide
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import NOBODY, GameResult, PlayTable

from . import illegal, parsing
from .effects import carry_out
from .exchange import Exchange, _by_suit
from .hand_log import HandLog, Trick, copy_log, new_log, straight_line  # noqa: F401 - Trick re-exported
from .observation import Observation, observe
from .play import Play, _tricks
from .shuffle import shuffled as _shuffled

# Module constants: an enum member lookup costs more than the comparison it feeds.
_DEAL, _AUCTION, _DISCARD, _NOMINATE, _PLAY, _GAME_OVER, _STEP = (
    Phase.DEAL, Phase.AUCTION, Phase.DISCARD, Phase.NOMINATE, Phase.PLAY, Phase.GAME_OVER, Phase.STEP)





class GameState(Play):
    """One game of Five Hundred under a compiled ruleset (see ``fivehundred.rules.manager.Rules``)."""

    __slots__ = ()
    """(The state's slots are ``Exchange``'s and ``Play``'s.)"""

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
    _leader: int
    _sitting_out: int
    _open_hand_shown: bool
    _covered: dict[int, dict[int, int]]
    """For each seat whose hand is laid out on the table (the ``LayOut`` effect), its face-up cards and the face-down
    card under each."""
    _side: frozenset[int]
    """The contracting side's seats."""
    _out: frozenset[int]
    """Seats sitting the hand out (the misère contractor's partners)."""
    _decided_by: frozenset[int]
    _open: bool

    def __init__(self, rules: Rules | Any, *, first_dealer: int | None = None,
                 rng: random.Random | None = None, misere_play_out: bool = False):
        if _HAND_SLOTS:  # the attributes of a hand in progress stay None until one is dealt
            _clear_slots(self)
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

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, sorted (of a hand laid out on the table, its face-up cards only)."""
        return tuple(self._held[seat]) if self.hands_log and self.phase != _DEAL else ()  # _in_hand(), inlined

    def trick_view(self) -> tuple[tuple[int, ...], int | None, int, tuple[int, ...]]:
        """``(trick, led_suit, trick_leader, tricks_won_by_seat)`` in one call: what a player reads at each card."""
        if self.phase != _PLAY:
            return (), None, -1, self.tricks_won_by_seat
        trick = self._trick
        return tuple(trick), self._led if trick else None, self._leader, tuple(self._won)

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
        return one of them.  The auction (``_auction_turns``) and the play (``play._tricks``) run in loops of
        their own, on the same routines as ``apply()``: no validation, no dispatch.
        """
        rules = self.rules
        deciders = [players[c] for c in rules.controller]  # a seat may be played by another (its controller)
        draws = [getattr(p, "uniform_draw", None) for p in deciders]
        uniform = all(draws)  # every seat picks uniformly: the engine draws for them at table speed
        acts = [] if uniform else [p.act for p in deciders]
        while True:
            seat = self._turn
            if seat >= 0:
                if (self.phase == _PLAY and not self._trick and self._table.legal_filter is None
                        and not rules.lead_steps):  # the loop starts at a lead; a filter or a step: apply()
                    _tricks(self, acts, draws if uniform else None)  # type: ignore[arg-type]
                elif self.phase == _AUCTION and not rules.call_steps:
                    self._auction_turns(acts, draws if uniform else None)  # type: ignore[arg-type]
                elif uniform and self.phase == _DISCARD:  # legal: the hand, in order
                    self._discard_drawn(draws[seat])  # type: ignore[arg-type]
                else:
                    legal = self.legal_actions()
                    self._apply(legal[int(draws[seat]() * len(legal))] if uniform  # type: ignore[misc]
                                else acts[seat](self, legal))
            elif seat == CHANCE and self.deals < max_deals:
                self.deal(rng)
            else:
                return

    def _auction_turns(self, acts: list[Any], draws: list[Callable[[], float]] | None) -> None:
        """Rules 8–12 call after call, as ``apply()`` plays them (``AuctionRules.legal_calls`` and ``apply``:
        the one statement of whose turn it is, what is legal and when the auction ends), without ``apply()``'s
        validation, for players who act or (``draws``) pick uniformly: a draw picks the call that
        ``legal_actions()`` lists at that index.  Only where no step offers anything beside the calls.  An
        auction that is its tables (``AuctionRules.table_driven``) is drawn at table speed (``_uniform_calls``)."""
        auction, bidding = self.rules.auction, self._bidding
        if draws is not None and auction.table_driven:
            _uniform_calls(self, draws)
            self._auction_over()
            return
        legal_calls, call_made = auction.legal_calls, auction.apply
        seat = self._turn
        while not bidding.over:
            self.step += 1
            calls = legal_calls(bidding, seat)
            if draws is None:
                call = acts[seat](self, self._call_actions(calls)) - CALL
            else:
                call = calls[int(draws[seat]() * len(calls))]
            call_made(bidding, seat, call)
            seat = self._turn = bidding.turn
        self._auction_over()

    def _discard_drawn(self, draw: Callable[[], float]) -> None:
        """The discards of a uniform player, each drawn as ``legal_actions()`` lists it (the hand, in order)."""
        seat = self._turn
        held = self._held[seat]
        while True:
            self.step += 1
            if not self._discarded(seat, held.pop(int(draw() * len(held)))):
                return

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows now; other hands, the kitty and others' discards stay hidden."""
        return observe(self, seat)

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

    def _hands_unseen(self) -> bool:
        return self.phase == _STEP and self._step is not None and self._step.hides_own_hand

    def clone(self) -> GameState:
        """An independent copy: the hand in progress and its log copied; the logs of the hands before it
        shared (nothing changes a hand's log once the next one is dealt), and the rules."""
        other = GameState.__new__(GameState)
        other._copy_fields(self)
        other.totals = list(self.totals)
        other.hands_log = [*self.hands_log[:-1], copy_log(self.hands_log[-1], self.rules)] if self.hands_log else []
        other._legal = None
        other._legal_step = -1
        if self.phase not in (_DEAL, _GAME_OVER):
            other._held = [list(h) for h in self._held]
            other._buckets = [[list(b) for b in bs] for bs in self._buckets] if self._buckets else []
            other._trick = list(self._trick)
            other._won = list(self._won)
            other._covered = {seat: dict(cards) for seat, cards in self._covered.items()}
            other._unled = list(self._unled)
            other._bidding = Bidding(players=self._bidding.players, turn=self._bidding.turn,
                                     standing=self._bidding.standing, holder=self._bidding.holder,
                                     passed=list(self._bidding.passed), calls=other.hands_log[-1].calls,
                                     over=self._bidding.over)
        return other

    # --- for the plugins' steps (fivehundred.rules.steps): how a step changes the hand ---------------

    def carry_out(self, *effects: Effect) -> None:
        """Carry out the effects a step asks for, in order (``fivehundred.rules.effects``: cards moved, a hand
        laid out, the deal thrown in, a standing bid, the auction or the play ended, the hand's terms
        changed).  The one way a step changes the state; ``docs/plugins.md`` lists the effects."""
        for effect in effects:
            carry_out(self, effect)

    def set_contracting_side(self, seats: frozenset[int]) -> None:
        """Determinisation (a sampling player's world, as ``redistribute``): the contracting side is ``seats``
        (``carry_out(SetSide(seats))``)."""
        self.carry_out(SetSide(frozenset(seats)))

    # --- text ----------------------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        return parsing.action_to_str(self, action)

    def action_kind(self, action: int) -> str:
        """The kind of an action: the engine's (``fivehundred.rules.actions.action_kind``) or its step's."""
        return parsing.kind_of(self, action)

    def parse_action(self, text: str) -> int:
        """The action ``text`` means in the current phase (``fivehundred.engine.parsing.parse_action``)."""
        return parsing.parse_action(self, text)

    def _start_hand(self, hands: list[list[int]], kitty: list[int], dead: list[int]) -> None:
        rules = self.rules
        self.deals += 1
        log = new_log(self.deals, self.dealer, hands, kitty, dead)
        log.played_out = self.misere_play_out  # every hand to its last trick (``kernel.decided_by``)
        self.hands_log.append(log)
        self._held = [sorted(hand) for hand in hands]
        self._covered = {}
        self._buckets = []
        self._trick = []
        self._won = [0] * rules.players
        self._unled = [0, 1, 2, 3]
        self._leader = self._sitting_out = -1
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
            if self.phase != _STEP or self._step is not step:  # its effects moved the hand on (a deal thrown in…)
                return
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

    # --- explaining illegal actions (``fivehundred.engine.illegal``) ---------------------------

    def _raise_out_of_turn(self, seat: int, action: int) -> None:
        illegal.raise_out_of_turn(self, seat, action)

    def _why_illegal(self, action: int) -> IllegalActionError:
        return illegal.why_illegal(self, action)


def _uniform_calls(state: GameState, draws: list[Callable[[], float]]) -> None:
    """The calls of uniform players in an auction that is its tables (``AuctionRules.table_driven``): each drawn
    from ``calls_over[standing + 1]`` as ``legal_actions()`` lists it, the turn passed on by ``next_caller``, the
    end by ``closed`` (the auction rules' own statements of both); the auction's state is brought up to date at
    its end (nobody looks at it before).  A function of the module, typed by ``state.pxd``."""
    bidding = state._bidding
    offers, passed, calls, n = state.rules.auction.calls_over, bidding.passed, bidding.calls, bidding.players
    passes, standing, holder, seat, step = sum(passed), bidding.standing, bidding.holder, state._turn, state.step
    while True:
        step += 1
        offered = offers[standing + 1]
        draw = draws[seat]()
        call = offered[int(draw * len(offered))]
        calls.append((seat, call))
        if call == PASS_CALL:
            passed[seat] = True
            passes += 1
        else:
            standing, holder = call, seat
        if closed(passes, n, holder):
            break
        seat = next_caller(passed, seat, n)
    state.step = step
    bidding.standing, bidding.holder, bidding.turn, bidding.over = standing, holder, seat, True


_SLOTS = Exchange.__slots__ + Play.__slots__
_HAND_SLOTS = tuple(name for name in getattr(GameState, "__annotations__", ()) if name in _SLOTS)
"""The attributes of a hand in progress (declared in the class body): None until a hand is dealt.  (Compiled,
``GameState`` is an extension type, without annotations, whose fields start as None: none to clear.)"""
_clear_slots = straight_line("_clear_slots", [f"src.{name} = None" for name in _HAND_SLOTS] or ["pass"])


def new_game(ruleset: Any, seed: int | str, **kwargs: Any) -> tuple[GameState, random.Random]:
    """A new game and the generator that deals it; the first dealer is drawn from that generator
    (``fivehundred.engine.seeding``: the same seed gives the same generator in any process)."""
    from .seeding import deal_generator, game_key

    rng = deal_generator(game_key(seed))
    rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset)
    return GameState(rules, rng=rng, **kwargs), rng
