"""The cards a seat cannot see: what it knows of them, and deals of them that agree with all it knows.

Knowledge.  The Monte Carlo player (and the solver's) reads only ``state.observation(seat)`` (its hand, the
calls, the contract, its own discards when it is the contractor, every trick, the hands shown to all) and the
ruleset's public tables.  From the tricks it learns who has shown out of a suit: a seat that did
not follow the suit led holds no card of that suit, counted by the hand's play table, so a bower
follows the trump suit and a nominated joker its suit; in misère, where a void player must play a
free joker, a seat that showed out with a plain card holds no free joker either.  The contractor
saw the kitty it took: those cards are in its hand or among its discards, which it knows.

Determinisation.  ``determinise(state, seat, rng)`` clones the state and deals the cards the seat
cannot see afresh, uniformly at random among every deal that agrees with what it knows: each
hidden hand keeps its size, the voids hold, a joker covered by a nomination stays with the
contractor (the play table says which jokers the nomination covers) and a free one does not, a kitty
card seen face up (FC) stays in the kitty until the contractor takes it and is then in its hand or
discards, a card the seat passed to its partner (C1) is in the partner's hand or discards, and
before a seat looks at its cards (a blind bid, B8) its own hand is dealt afresh too.  The
rest of the unseen cards go to the places nobody sees: the kitty before it is taken, the
contractor's discards, a dead hand (P3), a dummy's face-down cards (P2) and a hand laid aside in
misère. The deal is exact, not approximate: the cards are grouped by the targets they may go to, the number of
cards of each group per target is drawn with probability proportional to the number of deals it allows (counted
by dynamic programming over the targets' remaining room), and each group is shuffled into its counts (every
shuffle is the deal's own, ``fivehundred.engine.shuffle.shuffled``, compiled with the engine: one draw of random
bytes a shuffle). History the engine no longer reads (the hands as dealt, a kitty already taken)
is rewritten to match, so the clone holds nothing the seat may not know.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fivehundred.engine.reading import next_seats
from fivehundred.engine.shuffle import shuffled
from fivehundred.engine.state import GameState
from fivehundred.rules.actions import Phase

FACE_UP_KITTY = "kitty-face-up"
"""The step that turns kitty cards face up for all to see until the kitty is taken (plugins/kitty.py)."""
PASSED_TO_PARTNER = "pass-to-partner"
"""The step in which the contractor passes cards to its partner, seen by the two alone (plugins/passing.py)."""

_T = TypeVar("_T")


# --- what the seat knows --------------------------------------------------------------------


@dataclass(slots=True)
class Knowledge:
    """What one seat knows of the hidden cards, worked out from its observation."""

    seat: int
    unseen: list[int]
    """Cards the seat has not seen (sorted): others' hidden hands and the places nobody sees."""
    hidden: list[int]
    """Seats whose cards the seat cannot see (each holding at least one card)."""
    void: list[int]
    """void[s]: bit k set when seat s holds no card of effective suit k (4: no free joker)."""
    played_by: list[list[int]]
    """Cards each seat has played in this hand."""
    suit_of: Sequence[int] | None
    """The play table's suit of each card during the play, else None (no voids are known)."""
    contractor: int
    sitting: tuple[int, ...]
    """Seats sitting the hand out (a misère contractor's partner, its hand laid aside)."""
    must_hold: dict[int, int]
    """Unseen jokers a nomination covers, with the contractor who must hold them."""
    must_not_hold: dict[int, int]
    """Unseen free jokers under a nomination, with the contractor who cannot hold them."""
    held_or_discarded: dict[int, int] = field(default_factory=dict)
    """Unseen cards that one seat holds or has discarded: a kitty card seen face up that the contractor
    took (FC), a card the seat passed to its partner (C1)."""
    kitty_up: tuple[int, ...] = ()
    """Kitty cards lying face up while the kitty is untaken (FC): known, and in the kitty, last."""
    counters: dict[Any, _Counter] = field(default_factory=dict)
    """Deal counts already worked out for these constraints (shared by the deals drawn from them)."""
    by_targets: dict[tuple[int, ...], list[int]] | None = None
    """The unseen cards grouped by the targets they may go to (``deal_unseen``), once worked out."""


def knowledge(state: GameState, seat: int) -> Knowledge:
    """What ``seat`` knows of the hidden cards, from ``state.observation(seat)`` and public tables."""
    obs = state.observation(seat)
    n = state.rules.players
    known = obs.known_cards()
    nxt = obs.play_order(n)
    played_by: list[list[int]] = [[] for _ in range(n)]
    void = [0] * n
    suit_of: Sequence[int] | None = None
    must_hold: dict[int, int] = {}
    must_not_hold: dict[int, int] = {}
    if obs.phase == Phase.PLAY:
        table = state.play_table  # public: the hand's trick table, built from the contract and the nomination
        assert table is not None
        suit_of = table.suit_of
        # P2: a dummy's face-down cards may turn up in a suit it showed out of
        void = obs.voids_shown(table, n, laid_out=state.rules.dummies)
        for leader, cards, _named in obs.tricks_played():
            s = leader
            for c in cards:
                played_by[s].append(c)
                s = nxt[s]
        contractor = obs.contractor
        if table.nomination is not None and contractor >= 0:
            for j in table.jokers:
                if j not in known:
                    (must_not_hold if j in table.free_jokers else must_hold)[j] = contractor
    held_or_discarded: dict[int, int] = {}
    kitty_up: tuple[int, ...] = ()
    face_up = tuple(obs.steps.get(FACE_UP_KITTY, ()))
    if face_up and obs.contract is not None and obs.contract.kitty and obs.contractor >= 0:
        held_or_discarded.update((c, obs.contractor) for c in face_up)  # the contractor took them
    else:
        kitty_up = face_up
        known.update(face_up)
    passed = obs.seen.get(PASSED_TO_PARTNER, ()) if seat == obs.contractor else ()
    if passed:  # the contractor knows what it passed: the partner holds it or has discarded it
        # the partner on its left: the next seat round the table of the contracting side
        side = state.contracting_side
        partner = next_seats(n, [s for s in range(n) if s not in side])[seat]
        held_or_discarded.update((c, partner) for c in passed)
    unseen = [c for c in obs.unseen(state.rules.deck) if c not in kitty_up]
    shown = {s for s, _ in obs.open_hands}
    # before it looks at its cards (a blind bid, B8) the seat's own hand is hidden from it too
    hidden = [s for s in range(n) if (s != seat or not obs.hand) and s not in shown and state.hand(s)]
    held_or_discarded = {c: s for c, s in held_or_discarded.items() if c not in known}
    return Knowledge(seat, unseen, hidden, void, played_by, suit_of, obs.contractor, obs.sitting,
                     must_hold, must_not_hold, held_or_discarded=held_or_discarded, kitty_up=kitty_up)


# --- dealing the unseen cards -------------------------------------------------------------------


def _allowed(card: int, k: Knowledge, pool: int) -> tuple[int, ...]:
    """Targets (indices into ``k.hidden``, then ``pool`` for the places nobody sees) for ``card``."""
    holder = k.must_hold.get(card)
    if holder in k.hidden:
        return (k.hidden.index(holder),)
    barred = k.must_not_hold.get(card, -1)
    suit = k.suit_of[card] if k.suit_of is not None else -1
    holder = k.held_or_discarded.get(card, -1)
    targets = [i for i, s in enumerate(k.hidden)
               if s != barred and not (suit >= 0 and k.void[s] >> suit & 1) and holder in (-1, s)]
    return (*targets, pool)


class _Counter:
    """How many deals place each group's cards (interchangeable as far as the constraints go) among
    the targets it may go to, filling each target exactly.

    A chain over the (group, allowed target) cells of every group but the last chooses how many of
    the group's remaining cards go to that target (``C(r, x)`` ways), memoised on (cell, cards left
    in the group, room left per target); the last group (the least constrained) fills whatever room
    is left, in ``multinomial`` ways."""

    def __init__(self, groups: Sequence[tuple[tuple[int, ...], int]]):
        self.sizes = [size for _, size in groups]
        *chained, (self.final_targets, self.final_size) = groups
        self.cells = [(g, t) for g, (targets, _) in enumerate(chained) for t in targets]
        self.last = [i + 1 == len(self.cells) or self.cells[i + 1][0] != g for i, (g, _) in enumerate(self.cells)]
        self.memo: dict[tuple[int, int, tuple[int, ...]], int] = {}

    def options(self, i: int, left: int, room: tuple[int, ...]) -> list[tuple[int, int, int, tuple[int, ...]]]:
        """Per choice at cell ``i``: (cards to its target, ways to choose them, cards left of the next
        cell's group, room left per target)."""
        g, t = self.cells[i]
        if self.last[i]:
            choices: Sequence[int] = (left,) if left <= room[t] else ()
        else:
            choices = range(min(left, room[t]) + 1)
        out = []
        for x in choices:
            nxt = (self.sizes[g + 1] if g + 1 < len(self.sizes) else 0) if self.last[i] else left - x
            out.append((x, math.comb(left, x), nxt, (*room[:t], room[t] - x, *room[t + 1:])))
        return out

    def fill(self, room: tuple[int, ...]) -> int:
        """Ways for the last group to fill exactly the room left."""
        if sum(room) != self.final_size or any(r for t, r in enumerate(room) if t not in self.final_targets):
            return 0
        ways, left = 1, self.final_size
        for r in room:
            ways *= math.comb(left, r)
            left -= r
        return ways

    def ways(self, i: int, left: int, room: tuple[int, ...]) -> int:
        if i == len(self.cells):
            return self.fill(room)
        key = (i, left, room)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = sum(choose * self.ways(i + 1, nxt, after)
                                         for _x, choose, nxt, after in self.options(i, left, room))
        return found

    def sample(self, room: tuple[int, ...], rng: random.Random) -> list[list[int]]:
        """Cards of each group per target (counts), drawn in proportion to the deals they allow."""
        left = self.sizes[0]
        if not self.ways(0, left, room):
            raise ValueError("no deal of the unseen cards agrees with what the seat knows")
        counts = [[0] * len(room) for _ in self.sizes]
        for i, (g, t) in enumerate(self.cells):
            weighted = [((x, nxt, after), choose * self.ways(i + 1, nxt, after))
                        for x, choose, nxt, after in self.options(i, left, room)]
            x, left, room = _weighted([(o, w) for o, w in weighted if w], rng)
            counts[g][t] = x
        counts[-1] = list(room)
        return counts


def sample_counts(groups: Sequence[tuple[tuple[int, ...], int]], room: Sequence[int],
                  rng: random.Random, counter: _Counter | None = None) -> list[list[int]]:
    """For each group (allowed targets, number of cards), how many of its cards go to each target,
    drawn with probability proportional to the number of deals that give those counts; ``room`` is
    each target's size.  Raises ValueError when no deal fits."""
    return (counter or _Counter(groups)).sample(tuple(room), rng)


def _weighted(options: Sequence[tuple[_T, int]], rng: random.Random) -> _T:
    """One option, drawn with probability proportional to its (integer) weight."""
    pick = rng.randrange(sum(w for _, w in options))
    for option, w in options:
        if pick < w:
            return option
        pick -= w
    raise AssertionError("unreachable: the pick is below the total weight")


REJECTION_TRIES = 32
"""Plain shuffles tried before the exact counting sampler (both draw uniformly among agreeing deals)."""


def deal_unseen(k: Knowledge, sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """The unseen cards dealt to ``k.hidden`` (``sizes[i]`` cards each) and, last, to the places
    nobody sees: uniformly among the deals that agree with ``k``.

    A plain shuffle is tried a few times and kept if it agrees (a uniform draw conditioned on
    agreeing is uniform among the agreeing deals); when the voids make that unlikely, the counts per
    group of interchangeable cards are drawn exactly by ``sample_counts``."""
    pool = len(k.hidden)
    room = [*sizes, len(k.unseen) - sum(sizes)]
    if room[-1] < 0:
        raise ValueError("the hidden hands hold more cards than are unseen")
    by_targets = k.by_targets
    if by_targets is None:
        by_targets = k.by_targets = {}
        for c in k.unseen:
            by_targets.setdefault(_allowed(c, k, pool), []).append(c)
    starts = [sum(room[:t]) for t in range(len(room) + 1)]
    if len(by_targets) == 1 and len(next(iter(by_targets))) == len(room):
        cards = shuffled(k.unseen, rng)
        return [cards[starts[t]:starts[t + 1]] for t in range(len(room))]
    target_at = [t for t, size in enumerate(room) for _ in range(size)]
    allowed = {c: targets for targets, group in by_targets.items() for c in group}
    for _ in range(REJECTION_TRIES):
        cards = shuffled(k.unseen, rng)
        if all(target_at[i] in allowed[c] for i, c in enumerate(cards)):
            return [cards[starts[t]:starts[t + 1]] for t in range(len(room))]
    order = sorted(by_targets, key=lambda t: (len(t), t))
    groups = [(t, len(by_targets[t])) for t in order]
    key = (tuple(groups), tuple(room))
    counter = k.counters.get(key)
    if counter is None:
        counter = k.counters[key] = _Counter(groups)  # its counts serve every deal drawn from k
    counts = sample_counts(groups, room, rng, counter)
    out: list[list[int]] = [[] for _ in room]
    for targets, split in zip(order, counts, strict=True):
        cards = shuffled(by_targets[targets], rng)
        start = 0
        for t in targets:
            out[t].extend(cards[start:start + split[t]])
            start += split[t]
    return out


def determinise(state: GameState, seat: int, rng: random.Random, k: Knowledge | None = None) -> GameState:
    """A clone of ``state`` with the cards ``seat`` cannot see dealt afresh, uniformly among the deals
    that agree with everything the seat knows (see the module docstring).

    On the clone it deals the hidden hands and a dummy's face-down cards (P2) through the engine's
    determinisation API (``GameState.redistribute``), moves the called partner (P5,
    ``GameState.set_contracting_side``) and rewrites the current ``HandLog`` (kitty, discards, dead hand,
    hands as dealt: new lists, since a clone shares them)."""
    k, dealt = deal_hidden(state, k or knowledge(state, seat), rng)
    return world_of(state, k, dealt, rng)


def deal_hidden(state: GameState, k: Knowledge, rng: random.Random) -> tuple[Knowledge, list[list[int]]]:
    """``deal_unseen`` for the hands of ``state``: the cards of each hidden seat (in ``k.hidden``'s order), then the
    places nobody sees; and the knowledge they were dealt by (its voids forgotten where no deal keeps them)."""
    sizes = [len(state.hand(s)) for s in k.hidden]
    try:
        return k, deal_unseen(k, sizes, rng)
    except ValueError:
        # Only a variant whose rules let a player keep a suit it did not follow could get here:
        # forget the voids rather than fail.
        k = dataclasses.replace(k, void=[0] * len(k.void), by_targets=None)
        return k, deal_unseen(k, sizes, rng)


def world_of(state: GameState, k: Knowledge, dealt: list[list[int]], rng: random.Random) -> GameState:
    """The clone of ``state`` that holds the cards ``deal_hidden`` dealt, its history rewritten to agree."""
    world = clone(state)
    world.redistribute(dict(zip(k.hidden, dealt, strict=False)))
    covered = _place_pool(world, k, dealt[-1], rng)
    _rewrite_history(world, k, rng, covered)
    _follow_called_card(world, k)
    return world


def clone(state: GameState) -> GameState:
    """``state.clone()`` (who has passed in an auction included)."""
    return state.clone()


def _kitty_taken(world: GameState) -> bool:
    log = world.hands_log[-1]
    return log.contract is not None and log.contract.kitty and log.contractor >= 0


def _place_pool(world: GameState, k: Knowledge, pool: list[int], rng: random.Random) -> dict[int, dict[int, int]]:
    """The unseen cards in no hidden hand go to the kitty (untaken), the contractor's discards (when
    the seat is not the contractor), a dead hand, dummies' face-down cards, and hands laid aside.
    Returns each dummy's face-down card under each face-up card (P2)."""
    pool = shuffled(pool, rng)
    log = world.hands_log[-1]
    if not _kitty_taken(world):
        down = len(log.kitty) - len(k.kitty_up)  # the cards face up lie last, as dealt
        log.kitty, pool = [*sorted(pool[:down]), *k.kitty_up], pool[down:]
    pool.sort(key=lambda c: c not in k.held_or_discarded)  # those go to the discards (the order is random)
    discarders = log.discarders or [log.contractor] * len(log.discards)
    discards = list(log.discards)
    for i, by in enumerate(discarders):
        if by != k.seat:  # the seat knows its own discards, and no other
            discards[i], pool = pool[0], pool[1:]
    log.discards = discards
    log.dead, pool = sorted(pool[:len(log.dead)]), pool[len(log.dead):]
    covered: dict[int, dict[int, int]] = {}  # P2: the face-down card under each face-up card of a dummy
    for dummy in sorted(world.rules.dummies):
        ups = world.covering(dummy)
        covered[dummy] = dict(zip(ups, pool[:len(ups)], strict=True))
        pool = pool[len(ups):]
    world.redistribute(covered=covered)
    hands = [list(h) for h in log.hands]
    aside = [s for s in k.sitting if not world.hand(s)]  # our own too: the observation does not show it
    for i, s in enumerate(aside):
        take = len(pool) if i == len(aside) - 1 else min(len(pool), len(hands[s]))
        hands[s], pool = sorted(pool[:take]), pool[take:]
    log.hands = hands
    return covered


def _rewrite_history(world: GameState, k: Knowledge, rng: random.Random, covered: dict[int, dict[int, int]]) -> None:
    """The hands as dealt, and a kitty already taken, made to agree with the determinised cards
    (``covered``: the dummies' face-down cards, P2)."""
    log = world.hands_log[-1]
    hands = log.hands
    contractor = log.contractor
    for s in range(world.rules.players):
        if (s == k.seat and s not in k.hidden) or (s in k.sitting and not world.hand(s)):
            continue  # our own hand is known; a hand laid aside was dealt with the pool
        under = covered.get(s, {})
        if under and not k.played_by[s]:  # P2: as dealt, the face-down half first, each under its face-up card
            ups = sorted(under)
            hands[s] = [under[u] for u in ups] + ups
        else:
            hands[s] = sorted([*world.hand(s), *k.played_by[s], *under.values()])
    if _kitty_taken(world) and contractor != k.seat:
        pile = sorted(hands[contractor] + log.discards)
        kitty = sorted(rng.sample(pile, len(log.kitty)))
        hands[contractor] = [c for c in pile if c not in kitty]
        log.kitty = kitty


def _follow_called_card(world: GameState, k: Knowledge) -> None:
    """P5: the called card's holder partners the contractor; it may have moved in the new deal."""
    log = world.hands_log[-1]
    card = log.steps.get("partner-call")  # P5: the card the contractor called (plugins/partner.py)
    if card is None or card < 0 or card not in k.unseen:
        return
    holder = next((s for s in k.hidden if card in world.hand(s)), None)
    world.set_contracting_side(frozenset({log.contractor} | ({holder} if holder is not None else set())))


def resample(pool: list[_T], weights: list[float], count: int, rng: random.Random) -> list[_T]:
    """``count`` items of ``pool`` drawn one after the other without replacement, each with probability proportional
    to its weight (importance resampling: ``pool`` and ``weights`` are used up)."""
    kept = []
    for _ in range(count):
        pick = rng.random() * sum(weights)
        i = 0
        while i < len(pool) - 1 and pick >= weights[i]:
            pick -= weights[i]
            i += 1
        kept.append(pool.pop(i))
        weights.pop(i)
    return kept
