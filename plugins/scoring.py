"""Hand scoring and the end of the game (rules 24–31).

Variants read here: S3 (overtricks and their cap), S4 (``slam: null``), S5
(``defender_cap``), S6 (``defender_trick_points: 0``), FC (``failed: opponents-gain``), C5 (goal 'exactly'), C6/C7
(``fail_penalty``, ``fail_value``), P5 (``called_partner_share``), E1 (``win: any``, ``both_reach``),
E2 (``swamp: null``), E3 (``swamp_strict``, ``swamp_needs_opponents_not_negative``), E4 (``spread``),
E5 (``exact_target``, ``bust``).  S1 and S2 are ladder values only.

The order of the end-of-game checks, after each whole hand (rule 28):

1. a side that reaches the target as rule 30 (or E1) allows wins — even if another side goes out
   in the same hand (“Cómo jugar”: the side that reached +500 wins);
2. a side at or below the swamp (rule 29, E3), or with E5 at or past ``bust``, loses: the highest
   of the other sides wins;
3. E4: one side positive, another negative, ``spread`` or more apart: the highest side wins.

E5 (Walker Ultimate 500, “500 (juego de cartas)”) reads: a side wins only by landing exactly on the target (with
``win: contract-made``, by making a contract); a side standing at ``bust`` or more loses, just as a
side at the swamp or below does ("1000 points, like −500 points, lose the game").  A side that
passes the target without reaching ``bust`` plays on.  Ties for "the highest side" go to the
contractor's team, then to the team listed first.

Both hooks run once a hand; their arithmetic, what the ruleset fixes read once into plain values, is
``scoring_plan.py`` (compiled with the engine, where this module stays Python so that pluggy finds its hooks).
"""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.rules.markers import answered_by, hookimpl
from fivehundred.rules.ruleset import GameEnd, Ruleset, Scoring
from fivehundred.rules.tables import Contract, GameResult, HandOutcome

from .scoring_plan import _Contracting, game_result, score_hand

# --- the hooks -------------------------------------------------------------------------------


@hookimpl(trylast=True)
@answered_by(score_hand)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    """Rules 24–27, S3–S6, FC, C5–C7, P5 (``scoring_plan.score_hand``)."""
    return score_hand(ruleset, outcome)


@hookimpl(trylast=True)
@answered_by(game_result)
def fivehundred_game_result(ruleset: Ruleset, totals: Sequence[int], outcome: HandOutcome) -> GameResult | None:
    """Rules 28–31, E1–E5, in the order above (``scoring_plan.game_result``)."""
    return game_result(ruleset, totals, outcome)


def contract_points(s: Scoring, contract: Contract, side_tricks: int, hand_size: int, made: bool) -> int:
    """What the contracting side scores: the value when made (rule 25, 27; S3 overtricks), minus what
    it loses when failed (the value, or C7's ``fail_value``, plus C6's ``fail_penalty``)."""
    return _Contracting(s).points(contract, side_tricks, hand_size, made)


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
