"""Batch statistics from game records: what the report's charts and key numbers are drawn from.

Records are read one line at a time and folded into ``BatchStats``, whose size does not grow with
the number of games (counts by bid, by dealer-relative position and by game length, running sums
for the mean score trajectory, and the trajectories of the first ``sample`` games only).  The
charts (``fivehundred.analysis.charts``, matplotlib, the ``report`` extra) are drawn from those aggregates.

Each hand is read as the record states it: the contract's kind, the contracting side and whether
it was made (the hand's ``outcome``), as the engine scored it.  Older records have no outcome; for
them the call is looked up on the ruleset's ladder, and made is the contract's own test on the
contracting side's tricks (a misère: none; Hi/Lo: exactly the bid; a slam or declaration: all), as
the simulation summary counts it.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred.batch.simulation import Running, wilson
from fivehundred.records.reading import read_record_file
from fivehundred.records.rulesets import RecordRulesetError, RecordRulesets, RulesetRefs, load_rulesets
from fivehundred.rules.errors import RecordError
from fivehundred.rules.inputs import InputError, check_regular
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.tables import Contract

SAMPLE = 50
"""Games whose whole score trajectory is kept (the first ones read)."""


# --- what a ruleset tells the report -----------------------------------------------------------


@dataclass(frozen=True)
class CallInfo:
    """A bid of the ladder as the charts need it."""

    call: str
    rung: int
    kind: str
    """'trumps', 'no-trumps' or 'misere'."""
    tricks: int
    open: bool = False
    trump: int | None = None
    contract: Contract | None = None
    """The ladder's contract, whose own test says whether the hand was made (None for a guessed call)."""


@dataclass(frozen=True)
class RulesInfo:
    """Seats, teams, ladder and game bounds of one ruleset."""

    name: str
    seats: tuple[str, ...]
    teams: tuple[str, ...]
    team_of: dict[str, str]
    team_seats: dict[str, tuple[str, ...]]
    calls: dict[str, CallInfo]
    target: int
    swamp: int | None

    @classmethod
    def of(cls, ruleset: Ruleset) -> RulesInfo:
        from fivehundred.rules.manager import compile_rules

        rules = compile_rules(ruleset)
        teams = ruleset.players.teams
        calls = {c.call: CallInfo(c.call, c.rung, c.kind, c.tricks, c.open, c.trump, c) for c in rules.ladder}
        return cls(ruleset.name, tuple(rules.seats), tuple(t.name for t in teams),
                   {seat: t.name for t in teams for seat in t.seats}, {t.name: tuple(t.seats) for t in teams},
                   calls, ruleset.game.target, ruleset.game.swamp)


_BID = re.compile(r"^(\d+)(S|C|D|H|NT)$")


def call_info(call: str, rules: RulesInfo, kind: str | None = None) -> CallInfo:
    """The ladder entry of ``call``; for a call the ladder lacks, the ``kind`` the record gives, or
    (an older record) a best guess from the call's text."""
    known = rules.calls.get(call)
    if known is not None:
        return known
    bid = _BID.match(call)
    if bid:
        trump = None if bid[2] == "NT" else "SCDH".index(bid[2])
        return CallInfo(call, 10_000, "no-trumps" if trump is None else "trumps", int(bid[1]), trump=trump)
    if kind is None:
        kind = "misere" if "mis" in call else "no-trumps"
    return CallInfo(call, 10_000, kind, 0, open="open" in call)


# --- aggregates ------------------------------------------------------------------------------


@dataclass
class Tally:
    """Contracts played and made (or any count of successes out of trials)."""

    played: int = 0
    made: int = 0

    def add(self, made: bool) -> None:
        self.played += 1
        self.made += made

    @property
    def rate(self) -> float | None:
        return self.made / self.played if self.played else None

    @property
    def ci(self) -> tuple[float, float] | None:
        return wilson(self.made, self.played)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def position_label(offset: int) -> str:
    """A seat's place relative to the dealer: 1st hand is the dealer's left, 0 the dealer."""
    return "dealer" if offset == 0 else f"{ordinal(offset)} hand"


@dataclass
class Trajectory:
    """Running totals of each team after each hand played, from 0 before the first."""

    game: str
    totals: dict[str, list[int]]
    winner: str | None


@dataclass
class BatchStats:
    """Everything the charts and the key numbers need, folded in one record at a time."""

    sample_size: int = SAMPLE
    files: list[str] = field(default_factory=list)
    rulesets: dict[str, set[str]] = field(default_factory=dict)
    seeds: dict[str, int] = field(default_factory=dict)
    lineups: Counter[str] = field(default_factory=Counter)
    games: int = 0
    finished: int = 0
    deals: int = 0
    hands_played: int = 0
    passed_out: int = 0
    misdeals: int = 0
    unbid_played: int = 0
    """Hands played out with no contractor (B10: all passed, played in no-trumps)."""
    by_call: dict[str, Tally] = field(default_factory=dict)
    calls: dict[str, CallInfo] = field(default_factory=dict)
    teams: list[str] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)
    winner_totals: Running = field(default_factory=Running)
    loser_totals: Running = field(default_factory=Running)
    lengths: Counter[int] = field(default_factory=Counter)
    """Hands played per finished game."""
    deals_per_game: Running = field(default_factory=Running)
    positions: dict[int, Tally] = field(default_factory=dict)
    """Contracts won (``played``) and made by the contractor's place after the dealer (0: dealer)."""
    players_per_game: set[int] = field(default_factory=set)
    side_tricks: dict[int, Counter[int]] = field(default_factory=dict)
    """Tricks taken by the contracting side, by tricks bid (suit and no-trump contracts)."""
    trajectories: list[Trajectory] = field(default_factory=list)
    mean_sum: dict[str, list[int]] = field(default_factory=dict)
    mean_n: dict[str, list[int]] = field(default_factory=dict)
    bounds: set[tuple[int, int | None]] = field(default_factory=set)
    """(target, losing score) of the rulesets seen."""

    # --- folding -----------------------------------------------------------------------------

    def add(self, record: dict[str, Any], rules: RulesInfo, source: str) -> None:
        """Fold one game record in (``rules``: its ruleset)."""
        self.games += 1
        meta = record["ruleset"]
        self.rulesets.setdefault(str(meta["name"]), set()).add(str(meta.get("hash")))
        seed = str(record.get("seed"))
        self.seeds[seed] = self.seeds.get(seed, 0) + 1
        players = record.get("players")
        if isinstance(players, dict):
            self.lineups[_lineup(players)] += 1
        self.bounds.add((rules.target, rules.swamp))
        self.players_per_game.add(len(rules.seats))
        for team in rules.teams:
            if team not in self.teams:
                self.teams.append(team)
        hands: list[dict[str, Any]] = record["hands"]
        self.deals += int(record.get("deals", len(hands)))
        self.deals_per_game.add(int(record.get("deals", len(hands))))
        running = {team: [0] for team in rules.teams}
        for hand in hands:
            if self._hand(hand, rules):
                for team in rules.teams:
                    running[team].append(int(hand["totals"][team]))
        played = len(running[rules.teams[0]]) - 1
        result = record.get("result")
        winner = None
        if result is not None:
            winner = str(result["winner"])
            self._result(winner, {str(k): int(v) for k, v in result["totals"].items()})
            self.lengths[played] += 1
        self._trajectory(running, winner, source)

    def _hand(self, hand: dict[str, Any], rules: RulesInfo) -> bool:
        """Fold one hand in; True if it was played (and has totals)."""
        contract = hand["contract"]
        if contract is None:
            if hand.get("misdeal"):
                self.misdeals += 1
            else:
                self.passed_out += 1
            return False
        if not hand.get("totals"):
            return False
        contractor = contract.get("contractor")
        if contractor is None:
            self.unbid_played += 1
            return True
        self.hands_played += 1
        outcome: dict[str, Any] = hand.get("outcome") or {}
        info = call_info(str(contract["call"]), rules, outcome.get("kind"))
        if info.call not in self.calls or info.rung < self.calls[info.call].rung:
            self.calls[info.call] = info
        won: dict[str, int] = hand["tricks_won"]
        made = bool(outcome["made"]) if outcome.get("made") is not None else _made(hand, info, contractor, rules)
        self.by_call.setdefault(info.call, Tally()).add(made)
        offset = (rules.seats.index(contractor) - rules.seats.index(hand["dealer"])) % len(rules.seats)
        self.positions.setdefault(offset, Tally()).add(made)
        if info.kind != "misere":
            side = sum(won[s] for s in outcome.get("side") or _side(hand, contractor, rules))
            self.side_tricks.setdefault(info.tricks, Counter())[side] += 1
        return True

    def _result(self, winner: str, totals: dict[str, int]) -> None:
        self.finished += 1
        self.wins[winner] += 1
        for team, total in totals.items():
            (self.winner_totals if team == winner else self.loser_totals).add(total)

    def _trajectory(self, running: dict[str, list[int]], winner: str | None, source: str) -> None:
        if len(self.trajectories) < self.sample_size:
            self.trajectories.append(Trajectory(source, running, winner))
        for team, points in running.items():
            sums = self.mean_sum.setdefault(team, [])
            counts = self.mean_n.setdefault(team, [])
            for i, total in enumerate(points):
                if i == len(sums):
                    sums.append(0)
                    counts.append(0)
                sums[i] += total
                counts[i] += 1

    # --- derived numbers ---------------------------------------------------------------------

    @property
    def unfinished(self) -> int:
        return self.games - self.finished

    def ladder(self) -> list[CallInfo]:
        """The bids played, in ladder order."""
        return sorted((self.calls[c] for c in self.by_call), key=lambda c: (c.rung, c.call))

    def misere(self) -> Tally:
        tally = Tally()
        for info in self.ladder():
            if info.kind == "misere":
                tally.played += self.by_call[info.call].played
                tally.made += self.by_call[info.call].made
        return tally

    def made(self) -> Tally:
        return Tally(sum(t.played for t in self.by_call.values()), sum(t.made for t in self.by_call.values()))

    def win_rate(self, team: str) -> Tally:
        return Tally(self.finished, self.wins.get(team, 0))

    def mean_trajectory(self, team: str, min_games: int = 1) -> list[float]:
        """Mean total after each hand over the games still running then (while at least ``min_games``)."""
        sums, counts = self.mean_sum.get(team, []), self.mean_n.get(team, [])
        return [s / n for s, n in zip(sums, counts, strict=True) if n >= min_games]

    def length_quantiles(self) -> tuple[float, float, int, int] | None:
        """Mean, median, minimum and maximum hands per finished game."""
        if not self.lengths:
            return None
        values = sorted(self.lengths.elements())
        return statistics.fmean(values), statistics.median(values), values[0], values[-1]

    def as_dict(self) -> dict[str, Any]:
        """The key numbers, JSON-ready."""

        def rates(t: Tally) -> dict[str, Any]:
            return {"played": t.played, "made": t.made, "make_rate": _round(t.rate), "ci95": t.ci}

        quantiles = self.length_quantiles()
        return {
            "files": self.files,
            "rulesets": {name: sorted(hashes) for name, hashes in self.rulesets.items()},
            "seeds": list(self.seeds),
            "players": dict(self.lineups),
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.unfinished,
            "deals": self.deals,
            "hands_played": self.hands_played,
            "passed_out": self.passed_out,
            "misdeals": self.misdeals,
            "hands_per_game": None if quantiles is None else dict(
                zip(("mean", "median", "min", "max"), (round(quantiles[0], 2), *quantiles[1:]), strict=True)),
            "contracts": rates(self.made()),
            "contracts_by_call": {c.call: rates(self.by_call[c.call]) for c in self.ladder()},
            "misere": rates(self.misere()),
            "wins": {team: self.wins.get(team, 0) for team in self.teams},
            "win_rate": {team: _round(self.win_rate(team).rate) for team in self.teams},
            "win_rate_ci95": {team: self.win_rate(team).ci for team in self.teams},
            "by_position": {position_label(o): rates(t) for o, t in sorted(self.positions.items(),
                                                                             key=lambda kv: _position_key(kv[0]))},
            "scores": {"winner_mean": self.winner_totals.mean, "loser_mean": self.loser_totals.mean},
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _position_key(offset: int) -> tuple[bool, int]:
    return offset == 0, offset


def _lineup(players: dict[str, Any]) -> str:
    names = [str(p) for p in players.values()]
    if len(set(names)) == 1:
        return f"{names[0]} ×{len(names)}"
    return ", ".join(f"{seat} {name}" for seat, name in players.items())


def _made(hand: dict[str, Any], info: CallInfo, contractor: str, rules: RulesInfo) -> bool:
    """For an older record (no ``outcome``): made by the contract's own test on the contracting
    side's tricks (a slam or declaration: every trick); a call the ladder lacks, by the score."""
    won: dict[str, int] = hand["tricks_won"]
    if info.contract is None:
        return won[contractor] == 0 if info.kind == "misere" else hand["scores"][rules.team_of[contractor]] > 0
    side = sum(won[s] for s in _side(hand, contractor, rules))
    if hand.get("declaration") in ("slam", "declare"):
        return side == sum(won.values())
    return info.contract.made(side)


def _side(hand: dict[str, Any], contractor: str, rules: RulesInfo) -> set[str]:
    """For an older record (no ``outcome``): the contractor's team, and a partner found by a
    called card (P5)."""
    side = set(rules.team_seats[rules.team_of[contractor]])
    called = hand.get("partner_call")
    if called and called != "alone":
        side |= {seat for seat, cards in hand["hands"].items() if called in cards}
    return side


# --- reading ---------------------------------------------------------------------------------


def read_records(paths: Iterable[str | Path]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(``file:line``, record) for every record, one line at a time; ``RecordError`` names a bad line."""
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise RecordError(f"{path}: no such file")
        for source, record, problem in read_record_file(path):  # checked against the record schema
            if record is None:
                raise RecordError(f"{source}: {problem} (fivehundred validate checks every record)")
            yield source, record


class _Rulesets:
    """The ruleset of each record: a given one, the one it carries or the shipped one of its name
    (``RecordRulesets``), each compiled once."""

    def __init__(self, given: list[Ruleset]):
        self.rulesets = RecordRulesets(given)
        self.known: dict[str, RulesInfo] = {}

    def __call__(self, record: dict[str, Any], source: str) -> RulesInfo:
        try:
            ruleset = self.rulesets(record)
        except RecordRulesetError as e:
            raise RecordError(f"{source}: {e}") from None
        if ruleset.content_hash not in self.known:
            self.known[ruleset.content_hash] = RulesInfo.of(ruleset)
        return self.known[ruleset.content_hash]


def collect(paths: Iterable[str | Path], *, ruleset: RulesetRefs = None, sample: int = SAMPLE) -> BatchStats:
    """Fold every record of ``paths`` (JSON Lines, or one record per ``.json`` file) into ``BatchStats``
    (the records of several rulesets pooled: ``collect_by_ruleset`` keeps them apart); ``ruleset``: rulesets
    given for the records of their names (a lone one for every record)."""
    pooled = BatchStats(sample_size=sample)
    _fold(paths, ruleset, lambda name: pooled)
    return pooled


def collect_by_ruleset(paths: Iterable[str | Path], *, ruleset: RulesetRefs = None,
                       sample: int = SAMPLE) -> dict[str, BatchStats]:
    """``collect``, one ``BatchStats`` per ruleset the records name, in the order first read: the records
    of different rulesets are never pooled.  Each one's ``files`` are those that hold its records."""
    groups: dict[str, BatchStats] = {}
    _fold(paths, ruleset, lambda name: groups.setdefault(name, BatchStats(sample_size=sample)))
    return groups


def _fold(paths: Iterable[str | Path], ruleset: RulesetRefs, stats_for: Callable[[str], BatchStats]) -> None:
    """Fold each record into ``stats_for(the ruleset name it records)``."""
    rulesets = _Rulesets(load_rulesets(ruleset))
    files = [Path(p) for p in paths]
    for path in files:  # before a long read of the files that are there
        try:
            check_regular(path)  # a folder, a device: said as such
        except InputError as e:
            raise RecordError(str(e)) from None
    touched: dict[int, BatchStats] = {}
    for path in files:
        for source, record in read_records([path]):
            rules = rulesets(record, source)
            stats = stats_for(str(record["ruleset"].get("name")))
            touched[id(stats)] = stats
            if str(path) not in stats.files:
                stats.files.append(str(path))
            try:
                stats.add(record, rules, source)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
                raise RecordError(f"{source}: not a valid game record for {rules.name}: "
                                  f"{type(e).__name__}: {e}") from None
    if not touched:
        raise RecordError(f"no game records in {', '.join(str(p) for p in files)}")


# --- the report ------------------------------------------------------------------------------
