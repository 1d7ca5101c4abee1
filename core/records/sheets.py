"""Score sheets: a game written down a hand a line, scored under a ruleset (``fivehundred score``).

Most real games are not recorded card by card: the table writes who contracted, for what, and how
many tricks that side took.  ``score_sheet`` reads such a sheet (CSV with a header line, or YAML: a
list of hands, or a mapping with ``hands``) and scores it with the ruleset's own scoring and
game-end hooks — the ones the engine calls after every hand — so a house rule's plugin scores a
sheet exactly as it scores a played game.

A line has ``contractor`` (a seat), ``contract`` (a call on the ladder, or ``pass`` for a deal
everybody passed), ``tricks`` (the contracting side's), optionally ``dealer``, and optionally the
totals the table wrote, one column per team (``NS``, ``EW``).  An impossible line is an error naming
the file, the line, the field and the rule; written totals that differ from the rules' are not an
error but a finding: the first hand where they went wrong.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml

from fivehundred.rules import rules_text as R
from fivehundred.rules.errors import RecordError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.ruleset import Ruleset, load_ruleset
from fivehundred.rules.tables import Contract, HandOutcome

COLUMNS = ("contractor", "contract", "tricks", "dealer")
PASS = "pass"


class SheetError(RecordError):
    """A score sheet that cannot be read, or a line that cannot have happened under the ruleset."""


@dataclass(frozen=True)
class SheetHand:
    """One line of a sheet, scored: the hand as written and what the rules give for it."""

    line: int
    number: int
    dealer: str | None
    contractor: str | None
    contract: str
    tricks: int | None
    made: bool | None
    """Whether the contract was made; None for a deal everybody passed."""
    scores: dict[str, int]
    totals: dict[str, int]
    written: dict[str, int] | None
    """The totals the table wrote on this line, if any."""

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "hand": self.number, "dealer": self.dealer, "contractor": self.contractor,
                "contract": self.contract, "tricks": self.tricks, "made": self.made, "scores": self.scores,
                "totals": self.totals, "written_totals": self.written}


@dataclass(frozen=True)
class WrongTotals:
    """The first hand whose written totals differ from the rules'."""

    source: str
    line: int
    hand: int
    written: dict[str, int]
    expected: dict[str, int]

    def __str__(self) -> str:
        return (f"{self.source}:{self.line}: hand {self.hand}: the sheet says {_teams(self.written)} but the rules "
                f"give {_teams(self.expected)} ({R.SCORE})")


@dataclass
class SheetScore:
    """A scored sheet: every hand, the final totals, the winner (None while the game goes on)."""

    source: str
    ruleset: str
    hands: list[SheetHand] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    reason: str | None = None
    wrong_totals: WrongTotals | None = None

    @property
    def ok(self) -> bool:
        """Whether the totals the table wrote (if any) are the rules'."""
        return self.wrong_totals is None

    def as_dict(self) -> dict[str, Any]:
        wrong = self.wrong_totals
        return {"source": self.source, "ruleset": self.ruleset, "hands": [h.as_dict() for h in self.hands],
                "totals": self.totals, "winner": self.winner, "reason": self.reason,
                "totals_checked": any(h.written is not None for h in self.hands),
                "wrong_totals": None if wrong is None else {"line": wrong.line, "hand": wrong.hand,
                                                            "written": wrong.written, "expected": wrong.expected,
                                                            "rule": R.SCORE}}


def _teams(totals: Mapping[str, int]) -> str:
    return ", ".join(f"{team} {points}" for team, points in totals.items())


def score_sheet(sheet: str | Path | Sequence[Mapping[str, Any]], ruleset: Ruleset | str = "pagat-australian",
                *, source: str | None = None) -> SheetScore:
    """Score a sheet (a .csv or .yaml path, or rows as mappings) under ``ruleset``.

    Raises ``SheetError`` naming the file, line, field and rule for a line that cannot have
    happened.  Written totals are checked: ``SheetScore.wrong_totals`` names the first hand where
    they differ from the rules'.
    """
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if isinstance(sheet, (str, Path)):
        path = Path(sheet)
        rows = _read(path)
        source = source or str(path)
    else:
        rows = [(i, dict(row)) for i, row in enumerate(sheet, 1)]
        source = source or "sheet"
    return _Scorer(compile_rules(rs), source).score(rows)


# --- reading -------------------------------------------------------------------------------------


def _read(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SheetError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SheetError(f"{path}: cannot read: {e}") from None
    if path.suffix in (".yaml", ".yml"):
        return _read_yaml(path, text)
    return _read_csv(path, text)


def _read_csv(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[int, dict[str, Any]]] = []
    header: list[str] | None = None
    for cells in reader:
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip() for c in cells]
            continue
        if len(cells) > len(header):
            raise SheetError(f"{path}:{reader.line_num}: {len(cells)} cells but the header names {len(header)}")
        rows.append((reader.line_num, {k: v.strip() for k, v in zip(header, cells, strict=False) if v.strip()}))
    if header is None:
        raise SheetError(f"{path}:1: empty sheet: a header line ({', '.join(COLUMNS)}) and a line per hand")
    return rows


def _read_yaml(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise SheetError(f"{path}:{mark.line + 1 if mark else 1}: invalid YAML: {getattr(e, 'problem', e)}") from None
    if isinstance(node, yaml.MappingNode) and isinstance(data, dict):
        found = next(((v, data["hands"]) for k, v in node.value if k.value == "hands"), None)
        if found is None or set(data) != {"hands"}:
            raise SheetError(f"{path}:1: a YAML sheet is a list of hands, or a mapping with only 'hands'")
        node, data = found
    if not isinstance(node, yaml.SequenceNode) or not isinstance(data, list):
        raise SheetError(f"{path}:1: a YAML sheet is a list of hands, one mapping each")
    rows = []
    for item, row in zip(node.value, data, strict=True):
        line = item.start_mark.line + 1
        if not isinstance(row, dict):
            raise SheetError(f"{path}:{line}: a hand is a mapping (contractor, contract, tricks)")
        rows.append((line, {str(k): v for k, v in row.items() if v is not None}))
    return rows


# --- scoring -------------------------------------------------------------------------------------


class _Scorer:
    def __init__(self, rules: Rules, source: str):
        self.rules = rules
        self.source = source
        rs = rules.ruleset
        if rs.players.partnership != "fixed" or len(rules.team_names) != 2:
            raise SheetError(f"{source}: ruleset {rs.name!r} has {len(rules.team_names)} sides"
                             f"{' and called partners' if rs.players.partnership != 'fixed' else ''}: a score sheet "
                             "of contractor, contract and tricks says how many tricks each side took only when two "
                             "fixed sides play")
        if rules.all_pass == "no-trumps":
            raise SheetError(f"{source}: ruleset {rs.name!r} plays a passed-out deal at no-trumps (B10): a score "
                             "sheet has no column for each side's tricks in it")
        self.known = {*COLUMNS, *rules.team_names}

    def score(self, rows: list[tuple[int, dict[str, Any]]]) -> SheetScore:
        rules = self.rules
        result = SheetScore(self.source, rules.ruleset.name)
        totals = [0] * len(rules.team_names)
        dealer: int | None = None
        passed_before = False
        over = None
        for number, (line, row) in enumerate(rows, 1):
            self.line = line
            unknown = sorted(set(row) - self.known)
            if unknown:
                self.fail(unknown[0], f"unknown column (columns: {', '.join(sorted(self.known))})")
            if over is not None:
                self.fail("contract", f"a hand after the game was over: {over}", R.GAME_END)
            dealer = self.dealer(row, dealer, passed_before)
            contract, contractor, tricks = self.hand(row)
            passed_before = contract is None
            scores, made = [0] * len(totals), None  # rule 13: a deal everybody passed scores nothing
            if contract is not None and contractor is not None and tricks is not None:
                outcome = self.outcome(contract, contractor, tricks, totals)
                scores, made = list(rules.score_hand(outcome)), outcome.made
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
                ended = rules.game_result(tuple(totals), outcome)
                if ended is not None:
                    over = ended.reason
                    result.winner, result.reason = rules.team_names[ended.winner], ended.reason
            by_team = dict(zip(rules.team_names, totals, strict=True))
            written = self.written(row)
            if written is not None and written != by_team and result.wrong_totals is None:
                result.wrong_totals = WrongTotals(self.source, line, number, written, by_team)
            result.hands.append(SheetHand(
                line, number, None if dealer is None else rules.seats[dealer],
                None if contractor is None else rules.seats[contractor], row.get("contract", ""),
                tricks, made, dict(zip(rules.team_names, scores, strict=True)), by_team, written))
        result.totals = dict(zip(rules.team_names, totals, strict=True))
        return result

    def fail(self, column: str, message: str, rule: str | None = None) -> NoReturn:
        raise SheetError(f"{self.source}:{self.line}: {column}: {message}" + (f" ({rule})" if rule else ""))

    def seat(self, row: Mapping[str, Any], column: str) -> int | None:
        name = row.get(column)
        if name is None:
            return None
        if str(name) not in self.rules.seats:
            self.fail(column, f"{name!r} is not a seat ({' '.join(self.rules.seats)})", "rule 1: the seats")
        return self.rules.seats.index(str(name))

    def dealer(self, row: Mapping[str, Any], before: int | None, passed_before: bool) -> int | None:
        """Rule 7: the deal passes to the left after every deal (a redeal keeps the dealer, B10)."""
        rules = self.rules
        dealer = self.seat(row, "dealer")
        expected = None if before is None else rules.next_seat[before]
        if dealer is None:
            return expected
        allowed = {expected, before} if passed_before and rules.redeals else {expected}
        if before is not None and dealer not in allowed:
            self.fail("dealer", f"{rules.seats[dealer]} deals but the deal passes to {rules.seats[expected or 0]}",
                      R.DEALER)
        return dealer

    def hand(self, row: Mapping[str, Any]) -> tuple[Contract | None, int | None, int | None]:
        rules = self.rules
        call = str(row.get("contract", "")).strip()
        if not call:
            self.fail("contract", f"missing: a call ({rules.ladder[0].call} … {rules.ladder[-1].call}) or 'pass'",
                      R.NOT_ON_LADDER)
        contractor = self.seat(row, "contractor")
        tricks = self.tricks(row)
        if call.lower() == PASS:
            if contractor is not None or tricks:
                self.fail("contract", "a deal everybody passed has no contractor and no tricks", R.PASSED_OUT)
            return None, None, None
        try:
            contract = rules.ladder[rules.parse_call(call)]
        except ValueError as e:
            self.fail("contract", str(e), R.NOT_ON_LADDER)
        if contractor is None:
            self.fail("contractor", f"missing: who contracted {contract.call}", R.CONTRACT)
        if contractor in rules.dummies:
            self.fail("contractor", f"{rules.seats[contractor]} is a dummy and does not call", "P2: a dummy hand")
        if contract.signal:
            self.fail("contract", f"{contract.call} is a signal, never a contract",
                      "B7: an inkle cannot become the contract")
        if tricks is None:
            self.fail("tricks", "missing: the tricks the contracting side took", "rule 17")
        if contract.kind == "misere" and not rules.misere_played_out and tricks > 1:
            self.fail("tricks", f"{tricks} tricks in {contract.call}: the hand stops at the contractor's first "
                      "trick, so a lost misère has 1", "rule 27: the hand ends when the misère contractor wins a trick")
        return contract, contractor, tricks

    def tricks(self, row: Mapping[str, Any]) -> int | None:
        value = row.get("tricks")
        if value is None:
            return None
        try:
            tricks = int(str(value))
        except ValueError:
            self.fail("tricks", f"{value!r} is not a number of tricks")
        if not 0 <= tricks <= self.rules.hand_size:
            self.fail("tricks", f"{tricks} tricks, but a hand has {self.rules.hand_size}",
                      f"rule 17: {self.rules.hand_size} tricks are played")
        return tricks

    def written(self, row: Mapping[str, Any]) -> dict[str, int] | None:
        teams = self.rules.team_names
        given = [team for team in teams if team in row]
        if not given:
            return None
        if len(given) != len(teams):
            self.fail(next(t for t in teams if t not in row), "the sheet writes a total for every side or none")
        out = {}
        for team in teams:
            try:
                out[team] = int(str(row[team]))
            except ValueError:
                self.fail(team, f"{row[team]!r} is not a total")
        return out

    def outcome(self, contract: Contract, contractor: int, tricks: int, totals: list[int]) -> HandOutcome:
        """The hand as the scoring hooks see it: the side's tricks on the contractor's seat, the
        others' on the first seat of the other side (two fixed sides: rule 1)."""
        rules = self.rules
        side = rules.in_order(rules.team_seats[contractor])
        team = rules.team_of[contractor]
        defender = next(s for s in range(rules.players) if s not in side)
        by_seat = [0] * rules.players
        by_seat[contractor] = tricks
        by_seat[defender] = rules.hand_size - tricks
        by_team = [0] * len(rules.team_names)
        by_team[team], by_team[rules.team_of[defender]] = tricks, rules.hand_size - tricks
        return HandOutcome(contract, contractor, team, tuple(by_seat), tuple(by_team), contract.made(tricks),
                           rules.hand_size, rules.hand_size, side, tuple(totals))
