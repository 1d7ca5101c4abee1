"""Helpers for the rules tests: concrete deals and hands played from text scripts.

A script is a whitespace-separated list of actions in the notation of ``GameState.parse_action``
(``7H``, ``pass``, ``misere``, ``AH``, ``JK:H``).  In the discard phase a bare card means
"discard it", in the nomination phase a bare suit letter (or ``none``) means "nominate it".
A ``|`` is ignored: it only separates tricks for the reader.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

import fivehundred
from fivehundred.engine.state import GameState, HandLog, Phase
from fivehundred.rules.cards import card_str, parse_cards
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.tables import Contract

RULESET = fivehundred.load_ruleset("pagat-australian")
RULES = compile_rules(RULESET)

N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1
SUIT_INDEX = {"S": 0, "C": 1, "D": 2, "H": 3}

# --- concrete deals (hands by seat N, E, S, W, then the kitty) ---------------------------------

SUITED = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H",
    "4D 4H JK",
)
"""Each player holds one whole suit.  In no-trumps whoever leads wins the trick (the others are
void), so North decides how many tricks each side takes: North wins every spade it leads, the
4♥ hands the lead to West for good, the 4♦ to South for good."""

WORKED = (
    "AH QH 10H 9H 8H 7H 6H AS KS QS",
    "JD 7D 6D JS 10S 9S 8S 7S 6S 5S",
    "KH JH 5H 4H AD KD QD 10D 9D 8D",
    "JK AC KC QC JC 10C 9C 8C 7C 6C",
    "5C 5D 4D",
)
"""The deal of docs/rules.md §8: in hearts, E's only trump is J♦ and W's only trump is the joker."""

WORKED_SCRIPT = """
    8H pass pass pass   5C 5D 4D
    AH JD KH JK  | AC QS 5S 8D | KC 6H 6S 9D  | AS 7S 10D QC | KS 8S QD JC
    QH 9S 4H 10C | 10H 10S 5H 9C | 9H JS JH 8C | AD 7C 7H 6D | 8H 7D KD 6C
"""
"""§8 played out: W wins tricks 1–2, N or S the other eight (S wins trick 8 with the right bower)."""

MISERE = (
    "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H",
    "AS KS QS AC KC QC AD KD QD AH",
    "8S 8C 8D 7D 6D QH JH 10H 9H 8H",
    "JS 10S 9S JC 10C 9C JD 10D 9D KH",
    "7H 6H JK",
)
"""North holds the lowest cards, East and West beat every one of them; the joker is in the kitty."""

MISERE_AUCTION = "6S 7S pass pass misere pass"
"""N 6♠, E 7♠, S and W pass, N misère over the 7-level bid, E passes: N plays misère."""

MISERE_CLEAN_PLAY = """
    5S AS 9S | KS 10S 6S | QS JS 7S | AC 9C 5C | KC 10C 6C
    QC JC 7C | AD 9D 4D  | KD 10D 5D | QD JD 4H | AH KH 5H
"""
"""After discarding 7♥ 6♥ JK: East wins all ten three-card tricks, North none."""

MISERE_W_JOKER = (MISERE[0], MISERE[1], MISERE[2], "JS 10S 9S JC 10C 9C JD 10D 9D JK", "7H 6H KH")
"""MISERE with the joker in West's hand (a defender) and the K♥ in the kitty."""

STRONG_NT = (
    "AS KS QS AC KC QC AH KH AD 4D",
    "JS 10S 9S JC 10C 9C QH JH KD 4H",
    "8S 7S 6S 8C 7C 6C 10H 9H QD JD",
    "5S 5C 8H 7H 6H 5H 10D 9D 8D 7D",
    "JK 5D 6D",
)
"""North holds the aces and kings and finds the joker in the kitty: for no-trump joker play."""

STRONG_NT_W_JOKER = (STRONG_NT[0], STRONG_NT[1], STRONG_NT[2], "5S 5C 8H 7H 6H 5H 10D 9D 8D JK", "7D 5D 6D")
"""STRONG_NT with the joker in West's hand (a defender) and the 7♦ in the kitty."""

TRUMPS = (
    "AD KD QD AS KS QS AC KC AH KH",
    "JD 9D 8D JS 10S 9S JC 10C 9C QH",
    "10D 7D 8S 7S 6S 8C 7C 6C JK 4H",
    "JH 10H 9H 8H 7H 6H 5H 5S 5C QC",
    "6D 5D 4D",
)
"""For following suit in hearts: E holds the left bower with two diamonds, S the joker and 4♥."""


# --- building and playing hands ----------------------------------------------------------------


FACELESS = (
    "AS 10S 9S 8S 7S 6S 5S AC 10C 9C",
    "KS QS JS KC QC JC 8C 7C 6C 5C",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H",
    "4D 4H JK",
)
"""North holds no jack, queen, king or joker (aces do not count); everybody else holds face cards (D4)."""


def cards(text: str) -> list[int]:
    return parse_cards(text)


def contract(call: str) -> Contract:
    return RULES.ladder[RULES.parse_call(call)]


def new_hand(deal: Sequence[str], *, dealer: int = W, totals: Sequence[int] | None = None,
             rules: object = RULES, **kwargs: object) -> GameState:
    """A game whose first hand is ``deal`` (four hands by seat, then the kitty)."""
    st = GameState(rules, first_dealer=dealer, **kwargs)  # type: ignore[arg-type]
    st.deal_cards([cards(h) for h in deal[:4]], cards(deal[4]))
    if totals is not None:
        st.totals = list(totals)
    return st


def to_action(st: GameState, token: str) -> int:
    if st.phase == Phase.DISCARD and not token.startswith("discard"):
        token = f"discard {token}"
    elif st.phase == Phase.NOMINATE and not token.startswith("nominate"):
        token = f"nominate {token}"
    elif st.current_step is not None and st.current_step.name == "pass-to-partner" and " " not in token:
        token = f"pass {token}"  # C1: the contractor's cards to the partner, written as discards are
    return st.parse_action(token)


def act(st: GameState, script: str) -> None:
    """Apply every action of ``script`` in turn, each checked by ``GameState.apply``."""
    for token in script.replace("|", " ").split():
        st.apply(to_action(st, token))


def names(text: str) -> set[str]:
    """The set of whitespace-separated words of ``text`` (card names, ranks)."""
    return set(text.split())


def legal(st: GameState) -> set[str]:
    """The legal actions of the player to act, as text."""
    return {st.action_to_str(a) for a in st.legal_actions()}


def log(st: GameState) -> HandLog:
    return st.hands_log[-1]


def trick(st: GameState, lead: str) -> None:
    """The player to act leads ``lead``; the others play their first legal card."""
    done = len(log(st).tricks)
    act(st, lead)
    while st.phase == Phase.PLAY and len(log(st).tricks) == done:
        st.apply(st.legal_actions()[0])


def tricks(st: GameState, leads: Iterable[str]) -> None:
    for lead in leads:
        trick(st, lead)


def finish(st: GameState) -> None:
    """Play the rest of the hand, every player playing their first legal action."""
    while st.phase == Phase.PLAY:
        st.apply(st.legal_actions()[0])


def rejects(st: GameState, token: str, rule: int) -> IllegalActionError:
    """``token`` is illegal now, and the error cites rule ``rule`` of docs/rules.md."""
    with pytest.raises(IllegalActionError) as caught:
        st.apply(to_action(st, token))
    assert caught.value.rule.startswith(f"rule {rule}:"), caught.value.rule
    return caught.value


def trick_cards(st: GameState, index: int) -> list[str]:
    """The cards of trick ``index`` of the current hand, in the order played."""
    return [card_str(c) for c in log(st).tricks[index].cards]


FIVE_DEAL = (
    "AS KS QS JS 10S 9S 8S 7S 6S 2H",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H",
    "4H 3H AC KC QC JC 10C 9C 8C 7C",
    "6C 5C 4C 3C 2C AD KD QD JD 10D",
    "9D 8D 7D 6D 5D 4D 3D 2D 3S 2S",
    "5S 4S JK",
)
"""A five-handed deal (hands A–E, then the kitty): A holds the spades, B the high hearts, C two low
hearts and the clubs; once A gives up the lead with the 2♥, B wins every trick left."""


SPLIT = (
    "AS KS QS JS 10S 9S 8S 7S 6S 4H",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "AH KH QH JH 10H 9H 8H 7H 6H 5S",
    "5H 4D JK",
)
"""Each holds one suit (N has a low heart, W a low spade): at no-trumps whoever leads a suit wins it."""
