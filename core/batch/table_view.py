"""What the table shows a person (``fivehundred play``): the seat's view, a finished hand, the faces.

Cards and calls are shown with their suit symbols (``7♥``, ``6♦``, ``JK(♠)``) wherever they appear, the
legal choices and ``?`` included; ``ascii_text`` turns a shown line into plain ASCII (``7H``) for a
terminal that cannot show the symbols (``--ascii``, or a stdout whose encoding lacks them).

Tricks are counted by side against the contract: the contracting side (the contractor and its partners,
or a called partner once the called card is played) and the opponents, with the tricks the contract
needs (``contractor side N·S 6 of 8 needed · opponents E·W 2``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from fivehundred.engine.state import GameState, Observation, Phase
from fivehundred.records.ptn import seat_rows
from fivehundred.records.show import hand_face
from fivehundred.rules.cards import SUIT_LETTERS, SUIT_SYMBOLS, call_face, card_face, card_str, faces
from fivehundred.rules.tables import Contract

ASCII = str.maketrans({"♠": "S", "♣": "C", "♦": "D", "♥": "H", "—": "-", "→": "->", "·": "|", "…": "...",
                       "è": "e", "–": "-"})
"""What ``ascii_text`` replaces: the suit symbols by their letters, and the few other signs the table uses."""

SIGNS = "♠♣♦♥—→·è–"


def ascii_text(text: str) -> str:
    """``text`` with the table's symbols in ASCII: ``7♥`` → ``7H``, ``♠ A 10`` → ``S A 10``."""
    return text.translate(ASCII)


def shows_symbols(encoding: str | None) -> bool:
    """Whether a stream of this encoding can show the suit symbols (and the table's other signs)."""
    if not encoding:
        return False
    try:
        SIGNS.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


_CARD = re.compile(r"(\b(?:10|[2-9AKQJ])|\()([SCDH])\b")


def with_symbols(text: str) -> str:
    """The cards, calls and suits of a sentence (an engine's message) with their suit symbols: ``9C`` → ``9♣``,
    ``(D)`` → ``(♦)``."""
    return _CARD.sub(lambda m: m.group(1) + SUIT_SYMBOLS[SUIT_LETTERS.index(m.group(2))], text)


def face(state: GameState, action: int) -> str:
    """An action as the table shows it: its cards and calls with their suit symbols."""
    return faces(state.action_to_str(action))


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
        lines.extend(_auction(state, obs))
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
        lines.append(f"{name}: {faces(str(public)) if isinstance(public, str) else public}")
    if obs.tricks:
        leader, cards, winner, named = obs.tricks[-1]
        lines.append(f"last trick: {trick_line(state, leader, cards, named)} → {seats[winner]}")
    if obs.phase == Phase.PLAY:
        now = trick_line(state, obs.leader, obs.current_trick) if obs.current_trick else "you lead"
        lines.append(f"trick {len(obs.tricks) + 1}: {now}")
        if obs.contract is not None and obs.contractor >= 0:
            lines.append("tricks: " + by_side(state, obs.contract, _side(state, obs), obs.tricks_won))
        else:
            lines.append("tricks: " + ", ".join(f"{seats[s]} {n}" for s, n in enumerate(obs.tricks_won)))
    return lines


def _auction(state: GameState, obs: Observation) -> list[str]:
    rules = state.rules
    seats = rules.seats
    first = seats[obs.calls[0][0]]
    rows = seat_rows([(seats[s], call_face(rules.call_text(c))) for s, c in obs.calls], seats, first, empty="")
    order = [seats[(seats.index(first) + k) % len(seats)] for k in range(len(seats))]
    return ["auction: " + "  ".join(f"{s:<7}" for s in order).rstrip(),
            *("         " + "  ".join(f"{cell:<7}" for cell in row).rstrip() for row in rows)]


def _side(state: GameState, obs: Observation) -> frozenset[int]:
    """The contracting side as ``obs.seat`` may know it: the contractor's team, or with a called partner the
    contractor and the partner once known (the called card played, or held by the seat itself)."""
    rules = state.rules
    if rules.ruleset.players.partnership != "called-card":
        return frozenset(s for s in range(rules.players) if rules.team_of[s] == rules.team_of[obs.contractor])
    side = {obs.contractor}
    called = obs.steps.get("partner-call")
    card = None if called is None or called == -1 else called
    if isinstance(card, int) and card in obs.hand:
        side.add(obs.seat)
    for leader, cards, _, _ in obs.tricks:
        side.update(seat for seat, c in _seated(state, leader, cards) if c == card)
    side.update(seat for seat, c in _seated(state, obs.leader, obs.current_trick) if c == card)
    return frozenset(side)


def by_side(state: GameState, contract: Contract, side: Iterable[int], tricks_won: Iterable[int]) -> str:
    """Tricks by side against the contract: ``contractor side N·S 6 of 8 needed · opponents E·W 2``."""
    seats = state.rules.seats
    side = set(side)
    won = list(tricks_won)
    ours = sum(n for s, n in enumerate(won) if s in side)
    theirs = sum(n for s, n in enumerate(won) if s not in side)
    name = "contractor" if len(side) == 1 else "contractor side"
    who = "·".join(seats[s] for s in sorted(side))
    others = "·".join(seats[s] for s in range(len(won)) if s not in side)
    if contract.goal == "none":
        goal = f"{ours} (misère: none allowed)"
    elif contract.goal == "exactly":
        goal = f"{ours} of exactly {contract.tricks} needed"
    else:
        goal = f"{ours} of {contract.tricks} needed"
    return f"{name} {who} {goal} · opponents {others} {theirs}"


def trick_line(state: GameState, leader: int, cards: Iterable[int], named: int | None = None) -> str:
    """A trick's cards by seat, from its leader: ``N 7♠  E 8♠  S J♠``."""
    seats = state.rules.seats
    shown = []
    for k, (seat, card) in enumerate(_seated(state, leader, cards)):
        text = card_str(card)
        if k == 0 and named is not None and text.startswith("JK"):
            text += ":" + SUIT_LETTERS[named]
        shown.append(f"{seats[seat]} {card_face(text)}")
    return "  ".join(shown)


def _seated(state: GameState, leader: int, cards: Iterable[int]) -> list[tuple[int, int]]:
    order, seat = [], leader
    for card in cards:
        order.append((seat, card))
        seat = state.play_order[seat]
    return order


def hand_result(state: GameState, log: Any) -> list[str]:
    """How a finished hand went, in public terms: its last trick, the tricks by side, the score."""
    rules = state.rules
    seats, teams = rules.seats, rules.team_names
    if log.contract is None:
        return ["", f"hand {log.number}: everybody passed" if not log.misdeal else f"hand {log.number}: misdeal"]
    lines = [""]
    if log.tricks:
        last = log.tricks[-1]
        lines.append(f"last trick: {trick_line(state, last.leader, last.cards, last.named)} → {seats[last.winner]}")
    who = seats[log.contractor] if log.contractor >= 0 else "nobody"
    outcome = log.outcome
    made = "made" if outcome is not None and outcome.made else "failed"
    side = outcome.side if outcome is not None else ()
    tricks = by_side(state, log.contract, side, log.tricks_won) if log.contractor >= 0 else (
        "tricks " + ", ".join(f"{seats[s]} {n}" for s, n in enumerate(log.tricks_won)))
    lines.append(f"hand {log.number}: {call_face(log.contract.call)} by {who} {made}; {tricks}")
    lines.append("score: " + ", ".join(f"{t} {p}" for t, p in zip(teams, log.scores, strict=True))
                 + " · totals: " + ", ".join(f"{t} {p}" for t, p in zip(teams, log.totals, strict=True)))
    return lines


__all__ = ["ascii_text", "by_side", "face", "hand_result", "shows_symbols", "trick_line", "view", "with_symbols"]
