"""Columnar results: one row per deal, with the fields an analyst filters on.

``hand_rows(state, seed=…, game=…)`` turns a finished game into plain tuples, one per deal (a
passed-out or thrown-in deal gets a row too, with a null contract), in the order of
``column_names(rules)``.  The rows need no optional dependency; ``fivehundred.records.parquet`` writes them.

The columns (``COLUMNS`` below, then one column per seat and two per team, named after them):

========================  =======  ==========================================================
column                    type     meaning
========================  =======  ==========================================================
ruleset                   string   ruleset name
ruleset_hash              string   ruleset content hash (``fivehundred rules show NAME --json``)
seed                      int64    batch seed (string when the batch seed is a string)
game                      int64    game index in the batch
hand                      int32    deal number in the game, from 1
dealer                    string   the dealer's seat
misdeal                   bool     the deal was thrown in (D4) and dealt again
passed_out                bool     everybody passed: no hand was played on this deal
contract                  string   the winning call as in the records (``7H``, ``8NT``, ``misere``,
                                   ``open-misere``; ``no-bid`` for B10's hand at no-trumps), or null
contract_kind             string   ``trumps``, ``no-trumps`` or ``misere``, or null
trump                     string   trump suit letter (``S C D H``), null for no-trumps and misère
contract_value            int32    the contract's value on the ladder, or null
contractor                string   the contractor's seat, or null
contractor_team           string   the contractor's team, or null
side_tricks               int32    tricks won by the contracting side (with a called partner: both)
made                      bool     the contract was made (null when there is no contractor)
tricks_<seat>             int32    tricks won by each seat (null when no hand was played)
score_<team>              int32    each team's score for the hand (null when no hand was played)
total_<team>              int32    each team's running total after the deal
game_winner               string   the team that won the game (null if abandoned at the deal limit)
last_hand                 bool     this is the game's last deal
========================  =======  ==========================================================
"""

from __future__ import annotations

from typing import Any

from fivehundred.engine.state import GameState, HandLog
from fivehundred.rules.cards import SUIT_LETTERS
from fivehundred.rules.manager import Rules

FORMAT = "fivehundred-hands/1"
"""Written in the Parquet file's metadata under ``fivehundred.format``."""

Row = tuple[Any, ...]

COLUMNS: tuple[tuple[str, str], ...] = (
    ("ruleset", "string"),
    ("ruleset_hash", "string"),
    ("seed", "int64"),
    ("game", "int64"),
    ("hand", "int32"),
    ("dealer", "string"),
    ("misdeal", "bool"),
    ("passed_out", "bool"),
    ("contract", "string"),
    ("contract_kind", "string"),
    ("trump", "string"),
    ("contract_value", "int32"),
    ("contractor", "string"),
    ("contractor_team", "string"),
    ("side_tricks", "int32"),
    ("made", "bool"),
)
"""The fixed leading columns as (name, Arrow type); per-seat and per-team columns follow them."""

TRAILING: tuple[tuple[str, str], ...] = (("game_winner", "string"), ("last_hand", "bool"))
"""The columns after the per-seat and per-team ones."""


def column_types(rules: Rules, seed: int | str = 0) -> list[tuple[str, str]]:
    """Every column of a ruleset's rows as (name, Arrow type), in row order."""
    fixed = [(name, "string" if name == "seed" and isinstance(seed, str) else kind) for name, kind in COLUMNS]
    return (fixed + [(f"tricks_{seat}", "int32") for seat in rules.seats]
            + [(f"score_{team}", "int32") for team in rules.team_names]
            + [(f"total_{team}", "int32") for team in rules.team_names] + list(TRAILING))


def column_names(rules: Rules, seed: int | str = 0) -> list[str]:
    return [name for name, _ in column_types(rules, seed)]


def contracting_side(rules: Rules, log: HandLog) -> tuple[int, ...]:
    """The seats of the contracting side of a hand as the engine scored it (``HandOutcome.side``: the
    contractor's team, or with a called partner, P5, the contractor and the partner); () for a hand
    not scored or without a contractor."""
    outcome = log.outcome
    return outcome.side if outcome is not None else ()


def hand_made(rules: Rules, log: HandLog) -> bool | None:
    """Whether the hand's contract was made, as scored; None without a contractor or before scoring."""
    outcome = log.outcome
    return outcome.made if outcome is not None and outcome.contractor >= 0 else None


def hand_rows(state: GameState, *, seed: int | str, game: int) -> list[Row]:
    """One row per deal of a game, in the order of ``column_names(state.rules, seed)``."""
    rules = state.rules
    seats, teams, team_of = rules.seats, rules.team_names, rules.team_of
    head = (rules.ruleset.name, rules.ruleset.content_hash, seed, game)
    winner = teams[state.result.winner] if state.result is not None else None
    no_seats, no_teams = (None,) * len(seats), (None,) * len(teams)
    totals: tuple[int, ...] = (0,) * len(teams)
    last = len(state.hands_log) - 1
    rows = []
    for i, log in enumerate(state.hands_log):
        c = log.contract
        played = c is not None and bool(log.scores)
        if played:
            totals = tuple(log.totals)
        contract: Row = (None,) * 8
        if c is not None:
            who = log.contractor
            outcome = log.outcome
            contract = (c.call, c.kind,
                        SUIT_LETTERS[c.trump] if c.trump is not None and c.trump < 4 else None, c.value,
                        seats[who] if who >= 0 else None, teams[team_of[who]] if who >= 0 else None,
                        outcome.side_tricks if outcome is not None and who >= 0 else None,
                        hand_made(rules, log))
        rows.append(head + (log.number, seats[log.dealer], log.misdeal, c is None and not log.misdeal)
                    + contract
                    + (tuple(log.tricks_won) if played else no_seats)
                    + (tuple(log.scores) if played else no_teams)
                    + totals + (winner, i == last))
    return rows
