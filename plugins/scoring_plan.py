"""The scoring plugin's arithmetic (``fivehundred.plugins.scoring``): what a ruleset's ``scoring`` and ``game``
fields fix, read once per ruleset into plain values (``_Plan``, kept per ruleset object, with a ``_Side`` per
contracting side met), and by them the points of a hand (``score_hand``, rules 24–27) and the end of the game
(``game_result``, rules 28–31).  A hand then costs a loop over the seats off the side and, when a side reaches the
target or goes out, one over the teams.

It holds no hook implementation: compiled with the engine (``COMPILED_MODULES``), it runs once a hand; the hooks
stay in ``scoring.py``, plain Python, where pluggy finds them.  The rules and variants it reads, and the order of
the end-of-game checks, are ``scoring.py``'s text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from fivehundred.rules.ruleset import Ruleset, Scoring
from fivehundred.rules.tables import Contract, GameResult, HandOutcome

# --- what a ruleset fixes, read once ----------------------------------------------------------


class _Contracting:
    """What a made or failed contract scores under a ruleset's ``scoring`` fields, as plain values."""

    __slots__ = ("overtrick_cap", "overtrick_points", "slam_below", "slam_scores")

    def __init__(self, s: Scoring):
        self.overtrick_points, self.overtrick_cap = s.overtrick_points, s.overtrick_cap
        self.slam_below = None if s.slam is None else s.slam.below
        self.slam_scores = 0 if s.slam is None else s.slam.scores

    def points(self, contract: Contract, side_tricks: int, hand_size: int, made: bool) -> int:
        if not made:
            return -contract.fail_cost
        if contract.goal != "at-least":  # misère, C5 Hi/Lo: exactly the value
            return contract.value
        if side_tricks == hand_size and self.slam_below is not None and contract.value < self.slam_below:
            return self.slam_scores  # rule 25: the slam
        if not self.overtrick_points:  # no overtricks (S3 off): the value, whatever the cap
            return contract.value
        over = self.overtrick_points * (side_tricks - contract.tricks)
        if self.overtrick_cap is not None:  # S3: a made contract scores at most the cap (never less than its value)
            over = min(over, max(0, self.overtrick_cap - contract.value))
        return contract.value + over


class _Side:
    """A contracting side (its seats) as both hooks need it: its teams, and every seat off it."""

    __slots__ = ("defenders", "opponents", "ranked", "seats", "teams")

    def __init__(self, seats: Sequence[int], team_of: tuple[int, ...], teams: int):
        self.teams = frozenset(team_of[seat] for seat in seats)
        self.ranked = tuple(sorted(self.teams))
        self.seats = tuple(seat for seat in range(len(team_of)) if seat in seats)
        """The side's seats, whose tricks count for the contract."""
        self.defenders = tuple((seat, team) for seat, team in enumerate(team_of) if team not in self.teams)
        """(seat, team) of every seat whose team has no seat on the side: these score their tricks."""
        self.opponents = tuple(team for team in range(teams) if team not in self.teams)


class _Plan:
    """The scoring and game-end rules of one ruleset as plain values (read once; both hooks ask every hand)."""

    __slots__ = ("both_contractors", "bust", "contracting", "defender_cap", "exact",
                 "misere_points", "names", "needs_opponents", "opponents_gain", "quiet_above", "reached", "share",
                 "sides", "spread", "strict", "swamp", "target", "team_of", "teams", "trick_points", "win_any")

    def __init__(self, ruleset: Ruleset):
        s, g = ruleset.scoring, ruleset.game
        self.team_of = ruleset.players.team_of()
        self.teams = len(ruleset.players.teams)
        self.names = tuple(t.name for t in ruleset.players.teams)
        self.sides: dict[tuple[int, ...], _Side] = {}
        """Each side met so far, by its seats as the engine reported them."""
        # Scoring a hand.
        self.trick_points, self.misere_points = s.defender_trick_points, s.defender_points_in_misere
        self.defender_cap, self.opponents_gain = s.defender_cap, s.failed == "opponents-gain"
        self.contracting = _Contracting(s)
        self.share = ruleset.players.called_partner_share
        # The end of the game.
        self.target, self.swamp, self.bust, self.spread = g.target, g.swamp, g.bust, g.spread
        self.quiet_above: float = -math.inf if g.swamp is None else g.swamp
        """Every total strictly between this and the target: nobody has won or gone out (without E4)."""
        self.exact, self.strict = g.exact_target, g.swamp_strict
        self.needs_opponents = g.swamp_needs_opponents_not_negative
        self.win_any, self.both_contractors = g.win == "any", g.both_reach == "contractors"
        self.reached = "reached" if self.win_any else "made its contract and reached"

    def side(self, outcome: HandOutcome) -> _Side:
        """The contracting side, as the engine reports it (``HandOutcome.side``)."""
        known = self.sides.get(outcome.side)
        if known is None:
            known = self.sides[outcome.side] = _Side(outcome.side, self.team_of, self.teams)
        return known


_plans: dict[int, tuple[Ruleset, _Plan]] = {}


def _plan_of(ruleset: Ruleset) -> _Plan:
    known = _plans.get(id(ruleset))
    if known is None or known[0] is not ruleset:  # the ruleset is kept alive here; the check is cheap insurance
        known = _plans[id(ruleset)] = (ruleset, _Plan(ruleset))
    return known[1]


# --- scoring a hand (rules 24–27) ------------------------------------------------------------


def score_hand(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    """The points each team scores for the hand ``outcome`` (rules 24–27; ``fivehundred_score_hand``)."""
    known = _plans.get(id(ruleset))
    plan = known[1] if known is not None and known[0] is ruleset else _plan_of(ruleset)
    contract, ct, tricks = outcome.contract, outcome.contractor_team, outcome.tricks_by_seat
    side = plan.sides.get(outcome.side) or plan.side(outcome)
    # Rule 26 (S6): each defending side scores per trick it took; nothing in misère (rule 27).
    per_trick = plan.misere_points if contract.kind == "misere" else plan.trick_points
    scores = [0] * plan.teams
    for seat, team in side.defenders:
        scores[team] += per_trick * tricks[seat]
    if plan.defender_cap is not None and outcome.totals_before:  # S5: not past the cap; those beyond are lost
        scores = _capped(scores, outcome.totals_before, plan.defender_cap)
    side_tricks = 0
    if outcome.made:  # a failed contract's points do not depend on them
        for seat in side.seats:
            side_tricks += tricks[seat]
    points = plan.contracting.points(contract, side_tricks, outcome.hand_size, outcome.made)
    if plan.opponents_gain and not outcome.made:  # FC: nothing is ever subtracted
        for team in side.opponents:
            scores[team] -= points
        return scores
    # The contract's points to the contractor's team, and in P5 to the called partner's (in full or half).
    scores[ct] += points
    if len(side.ranked) > 1:
        share = _partner_share(points, plan.share)
        for team in side.ranked:
            if team != ct:
                scores[team] += share
    return scores


def _partner_share(points: int, share: str) -> int:
    """P5: the called partner scores the contract points in full, or half of them (toward zero)."""
    if share == "full":
        return points
    return points // 2 if points >= 0 else -(-points // 2)


def _capped(defence: Sequence[int], before: Sequence[int], cap: int) -> list[int]:
    """S5: defence points may not take a side past ``cap``; those beyond are lost."""
    return [min(points, max(0, cap - total)) for points, total in zip(defence, before, strict=True)]


# --- the end of the game (rules 28–31) --------------------------------------------------------


def game_result(ruleset: Ruleset, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """Who won, after the hand ``outcome`` left the teams at ``totals`` (rules 28–31; ``fivehundred_game_result``);
    None while the game goes on."""
    known = _plans.get(id(ruleset))
    plan = known[1] if known is not None and known[0] is ruleset else _plan_of(ruleset)
    if plan.spread is None:
        above, target = plan.quiet_above, plan.target
        for total in totals:
            if not above < total < target:
                break
        else:
            return None  # nobody reached the target, went out or went bust (bust is above the target): play on
    won = _target_win(plan, totals, outcome) if plan.win_any or outcome.made else None
    return won or _gone_out(plan, totals, outcome) or _spread_win(plan, totals, outcome)


def _result(winner: int, reason: str) -> GameResult:
    """``GameResult(winner, reason)`` without the named tuple's interpreted ``__new__``."""
    return tuple.__new__(GameResult, (winner, reason))


def _target_win(plan: _Plan, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """Rule 30 (a made contract reaches the target), E1 (any points do), E5 (exactly the target, and
    not gone bust).  Asked only when the contract was made or any points count."""
    ct = outcome.contractor_team
    target, exact, bust = plan.target, plan.exact, plan.bust
    reached = []
    for team in range(len(totals)) if plan.win_any else plan.side(outcome).ranked:
        total = totals[team]
        if (bust is None or total < bust) and (total == target if exact else total >= target):
            reached.append(team)
    if not reached:
        return None
    if ct in reached and (not plan.win_any or plan.both_contractors):
        winner = ct
    else:
        winner = reached[0] if len(reached) == 1 else _highest(reached, totals, ct)
    return _result(winner, f"{plan.names[winner]} {plan.reached} {totals[winner]}")


def _gone_out(plan: _Plan, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """Rule 29 (the swamp; E3: strictly below, and/or only while no other side is negative) and E5
    (``bust``): the side goes out; the highest of the others wins."""
    swamp, strict, needs_opponents, bust = plan.swamp, plan.strict, plan.needs_opponents, plan.bust
    if swamp is None and bust is None:  # E2 without E5: nobody goes out
        return None
    swamped = busted = -1  # the first team at the swamp, the first past bust
    rest = []
    for team, total in enumerate(totals):
        if swamp is not None and (total < swamp if strict else total <= swamp) and (
                not needs_opponents or _others_not_negative(totals, team)):
            if swamped < 0:
                swamped = team
        elif bust is not None and total >= bust:
            if busted < 0:
                busted = team
        else:
            rest.append(team)
    if swamped < 0 and busted < 0:
        return None
    winner = rest[0] if len(rest) == 1 else _highest(rest or range(len(totals)), totals, outcome.contractor_team)
    names = plan.names
    if swamped >= 0:
        return _result(winner, f"{names[swamped]} fell to {totals[swamped]}; {names[winner]}, highest of the "
                       f"others with {totals[winner]}, wins")
    return _result(winner, f"{names[busted]} passed {bust} with {totals[busted]}; {names[winner]}, highest of "
                   f"the others with {totals[winner]}, wins")


def _others_not_negative(totals: Sequence[int], team: int) -> bool:
    """E3: the swamp takes a side out only while no other side is negative."""
    return all(t >= 0 for other, t in enumerate(totals) if other != team)


def _spread_win(plan: _Plan, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """E4: one side positive, another negative, at least ``spread`` apart: the highest side wins."""
    if plan.spread is None:
        return None
    high, low = max(totals), min(totals)
    if high <= 0 or low >= 0 or high - low < plan.spread:
        return None
    winner = _highest(range(len(totals)), totals, outcome.contractor_team)
    return _result(winner, f"{plan.names[winner]} leads by {high - low} (point spread of {plan.spread})")


def _highest(teams: Sequence[int], totals: Sequence[int], ct: int) -> int:
    """The team with the highest total; a tie goes to the contractor's team, then the first listed."""
    best = teams[0]
    top = totals[best]
    for t in teams[1:]:
        total = totals[t]
        if total > top or (total == top and (t == ct, -t) > (best == ct, -best)):
            best, top = t, total
    return best
