"""Cards as small integers, with an exact text round trip.

A card is ``suit * 20 + rank`` for the four suits and ``80 + n`` for the n-th joker, so that
every rank table in the engine is a plain list indexed by card.  Ranks are the printed value for
2–13 (the 11, 12 and 13 of six-handed decks), then J=14, Q=15, K=16, A=17.
"""

from __future__ import annotations

from collections.abc import Iterable

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
SUITS = (SPADES, CLUBS, DIAMONDS, HEARTS)
SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
NO_SUIT = 4
"""The suit of a joker that belongs to no suit (and the bucket it lives in)."""

JACK, QUEEN, KING, ACE = 14, 15, 16, 17
RANK_TEXT = {**{r: str(r) for r in range(2, 14)}, JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
TEXT_RANK = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10}

JOKER_BASE = 80
MAX_CARD = 84
"""Every card id is below this: tables indexed by card have this length."""


def make_card(suit: int, rank: int) -> int:
    return suit * 20 + rank


def joker(n: int = 0) -> int:
    """The n-th joker; the first outranks the second where a deck has two."""
    return JOKER_BASE + n


def is_joker(card: int) -> bool:
    return card >= JOKER_BASE


def suit_of(card: int) -> int:
    """Printed suit, or NO_SUIT for a joker."""
    return NO_SUIT if card >= JOKER_BASE else card // 20


def rank_of(card: int) -> int:
    return card - JOKER_BASE if card >= JOKER_BASE else card % 20


def same_colour(suit: int) -> int:
    """The other suit of the same colour (♠↔♣, ♦↔♥)."""
    return suit ^ 1


def card_str(card: int) -> str:
    if card >= JOKER_BASE:
        return "JK" if card == JOKER_BASE else f"JK{card - JOKER_BASE + 1}"
    return RANK_TEXT[card % 20] + SUIT_LETTERS[card // 20]


def parse_suit(text: str) -> int:
    letter = text.strip().upper()
    if len(letter) == 1 and letter in SUIT_LETTERS:
        return SUIT_LETTERS.index(letter)
    if letter in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(letter)
    raise ValueError(f"not a suit: {text!r} (use S, C, D or H)")


def parse_rank(text: str) -> int:
    try:
        return TEXT_RANK[text.strip().upper()]
    except KeyError:
        raise ValueError(f"not a rank: {text!r}") from None


def parse_card(text: str) -> int:
    """``"AH"``, ``"10D"`` (or ``"TD"``), ``"JK"``, ``"JK2"`` → card id."""
    t = text.strip().upper()
    if t.startswith("JK"):
        digits = t[2:].isascii() and t[2:].isdigit() and len(t) < 6  # never ``JK٢``
        n = int(t[2:]) - 1 if digits else 0
        if (t[2:] and not digits) or not 0 <= n < MAX_CARD - JOKER_BASE:
            raise ValueError(f"not a card: {text!r}")
        return joker(n)
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r}")
    try:
        return make_card(parse_suit(t[-1]), parse_rank(t[:-1]))
    except ValueError:
        raise ValueError(f"not a card: {text!r}") from None


def cards_str(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return [parse_card(t) for t in items]


class Card(int):
    """A card as a value for users of the API; the engine itself stores plain ints."""

    __slots__ = ()

    @classmethod
    def from_str(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def suit(self) -> int:
        return suit_of(self)

    @property
    def rank(self) -> int:
        return rank_of(self)

    def __str__(self) -> str:
        return card_str(self)

    def __repr__(self) -> str:
        return f"Card.from_str({card_str(self)!r})"


# --- as a person reads them (``fivehundred show``) --------------------------------------------


def card_face(text: str) -> str:
    """A card as records write it, with its suit symbol: ``AH`` → ``A♥``, ``10D`` → ``10♦``, ``JK:H`` → ``JK(♥)``."""
    card, _, named = text.partition(":")
    if card.startswith("JK"):
        return card + (f"({SUIT_SYMBOLS[SUIT_LETTERS.index(named)]})" if named else "")
    return card[:-1] + SUIT_SYMBOLS[SUIT_LETTERS.index(card[-1])]


def call_face(call: str) -> str:
    """A call with its suit symbol: ``7H`` → ``7♥``; ``pass``, ``misere``, ``8NT`` as they are."""
    if call[-1:] in SUIT_LETTERS and call[:-1].isdigit():
        return call[:-1] + SUIT_SYMBOLS[SUIT_LETTERS.index(call[-1])]
    return call


def faces(text: str) -> str:
    """``text`` with each word that is a card or a call, as records write them, given its suit symbol:
    ``call JH`` → ``call J♥``, ``blind 6S`` → ``blind 6♠``; other words as they are."""
    return " ".join(_word_face(word) for word in text.split(" "))


def _word_face(word: str) -> str:
    card, _, named = word.partition(":")
    try:
        is_card = card_str(parse_card(card)) == card and named in ("", *SUIT_LETTERS)
    except ValueError:
        is_card = False
    return card_face(word) if is_card else call_face(word)
