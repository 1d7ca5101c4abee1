"""Playing one seat against bots: ``play_at_table`` (``fivehundred play``).

The person's seat is a player like any other (``act(state, legal)``): before each of its decisions
it shows what that seat may know, ``state.observation(seat)`` and the scores, offers the legal
choices, and reads a line.  Text is read as ``GameState.parse_action`` reads it (``7H``, ``pass``,
``discard 4D`` or just ``4D`` in the exchange, ``H`` or ``none`` for the nomination, ``JK:S`` to
lead the joker as spades); an illegal choice is refused with the rule it breaks, and asked again.
When a single card is legal it is played for the person (``ask_always`` asks anyway).  Lines come
from any source (the terminal, a file, a test), so a game can be scripted.

The game is written as a game record after every hand (``validate`` accepts it: a game without a
result is unfinished) and at its end.  ``quit``, the end of the input or Ctrl-C stop the game and keep
it: the record then holds the hand in progress too, marked ``unfinished`` where it stops, and
``play_at_table(..., resume=record)`` continues it: the same seed deals the same cards, the record's
actions are replayed (the bots make them again, and must: the same seed gives the same decisions), and
the person is asked from where the record stops.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred.engine.seeding import game_generators
from fivehundred.engine.state import GameState, Phase, new_game
from fivehundred.records.record import dumps, game_to_dict, hand_to_dict
from fivehundred.records.validation import record_actions, validate_record
from fivehundred.rules.cards import SUIT_LETTERS, card_str
from fivehundred.rules.errors import FiveHundredError, IllegalActionError, RecordError
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import make_player
from fivehundred.rules.outputs import check_outputs, replace_file
from fivehundred.rules.printable import printable
from fivehundred.rules.ruleset import Ruleset

from .simulation import DEFAULT_PLAYER, MAX_DEALS
from .table_view import face, hand_result, view, with_symbols

HUMAN = "human"
"""The player name a record gives the person's seat."""

QUIT = ("quit", "exit")
"""What the person types to stop the game (it is kept, to be resumed)."""


class GameStopped(FiveHundredError):
    """The game stopped before its end: ``quit`` (status 0), Ctrl-C (130) or the end of the input (1)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class InputEnded(GameStopped):
    """The lines ran out before the game was over."""


@dataclass
class TablePlayer:
    """A person at one seat: shows the seat's view, offers the legal choices, reads a choice."""

    seat: int
    read: Callable[[], str | None]
    write: Callable[[str], None]
    ask_always: bool = False
    """Ask even when a single card is legal (else it is played for the person)."""
    reported: int = 0
    """Hands whose end the person has been told of."""
    refusals: list[str] = field(default_factory=list)

    def act(self, state: GameState, legal: list[int]) -> int:
        self.news(state)
        acting = state.current_player()  # the seat itself, or a dummy it plays (P2)
        name = state.rules.seats[acting]
        for shown in view(state, state.observation(acting)):
            self.write(shown)
        if len(legal) == 1 and state.phase == Phase.PLAY and not self.ask_always:
            self.write(f"{name} plays {face(state, legal[0])}: the only legal card")
            return legal[0]
        self.write("legal: " + " ".join(face(state, a) for a in legal))
        while True:
            self.write(f"{name}> ")
            text = self.line(state, name).strip()
            if not text:
                continue
            if text in ("?", "help"):
                self.write("legal: " + " ".join(face(state, a) for a in legal)
                           + "  ('quit' stops the game and keeps it)")
                continue
            if text.lower() in QUIT:
                raise GameStopped(f"stopped at hand {state.deals}, {name} to {_doing(state)}", 0)
            action = self.choice(state, text, legal)
            if action is not None:
                return action

    def line(self, state: GameState, name: str) -> str:
        where = f"hand {state.deals}, {name} to {_doing(state)}"
        try:
            line = self.read()
        except KeyboardInterrupt:
            raise GameStopped(f"interrupted at {where}", 130) from None
        if line is None:
            raise InputEnded(f"the input ended before the game did ({where})", 1)
        return line

    def choice(self, state: GameState, text: str, legal: list[int]) -> int | None:
        """The action ``text`` means, if it is legal; else None, having said why not."""
        try:
            action = state.parse_action(_words(state, text))
        except (ValueError, KeyError) as e:
            self.refuse(f"{text!r} is not a choice here: {e}")
            return None
        if action in legal:
            return action
        try:
            state.clone().apply(action)
        except IllegalActionError as e:
            self.refuse(str(e))
        else:
            self.refuse(f"{text!r} is not legal now")
        return None

    def refuse(self, why: str) -> None:
        self.refusals.append(why)
        self.write(f"refused: {with_symbols(why)}")

    def news(self, state: GameState) -> None:
        """Tell how the hands finished since the person last heard (the scores are public)."""
        for log in _finished(state)[self.reported:]:
            for line in hand_result(state, log):
                self.write(line)
        self.reported = len(_finished(state))


def _finished(state: GameState) -> list[Any]:
    over = state.phase in (Phase.DEAL, Phase.GAME_OVER)  # else the last hand is still being played
    return state.hands_log if over else state.hands_log[:-1]


def _doing(state: GameState) -> str:
    return {Phase.AUCTION: "call", Phase.DISCARD: "discard", Phase.NOMINATE: "nominate",
            Phase.PLAY: "play"}.get(state.phase, "act")


def _words(state: GameState, text: str) -> str:
    """Shortcuts: a bare card discards in the exchange, a bare suit nominates."""
    if state.phase == Phase.DISCARD and not text.lower().startswith("discard"):
        return f"discard {text}"
    if state.phase == Phase.NOMINATE and not text.lower().startswith("nominate"):
        return f"nominate {text}"
    return text


@dataclass
class Replaying:
    """A seat's player while a record is replayed (``resume``): it makes the record's next action, a bot
    having chosen it again (the same seed gives the same decisions), then plays on as itself."""

    inner: Any
    actions: deque[int]
    person: bool

    def act(self, state: GameState, legal: list[int]) -> int:
        if not self.actions:
            return int(self.inner.act(state, legal))
        action = self.actions.popleft()
        if action not in legal:
            raise RecordError(f"the record's {state.action_to_str(action)} is not legal at hand {state.deals} "
                              "of this game: the record is of another game (seed, players or ruleset)")
        if not self.person:
            mine = self.inner.act(state, legal)
            if mine != action:
                raise RecordError(f"at hand {state.deals} the bot chose {state.action_to_str(mine)} where the "
                                  f"record has {state.action_to_str(action)}: the record is of another game "
                                  "(seed, bots or ruleset)")
        return action


@dataclass
class TableGame:
    """A game played at the table: the state, its record, where it was written, whether it stopped early."""

    state: GameState
    record: dict[str, Any]
    out: Path | None
    refusals: list[str]
    stopped: GameStopped | None = None
    """Why the game stopped before its end (its record holds the game so far), or None."""


def play_at_table(ruleset: Ruleset | str | Path, seat: str, *, bots: str = DEFAULT_PLAYER, seed: int | str = 0,
                  read: Callable[[], str | None] | None = None, write: Callable[[str], None] | None = None,
                  out: str | Path | None = None, max_deals: int = MAX_DEALS, ask_always: bool = False,
                  resume: dict[str, Any] | None = None) -> TableGame:
    """A person plays ``seat`` against ``bots`` (a player name) under ``ruleset``, reading each choice
    from ``read`` (a line, None at the end of the input; stdin by default) and showing the table through
    ``write``; the game is that of ``simulate``'s game 0 of ``seed``, with the person's choices at that
    seat.  With ``out``, the game record is written there (JSON Lines) after every hand and when the game
    stops.  ``resume`` is a record of this game so far (``resume_args`` reads its seat, bots and seed): it
    is replayed and the game goes on from where it stops.  A game stopped by ``quit``, Ctrl-C or the end
    of the input is returned with ``stopped`` set.  Raises ``FiveHundredError`` for an unknown seat or
    player, and ``RecordError`` for a ``resume`` record that is not this game."""
    if out is not None:  # before the game, not after it
        check_outputs([out], [ruleset] if not isinstance(ruleset, Ruleset) and Path(ruleset).exists() else [])
    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    if seat not in rs.players.seats:
        raise FiveHundredError(f"--seat {seat}: not a seat of {rs.name} (seats: {', '.join(rs.players.seats)})")
    me = rs.players.seats.index(seat)
    lines = _Lines(read or _stdin_line)
    write = write or _print
    state, rng = new_game(rs, f"{seed}:0")
    person = TablePlayer(me, lines, write, ask_always)
    _, players_rng = game_generators(f"{seed}:0")
    seats = range(len(rs.players.seats))
    players: list[Any] = [person if s == me else make_player(bots, s, players_rng) for s in seats]
    names = [HUMAN if s == me else bots for s in seats]
    table = _Table(state, person, names, seed, None if out is None else Path(out))
    partners = _partners(rs, seat)
    write(f"{rs.name}: you are {seat}" + (f", partnered by {', '.join(partners)}" if partners else "")
          + f"; the others are {bots} bots. '?' lists the legal choices, 'quit' stops (the game is kept).")
    if resume is not None:
        players, table.replayed = _resumed(players, me, resume, rs)
        write(f"resuming the recorded game: its {table.replayed} finished hand(s) and the hand in progress are "
              "replayed, and the game goes on from where it stopped")
    stopped = None
    try:
        with _deferred_interrupts(lines):
            table.play(players, rng, max_deals, resume)
    except GameStopped as e:
        stopped = e
    except KeyboardInterrupt:  # outside the main thread, where the interrupt cannot wait for the prompt
        stopped = GameStopped(f"interrupted at hand {state.deals}", 130)
    record = table.save(stopped is not None)
    if stopped is None:
        person.news(state)
        if state.result is not None:
            write(f"{rs.players.teams[state.result.winner].name} wins: {state.result.reason}")
        else:
            write(f"the game was stopped after {state.deals} deals")
        if table.out is not None:
            write(f"the game is written to {table.out}")
    return TableGame(state, record, table.out, person.refusals, stopped)


@dataclass
class _Table:
    """The game in play and where its record goes."""

    state: GameState
    person: TablePlayer
    names: list[str]
    seed: int | str
    out: Path | None
    replayed: int = 0
    """Hands of a resumed record that were finished in it: replayed, not shown again."""

    def play(self, players: list[Any], rng: Any, max_deals: int, resume: dict[str, Any] | None) -> None:
        """Play deal by deal to the end of the game (or ``max_deals``), writing the record after each."""
        state = self.state
        while True:
            state.play_out(players, rng, min(state.deals + 1, max_deals))
            if state.phase == Phase.GAME_OVER or state.deals >= max_deals:
                return
            if len(state.hands_log) <= self.replayed:
                assert resume is not None
                _check_replayed(state, resume, len(state.hands_log) - 1)
                self.person.reported = len(state.hands_log)
                if len(state.hands_log) == self.replayed:
                    self.person.write(f"resumed after hand {state.deals}: "
                                      + ", ".join(f"{t} {p}" for t, p in zip(state.rules.team_names, state.totals,
                                                                              strict=True)))
                continue
            self.person.news(state)
            self.save(False)

    def save(self, stopped: bool) -> dict[str, Any]:
        """The game's record so far, written to ``out``; a game stopped inside a hand keeps that hand,
        marked unfinished, when its record is valid so (else the hands finished)."""
        record = self._candidates(stopped)
        if self.out is not None:
            replace_file(self.out, (dumps(record) + "\n").encode("utf-8"))
        return record

    def _candidates(self, stopped: bool) -> dict[str, Any]:
        state = self.state
        record = game_to_dict(state, seed=self.seed, game=0, players=self.names)
        if not stopped or state.phase in (Phase.DEAL, Phase.GAME_OVER) or not record["hands"]:
            return record
        tries = [self._unfinished(record, with_trick=True), self._unfinished(record, with_trick=False)]
        for candidate in tries:
            if not validate_record(candidate, "the game so far", state.rules.ruleset):
                return candidate
        finished = dict(record, hands=record["hands"][:-1], deals=state.deals - 1)
        return finished

    def _unfinished(self, record: dict[str, Any], *, with_trick: bool) -> dict[str, Any]:
        state = self.state
        last = {k: v for k, v in record["hands"][-1].items() if k not in ("tricks_won", "scores", "totals", "outcome")}
        last["unfinished"] = {"stops": f"{state.rules.seats[state.current_player()]} to {_doing(state)}"}
        if with_trick and state.phase == Phase.PLAY and state.trick:
            last["unfinished"]["trick"] = {"leader": state.rules.seats[state.trick_leader],
                                           "cards": _trick_cards(state)}
        return dict(record, hands=[*record["hands"][:-1], last])


def _trick_cards(state: GameState) -> list[str]:
    """The trick in progress as a record writes it (a free joker led carries the suit named for it)."""
    cards = [card_str(c) for c in state.trick]
    led = state.led_suit
    if cards and cards[0].startswith("JK") and led is not None:
        contract = state.contract
        if contract is not None and contract.trump is None:
            cards[0] += ":" + SUIT_LETTERS[led]
    return cards


def _resumed(players: list[Any], me: int, record: dict[str, Any], rs: Ruleset) -> tuple[list[Any], int]:
    """The players replaying ``record`` first, and how many hands it finished."""
    if record.get("result") is not None:
        raise RecordError(f"the game is over ({record['result'].get('winner')} won): nothing to resume")
    actions = deque(record_actions(record, rs))
    hands = record.get("hands", [])
    finished = len(hands) - (1 if hands and "unfinished" in hands[-1] else 0)
    return [Replaying(p, actions, s == me) for s, p in enumerate(players)], finished


def _check_replayed(state: GameState, record: dict[str, Any], index: int) -> None:
    if hand_to_dict(state, state.hands_log[index]) != record["hands"][index]:
        raise RecordError(f"hand {state.hands_log[index].number} replays differently from the record: the record "
                          "is of another game (seed, players or ruleset)")


def resume_args(record: dict[str, Any]) -> tuple[str, str, int | str]:
    """The seat, the bots and the seed of a game record written by ``play`` (to resume it)."""
    players = record.get("players") or {}
    people = [seat for seat, name in players.items() if name == HUMAN]
    bots = {name for name in players.values() if name != HUMAN}
    if len(people) != 1 or len(bots) != 1 or record.get("game") != 0 or record.get("seed") is None:
        raise RecordError("not a game written by 'fivehundred play' (one human seat, one kind of bot, a seed)")
    return people[0], bots.pop(), record["seed"]


def _partners(rs: Ruleset, seat: str) -> list[str]:
    team = next(t for t in rs.players.teams if seat in t.seats)
    return [s for s in team.seats if s != seat]


@dataclass
class _Lines:
    """The person's lines, with Ctrl-C deferred to the next prompt while the bots play: a game stops at
    a prompt, where its state is whole."""

    read: Callable[[], str | None]
    reading: bool = False
    pending: bool = False

    def __call__(self) -> str | None:
        self.reading = True
        try:
            if self.pending:
                self.pending = False
                raise KeyboardInterrupt
            return self.read()
        finally:
            self.reading = False

    def interrupt(self, signum: int, frame: Any) -> None:
        if self.reading:
            raise KeyboardInterrupt
        self.pending = True


@contextmanager
def _deferred_interrupts(lines: _Lines) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lines.interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stdin_line() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


def _print(text: str) -> None:
    end = "" if text.endswith("> ") else "\n"
    sys.stdout.write("\n".join(printable(line) for line in text.split("\n")) + end)  # names from the ruleset
    sys.stdout.flush()


__all__ = ["HUMAN", "GameStopped", "InputEnded", "Replaying", "TableGame", "TablePlayer", "play_at_table",
           "resume_args", "view"]
