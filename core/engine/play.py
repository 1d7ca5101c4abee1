"""The play of the tricks (rules 16–22): the legal plays, a card played, a trick won, and the loops that play
a whole hand at table speed (``GameState.play_out``) — a base of ``GameState``, on the fields ``Exchange``
declares.  ``play.pxd`` types the loops for the compiled engine."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from fivehundred.rules.actions import CHANCE, JOKER_LEAD, TERMINAL, Phase
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import NOBODY, GameResult, HandOutcome

from .hand_log import Trick
from .reading import Reading

if TYPE_CHECKING:
    from fivehundred.rules.steps import Step

    from .state import GameState

_PLAY, _DEAL, _GAME_OVER = Phase.PLAY, Phase.DEAL, Phase.GAME_OVER
_new_tuple = tuple.__new__


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



class Play(Reading):
    """The play of ``GameState`` (a base class: it works on the state's hand attributes)."""

    # Slots (with the exchange's own; ``GameState`` adds none): a game has more attributes than an instance dict
    # shares keys for, and a simulation makes a game object per game (the benchmark, one per deal).
    __slots__ = ("_barred", "_best", "_bidding", "_covered", "_deck_order", "_follow_names", "_held",
                 "_led", "_legal", "_legal_step", "_named", "_open_hand_shown", "_power_led", "_redeals",
                 "_reuse_deck", "_trick", "_unled", "_winner", "_won", "dealer", "deals", "hands_log",
                 "misere_play_out", "result", "rules", "step", "totals")

    misere_play_out: bool
    step: int
    totals: list[int]
    result: GameResult | None
    _unled: list[int]
    _barred: frozenset[int]
    _best: int
    _redeals: int

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
        return plain, self._decided_by

    def _uniform_play(self, draws: list[Callable[[], float]]) -> None:
        """``_play_loop`` for players who all pick ``legal[int(draw() * len(legal))]``: the engine
        draws for them, taking the card straight from the hand (the same game, card for card; a test
        plays both loops side by side).  Nobody looks at the state during the hand, so the turn, the
        step and the trick in progress are brought up to date when the loop stops."""
        _uniform_tricks(self, draws)

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
        seat, state = self._turn, cast("GameState", self)
        return [a for step in steps if step.actor(state) == seat for a in step.legal(state, seat)]

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

    def _apply_play(self, action: int) -> None:
        if action < JOKER_LEAD:
            self._play(action, None)
        elif action >= FIRST_STEP_ACTION:  # a step's offer at the lead
            self.rules.step_of_action[action].apply(cast("GameState", self), self._turn, action)
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
        check = self.rules.trick_check
        if winner in self._decided_by or len(log.tricks) == self.rules.hand_size or (check is not None and check(self)):
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


def _uniform_tricks(state: Play, draws: list[Callable[[], float]]) -> None:
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

