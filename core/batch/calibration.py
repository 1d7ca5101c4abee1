"""Calibration: tune the club player's parameters for a ruleset by seeded, reproducible self-play.

A *match* seats a candidate against a reference on the same deals: the candidate takes each team's
seats in turn (the reference every other seat), every turn playing the same seeded games, so the
luck of the cards cancels.  Its *score* is the candidate's share of the games won over the fair
share (1.0: as strong as the reference).  ``calibrate`` climbs coordinate by coordinate: each step
moves one parameter up or down and keeps the move when the moved player beats the best so far by a
margin; each evaluation plays new seeds (derived from the calibration seed), so the run as a whole
is a pure function of (ruleset, start, seed, games, rounds).
"""

from __future__ import annotations

import math
import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.params import ClubParams, write_params
from fivehundred.engine.state import GameState, HandLog
from fivehundred.rules.cards import is_joker
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.ruleset import Ruleset

from .chunks import chunk_size, game_chunks, in_workers_order, process_pool
from .simulation import play_game, simulate, wilson

STEPS: dict[str, float] = {
    "trick_bias": 0.5,
    "trick_spread": 0.3,
    "kitty_tricks": 0.08,
    "partner_weight": 0.25,
    "shown_weight": 0.2,
    "opponent_shown": 0.15,
    "exact_control": 0.75,
    "misere_mid": 0.6,
    "misere_slope": 0.5,
    "open_risk": 0.4,
    "partner_misere_risk": 0.8,
    "min_gain": 25.0,
    "takeout_gain": 40.0,
    "sacrifice": 0.1,
    "game_sacrifice": 100.0,
    "sacrifice_defence": 0.5,
    "game_bonus": 100.0,
    "fall_penalty": 150.0,
}
"""The tuned parameters and the size of one step of each."""


def changed(start: ClubParams, best: ClubParams) -> dict[str, Any]:
    """The parameters ``best`` sets otherwise than ``start`` (what a tuning run changed)."""
    return {k: v for k, v in best.model_dump().items() if v != getattr(start, k)}


@dataclass(frozen=True)
class MatchResult:
    games: int
    """Games finished (every seating of every seed)."""
    wins: int
    """Games the candidate's team won."""
    teams: int

    @property
    def score(self) -> float:
        """The candidate's win share over the fair share (1/teams): 1.0 is even."""
        return self.wins * self.teams / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float] | None:
        """The 95% interval of the score."""
        ci = wilson(self.wins, self.games)
        return None if ci is None else (ci[0] * self.teams, ci[1] * self.teams)

    def as_dict(self) -> dict[str, Any]:
        ci = self.interval()
        return {"games": self.games, "wins": self.wins, "teams": self.teams, "score": round(self.score, 4),
                "ci95": None if ci is None else [round(ci[0], 4), round(ci[1], 4)]}


def match(ruleset: Ruleset, candidate: str, reference: str, games: int, seed: int | str,
          workers: int = 1) -> MatchResult:
    """``candidate`` in each team's seats in turn against ``reference`` (player specs), ``games``
    seeded games per seating, the same deals in every seating."""
    teams = ruleset.players.teams
    seats = ruleset.players.seats
    wins = finished = 0
    for team in teams:
        mine = set(team.seats)
        players = [candidate if seat in mine else reference for seat in seats]
        summary = simulate(games, seed, ruleset, players, workers=workers)
        finished += summary.games - summary.unfinished
        wins += summary.wins.get(team.name, 0)
    return MatchResult(finished, wins, len(teams))


@dataclass
class Step:
    parameter: str
    value: float
    result: MatchResult
    kept: bool

    def as_dict(self) -> dict[str, Any]:
        return {"parameter": self.parameter, "value": self.value, "kept": self.kept, **self.result.as_dict()}


@dataclass
class Calibration:
    ruleset: str
    seed: int | str
    games: int
    start: ClubParams
    best: ClubParams
    steps: list[Step] = field(default_factory=list)
    final: dict[str, MatchResult] = field(default_factory=dict)
    """The tuned parameters against the references named at the end (fresh seeds)."""

    def as_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "seed": self.seed, "games_per_seating": self.games,
                "steps": [s.as_dict() for s in self.steps],
                "changed": changed(self.start, self.best),
                "final": {name: r.as_dict() for name, r in self.final.items()}}


def _spec(params: ClubParams, folder: Path, name: str, play: str = "club") -> str:
    """The player spec of ``play`` (``club``, ``solver``, ``solver:N``…) bidding with ``params``."""
    path = folder / f"{name}.json"
    write_params(path, params)
    return f"{play}:{path}"


def calibrate(ruleset: Ruleset, *, start: ClubParams | None = None, seed: int = 0, games: int = 60,
              rounds: int = 1, margin: float = 0.04, parameters: Sequence[str] | None = None,
              references: Sequence[str] = ("heuristic",), workers: int = 1,
              progress: Callable[[Step], None] | None = None) -> Calibration:
    """Tune the club player's parameters for ``ruleset``: ``rounds`` passes over ``parameters``
    (default: every one ``STEPS`` lists that the ruleset can use), each move judged by a match of
    ``games`` seeded games per seating against the best so far, kept when it scores above
    1 + ``margin``.  At the end the tuned player meets the start and each of ``references``
    on fresh seeds (``4 × games`` per seating)."""
    start = start or ClubParams()
    names = list(parameters) if parameters is not None else relevant_parameters(ruleset)
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        raise ValueError(f"cannot tune {', '.join(unknown)}; tunable: {', '.join(STEPS)}")
    run = Calibration(ruleset.name, seed, games, start, start)
    with tempfile.TemporaryDirectory(prefix="fivehundred-calibrate-") as tmp:
        folder = Path(tmp)
        evaluation = 0
        for _ in range(rounds):
            for name in names:
                for direction in (1, -1):
                    current = getattr(run.best, name)
                    value = round(current + direction * STEPS[name], 4)
                    try:
                        moved = ClubParams.model_validate({**run.best.model_dump(), name: value})
                    except ValidationError:
                        continue  # out of the parameter's range
                    evaluation += 1
                    result = match(ruleset, _spec(moved, folder, f"candidate{evaluation}"),
                                   _spec(run.best, folder, f"best{evaluation}"), games,
                                   f"{seed}:calibrate:{evaluation}", workers)
                    kept = result.score > 1 + margin
                    if kept:
                        run.best = moved
                    step = Step(name, value, result, kept)
                    run.steps.append(step)
                    if progress is not None:
                        progress(step)
                    if kept:
                        break  # this direction helped: the other is not worth a match
        tuned = _spec(run.best, folder, "tuned")
        run.final["start"] = match(ruleset, tuned, _spec(start, folder, "start"), 4 * games,
                                   f"{seed}:final", workers)
        for reference in references:
            run.final[reference] = match(ruleset, tuned, reference, 4 * games, f"{seed}:final", workers)
    return run


def relevant_parameters(ruleset: Ruleset) -> list[str]:
    """The parameters that can change a call in ``ruleset`` (misère ones only with a misère …)."""
    contracts = ruleset.contracts.values()
    misere = [c for c in contracts if c.kind == "misere"]
    has_partner = any(len(t.seats) > 1 for t in ruleset.players.teams) or ruleset.players.partnership != "fixed"
    names = ["trick_bias", "trick_spread", "kitty_tricks", "min_gain", "sacrifice", "game_sacrifice",
             "sacrifice_defence", "game_bonus"]
    if has_partner:
        names += ["partner_weight", "takeout_gain"]
    if ruleset.players.dummies:  # P2: the dummies' face-up cards are seen in the auction
        names += ["shown_weight", "opponent_shown"]
    if misere:
        names += ["misere_mid", "misere_slope"]
    if any(c.open or c.partner_open for c in misere):
        names.append("open_risk")
    if any(c.partner_plays for c in misere) and has_partner:
        names.append("partner_misere_risk")
    if any(c.goal == "exactly" for c in contracts):
        names.append("exact_control")
    if ruleset.game.swamp is not None:
        names.append("fall_penalty")
    return names


# --- the misère curve, fitted to the defence ---------------------------------------------------

MisereRow = tuple[float, bool, bool, float, int]
"""One misère played alone: its danger before the open multiplier and without ``misere_long``, shown, made, its
``open_leads_chance`` (1 when not shown), and its cards beyond four in a suit (``ClubPlayer.contract_length``)."""

MIN_MISERES = 30
"""Fewer solo misère contracts than this in a fit's games leave the curve as it was."""
MIN_CONTRACTS = 30
"""Fewer contracts to take tricks than this leave the trick model as it was."""

TrickRow = tuple[float, int, bool, bool, int, bool, int]
"""One contract to take tricks: the tricks estimated, the tricks taken, partner had called the denomination, an
opponent had, the jokers the contractor held as dealt, no-trumps, the calls of a denomination the opponents made."""


@dataclass(frozen=True)
class MisereFit:
    """The misère make curve fitted to self-play: ``misere_mid`` (``open_risk`` where an open misère was played,
    ``misere_long`` where a long suit was) by maximum likelihood, the slope kept."""

    ruleset: str
    seed: int | str
    games: int
    contracts: int
    """Solo misère contracts played (every round's games)."""
    made: int
    predicted_before: float
    """Mean make chance the curve gave those contracts before the fit, and after it."""
    predicted_after: float
    start: ClubParams
    best: ClubParams

    def as_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "seed": self.seed, "games": self.games, "contracts": self.contracts,
                "made": self.made, "predicted_before": round(self.predicted_before, 4),
                "predicted_after": round(self.predicted_after, 4),
                "changed": changed(self.start, self.best)}


@dataclass(frozen=True)
class TrickFit:
    """The trick model fitted to self-play: ``trick_bias`` and ``trick_spread`` from what the
    contracting sides took against what the auction estimated for them, and ``partner_support``
    from the contracts in a denomination partner had called."""

    ruleset: str
    seed: int | str
    games: int
    contracts: int
    """Contracts to take tricks in the first round's games (played with ``start``)."""
    mean_error: float
    """Mean of (tricks taken − tricks estimated) before the fit (0 after it)."""
    start: ClubParams
    best: ClubParams
    supported: int = 0
    """Of ``contracts``, those in a denomination the contractor's partner had called."""
    supported_error: float = 0.0
    """Mean of (tricks taken − tricks estimated) of those before the fit."""

    def as_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "seed": self.seed, "games": self.games, "contracts": self.contracts,
                "mean_error": round(self.mean_error, 4), "supported": self.supported,
                "supported_error": round(self.supported_error, 4),
                "changed": changed(self.start, self.best)}


def trick_outcomes(ruleset: Ruleset, params: ClubParams, games: int,
                   seed: int | str, play: str = "club", workers: int = 1) -> list[TrickRow]:
    """``TrickRow``s for every contract to take tricks in ``games`` seeded games of ``club`` with ``params`` in
    every seat (``play``: the player that plays them, bidding with ``params``: ``club`` or ``solver``): the
    contractor's estimate from its hand as dealt and the calls before its last, the tricks its side took.
    ``workers`` processes play the games; the rows are the same for any number."""
    return _outcomes(_trick_rows, "tricks", ruleset, params, games, seed, play, workers)


def _trick_rows(rules: Rules, judge: ClubPlayer, log: HandLog) -> list[TrickRow]:
    c, outcome = log.contract, log.outcome
    if c is None or outcome is None or c.kind == "misere" or c.goal != "at-least" or c.before_looking:
        return []
    last = max(i for i, (seat, _) in enumerate(log.calls) if seat == log.contractor)
    calls = log.calls[:last]
    estimate = judge.contract_estimate(rules, log.contractor, log.hands[log.contractor], calls, c,
                                       _shown_in_auction(rules, log, log.contractor))
    if estimate is None:
        return []
    return [(estimate, sum(log.tricks_won[s] for s in outcome.side),
             judge.contract_supported(rules, log.contractor, calls, c),
             judge.contract_contested(rules, log.contractor, calls, c),
             sum(1 for card in log.hands[log.contractor] if is_joker(card)), c.trump is None,
             judge.contract_bids_against(rules, log.contractor, calls))]


_RowReader = Callable[[Rules, ClubPlayer, HandLog], list[Any]]


def _outcomes(read: _RowReader, name: str, ruleset: Ruleset, params: ClubParams, games: int, seed: int | str,
              play: str, workers: int, judged: ClubParams | None = None) -> list[Any]:
    """``read``'s rows of every hand of ``games`` seeded games of ``play`` bidding with ``params`` (read by a
    ``club`` with ``judged``, else ``params``), in game order, played by ``workers`` processes in chunks."""
    with tempfile.TemporaryDirectory(prefix=f"fivehundred-{name}-") as tmp:
        spec = _spec(params, Path(tmp), "club", play)
        job = partial(_chunk_rows, read, ruleset, judged or params, spec, seed)
        chunks = list(game_chunks(games, chunk_size(games, workers) if workers > 1 else games))
        if workers <= 1 or len(chunks) <= 1:
            return [row for chunk in chunks for row in job(chunk)]
        with process_pool(min(workers, len(chunks))) as pool:
            return [row for rows in in_workers_order(pool, job, chunks) for row in rows]


def _chunk_rows(read: _RowReader, ruleset: Ruleset, judged: ClubParams, spec: str, seed: int | str,
                chunk: tuple[int, int]) -> list[Any]:
    rules = compile_rules(ruleset)
    judge = ClubPlayer(0, random.Random(0), judged)
    rows = []
    for game in range(*chunk):
        state = play_game(ruleset, seed, spec, game=game)
        for log in state.hands_log:
            rows += read(rules, judge, log)
    return rows


def _shown_in_auction(rules: Rules, log: HandLog, seat: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The other hands' cards ``seat`` saw in the auction of the hand ``log`` (``Observation.open_hands``):
    its cards dealt again.  Only dummies (P2) are laid out face up before the auction."""
    if not rules.dummies:
        return ()
    state = GameState(rules, first_dealer=log.dealer)
    state.deal_cards(log.hands, log.kitty, log.dead)
    return state.observation(seat).open_hands


def fit_trick_model(rows: Sequence[tuple[float, int, bool] | tuple[float, int, bool, bool] | TrickRow],
                    params: ClubParams) -> ClubParams:
    """``params`` with the trick model fitted to ``rows`` ((estimate, taken, supported[, contested[, jokers,
    no_trumps[, bids]]]), as ``trick_outcomes`` gives them), on a grid of 0.05.  On the contracts neither partner
    nor an opponent had called: ``opponent_bids`` moved by the slope of their errors on the calls the opponents had
    made (never below 0), the errors then read as the estimate with that value would have made them;
    ``trick_bias`` moved by the mean error of those in trumps made without a joker,
    ``joker_trumps`` by how much further off, per joker, those in trumps with jokers were, ``no_trumps_bias`` by
    how much further off those in no-trumps without a joker were, ``joker_no_trumps`` by how much further off
    again, per joker, those in no-trumps with jokers were.  Then, on the errors those terms leave,
    ``partner_support`` by how much further off the contracts partner had called were, ``opponent_called`` by how
    much further off those an opponent had called were (never below 0).  A term with fewer than ``MIN_CONTRACTS``
    rows is kept (the bias then falls back on every contract alone, or on every contract), ``trick_spread`` is
    fitted to the spread left."""
    def mean(xs: Sequence[float]) -> float:
        return sum(xs) / len(xs) if xs else 0.0

    def grid(x: float) -> float:
        return round(x * 20) / 20

    if len(rows) < MIN_CONTRACTS:
        return params
    bids = [int(row[6]) if len(row) > 6 else 0 for row in rows]
    lonely = [(bid, row[1] - row[0]) for bid, row in zip(bids, rows, strict=True)
              if not row[2] and not (len(row) > 3 and row[3])]
    per_bid = max(0.0, params.opponent_bids - _slope(lonely)) if len(lonely) >= MIN_CONTRACTS \
        else params.opponent_bids
    more = grid(per_bid) - params.opponent_bids  # each call against loses this much more of the estimate
    full = [(row[1] - row[0] + more * bid, bool(row[2]), len(row) > 3 and bool(row[3]),
             int(row[4]) if len(row) > 4 else 0, len(row) > 5 and bool(row[5]))
            for bid, row in zip(bids, rows, strict=True)]
    alone = [(e, jokers, nt) for e, supported, contested, jokers, nt in full if not supported and not contested]
    plain = [e for e, jokers, nt in alone if not jokers and not nt]
    terms = len(plain) >= MIN_CONTRACTS  # the bias on its own rows: the other terms are fitted beside it
    shift = (mean(plain) if terms else
             mean([e for e, _, _ in alone]) if len(alone) >= MIN_CONTRACTS else mean([e for e, *_ in full]))

    def term(errors: list[float]) -> float:
        return mean(errors) if terms and len(errors) >= MIN_CONTRACTS else 0.0

    trump_joker = term([(e - shift) / jokers for e, jokers, nt in alone if jokers and not nt])
    no_trumps = term([e - shift for e, jokers, nt in alone if not jokers and nt])
    nt_joker = term([(e - shift - no_trumps) / jokers for e, jokers, nt in alone if jokers and nt])
    errors = [(e - (no_trumps + jokers * nt_joker if nt else jokers * trump_joker), supported, contested)
              for e, supported, contested, jokers, nt in full]
    backed = [e for e, supported, contested in errors if supported and not contested]
    against = [e for e, _, contested in errors if contested]
    extra = mean(backed) - shift if len(backed) >= MIN_CONTRACTS else 0.0
    called = max(0.0, params.opponent_called - (mean(against) - shift)) if len(against) >= MIN_CONTRACTS \
        else params.opponent_called
    less = called - params.opponent_called
    residuals = [e - shift - (extra if supported and not contested else 0.0) + (less if contested else 0.0)
                 for e, supported, contested in errors]
    spread = math.sqrt(mean([r * r for r in residuals]))
    return params.model_copy(update={"trick_bias": grid(params.trick_bias + shift),
                                     "joker_trumps": grid(params.joker_trumps + trump_joker),
                                     "no_trumps_bias": grid(params.no_trumps_bias + no_trumps),
                                     "joker_no_trumps": grid(params.joker_no_trumps + nt_joker),
                                     "partner_support": grid(params.partner_support + extra),
                                     "opponent_called": grid(called),
                                     "opponent_bids": grid(per_bid),
                                     "trick_spread": max(0.5, grid(spread))})


def _slope(points: Sequence[tuple[int, float]]) -> float:
    """The least-squares slope of y on x over ``points`` ((x, y)); 0 where x never varies."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


def fit_tricks(ruleset: Ruleset, *, start: ClubParams | None = None, seed: int | str = 0,
               games: int = 400, rounds: int = 2, play: str = "club", workers: int = 1) -> TrickFit:
    """Fit the club player's trick model (``fit_trick_model``) to what its sides take in ``games``
    seeded self-play games, then again to the games the fitted player bids (its contracts are
    others once it prices them otherwise), ``rounds`` times in all.  ``play``: who plays the cards of
    those games (``solver``: the double-dummy player, bidding as ``club`` with the parameters fitted)."""
    start = start or ClubParams()
    best = start
    first: list[TrickRow] = []
    for round_ in range(rounds):
        rows = trick_outcomes(ruleset, best, games, f"{seed}:tricks" if round_ == 0 else f"{seed}:tricks:{round_}",
                              play, workers)
        first = first or rows
        best = fit_trick_model(rows, best)
    errors = [row[1] - row[0] for row in first]
    backed = [row[1] - row[0] for row in first if row[2]]
    return TrickFit(ruleset.name, seed, games, len(first), sum(errors) / max(1, len(errors)), start, best,
                    len(backed), sum(backed) / max(1, len(backed)))


def misere_outcomes(ruleset: Ruleset, params: ClubParams, games: int,
                    seed: int | str, play: str = "club", workers: int = 1) -> list[MisereRow]:
    """``MisereRow``s of every misère played alone in ``games`` seeded games of ``club`` with ``params`` in every
    seat; the danger, the chance and the long suits are the contractor's as it bid (its hand as dealt).  ``workers``
    as ``trick_outcomes``."""
    plain = params.model_copy(update={"open_risk": 1.0, "misere_long": 0.0})
    return _outcomes(_misere_rows, "misere", ruleset, params, games, seed, play, workers, judged=plain)


def _misere_rows(rules: Rules, judge: ClubPlayer, log: HandLog) -> list[MisereRow]:
    c, outcome = log.contract, log.outcome
    if c is None or outcome is None or c.kind != "misere" or c.partner_plays or c.before_looking:
        return []
    hand = log.hands[log.contractor]
    return [(judge.contract_danger(rules, hand, c), c.open, outcome.made,
             judge.contract_open_leads(rules, log.contractor, hand, c), judge.contract_length(rules, hand, c))]


def row_chance(row: MisereRow, p: ClubParams) -> float:
    """The make chance the curve of ``p`` gives the misère ``row`` (times its lead-free chance where ``open_leads``
    weighs it)."""
    danger, shown, _, free, long = row
    risk = (danger + p.misere_long * long) * (p.open_risk if shown else 1.0)
    return (free ** p.open_leads if shown else 1.0) / (1.0 + math.exp(p.misere_slope * (risk - p.misere_mid)))


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _log_likelihood(rows: Sequence[MisereRow] | Sequence[tuple[float, bool, bool, float]], mid: float, slope: float,
                    shown: float, leads: float = 0.0, long: float = 0.0) -> float:
    total = 0.0
    for row in rows:
        danger, is_open, made, free, *beyond = row
        if long and beyond:
            danger += long * beyond[0]
        x = slope * (mid - danger * (shown if is_open else 1.0))  # made with chance σ(x)
        if not is_open or not leads or free >= 1.0:
            total += _log_sigmoid(x if made else -x)
            continue
        chance = math.exp(_log_sigmoid(x)) * free ** leads  # times the chance of no lead under the hand
        total += math.log(max(chance, 1e-12)) if made else math.log(max(1.0 - chance, 1e-12))
    return total


def fit_curve(rows: Sequence[MisereRow] | Sequence[tuple[float, bool, bool, float]], params: ClubParams) -> ClubParams:
    """``params`` with ``misere_mid`` (``open_risk`` when an open misère is among ``rows``, ``misere_long`` when a
    long suit is) of the greatest likelihood of ``rows`` (``MisereRow``s; without the long suits, ``misere_long``
    is kept), on a grid of 0.05, the slope and ``open_leads`` kept."""
    mids = [m / 20 for m in range(-40, 161)]
    shown_values = [1.0 + s / 20 for s in range(61)] if any(row[1] for row in rows) else [params.open_risk]
    longs = [k / 20 for k in range(21)] if any(sum(row[4:]) for row in rows) else [params.misere_long]
    slope, mid, shown, leads = params.misere_slope, params.misere_mid, params.open_risk, params.open_leads
    long = params.misere_long
    for _ in range(20):  # one coordinate, then the next, until they settle
        settled = (mid, shown, long)
        mid = max(mids, key=lambda m: _log_likelihood(rows, m, slope, shown, leads, long))
        shown = max(shown_values, key=lambda o: _log_likelihood(rows, mid, slope, o, leads, long))
        if len(longs) > 1:  # each length's cost with the middle that suits it best: the two move together
            (_, mid), long = max((_profiled(rows, mids, slope, shown, leads, k), k) for k in longs)
        if (mid, shown, long) == settled:
            break
    return params.model_copy(update={"misere_mid": mid, "open_risk": shown, "misere_long": long})


def _profiled(rows: Sequence[MisereRow] | Sequence[tuple[float, bool, bool, float]], mids: Sequence[float],
              slope: float, shown: float, leads: float, long: float) -> tuple[float, float]:
    """(log-likelihood, middle) of ``rows`` at the middle of ``mids`` that suits ``long`` best."""
    def at(mid: float) -> float:
        return _log_likelihood(rows, mid, slope, shown, leads, long)

    mid = _peak(mids, at)
    return at(mid), mid


def _peak(grid: Sequence[float], f: Callable[[float], float]) -> float:
    """The point of ``grid`` (ascending) where ``f``, rising then falling along it (a log-likelihood in the curve's
    middle), is greatest: a ternary search over its indices."""
    lo, hi = 0, len(grid) - 1
    while hi - lo > 2:
        a, b = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if f(grid[a]) < f(grid[b]):
            lo = a + 1
        else:
            hi = b
    return max(grid[lo:hi + 1], key=f)


def fit_misere(ruleset: Ruleset, *, start: ClubParams | None = None, seed: int | str = 0, games: int = 400,
               rounds: int = 2, play: str = "club", workers: int = 1) -> MisereFit:
    """Fit the club player's misère curve to what its own defenders let through: play ``games``
    seeded games, fit ``misere_mid`` (and ``open_risk``) to the misères played alone, play again with
    the fit (fewer, safer misères get bid), and fit to every round's contracts together.  ``play``: who
    plays the cards (``solver``: what defenders who search let through)."""
    start = start or ClubParams()
    best = start
    rows: list[MisereRow] = []
    for round_ in range(rounds):
        rows += misere_outcomes(ruleset, best, games, f"{seed}:misere:{round_}", play, workers)
        if len(rows) < MIN_MISERES:
            break
        best = fit_curve(rows, best)

    def mean_chance(p: ClubParams) -> float:
        return sum(row_chance(row, p) for row in rows) / max(1, len(rows))

    return MisereFit(ruleset.name, seed, games, len(rows), sum(1 for row in rows if row[2]),
                     mean_chance(start), mean_chance(best), start, best)
