"""Paired comparison of two arms (a ruleset with its players) over the same deals.

Game ``i`` of arm A and game ``i`` of arm B are played with the same seed and game index, so they
share the deal generator (it draws the first dealer and shuffles, nothing else) and each seat's
player generator: while both games last and their decks match, they are dealt the same cards by
the same dealers.  Each metric is reported for both arms with its 95% interval, and as the
difference B − A with its 95% interval and the number of observations behind it:

- per-game metrics (win rates, final scores, hands per game, games ended by a fall) are paired: the interval is the mean
  of the per-game differences ± 1.96·sd/√n (a normal approximation, sound for the hundreds of
  games a comparison needs; for win indicators this is the usual Wald interval for paired rates);
- per-hand rates (make rates, misère success, passed-out deals, the contract mix) are not paired (the hands of two
  games part ways after the first difference): the difference of two independent proportions
  with Newcombe's hybrid score interval, built from the two Wilson intervals;
- contractor-side tricks is a mean per hand, not paired either: the difference of two means with
  the normal (Welch) interval ± 1.96·√(sA²/nA + sB²/nB).

The headline metrics (``Metric.headline``) say what a change of rules does to the game: the contract
mix (the share of trump, no-trump and each misère contract among the contracts played), passed-out
deals, games ended by a fall (a side at the losing score), and hands per game.

Statistics are accumulated as the games finish (constant memory); the result depends only on
(arms, seed, games), not on the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Literal

from fivehundred.engine.state import GameState
from fivehundred.records.record import game_to_dict
from fivehundred.rules.inputs import check_seed

from .arms import Arm, Side, params_text, resolve, team_names
from .chunks import in_workers_order, process_pool
from .simulation import MAX_DEALS, GameStats, Summary, _Interrupts, game_stats, play_game, wilson

Z = 1.96
"""The normal quantile of every 95% interval here."""

PAIRED = "paired: mean of per-game differences ± 1.96·sd/√n"
NEWCOMBE = "unpaired: difference of proportions, Newcombe hybrid score interval (from Wilson intervals)"
WELCH = "unpaired: difference of means ± 1.96·√(sA²/nA + sB²/nB)"


# --- one game's facts ------------------------------------------------------------------------


@dataclass(slots=True)
class HandFacts:
    """One played hand: its contract type, whether it was made, and the contracting side's tricks."""

    kind: str
    """S, C, D, H, NT, or the misère call (misere, open-misere, …)."""
    misere: bool
    made: bool
    side_tricks: int | None
    """Tricks won by the contracting side (None for misère and for hands nobody contracted)."""
    mix: str | None
    """Its share of the contract mix: trumps, no-trumps or the misère call; None when nobody contracted."""


@dataclass(slots=True)
class GameFacts:
    """What the comparison needs from one game (small, cheap to send between processes)."""

    stats: GameStats
    winner: int | None
    """The winning team's index, None when the game was abandoned unfinished."""
    hands: list[HandFacts]
    fell: bool = False
    """The game ended with a side at the losing score (E3: below it): ended by a fall."""


def game_facts(state: GameState) -> GameFacts:
    stats = game_stats(state)
    outcomes = [log.outcome for log in state.hands_log if log.outcome is not None]
    hands = []
    for outcome, (_, kind, made) in zip(outcomes, stats.contracts, strict=True):
        misere = outcome.kind == "misere"
        tricks = None if misere or outcome.contractor < 0 else outcome.side_tricks
        mix = None if outcome.contractor < 0 else kind if misere else outcome.kind
        hands.append(HandFacts(kind, misere, made, tricks, mix))
    winner = state.result.winner if state.result is not None else None
    return GameFacts(stats, winner, hands, ended_by_fall(state))


def ended_by_fall(state: GameState) -> bool:
    """The game is over with a side at or below the losing score (strictly below with ``swamp_strict``)."""
    game = state.rules.ruleset.game
    if state.result is None or game.swamp is None:
        return False
    swamp = game.swamp
    return any(total < swamp if game.swamp_strict else total <= swamp for total in state.totals)


@dataclass(slots=True)
class PairFacts:
    """Game ``i`` of both arms, and how far their deals matched."""

    a: GameFacts
    b: GameFacts
    deals_compared: int
    """Deals that both games reached."""
    deals_identical: int
    """Of those, deals with the same dealer, hands, kitty and dead hand in both games."""
    first_identical: bool
    records: tuple[dict[str, Any], dict[str, Any]] | None = None
    """Both games' records, when asked for (``compare(on_records=...)``)."""


def play_pair(a: Side, b: Side, seed: int | str, game: int, max_deals: int = MAX_DEALS, *,
              records: bool = False) -> PairFacts:
    """Play game ``game`` under both arms (same seed, same index: same deal and player generators)."""
    ga = play_game(a.ruleset, seed, a.players, game=game, max_deals=max_deals)
    gb = play_game(b.ruleset, seed, b.players, game=game, max_deals=max_deals)
    same = [(x.dealer, x.hands, x.kitty, x.dead) == (y.dealer, y.hands, y.kitty, y.dead)
            for x, y in zip(ga.hands_log, gb.hands_log, strict=False)]
    both = None
    if records:
        both = (game_to_dict(ga, seed=seed, game=game, players=a.players),
                game_to_dict(gb, seed=seed, game=game, players=b.players))
    return PairFacts(game_facts(ga), game_facts(gb), len(same), sum(same), bool(same) and same[0], both)


# --- running statistics ------------------------------------------------------------------------


@dataclass(slots=True)
class PairedSums:
    """Exact integer sums of paired observations (a, b): enough for both means and the paired interval."""

    n: int = 0
    sa: int = 0
    sb: int = 0
    saa: int = 0
    sbb: int = 0
    sdd: int = 0

    def add(self, a: int, b: int) -> None:
        self.n += 1
        self.sa += a
        self.sb += b
        self.saa += a * a
        self.sbb += b * b
        self.sdd += (b - a) * (b - a)


@dataclass(slots=True)
class MeanSums:
    """Exact integer sums of one stream of observations."""

    n: int = 0
    s: int = 0
    ss: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x


def _variance(n: int, s: int, ss: int) -> float | None:
    """Sample variance from exact sums (None below two observations)."""
    if n < 2:
        return None
    return max(0.0, (ss - s * s / n) / (n - 1))


def _mean_ci(n: int, s: int, ss: int) -> tuple[float | None, tuple[float, float] | None]:
    if n == 0:
        return None, None
    mean = s / n
    var = _variance(n, s, ss)
    if var is None:
        return mean, None
    half = Z * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def newcombe(made_a: int, n_a: int, made_b: int, n_b: int) -> tuple[float, float] | None:
    """95% interval of p_B − p_A for independent proportions (Newcombe 1998, method 10)."""
    wa, wb = wilson(made_a, n_a), wilson(made_b, n_b)
    if wa is None or wb is None:
        return None
    pa, pb = made_a / n_a, made_b / n_b
    d = pb - pa
    low = d - math.sqrt((pb - wb[0]) ** 2 + (wa[1] - pa) ** 2)
    high = d + math.sqrt((wb[1] - pb) ** 2 + (pa - wa[0]) ** 2)
    return max(-1.0, low), min(1.0, high)


# --- the result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """One arm's value of a metric with its 95% interval and the observations behind it."""

    value: float | None
    ci95: tuple[float, float] | None
    n: int

    def as_dict(self, digits: int) -> dict[str, Any]:
        return {"value": _round(self.value, digits), "ci95": _round_pair(self.ci95, digits), "n": self.n}


@dataclass(frozen=True)
class Metric:
    """A metric of both arms and its difference B − A."""

    name: str
    """A stable key: ``win_rate.NS``, ``make_rate.S``, ``hands_per_game`` …"""
    label: str
    unit: Literal["game pairs", "hands", "deals", "contracts"]
    rate: bool
    """A proportion (shown in per cent) rather than a count or points."""
    paired: bool
    method: str
    a: Estimate
    b: Estimate
    difference: float | None
    ci95: tuple[float, float] | None
    headline: bool = False
    """One of the few that say what a change of rules does to the game (shown first)."""

    @property
    def significant(self) -> bool:
        """The 95% interval of the difference excludes 0."""
        return self.ci95 is not None and (self.ci95[0] > 0 or self.ci95[1] < 0)

    def as_dict(self) -> dict[str, Any]:
        digits = 4 if self.rate else 3
        return {"name": self.name, "label": self.label, "unit": self.unit, "paired": self.paired,
                "method": self.method, "A": self.a.as_dict(digits), "B": self.b.as_dict(digits),
                "difference": _round(self.difference, digits), "ci95": _round_pair(self.ci95, digits),
                "n": {"A": self.a.n, "B": self.b.n}, "significant": self.significant, "headline": self.headline}


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _round_pair(p: tuple[float, float] | None, digits: int) -> list[float] | None:
    return None if p is None else [round(p[0], digits), round(p[1], digits)]


@dataclass
class Pairing:
    """How well the deals were paired: the first deal of each pair, and every deal both games reached."""

    games: int = 0
    first_deals_identical: int = 0
    deals_compared: int = 0
    deals_identical: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"games": self.games, "first_deals_identical": self.first_deals_identical,
                "deals_compared": self.deals_compared, "deals_identical": self.deals_identical}


@dataclass(frozen=True)
class ArmInfo:
    ruleset: str
    ruleset_hash: str
    players: list[str]
    """Each seat's player spec as played (a bare ``club`` pinned to a parameter set: ``club:NAME``)."""
    teams: list[str]
    summary: Summary
    params: list[str | None] = field(default_factory=list)
    """Each seat's club parameter set (a ruleset's name, ``default`` or a file), None for another player."""

    def as_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "ruleset_hash": self.ruleset_hash, "players": self.players,
                "params": self.params, "teams": self.teams, "unfinished": self.summary.unfinished}


@dataclass(frozen=True)
class Comparison:
    """The outcome of ``compare``; ``as_dict()`` is what ``fivehundred compare --json`` prints."""

    games: int
    seed: int | str
    a: ArmInfo
    b: ArmInfo
    pairing: Pairing
    metrics: list[Metric]
    interrupted: bool = False

    @property
    def params_differ(self) -> bool:
        """The arms' club players play with different parameters (or only one arm has club players)."""
        return self.a.params != self.b.params

    @property
    def warnings(self) -> list[str]:
        """What makes a comparison of rules measure more than the rules: the arms' club players' parameters
        differ (none when both arms play one ruleset: then the players are what is compared)."""
        if not self.params_differ or self.a.ruleset_hash == self.b.ruleset_hash:
            return []
        a, b = params_text(self.a.params) or "no club player", params_text(self.b.params) or "no club player"
        return [f"warning: the arms' players use different parameters (A: {a}; B: {b}): the differences measure "
                "the players as well as the rules (by default a bare club plays both arms with arm A's set; "
                "--tuned-per-arm gives each arm its own)"]

    @property
    def headline(self) -> list[Metric]:
        """The headline metrics: the contract mix, passed-out deals, games ended by a fall, hands per game."""
        order = ["passed_out_rate", "fall_rate", "hands_per_game"]
        ranked = [m for m in self.metrics if m.headline]
        return sorted(ranked, key=lambda m: order.index(m.name) + 1 if m.name in order else 0)

    def metric(self, name: str) -> Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(f"no metric {name!r}; known: {', '.join(m.name for m in self.metrics)}")

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "seed": self.seed, "interrupted": self.interrupted,
                "arms": {"A": self.a.as_dict(), "B": self.b.as_dict()}, "warnings": self.warnings,
                "pairing": self.pairing.as_dict(),
                "metrics": [m.as_dict() for m in self.metrics],
                "summaries": {"A": self.a.summary.as_dict(), "B": self.b.summary.as_dict()}}


# --- accumulation ----------------------------------------------------------------------------------


@dataclass
class _ArmTally:
    """One arm's per-hand counts: [n, made] per contract type, passed-out deals, contractor-side tricks."""

    summary: Summary
    deals: int = 0
    hands: int = 0
    made: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    contracts: int = 0
    mix: dict[str, int] = field(default_factory=dict)
    misere: list[int] = field(default_factory=lambda: [0, 0])
    side_tricks: MeanSums = field(default_factory=MeanSums)

    def add(self, g: GameFacts) -> None:
        self.summary.add(g.stats)
        self.deals += g.stats.deals
        for h in g.hands:
            self.hands += 1
            self.made += h.made
            entry = self.by_kind.setdefault(h.kind, [0, 0])
            entry[0] += 1
            entry[1] += h.made
            if h.mix is not None:
                self.contracts += 1
                self.mix[h.mix] = self.mix.get(h.mix, 0) + 1
            if h.misere:
                self.misere[0] += 1
                self.misere[1] += h.made
            if h.side_tricks is not None:
                self.side_tricks.add(h.side_tricks)


class _Tally:
    """Every statistic of a comparison, updated pair by pair."""

    def __init__(self, a: Side, b: Side, seed: int | str):
        self.sides = (a, b)
        self.seed = seed
        self.teams = team_names(a.ruleset)
        names_b = team_names(b.ruleset)
        self.labels = [x if x == y else f"{x}/{y}" for x, y in zip(self.teams, names_b, strict=True)]
        self.arms = tuple(_ArmTally(Summary(s.ruleset.name, seed, s.players, team_names(s.ruleset))) for s in (a, b))
        self.pairing = Pairing()
        self.interrupted = False
        self.per_game: dict[str, PairedSums] = {}

    def _paired(self, key: str, a: int, b: int) -> None:
        sums = self.per_game.get(key)
        if sums is None:
            sums = self.per_game[key] = PairedSums()
        sums.add(a, b)

    def add(self, p: PairFacts) -> None:
        self.pairing.games += 1
        self.pairing.first_deals_identical += p.first_identical
        self.pairing.deals_compared += p.deals_compared
        self.pairing.deals_identical += p.deals_identical
        self.arms[0].add(p.a)
        self.arms[1].add(p.b)
        self._paired("hands_per_game", len(p.a.hands), len(p.b.hands))
        self._paired("deals_per_game", p.a.stats.deals, p.b.stats.deals)
        if p.a.winner is None or p.b.winner is None:
            return  # win rates and final scores compare finished games only
        for t in range(len(self.teams)):
            self._paired(f"win_rate.{t}", p.a.winner == t, p.b.winner == t)
        for t in range(len(self.teams)):
            self._paired(f"final_score.{t}", p.a.stats.totals[t], p.b.stats.totals[t])
        self._paired("score_margin", _margin(p.a.stats.totals), _margin(p.b.stats.totals))
        self._paired("fall_rate", p.a.fell, p.b.fell)
        self._paired("winner_score", p.a.stats.totals[p.a.winner], p.b.stats.totals[p.b.winner])

    def result(self, games: int) -> Comparison:
        infos = tuple(ArmInfo(s.ruleset.name, s.ruleset.content_hash, s.players, team_names(s.ruleset), t.summary,
                              s.params) for s, t in zip(self.sides, self.arms, strict=True))
        return Comparison(games, self.seed, infos[0], infos[1], self.pairing, self._metrics(), self.interrupted)

    def _metrics(self) -> list[Metric]:
        out = []
        t0 = self.labels[0]
        for t, label in enumerate(self.labels):
            out.append(self._per_game(f"win_rate.{t}", f"win_rate.{label}", f"win rate {label}", rate=True))
        for t, label in enumerate(self.labels):
            out.append(self._per_game(f"final_score.{t}", f"final_score.{label}", f"final score {label}"))
        out.append(self._per_game("score_margin", f"score_margin.{t0}", f"score margin {t0}"))
        out.append(self._per_game("winner_score", "winner_score", "winner's score"))
        out.append(self._per_game("hands_per_game", "hands_per_game", "hands played/game", headline=True))
        out.append(self._per_game("deals_per_game", "deals_per_game", "deals/game"))
        out.append(self._per_game("fall_rate", "fall_rate", "games ended by a fall", rate=True, headline=True))
        a, b = self.arms
        out.append(_rates("passed_out_rate", "passed-out deals", "deals",
                          a.deals - a.hands, a.deals, b.deals - b.hands, b.deals, headline=True))
        for kind in sorted(a.mix.keys() | b.mix.keys(), key=_mix_order):
            out.append(_rates(f"contract_share.{kind}", f"contracts: {mix_label(kind)}", "contracts",
                              a.mix.get(kind, 0), a.contracts, b.mix.get(kind, 0), b.contracts, headline=True))
        out.append(_rates("make_rate", "make rate, all contracts", "contracts", a.made, a.hands, b.made, b.hands))
        for kind in sorted(a.by_kind.keys() | b.by_kind.keys(), key=_kind_order):
            (na, ma), (nb, mb) = a.by_kind.get(kind, [0, 0]), b.by_kind.get(kind, [0, 0])
            out.append(_rates(f"make_rate.{kind}", f"make rate, {kind}", "contracts", ma, na, mb, nb))
        out.append(_rates("misere_success_rate", "misère success rate", "contracts",
                          a.misere[1], a.misere[0], b.misere[1], b.misere[0]))
        out.append(_means("contractor_side_tricks", "contractor-side tricks", a.side_tricks, b.side_tricks))
        return out

    def _per_game(self, key: str, name: str, label: str, *, rate: bool = False, headline: bool = False) -> Metric:
        s = self.per_game.get(key, PairedSums())
        n = s.n
        if rate:
            ea = Estimate(s.sa / n if n else None, wilson(s.sa, n), n)
            eb = Estimate(s.sb / n if n else None, wilson(s.sb, n), n)
        else:
            ea = Estimate(*_mean_ci(n, s.sa, s.saa), n)
            eb = Estimate(*_mean_ci(n, s.sb, s.sbb), n)
        diff, ci = _mean_ci(n, s.sb - s.sa, s.sdd)
        return Metric(name, label, "game pairs", rate, True, PAIRED, ea, eb, diff, ci, headline)


def _margin(totals: list[int]) -> int:
    """The first team's total less the best of the others'."""
    return totals[0] - max(totals[1:])


def _kind_order(kind: str) -> tuple[int, str]:
    order = ["S", "C", "D", "H", "NT"]
    return (order.index(kind), "") if kind in order else (len(order), kind)


def _mix_order(kind: str) -> tuple[int, str]:
    order = ["trumps", "no-trumps", "misere"]
    return (order.index(kind), "") if kind in order else (len(order), kind)


def mix_label(kind: str) -> str:
    """``open-misere`` → ``open misère``; ``no-trumps`` → ``no trumps``."""
    return kind.replace("-", " ").replace("misere", "misère")


def _rates(name: str, label: str, unit: Literal["deals", "contracts"],
           made_a: int, n_a: int, made_b: int, n_b: int, *, headline: bool = False) -> Metric:
    pa = made_a / n_a if n_a else None
    pb = made_b / n_b if n_b else None
    diff = pb - pa if pa is not None and pb is not None else None
    return Metric(name, label, unit, True, False, NEWCOMBE, Estimate(pa, wilson(made_a, n_a), n_a),
                  Estimate(pb, wilson(made_b, n_b), n_b), diff, newcombe(made_a, n_a, made_b, n_b), headline)


def _means(name: str, label: str, a: MeanSums, b: MeanSums) -> Metric:
    ea, eb = Estimate(*_mean_ci(a.n, a.s, a.ss), a.n), Estimate(*_mean_ci(b.n, b.s, b.ss), b.n)
    diff = ci = None
    va, vb = _variance(a.n, a.s, a.ss), _variance(b.n, b.s, b.ss)
    if ea.value is not None and eb.value is not None:
        diff = eb.value - ea.value
        if va is not None and vb is not None:
            half = Z * math.sqrt(va / a.n + vb / b.n)
            ci = (diff - half, diff + half)
    return Metric(name, label, "hands", False, False, WELCH, ea, eb, diff, ci)


# --- batches --------------------------------------------------------------------------------------------


def _play_chunk(job: tuple[Side, Side, int | str, int, int, int, bool]) -> list[PairFacts]:
    a, b, seed, start, stop, max_deals, records = job
    return [play_pair(a, b, seed, game, max_deals, records=records) for game in range(start, stop)]


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(games, start + size)


def compare(games: int = 100, seed: int | str = 0, a: Arm | None = None, b: Arm | None = None, *,
            workers: int = 1, progress: Callable[[int], None] | None = None,
            max_deals: int = MAX_DEALS, tuned_per_arm: bool = False,
            on_records: Callable[[dict[str, Any], dict[str, Any]], None] | None = None) -> Comparison:
    """Play ``games`` pairs of games, game ``i`` of each arm on the same deals, and compare the arms.

    ``b`` defaults to ``a`` field by field: give ``b=Arm(ruleset=...)`` to compare rulesets with the
    same players, or ``b=Arm(players=...)`` to compare players under the same ruleset.  A bare ``club``
    plays both arms with the parameters tuned for arm A's ruleset (its own or its nearest ancestor's),
    or, with ``tuned_per_arm``, each arm with its own ruleset's (``fivehundred.batch.arms``).  The result
    depends only on (arms, seed, games), not on ``workers``; ``progress`` is called with the number
    of pairs just finished; ``on_records`` with both games' records, pair by pair in game order.
    Ctrl-C stops early and keeps the pairs finished (``interrupted``).
    """
    check_seed(seed)
    side_a, side_b = resolve(a, b, tuned_per_arm=tuned_per_arm)
    tally = _Tally(side_a, side_b, seed)
    size = max(1, min(100, games // (max(workers, 1) * 8) or 1))
    records = on_records is not None
    jobs = [(side_a, side_b, seed, start, stop, max_deals, records) for start, stop in _chunks(games, size)]
    with ExitStack() as stack:
        if workers > 1:
            pool = stack.enter_context(process_pool(workers))
            results: Iterator[list[PairFacts]] = in_workers_order(pool, _play_chunk, jobs)
        else:
            results = map(_play_chunk, jobs)
        try:
            with _Interrupts() as interrupts:
                for chunk in results:
                    with interrupts.deferred():
                        for pair in chunk:
                            tally.add(pair)
                            if on_records is not None and pair.records is not None:
                                on_records(*pair.records)
                    if progress is not None:
                        progress(len(chunk))
        except KeyboardInterrupt:
            tally.interrupted = True
            if workers > 1:
                pool.stop()
    return tally.result(tally.pairing.games)



