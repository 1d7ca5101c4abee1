"""Hand scoring and the end of the game (rules 24–31).

Variants read here: L2 (``claim_penalty``), S3 (overtricks and their cap), S4 (``slam: null``), S5
(``defender_cap``), S6 (``defender_trick_points: 0``), FC (``failed: opponents-gain``), C5 (goal 'exactly'), C6/C7
(``fail_penalty``, ``fail_value``), P5 (``called_partner_share``), E1 (``win: any``, ``both_reach``),
E2 (``swamp: null``), E3 (``swamp_strict``, ``swamp_needs_opponents_not_negative``), E4 (``spread``),
E5 (``exact_target``, ``bust``).  S1 and S2 are ladder values only.

The order of the end-of-game checks, after each whole hand (rule 28):

1. a side that reaches the target as rule 30 (or E1) allows wins — even if another side goes out
   in the same hand (seed 001: the side that reached +500 wins);
2. a side at or below the swamp (rule 29, E3), or with E5 at or past ``bust``, loses: the highest
   of the other sides wins;
3. E4: one side positive, another negative, ``spread`` or more apart: the highest side wins.

E5 (Walker Ultimate 500, seed 003) reads: a side wins only by landing exactly on the target (with
``win: contract-made``, by making a contract); a side standing at ``bust`` or more loses, just as a
side at the swamp or below does ("1000 points, like −500 points, lose the game").  A side that
passes the target without reaching ``bust`` plays on.  Ties for "the highest side" go to the
contractor's team, then to the team listed first.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.markers import hookimpl
from fivehundred.ruleset import GameEnd, Ruleset, Scoring
from fivehundred.tables import Contract, GameResult, HandOutcome

# --- scoring a hand (rules 24–27) ------------------------------------------------------------


@hookimpl(trylast=True)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    s = ruleset.scoring
    team_of = ruleset.players.team_of()
    side = _side(outcome, team_of)
    side_teams = {team_of[seat] for seat in side}
    # Rule 26 (S6): each defending side scores per trick it took; nothing in misère (rule 27).
    per_trick = s.defender_points_in_misere if outcome.contract.kind == "misere" else s.defender_trick_points
    scores = [0] * len(ruleset.players.teams)
    side_tricks = 0
    for seat, won in enumerate(outcome.tricks_by_seat):
        if team_of[seat] in side_teams:
            side_tricks += won if seat in side else 0
        else:
            scores[team_of[seat]] += per_trick * won
    if s.defender_cap is not None and outcome.totals_before:  # S5: not past the cap; those beyond are lost
        scores = _capped(scores, outcome.totals_before, s.defender_cap)
    points = contract_points(s, outcome.contract, side_tricks, outcome.hand_size, outcome.made)
    if outcome.wrong_claim:  # L2: a claim the side could not make good costs it the claim penalty
        scores[outcome.contractor_team] -= ruleset.play.claim_penalty
    if not outcome.made and s.failed == "opponents-gain":  # FC: nothing is ever subtracted
        for team in range(len(scores)):
            if team not in side_teams:
                scores[team] -= points
        return scores
    # The contract's points to the contractor's team, and in P5 to the called partner's (in full or half).
    scores[outcome.contractor_team] += points
    if len(side_teams) > 1:
        for team in side_teams - {outcome.contractor_team}:
            scores[team] += _partner_share(points, ruleset.players.called_partner_share)
    return scores


def contract_points(s: Scoring, contract: Contract, side_tricks: int, hand_size: int, made: bool) -> int:
    """What the contracting side scores: the value when made (rule 25, 27; S3 overtricks), minus what
    it loses when failed (the value, or C7's ``fail_value``, plus C6's ``fail_penalty``)."""
    if not made:
        lost = contract.value if contract.fail_value is None else contract.fail_value
        return -(lost + contract.fail_penalty)
    if contract.goal != "at-least":  # misère, C5 Hi/Lo: exactly the value
        return contract.value
    if side_tricks == hand_size and s.slam is not None and contract.value < s.slam.below:
        return s.slam.scores  # rule 25: the slam
    over = s.overtrick_points * (side_tricks - contract.tricks)
    if s.overtrick_cap is not None:  # S3: a made contract scores at most the cap (never less than its value)
        over = min(over, max(0, s.overtrick_cap - contract.value))
    return contract.value + over


def _partner_share(points: int, share: str) -> int:
    """P5: the called partner scores the contract points in full, or half of them (toward zero)."""
    if share == "full":
        return points
    return points // 2 if points >= 0 else -(-points // 2)


def _capped(defence: Sequence[int], before: Sequence[int], cap: int) -> list[int]:
    """S5: defence points may not take a side past ``cap``; those beyond are lost."""
    return [min(points, max(0, cap - total)) for points, total in zip(defence, before, strict=True)]


def _side(outcome: HandOutcome, team_of: Sequence[int]) -> tuple[int, ...]:
    """The contracting side's seats: as the engine reports them, else the contractor's team."""
    if outcome.side:
        return outcome.side
    return tuple(seat for seat, team in enumerate(team_of) if team == outcome.contractor_team)


# --- the end of the game (rules 28–31) --------------------------------------------------------


@hookimpl(trylast=True)
def fivehundred_game_result(ruleset: Ruleset, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    end = _end_of(ruleset)
    if end.spread is None and max(totals) < end.target and (end.swamp is None or min(totals) > end.swamp):
        return None  # nobody reached the target, went out or went bust (bust is above the target): play on
    return _target_win(end, totals, outcome) or _gone_out(end, totals, outcome) or _spread_win(end, totals, outcome)


class _End:
    """The game-end rules of one ruleset as plain values (read once; scoring asks every hand)."""

    __slots__ = ("both_contractors", "bust", "exact", "names", "needs_opponents", "spread", "strict", "swamp",
                 "target", "team_of", "win_any")

    def __init__(self, ruleset: Ruleset):
        g = ruleset.game
        self.target, self.swamp, self.bust, self.spread = g.target, g.swamp, g.bust, g.spread
        self.exact, self.strict = g.exact_target, g.swamp_strict
        self.needs_opponents = g.swamp_needs_opponents_not_negative
        self.win_any, self.both_contractors = g.win == "any", g.both_reach == "contractors"
        self.names = tuple(t.name for t in ruleset.players.teams)
        self.team_of = ruleset.players.team_of()


_ends: dict[int, tuple[Ruleset, _End]] = {}


def _end_of(ruleset: Ruleset) -> _End:
    known = _ends.get(id(ruleset))
    if known is None or known[0] is not ruleset:
        known = _ends[id(ruleset)] = (ruleset, _End(ruleset))
    return known[1]


def _on_target(end: _End, total: int) -> bool:
    """At the target (E5: exactly on it), and not gone bust."""
    if end.bust is not None and total >= end.bust:
        return False
    return total == end.target if end.exact else total >= end.target


def _target_win(end: _End, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """Rule 30 (a made contract reaches the target), E1 (any points do), E5 (exactly the target)."""
    ct = outcome.contractor_team
    if end.win_any:
        candidates: Sequence[int] = range(len(totals))
    elif not outcome.made:
        return None
    else:
        candidates = sorted({end.team_of[seat] for seat in _side(outcome, end.team_of)})
    reached = [t for t in candidates if _on_target(end, totals[t])]
    if not reached:
        return None
    winner = ct if ct in reached and (not end.win_any or end.both_contractors) else _highest(reached, totals, ct)
    how = "reached" if end.win_any else "made its contract and reached"
    return GameResult(winner, f"{end.names[winner]} {how} {totals[winner]}")


def _swamped(end: _End, totals: Sequence[int], team: int) -> bool:
    """Rule 29: at or below the swamp; E3: strictly below, and/or only while no other side is negative."""
    total = totals[team]
    if end.swamp is None or not (total < end.swamp if end.strict else total <= end.swamp):
        return False
    return not end.needs_opponents or all(t >= 0 for other, t in enumerate(totals) if other != team)


def _gone_out(end: _End, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """Rule 29 (the swamp) and E5 (``bust``): the side goes out; the highest of the others wins."""
    swamped = [t for t in range(len(totals)) if _swamped(end, totals, t)]
    bust = [t for t, total in enumerate(totals) if end.bust is not None and total >= end.bust and t not in swamped]
    out = swamped + bust
    if not out:
        return None
    rest = [t for t in range(len(totals)) if t not in out] or range(len(totals))
    winner = _highest(rest, totals, outcome.contractor_team)
    loser = out[0]
    how = f"fell to {totals[loser]}" if swamped else f"passed {end.bust} with {totals[loser]}"
    return GameResult(winner, f"{end.names[loser]} {how}; {end.names[winner]}, highest of the others with "
                      f"{totals[winner]}, wins")


def _spread_win(end: _End, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """E4: one side positive, another negative, at least ``spread`` apart: the highest side wins."""
    high, low = max(totals), min(totals)
    if end.spread is None or high <= 0 or low >= 0 or high - low < end.spread:
        return None
    winner = _highest(range(len(totals)), totals, outcome.contractor_team)
    return GameResult(winner, f"{end.names[winner]} leads by {high - low} (point spread of {end.spread})")


def _highest(teams: Sequence[int], totals: Sequence[int], ct: int) -> int:
    """The team with the highest total; a tie goes to the contractor's team, then the first listed."""
    best = teams[0]
    for t in teams:
        if (totals[t], t == ct, -t) > (totals[best], best == ct, -best):
            best = t
    return best


# --- contradictions in a ruleset --------------------------------------------------------------


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    return [*_game_end_problems(ruleset.game), *_scoring_problems(ruleset.scoring, ruleset.game)]


def _game_end_problems(g: GameEnd) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if g.target <= 0:
        problems.append(("game.target", f"the target {g.target} must be above 0, where every side starts "
                         "(rule 30)"))
    if g.swamp is not None:
        if g.swamp >= g.target:
            problems.append(("game.swamp", f"the swamp {g.swamp} is not below the target {g.target} (rule 29)"))
        elif g.swamp > 0 or (g.swamp == 0 and not g.swamp_strict):
            problems.append(("game.swamp", f"the swamp {g.swamp} must be below 0: every side starts at 0 and "
                             "would lose after its first hand (rule 29)"))
    elif g.swamp_strict or g.swamp_needs_opponents_not_negative:
        problems.append(("game.swamp", "swamp_strict and swamp_needs_opponents_not_negative qualify a swamp, "
                         "but game.swamp is null (E2, E3)"))
    if g.bust is not None and g.bust <= g.target:
        problems.append(("game.bust", f"bust {g.bust} must be above the target {g.target}: a side would go out "
                         "before it could win (E5)"))
    if g.spread is not None and g.spread <= 0:
        problems.append(("game.spread", f"the point spread {g.spread} must be above 0 (E4)"))
    if g.win == "contract-made" and g.both_reach != "contractors":
        problems.append(("game.both_reach", "both_reach decides between sides that reach the target by any "
                         "points; it needs game.win 'any' (E1)"))
    if g.mid_hand and g.win != "any":
        problems.append(("game.mid_hand", "the mid-hand end (E6) ends a game when defence points reach the "
                         "target, which only game.win 'any' (E1) lets them do"))
    return problems


def _scoring_problems(s: Scoring, g: GameEnd) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if s.defender_cap is not None and s.defender_cap >= g.target:
        problems.append(("scoring.defender_cap", f"the defence cap {s.defender_cap} is not below the target "
                         f"{g.target}: it would never hold a defending side back (S5)"))
    if s.overtrick_cap is not None and s.overtrick_points <= 0:
        problems.append(("scoring.overtrick_cap", "overtrick_cap limits overtrick points, but "
                         "overtrick_points is not above 0 (S3)"))
    return problems
