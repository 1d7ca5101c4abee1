"""One hand of a PTN record replayed through the engine (``_replay_hand``): its deal, its calls (Trickster's words
for misère read through ``CALL_NAMES``), the exchange and its tricks, card by card, every action checked; a record
cut short stops the replay (``_Stop``) where it stops.  ``ptn_import`` reads the records and makes the games."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fivehundred.engine.state import (
    CALL,
    DISCARD,
    JOKER_LEAD,
    NO_NOMINATION,
    NOMINATE,
    GameState,
    Phase,
)
from fivehundred.rules.cards import JOKER_BASE, SUIT_LETTERS, card_str, parse_card, parse_suit
from fivehundred.rules.errors import IllegalActionError, RecordError
from fivehundred.rules.manager import Rules

from .ptn import PtnRecord, parse_card_text, parse_cards_text, parse_hand_text, plain_call, ptn_seats, seat_list

CALL_NAMES = {"misère": "misere", "nullo": "misere", "openmisère": "open-misere", "opennullo": "open-misere"}
"""Trickster's words for the named calls, as its ``Event`` summaries write them ("misère after 7", "open
nullo ±500"; spaces, hyphens and case aside).  How ``Auction`` spells them is not known (PTN.md): a call
read through this table is a guess, and the import says so in a note."""


class _Stop(Exception):
    """The record stops here (it was cut short): what is there is imported.  ``where``: the last
    line read, ``file:line``."""

    def __init__(self, what: str, where: str | None = None):
        super().__init__(what)
        self.where = where


def _error(where: str, message: str) -> RecordError:
    return RecordError(f"{where}: {message}")


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
