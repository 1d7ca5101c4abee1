"""Game records: a documented JSON form of one game; a batch is JSON Lines.

A record holds everything needed to replay and check the game under its ruleset: the hands as
dealt, every call, discard, nomination and card, and the scores after each hand.  The JSON Schema
ships as ``fivehundred/schemas/record.schema.json`` (``record_schema()``).

A record may start where a real game stands (a disputed hand at 310–450): its optional ``start``
gives the number of its first hand and each team's total before it; the first hand's dealer is the
first dealer.  Without ``start`` a record starts the game: hand 1, every total 0.  A start where the
game is already over (``over_at_start``) is invalid.

A scored hand also states its ``outcome`` as the engine scored it (the contract's ``kind``, the
contracting ``side``, ``made``), so that readers need not work it out.  It is an optional addition
to format 1: records written before it lack it, and readers fall back to the ruleset's ladder.

A record of a ruleset that is not bundled carries it, resolved, in ``ruleset.content`` (``rulesets``), so that
it is read with no ruleset file; another optional addition to format 1.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from fivehundred.engine.state import GameState, HandLog, Trick
from fivehundred.rules.cards import SUIT_LETTERS, card_str
from fivehundred.rules.tables import GameResult, HandOutcome

from .rulesets import ruleset_header

if TYPE_CHECKING:
    from fivehundred.rules.manager import Rules

FORMAT = "fivehundred-record/1"


def _cards(cards: list[int]) -> list[str]:
    return [card_str(c) for c in cards]


def hand_to_dict(state: GameState, log: HandLog) -> dict[str, Any]:
    rules = state.rules
    seats, teams = rules.seats, rules.team_names
    contract = None
    if log.contract is not None:
        contract = {"call": log.contract.call,
                    "contractor": seats[log.contractor] if log.contractor >= 0 else None,
                    "value": log.contract.value}
    return {
        "number": log.number,
        "dealer": seats[log.dealer],
        "hands": {seats[s]: _cards(h) for s, h in enumerate(log.hands)},
        "kitty": _cards(log.kitty),
        "calls": [{"seat": seats[s], "call": rules.call_text(c)} for s, c in log.calls],
        "contract": contract,
        "discards": _cards(log.discards),
        "nomination": None if log.nomination is None else SUIT_LETTERS[log.nomination],
        "tricks": [
            {
                "leader": seats[t.leader],
                "cards": [_played(t, i, c) for i, c in enumerate(t.cards)],
                "winner": seats[t.winner],
            }
            for t in log.tricks
        ],
        **_variant_fields(state, log),
        **_outcome(state, log),
        "tricks_won": {seats[s]: n for s, n in enumerate(log.tricks_won)},
        "scores": {teams[t]: p for t, p in enumerate(log.scores)},
        "totals": {teams[t]: p for t, p in enumerate(log.totals)},
    }


def _played(trick: Trick, position: int, card: int) -> str:
    """A card as played: a joker played with a named suit carries it (``JK:H``)."""
    named = trick.named if position == 0 else (trick.follow_names or {}).get(card)
    return card_str(card) + (f":{SUIT_LETTERS[named]}" if named is not None else "")


def _outcome(state: GameState, log: HandLog) -> dict[str, Any]:
    """The hand as the engine scored it, once it is: the contract's kind, the contracting side, made
    (null when nobody contracted, B10)."""
    outcome = log.outcome
    if outcome is None:
        return {}
    seats = state.rules.seats
    return {"outcome": {"kind": outcome.kind, "side": [seats[s] for s in outcome.side],
                        "made": outcome.made if outcome.contractor >= 0 else None}}


def _variant_fields(state: GameState, log: HandLog) -> dict[str, Any]:
    """Fields only some rulesets produce; absent from a hand that does not use them."""
    out: dict[str, Any] = {}
    if log.dead:
        out["dead"] = _cards(log.dead)
    if log.misdeal:
        out["misdeal"] = True
    for step in state.rules.steps:  # each of the plugins' steps writes its own fields
        out.update(step.write(state, log))
    return out


def game_to_dict(state: GameState, *, seed: int | str | None = None, game: int | None = None,
                 players: list[str] | None = None) -> dict[str, Any]:
    """The record of a game (finished or not) as plain JSON-ready data."""
    rules = state.rules
    result = None
    if state.result is not None:
        result = {
            "winner": rules.team_names[state.result.winner],
            "reason": state.result.reason,
            "totals": dict(zip(rules.team_names, state.totals, strict=True)),
        }
    return {
        "format": FORMAT,
        "ruleset": ruleset_header(rules.ruleset),
        "seed": seed,
        "game": game,
        "players": dict(zip(rules.seats, players, strict=True)) if players else None,
        **_start(state),
        "deals": state.deals,
        "hands": [hand_to_dict(state, log) for log in state.hands_log],
        "result": result,
    }


def _start(state: GameState) -> dict[str, Any]:
    """Where the game stood before its first recorded hand (``GameState.start_at``); nothing for a
    game played from its start."""
    logs = state.hands_log
    number = logs[0].number if logs else state.deals + 1
    scored = next((log for log in logs if log.totals), None)
    totals = state.totals if scored is None else [t - p for t, p in zip(scored.totals, scored.scores, strict=True)]
    if number == 1 and not any(totals):
        return {}
    return {"start": {"number": number, "totals": dict(zip(state.rules.team_names, totals, strict=True))}}


def over_at_start(rules: Rules, totals: Sequence[int]) -> GameResult | None:
    """How a game that stands at ``totals`` is already over under ``rules``, or None: a start (of a record or a
    score sheet) cannot be there.  The ruleset's own game-end hooks judge, as after a hand nobody made, so that
    the totals alone decide: a side at or below the swamp (rule 29), past the bust (E5), or at the target where
    any points win (E1); under rule 30 a side that reached the target on defence points plays on."""
    teams = len(rules.team_names)
    nobody = HandOutcome(rules.ladder[0], 0, rules.team_of[0], (0,) * rules.players, (0,) * teams, False, 0,
                         rules.hand_size, (0,), tuple(totals))
    return rules.game_result(tuple(totals), nobody)


def dumps(record: dict[str, Any]) -> str:
    """One record as a single JSON line."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a game record."""
    text = (resources.files("fivehundred.records.schemas") / "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
