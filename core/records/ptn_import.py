"""Game records from PTN (Trickster Cards exports): ``import_ptn``.

Each PTN record is one hand.  Its options (``GameOptionsJson``, the ``Event`` summary) give the
ruleset (``fivehundred.records.trickster``); the hand is replayed through the engine call by call,
discard by discard and card by card, so every action is checked and the trick winners, which PTN
does not store, are worked out to put each trick's cards in playing order.  Consecutive hands that
follow on (the next dealer, the totals the last hand left) make one game.  The totals before a hand
are its ``GameScores`` less its own score (a hand cut short has none yet: its ``GameScores`` are
the totals at that moment).  A record cut short is imported up to where it stops, and the import
says where; the hand is then marked ``unfinished``.  A record cut short in its header has no hand
and is left out, with a note (a game record has a hand at least).

What PTN.md leaves open is never guessed silently: an option it does not document is refused
(``trickster.read_options``), and the two things the replay works out — Trickster's words for
misère in ``Auction`` (``ptn_replay.CALL_NAMES``), the suit a led joker names — are named in a note each time.

This project writes tags of its own, which other readers ignore: ``Ruleset`` (name and hash of a
ruleset Trickster's options cannot express: a name only, never read as a path), ``RulesetJson`` (that
ruleset resolved, when it is not bundled), ``Board``, ``Seed`` and ``Game`` (the hand's number,
the batch seed and the game's index), ``Nomination`` (the contractor's joker suit) and ``Fields``
(as JSON, the hand's record fields PTN has no tag for: the plugin steps', the cards passed to a
partner); and a joker played with a named suit carries it (``JH:S``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from fivehundred.engine.state import (
    GameState,
    Phase,
)
from fivehundred.rules import rules_text as R
from fivehundred.rules.errors import RecordError
from fivehundred.rules.inputs import MAX_RECORD_BYTES, InputError, decimal_integer, read_text
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.outputs import check_outputs, replace_file
from fivehundred.rules.ruleset import Ruleset

from .ptn import (
    PtnRecord,
    Tag,
    player_tag,
    ptn_seats,
    read_ptn,
    seat_list,
)
from .ptn_replay import _error, _replay_hand
from .record import dumps, game_to_dict, over_at_start
from .rulesets import CONTENT, RecordRulesetError, RecordRulesets, RulesetRefs, load_rulesets
from .trickster import OptionError, build_ruleset, options_ruleset, read_options, shipped_match


@dataclass
class ImportResult:
    """What ``import_ptn`` read: the game records, the rulesets to write, and where records stop."""

    records: list[dict[str, Any]] = field(default_factory=list)
    rulesets: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Rulesets no shipped one matches, by name, as YAML data (``extends:`` and the fields that differ)."""
    notes: list[str] = field(default_factory=list)
    """Where each record cut short stops, and options that disagree, each as ``file:line: …``."""
    written: list[Path] = field(default_factory=list)


# --- the ruleset of a record ---------------------------------------------------------------------


def _ruleset_of(rec: PtnRecord, result: ImportResult, rulesets: RecordRulesets) -> Ruleset:
    if "Ruleset" in rec.tags:  # written by ``export_ptn`` for a ruleset Trickster's options cannot express
        return _named_ruleset(rec, rulesets)
    players = _players_in(rec)
    if players is not None and players != 4:
        raise _error(rec.where("Deal" if "Deal" in rec.tags else "GameScores"),
                     f"a Trickster game of {players} players: Trickster's options are known for four players only, "
                     "so no ruleset is guessed (records this project wrote name theirs in a Ruleset tag)")
    try:
        options, notes = read_options(rec.value("GameOptionsJson"), rec.value("Event"))
    except OptionError as e:
        raise _error(rec.where(e.tag), f"{e.tag}: {e}") from None
    result.notes.extend(f"{rec.where('GameOptionsJson')}: {note}" for note in notes)
    ruleset = build_ruleset(options)
    shipped = shipped_match(ruleset)
    if shipped is not None:
        return _shipped(shipped)
    result.rulesets[ruleset.name] = options_ruleset(options)
    return ruleset


def _named_ruleset(rec: PtnRecord, rulesets: RecordRulesets) -> Ruleset:
    """The ruleset a ``Ruleset`` tag names (``NAME HASH``): one given, the one ``RulesetJson`` carries, or a shipped
    or plugin one; never a file, whatever the name."""
    name, _, digest = (rec.value("Ruleset") or "").partition(" ")
    meta: dict[str, Any] = {"name": name, "hash": digest or None}
    carried = rec.value("RulesetJson")
    if carried is not None:
        try:
            meta[CONTENT] = json.loads(carried)
        except json.JSONDecodeError as e:
            raise _error(rec.where("RulesetJson"), f"RulesetJson: not JSON: {e.msg}") from None
        except RecursionError:
            raise _error(rec.where("RulesetJson"), "RulesetJson: not a ruleset: nested too deeply") from None
        except ValueError as e:  # an integer of more digits than Python converts
            raise _error(rec.where("RulesetJson"), f"RulesetJson: not a ruleset: {e}") from None
    try:
        ruleset = rulesets({"ruleset": meta})
    except RecordRulesetError as e:
        tag = "RulesetJson" if carried is not None and e.field != "ruleset.name" else "Ruleset"
        raise _error(rec.where(tag), f"{tag}: {e}") from None
    if digest and digest != ruleset.content_hash:
        raise _error(rec.where("Ruleset"), f"Ruleset: {name} has hash {ruleset.content_hash} here, not {digest}")
    return ruleset


@cache
def _shipped(name: str) -> Ruleset:
    """A shipped ruleset, loaded once (not once per record: a file of 5,000 headers reads it once)."""
    return load_ruleset(name)


def _players_in(rec: PtnRecord) -> int | None:
    """How many seats the record's ``Deal`` (or ``GameScores``) lists, if it has one."""
    for tag in ("Deal", "GameScores"):
        value = rec.value(tag)
        if value is not None and ":" in value:
            return len(value.split(":", 1)[1].split())
    return None


# --- games --------------------------------------------------------------------------------------


def _names(rules: Rules) -> tuple[str, ...]:
    return ptn_seats(rules.seats) or rules.seats


def _game_scores(rec: PtnRecord, rules: Rules) -> list[int] | None:
    value = rec.value("GameScores")
    if value is None:
        return None
    names = _names(rules)
    try:
        first, texts = seat_list(value, names)
        by_seat = [decimal_integer(t) for t in texts]
    except ValueError as e:
        raise _error(rec.where("GameScores"), f"GameScores: {e}") from None
    start = names.index(first)
    totals: list[int | None] = [None] * len(rules.team_names)
    for i, points in enumerate(by_seat):
        team = rules.team_of[(start + i) % rules.players]
        if totals[team] not in (None, points):
            raise _error(rec.where("GameScores"), f"GameScores: partners show {totals[team]} and {points}")
        totals[team] = points
    return [t or 0 for t in totals]


def _players(rec: PtnRecord, rules: Rules) -> dict[str, str] | None:
    found = {seat: rec.value(player_tag(name)) for seat, name in zip(rules.seats, _names(rules), strict=True)}
    return {seat: name for seat, name in found.items() if name is not None} or None


@dataclass
class _Game:
    rules: Rules
    state: GameState
    start: dict[str, Any]
    players: dict[str, str] | None
    seed: Any = None
    number: int | None = None
    stopped: bool = False
    unfinished: dict[str, Any] | None = None
    """Where the last hand stops, and the cards of the trick it stops in."""

    def record(self) -> dict[str, Any]:
        record = game_to_dict(self.state, seed=self.seed, game=self.number)
        record["players"] = self.players
        if self.start:
            record = {**record, "start": self.start}
        if self.unfinished is not None and record["hands"]:
            last = record["hands"][-1]
            for key in ("tricks_won", "scores", "totals", "outcome"):
                last.pop(key, None)
            last["unfinished"] = self.unfinished
        return record

    def stop(self, where: str) -> None:
        """The last hand stops here: its record keeps the trick in progress."""
        self.stopped = True
        state = self.state
        self.unfinished = {"stops": where}
        if state.phase == Phase.PLAY and state.trick:
            seats = self.rules.seats
            self.unfinished["trick"] = {"leader": seats[state.trick_leader], "cards": [
                state.action_to_str(c) for c in state.trick]}


def _new_state(rules: Rules, dealer: int, totals: Sequence[int], hand: int) -> GameState:
    state = GameState(rules, first_dealer=dealer)
    state.totals = list(totals)
    state.deals = hand - 1
    return state


def _dealer(rec: PtnRecord, rules: Rules) -> int | None:
    text = rec.value("Dealer")
    if text is None:
        return None
    names = _names(rules)
    if text not in names:
        raise _error(rec.where("Dealer"), f"Dealer: {text!r} is not a seat ({', '.join(names)})")
    return names.index(text)


def _board(rec: PtnRecord) -> int | None:
    text = rec.value("Board")
    if text is None:
        return None
    if not _digits(text, 7) or int(text) < 1:
        raise _error(rec.where("Board"), f"Board: {text!r} is not a hand number")
    return int(text)


def _digits(text: str, most: int) -> bool:
    """``text`` is ASCII digits 0-9, at most ``most`` of them (``١٢`` and ``²`` are digits to ``isdigit``)."""
    return text.isascii() and text.isdigit() and len(text) <= most


def read_games(text: str, source: str = "<ptn>", rulesets: RecordRulesets | None = None) -> ImportResult:
    """The game records of a PTN text (see the module's description); ``rulesets``: the rulesets given for the
    names ``Ruleset`` tags hold."""
    result = ImportResult()
    game: _Game | None = None
    rulesets = rulesets or RecordRulesets()
    for rec in read_ptn(text, source):
        ruleset = _ruleset_of(rec, result, rulesets)
        rules = compile_rules(ruleset)
        if ptn_seats(rules.seats) is None:
            raise _error(rec.where("Event"), f"ruleset {ruleset.name}: PTN has no seats for "
                         f"{len(rules.seats)} players")
        game = _add_hand(rec, rules, game, result)
    if game is not None:
        result.records.append(game.record())
    used = {record["ruleset"]["name"] for record in result.records}
    result.rulesets = {name: data for name, data in result.rulesets.items() if name in used}
    return result


def _add_hand(rec: PtnRecord, rules: Rules, game: _Game | None, result: ImportResult) -> _Game | None:
    scores = _game_scores(rec, rules)
    dealer = _dealer(rec, rules)
    board = _board(rec)
    seed, number = _extension_ints(rec)
    if dealer is None:  # nothing of the hand is there: no record (a game record has a hand at least)
        result.notes.append(f"{rec.cut or _last_line(rec)}: the record stops in the header, before the Dealer and "
                            "the Deal: no hand to import, the record is left out")
        if game is not None:
            result.records.append(game.record())
        return None
    # A trial replay tells the hand's own score, hence the totals before it (the game's totals so
    # far, or 0-0, stand in for them during the trial: mid-hand ends, E6, depend on them).
    zeros = [0] * len(rules.team_names)
    going_on = (game is not None and not game.stopped and game.rules is rules and game.state.phase == Phase.DEAL
                and game.state.dealer == dealer and (board is None or board == game.state.deals + 1))
    guess = game.state.totals if going_on and game is not None else zeros
    trial = _new_state(rules, dealer, guess, board or 1)
    stop = _replay_hand(rec, trial)
    log = trial.hands_log[-1] if trial.hands_log else None
    own = log.scores if stop is None and log is not None and log.scores else zeros
    before = [total - points for total, points in zip(scores or guess, own, strict=True)]
    if not (going_on and game is not None and game.state.totals == before):
        if game is not None:
            result.records.append(game.record())
        hand = board or 1
        start: dict[str, Any] = {}
        if any(before) or hand != 1:
            start = {"number": hand, "totals": dict(zip(rules.team_names, before, strict=True))}
            over = over_at_start(rules, before)
            if over is not None:
                result.notes.append(f"{rec.where('GameScores')}: the hand starts at {before}, where the game is "
                                    f"already over under ruleset {rules.ruleset.name!r} ({over.reason}): validate "
                                    f"refuses the record's start ({R.GAME_OVER_AT_START})")
        game = _Game(rules, _new_state(rules, dealer, before, hand), start, _players(rec, rules), seed, number)
    assert game is not None
    stop = _replay_hand(rec, game.state, result.notes)
    if stop is not None:
        where = rec.cut or stop.where or _last_line(rec)
        result.notes.append(f"{where}: the record stops {stop}; imported up to there")
        game.stop(str(stop))
    elif scores is not None and game.state.totals != scores:
        result.notes.append(f"{rec.where('GameScores')}: GameScores say {scores} after the hand but the ruleset "
                            f"gives {game.state.totals}")
    return game


def _last_line(rec: PtnRecord) -> str:
    lines = [line for tag in rec.tags.values() for line in (tag.line, *(n for n, _ in tag.data))]
    return f"{rec.source}:{max(lines, default=rec.line)}"


def _extension_ints(rec: PtnRecord) -> tuple[Any, int | None]:
    seed: Any = rec.value("Seed")
    if seed is not None and _digits(seed.removeprefix("-"), 19):
        seed = int(seed)
    game = rec.value("Game")
    return seed, int(game) if game is not None and _digits(game, 19) else None


# --- files ----------------------------------------------------------------------------------------


def import_ptn(paths: Iterable[str | Path], out: str | Path | None = None, *,
               ruleset: RulesetRefs = None) -> ImportResult:
    """Read PTN files into game records; with ``out``, write them there (JSON Lines) and write each
    ruleset that no shipped one matches next to it, as ``NAME.yaml`` (``extends:`` and the fields
    that differ).  Raises ``RecordError`` naming ``file:line`` and the tag for a record that breaks
    the rules or does not read, and when no file has a hand to import (nothing is written then).  A record
    carries its ruleset when it is not bundled (``fivehundred.records.rulesets``); ``ruleset`` gives rulesets
    for the names of ``Ruleset`` tags that carry none."""
    result = ImportResult()
    paths = list(paths)
    rulesets = RecordRulesets(load_rulesets(ruleset))
    if out is not None:
        check_outputs([out], paths)
    for raw in paths:
        path = Path(raw)
        try:
            text = read_text(path, MAX_RECORD_BYTES, "a PTN file")
        except InputError as e:
            raise RecordError(str(e)) from None
        one = read_games(text, str(path), rulesets)
        result.records += one.records
        result.rulesets.update(one.rulesets)
        result.notes += one.notes
    if not result.records:
        why = result.notes[-1] if result.notes else f"{', '.join(map(str, paths))}: no PTN record"
        raise RecordError(f"nothing to import: {why}")
    if out is not None:
        target = Path(out)
        beside = [target.parent / f"{name}.yaml" for name in result.rulesets]
        check_outputs([target, *beside], paths)
        for ruleset_path, data in zip(beside, result.rulesets.values(), strict=True):
            replace_file(ruleset_path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode("utf-8"))
            result.written.append(ruleset_path)
        replace_file(target, "".join(dumps(r) + "\n" for r in result.records).encode("utf-8"))
        result.written.append(target)
    return result


__all__ = ["ImportResult", "Tag", "import_ptn", "read_games"]
