"""The club player's pricing of the calls: what the ruleset's ladder, game and scoring tell the auction
(``_Pricing``, worked out once per ruleset and kept with the rules), and the arithmetic of a call's worth.

A call made with probability ``chance`` (tricks spread normally around the side's estimate: ``_at_least``) is
worth its value (with overtricks and a slam's score where they count) times that chance, less the failure's
cost times the chance of failing, plus what it does to the game: reaching the target (``game_bonus``),
falling to the losing score (``fall_penalty``).  A misère's chance is a logistic curve of the hand's danger
(``_misere_chance``); a partner's call of our denomination is support (``_support``).  ``club`` estimates the
tricks and decides; this module only prices.

Compiled, ``call_pricing.pxd`` makes ``_Pricing`` and ``_Weights`` extension types whose fields the auction's
inner loop (``_rung_worth``) reads as C fields; the pure-Python player never reads that file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from fivehundred.engine.state import CALL
from fivehundred.rules.manager import Rules
from fivehundred.rules.tables import Contract

from .evaluation import _Denomination, _key, _RulesInfo
from .params import ClubParams

try:
    import cython
except ImportError:  # the pure-Python build: Cython is a build requirement only
    from math import erf
else:
    if cython.compiled:  # the C library's erf, called as C (the same values as math.erf, which calls it)
        from cython.cimports.libc.math import erf  # type: ignore[no-redef]
    else:
        from math import erf




class _Pricing:
    """What pricing the calls needs from a ruleset, worked out once."""

    def __init__(self, rules: Rules, info: _RulesInfo):
        ruleset = rules.ruleset
        self.rules = rules
        self.hand_size = rules.hand_size
        self.kitty_size = rules.kitty_size
        self.players = rules.players
        self.teams = len(rules.team_names)
        self.called_partner = ruleset.players.partnership == "called-card"
        self.target = ruleset.game.target
        self.win_needs_contract = ruleset.game.win == "contract-made"
        self.swamp = ruleset.game.swamp
        slam = ruleset.scoring.slam
        self.slam = (slam.below, slam.scores) if slam is not None else None
        self.overtrick_points = ruleset.scoring.overtrick_points
        self.slam_scores = slam.scores if slam is not None else 0
        self.fall = self.swamp is not None
        self.fall_at = self.swamp if self.swamp is not None else 0
        """``swamp`` for the auction's inner loop (``_rung_worth``): whether a side can fall, and at what score."""
        same: dict[tuple[tuple[int, ...], ...], _Denomination] = {}
        self.denomination: list[_Denomination | None] = []
        """Per rung: the denomination whose tricks the call needs (None: a misère); calls that play
        alike (the same suits and card order) share one, so a hand is counted once per way of playing."""
        self.priced: list[bool] = []
        for c in rules.ladder:
            self.priced.append(not c.signal and not c.before_looking)
            if c.kind == "misere":
                self.denomination.append(None)
                continue
            table = rules.play_table(c)
            key = (tuple(table.suit_of), *map(tuple, table.power))
            if key not in same:
                plain = info.denominations.get(_key(c))
                same[key] = plain if plain is not None and plain.table.power == table.power \
                    and plain.table.suit_of == table.suit_of else info.denomination(c)
            self.denomination.append(same[key])
        # per rung: what the side's trick estimate depends on besides the hand and the calls
        side_key = [(id(d), c.partner_plays, c.kitty) if d is not None else None
                    for c, d in zip(rules.ladder, self.denomination, strict=True)]
        keys = list(dict.fromkeys(k for k in side_key if k is not None))
        self.side_slot = [keys.index(k) if k is not None else -1 for k in side_key]
        """Per rung: which of the ladder's ``sides`` distinct side estimates it needs (-1: a misère)."""
        self.sides = len(keys)
        self.partner_call = [(_key(c), False) if c.kind != "misere" else
                             None if c.before_looking or c.signal else (None, c.open) for c in rules.ladder]
        """Per rung: what a partner's call of it tells the pricing (``partner_supports``,
        ``partner_misere_chance``): its denomination, or that it is a misère and whether it is open."""
        # per rung, what ``_worth`` reads of the call (``_rung_worth``: the auction's inner loop)
        self.value = [c.value for c in rules.ladder]
        self.tricks = [c.tricks for c in rules.ladder]
        self.at_least = [c.goal == "at-least" for c in rules.ladder]
        self.exact = [c.goal == "exactly" for c in rules.ladder]
        self.slam_rung = [self.slam is not None and c.value < self.slam[0] for c in rules.ladder]
        self.loss = [float(c.fail_cost) for c in rules.ladder]
        self.call_key = [_key(c) if c.kind != "misere" else NO_KEY for c in rules.ladder]
        """Per rung: the denomination a partner's call of it supports (``_support``), NO_KEY for a misère."""


NO_KEY = -1
"""``_Pricing.call_key`` of a misère: no denomination."""

def _pricing(rules: Rules, info: _RulesInfo) -> _Pricing:
    """Kept with the rules (``Rules.derived``), released with them."""
    known = rules.derived.get("club")
    if known is None:
        known = rules.derived["club"] = _Pricing(rules, info)
    return known


BIDDER_CHANCE = 0.75
"""A misère bidder's hand is made three times in four."""
BIDDER_LOGIT = math.log(BIDDER_CHANCE / (1.0 - BIDDER_CHANCE))


SQRT2 = math.sqrt(2.0)


class _Weights:
    """A ``ClubParams``' values as plain attributes, for the auction's inner loops: a pydantic model's field read
    goes through the model's ``__getattr__`` hook, three to four times the cost of a plain attribute.  Compiled,
    an extension type of C doubles (call_pricing.pxd), read as C fields where the pricing types it.  The same values;
    nothing validates or compares it as a model."""

    __slots__ = tuple(ClubParams.model_fields)

    def __init__(self, params: ClubParams):
        for name in ClubParams.model_fields:
            setattr(self, name, getattr(params, name))


def _weights(params: ClubParams) -> ClubParams:
    """``params`` as ``_Weights`` (what ``ClubPlayer._params`` gives already is; a model is copied), typed as the
    model it reads as."""
    return params if isinstance(params, _Weights) else cast(ClubParams, _Weights(params))


def _worth(contract: Contract, chance: float, estimate: float, total: int, pricing: _Pricing,
           params: ClubParams) -> float:
    """Expected points of ``contract`` made with probability ``chance`` (``estimate`` tricks
    expected), game effects included, for a side whose score is ``total``."""
    value = contract.value
    gain = float(value)
    if contract.goal == "at-least":
        if pricing.overtrick_points:
            gain += pricing.overtrick_points * max(0.0, estimate - contract.tricks)
        if pricing.slam and value < pricing.slam[0]:
            all_tricks = _at_least(estimate, pricing.hand_size, params.trick_spread) / max(chance, 1e-9)
            gain += all_tricks * (pricing.slam[1] - value)
    loss = float(contract.fail_cost)
    if total + value >= pricing.target:
        gain += params.game_bonus
    if pricing.swamp is not None and total - loss <= pricing.swamp:
        loss += params.fall_penalty
    return chance * gain - (1.0 - chance) * loss


def _rung_worth(pricing: _Pricing, rung: int, chance: float, estimate: float, total: int, every: float,
                game_bonus: float, fall_penalty: float) -> float:
    """``_worth`` of the ladder's call ``rung``, from what ``pricing`` keeps of it (``params``: its game bonus and
    fall penalty; ``every``: the chance of taking every trick, ``_at_least(estimate, hand_size, trick_spread)``,
    read only for a call below the slam's score)."""
    value = pricing.value[rung]
    gain = float(value)
    if pricing.at_least[rung]:
        if pricing.overtrick_points:
            over = estimate - pricing.tricks[rung]
            gain += pricing.overtrick_points * (over if over > 0.0 else 0.0)
        if pricing.slam_rung[rung]:
            all_tricks = every / (chance if chance > 1e-9 else 1e-9)
            gain += all_tricks * (pricing.slam_scores - value)
    loss = pricing.loss[rung]
    if total + value >= pricing.target:
        gain += game_bonus
    if pricing.fall and total - loss <= pricing.fall_at:
        loss += fall_penalty
    return chance * gain - (1.0 - chance) * loss


def _misere_chance(risk: float, params: ClubParams) -> float:
    """The chance of losing every trick with a misère danger of ``risk``: a logistic curve, even
    money at ``misere_mid``."""
    w = _weights(params)
    return 1.0 / (1.0 + math.exp(w.misere_slope * (risk - w.misere_mid)))


def _support(seat: int, partners: Sequence[int], call_key: list[int], calls: Sequence[tuple[int, int]],
             key: int) -> int:
    """What ``partners``' calls of denomination ``key`` among ``calls`` tell ``seat``: ``NO_SUPPORT`` (none
    called it), ``SUPPORT`` (a partner called it first: its own suit) or ``RAISED`` (``seat`` called it before
    any partner did: the partner's call raised ours, counting our call as its support)."""
    rungs = len(call_key)
    mine = False
    for s, call in calls:
        if 0 <= call < rungs and call_key[call] == key:
            if s in partners:
                return RAISED if mine else SUPPORT
            if s == seat:
                mine = True
    return NO_SUPPORT


NO_SUPPORT, SUPPORT, RAISED = 0, 1, 2
"""``_support``'s answers."""


def _opponent_called(seat: int, team_of: Sequence[int], call_key: list[int], calls: Sequence[tuple[int, int]],
                     key: int) -> bool:
    """Has a seat of another team than ``seat``'s called denomination ``key`` among ``calls``?"""
    rungs = len(call_key)
    team = team_of[seat]
    for s, call in calls:  # noqa: SIM110 - a loop: no closure in a cpdef function (call_pricing.pxd)
        if 0 <= call < rungs and call_key[call] == key and team_of[s] != team:
            return True
    return False


def _opponent_bids(seat: int, team_of: Sequence[int], call_key: list[int], calls: Sequence[tuple[int, int]]) -> int:
    """How many calls of a denomination (not a misère) the seats of other teams than ``seat``'s made among ``calls``."""
    rungs = len(call_key)
    team = team_of[seat]
    bids = 0
    for s, call in calls:
        if 0 <= call < rungs and call_key[call] != NO_KEY and team_of[s] != team:
            bids += 1
    return bids


def _offered(legal: Sequence[int], rungs: int, priced: list[bool]) -> tuple[list[int], list[int]]:
    """The rungs of a ladder of ``rungs`` that ``legal`` offers to call, and those of them ``priced``
    (``_Pricing.priced``)."""
    bids: list[int] = []
    to_price: list[int] = []
    first = CALL
    for a in legal:
        r = a - first
        if 0 <= r < rungs:
            bids.append(r)
            if priced[r]:
                to_price.append(r)
    return bids, to_price


def _at_least(estimate: float, tricks: int, spread: float) -> float:
    """P(tricks taken ≥ ``tricks``) for tricks spread normally around ``estimate``."""
    return 0.5 * (1.0 + erf((estimate + 0.5 - tricks) / (spread * SQRT2)))
