"""Defending an open misère by search: keep a kill, in every world the defender may be in.

A defender against an open misère sees the contractor's hand (from the end of the first trick) and its
own; what it does not see is its fellow defenders' cards (and the contractor's discards, and before the
hand is shown, the contractor's hand).  ``defend`` samples ``worlds`` deals of those cards consistent with
everything the seat has seen (``fivehundred.bots.montecarlo.determinise``: voids shown, the exposed hand,
the kitty's fate), and in each world decides exactly, all cards seen, whether the defenders can still
force a seat that must lose every trick to win one after each candidate card (``kills``).  The card
that keeps the kill in the most worlds is played; among equals, the heuristic defender's own choice.

The search is a two-valued game tree over the engine's own play (``GameState.legal_actions`` and
``apply`` on clones: no second statement of following suit, of who wins a trick, or of the jokers):
the defenders choose a card for a kill, the seats that must lose every trick one that escapes, each seat
playing with every card in view (double dummy).  Cards of one seat that touch in the order of their suit
(no card still in play between them) are one candidate; positions are remembered (hands, trick in
progress); a world whose search passes ``MAX_NODES`` positions casts no vote.  Deterministic: the worlds
come from a generator seeded with what the seat has seen, so the same decision gets the same worlds.
"""

from __future__ import annotations

import random

from fivehundred.engine.kernel import trick_winner
from fivehundred.engine.state import FIRST_STEP_ACTION, GameState
from fivehundred.rules.actions import Phase
from fivehundred.rules.cards import NO_SUIT

MAX_NODES = 5000
"""Positions one world's search may visit, over all the candidates, before it gives up (the world then casts
no vote)."""


SEARCH_CARDS = 21
"""The most cards left in the hands of the seats in the play at which a defender searches (before, the
heuristic's card): seven each of three seats.  Deeper, most worlds passed ``MAX_NODES`` and cast no vote, at
a cost (in a six-handed game, five seats in the play, the search begins at four cards each)."""


class _Budget(Exception):
    """The search of one world went past ``MAX_NODES``."""


class _Search:
    """One world's search: which seats must lose every trick, and the positions already decided."""

    def __init__(self, targets: frozenset[int], seats: tuple[int, ...]):
        self.targets = targets
        self.seats = seats
        self.memo: dict[tuple[object, ...], bool] = {}
        self.nodes = 0

    def kills(self, state: GameState) -> bool:
        """Can the defenders, from ``state``, force a target to win a trick (all cards seen)?"""
        won = state.tricks_won_by_seat
        if any(won[t] for t in self.targets):
            return True
        if state.phase != Phase.PLAY:
            log = state.hand_log
            return log.outcome is not None and not log.outcome.made
        seat = state.current_player()
        key = (*(state.hand(s) for s in self.seats), state.trick, state.trick_leader, state.led_suit)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Budget
        defending = seat not in self.targets
        result = not defending
        for action in candidates(state, 1 if defending else -1):
            child = state.clone()
            child.apply(action)
            if self.kills(child) == defending:
                result = defending
                break
        self.memo[key] = result
        return result


class _Cards:
    """One world's search on plain lists, where the engine's tables say all there is to the play: no free
    joker in play and no variant's filter on the legal plays (else ``_Search`` plays on the engine).  A
    seat follows as the table's ``follows`` says (rule 16), the highest ``power`` of the suit led wins."""

    def __init__(self, state: GameState, targets: frozenset[int], seats: tuple[int, ...]):
        table = state.play_table
        assert table is not None
        self.follows = table.follows
        self.suit_of = table.suit_of
        self.power = table.power
        self.targets = targets
        nxt = self.next_seat = state.play_order
        self.order = {s: _order_from(s, nxt, len(seats)) for s in seats}
        """The seats of a trick in the order they play it, by its leader."""
        self.seats = seats
        self.memo: dict[tuple[object, ...], bool] = {}
        self.nodes = 0

    def start(self, state: GameState) -> bool:
        hands = {s: tuple(sorted(state.hand(s))) for s in self.seats}
        leader = state.trick_leader
        trick = state.trick
        led = state.led_suit if trick else -1
        return self.kills(hands, leader, trick, -1 if led is None else led)

    def kills(self, hands: dict[int, tuple[int, ...]], leader: int, trick: tuple[int, ...], led: int) -> bool:
        order = self.order[leader]
        if len(trick) == len(order):
            winner = trick_winner(self.power[led], list(trick), leader, tuple(self.next_seat))[0]
            if winner in self.targets:
                return True
            if not hands[winner]:
                return False  # every trick played, none won by a target: the misère is made
            return self.kills(hands, winner, (), -1)
        seat = order[len(trick)]
        key = (*(hands[s] for s in self.seats), leader, trick)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Budget
        defending = seat not in self.targets
        held = hands[seat]
        if defending and not trick and self._lead_under(hands, seat, order):
            self.memo[key] = True
            return True
        result = not defending
        for card, suit in self._moves(hands, seat, held, led, defending):
            after = dict(hands)
            after[seat] = tuple(c for c in held if c != card)
            if self.kills(after, leader, (*trick, card), suit) == defending:
                result = defending
                break
        self.memo[key] = result
        return result

    def _lead_under(self, hands: dict[int, tuple[int, ...]], seat: int, order: tuple[int, ...]) -> bool:
        """A kill at once: a lone target holds a suit in which ``seat`` can lead under all its cards, and
        every other defender can play under them too, or is void in it with no free joker to throw."""
        if len(self.targets) != 1:
            return False
        (target,) = self.targets
        suit_of, power = self.suit_of, self.power
        for suit in {suit_of[c] for c in hands[seat]} - {NO_SUIT}:
            row = power[suit]
            theirs = [row[c] for c in hands[target] if suit_of[c] == suit]
            if not theirs:
                continue
            low = min(theirs)
            if min(row[c] for c in hands[seat] if suit_of[c] == suit) > low:
                continue
            if all(any(suit_of[c] == suit and row[c] < low for c in hands[s])
                   or not any(suit_of[c] in (suit, NO_SUIT) for c in hands[s])
                   for s in order if s not in (seat, target)):
                return True
        return False

    def _moves(self, hands: dict[int, tuple[int, ...]], seat: int, held: tuple[int, ...], led: int,
               defending: bool) -> list[tuple[int, int]]:
        """The seat's plays with the suit led after them, one of each run of touching cards, lowest first for
        a defender, highest first for a target (the cheapest tries first: a defender's low card forces, a
        target's high one ducks)."""
        suit_of, power = self.suit_of, self.power
        if led >= 0:
            buckets: list[list[int]] = [[] for _ in range(NO_SUIT + 1)]
            for c in held:
                buckets[suit_of[c]].append(c)
            legal = self.follows(buckets, list(held), led)
        else:
            # a free joker led wins its trick, whatever suit it names: never a target's way to lose it, and a
            # defender's only to take a trick back, which the search leaves out while it has another card
            legal = [c for c in held if suit_of[c] != NO_SUIT]
            if not legal:  # nothing but free jokers: one is led, naming any suit (the last trick's freedom)
                return [(held[0], suit) for suit in range(NO_SUIT)]
        moves: list[int] = []
        for suit in {suit_of[c] for c in legal}:
            if suit == NO_SUIT:
                moves.extend(c for c in legal if suit_of[c] == NO_SUIT)  # a free joker followed: it wins
                continue
            row = power[suit]
            mine = sorted(row[c] for c in legal if suit_of[c] == suit)
            others = [row[c] for s in self.seats if s != seat for c in hands[s] if suit_of[c] == suit]
            last = -1
            for strength in mine:
                if last < 0 or any(last < x < strength for x in others):
                    moves.append(next(c for c in legal if suit_of[c] == suit and row[c] == strength))
                last = strength
        moves.sort(key=power[led].__getitem__ if led >= 0 else lambda c: power[suit_of[c]][c], reverse=not defending)
        return [(c, suit_of[c] if led < 0 else led) for c in moves]


def _order_from(leader: int, nxt: tuple[int, ...], size: int) -> tuple[int, ...]:
    seats = [leader]
    while len(seats) < size:
        seats.append(nxt[seats[-1]])
    return tuple(seats)


def _plain(state: GameState) -> bool:
    """Can ``_Cards`` search this hand: no filter on the legal plays, and no free joker led to the trick in
    progress (its named suit is the engine's to know)?"""
    table = state.play_table
    if table is None or table.legal_filter is not None:
        return False
    trick = state.trick
    return not trick or table.suit_of[trick[0]] != NO_SUIT


def searcher(world: GameState, targets: frozenset[int]) -> _Cards | _Search:
    """A search of one world, its positions remembered across the candidates tried in it."""
    seats = seats_in_play(world)
    return _Cards(world, targets, seats) if _plain(world) else _Search(targets, seats)


def kill_kept(state: GameState, targets: frozenset[int], search: _Cards | _Search | None = None) -> bool:
    """Can the defenders, from ``state`` (every hand seen), force one of ``targets`` to win a trick?
    Raises ``_Budget`` past ``MAX_NODES`` positions."""
    if any(state.tricks_won_by_seat[t] for t in targets):
        return True
    if state.phase != Phase.PLAY:
        log = state.hand_log
        return log.outcome is not None and not log.outcome.made
    search = search or searcher(state, targets)
    if isinstance(search, _Cards) and _plain(state):
        return search.start(state)
    return _Search(targets, seats_in_play(state)).kills(state)


def candidates(state: GameState, ordering: int = 0) -> list[int]:
    """The legal plays of the seat to play, one of each run of touching cards (no card still held by a
    seat in the play lies between them in their suit's order); ``ordering`` 1: lowest first in the
    trick's order, -1: highest first, 0: as the engine lists them."""
    legal = [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
    table = state.play_table
    if table is None or len(legal) <= 1:
        return legal
    led = state.led_suit
    in_play = [c for s in seats_in_play(state) for c in state.hand(s)]
    suit_of, power = table.suit_of, table.power
    cards = set(range(len(suit_of)))
    kept: list[int] = []
    by_suit: dict[int, list[tuple[int, int]]] = {}
    for a in legal:
        if a not in cards or suit_of[a] not in range(len(power)):
            kept.append(a)  # a joker's action naming a suit, a free joker: each its own candidate
            continue
        by_suit.setdefault(suit_of[a], []).append((power[suit_of[a]][a], a))
    for s, mine in by_suit.items():
        mine.sort()
        others = [power[s][c] for c in in_play if suit_of[c] == s]
        run_end = -1
        for strength, a in mine:
            if run_end < 0 or any(run_end < x < strength for x in others):
                kept.append(a)  # the first of a run of touching cards stands for it
            run_end = strength
    if ordering:
        row = power[led] if led is not None and 0 <= led < len(power) else None

        def power_of(a: int) -> int:
            if a not in cards:
                return 0
            if row is not None:
                return row[a]
            return power[suit_of[a]][a] if 0 <= suit_of[a] < len(power) else 0

        kept.sort(key=power_of, reverse=ordering < 0)
    return kept


def seats_in_play(state: GameState) -> tuple[int, ...]:
    """The seats that play this hand's tricks (those sitting out left out)."""
    out = state.sitting_out
    return tuple(s for s in range(state.rules.players) if s not in out)


def targets_of(state: GameState) -> frozenset[int]:
    """The seats that must lose every trick: the contractor, and its partners who play."""
    contractor = state.contractor
    team = state.rules.team_of
    return frozenset(s for s in seats_in_play(state) if team[s] == team[contractor])


def world_seed(state: GameState, seat: int) -> str:
    """What seeds a decision's worlds: the seat, its cards, the tricks and the trick in progress."""
    played = [t.cards for t in state.hand_log.tricks]
    return f"{seat}:{sorted(state.hand(seat))}:{played}:{state.trick}"


def defend(state: GameState, seat: int, worlds: int, default: int) -> int:
    """The card ``seat`` defends a misère with: the one keeping a kill in the most of ``worlds`` sampled
    worlds (``default``, the heuristic defender's card, among equals or when no world decides)."""
    from .unseen import determinise, knowledge

    if sum(len(state.hand(s)) for s in seats_in_play(state)) > SEARCH_CARDS:
        return default
    options = candidates(state)
    if default not in options:
        options.append(default)
    if len(options) <= 1:
        return default
    votes = dict.fromkeys(options, 0)
    # a free joker led is not searched (it wins its trick; the suit it names is the engine's to know): it keeps
    # no vote, and is played only as the heuristic's choice when no card searched keeps a kill anywhere
    table = state.play_table
    if table is not None and not state.trick:
        options = [a for a in options if a < len(table.suit_of) and table.suit_of[a] != NO_SUIT]
    targets = targets_of(state)
    rng = random.Random(world_seed(state, seat))
    k = knowledge(state, seat)
    for _ in range(worlds):
        world = determinise(state, seat, rng, k)
        search = searcher(world, targets)
        try:
            kept = {}
            for action in options:
                child = world.clone()
                child.apply(action)
                kept[action] = kill_kept(child, targets, search)
        except _Budget:
            continue
        for action, kill in kept.items():
            votes[action] += kill
    best = max(votes.values())
    if votes[default] == best:
        return default
    return next(a for a in options if votes[a] == best)
