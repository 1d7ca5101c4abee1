"""What the rule-of-thumb players read of the play at each decision (the base of ``HeuristicPlayer``): the
situation (``_Play``: the cards unseen by suit, the voids shown as the table counts them, ``trick_voids``, the
trick's standing), who may still beat a
card, which cards are masters.  The choices are in ``misere_play`` (a misère) and ``card_play`` (every other
contract); the auction and the discards in ``heuristic``.

Compiled, ``TrickReader`` is an extension type (``trick_reading.pxd`` declares the player's fields and gives
its methods and the helpers below C-typed locals; the pure-Python player never reads that file).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any

from fivehundred.engine.kernel import trick_winner
from fivehundred.engine.reading import trick_voids
from fivehundred.engine.state import JOKER_LEAD
from fivehundred.rules.cards import JOKER_BASE, MAX_CARD, NO_SUIT
from fivehundred.rules.tables import PlayTable

from .evaluation import _RulesInfo
from .situation import Seen, _as_seen, _layout, _Play, _play_of, _Seen, _Track

_tables = threading.local()
"""``track``: what the completed tricks of the hand last played in this thread have shown
(``TrickReader._situation``): public, and so shared by the players of a table.  Another hand or game read in
between (a rollout, another table) starts it afresh or goes on from the tricks both have in common; a thread
keeps its own, since a track changes as it is read."""


class TrickReader:
    """The player's fields, and what it reads of the play (``HeuristicPlayer`` is one)."""

    reads_laid_out_hands = False
    """A hand laid out on the table (P2's dummy) plays only its face-up cards: whether it can beat a trick is read
    from them, and an opponent's face-up card above ours keeps ours from being a master (False: as for any hand,
    from the cards unseen and the voids shown; a face-up card was counted as nobody's threat)."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng
        self._estimates: tuple[tuple[int, ...], dict[int, float]] | None = None
        self._risks: dict[tuple[tuple[int, ...], int], float] = {}
        self._in_play: tuple[Any, ...] | None = None
        """What a seat sees that stays the same through the play of a hand (``HeuristicPlayer._seen``)."""
        self._rules_info: _RulesInfo | None = None
        """``_info`` of the rules last played."""
        self._track: _Track | None = None
        """The track this player's last play decision read (``_situation``): taken again, without the thread's
        lookup, while the hand's log and contract are the ones it was read with."""

    def _situation(self, seat: int, obs: Seen, info: _RulesInfo) -> _Play:
        seen = _as_seen(obs)
        contract = seen.contract
        assert contract is not None
        n = info.players
        team = info.team_of
        contractor = seen.contractor
        tricks = seen.tricks
        log = seen.log
        # the hand's own log and contract read last time: the same hand, its tricks only grown since
        track = self._track
        if track is None or log is None or track.log is not log or track.contract is not contract:
            track = getattr(_tables, "track", None)
            if track is None or log is None or track.log is not log or track.contract is not contract:
                key = (info, contract.rung, seen.nomination, contractor, seen.sitting_out)
                if track is None or track.key != key or (tricks is not track.tricks and not _continues(tricks,
                                                                                                       track.tricks)):
                    layout = _layout(info, contract, seen.nomination, contractor, seen.sitting_out)
                    track = _tables.track = _Track(key, contract, layout[2], layout[3],
                                                   [list(cards) for cards in layout[4]], layout[1], [0] * n,
                                                   info.rules.dummies)
                track.log, track.contract = log, contract
            self._track = track
        suit_of = track.suit_of
        nxt = track.next_seat
        out_seats = track.out_seats
        void = track.void
        done = len(track.tricks)
        unplayed = track.unplayed
        for i in range(done, len(tricks)):
            for c in tricks[i][1]:
                u = suit_of[c]
                _drop(unplayed[u], c)
        # the voids shown, as the table counts them (``voids_shown``): each completed trick once, the trick in
        # progress on a copy
        plain, compulsory, laid_out = track.void_plain, track.void_compulsory, track.laid_out
        for i in range(done, len(tricks)):
            leader, cards, _winner, named = tricks[i]
            trick_voids(void, leader, cards, named, nxt, suit_of, plain, compulsory, laid_out)
        track.tricks = tricks
        void = void[:]
        trick = seen.current_trick
        if trick:
            trick_voids(void, seen.leader, trick, seen.led, nxt, suit_of, plain, compulsory, laid_out)
        hands = seen.open_hands
        shown = dict(hands) if hands else {}
        if seen.open_hand is not None:
            shown.setdefault(contractor, seen.open_hand)
        out = _unseen_by_suit(seat, seen, track)
        if shown:
            exposed = {c for cards in shown.values() for c in cards}
            out = [[c for c in cards if c not in exposed] for cards in out]
        power = track.power
        top = [-1, -1, -1, -1]
        for s in range(4):
            unseen = out[s]
            if unseen:
                row = power[s]
                top[s] = row[unseen[0]]
        mine = team[seat]
        opponents = track.opponents.get(seat)
        if opponents is None:
            opponents = track.opponents[seat] = [s for s in range(n) if team[s] != mine and s not in out_seats]
        ours = contractor >= 0 and team[contractor] == mine  # an unbid hand played out has no contractor
        return _play_of(seat, seen, info, track, contract.trump, contractor, ours,
                        out, top, void, nxt, n - len(out_seats), opponents, shown)

    def _remaining(self, p: _Play) -> list[int]:
        """Seats still to play to the current trick after me."""
        seats = []
        s = p.seat
        for _ in range(p.trick_size - len(p.obs.current_trick) - 1):
            s = p.next_seat[s]
            seats.append(s)
        return seats

    def _trick_state(self, p: _Play) -> tuple[int, int, int]:
        """(suit led, best power, seat winning) of the current trick, as the engine's ``trick_winner`` has it; a led
        free joker wins."""
        led = _led(p.obs, p.table)
        if led == NO_SUIT:
            return NO_SUIT, 1 << 30, p.obs.leader
        winner, best = trick_winner(p.power[led], list(p.obs.current_trick), p.obs.leader, tuple(p.next_seat))
        return led, best, winner

    def _strength(self, p: _Play, action: int, led: int) -> int:
        """How high ``action`` ranks in a trick of suit ``led`` (0: it cannot win)."""
        if action < JOKER_LEAD:
            return p.power[led][action]
        n, named = divmod(action - JOKER_LEAD, 4)
        return p.power[named][JOKER_BASE + n] if named == led else 0

    def _can_beat(self, p: _Play, seats: Sequence[int], led: int, best: int) -> bool:
        """Might one of ``seats`` beat power ``best`` in a trick of suit ``led``?"""
        if self.reads_laid_out_hands and p.shown and seats:
            laid_out = p.info.rules.dummies
            hidden = []
            for r in seats:
                if r in laid_out and r in p.shown:
                    if _beats(p, p.shown[r], led, best):
                        return True
                else:
                    hidden.append(r)
            seats = hidden
        if not seats:
            return False
        power = p.power[led]
        void = p.void
        if p.top[led] > best:
            for r in seats:
                if not void[r] >> led & 1:
                    return True
        short = len(p.out[led]) <= 2  # a player who has not shown out may still be void
        for s in range(5):
            if s == led or not _any_above(power, p.out[s], best):
                continue
            for r in seats:
                v = void[r]
                if not v >> s & 1 and (v >> led & 1 or short):
                    return True
        return False

    def _master(self, p: _Play, card: int) -> bool:
        """No unseen card of its suit ranks above ``card`` (``reads_laid_out_hands``: nor an opponent's face-up one)."""
        s = p.suit_of[card]
        if s == NO_SUIT:
            return True
        row = p.power[s]
        if row[card] <= p.top[s]:
            return False
        if self.reads_laid_out_hands and p.shown:
            laid_out = p.info.rules.dummies
            for r in p.opponents:
                if r in laid_out and r in p.shown:
                    for c in p.shown[r]:
                        if p.suit_of[c] == s and row[c] > row[card]:
                            return False
        return True

    def _laid_out_ruffs(self, p: _Play, s: int) -> bool:
        """Would an opponent laid out on the table ruff a lead of side suit ``s``: it shows no card of ``s`` and a trump
        face up (``reads_laid_out_hands``)?"""
        trump = p.trump
        if not self.reads_laid_out_hands or trump is None or s == trump or not p.shown:
            return False
        laid_out = p.info.rules.dummies
        suit_of = p.suit_of
        for r in p.opponents:
            if r in laid_out and r in p.shown:
                follows = ruffs = False
                for c in p.shown[r]:
                    if suit_of[c] == s:
                        follows = True
                    elif suit_of[c] == trump:
                        ruffs = True
                if ruffs and not follows:
                    return True
        return False

    def _below(self, p: _Play, card: int) -> int:
        """Unseen cards of ``card``'s suit that rank below it."""
        s = p.suit_of[card]
        if s == NO_SUIT:
            return 0
        power = p.power[s]
        return _count_below(power, p.out[s], power[card])


def _beats(p: _Play, cards: Sequence[int], led: int, best: int) -> bool:
    """Whether one of ``cards`` that a hand holding them may play to a trick of suit ``led`` beats power ``best``."""
    suit_of = p.suit_of
    power = p.power[led]
    follows = False
    for c in cards:
        if suit_of[c] == led:
            follows = True
            break
    for c in cards:  # noqa: SIM110 - as _any_above
        if (not follows or suit_of[c] == led) and power[c] > best:
            return True
    return False


def _unseen_by_suit(seat: int, obs: _Seen, track: _Track) -> list[list[int]]:
    """By suit: the cards ``seat`` has not seen (not in its hand or its discards, not played), exposed
    hands aside.  Worked out once per hand, then less each card played since (a real ``Observation``
    comes with no log to go on from: worked out afresh)."""
    log = obs.log
    known = track.unseen.get(seat) if log is not None else None
    tricks, trick, hand = obs.tricks, obs.current_trick, obs.hand
    # a hand laid out on the table gains the cards turned up under its own: worked out afresh
    if known is None or known[0] is not log or known[1] > len(tricks) or \
            (known[3] is not None and not _holds_all(known[3], hand)):
        mine = bytearray(MAX_CARD)  # by card: seen (compiled, a C byte read, not a set's hash lookup)
        for c in hand:
            mine[c] = 1
        for c in trick:
            mine[c] = 1
        for c in obs.discards:
            mine[c] = 1
        out = []
        for cards in track.unplayed:
            kept = []
            for c in cards:
                if not mine[c]:
                    kept.append(c)
            out.append(kept)
    else:
        # the trick in progress then (the first of the tricks since, or still in progress) had its first
        # ``dropped`` cards taken out already
        out, dropped = known[2], known[4]
        suit_of = track.table.suit_of
        for t in range(known[1], len(tricks)):
            played = tricks[t][1]
            for i in range(dropped, len(played)):
                c = played[i]
                s = suit_of[c]
                _drop(out[s], c)
            dropped = 0
        for i in range(dropped, len(trick)):
            c = trick[i]
            s = suit_of[c]
            _drop(out[s], c)
    if log is not None:
        track.unseen[seat] = (log, len(tricks), out, frozenset(hand) if seat in track.laid_out else None, len(trick))
    return out


def _continues(tricks: Sequence[object], known: Sequence[object]) -> bool:
    """``tricks[:len(known)] == known``, without the slice (the tricks read before are mostly the same objects)."""
    if len(tricks) < len(known):
        return False
    for i in range(len(known)):
        a, b = tricks[i], known[i]
        if a is not b and a != b:
            return False
    return True


def _holds_all(cards: frozenset[int], hand: Sequence[int]) -> bool:
    """``cards.issuperset(hand)``, without making a set of ``hand``."""
    for c in hand:  # noqa: SIM110 - as _any_above
        if c not in cards:
            return False
    return True


def _ruffable(p: _Play, s: int) -> bool:
    """Might an opponent ruff a lead of side suit ``s``: one has shown out of it, not of trumps?"""
    trump = p.trump
    if trump is None or s == trump or not p.out[trump]:
        return False
    void = p.void
    for o in p.opponents:  # noqa: SIM110 - as _any_above
        if void[o] >> s & 1 and not void[o] >> trump & 1:
            return True
    return False


def _all_void(void: list[int], seats: list[int], suit: int) -> bool:
    """Have all of ``seats`` shown out of ``suit``?"""
    for o in seats:  # noqa: SIM110 - as _any_above
        if not void[o] >> suit & 1:
            return False
    return True


def _drop(cards: list[int], card: int) -> None:
    """Take ``card`` out of ``cards`` if it is there."""
    for i in range(len(cards)):
        x = cards[i]
        if x == card:
            del cards[i]
            return


def _any_above(row: list[int], cards: list[int], power: int) -> bool:
    """Does one of ``cards`` rank above ``power`` in ``row``?"""
    for x in cards:  # noqa: SIM110 - a loop, not any(): compiled, a generator would be a closure (trick_reading.pxd)
        if row[x] > power:
            return True
    return False


def _count_below(row: list[int], cards: list[int], power: int) -> int:
    """How many of ``cards`` rank below ``power`` in ``row``."""
    below = 0
    for x in cards:
        if row[x] < power:
            below += 1
    return below


def _following(legal: Sequence[int], suit_of: list[int], led: int) -> bool:
    """Are all of ``legal`` cards of suit ``led`` (no joker played with a named suit)?"""
    for a in legal:  # noqa: SIM110 - as _any_above
        if a >= JOKER_LEAD or suit_of[a] != led:
            return False
    return True


def _exact_in(obs: Seen, info: _RulesInfo) -> bool:
    """A contract for exactly its tricks whose side already has them."""
    contract = obs.contract
    if contract is None or contract.goal != "exactly" or obs.contractor < 0:
        return False
    side = info.rules.team_seats[obs.contractor] if contract.partner_plays else (obs.contractor,)
    won = 0
    for s in side:  # sum(): compiled, a generator would be a closure (trick_reading.pxd)
        won += obs.tricks_won[s]
    return won >= contract.tricks


def _led(obs: Seen, table: PlayTable) -> int:
    """The suit led to the current trick (NO_SUIT: a free joker whose named suit is not shown)."""
    led = getattr(obs, "led", None)
    return table.suit_of[obs.current_trick[0]] if led is None else led

