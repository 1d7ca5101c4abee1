"""Playing one seat against bots: ``play_at_table`` (``fivehundred play``).

The person's seat is a player like any other (``act(state, legal)``): before each of its decisions
it shows what that seat may know, ``state.observation(seat)`` and the scores, offers the legal
choices, and reads a line.  Text is read as ``GameState.parse_action`` reads it (``7H``, ``pass``,
``discard 4D`` or just ``4D`` in the exchange, ``H`` or ``none`` for the nomination, ``JK:S`` to
lead the joker as spades); an illegal choice is refused with the rule it breaks, and asked again.
Lines come from any source (the terminal, a file, a test), so a game can be scripted.  At the end
the game is written as a game record, which ``validate`` checks like any other.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred.engine.seeding import game_generators
from fivehundred.engine.state import GameState, Observation, Phase, new_game
from fivehundred.records.ptn import seat_rows
from fivehundred.records.ptn_import import write_atomically
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.records.show import call_face, card_face, hand_face
from fivehundred.rules.cards import SUIT_SYMBOLS, card_str
from fivehundred.rules.errors import FiveHundredError, IllegalActionError
from fivehundred.rules.manager import make_player
from fivehundred.rules.printable import printable
from fivehundred.rules.ruleset import Ruleset, load_ruleset

from .simulation import MAX_DEALS

HUMAN = "human"
"""The player name a record gives the person's seat."""


class InputEnded(FiveHundredError):
    """The lines ran out before the game was over."""


@dataclass
class TablePlayer:
    """A person at one seat: shows the seat's view, offers the legal choices, reads a choice."""

    seat: int
    read: Callable[[], str | None]
    write: Callable[[str], None]
    reported: int = 0
    """Hands whose end the person has been told of."""
    refusals: list[str] = field(default_factory=list)

    def act(self, state: GameState, legal: list[int]) -> int:
        self.news(state)
        acting = state.current_player()  # the seat itself, or a dummy it plays (P2)
        for shown in view(state, state.observation(acting)):
            self.write(shown)
        self.write("legal: " + " ".join(_face(state, a) for a in legal))
        while True:
            self.write(f"{state.rules.seats[acting]}> ")
            line = self.read()
            if line is None:
                raise InputEnded(f"the input ended before the game did (hand {state.deals}, "
                                 f"{state.rules.seats[acting]} to {state.phase.name.lower()}): no record written")
            text = line.strip()
            if not text:
                continue
            if text in ("?", "help"):
                self.write("legal: " + " ".join(state.action_to_str(a) for a in legal))
                continue
            action = self.choice(state, text, legal)
            if action is not None:
                return action

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
        self.write(f"refused: {why}")

    def news(self, state: GameState) -> None:
        """Tell how the hands finished since the person last acted (the scores are public)."""
        over = state.phase in (Phase.DEAL, Phase.GAME_OVER)  # else the last hand is still being played
        done = state.hands_log if over else state.hands_log[:-1]
        for log in done[self.reported:]:
            for line in hand_result(state, log):
                self.write(line)
        self.reported = len(done)


def _words(state: GameState, text: str) -> str:
    """Shortcuts: a bare card discards in the exchange, a bare suit nominates."""
    if state.phase == Phase.DISCARD and not text.lower().startswith("discard"):
        return f"discard {text}"
    if state.phase == Phase.NOMINATE and not text.lower().startswith("nominate"):
        return f"nominate {text}"
    return text


def _face(state: GameState, action: int) -> str:
    text = state.action_to_str(action)
    if state.phase == Phase.AUCTION:
        return call_face(text)
    if state.phase == Phase.PLAY and state.action_kind(action) in ("play", "lead-joker"):
        return card_face(text)
    return text


def view(state: GameState, obs: Observation) -> list[str]:
    """What ``obs.seat`` may know now, as lines: scores, its hand, the auction, the contract, the tricks."""
    rules = state.rules
    seats = rules.seats
    me = seats[obs.seat]
    lines = ["", f"hand {state.deals} · dealer {seats[obs.dealer]} · "
             + ", ".join(f"{team} {points}" for team, points in zip(rules.team_names, obs.totals, strict=True))]
    if obs.hand:
        lines.append(f"{me}'s hand: {hand_face(card_str(c) for c in obs.hand)}")
    for seat, cards in obs.open_hands:
        lines.append(f"{seats[seat]}'s hand, face up: {hand_face(card_str(c) for c in cards)}")
    if obs.calls:
        first = seats[obs.calls[0][0]]
        rows = seat_rows([(seats[s], call_face(rules.call_text(c))) for s, c in obs.calls],
                         seats, first, empty="")
        order = [seats[(seats.index(first) + k) % len(seats)] for k in range(len(seats))]
        lines.append("auction: " + "  ".join(f"{s:<7}" for s in order).rstrip())
        lines.extend("         " + "  ".join(f"{cell:<7}" for cell in row).rstrip() for row in rows)
    if obs.contract is not None and obs.phase != Phase.AUCTION:
        who = seats[obs.contractor] if obs.contractor >= 0 else "nobody"
        lines.append(f"contract: {call_face(obs.contract.call)} by {who}")
        if obs.discards:
            lines.append(f"your discards: {' '.join(card_face(card_str(c)) for c in obs.discards)}")
        if obs.nomination is not None:
            lines.append(f"the joker is nominated as {SUIT_SYMBOLS[obs.nomination]}")
        if obs.sitting:
            lines.append(f"sitting out: {', '.join(seats[s] for s in obs.sitting)}")
    for name, public in obs.steps.items():
        lines.append(f"{name}: {public}")
    if obs.tricks:
        leader, cards, winner, _ = obs.tricks[-1]
        lines.append(f"last trick: {_trick_line(state, leader, cards)} → {seats[winner]}")
    if obs.phase == Phase.PLAY:
        won = ", ".join(f"{seats[s]} {n}" for s, n in enumerate(obs.tricks_won))
        lines.append(f"trick {len(obs.tricks) + 1}: " + (_trick_line(state, obs.leader, obs.current_trick)
                                                        if obs.current_trick else "you lead") + f"  (won: {won})")
    return lines


def _trick_line(state: GameState, leader: int, cards: tuple[int, ...]) -> str:
    seats = state.rules.seats
    order, seat = [], leader
    for _ in cards:
        order.append(seat)
        seat = state.play_order[seat]
    return "  ".join(f"{seats[s]} {card_face(card_str(c))}" for s, c in zip(order, cards, strict=True))


def hand_result(state: GameState, log: Any) -> list[str]:
    """How a finished hand went, in public terms: the contract, the tricks, the score."""
    rules = state.rules
    seats, teams = rules.seats, rules.team_names
    if log.contract is None:
        return ["", f"hand {log.number}: everybody passed" if not log.misdeal else f"hand {log.number}: misdeal"]
    who = seats[log.contractor] if log.contractor >= 0 else "nobody"
    made = "made" if log.outcome is not None and log.outcome.made else "failed"
    return ["", f"hand {log.number}: {call_face(log.contract.call)} by {who} {made}; tricks "
            + ", ".join(f"{seats[s]} {n}" for s, n in enumerate(log.tricks_won)),
            "score: " + ", ".join(f"{t} {p}" for t, p in zip(teams, log.scores, strict=True))
            + " · totals: " + ", ".join(f"{t} {p}" for t, p in zip(teams, log.totals, strict=True))]


@dataclass
class TableGame:
    """A game played at the table: the final state, its record, where it was written."""

    state: GameState
    record: dict[str, Any]
    out: Path | None
    refusals: list[str]


def play_at_table(ruleset: Ruleset | str | Path, seat: str, *, bots: str = "heuristic", seed: int | str = 0,
                  read: Callable[[], str | None] | None = None, write: Callable[[str], None] | None = None,
                  out: str | Path | None = None, max_deals: int = MAX_DEALS) -> TableGame:
    """A person plays ``seat`` against ``bots`` (a player name) under ``ruleset``, reading each choice
    from ``read`` (a line, None at the end of the input; stdin by default) and showing the table through
    ``write``; the game is that of ``simulate``'s game 0 of ``seed``, with the person's choices at that
    seat.  With ``out``, the game record is written there (JSON Lines) once the game is over.  Raises
    ``FiveHundredError`` for an unknown seat or player, and ``InputEnded`` when the lines run out."""
    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    if seat not in rs.players.seats:
        raise FiveHundredError(f"--seat {seat}: not a seat of {rs.name} (seats: {', '.join(rs.players.seats)})")
    me = rs.players.seats.index(seat)
    read = read or _stdin_line
    write = write or _print
    state, rng = new_game(rs, f"{seed}:0")
    person = TablePlayer(me, read, write)
    _, players_rng = game_generators(f"{seed}:0")
    players = [person if s == me else make_player(bots, s, players_rng) for s in range(len(rs.players.seats))]
    write(f"{rs.name}: you are {seat}" + (f", partnered by {', '.join(_partners(rs, seat))}" if _partners(rs, seat)
                                          else "") + f"; the others are {bots} bots. '?' lists the legal choices.")
    state.play_out(players, rng, max_deals)
    person.news(state)
    if state.result is not None:
        write(f"{rs.players.teams[state.result.winner].name} wins: {state.result.reason}")
    else:
        write(f"the game was stopped after {state.deals} deals")
    names = [HUMAN if s == me else bots for s in range(len(rs.players.seats))]
    record = game_to_dict(state, seed=seed, game=0, players=names)
    target = None if out is None else Path(out)
    if target is not None:
        write_atomically(target, dumps(record) + "\n")
        write(f"the game is written to {target}")
    return TableGame(state, record, target, person.refusals)


def _partners(rs: Ruleset, seat: str) -> list[str]:
    team = next(t for t in rs.players.teams if seat in t.seats)
    return [s for s in team.seats if s != seat]


def _stdin_line() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


def _print(text: str) -> None:
    end = "" if text.endswith("> ") else "\n"
    sys.stdout.write("\n".join(printable(line) for line in text.split("\n")) + end)  # names from the ruleset
    sys.stdout.flush()


__all__ = ["HUMAN", "InputEnded", "TableGame", "TablePlayer", "play_at_table", "view"]
