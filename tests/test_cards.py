"""Cards: exact text round trips (``"10H"``, ``"TD"``, ``"JK"``) and the ``Card`` value type."""

from __future__ import annotations

import pytest

import fivehundred
from fivehundred.rules.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    JOKER_BASE,
    KING,
    MAX_CARD,
    NO_SUIT,
    QUEEN,
    SPADES,
    SUITS,
    Card,
    card_str,
    cards_str,
    joker,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)

ALL_SUIT_CARDS = [make_card(s, r) for s in SUITS for r in range(2, ACE + 1)]
ALL_JOKERS = list(range(JOKER_BASE, MAX_CARD))


@pytest.fixture(scope="module")
def reference_deck() -> tuple[int, ...]:
    from fivehundred.rules.manager import compile_rules

    return compile_rules(fivehundred.load_ruleset("pagat-australian")).deck


def test_public_api_exports_the_card_functions() -> None:
    assert fivehundred.parse_card is parse_card
    assert fivehundred.card_str is card_str
    assert fivehundred.Card is Card


def test_reference_deck_round_trips(reference_deck: tuple[int, ...]) -> None:
    assert len(reference_deck) == 43
    assert len(set(reference_deck)) == 43
    for card in reference_deck:
        text = card_str(card)
        assert parse_card(text) == card, text
        assert card_str(parse_card(text)) == text


@pytest.mark.parametrize("card", ALL_SUIT_CARDS + ALL_JOKERS, ids=card_str)
def test_every_possible_card_round_trips(card: int) -> None:
    assert parse_card(card_str(card)) == card
    assert parse_card(card_str(card).lower()) == card


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("AH", make_card(HEARTS, ACE)),
        ("KS", make_card(SPADES, KING)),
        ("QC", make_card(CLUBS, QUEEN)),
        ("JD", make_card(DIAMONDS, JACK)),
        ("10D", make_card(DIAMONDS, 10)),
        ("TD", make_card(DIAMONDS, 10)),
        ("td", make_card(DIAMONDS, 10)),
        ("4H", make_card(HEARTS, 4)),
        ("11S", make_card(SPADES, 11)),  # six-handed decks have 11s, 12s and 13s
        ("13C", make_card(CLUBS, 13)),
        (" 5C ", make_card(CLUBS, 5)),
        ("A♥", make_card(HEARTS, ACE)),
        ("10♠", make_card(SPADES, 10)),
        ("JK", JOKER_BASE),
        ("jk", JOKER_BASE),
        ("JK1", JOKER_BASE),
        ("JK2", JOKER_BASE + 1),
    ],
)
def test_parse_card(text: str, card: int) -> None:
    assert parse_card(text) == card


def test_ten_prints_as_10_never_t() -> None:
    assert card_str(parse_card("TD")) == "10D"
    assert card_str(parse_card("10D")) == "10D"


def test_first_joker_prints_as_jk_and_others_are_numbered() -> None:
    assert card_str(joker(0)) == "JK"
    assert card_str(joker(1)) == "JK2"
    assert [card_str(j) for j in ALL_JOKERS] == ["JK", "JK2", "JK3", "JK4"]


def test_suit_and_rank_of() -> None:
    jack_of_hearts = parse_card("JH")
    assert suit_of(jack_of_hearts) == HEARTS
    assert rank_of(jack_of_hearts) == JACK
    assert suit_of(parse_card("JK")) == NO_SUIT


@pytest.mark.parametrize(
    "text",
    ["", " ", "A", "H", "10", "1H", "AX", "AHH", "0S", "14S", "ZZ", "JK0", "JK5", "JKX", "JK2X", "J K",
     "♥A", "AH,KH"],
)
def test_bad_card_text_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_cards_str_and_parse_cards_round_trip() -> None:
    cards = [parse_card(t) for t in ("AH", "10D", "JK", "5C")]
    assert cards_str(cards) == "AH 10D JK 5C"
    assert parse_cards("AH 10D JK 5C") == cards
    assert parse_cards("AH,10D, JK,5C") == cards
    assert parse_cards(["AH", "TD", "JK", "5C"]) == cards


class TestCard:
    def test_from_str_is_the_card_id(self) -> None:
        card = Card.from_str("10D")
        assert isinstance(card, int)
        assert card == parse_card("10D")
        assert card == Card.from_str("TD")

    @pytest.mark.parametrize("text", ["AH", "10D", "4H", "JS", "JK", "JK2"])
    def test_str_and_repr(self, text: str) -> None:
        card = Card.from_str(text)
        assert str(card) == text
        assert repr(card) == f"Card.from_str({text!r})"
        assert eval(repr(card), {"Card": Card}) == card  # constructor-form repr

    def test_tn_normalises_to_10(self) -> None:
        assert str(Card.from_str("TH")) == "10H"
        assert repr(Card.from_str("th")) == "Card.from_str('10H')"

    def test_suit_and_rank(self) -> None:
        card = Card.from_str("QS")
        assert (card.suit, card.rank) == (SPADES, QUEEN)
        assert Card.from_str("JK").suit == NO_SUIT

    def test_bad_text_raises_value_error(self) -> None:
        with pytest.raises(ValueError):
            Card.from_str("1Z")

    def test_cards_sort_and_hash_as_ints(self) -> None:
        cards = {Card.from_str("AH"), Card.from_str("AH"), Card.from_str("KH")}
        assert len(cards) == 2
        assert sorted(cards) == [Card.from_str("KH"), Card.from_str("AH")]
