"""`club`'s card play beside a hand laid out on the table (P2, two-handed 500: each live player also plays a dummy
whose face-up cards every seat sees, and which can play only those).

Each position is a whole deal of the shipped two-handed ruleset (N and E live, S and W their dummies: a dummy's
first five cards lie face down under its last five), bid and exchanged by script; `club` then decides, beside the
same player with the rule off (what `club` played before December 2026).
"""

from __future__ import annotations

import random

from helpers import act, legal, new_hand

import fivehundred
from fivehundred.bots.club import ClubPlayer
from fivehundred.engine.state import GameState, new_game
from fivehundred.rules.cards import card_str
from fivehundred.rules.manager import compile_rules

TWO_HANDED = compile_rules(fivehundred.load_ruleset("two-handed"))


def dealt(north: str, east: str, south: str, west: str, kitty: str, contract: str, discards: str) -> GameState:
    """N contracts ``contract`` (E passes) and throws ``discards``; the dummies S and W are laid out as dealt."""
    st = new_hand([north, east, south, west, kitty], rules=TWO_HANDED)
    act(st, f"{contract} pass")
    act(st, discards)
    return st


def decide(st: GameState, **off: bool) -> str:
    """The card `club` plays for the seat to play (its controller's player), with the rules named in ``off``
    turned off."""
    player = type("Club", (ClubPlayer,), off)(TWO_HANDED.controller[st.current_player()], random.Random(0))
    return card_str(player.act(st, st.legal_actions()))


def test_the_lead_goes_under_a_dummys_card_that_must_fall_on_it() -> None:
    """Drawing trumps from the top (♥A, under the left bower that the right bower unseen would take) would make S,
    whose one face-up trump is the joker, play it on the ace: N leads its lowest trump, and the joker takes the trick
    alone."""
    st = dealt(north="JD AH KH QH 6H AS KS AC KC 5C", east="JH 10H 9H 8H QS JS QC JC 10C AD",
               south="5S 6S 7S 6C 7C JK 8S 9S 8C 9C", west="4D 5D 6D 7D 8D 9D 10D QD KD 10S",
               kitty="7H 5H 4H", contract="7H", discards="5C 4H 5H")
    assert decide(st, leads_under_partners_card=False) == "AH"
    assert decide(st) == "6H"
    act(st, "6H 8H")
    assert legal(st) == {"JK"}  # S's one face-up trump: it falls on whatever trump N leads


def test_the_lead_goes_under_a_dummys_master() -> None:
    """S shows the joker and a low trump: it need not play the joker, but the joker is the master and N's ♥A is
    not; N leads low to it, keeping the ace."""
    st = dealt(north="JD AH KH QH 6H AS KS AC KC 5C", east="JH 10H 9H 8H QS JS QC JC 10C AD",
               south="5S 6S 7S 6C 7C JK 8S 9S 8C 4H", west="4D 5D 6D 7D 8D 9D 10D QD KD 10S",
               kitty="7H 5H 9C", contract="7H", discards="5C 9C 5H")
    assert decide(st, leads_under_partners_card=False) == "AH"
    assert decide(st) == "6H"


def test_the_lead_goes_under_a_dummys_lone_winner() -> None:
    """In 6NT N holds ♠A 6 and S shows the ♠K alone: cashing the ace would drop the king under it; N leads the ♠6,
    the king takes the trick, and the ace takes the next."""
    st = dealt(north="AS 6S 9C 8C 7C 9D 8D 7D 9H 8H", east="QS JS 10S 9S AC KC QC AD KD JK",
               south="5S 7S 8S 6C 5C KS 10D JD 10H JH", west="JC 10C 4D 5D 6D QD AH KH QH 4H",
               kitty="7H 6H 5H", contract="6NT", discards="5H 6H 7H")
    assert decide(st, leads_under_partners_card=False) == "AS"
    assert decide(st) == "6S"


def test_a_dummy_plays_low_where_the_other_dummy_cannot_beat_partners_card() -> None:
    """N leads the ♠Q and E follows low; W, the last to play, shows no spade and no trump face up and can play
    nothing else, so the ♠Q wins: S keeps its ♠K (before, an unseen ♠A "might" be W's, and S covered)."""
    st = dealt(north="QS 6S AH KH QH JH JD AC KC 5C", east="JS 10S 9S 10H 9H 8H QC JC AD KD",
               south="7S 8S 6C 7C 8C KS 5S 9C 10C 4H", west="AS JK 4D 5D 6D 7D 8D 9D 10D QD",
               kitty="7H 6H 5H", contract="7H", discards="5H 6H 7H")
    act(st, "QS 9S")
    assert st.current_player() == 2
    assert decide(st, reads_laid_out_hands=False) == "KS"
    assert decide(st) == "5S"


def test_a_king_is_not_cashed_into_the_other_dummys_face_up_ace() -> None:
    """In 6NT N holds ♣K Q J 10 and W shows the ♣A face up: the king is no master, and N leads its low club to
    drive the ace out (before, the shown ace was nobody's threat and N cashed the king into it)."""
    st = dealt(north="KC QC JC 10C KS QS 9D 8D 9H 8H", east="AS JS AD KD QD AH KH QH JH JK",
               south="8S 9S 10S 5C 6C 7C 8C 9C 10D JD", west="5S 6S 7S 4H 5H AC 5D 6D 7D 4D",
               kitty="10H 7H 6H", contract="6NT", discards="6H 7H 10H")
    assert decide(st, reads_laid_out_hands=False) == "KC"
    assert decide(st) == "10C"


def test_a_winner_is_not_cashed_into_the_other_dummys_ruff() -> None:
    """N holds the ♣A K and a lone low trump; W shows no club face up and two trumps (the ♥6 and the left bower): the
    ace led would be ruffed, so N leads a diamond (before, W's voids counted only once shown in play)."""
    st = dealt(north="5H AC KC 9S 8S 7S 9D 8D 7D 6D", east="JC QC AD 7H 8H 9H 10H JH QH JK",
               south="JS QS KS AS 5C 6C 7C 8C 9C 10C", west="5S 6S 10S 4D 5D 10D JD QD KD 6H",
               kitty="KH AH 4H", contract="6H", discards="KH AH 4H")
    assert decide(st, reads_laid_out_hands=False) == "AC"
    assert decide(st) == "6D"


def test_rulesets_without_laid_out_hands_play_as_before() -> None:
    """Only a dummy's face-up cards bring these rules into play: on the reference ruleset `club` with them off plays
    the same games."""
    off = type("Club", (ClubPlayer,), {"leads_under_partners_card": False, "reads_laid_out_hands": False})
    ruleset = fivehundred.load_ruleset("pagat-australian")
    for game in range(3):
        states = []
        for cls in (ClubPlayer, off):
            players = [cls(seat, random.Random(seat)) for seat in range(4)]
            st, deal_rng = new_game(ruleset, f"laid-out:{game}")
            st.play_out(players, deal_rng, 6)
            states.append([(log.calls, [t.cards for t in log.tricks]) for log in st.hands_log])
        assert states[0] == states[1]
