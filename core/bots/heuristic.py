"""A rule-of-thumb player: the way a club player bids, discards and plays, with no search.

Bidding counts the tricks the hand should take in each denomination (trumps with the joker and
bowers, side winners, length), adds a share of the rest for partner and a little for the kitty,
and bids the cheapest legal rung of its best denomination that the count supports.  Misère is bid
only with a hand of low cards.  Play follows the table maxims: draw trumps while our side holds
most of them (the contractor: at least half as many as are unseen, partner's among them),
cash winners, second hand low, third hand high, win cheaply, never overtake a partner who is
safely winning, ruff when it matters, otherwise throw the least useful card.  In misère the
contractor ducks with the highest card that still loses and the defenders lead low into it.

The player reads only what ``state.observation(seat)`` shows (in the auction, the discards and the play, the
same fields read through the state's public API: ``_Seen``) and the ruleset's public tables
(``state.rules``: ladder, play tables, teams); the only randomness it may use is the generator
it is given (it currently needs none: its choices are deterministic).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any

from fivehundred.engine.state import (
    CALL,
    DISCARD,
    JOKER_LEAD,
    NO_NOMINATION,
    NOMINATE,
    PASS_ACTION,
    GameState,
    Phase,
    Trick,
)
from fivehundred.rules.cards import JOKER_BASE, MAX_CARD, NO_SUIT
from fivehundred.rules.steps import FIRST_STEP_ACTION
from fivehundred.rules.tables import PlayTable

from .evaluation import (  # noqa: F401 - re-exported: the players' hand evaluation, as club and the tests import it
    BID_KINDS,
    NT,
    TRUMP_HONOURS,
    _danger,
    _Denomination,
    _info,
    _key,
    _misere_throw,
    _plain,
    _RulesInfo,
    _solo_misere,
    misere_kept,
    misere_risk,
    own_tricks,
    sure_winners,
)
from .situation import (  # noqa: F401 - re-exported: what the players read of the play, as club and defence import it
    LAYOUTS_KEPT,
    Seen,
    _as_seen,
    _card,
    _Layout,
    _layout,
    _Play,
    _play_of,
    _Seen,
    _seen_of,
    _shown_cards,
    _shown_hand,
    _Track,
)

_PLAY, _AUCTION, _DISCARD, _NOMINATE = Phase.PLAY, Phase.AUCTION, Phase.DISCARD, Phase.NOMINATE
"""The phases ``act`` tells apart, read once: on Python 3.11 an enum's member read (``Phase.PLAY``) goes through
the enum type's ``__getattr__``, ten times the cost of a global."""


_tricks_read: tuple[list[Trick], tuple[tuple[int, tuple[int, ...], int, int | None], ...]] | None = None
"""The tricks of the hand log last read (``HeuristicPlayer._seen``), as ``Observation.tricks`` gives them, as far as
they were read.  What every seat sees, shared by the players of a table: each trick is read once, not once a seat
(an immutable snapshot, replaced whole: threads that play other games only read it afresh)."""
_tables = threading.local()
"""``track``: what the completed tricks of the hand last played in this thread have shown
(``HeuristicPlayer._situation``): public, and so shared by the players of a table.  Another hand or game read in
between (a rollout, another table) starts it afresh or goes on from the tricks both have in common; a thread
keeps its own, since a track changes as it is read."""


class HeuristicPlayer:
    """Bids, discards, nominates and plays by the rules of thumb of a club player."""

    partner_share = 0.40
    """Share of the tricks my hand does not take that partner is counted for."""
    kitty_tricks = 0.4
    """Tricks for the kitty exchange and the opening lead beyond what ``own_tricks`` counts."""
    partner_support = 1.5
    """Extra tricks when partner has bid the same denomination."""
    bid_margin = 0.0
    """A rung is bid when the team estimate reaches its tricks plus this margin."""
    takeout_margin = 1.0
    """Extra margin needed to bid over partner's standing bid in another denomination."""
    misere_limit = 2.0
    """Largest misère risk (``misere_risk`` after the discards) the player bids misère on."""
    open_misere_limit = 0.15
    """Largest risk for open misère, with no help from the kitty."""
    no_misere_above = 8.0
    """A hand whose team estimate reaches this many tricks bids them rather than misère."""
    side_ducks = False
    """In a misère the contractor's partner plays too, the partner ducks as the contractor does
    (False: it takes tricks off the contractor, as this player always has)."""
    exact_then_misere = False
    """A side that has the tricks of a contract for exactly that many plays the rest as a misère."""
    dummy_with_own_hand = False
    """Playing a dummy (P2), the cards of the hand that plays it count as seen (False: the dummy's own
    view, as this player always has: its face-up cards and what every seat sees)."""
    discards_with_dummy = False
    """Discarding, a partner's shown cards (a dummy's face-up cards) above a card count as ours."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng
        self._estimates: tuple[tuple[int, ...], dict[int, float]] | None = None
        self._risks: dict[tuple[tuple[int, ...], int], float] = {}
        self._in_play: tuple[Any, ...] | None = None
        """What a seat sees that stays the same through the play of a hand (``_seen``)."""
        self._rules_info: _RulesInfo | None = None
        """``_info`` of the rules last played."""
        self._track: _Track | None = None
        """The track this player's last play decision read (``_situation``): taken again, without the thread's
        lookup, while the hand's log and contract are the ones it was read with."""

    def _seen(self, state: GameState, seat: int) -> _Seen:
        """``state.observation(seat)`` for the auction and the play, read through the public API."""
        log = state.hands_log[-1]  # state.hand_log, without the property call
        phase = state.phase
        contract = log.contract
        if phase != _PLAY:
            hand, discards, shown = state.cards_seen(seat)
            return _seen_of(seat, phase, hand, tuple(log.calls), contract, log.contractor, log.nomination, discards,
                            (), (), None, -1, state.tricks_won_by_seat, tuple(state.totals),
                            _shown_hand(shown, log.contractor), shown, -1, None)
        fixed = self._in_play
        if fixed is None or fixed[0] is not log or fixed[1] != seat or fixed[2] is not contract:
            hand, discards, shown = state.cards_seen(seat)
            # once the play begins, only an open contract shows a hand that was not shown before (rule 18)
            showing = bool(shown) or (contract is not None and (contract.open or contract.partner_open))
            # a dummy we play (P2): we hold our own hand, the controller's
            controller = state.rules.controller[seat] if self.dummy_with_own_hand else seat
            fixed = self._in_play = (log, seat, contract, tuple(log.calls), discards, tuple(state.totals),
                                     min(state.sitting_out, default=-1), showing, log.contractor, log.nomination,
                                     controller)
        elif fixed[7]:
            hand, discards, shown = state.cards_seen(seat)
        else:
            hand, discards, shown = state.hand(seat), fixed[4], ()
        tricks = log.tricks
        global _tricks_read
        known = _tricks_read
        if known is None or known[0] is not tricks or len(known[1]) > len(tricks):
            known = _tricks_read = (tricks, ())
        if len(known[1]) < len(tricks):
            added = tuple([(t.leader, tuple(t.cards), t.winner, t.named) for t in tricks[len(known[1]):]])
            known = _tricks_read = (tricks, known[1] + added)
        contractor = fixed[8]
        controller = fixed[10]
        if controller != seat:
            shown = (*shown, (controller, state.hand(controller)))
        trick, led, leader, won = state.trick_view()
        return _seen_of(seat, phase, hand, fixed[3], contract, contractor, fixed[9], discards, known[1],
                        trick, led, leader, won, fixed[5], _shown_hand(shown, contractor) if shown else None, shown,
                        fixed[6], log)

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        """Choose one of ``legal``, knowing only what the acting seat may know."""
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        if seat < 0:
            seat = self.seat
        # the acting seat is ours, or a dummy hand we control (variant P2)
        info = self._rules_info
        if info is None or info.rules is not state.rules:
            info = self._rules_info = _info(state.rules)
        phase = state.phase
        if phase == _PLAY:
            # no step offer (a claim: it cannot see the hands); the actions come sorted
            plays = legal if legal[-1] < FIRST_STEP_ACTION else [a for a in legal if a < FIRST_STEP_ACTION]
            return plays[0] if len(plays) == 1 else self._play(seat, self._seen(state, seat), info, plays)
        if phase == _AUCTION:
            return self._bid(seat, self._seen(state, seat), info, legal)
        if phase == _DISCARD:  # the discards read the contract: a whole observation costs more than them
            return self._discard(self._seen(state, seat), info, legal)
        obs = state.observation(seat)
        if phase == _NOMINATE:
            return self._nominate(obs, legal)
        return self._other(obs, info, legal)

    # --- auction ----------------------------------------------------------------------------

    def estimates(self, hand: Sequence[int], info: _RulesInfo) -> dict[int, float]:
        """Own tricks per denomination key (trump suit, or ``NT``)."""
        key = tuple(hand)
        if self._estimates is None or self._estimates[0] != key:
            self._estimates = (key, {k: own_tricks(hand, d) for k, d in info.denominations.items()})
        return self._estimates[1]

    def team_estimates(self, seat: int, obs: Seen, info: _RulesInfo) -> dict[int, float]:
        """Tricks our side should take per denomination: own tricks, a share of the rest for
        partner (more when partner has bid the denomination) and a little for the kitty."""
        ladder = info.rules.ladder
        partners = info.partners[seat]
        partner_bids = {_key(ladder[call]) for s, call in obs.calls
                        if s in partners and 0 <= call < len(ladder) and _plain(ladder[call])}
        hand_size = info.rules.hand_size
        team: dict[int, float] = {}
        for key, own in self.estimates(obs.hand, info).items():
            total = own + self.kitty_tricks
            if partners:
                total += self.partner_share * max(0.0, hand_size - own)
                if key in partner_bids:
                    total += self.partner_support
            team[key] = total
        return team

    def _bid(self, seat: int, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> int:
        ladder = info.rules.ladder
        bids = [a - CALL for a in legal if CALL <= a < CALL + len(ladder)]
        forced = forced_call(legal, bids)
        if forced is not None:
            return forced
        partners = info.partners[seat]
        holder = -1
        partner_bids: set[int] = set()
        for s, call in obs.calls:
            if 0 <= call < len(ladder):
                holder = s
                if s in partners and _plain(ladder[call]):
                    partner_bids.add(_key(ladder[call]))
        partner_holds = holder in partners
        team = self.team_estimates(seat, obs, info)
        order = sorted(team, key=lambda k: (-team[k], -k))
        for key in order:
            if partner_holds and key in partner_bids:
                continue  # partner already plays it: nothing to gain by raising our own side
            level = team[key] - self.bid_margin - (self.takeout_margin if partner_holds else 0.0)
            for rung in bids:
                c = ladder[rung]
                if _plain(c) and _key(c) == key:
                    if c.tricks <= level:
                        return CALL + rung  # the cheapest rung of the best denomination we can make
                    break  # the cheapest legal rung of this denomination is already too high
        if not partner_holds:
            misere = self._misere_bid(obs.hand, info, bids, max(team.values(), default=0.0))
            if misere is not None:
                return misere
        if PASS_ACTION in legal:
            return PASS_ACTION
        # a call is compulsory (e.g. the dealer must bid): the cheapest rung of the best denomination
        for key in order:
            for rung in bids:
                if _plain(ladder[rung]) and _key(ladder[rung]) == key:
                    return CALL + rung
        return CALL + bids[0]

    def _misere_bid(self, hand: Sequence[int], info: _RulesInfo, bids: list[int], best: float) -> int | None:
        d = info.misere
        ladder = info.rules.ladder
        candidates = [r for r in bids if _solo_misere(ladder[r])]
        if d is None or not candidates or best >= self.no_misere_above:
            return None
        # open misère (worth the game) with a hand that needs nothing from the kitty, else misère
        for rung in sorted(candidates, key=lambda r: not ladder[r].open):
            c = ladder[rung]
            discards = info.rules.kitty_size if getattr(c, "kitty", True) else 0
            if c.open:
                if self._misere_risk(hand, d, 0) <= self.open_misere_limit:
                    return CALL + rung
            elif self._misere_risk(hand, d, max(0, discards - 1)) <= self.misere_limit:
                return CALL + rung  # one discard is kept back for the danger the kitty brings
        return None

    def _misere_risk(self, hand: Sequence[int], d: _Denomination, discards: int) -> float:
        key = (tuple(hand), discards)
        risk = self._risks.get(key)
        if risk is None:
            if len(self._risks) > 8:
                self._risks.clear()
            risk = self._risks[key] = misere_risk(hand, d, discards)
        return risk

    # --- kitty exchange, nomination and the variants' extra decisions ------------------------

    def _discard(self, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> int:
        contract = obs.contract
        hand = [a - DISCARD for a in legal if DISCARD <= a < DISCARD + JOKER_LEAD]
        if contract is None or not hand:
            return legal[0]
        if contract.kind == "misere":
            d = info.misere or info.denomination(contract)
            return DISCARD + _misere_throw(hand, d)  # the joker first, then the most dangerous card
        d = info.denominations.get(_key(contract)) or info.denomination(contract)
        if self.exact_then_misere and contract.goal == "exactly" and not contract.partner_plays:
            # keep the contract's tricks in the surest winners and throw the rest as a misère hand would
            rest = sorted(set(hand) - set(sure_winners(hand, d, contract.tricks)))
            if rest:
                return DISCARD + _misere_throw(rest, info.misere or d)
        partner_cards: list[int] = []
        if self.discards_with_dummy and contract.partner_plays and obs.open_hands:
            partners = info.partners[obs.seat]
            partner_cards = _shown_cards(obs.open_hands, partners)
        return DISCARD + _least_useful(hand, d, partner_cards)

    def _nominate(self, obs: Seen, legal: Sequence[int]) -> int:
        contract = obs.contract
        suits = [a - NOMINATE for a in legal if NOMINATE <= a < NO_NOMINATION]
        if contract is None or contract.kind != "misere" or not suits:
            # in no-trumps a free joker wins any trick it is played to: keep it free
            return NO_NOMINATION if NO_NOMINATION in legal else legal[0]
        # A misère contractor who kept the joker: nominated, it is the top card of its suit and
        # may be thrown on another suit.  Name the suit we hold most of, so that it is the last
        # card we would have to follow with, and we are likely void elsewhere first.
        counts = [0] * 4
        for c in obs.hand:
            if c < JOKER_BASE:
                counts[c // 20] += 1
        return NOMINATE + max(suits, key=lambda s: (counts[s], -s))

    def _other(self, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> int:
        """Decisions of variant phases: call a partner's card (P5), pass a card (C6, C7; C1 as discards);
        decline slam, declare and breach calls."""
        contract = obs.contract
        d = None
        if contract is not None and contract.kind in BID_KINDS:
            d = info.denominations.get(_key(contract)) or info.denomination(contract)
        # The built-in steps' actions are card ids above the first of the step's range (plugins/partner.py,
        # plugins/declarations.py); their names are the steps' own.
        base = info.rules.step_of_action[legal[0]].actions.start if obs.step is not None else 0
        if obs.step == "partner-call" and d is not None:
            # call the best card we lack: the top trump (or ace) not in our hand
            rank, suit_of, trump = d.rank, d.table.suit_of, d.trump
            cards = [a for a in legal if base <= a < base + MAX_CARD]
            if cards:
                return min(cards, key=lambda a: (suit_of[a - base] != trump, rank[a - base]))
        if obs.step == "pass-to-partner":  # C1: the cards it would discard go to the partner (plugins/passing.py)
            return base + self._discard(obs, info, [DISCARD + a - base for a in legal]) - DISCARD
        if obs.step == "gift" and d is not None:
            rank, suit_of, trump = d.rank, d.table.suit_of, d.trump
            cards = [a for a in legal if base <= a < base + MAX_CARD]
            if cards:
                return min(cards, key=lambda a: (suit_of[a - base] not in (trump, NO_SUIT), rank[a - base]))
        return min(legal)  # the "no" of a yes/no decision is its lower action

    # --- play -------------------------------------------------------------------------------

    def _play(self, seat: int, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> int:
        p = self._situation(seat, obs, info)
        seen = p.obs
        contract = seen.contract
        misere = p.misere or (self.exact_then_misere and p.exact and _exact_in(seen, info))
        if misere and self.side_ducks and contract is not None and contract.partner_plays and p.our_contract:
            p.contractor = seat  # both partners must lose every trick: each plays as the contractor
        if not misere and self.exact_then_misere and p.exact and seat == p.contractor:
            spare = self._exact_spare(p, legal)
            if spare is not None:
                if not seen.current_trick:  # on lead: take a trick with a master
                    return self._lead(p, [a for a in legal if a not in spare] or legal)
                return self._misere_follow(p, spare)
        if seen.current_trick:
            return self._misere_follow(p, legal) if misere else self._follow(p, legal)
        return self._misere_lead(p, legal) if misere else self._lead(p, legal)

    def _exact_spare(self, p: _Play, legal: Sequence[int]) -> list[int] | None:
        """A contractor playing alone for exactly its tricks who holds the tricks it still needs in
        masters: the plays that keep those masters back (it loses the rest as a misère, taking
        the tricks when it must follow with a master).  None otherwise: it plays to take tricks."""
        contract = p.obs.contract
        if contract is None or contract.goal != "exactly" or contract.partner_plays:
            return None
        need = contract.tricks - p.obs.tricks_won[p.seat]
        hand = p.obs.hand
        masters = [c for c in hand if self._master(p, c)]
        if not 0 < need < len(hand) or len(masters) < need:
            return None
        power, suit_of = p.power, p.suit_of
        kept = set(sorted(masters, key=lambda c: -power[suit_of[c] if suit_of[c] < 4 else 0][c])[:need])
        return [a for a in legal if _card(a) not in kept] or list(legal)

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
        table = track.table
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
        for i in range(done, len(tricks)):
            leader, cards, _winner, named = tricks[i]
            led = named if named is not None else suit_of[cards[0]]
            s = leader
            for c in cards[1:]:
                s = nxt[s]
                if suit_of[c] != led and led != NO_SUIT:
                    void[s] |= 1 << led
        track.tricks = tricks
        void = void[:]
        trick = seen.current_trick
        if trick:
            led = _led(seen, table)
            s = seen.leader
            for c in trick[1:]:
                s = nxt[s]
                if led != NO_SUIT and suit_of[c] != led:
                    void[s] |= 1 << led
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
        """(suit led, best power, seat winning) of the current trick; a led free joker wins."""
        trick = p.obs.current_trick
        led = _led(p.obs, p.table)
        if led == NO_SUIT:
            return NO_SUIT, 1 << 30, p.obs.leader
        power = p.power[led]
        best, winner = power[trick[0]], p.obs.leader
        seat = winner
        for i in range(1, len(trick)):
            c = trick[i]
            seat = p.next_seat[seat]
            if power[c] > best:
                best, winner = power[c], seat
        return led, best, winner

    def _strength(self, p: _Play, action: int, led: int) -> int:
        """How high ``action`` ranks in a trick of suit ``led`` (0: it cannot win)."""
        if action < JOKER_LEAD:
            return p.power[led][action]
        n, named = divmod(action - JOKER_LEAD, 4)
        return p.power[named][JOKER_BASE + n] if named == led else 0

    def _can_beat(self, p: _Play, seats: Sequence[int], led: int, best: int) -> bool:
        """Might one of ``seats`` beat power ``best`` in a trick of suit ``led``?"""
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
        """No unseen card of its suit ranks above ``card``."""
        s = p.suit_of[card]
        return s == NO_SUIT or p.power[s][card] > p.top[s]

    def _follow(self, p: _Play, legal: Sequence[int]) -> int:
        led, best, winner = self._trick_state(p)
        if led == NO_SUIT:
            return self._cheapest(p, legal)
        team = p.info.team_of
        remaining = self._remaining(p)
        opponents = [s for s in remaining if team[s] != team[p.seat]]
        partner_winning = team[winner] == team[p.seat]
        if partner_winning and not self._can_beat(p, opponents, led, best):
            return self._cheapest(p, legal)  # never overtake a partner who is safely winning
        row = p.power[led]
        winners: list[int] = []  # the plays that win the trick so far, lowest first (a stable insertion sort)
        heights: list[int] = []
        for a in legal:
            height = row[a] if a < JOKER_LEAD else self._strength(p, a, led)
            if height > best:
                i = len(winners)
                while i and heights[i - 1] > height:
                    i -= 1
                winners.insert(i, a)
                heights.insert(i, height)
        if not winners:
            return self._cheapest(p, legal)
        for i in range(len(winners)):
            a = winners[i]
            if partner_winning and _card(a) >= JOKER_BASE:
                break  # a joker wins a trick whenever it is played: not on partner's
            if not self._can_beat(p, opponents, led, heights[i]):
                return a  # win as cheaply as is safe
        if partner_winning:
            return self._cheapest(p, legal)
        if not _following(legal, p.suit_of, led):
            return winners[0]  # void: ruff (or play the joker) as cheaply as possible
        if len(p.obs.current_trick) == 1 and len(opponents) < len(remaining):
            return self._cheapest(p, legal)  # second hand low: partner is still to play
        return winners[-1]  # third hand high

    def _cheapest(self, p: _Play, legal: Sequence[int]) -> int:
        """The least useful card: the lowest of the suit led, or when void a low card from a short
        side suit; trumps, winners and jokers are kept."""
        suit_of = p.suit_of
        power = p.power
        trump = p.trump
        counts = [0, 0, 0, 0, 0]
        for c in p.obs.hand:
            counts[suit_of[c]] += 1

        top = p.top
        trumps = -1 if trump is None else trump
        best, best_key = legal[0], -1
        for a in legal:  # min(legal, key=...), written out (heuristic.pxd: no closure)
            c = _card(a)
            s = suit_of[c]
            # (a trump, a master, the card's power and its suit's length) as one number: trumps and masters kept
            if c >= JOKER_BASE:
                key = 3 << 21 | 1 << 20
            else:
                mine = power[s][c]
                master = s == NO_SUIT or mine > top[s]
                key = (s == trumps) << 22 | master << 21 | mine + 4 * counts[s]
            if best_key < 0 or key < best_key:
                best, best_key = a, key
        return best

    def _lead(self, p: _Play, legal: Sequence[int]) -> int:
        hand = [c for c in legal if c < JOKER_LEAD]
        if not hand:
            return legal[0]  # only a free joker left to lead
        suit_of = p.suit_of
        trump = p.trump
        void = p.void
        opponents = p.opponents
        by_suit: list[list[int]] = [[], [], [], [], []]
        power = p.power
        for c in hand:  # by suit, highest first (an insertion sort: a handful of cards a suit)
            s = suit_of[c]
            cards = by_suit[s]
            if s == NO_SUIT:
                cards.append(c)
                continue
            row = power[s]
            i = len(cards)
            while i and row[cards[i - 1]] < row[c]:
                i -= 1
            cards.insert(i, c)
        if trump is not None and by_suit[trump] and p.our_contract:
            # draw trumps while we hold enough of those still unseen
            theirs = 0 if _all_void(void, opponents, trump) else len(p.out[trump])
            mine = by_suit[trump]
            if theirs and self._draw_trumps(len(mine), theirs, p.seat == p.contractor):
                return mine[0] if self._master(p, mine[0]) else mine[-1]
        if not p.our_contract:
            partner_suit = self._partner_suit(p)
            if partner_suit is not None and partner_suit != trump and by_suit[partner_suit]:
                cards = by_suit[partner_suit]
                return cards[0] if len(cards) == 1 or self._master(p, cards[0]) else cards[-1]
        cash = [cards[0] for s, cards in enumerate(by_suit[:4])
                if s != trump and cards and not _ruffable(p, s) and self._master(p, cards[0])]
        if cash:
            best = cash[0]
            for c in cash:  # cash a winner, longest suit first (the first of the longest)
                if len(by_suit[suit_of[c]]) > len(by_suit[suit_of[best]]):
                    best = c
            return best
        if not p.our_contract and trump is not None and by_suit[trump]:
            singles = [s for s in range(4) if s != trump and len(by_suit[s]) == 1]
            if singles:
                return by_suit[singles[0]][0]  # a singleton, to ruff the next round
        side = [s for s in range(4) if s != trump and by_suit[s]]
        if side:
            longest, longest_key = side[0], None
            for s in side:  # the first of the longest side suits, of the lowest card
                key = (len(by_suit[s]), -p.power[s][by_suit[s][-1]])
                if longest_key is None or key > longest_key:
                    longest, longest_key = s, key
            return by_suit[longest][-1]  # low from the longest side suit
        if trump is not None and by_suit[trump]:
            return by_suit[trump][-1]
        return hand[-1]

    def _draw_trumps(self, mine: int, theirs: int, contractor: bool) -> bool:
        """Lead trumps, holding ``mine`` of them with ``theirs`` unseen (partner's among them)?
        Drawing freely as contractor won clearly in self-play against drawing only with a majority."""
        return 2 * mine >= theirs if contractor else mine >= max(2, theirs)

    def _partner_suit(self, p: _Play) -> int | None:
        """The last suit partner bid, if any."""
        partners = p.info.partners[p.seat]
        ladder = p.info.rules.ladder
        suit = None
        for seat, call in p.obs.calls:
            if seat in partners and 0 <= call < len(ladder) and ladder[call].kind == "trumps":
                suit = ladder[call].trump
        return suit

    # --- misère -----------------------------------------------------------------------------

    def _below(self, p: _Play, card: int) -> int:
        """Unseen cards of ``card``'s suit that rank below it."""
        s = p.suit_of[card]
        if s == NO_SUIT:
            return 0
        power = p.power[s]
        return _count_below(power, p.out[s], power[card])

    def _hand_danger(self, p: _Play, hand: Sequence[int]) -> float:
        """Danger of a misère hand given the cards still unseen."""
        total = 0.0
        for term in self._danger_terms(p, hand)[0]:
            total += term
        return total

    def _danger_terms(self, p: _Play, hand: Sequence[int]) -> tuple[list[float], list[float]]:
        """Per card of ``hand``: its share of ``_hand_danger(p, hand)``, and that share were one of our lower
        cards of its suit gone."""
        suit_of = p.suit_of
        terms: list[float] = []
        fewer: list[float] = []
        for c in hand:
            s = suit_of[c]
            if s == NO_SUIT:
                terms.append(3.0)
                fewer.append(3.0)
                continue
            row = p.power[s]
            mine = row[c]
            others = _count_below(row, p.out[s], mine)
            own = 0
            for x in hand:
                if suit_of[x] == s and row[x] < mine:
                    own += 1
            terms.append(_danger(s, others, own))
            fewer.append(_danger(s, others, own - 1) if own else terms[-1])
        return terms, fewer

    def _misere_lead_cost(self, p: _Play, card: int) -> float:
        """The chance that leading ``card`` wins the trick (weighted heavily), plus the danger
        of the cards it leaves behind."""
        s = p.suit_of[card]
        hand = p.obs.hand
        if p.dangers is None:  # the same for every card this decision weighs
            p.dangers = self._danger_terms(p, hand)
        terms, fewer = p.dangers
        suit_of = p.suit_of
        row = p.power[s] if s != NO_SUIT else []
        mine = row[card] if s != NO_SUIT else 0
        later = 0.0  # _hand_danger of the hand less ``card``: its cards above ``card`` have one lower card fewer
        for i in range(len(hand)):
            x = hand[i]
            if x != card:
                later += fewer[i] if s != NO_SUIT and suit_of[x] == s and row[x] > mine else terms[i]
        if s == NO_SUIT:
            return 10.0 + later
        higher = lower = 0
        for x in p.out[s]:
            if row[x] > mine:
                higher += 1
            elif row[x] < mine:
                lower += 1
        unseen = 0
        for cards in p.out:
            unseen += len(cards)
        unseen = unseen or 1
        held = p.info.rules.hand_size - len(p.obs.tricks)
        miss = max(0.0, 1.0 - held / unseen)  # chance a given unseen card is not in one defender's hand
        win = 1.0
        if higher:
            for d in p.opponents:
                if not p.void[d] >> s & 1:  # one who has shown out throws a card under ours
                    win *= 1.0 - miss ** lower + miss ** (lower + higher)
        return 4.0 * win + later

    def _defend_lead(self, p: _Play, legal: Sequence[int]) -> int | None:
        """A defender's lead against a misère, when a subclass defends otherwise (None: as below)."""
        return None

    def _defend_follow(self, p: _Play, legal: Sequence[int]) -> int | None:
        """A defender's card to a misère trick, when a subclass defends otherwise (None: as below)."""
        return None

    def _defend_shed(self, p: _Play, legal: Sequence[int]) -> int | None:
        """A void defender's discard in a misère, when a subclass defends otherwise (None: as below)."""
        return None

    def _misere_lead(self, p: _Play, legal: Sequence[int]) -> int:
        chosen = self._defend_lead(p, legal)
        if chosen is not None:
            return chosen
        cards = [c for c in legal if c < JOKER_LEAD]
        if not cards:
            return legal[0]
        best = cards[0]
        if p.seat == p.contractor:
            least = self._misere_lead_cost(p, best)
            for c in cards[1:]:  # min(cards, key=...), written out (heuristic.pxd: no closure)
                cost = self._misere_lead_cost(p, c)
                if cost < least:
                    best, least = c, cost
            return best
        # a defender leads low into a suit the contractor still holds
        suit_of = p.suit_of
        power = p.power
        contractor = p.contractor
        theirs_shown = p.shown.get(contractor)
        best_key = None
        for c in cards:
            s = suit_of[c]
            row = power[s]
            if p.void[contractor] >> s & 1:
                key = (3, 0, row[c])
            elif theirs_shown is not None:
                theirs = [x for x in theirs_shown if suit_of[x] == s]
                if not theirs:
                    key = (3, 0, row[c])
                else:
                    under = _count_below(row, theirs, row[c])
                    key = (0 if not under else 2, under, row[c])
            else:
                key = (1, self._below(p, c), row[c])
            if best_key is None or key < best_key:
                best, best_key = c, key
        return best

    def _misere_follow(self, p: _Play, legal: Sequence[int]) -> int:
        chosen = self._defend_follow(p, legal)
        if chosen is not None:
            return chosen
        led, best, winner = self._trick_state(p)
        if led == NO_SUIT:
            return self._misere_shed(p, legal)
        strength = {a: self._strength(p, a, led) for a in legal}
        following = _following(legal, p.suit_of, led)
        under = [a for a in legal if strength[a] < best] if following else []
        if p.seat == p.contractor:
            if not following:
                return self._misere_shed(p, legal)
            if under:
                return max(under, key=strength.__getitem__)  # the highest card that still loses
            if self._remaining(p):
                return min(legal, key=strength.__getitem__)  # leave a defender room to overtake
            return max(legal, key=strength.__getitem__)
        team = p.info.team_of
        if team[p.seat] == team[p.contractor]:
            # the contractor's partner, where it plays: take tricks off the contractor
            return max(legal, key=strength.__getitem__)
        if not following:
            return self._misere_shed(p, legal)
        if winner == p.contractor or p.contractor in self._remaining(p):
            if under:
                return max(under, key=strength.__getitem__)  # stay under, keep the low cards
            return min(legal, key=strength.__getitem__)
        return max(legal, key=strength.__getitem__)  # the contractor is safe here: shed a high card

    def _misere_shed(self, p: _Play, legal: Sequence[int]) -> int:
        """When void: the contractor throws the card that most reduces its danger, a defender
        its highest (keeping low cards to lead under the contractor)."""
        chosen = self._defend_shed(p, legal)
        if chosen is not None:
            return chosen
        suit_of = p.suit_of
        if p.seat == p.contractor:
            hand = p.obs.hand

            def relief(a: int) -> tuple[float, int]:
                c = _card(a)
                suit = [x for x in hand if suit_of[x] == suit_of[c]]
                rest = [x for x in suit if x != c]
                return (self._hand_danger(p, suit) - self._hand_danger(p, rest), self._below(p, c))

            return max(legal, key=relief)

        def height(a: int) -> tuple[int, int]:
            c = _card(a)
            s = suit_of[c]
            if s == NO_SUIT:
                return (1 << 30, 0)
            return (self._below(p, c), p.power[s][c])

        return max(legal, key=height)


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
    for x in cards:  # noqa: SIM110 - a loop, not any(): compiled, a generator would be a closure (heuristic.pxd)
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
    for s in side:  # sum(): compiled, a generator would be a closure (heuristic.pxd)
        won += obs.tricks_won[s]
    return won >= contract.tricks


def _led(obs: Seen, table: PlayTable) -> int:
    """The suit led to the current trick (NO_SUIT: a free joker whose named suit is not shown)."""
    led = getattr(obs, "led", None)
    return table.suit_of[obs.current_trick[0]] if led is None else led


def _least_useful(hand: Sequence[int], d: _Denomination, partner_cards: Sequence[int] = ()) -> int:
    """The card the contractor can best spare: never a trump or a free joker while there is
    another; keep winners and guarded kings (the cards above them in our hand or among a partner's
    ``partner_cards`` in sight, a dummy's face-up cards); shorten short side suits (in trumps, to ruff)."""
    suit_of, rank = d.table.suit_of, d.rank
    trump = -1 if d.trump is None else d.trump
    cards, shown = list(hand), list(partner_cards)
    counts = [0, 0, 0, 0, 0]
    for c in cards:
        counts[suit_of[c]] += 1
    best, least = cards[0], 0.0
    for i in range(len(cards)):  # min(hand, key=...), written out (heuristic.pxd: no closure)
        c = cards[i]
        s = suit_of[c]
        r = rank[c]
        if s in (NO_SUIT, trump):
            keep = 1000.0 - r
        else:
            higher = r
            for x in cards:
                if suit_of[x] == s and rank[x] < r:
                    higher -= 1
            for x in shown:
                if suit_of[x] == s and rank[x] < r:
                    higher -= 1
            value = 60.0 if higher == 0 else 25.0 if higher == 1 and counts[s] >= 2 else \
                8.0 if higher == 2 and counts[s] >= 3 else 0.0
            keep = value - 0.5 * r + (6.0 if trump < 0 else 3.0) * counts[s]
        if i == 0 or keep < least:
            best, least = c, keep
    return best


def forced_call(legal: Sequence[int], bids: Sequence[int]) -> int | None:
    """The call a player makes without weighing its hand: the only one there is (no pass and no bid
    offered), or what a step offers beside the calls, taken whenever offered (the shipped one is D4's
    misdeal, offered to a hand without a face card, which is not worth bidding); None when the choice
    is the player's."""
    if PASS_ACTION not in legal and not bids:
        return legal[0]
    if legal[-1] >= FIRST_STEP_ACTION:
        return legal[-1]
    return None
