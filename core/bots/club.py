"""The club player: bids for the expected score of each call under the ruleset at hand.

Every call on the ladder is priced the same way, whatever the ruleset: the side's tricks are
estimated for the call's play table (trumps, no-trumps, jacks high …) from the hand, the kitty it
will take (its size, or none), and the partners who play with it (team mates, a called partner,
nobody when they sit out; a partner whose cards are partly shown, a dummy laid out face up, counts
for those cards with ours and an average share for the rest, and the opponents' shown cards count
against us); a misère is priced from the danger of the hand after its discards, more when the hand
is shown (and, where ``open_leads`` weighs it, by the chance that defenders who see it cannot force it in
a suit: ``misere_bids``) or a partner must also lose every trick.  The make probability times the
call's value, less the failure's cost times its chance (the ladder's value, ``fail_value``,
``fail_penalty``), plus what the call does to the game (a made call that reaches the target, a
failure that falls to the losing score) is the call's worth; the player bids the best call worth
more than passing (than partner's standing contract, when partner holds the bid).

Discards, nominations and the play are the ``HeuristicPlayer``'s, which read the play tables (the
discards counting a shown partner's cards above a card as ours, a dummy played knowing the hand of
the seat that plays it), but against a misère it defends as ``MisereDefender`` does (it attacks the
contractor's suits); in a misère played by both partners, the partner ducks as the contractor does,
and a side that has the tricks of a contract for exactly that many (Hi/Lo) plays the rest as a misère.

Its judgement (spread of the estimate, partner and kitty weights, misère risk curve, thresholds)
is a ``ClubParams``; ``fivehundred calibrate`` tunes one per ruleset, and the tuned sets ship.

This module estimates the side's tricks and makes the auction's decisions; what a call is worth given its chance
(the ruleset's ladder, game and scoring read once, the arithmetic of the worth) is ``call_pricing``'s.  Compiled,
``club.pxd`` types the player (an extension type) and ``call_pricing.pxd`` the pricing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from math import inf

from fivehundred.engine.state import CALL, FIRST_STEP_ACTION, PASS_ACTION, GameState
from fivehundred.rules.actions import DISCARD, Phase
from fivehundred.rules.manager import Rules
from fivehundred.rules.tables import Contract

from .call_pricing import (  # noqa: F401 - re-exported: the pricing, as the tests and benchmarks import it
    BIDDER_CHANCE,
    BIDDER_LOGIT,
    NO_SUPPORT,
    RAISED,
    SQRT2,
    SUPPORT,
    _at_least,
    _misere_chance,
    _offered,
    _opponent_bids,
    _opponent_called,
    _Pricing,
    _pricing,
    _rung_worth,
    _support,
    _weights,
    _worth,
)
from .defence import MisereDefender
from .evaluation import _Denomination, _info, _key, _RulesInfo, jokers_held, misere_length, own_tricks, sure_winners
from .heuristic import forced_call
from .misere_bids import open_leads_chance
from .params import ClubParams, club_spec, tuned_for, without_search
from .situation import Seen, _as_seen, _shown_cards
from .solved_bids import open_misere_chance
from .solved_discards import best_discards, exchange_start, searched_exchange
from .solved_worlds import best_card, survival_card, table_misere_card

try:
    import cython
except ImportError:  # the pure-Python build: Cython is a build requirement only
    from math import erf
else:
    if cython.compiled:  # the C library's erf, called as C (the same values as math.erf, which calls it)
        from cython.cimports.libc.math import erf  # type: ignore[no-redef]
    else:
        from math import erf


MISERE_BID_FLOOR = 0.25
"""The danger curve's chance of an open misère under which ``misere_bid_worlds`` does not search it: such hands are
bid rarely and made more rarely (a fifth of those bid on the reference ruleset)."""


def _misere_kept_back(info: _RulesInfo, pricing: _Pricing, contract: Contract) -> tuple[_Denomination, int]:
    """A misère's denomination and the discards its danger is priced after: the kitty's less one, kept back for what
    the kitty brings (none without the kitty)."""
    return info.misere or info.denomination(contract), max(0, (pricing.kitty_size if contract.kitty else 0) - 1)


def _alone_in_misere(state: GameState) -> bool:
    """Whether the seat to discard is the contractor of a misère it plays alone (its discards searched where
    ``misere_exchange_worlds`` says)."""
    contract = state.contract
    return (contract is not None and contract.kind == "misere" and state.current_player() == state.contractor
            and searched_exchange(state))


def _in_reach(state: GameState, seat: int, cards: float) -> bool:
    """Whether the seats playing hold at most ``cards`` cards together (``seat``'s hand times the seats playing):
    a search's cost grows steeply with the cards left, and a fourth seat multiplies it more than tenfold."""
    return len(state.hand(seat)) * (state.rules.players - len(state.sitting_out)) <= cards


class ClubPlayer(MisereDefender):
    """Bids for expected score from the ruleset's own ladder, contracts and game end."""

    side_ducks = True
    exact_then_misere = True
    plays_for_the_table = True
    holds_top_trumps = True
    covers_partner = True
    covers_without_the_joker = True
    draws_from_the_top = True
    draws_under_the_top = True
    keeps_lone_trump = True
    keeps_two_low_trumps = True
    keeps_the_stopper = True
    keeps_the_joker_second = True
    joker_kept_for_partner = True
    second_hand_low_in_no_trumps = True
    throws_low_without_trumps = True
    draws_with_the_master = True
    leads_the_master_trump = True
    leads_under_partners_card = True
    reads_laid_out_hands = True
    dummy_with_own_hand = True
    discards_with_dummy = True

    def __init__(self, seat: int, rng: random.Random, params: ClubParams | None = None):
        super().__init__(seat, rng)
        self.params = params
        """None: the tuned parameters of whatever ruleset is played (or the defaults), looked up once."""
        self.searches = True
        """False: where ``params`` is looked up, the tuned set without its open-misère search (``club:fast``)."""
        self._own: tuple[tuple[int, ...], dict[_Denomination, float]] | None = None
        self._side: dict[tuple[int, bool, bool], float] = {}
        """Side trick estimates of the decision at hand (they depend on the calls made so far)."""
        self._side_of: Seen | None = None
        self._worths: tuple[tuple[object, ...], dict[int, float]] | None = None
        """``call_worths`` of this auction so far, with what they depend on (see ``_worths_key``)."""
        self._leads: tuple[tuple[int, tuple[int, ...], int, bool], float] | None = None
        """The last ``open_leads_chance`` worked out, with its seat, hand and rung."""
        self._plain: tuple[ClubParams, ClubParams] | None = None
        """``params`` and its plain copy (``_params``)."""
        self._fellows: list[ClubPlayer] | None = None
        """``_fellows_of``'s players, made once."""
        self._throws: tuple[tuple[object, ...], list[int]] | None = None
        """The discards ``searched_discard`` chose for the exchange in progress, with the exchange's start."""
        self._auction: GameState | None = None
        """The auction's position while this player prices its call there (``misere_bid_worlds`` searches it)."""
        self._misere_priced: tuple[tuple[object, ...], float | None] | None = None
        """The last open misère's chance searched (``searched_misere``), with the position it was searched in."""

    @classmethod
    def from_spec(cls, seat: int, rng: random.Random, arg: str | None = None) -> ClubPlayer:
        """``club`` (tuned for the ruleset played), ``club:default`` (untuned), ``club:RULESET`` (the set tuned
        for a shipped ruleset) or ``club:FILE.json``; ``club:fast`` (``club:fast:ARG``) the same without the
        open-misère search (``params.club_spec``)."""
        params, searches = club_spec(arg)
        player = cls(seat, rng, params)
        player.searches = searches
        return player

    def act(self, state: GameState, legal: Sequence[int]) -> int:
        """The heuristic's choice, but for the searches. In the auction, an open misère is priced over
        ``misere_bid_worlds`` sampled deals solved double dummy (``searched_misere``). A misère's contractor playing
        alone throws the discards made most often over ``misere_exchange_worlds`` sampled deals solved double dummy
        (``solved_discards``). In an open misère, once the seats playing hold at most ``misere_cards`` cards, a searched
        card (``solved_worlds.best_card``, the heuristic's among equals): a defender's keeps a kill in the most of
        ``misere_worlds`` sampled worlds solved double dummy; the contractor's side's loses no trick in the most of
        ``misere_own_worlds``, and where that is half of them or fewer or cards are level, counts too the worlds in
        which the misère is made when ``club`` plays every seat on from it (``plays_for_the_table``,
        ``solved_worlds.table_misere_card``: the defence at the table does not see every card)."""
        if state.phase == Phase.AUCTION:
            self._auction = state
            try:
                return int(MisereDefender.act(self, state, legal))
            finally:
                self._auction = None
        chosen: int = MisereDefender.act(self, state, legal)
        if len(legal) > 1 and state.phase == Phase.DISCARD and _alone_in_misere(state):
            worlds = int(self._params(state.rules).misere_exchange_worlds)
            thrown = self.searched_discard(state, legal, worlds, self._fellows_of(state)) if worlds else None
            if thrown is not None:
                return thrown
        if len(legal) > 1 and state.phase == Phase.PLAY:
            contract = state.contract
            if contract is not None and contract.kind == "misere" and contract.open:
                seat = state.current_player()
                weights = self._params(state.rules)
                ours = seat in state.contracting_side
                worlds = int(weights.misere_own_worlds if ours else weights.misere_worlds)
                if worlds and _in_reach(state, seat, weights.misere_cards):
                    plays = [a for a in legal if a < FIRST_STEP_ACTION]
                    if len(plays) > 1:
                        if ours and self.plays_for_the_table:
                            return table_misere_card(state, worlds, plays, chosen, self._fellows_of(state))
                        tie_break = partial(survival_card, players=self._fellows_of(state), default=chosen) \
                            if ours else None
                        return best_card(state, worlds, plays, chosen, tie_break)
        return chosen

    def searched_discard(self, state: GameState, legal: Sequence[int], worlds: int,
                         players: Sequence[ClubPlayer]) -> int | None:
        """The next of the discards ``solved_discards.best_discards`` chooses over ``worlds`` sampled deals at the
        exchange's first discard (``exchange_start``: the same set at each discard, whoever asks; kept once found),
        ``players`` (one ``club`` a seat) finishing the exchange in each; None where it chooses none."""
        start = exchange_start(state)
        if start is None:
            return None
        seat = state.current_player()
        key = (seat, start.hand(seat), len(state.hands_log), tuple(state.totals))
        if self._throws is None or self._throws[0] != key:
            count = len(start.hand(seat)) - state.rules.hand_size
            self._throws = (key, best_discards(start, worlds, count, players))
        throws = [DISCARD + c for c in self._throws[1] if DISCARD + c in legal]
        return throws[0] if throws else None

    def _fellows_of(self, state: GameState) -> list[ClubPlayer]:
        """One ``club`` per seat with this player's parameters, without their searches (``without_search``): how a
        misère's contractor expects the hand to be played on, in ``survival_card``'s play-outs."""
        n = state.rules.players
        if self._fellows is None or len(self._fellows) != n:
            self._params(state.rules)
            assert self.params is not None  # looked up by _params
            fast = without_search(self.params)
            self._fellows = [ClubPlayer(s, random.Random(f"club-misere-model:{s}"), fast) for s in range(n)]
        return self._fellows

    def _params(self, rules: Rules) -> ClubParams:
        """``params`` (looked up for ``rules`` the first time, when None) as the pricing reads them (``_weights``)."""
        if self.params is None:
            self.params = tuned_for(rules.ruleset, self.searches)
        known = self._plain
        if known is None or known[0] is not self.params:
            known = self._plain = (self.params, _weights(self.params))
        return known[1]

    # --- pricing ------------------------------------------------------------------------------

    def _own_tricks(self, hand: Sequence[int], d: _Denomination) -> float:
        key = tuple(hand)
        if self._own is None or (self._own[0] is not key and self._own[0] != key):
            self._own = (key, {})
        cache = self._own[1]
        found = cache.get(d)
        if found is None:
            found = cache[d] = own_tricks(hand, d)
        return found

    def side_tricks(self, seat: int, obs: Seen, info: _RulesInfo, pricing: _Pricing,
                    contract: Contract, d: _Denomination, params: ClubParams) -> float:
        """Tricks our side should take as contractor of ``contract``."""
        if obs is not self._side_of:
            self._side_of = obs
            self._side.clear()
        memo_key = (id(d), contract.partner_plays, contract.kitty)
        known = self._side.get(memo_key)
        if known is not None:
            return known
        estimate = self._side[memo_key] = self._side_estimate(seat, obs, info, pricing, contract, d, params)
        return estimate

    def _side_estimate(self, seat: int, obs: Seen, info: _RulesInfo, pricing: _Pricing, contract: Contract,
                       d: _Denomination, params: ClubParams) -> float:
        """``side_tricks`` worked out afresh (``call_worths`` keeps its own per way of playing)."""
        seen = _as_seen(obs)  # compiled, typed: its fields are C reads
        estimate = self.estimate(seat, seen.hand, seen.calls, info, pricing, contract, d, params, seen.open_hands)
        return estimate if estimate <= pricing.hand_size else float(pricing.hand_size)

    def estimate(self, seat: int, hand: Sequence[int], calls: Sequence[tuple[int, int]], info: _RulesInfo,
                 pricing: _Pricing, contract: Contract, d: _Denomination, params: ClubParams,
                 shown: Sequence[tuple[int, Sequence[int]]] = ()) -> float:
        """Tricks our side should take as contractor of ``contract`` holding ``hand`` after ``calls``, with
        the other seats' cards ``shown`` (as ``Observation.open_hands``: a dummy's face-up cards) (not
        capped at the hand size)."""
        own = self._own_tricks(hand, d)
        w = _weights(params)
        bias, kitty, weight = w.trick_bias, w.kitty_tricks, w.partner_weight
        partners = info.partners[seat]
        partner_plays = contract.partner_plays
        # the hand count assumes the usual exchange of a three-card kitty
        estimate = own + bias + (pricing.kitty_size if contract.kitty else -3) * kitty
        helpers = len(partners) if partner_plays else 0
        if pricing.called_partner and partner_plays and helpers < 1:
            helpers = 1
        if helpers:
            others = pricing.players - 1
            share = weight * helpers / others
            partner_cards = _shown_cards(shown, partners) if shown and partner_plays else []
            if partner_cards:
                estimate += self._shown_partner(hand, partner_cards, own, share, helpers, pricing.hand_size, d,
                                                params)
            else:
                rest = pricing.hand_size - own
                estimate += share * (rest if rest > 0.0 else 0.0)
            told = _support(seat, partners, pricing.call_key, calls, _key(contract))
            if told == SUPPORT:
                estimate += w.partner_support
            elif told == RAISED:
                estimate += w.raise_support
        if d.trump is None:
            estimate += w.no_trumps_bias + jokers_held(hand) * w.joker_no_trumps
        elif w.joker_trumps:
            estimate += jokers_held(hand) * w.joker_trumps
        if w.opponent_called and _opponent_called(seat, info.team_of, pricing.call_key, calls, _key(contract)):
            estimate -= w.opponent_called
        if w.opponent_bids:
            estimate -= w.opponent_bids * _opponent_bids(seat, info.team_of, pricing.call_key, calls)
        if shown and w.opponent_shown:
            team = info.team_of[seat]
            theirs = _shown_cards(shown, [s for s in range(pricing.players) if info.team_of[s] != team])
            if theirs:
                estimate -= w.opponent_shown * own_tricks(theirs, d)
        return estimate

    @staticmethod
    def _shown_partner(hand: Sequence[int], partner_cards: list[int], own: float, share: float, helpers: int,
                       hand_size: int, d: _Denomination, params: ClubParams) -> float:
        """Tricks ``helpers`` partners, ``partner_cards`` of theirs shown, add to a hand counted at ``own``:
        ``shown_weight`` of what the shown cards add to the hand's count (the two counted together), and
        the unseen part of the partners' cards their ``share`` of the tricks the known cards leave."""
        known = own_tricks([*hand, *partner_cards], d)
        unseen = max(0.0, 1.0 - len(partner_cards) / (helpers * hand_size))
        return params.shown_weight * (known - own) + share * unseen * max(0.0, hand_size - known)

    @staticmethod
    def partner_supports(seat: int, calls: Sequence[tuple[int, int]], info: _RulesInfo, contract: Contract) -> bool:
        """Has a partner of ``seat`` called ``contract``'s denomination among ``calls`` before ``seat`` did?  (The
        estimate then counts ``partner_support`` tricks more; the calibration fits them apart.)"""
        return _support(seat, info.partners[seat], _pricing(info.rules, info).call_key, calls,
                        _key(contract)) == SUPPORT

    def contract_estimate(self, rules: Rules, seat: int, hand: Sequence[int], calls: Sequence[tuple[int, int]],
                          contract: Contract, shown: Sequence[tuple[int, Sequence[int]]] = ()) -> float | None:
        """``estimate`` of ``contract`` under ``rules`` (None for a misère), as the auction prices it with
        the cards ``shown`` then (the calibration fits the trick model to it)."""
        info = _info(rules)
        pricing = _pricing(rules, info)
        d = pricing.denomination[contract.rung]
        if d is None:
            return None
        return self.estimate(seat, hand, calls, info, pricing, contract, d, self._params(rules), shown)

    def contract_supported(self, rules: Rules, seat: int, calls: Sequence[tuple[int, int]],
                           contract: Contract) -> bool:
        """Does ``contract_estimate`` count ``partner_support`` for ``seat`` after ``calls``?"""
        return contract.partner_plays and self.partner_supports(seat, calls, _info(rules), contract)

    def contract_contested(self, rules: Rules, seat: int, calls: Sequence[tuple[int, int]],
                           contract: Contract) -> bool:
        """Has an opponent of ``seat`` called ``contract``'s denomination among ``calls`` (``opponent_called``)?"""
        info = _info(rules)
        return bool(_opponent_called(seat, info.team_of, _pricing(rules, info).call_key, calls, _key(contract)))

    def contract_bids_against(self, rules: Rules, seat: int, calls: Sequence[tuple[int, int]]) -> int:
        """The calls of a denomination the opponents of ``seat`` made among ``calls`` (``opponent_bids`` counts
        each)."""
        info = _info(rules)
        return _opponent_bids(seat, info.team_of, _pricing(rules, info).call_key, calls)

    def make_chance(self, seat: int, obs: Seen, info: _RulesInfo, pricing: _Pricing,
                    contract: Contract, params: ClubParams) -> tuple[float, float]:
        """(probability of making ``contract``, expected tricks; 0 for a misère)."""
        d = pricing.denomination[contract.rung]
        if d is None:  # a misère kind
            chance = _misere_chance(self.misere_danger(obs.hand, info, pricing, contract, params), params)
            if contract.open and params.open_leads:
                chance *= self.open_leads_chance(seat, obs.hand, info, pricing, contract) ** params.open_leads
            if contract.partner_plays and (info.partners[seat] or pricing.called_partner):
                chance *= self.partner_misere_chance(seat, obs, info, contract, params)
            elif contract.open and params.misere_bid_worlds and chance >= MISERE_BID_FLOOR:
                searched = self.searched_misere(seat, contract, params)
                if searched is not None:
                    chance = searched
            return chance, 0.0
        estimate = self.side_tricks(seat, obs, info, pricing, contract, d, params)
        if contract.goal == "exactly":
            return self.exact_chance(obs.hand, info, pricing, contract, d, estimate, params), estimate
        return _at_least(estimate, contract.tricks, params.trick_spread), estimate

    def exact_chance(self, hand: Sequence[int], info: _RulesInfo, pricing: _Pricing, contract: Contract,
                     d: _Denomination, estimate: float, params: ClubParams) -> float:
        """The chance of taking exactly ``contract.tricks`` (``estimate`` expected): of taking them,
        times, for a contractor playing alone, that of losing every other trick, priced as a misère
        of the hand less its surest winners (after the discards, less ``exact_control`` of danger:
        the contractor chooses when to take its tricks)."""
        tricks, spread = contract.tricks, params.trick_spread
        take = _at_least(estimate, tricks, spread)
        if contract.partner_plays:
            # the partner's tricks are not the contractor's to choose: slack against going over only
            return max(0.0, take - _at_least(estimate - params.exact_control, tricks + 1, spread))
        rest = sorted(set(hand) - set(sure_winners(hand, d, tricks)))
        discards = max(0, pricing.kitty_size - 1) if contract.kitty else 0
        risk = self._misere_risk(rest, info.misere or d, discards)
        if contract.open:
            risk *= params.open_risk
        return take * _misere_chance(risk - params.exact_control, params)

    def searched_misere(self, seat: int, contract: Contract, params: ClubParams) -> float | None:
        """The chance of the open misère ``contract`` for ``seat`` by ``solved_bids.open_misere_chance`` over
        ``misere_bid_worlds`` sampled deals, where ``seat`` is pricing its call in the auction (``_auction``); None
        elsewhere."""
        state = self._auction
        if state is None or state.current_player() != seat:
            return None
        key = (seat, tuple(state.hand(seat)), tuple(state.hand_log.calls), tuple(state.totals), contract.rung, params)
        if self._misere_priced is None or self._misere_priced[0] != key:
            chance = open_misere_chance(state, CALL + contract.rung, int(params.misere_bid_worlds),
                                        self._fellows_of(state), params.misere_bid_shift)
            self._misere_priced = (key, chance)
        return self._misere_priced[1]

    def misere_danger(self, hand: Sequence[int], info: _RulesInfo, pricing: _Pricing, contract: Contract,
                      params: ClubParams) -> float:
        """The danger of a misère for ``hand``: after the discards it will make (none without the
        kitty; one is kept back for what the kitty brings), more for each card of a long suit
        (``misere_long``) and when shown.  Where the discards go to the partner (C1) they are the contractor's
        discards all the same."""
        misere, discards = _misere_kept_back(info, pricing, contract)
        risk = self._misere_risk(hand, misere, discards)
        if params.misere_long:
            risk += params.misere_long * misere_length(hand, misere, discards)
        return risk * params.open_risk if contract.open else risk

    def open_leads_chance(self, seat: int, hand: Sequence[int], info: _RulesInfo, pricing: _Pricing,
                          contract: Contract) -> float:
        """The chance that defenders who see the contractor's hand, once it has taken the kitty and
        discarded, cannot force it in some suit (``misere_bids.open_leads_chance``: a lead under its lowest card,
        or, where ``open_attack`` is on, more of their cards under one of its cards than it holds below that
        card), averaged over kitties
        drawn from the unseen cards (the same hand, the same chance)."""
        deep = self._params(info.rules).open_attack > 0.0
        key = (seat, tuple(hand), contract.rung, deep)
        if self._leads is not None and self._leads[0] == key:
            return self._leads[1]
        defenders = pricing.players - 1 - len(info.partners[seat])
        chance = open_leads_chance(hand, info.deck, info.misere or info.denomination(contract), defenders,
                                   pricing.hand_size, pricing.kitty_size if contract.kitty else 0, deep)
        self._leads = (key, chance)
        return chance

    def partner_misere_chance(self, seat: int, obs: Seen, info: _RulesInfo, contract: Contract,
                              params: ClubParams) -> float:
        """The chance that a partner who must lose every trick too does: an average hand's
        (``partner_misere_risk``), or, once the partner has called a misère in this auction (not
        blind), a misère bidder's hand, made three times in four; less when shown and it was not."""
        ladder = info.rules.ladder
        partners = info.partners[seat]
        called = [ladder[call] for s, call in obs.calls
                  if s in partners and 0 <= call < len(ladder) and ladder[call].kind == "misere"
                  and not ladder[call].before_looking and not ladder[call].signal]
        if not called:
            risk = params.partner_misere_risk
        else:
            risk = params.misere_mid - BIDDER_LOGIT / params.misere_slope
            if any(c.open for c in called):
                risk /= params.open_risk  # safe enough to be shown
        if contract.partner_open:
            risk *= params.open_risk
        return _misere_chance(risk, params)

    def contract_danger(self, rules: Rules, hand: Sequence[int], contract: Contract) -> float:
        """``misere_danger`` of ``contract`` for ``hand`` under ``rules``, as the auction prices it
        (the calibration fits the misère curve to it)."""
        info = _info(rules)
        return self.misere_danger(hand, info, _pricing(rules, info), contract, self._params(rules))

    def contract_length(self, rules: Rules, hand: Sequence[int], contract: Contract) -> int:
        """The cards beyond four in a suit that ``misere_danger`` counts ``misere_long`` for (``misere_length``)."""
        info = _info(rules)
        misere, discards = _misere_kept_back(info, _pricing(rules, info), contract)
        return misere_length(hand, misere, discards)

    def contract_open_leads(self, rules: Rules, seat: int, hand: Sequence[int], contract: Contract) -> float:
        """``open_leads_chance`` of ``contract`` for ``seat`` holding ``hand`` under ``rules`` (1 when it is
        not shown), as the auction prices it before ``open_leads`` weighs it."""
        if not contract.open:
            return 1.0
        info = _info(rules)
        return self.open_leads_chance(seat, hand, info, _pricing(rules, info), contract)

    def call_worth(self, seat: int, obs: Seen, info: _RulesInfo, contract: Contract,
                   chance: float | None = None) -> float:
        """Expected points of contracting ``contract`` now, game effects included (``chance``: the
        make chance when known otherwise, else priced from ``seat``'s hand)."""
        rules = info.rules
        params = self._params(rules)
        pricing = _pricing(rules, info)
        if chance is None:
            chance, estimate = self.make_chance(seat, obs, info, pricing, contract, params)
        else:
            estimate = float(contract.tricks)
        total = obs.totals[info.team_of[seat]] if obs.totals else 0
        return _worth(contract, chance, estimate, total, pricing, params)

    def call_worths(self, seat: int, obs: Seen, info: _RulesInfo, pricing: _Pricing, params: ClubParams,
                    rungs: Sequence[int]) -> dict[int, float]:
        """``call_worth`` of each of ``rungs`` (at least), priced from ``seat``'s hand (the auction's inner
        loop: the side's trick estimate is worked out once per way of playing, and a call once per auction)."""
        ladder = info.rules.ladder
        total = obs.totals[info.team_of[seat]] if obs.totals else 0
        depends = self._worths_key(seat, obs, info, pricing, params, total)
        if params.misere_bid_worlds:  # an open misère searched reads every call, where the position is at hand
            depends = (depends, tuple(obs.calls), self._auction is not None)
        if self._worths is None or self._worths[0] != depends:
            self._worths = (depends, {})
        worth = self._worths[1]
        rungs = [r for r in rungs if r not in worth]
        if not rungs:
            return worth
        denomination = pricing.denomination
        side_slot = pricing.side_slot
        w = _weights(params)
        spread = w.trick_spread
        game_bonus, fall_penalty = w.game_bonus, w.fall_penalty
        scale = spread * SQRT2
        # by side_slot: the side's tricks, and the chance of taking every trick (_rung_worth's ``every``)
        estimates: list[float | None] = [None] * pricing.sides
        everies = [0.0] * pricing.sides
        every = 0.0
        for r in rungs:
            contract = ladder[r]
            d = denomination[r]
            if d is None:
                chance, estimate = self.make_chance(seat, obs, info, pricing, contract, params)
            else:
                slot = side_slot[r]
                known = estimates[slot]
                if known is None:
                    estimate = self._side_estimate(seat, obs, info, pricing, contract, d, params)
                    every = _at_least(estimate, pricing.hand_size, spread) if pricing.slam is not None else 0.0
                    estimates[slot], everies[slot] = estimate, every
                else:
                    estimate, every = known, everies[slot]
                tricks = pricing.tricks[r]
                # make_chance's arithmetic, with _at_least inlined
                if pricing.exact[r]:
                    chance = self.exact_chance(obs.hand, info, pricing, contract, d, estimate, params)
                else:
                    chance = 0.5 * (1.0 + erf((estimate + 0.5 - tricks) / scale))
            worth[r] = _rung_worth(pricing, r, chance, estimate, total, every, game_bonus, fall_penalty)
        return worth

    @staticmethod
    def _worths_key(seat: int, obs: Seen, info: _RulesInfo, pricing: _Pricing, params: ClubParams,
                    total: int) -> tuple[object, ...]:
        """What a call's worth depends on besides the call: the hand, the cards shown, the side's score, the partners'
        calls (support, a misère bid), the denominations the opponents called (``opponent_called``) and how many
        calls of one they made (``opponent_bids``), the ruleset
        and the parameters.  Other calls change the calls offered, never their worth: ``call_worths`` keeps the
        worths of one auction under this key (tests/test_club.py checks the kept worths against a fresh player's)."""
        partners = info.partners[seat]
        team_of = info.team_of
        team = team_of[seat]
        told = pricing.partner_call
        ladder = len(told)
        keys = pricing.call_key
        mine: set[int] = set()  # our denominations called so far: a partner's call of one raised ours
        said = set()
        against = set()
        for s, call in obs.calls:
            if 0 <= call < ladder:
                if s == seat:
                    mine.add(keys[call])
                elif s in partners:
                    said.add((told[call], keys[call] in mine))
                elif team_of[s] != team:
                    against.add(keys[call])
        heard = frozenset(said)
        bids = _opponent_bids(seat, team_of, keys, obs.calls)
        return (seat, obs.hand, total, heard, frozenset(against), bids, obs.open_hands, pricing, params)

    @staticmethod
    def may_beat(hand: Sequence[int], pricing: _Pricing, standing: int, params: ClubParams) -> bool:
        """Whether ``hand`` holds what may beat the opponents' standing call ``standing`` by itself, so that it
        makes no game sacrifice against it: its own tricks in the call's denomination (``own_tricks``) reach
        ``sacrifice_defence`` (a misère's defence is not counted so)."""
        d = pricing.denomination[standing]
        if d is None or params.sacrifice_defence <= 0.0:
            return False
        return own_tricks(hand, d) >= params.sacrifice_defence

    # --- the auction --------------------------------------------------------------------------

    def _bid(self, seat: int, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> int:
        call, gain = self.bid_gain(seat, obs, info, legal)
        return call if gain > 0 else PASS_ACTION

    def call_gain(self, state: GameState, legal: Sequence[int]) -> tuple[int, float]:
        """``bid_gain`` for the seat to call in ``state``, read as the auction reads it."""
        seat = state.current_player()
        self._auction = state
        try:
            return self.bid_gain(seat, self._seen(state, seat), _info(state.rules), legal)
        finally:
            self._auction = None

    def bid_gain(self, seat: int, obs: Seen, info: _RulesInfo, legal: Sequence[int]) -> tuple[int, float]:
        """The call ``club`` would make rather than pass, and by how much its worth passes what a call must
        beat (``_bid`` makes it when more than 0): infinite where passing is no choice, or the call is forced;
        minus infinite where no call is priced."""
        ladder = info.rules.ladder
        pricing = _pricing(info.rules, info)
        bids, priced = _offered(legal, len(ladder), pricing.priced)
        forced = forced_call(legal, bids)
        if forced is not None:
            return forced, inf
        params = self._params(info.rules)
        if not priced:
            return (PASS_ACTION, -inf) if PASS_ACTION in legal else (CALL + bids[0], inf)
        worth = self.call_worths(seat, obs, info, pricing, params, priced)
        best, most = priced[0], worth[priced[0]]
        for r in priced:  # the best worth, the lowest rung of equal worth (the rungs come in order)
            if worth[r] > most:
                best, most = r, worth[r]
        if PASS_ACTION not in legal:
            return CALL + best, inf
        holder, standing = -1, -1
        for s, call in obs.calls:
            if 0 <= call < len(ladder) and not ladder[call].signal:
                holder, standing = s, call
        needed = params.min_gain
        if holder >= 0 and holder in info.partners[seat]:
            # our side already holds a contract: bid only what our side expects to score better
            standing_call = ladder[standing]
            # a misère partner plays alone is worth what a misère bidder's hand makes of it, not ours
            alone = standing_call.kind == "misere" and not standing_call.partner_plays
            worth_standing = self.call_worth(seat, obs, info, standing_call, BIDDER_CHANCE if alone else None)
            needed = max(needed, worth_standing) + params.takeout_gain
        elif holder >= 0 and holder != seat:
            value = ladder[standing].value
            needed -= params.sacrifice * value
            if obs.totals and obs.totals[info.team_of[holder]] + value >= pricing.target and not self.may_beat(
                    obs.hand, pricing, standing, params):
                needed -= params.game_sacrifice  # made, it wins them the game
        return CALL + best, worth[best] - needed
