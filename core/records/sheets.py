"""Score sheets: a game written down a hand a line, scored under a ruleset (``fivehundred score``).

Most real games are not recorded card by card: the table writes who contracted, for what, and how
many tricks that side took.  ``score_sheet`` reads such a sheet (CSV with a header line, or YAML: a
list of hands, or a mapping with ``hands`` and optionally ``start``) and scores it with the
ruleset's own scoring and game-end hooks — the ones the engine calls after every hand — so a house
rule's plugin scores a sheet exactly as it scores a played game.

A line has ``contractor`` (a seat), ``contract`` (a call on the ladder, or ``pass`` for a deal
everybody passed), ``tricks`` (the contracting side's), optionally ``hand`` (its number),
``dealer``, and the totals the table wrote, one column per team (``NS``, ``EW``).  Where the
ruleset needs more, the sheet says more:

- ``tricks_<team>`` (``tricks_A`` …): each side's tricks, needed when more than one side defends
  (three sides, five or six players each alone: rule 26 scores each defending side's own tricks),
  for a passed-out deal that is played at no-trumps (B10), and for a lost misère that stopped at the
  contractor's first trick where the defenders score the tricks they took (rule 27: the side's one
  trick does not say how many they took before it); optional otherwise;
- ``partner`` (called-partner rulesets, P5): the seat that held the called card, or ``alone``;
- ``claim`` (rulesets with claims, L2): ``failed`` when the contractor's claim was not upheld;
- a column for each step of the hand whose doings the scores read (``Step.scored``, ``Step.sheet_column``):
  ``breach`` (R2), the defender who called breach; ``declaration`` (C6/C7), ``slam`` or ``declare``.

A sheet may start where a real game stands: its first line may be ``start`` in the ``contract``
column, with each team's total before the first hand in the team columns and, in ``hand``, that
hand's number (YAML: ``start: {number, totals}``, as a record's start).  The first hand's
``dealer`` is the first dealer.  Totals at which the game is already over are refused (``over_at_start``).

An impossible line is an error naming the file, the line, the field and the rule; written totals
that differ from the rules' are not an error but a finding: the first hand where they went wrong.
A ruleset whose scores depend on a step that names no column is refused, in one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from fivehundred.rules import rules_text as R
from fivehundred.rules.inputs import decimal_integer
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.tables import Contract, HandOutcome

from .record import over_at_start
from .sheet_reading import START, START_LINE, SheetError, _read

COLUMNS = ("hand", "dealer", "contractor", "contract", "tricks", "partner")
PASS = "pass"
TRICKS = "tricks_"
"""The prefix of a side's own tricks column: ``tricks_NS``, ``tricks_A``."""
ALONE = "alone"

NUMBERING = "score sheet: a line per deal, numbered in order from the first hand's number"
PARTNER = "P5: the contractor calls a card another player holds, or goes alone"
EACH_SIDE = "rule 26: each defending side scores the tricks it took itself"
PLAYED_OUT = "B10: a deal everybody passed is played at no-trumps, each side scoring its tricks"
MUST_BID = "B10: when the others pass the dealer must bid, so no deal is passed out"
MISERE_STOPS = "rule 27: the hand ends when the misère contractor wins a trick"

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
    partner: str | None = None
    """P5: the called partner's seat (None: alone, or no called partner in this ruleset)."""
    side_tricks: dict[str, int] | None = None
    """Each side's tricks, when the sheet gives them (``tricks_<team>``)."""

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "hand": self.number, "dealer": self.dealer, "contractor": self.contractor,
                "partner": self.partner, "contract": self.contract, "tricks": self.tricks,
                "tricks_by_side": self.side_tricks, "made": self.made, "scores": self.scores,
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
    """A scored sheet: where it starts, every hand, the final totals, the winner (None while the game goes on)."""

    source: str
    ruleset: str
    hands: list[SheetHand] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    reason: str | None = None
    wrong_totals: WrongTotals | None = None
    start: dict[str, Any] = field(default_factory=dict)
    """The first hand's number and each team's total before it (``{"number": 1, "totals": {...}}``)."""

    @property
    def ok(self) -> bool:
        """Whether the totals the table wrote (if any) are the rules'."""
        return self.wrong_totals is None

    def as_dict(self) -> dict[str, Any]:
        wrong = self.wrong_totals
        return {"source": self.source, "ruleset": self.ruleset, "start": self.start,
                "hands": [h.as_dict() for h in self.hands],
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
    happened, or for a ruleset whose scores a sheet cannot say.  Written totals are checked:
    ``SheetScore.wrong_totals`` names the first hand where they differ from the rules'.
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


# --- scoring -------------------------------------------------------------------------------------


class _Scorer:
    def __init__(self, rules: Rules, source: str):
        self.rules = rules
        self.source = source
        rs = rules.ruleset
        for step in rules.steps:
            if step.scored and not step.sheet_column:
                raise SheetError(f"{source}: ruleset {rs.name!r} cannot be scored from a sheet: its {step.name} step "
                                 f"changes the scores and no column of a sheet says what it did ({step.rule})")
        self.step_columns = {step.sheet_column: step for step in rules.steps if step.scored and step.sheet_column}
        """The columns of the steps whose doings the scores read (R2: ``breach``)."""
        self.called = rs.players.partnership == "called-card"
        self.trick_columns = {f"{TRICKS}{name}": team for team, name in enumerate(rules.team_names)}
        self.known = {*COLUMNS, *rules.team_names, *self.trick_columns, *self.step_columns}
        if not self.called:
            self.known.discard("partner")
        self.line = 0

    def score(self, rows: list[tuple[int, dict[str, Any]]]) -> SheetScore:
        rules = self.rules
        result = SheetScore(self.source, rules.ruleset.name)
        totals, first = [0] * len(rules.team_names), None
        if rows and _call(rows[0][1]) == START:
            self.line = rows[0][0]
            totals, first = self.start(rows[0][1])
            rows = rows[1:]
        start = dict(zip(rules.team_names, totals, strict=True))
        number = None if first is None else first - 1
        dealer: int | None = None
        redealt = False
        over = None
        for line, row in rows:
            self.line = line
            unknown = sorted(set(row) - self.known)
            if unknown:
                self.fail(unknown[0], f"unknown column{self.columns_known()}")
            if _call(row) == START:
                self.fail("contract", "'start' is the sheet's first line only", START_LINE)
            if over is not None:
                self.fail("contract", f"a hand after the game was over: {over}", R.GAME_END)
            number = self.number(row, number)
            dealer = self.dealer(row, dealer, redealt)
            outcome = self.hand(row, tuple(totals))
            redealt = outcome is None
            scores, made = [0] * len(totals), None  # rule 13: a deal everybody passed scores nothing
            if outcome is not None:
                scores = list(rules.score_hand(outcome))
                made = outcome.made if outcome.contractor >= 0 else None
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
                ended = rules.game_result(tuple(totals), outcome)
                if ended is not None:
                    over = ended.reason
                    result.winner, result.reason = rules.team_names[ended.winner], ended.reason
            by_team = dict(zip(rules.team_names, totals, strict=True))
            written = self.written(row)
            if written is not None and written != by_team and result.wrong_totals is None:
                result.wrong_totals = WrongTotals(self.source, line, number, written, by_team)
            result.hands.append(self.scored(row, number, dealer, outcome, made, scores, by_team, written))
        result.totals = dict(zip(rules.team_names, totals, strict=True))
        result.start = {"number": result.hands[0].number if result.hands else first or 1, "totals": start}
        return result

    def scored(self, row: Mapping[str, Any], number: int, dealer: int | None, outcome: HandOutcome | None,
               made: bool | None, scores: list[int], totals: dict[str, int],
               written: dict[str, int] | None) -> SheetHand:
        rules = self.rules
        seats, teams = rules.seats, rules.team_names
        contractor = None if outcome is None or outcome.contractor < 0 else outcome.contractor
        partner = next((s for s in outcome.side if s != contractor), None) if outcome and self.called else None
        given = self.side_tricks(row)
        return SheetHand(
            self.line, number, None if dealer is None else seats[dealer],
            None if contractor is None else seats[contractor], str(row.get("contract", "")),
            None if contractor is None or outcome is None else outcome.side_tricks, made,
            dict(zip(teams, scores, strict=True)), totals, written,
            None if partner is None else seats[partner],
            None if given is None else dict(zip(teams, given, strict=True)))

    def fail(self, column: str, message: str, rule: str | None = None) -> NoReturn:
        raise SheetError(f"{self.source}:{self.line}: {column}: {message}" + (f" ({rule})" if rule else ""))

    def columns_known(self) -> str:
        return f" (columns: {', '.join(sorted(self.known))})"

    # --- where the sheet starts ------------------------------------------------------------------

    def start(self, row: Mapping[str, Any]) -> tuple[list[int], int | None]:
        """The start line: each team's total before the first hand, and optionally that hand's number."""
        teams = self.rules.team_names
        unknown = sorted(set(row) - self.known)
        if unknown:
            self.fail(unknown[0], f"unknown column{self.columns_known()}")
        extra = sorted(set(row) - {"contract", "hand", *teams})
        if extra:
            self.fail(extra[0], f"a start line gives only the totals ({', '.join(teams)}) and the first hand's "
                      "number (hand)", START_LINE)
        totals = self.written(row)
        if totals is None:
            self.fail(teams[0], f"missing: the start line gives each team's total ({', '.join(teams)})", START_LINE)
        number = self.hand_number(row) if "hand" in row else None
        over = over_at_start(self.rules, [totals[team] for team in teams])
        if over is not None:
            self.fail(START, f"the game is already over at {_teams(totals)}: {over.reason}", R.GAME_OVER_AT_START)
        return [totals[team] for team in teams], number

    def number(self, row: Mapping[str, Any], before: int | None) -> int:
        """A line per deal: the first hand's number is written (or the start's, or 1), then one more each line."""
        expected = 1 if before is None else before + 1
        if "hand" not in row:
            return expected
        number = self.hand_number(row)
        if before is not None and number != expected:
            self.fail("hand", f"hand {number}, but this line is hand {expected}", NUMBERING)
        return number

    def hand_number(self, row: Mapping[str, Any]) -> int:
        value = row["hand"]
        try:
            number = decimal_integer(value)
        except ValueError:
            number = 0
        if number < 1:
            self.fail("hand", f"{value!r} is not a hand number (1 or more)", NUMBERING)
        return number

    # --- one hand --------------------------------------------------------------------------------

    def seat(self, row: Mapping[str, Any], column: str) -> int | None:
        name = row.get(column)
        if name is None:
            return None
        if str(name) not in self.rules.seats:
            self.fail(column, f"{name!r} is not a seat ({' '.join(self.rules.seats)})", "rule 1: the seats")
        return self.rules.seats.index(str(name))

    def dealer(self, row: Mapping[str, Any], before: int | None, redealt: bool) -> int | None:
        """Rule 7: the deal passes to the left after every deal (a redeal keeps the dealer, B10)."""
        rules = self.rules
        dealer = self.seat(row, "dealer")
        expected = None if before is None else rules.next_seat[before]
        if dealer is None:
            return expected
        allowed = {expected, before} if redealt and rules.auction.all_passed.redeals else {expected}
        if before is not None and dealer not in allowed:
            self.fail("dealer", f"{rules.seats[dealer]} deals but the deal passes to {rules.seats[expected or 0]}",
                      R.DEALER)
        return dealer

    def hand(self, row: Mapping[str, Any], totals: tuple[int, ...]) -> HandOutcome | None:
        """The hand as the scoring hooks see it, or None for a deal everybody passed that is not played."""
        rules = self.rules
        call = _call(row)
        if not call:
            self.fail("contract", f"missing: a call ({rules.ladder[0].call} … {rules.ladder[-1].call}) or 'pass'",
                      R.NOT_ON_LADDER)
        if call == PASS:
            return self.passed(row, totals)
        try:
            contract = rules.ladder[rules.parse_call(str(row["contract"]).strip())]
        except ValueError as e:
            self.fail("contract", str(e), R.NOT_ON_LADDER)
        contractor = self.seat(row, "contractor")
        if contractor is None:
            self.fail("contractor", f"missing: who contracted {contract.call}", R.CONTRACT)
        if contractor in rules.dummies:
            self.fail("contractor", f"{rules.seats[contractor]} is a dummy and does not call", "P2: a dummy hand")
        if contract.signal:
            self.fail("contract", f"{contract.call} is a signal, never a contract",
                      "B7: an inkle cannot become the contract")
        side = self.side(row, contractor)
        steps, contract = self.steps(row, contract, contractor, side)
        stops = contract.kind == "misere" and not rules.misere_played_out and not any(
            step.plays_every_trick(data, contract)
            for step in self.step_columns.values() if (data := steps.get(step.name)) is not None)
        by_seat = self.tricks_by_seat(row, contract, contractor, side, stops)
        by_team = [0] * len(rules.team_names)
        for seat, won in enumerate(by_seat):
            by_team[rules.team_of[seat]] += won
        side_tricks = sum(by_seat[s] for s in side)
        outcome = HandOutcome(contract, contractor, rules.team_of[contractor], tuple(by_seat), tuple(by_team),
                              contract.made(side_tricks), sum(by_seat), rules.hand_size, side, totals, steps)
        if stops and side_tricks and self.side_tricks(row) is None:
            self.defence_told(outcome)
        return outcome

    def defence_told(self, outcome: HandOutcome) -> None:
        """A lost misère that stops at the contractor's first trick (rule 27), written with the side's
        ``tricks`` only, does not say how many tricks the defenders took before it: where the scores
        depend on them (``defender_points_in_misere``, or a plugin's scoring) the line must give each
        side's tricks.  Whether they do is asked of the scoring itself: with the defenders' tricks at
        the most (every other trick) and at none."""
        rules = self.rules
        none = tuple(won if seat in outcome.side else 0 for seat, won in enumerate(outcome.tricks_by_seat))
        by_team = [0] * len(rules.team_names)
        for seat, won in enumerate(none):
            by_team[rules.team_of[seat]] += won
        fewest = HandOutcome(outcome.contract, outcome.contractor, outcome.contractor_team, none, tuple(by_team),
                             outcome.made, sum(none), outcome.hand_size, outcome.side, outcome.totals_before,
                             outcome.steps)
        if rules.score_hand(fewest) != rules.score_hand(outcome):
            side = {rules.team_of[s] for s in outcome.side}
            defending = next(t for t in range(len(rules.team_names)) if t not in side)
            self.fail(f"{TRICKS}{rules.team_names[defending]}",
                      f"missing: {outcome.contract.call} lost at the contractor's first trick, and the defenders "
                      "score the tricks they took before it: the sheet gives each side's tricks "
                      f"({', '.join(self.trick_columns)})", MISERE_STOPS)

    def steps(self, row: Mapping[str, Any], contract: Contract, contractor: int,
              side: tuple[int, ...]) -> tuple[dict[str, Any], Contract]:
        """What the scored steps did, as the sheet says it (``HandOutcome.steps``), in the hand's order, and
        the contract they leave (C6/C7: a slam call or a declaration changes it)."""
        done = {}
        for column, step in self.step_columns.items():
            text = str(row.get(column, "")).strip()
            if text:
                try:
                    done[step.name] = step.from_sheet(text, self.rules, contract, contractor, side)
                except ValueError as e:
                    self.fail(column, str(e), step.rule)
                contract = step.sheet_contract(done[step.name], contract, self.rules)
        return done, contract

    def passed(self, row: Mapping[str, Any], totals: tuple[int, ...]) -> HandOutcome | None:
        """Rule 13 (nothing scored), or B10: the deal is played at no-trumps, each side scoring its tricks."""
        rules = self.rules
        for column in ("contractor", "tricks", "partner", *self.step_columns):
            if column in row:
                self.fail(column, "a deal everybody passed has no contractor, partner, claim, contract tricks or "
                          "step", R.PASSED_OUT)
        if rules.auction.dealer_must_bid:
            self.fail("contract", "no deal is passed out in this ruleset", MUST_BID)
        given = self.side_tricks(row)
        played_as = rules.auction.all_passed.played_as
        if played_as is None:
            if given is not None:
                self.fail(next(iter(self.trick_columns)), "a deal everybody passed is not played", R.PASSED_OUT)
            return None
        if given is None:
            self.fail(next(iter(self.trick_columns)), "missing: the deal everybody passed is played, so the sheet "
                      f"gives each side's tricks ({', '.join(self.trick_columns)})", PLAYED_OUT)
        self.adds_up(given, rules.hand_size)
        by_seat = self.on_seats(given, ())
        return HandOutcome(played_as, -1, -1, tuple(by_seat), tuple(given), False, sum(by_seat), rules.hand_size, (),
                           totals)

    def side(self, row: Mapping[str, Any], contractor: int) -> tuple[int, ...]:
        """The contracting side: the contractor's team, or (P5) the contractor and the called partner."""
        rules = self.rules
        if not self.called:
            return rules.in_order(rules.team_seats[contractor])
        if str(row.get("partner", ALONE)).strip().lower() == ALONE:
            return (contractor,)
        partner = self.seat(row, "partner")
        assert partner is not None
        if partner == contractor and not rules.ruleset.players.call_own_card:
            self.fail("partner", f"{rules.seats[partner]} is the contractor: a partner is another seat, or "
                      f"'{ALONE}'", PARTNER)
        return rules.in_order(frozenset({contractor, partner}))

    def tricks_by_seat(self, row: Mapping[str, Any], contract: Contract, contractor: int, side: tuple[int, ...],
                       lost_misere: bool) -> list[int]:
        """Each seat's tricks as the scoring reads them: the side's on the contractor's seat (a called
        partner's team's on the partner), each defending side's on its first seat.  ``lost_misere``: a
        misère the hand stops at when the contractor wins a trick (rule 27)."""
        rules = self.rules
        tricks, given = self.tricks(row), self.side_tricks(row)
        side_teams = {rules.team_of[s] for s in side}
        defending = [t for t in range(len(rules.team_names)) if t not in side_teams]
        if given is None:
            if tricks is None:
                self.fail("tricks", "missing: the tricks the contracting side took", "rule 17")
            if len(defending) > 1:
                self.fail(f"{TRICKS}{rules.team_names[defending[0]]}", "missing: more than one side defends, so the "
                          f"sheet gives each side's tricks ({', '.join(self.trick_columns)})", EACH_SIDE)
            given = [0] * len(rules.team_names)
            given[rules.team_of[contractor]] = tricks
            if defending:
                given[defending[0]] = rules.hand_size - tricks
        else:
            taken = sum(given[t] for t in side_teams)
            if tricks is not None and tricks != taken:
                self.fail("tricks", f"{tricks} tricks, but the contracting side's own columns give {taken}", "rule 17")
            tricks = taken
            self.adds_up(given, rules.hand_size, lost_misere and tricks > 0)
        if lost_misere and tricks > 1:
            self.fail("tricks", f"{tricks} tricks in {contract.call}: the hand stops at the contractor's first "
                      "trick, so a lost misère has 1", MISERE_STOPS)
        return self.on_seats(given, side)

    def on_seats(self, by_team: Sequence[int], side: tuple[int, ...]) -> list[int]:
        """Each team's tricks on one of its seats: on the side's seats first, else on the team's first seat."""
        rules = self.rules
        by_seat = [0] * rules.players
        for team, won in enumerate(by_team):
            seats = [s for s in side if rules.team_of[s] == team] or rules.in_order(
                frozenset(s for s in range(rules.players) if rules.team_of[s] == team))
            by_seat[seats[0]] = won
        return by_seat

    def adds_up(self, by_team: Sequence[int], hand_size: int, stopped: bool = False) -> None:
        """Rule 17: every trick of a hand is taken by one side (a lost misère stops early, rule 27)."""
        total = sum(by_team)
        if total > hand_size or (total < hand_size and not stopped):
            self.fail(next(iter(self.trick_columns)), f"the sides' tricks add up to {total}, but a hand has "
                      f"{hand_size}", f"rule 17: {hand_size} tricks are played")

    def tricks(self, row: Mapping[str, Any], column: str = "tricks") -> int | None:
        value = row.get(column)
        if value is None:
            return None
        try:
            tricks = decimal_integer(value)
        except ValueError:
            self.fail(column, f"{value!r} is not a number of tricks")
        if not 0 <= tricks <= self.rules.hand_size:
            self.fail(column, f"{tricks} tricks, but a hand has {self.rules.hand_size}",
                      f"rule 17: {self.rules.hand_size} tricks are played")
        return tricks

    def side_tricks(self, row: Mapping[str, Any]) -> list[int] | None:
        """``tricks_<team>``: every side's tricks, or None when the line gives none."""
        columns = self.trick_columns
        given = [c for c in columns if c in row]
        if not given:
            return None
        if len(given) != len(columns):
            self.fail(next(c for c in columns if c not in row), "the sheet writes the tricks of every side or none")
        return [self.tricks(row, c) or 0 for c in columns]

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
                out[team] = decimal_integer(row[team])
            except ValueError:
                self.fail(team, f"{row[team]!r} is not a total")
        return out


def _call(row: Mapping[str, Any]) -> str:
    """The contract column, as written, lower case: ``pass`` and ``start`` are words, not calls."""
    return str(row.get("contract", "")).strip().lower()
