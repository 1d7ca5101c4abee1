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
misère in ``Auction`` (``CALL_NAMES``), the suit a led joker names — are named in a note each time.

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
    CALL,
    DISCARD,
    JOKER_LEAD,
    NO_NOMINATION,
    NOMINATE,
    GameState,
    Phase,
)
from fivehundred.rules import rules_text as R
from fivehundred.rules.cards import JOKER_BASE, SUIT_LETTERS, card_str, parse_card, parse_suit
from fivehundred.rules.errors import IllegalActionError, RecordError
from fivehundred.rules.inputs import MAX_RECORD_BYTES, InputError, decimal_integer, read_text
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.outputs import check_outputs, replace_file
from fivehundred.rules.ruleset import Ruleset

from .ptn import (
    PtnRecord,
    Tag,
    parse_card_text,
    parse_cards_text,
    parse_hand_text,
    plain_call,
    player_tag,
    ptn_seats,
    read_ptn,
    seat_list,
)
from .record import dumps, game_to_dict, over_at_start
from .rulesets import CONTENT, RecordRulesetError, RecordRulesets, RulesetRefs, load_rulesets
from .trickster import OptionError, build_ruleset, options_ruleset, read_options, shipped_match

CALL_NAMES = {"misère": "misere", "nullo": "misere", "openmisère": "open-misere", "opennullo": "open-misere"}
"""Trickster's words for the named calls, as its ``Event`` summaries write them ("misère after 7", "open
nullo ±500"; spaces, hyphens and case aside).  How ``Auction`` spells them is not known (PTN.md): a call
read through this table is a guess, and the import says so in a note."""


@dataclass
class ImportResult:
    """What ``import_ptn`` read: the game records, the rulesets to write, and where records stop."""

    records: list[dict[str, Any]] = field(default_factory=list)
    rulesets: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Rulesets no shipped one matches, by name, as YAML data (``extends:`` and the fields that differ)."""
    notes: list[str] = field(default_factory=list)
    """Where each record cut short stops, and options that disagree, each as ``file:line: …``."""
    written: list[Path] = field(default_factory=list)


class _Stop(Exception):
    """The record stops here (it was cut short): what is there is imported.  ``where``: the last
    line read, ``file:line``."""

    def __init__(self, what: str, where: str | None = None):
        super().__init__(what)
        self.where = where


def _error(where: str, message: str) -> RecordError:
    return RecordError(f"{where}: {message}")


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


# --- one hand ---------------------------------------------------------------------------------


class _Hand:
    """Replays one PTN record's hand on a game state."""

    def __init__(self, rec: PtnRecord, state: GameState, notes: list[str] | None = None):
        self.rec, self.state = rec, state
        self.notes = notes if notes is not None else []
        """Where the replay guessed (a call in Trickster's words, the suit a joker led names)."""
        self.rules: Rules = state.rules
        self.seats = ptn_seats(self.rules.seats) or self.rules.seats
        """PTN's names of the seats, as the text uses them."""

    def seat(self, name: str, text: str, tag: str) -> int:
        if text not in self.seats:
            raise _error(self.rec.where(tag), f"{tag}: {text!r} is not a seat ({', '.join(self.seats)})")
        return self.seats.index(text)

    def act(self, seat: int, action: int, where: str, text: str) -> None:
        try:
            self.state.apply(action, seat=seat)
        except IllegalActionError as e:
            raise _error(where, f"{self.seats[seat]} {text}: {e}") from None

    def deal(self, fields: dict[str, Any]) -> None:
        rec, state = self.rec, self.state
        if "Deal" not in rec.tags:
            raise _Stop("before the deal")
        try:
            first, texts = seat_list(rec.tags["Deal"].value, self.seats)
            hands = [parse_hand_text(t) for t in texts]
        except ValueError as e:
            raise _error(rec.where("Deal"), f"Deal: {e}") from None
        if len(hands) != len(self.seats):
            raise _error(rec.where("Deal"), f"Deal: {len(hands)} hands for {len(self.seats)} seats")
        if any(h is None for h in hands):
            raise _Stop("at the deal: some hands are not known ('-')")
        start = self.seats.index(first)
        by_seat = [hands[(s - start) % len(hands)] or [] for s in range(len(hands))]
        try:
            dead = [parse_card(c) for c in fields.get("dead", [])]
        except (ValueError, AttributeError) as e:
            raise _error(rec.where("Fields"), f"Fields: dead: {e}") from None
        undealt = rec.value("Undealt")
        try:
            kitty = parse_cards_text(undealt) if undealt is not None else sorted(
                set(self.rules.deck) - {c for h in by_seat for c in h} - set(dead))
        except ValueError as e:
            raise _error(rec.where("Undealt"), f"Undealt: {e}") from None
        try:
            state.deal_cards(by_seat, kitty, dead)
        except IllegalActionError as e:
            raise _error(rec.where("Deal"), f"Deal: {e}") from None

    def steps(self, fields: dict[str, Any], used: dict[str, int]) -> None:
        """The next action of the plugin step in progress, from the ``Fields`` tag."""
        state = self.state
        step, seat = state.current_step, state.current_player()
        assert step is not None
        done = used.get(step.name, 0)
        recorded = step.recorded(fields)
        if done < len(recorded):
            name, text = recorded[done]
            used[step.name] = done + 1
            if name is not None and name not in self.rules.seats:
                raise _error(self.rec.where("Fields"), f"Fields: {step.name}: {name!r} is not a seat")
            actor = seat if name is None else self.rules.seats.index(name)
        else:
            default = step.unrecorded(state, seat)
            if default is None:
                raise _Stop(f"at the {step.name} step")
            actor, text = seat, default
        try:
            action = step.parse(text)
        except (ValueError, KeyError) as e:
            raise _error(self.rec.where("Fields"), f"Fields: {step.name}: {e}") from None
        self.act(actor, action, self.rec.where("Fields"), text)

    def auction(self, fields: dict[str, Any], used: dict[str, int]) -> None:
        rec, state = self.rec, self.state
        while state.phase == Phase.STEP:
            self.steps(fields, used)
        tag = rec.tags.get("Auction")
        if tag is None:
            raise _Stop("before the auction")
        first = self.seat(tag.value, tag.value, "Auction")
        n = len(self.seats)
        tokens = [(line, token) for line, text in tag.data for token in text.split()]
        for i, (line, token) in enumerate(tokens):
            if token == "-":
                continue
            seat, where = (first + i) % n, f"{rec.source}:{line}"
            if state.phase != Phase.AUCTION:
                raise _error(where, f"Auction: {self.seats[seat]} calls {token} after the auction ended "
                             "(rule 12: the auction ends when a bid stands and the others have passed)")
            self.act(seat, self.call(token, where), where, token)
        if state.phase == Phase.AUCTION:
            last = f"{rec.source}:{tokens[-1][0]}" if tokens else rec.where("Auction")
            raise _Stop(f"in the auction after {len(state.hand_log.calls)} calls", last)

    def call(self, token: str, where: str) -> int:
        text = plain_call(token)
        try:
            return CALL + self.rules.parse_call(text)
        except ValueError:
            pass
        if self.state.phase == Phase.AUCTION:
            try:
                return self.state.parse_action(text)  # what a step offers beside the calls (a misdeal)
            except ValueError:
                pass
        alias = CALL_NAMES.get(text.lower().replace(" ", "").replace("-", ""))
        try:
            rung = self.rules.parse_call(alias or "")
        except ValueError:
            raise _error(where, f"Auction: {token!r} is not a call of ruleset {self.rules.ruleset.name} (calls: "
                         f"Pass, 6♠ … 10NT, or the ladder's named calls: "
                         f"{', '.join(c.call for c in self.rules.ladder if not c.call[:1].isdigit())})") from None
        note = f"{where}: Auction: {token!r} read as {alias} (a guess: PTN.md does not say how Trickster spells it)"
        if note not in self.notes:
            self.notes.append(note)
        return CALL + rung

    def check_contract(self) -> None:
        rec, log = self.rec, self.state.hand_log
        declarer, contract = rec.value("Declarer"), rec.value("Contract")
        made = None if log.contractor < 0 else self.seats[log.contractor]
        if declarer is not None and declarer != made:
            raise _error(rec.where("Declarer"), f"Declarer is {declarer} but the auction makes {made} the contractor")
        if contract is not None and log.contract is not None:
            said = plain_call(contract)
            if self.call(said, rec.where("Contract")) != CALL + log.contract.rung:
                raise _error(rec.where("Contract"), f"Contract is {contract} but the auction makes {log.contract.call}")

    def exchange(self, fields: dict[str, Any], used: dict[str, int]) -> None:
        rec, state = self.rec, self.state
        discards: list[int] | None = None
        while state.phase in (Phase.DISCARD, Phase.NOMINATE, Phase.STEP):
            seat = state.current_player()
            if state.phase == Phase.DISCARD:
                if discards is None:
                    discards = self.removed(seat)
                if not discards:
                    raise _error(rec.where("CardsRemoved"), f"CardsRemoved: more discards are due from "
                                 f"{self.seats[seat]}")
                card = discards.pop(0)
                self.act(seat, DISCARD + card, rec.where("CardsRemoved"), f"discards {card}")
            elif state.phase == Phase.NOMINATE:
                suit = rec.value("Nomination")
                try:
                    action = NO_NOMINATION if suit in (None, "none") else NOMINATE + parse_suit(suit or "")
                except ValueError as e:
                    raise _error(rec.where("Nomination"), f"Nomination: {e}") from None
                self.act(seat, action, rec.where("Nomination"), f"nominates {suit or 'none'}")
            else:
                self.steps(fields, used)
        if discards:
            raise _error(rec.where("CardsRemoved"), f"CardsRemoved: {len(discards)} more cards than the rules ask for")

    def removed(self, seat: int) -> list[int]:
        rec = self.rec
        tag = rec.tags.get("CardsRemoved")
        if tag is None:
            raise _Stop("in the exchange, before the discards")
        try:
            who, texts = seat_list(tag.value, self.seats)
            cards = parse_cards_text("".join(texts[:1]))
        except ValueError as e:
            raise _error(rec.where("CardsRemoved"), f"CardsRemoved: {e}") from None
        contractor = self.state.hand_log.contractor
        if contractor >= 0 and who != self.seats[contractor]:
            raise _error(rec.where("CardsRemoved"), f"CardsRemoved: {who} discards but {self.seats[contractor]} "
                         "took the kitty (rule 14)")
        added = rec.tags.get("CardsAdded")
        if added is not None:
            try:
                taken = parse_cards_text("".join(seat_list(added.value, self.seats)[1][:1]))
            except ValueError as e:
                raise _error(rec.where("CardsAdded"), f"CardsAdded: {e}") from None
            if sorted(taken) != sorted(self.state.hand_log.kitty):
                raise _error(rec.where("CardsAdded"), "CardsAdded: not the cards of the kitty (Undealt)")
        return cards

    def play(self) -> None:
        rec, state = self.rec, self.state
        tag = rec.tags.get("Play")
        if tag is None:
            raise _Stop("before the play")
        first = self.seat(tag.value, tag.value, "Play")
        if first != state.current_player():
            raise _error(rec.where("Play"), f"Play: {tag.value} leads but {self.seats[state.current_player()]} "
                         "leads the first trick (rule 16)")
        n = len(self.seats)
        for row, (line, text) in enumerate(tag.data, 1):
            where = f"{rec.source}:{line}"
            columns = text.split()
            if len(columns) != n:
                raise _error(where, f"Play: trick {row} has {len(columns)} columns for {n} seats")
            if state.phase != Phase.PLAY:
                raise _error(where, f"Play: trick {row} is recorded but the hand was over")
            cards = {(first + i) % n: token for i, token in enumerate(columns)}
            self.trick(row, cards, where)
        if state.phase == Phase.PLAY:
            last = f"{rec.source}:{tag.data[-1][0]}" if tag.data else rec.where("Play")
            raise _Stop(f"in the play after {len(state.hand_log.tricks)} tricks", last)

    def trick(self, number: int, cards: dict[int, str], where: str) -> None:
        state = self.state
        done = len(state.hand_log.tricks)
        played: set[int] = set()
        while state.phase == Phase.PLAY and len(state.hand_log.tricks) == done:
            seat = state.current_player()
            token = cards[seat]
            if token == "-":
                if any(cards[s] != "-" for s in cards if s not in played and s != seat):
                    raise _error(where, f"Play: trick {number} has no card for {self.seats[seat]}, whose turn it is")
                shown = ", ".join(f"{self.seats[s]} {card_str(parse_card_text(cards[s])[0])}"
                                  for s in players_from(state, state.trick_leader)[:len(state.trick)])
                raise _Stop(f"in the play of trick {number}" + (f", after {shown}" if shown else ""), where)
            try:
                card, named = parse_card_text(token)
            except ValueError as e:
                raise _error(where, f"Play: {e}") from None
            order = players_from(state, seat)
            later = [cards[s] for s in order[1:len(order) - len(state.trick)]]
            self.act(seat, self.play_action(card, named, later, where), where, token)
            played.add(seat)
        extra = [self.seats[s] for s, token in cards.items() if token != "-" and s not in played]
        if extra:
            raise _error(where, f"Play: trick {number} has a card for {', '.join(extra)}, who did not play to it")

    def play_action(self, card: int, named: int | None, later: Sequence[str], where: str) -> int:
        """The action playing ``card``: a joker that must name a suit names ``named``, or else the suit
        that the later cards of the trick allow and follow most (a guess, noted; when the later cards
        do not tell, the record is imported up to that joker)."""
        state = self.state
        matching = [a for a in state.legal_actions() if _card_of(a) == card]
        if named is not None:
            matching = [a for a in matching if a >= JOKER_LEAD and (a - JOKER_LEAD) % 4 == named]
        if not matching:  # illegal: apply() says why
            return card if named is None else JOKER_LEAD + 4 * (card - JOKER_BASE) + named
        if len(matching) == 1:
            return matching[0]
        fits = {action: self._fits(action, later) for action in matching}
        best = [action for action in matching if fits[action] == max(fits.values())]
        if len(best) > 1:
            raise _Stop("at a joker led whose suit PTN does not record and the cards after it do not tell", where)
        suit = SUIT_LETTERS[(best[0] - JOKER_LEAD) % 4]
        self.notes.append(f"{where}: Play: the joker led names {suit}, as the cards after it follow (a guess: PTN.md "
                          "does not say how Trickster records the suit a led joker names)")
        return best[0]

    def _fits(self, action: int, later: Sequence[str]) -> int:
        """How many later cards of the trick follow the suit ``action`` names (-1: one is illegal)."""
        trial = self.state.clone()
        trial.apply(action)
        followed = 0
        for token in later:
            if token == "-" or trial.phase != Phase.PLAY:
                break
            try:
                card = parse_card_text(token)[0]
            except ValueError:
                return -1
            choices = [a for a in trial.legal_actions() if _card_of(a) == card]
            if not choices:
                return -1
            followed += trial.led_suit is not None and card < JOKER_BASE and card // 20 == trial.led_suit
            trial.apply(choices[0])
        return followed


def players_from(state: GameState, seat: int) -> list[int]:
    """The seats that play to a trick, in playing order from ``seat`` (those sitting out left out)."""
    order = [seat]
    while len(order) < state.rules.players and state.play_order[order[-1]] != seat:
        order.append(state.play_order[order[-1]])
    return order


def _card_of(action: int) -> int:
    if JOKER_LEAD <= action < JOKER_LEAD + 16:
        return JOKER_BASE + (action - JOKER_LEAD) // 4
    return action


def _replay_hand(rec: PtnRecord, state: GameState, notes: list[str] | None = None) -> _Stop | None:
    """Replay ``rec``'s hand on ``state``; return where the record stops (None: the hand is whole).
    The places where the replay guessed go to ``notes``."""
    hand = _Hand(rec, state, notes)
    fields: dict[str, Any] = {}
    if "Fields" in rec.tags:
        try:
            fields = json.loads(rec.tags["Fields"].value)
        except json.JSONDecodeError as e:
            raise _error(rec.where("Fields"), f"Fields: not JSON: {e.msg}") from None
        except RecursionError:
            raise _error(rec.where("Fields"), "Fields: nested too deeply") from None
        except ValueError as e:  # an integer of more digits than Python converts (4,300)
            raise _error(rec.where("Fields"), f"Fields: not JSON: {e}".split(";")[0]) from None
        if not isinstance(fields, dict):
            raise _error(rec.where("Fields"), "Fields: not a JSON object")
    used: dict[str, int] = {}
    try:
        hand.deal(fields)
        hand.auction(fields, used)
        if state.phase in (Phase.DEAL, Phase.GAME_OVER):
            return None  # passed out or thrown in
        hand.check_contract()
        hand.exchange(fields, used)
        hand.play()
    except _Stop as stop:
        return stop
    if rec.cut is not None:
        return _Stop("where the text is cut short")
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
