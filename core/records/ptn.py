"""PTN, the text records of Trickster Cards (a PBN-like format): reading and writing the text.

Line based: blank lines and lines starting with ``%`` are ignored; a tag line is ``[Name "value"]``,
the value being everything between the first and the last ``"`` with backslash escapes undone (so
both the newer, escaped exports and the older, unescaped ones read); lines that are not tags are the
data of the tag before them (only ``Auction`` and ``Play`` have any); each ``[Event …]`` starts a
record.  A tag line without its closing quote is where an export was cut short: the record stops
there.  Cards are suit first (``HA``, ``CT``); the jokers are ``JH`` (the high or only one) and ``JL``.
What the tags mean for Five Hundred is ``fivehundred.records.ptn_import``'s business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from fivehundred.rules.cards import (
    JOKER_BASE,
    RANK_TEXT,
    SUIT_LETTERS,
    is_joker,
    joker,
    make_card,
    parse_rank,
    parse_suit,
    rank_of,
    suit_of,
)
from fivehundred.rules.errors import RecordError
from fivehundred.rules.printable import printable

BANNER = "% PTN " + "-" * 27
HAND_SUITS = "SHDC"
"""The order of the suits in a PTN hand (``spades.hearts.diamonds.clubs``), then the jokers."""
JOKER_LETTERS = "HL"
"""PTN's jokers: the high (or only) one, then the low one."""
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
LETTER_SYMBOLS = {letter: symbol for symbol, letter in SYMBOLS.items()}


@dataclass
class Tag:
    """One tag of a record, with the line it is on and the data lines that follow it."""

    name: str
    value: str
    line: int
    data: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class PtnRecord:
    """The tags of one record, by name, as read from ``source`` (its ``[Event]`` at ``line``)."""

    source: str
    line: int
    tags: dict[str, Tag] = field(default_factory=dict)
    cut: str | None = None
    """Where the text stops (a tag line cut short), as ``file:line: what``; None for a whole record."""

    def value(self, name: str) -> str | None:
        tag = self.tags.get(name)
        return None if tag is None else tag.value

    def where(self, name: str) -> str:
        """``file:line`` of a tag (of the record when the tag is missing)."""
        tag = self.tags.get(name)
        return f"{self.source}:{self.line if tag is None else tag.line}"


_TAG = re.compile(r"\[(\S+)")


def read_ptn(text: str, source: str = "<ptn>") -> list[PtnRecord]:
    """Every record of a PTN text; raises ``RecordError`` naming ``source:line`` for text that is not PTN."""
    records: list[PtnRecord] = []
    record: PtnRecord | None = None
    tag: Tag | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("["):
            match = _TAG.match(line)
            name = match.group(1).rstrip("]") if match else ""
            if name == "Event" or record is None:
                record = PtnRecord(source, number)
                records.append(record)
            if record.cut is not None:
                continue
            first, last = line.find('"'), line.rfind('"')
            if not name or first == last:
                record.cut = f"{source}:{number}: the tag line {line!r} is cut short"
                tag = None
                continue
            tag = Tag(name, unescape(line[first + 1:last]), number)
            record.tags[name] = tag
        elif record is None or (tag is None and record.cut is None):
            raise RecordError(f"{source}:{number}: not PTN: {line!r} comes before any tag")
        elif tag is not None:
            tag.data.append((number, line))
    return records


def tag_line(name: str, value: str) -> str:
    """``[Name "value"]``, the value escaped so that ``read_ptn`` reads it back as it was: a backslash and a
    quote preceded by a backslash (as PGN and Trickster Cards escape them), and what would act on a terminal
    or break the line (ESC, CR, LF …) written as ``printable`` writes it (``\\x1b``, ``\\r``, ``\\n``)."""
    escaped = printable(value.replace("\\", "\\\\")).replace('"', '\\"')
    return f'[{name} "{escaped}"]'


_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)")
_NAMED = {"n": "\n", "r": "\r", "t": "\t"}


def unescape(text: str) -> str:
    """A tag's value with its backslash escapes undone: ``\\"`` and ``\\\\`` as PGN writes them, and the
    escapes of ``printable`` (``\\x1b``, ``\\u202e``, ``\\n``, ``\\r``, ``\\t``); any other ``\\c`` is ``c``."""
    return _ESCAPE.sub(_undo, text)


def _undo(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) > 1:
        return chr(int(code[1:], 16))
    return _NAMED.get(code, code)


# --- cards ---------------------------------------------------------------------------------


def card_text(card: int) -> str:
    """A card as PTN writes it, suit first: ``HA``, ``CT``, ``JH`` (the joker), ``JL`` (the second)."""
    if is_joker(card):
        n = card - JOKER_BASE
        if n >= len(JOKER_LETTERS):
            raise ValueError("PTN has only two jokers")
        return "J" + JOKER_LETTERS[n]
    return SUIT_LETTERS[suit_of(card)] + _rank_letter(rank_of(card))


def _rank_letter(rank: int) -> str:
    text = "T" if rank == 10 else RANK_TEXT[rank]
    if len(text) != 1:
        raise ValueError(f"PTN has no letter for the rank {text}")
    return text


def parse_card_text(text: str) -> tuple[int, int | None]:
    """A PTN card and the suit named with it (``JH:S``, an extension of this project), or None."""
    t = text.strip().upper()
    named = None
    if ":" in t:
        t, suit = t.split(":", 1)
        named = parse_suit(suit)
    if len(t) != 2:
        raise ValueError(f"not a PTN card: {text!r} (suit first, e.g. HA, CT, JH)")
    if t[0] == "J" and t[1] in JOKER_LETTERS:
        return joker(JOKER_LETTERS.index(t[1])), named
    try:
        return make_card(parse_suit(t[0]), parse_rank(t[1])), named
    except ValueError:
        raise ValueError(f"not a PTN card: {text!r} (suit first, e.g. HA, CT, JH)") from None


def parse_cards_text(text: str) -> list[int]:
    """Cards written one after another, suit first: ``C8HQS5``."""
    t = text.strip()
    if len(t) % 2:
        raise ValueError(f"not a list of PTN cards: {text!r}")
    return [parse_card_text(t[i:i + 2])[0] for i in range(0, len(t), 2)]


def hand_text(cards: Iterable[int], ranks: Mapping[int, Sequence[int]]) -> str:
    """A hand as ``spades.hearts.diamonds.clubs`` (``.HL`` for jokers), high to low by ``ranks``."""
    held = set(cards)
    parts = []
    for letter in HAND_SUITS:
        suit = SUIT_LETTERS.index(letter)
        parts.append("".join(_rank_letter(r) for r in ranks.get(suit, ()) if make_card(suit, r) in held))
    jokers = "".join(JOKER_LETTERS[c - JOKER_BASE] for c in sorted(held) if is_joker(c))
    return ".".join([*parts, jokers] if jokers else parts)


def parse_hand_text(text: str) -> list[int] | None:
    """A hand ``spades.hearts.diamonds.clubs[.jokers]``; None for ``-`` (unknown)."""
    if text.strip() == "-":
        return None
    parts = text.strip().split(".")
    if len(parts) not in (4, 5):
        raise ValueError(f"not a PTN hand: {text!r} (spades.hearts.diamonds.clubs, with .H for the joker)")
    cards = [make_card(parse_suit(letter), parse_rank(r)) for letter, ranks in zip(HAND_SUITS, parts, strict=False)
             for r in ranks]
    if len(parts) == 5:
        for letter in parts[4]:
            if letter not in JOKER_LETTERS:
                raise ValueError(f"not a PTN hand: {text!r}: the jokers are H and L")
            cards.append(joker(JOKER_LETTERS.index(letter)))
    return cards


def seat_list(value: str, seats: Sequence[str]) -> tuple[str, list[str]]:
    """``"X:a b c d"`` → (X, [a, b, c, d]), checked against the seats."""
    start, colon, rest = value.partition(":")
    if not colon or start not in seats:
        raise ValueError(f"{value!r} does not start with a seat ({', '.join(seats)}) and a colon")
    return start, rest.split()


def call_text(call: str) -> str:
    """A call of the ladder as PTN writes it: ``7♦``, ``8NT``, ``Pass``; a named contract as named."""
    if call == "pass":
        return "Pass"
    if call[-1:] in LETTER_SYMBOLS and call[:-1].isdigit():
        return call[:-1] + LETTER_SYMBOLS[call[-1]]
    return call


def plain_call(text: str) -> str:
    """A PTN call in this project's words: ``7♦`` → ``7D``, ``Pass`` → ``pass``."""
    t = text.strip()
    if t[-1:] in SYMBOLS:
        t = t[:-1] + SYMBOLS[t[-1]]
    return "pass" if t.lower() == "pass" else t


PTN_SEATS = {3: ("S", "W", "E"), 4: ("S", "W", "N", "E"), 5: ("S", "SW", "NW", "NE", "SE"),
             6: ("S", "SW", "NW", "N", "NE", "SE")}
"""PTN's seats, clockwise, by the number of players."""


def ptn_seats(seats: Sequence[str]) -> tuple[str, ...] | None:
    """PTN's names for a ruleset's seats, in the same order: the seats themselves when they are PTN's
    four (N, E, S, W clockwise), else PTN's seats for that many players from S; None when PTN has none."""
    names = PTN_SEATS.get(len(seats))
    if names is None:
        return None
    if len(seats) == 4 and set(seats) == set(names):
        start = names.index(seats[0])
        if tuple(seats) == names[start:] + names[:start]:
            return tuple(seats)
    return names


PLAYER_TAGS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def player_tag(seat: str) -> str:
    """The tag of a seat's player name: ``West`` for W; a seat's own name for the others (SW, NE…)."""
    return PLAYER_TAGS.get(seat, seat)


def clockwise(seats: Sequence[str], first: str) -> list[str]:
    """The seats in clockwise order from ``first``."""
    i = seats.index(first)
    return [seats[(i + k) % len(seats)] for k in range(len(seats))]


def seat_rows(plays: Iterable[tuple[str, str]], seats: Sequence[str], first: str, empty: str = "-") -> list[list[str]]:
    """Calls (or cards) as rows of seat columns from ``first``, as PTN's ``Auction`` lays them out: a new
    row when a seat comes round again; ``empty`` where a seat has nothing."""
    order = clockwise(seats, first)
    rows: list[list[str]] = []
    for seat, text in plays:
        column = order.index(seat)
        if not rows or rows[-1][column] != empty or any(c != empty for c in rows[-1][column + 1:]):
            rows.append([empty] * len(order))
        rows[-1][column] = text
    return rows
