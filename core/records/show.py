"""A game record as a person reads a game: ``show_records`` (``fivehundred show``).

Each hand: the deal by seat with suit symbols, the kitty, the auction in rounds, the contract, the
discards and the nomination, each trick with its leader and winner, the tricks each seat won and
the score after the hand.  It reads the record alone (seats, teams and values are all in it), so a
record imported from PTN reads the same as a simulated one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from fivehundred.rules.cards import (
    RANK_TEXT,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    card_str,
    is_joker,
    parse_card,
    rank_of,
    suit_of,
)
from fivehundred.rules.errors import RecordError

from .ptn import clockwise, seat_rows
from .reading import records_in

SUIT_ORDER = (0, 3, 1, 2)
"""Suits as a hand is shown: ♠ ♥ ♣ ♦, the colours alternating."""


def card_face(text: str) -> str:
    """``AH`` → ``A♥``, ``10D`` → ``10♦``, ``JK:H`` → ``JK(♥)``."""
    card, _, named = text.partition(":")
    if card.startswith("JK"):
        return card + (f"({SUIT_SYMBOLS[SUIT_LETTERS.index(named)]})" if named else "")
    return card[:-1] + SUIT_SYMBOLS[SUIT_LETTERS.index(card[-1])]


def call_face(call: str) -> str:
    """``7H`` → ``7♥``; ``pass``, ``misere``, ``8NT`` as they are."""
    if call[-1:] in SUIT_LETTERS and call[:-1].isdigit():
        return call[:-1] + SUIT_SYMBOLS[SUIT_LETTERS.index(call[-1])]
    return call


def hand_face(cards: Iterable[str]) -> str:
    """A hand by suit, high to low: ``♠ A 10 7  ♥ K 4  ♣ —  ♦ Q 9  JK``."""
    held = [parse_card(c) for c in cards]
    parts = []
    for suit in SUIT_ORDER:
        ranks = sorted((c for c in held if not is_joker(c) and suit_of(c) == suit), key=rank_of, reverse=True)
        parts.append(SUIT_SYMBOLS[suit] + " " + (" ".join(RANK_TEXT[rank_of(c)] for c in ranks) or "—"))
    jokers = [c for c in held if is_joker(c)]
    if jokers:
        parts.append(" ".join(card_str(c) for c in sorted(jokers)))
    return "  ".join(parts)


def _by_team(values: dict[str, Any]) -> str:
    return ", ".join(f"{team} {points}" for team, points in values.items())


def show_hand(h: dict[str, Any], totals_before: dict[str, int] | None = None) -> Iterator[str]:
    """The lines of one hand of a record."""
    seats = list(h["hands"])
    yield f"Hand {h['number']} · dealer {h['dealer']}" + (
        f" · totals before: {_by_team(totals_before)}" if totals_before else "")
    width = max(len(s) for s in seats)
    for seat in seats:
        yield f"  {seat:<{width}}  {hand_face(h['hands'][seat])}"
    yield f"  kitty: {' '.join(card_face(c) for c in h['kitty'])}" if h["kitty"] else "  no kitty"
    if h.get("dead"):
        yield f"  dead hand: {' '.join(card_face(c) for c in h['dead'])}"
    yield from _auction(h, seats)
    if h.get("misdeal"):
        yield "  misdeal: the same dealer deals again"
        return
    contract = h.get("contract")
    if contract is None:
        if "unfinished" not in h:
            yield "  everybody passed: nothing is scored (rule 13)"
    else:
        who = contract.get("contractor")
        yield f"  contract: {call_face(contract['call'])}" + (f" by {who}" if who else " (nobody bid)") + \
            f", worth {contract['value']}"
        if h.get("passed"):
            yield f"  {who} passes {' '.join(card_face(c) for c in h['passed'])} to the partner"
        if h.get("discards"):
            yield f"  {who} takes the kitty and discards {' '.join(card_face(c) for c in h['discards'])}"
        if h.get("nomination") is not None:
            symbol = SUIT_SYMBOLS[SUIT_LETTERS.index(h["nomination"])]
            yield f"  {who} nominates the joker as {symbol}"
        yield from _extras(h)
        yield from _tricks(h, seats)
    unfinished = h.get("unfinished")
    if unfinished is not None:
        yield f"  the record stops here: {unfinished['stops']}"
        return
    if h.get("tricks_won") and contract is not None:
        yield "  tricks won: " + ", ".join(f"{seat} {n}" for seat, n in h["tricks_won"].items())
    outcome = h.get("outcome")
    if outcome is not None and outcome.get("made") is not None and contract is not None:
        yield f"  {'-'.join(outcome['side'])} {'made' if outcome['made'] else 'failed'} {call_face(contract['call'])}"
    if h.get("scores"):
        yield f"  score: {_by_team(h['scores'])} · totals: {_by_team(h['totals'])}"


def _auction(h: dict[str, Any], seats: list[str]) -> Iterator[str]:
    calls = h.get("calls") or []
    if not calls:
        return
    first = calls[0]["seat"]
    order = clockwise(seats, first)
    rows = seat_rows([(c["seat"], call_face(c["call"])) for c in calls], seats, first, empty="")
    width = max(6, *(len(cell) + 2 for row in rows for cell in row))
    yield "  auction:  " + "".join(f"{s:<{width}}" for s in order).rstrip()
    for number, row in enumerate(rows, 1):
        yield f"  round {number:<2}  " + "".join(f"{cell:<{width}}" for cell in row).rstrip()


def _extras(h: dict[str, Any]) -> Iterator[str]:
    """What a ruleset's steps recorded (a called partner, a declaration…), as recorded."""
    known = {"number", "dealer", "hands", "kitty", "dead", "misdeal", "calls", "contract", "discards", "passed",
             "nomination", "tricks", "outcome", "tricks_won", "scores", "totals", "unfinished", "claim"}
    for key, value in h.items():
        if key not in known and value not in (None, [], {}):
            yield f"  {key.replace('_', ' ')}: {value}"
    claim = h.get("claim")
    if claim is not None:
        verdict = "upheld" if claim.get("upheld") else "wrong"
        yield f"  {claim.get('seat')} claims the rest after {claim.get('after_tricks')} tricks: {verdict}"


def _tricks(h: dict[str, Any], seats: list[str]) -> Iterator[str]:
    tricks = list(h.get("tricks") or [])
    partial = (h.get("unfinished") or {}).get("trick")
    contract = h.get("contract") or {}
    contractor = contract.get("contractor")
    side = (h.get("outcome") or {}).get("side") or []
    sitting = set()
    if tricks and len(tricks[0]["cards"]) < len(seats) and contractor is not None:
        sitting = {s for s in side if s != contractor}
    if sitting:
        yield f"  {', '.join(sorted(sitting))} sits the hand out"
    for number, trick in enumerate([*tricks, *([partial] if partial else [])], 1):
        order = [s for s in clockwise(seats, trick["leader"]) if s not in sitting]
        cards = "  ".join(f"{seat} {card_face(card):<4}" for seat, card in zip(order, trick["cards"], strict=False))
        won = f"→ {trick['winner']}" if "winner" in trick else "…"
        yield f"  trick {number:<2}  {cards}  {won}"


def show_game(record: dict[str, Any], *, hand: int | None = None, title: str = "") -> Iterator[str]:
    """The lines of one game record (only hand number ``hand`` when given)."""
    meta = record.get("ruleset") or {}
    about = [f"ruleset {meta.get('name')}"]
    if record.get("seed") is not None:
        about.append(f"seed {record['seed']}" + (f", game {record['game']}" if record.get("game") is not None else ""))
    players = record.get("players")
    if players:
        about.append("players " + ", ".join(f"{seat} {name}" for seat, name in players.items()))
    yield (title + " · " if title else "") + " · ".join(about)
    start = record.get("start") or {}
    totals = dict(start.get("totals") or {})
    if start:
        where = ", ".join(f"{k} {v}" for k, v in (("hand", start.get("number")),) if v)
        yield f"starts at {_by_team(totals) or 'the beginning'}" + (f" ({where})" if where else "")
    hands = record["hands"]
    if hand is not None and not any(h.get("number") == hand for h in hands):
        numbers = [h.get("number") for h in hands]
        raise RecordError(f"{title or 'the record'}: no hand {hand} (hands {numbers[0]}–{numbers[-1]})" if numbers
                          else f"{title or 'the record'}: no hand {hand}: the record holds no hand")
    for h in hands:
        if hand is None or h.get("number") == hand:
            yield ""
            yield from show_hand(h, totals or None)
        if h.get("totals"):
            totals = dict(h["totals"])
    result = record.get("result")
    if hand is None:
        yield ""
        if result is not None:
            yield f"{result['winner']} wins: {result['reason']} · final totals: {_by_team(result['totals'])}"
        else:
            yield "the game is not over" + (f" · totals: {_by_team(totals)}" if totals else "")


def show_records(paths: Iterable[str | Path], *, game: int | None = None, hand: int | None = None) -> str:
    """The games of record files as text; ``game`` (from 1, in file order) picks one, ``hand`` one of its
    hands by number.  Raises ``RecordError`` naming ``file:line`` for a line that is not a record."""
    lines: list[str] = []
    index = 0
    for _, source, record in records_in(paths):
        index += 1
        if game is not None and index != game:
            continue
        try:
            if lines:
                lines.append("")
            lines.extend(show_game(record, hand=hand, title=f"game {index} ({source})"))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"{source}: not a game record: missing or wrong field {e}") from None
    if game is not None and index < game:
        raise RecordError(f"no game {game}: {'the files hold ' + str(index) if index else 'no game in the files'}")
    return "\n".join(lines) + "\n"
