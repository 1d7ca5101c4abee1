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

This module holds the decisions before the play (the auction, the kitty exchange, the nomination, the variants'
steps) and ``act``; the hand evaluation is in ``evaluation``, the play in ``card_play`` (with ``misere_play``
and ``trick_reading``, its bases).  Compiled, the player is an extension type: ``heuristic.pxd`` types its
``_seen``, ``act`` and ``_misere_risk``; the pure-Python player never reads that file.
"""

from __future__ import annotations

from collections.abc import Sequence

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

from .card_play import CardPlay
from .evaluation import (  # noqa: F401 - re-exported: the players' hand evaluation, as club and the tests import it
    BID_KINDS,
    NT,
    TRUMP_HONOURS,
    _danger,
    _Denomination,
    _info,
    _key,
    _least_useful,
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

class HeuristicPlayer(CardPlay):
    """Bids, discards, nominates and plays by the rules of thumb of a club player (the play: ``CardPlay``)."""

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
    dummy_with_own_hand = False
    """Playing a dummy (P2), the cards of the hand that plays it count as seen (False: the dummy's own
    view, as this player always has: its face-up cards and what every seat sees)."""
    discards_with_dummy = False
    """Discarding, a partner's shown cards (a dummy's face-up cards) above a card count as ours."""

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
