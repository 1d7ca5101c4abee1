"""The club player's defence against misère, in set positions (of the reference game unless named).

In each deal of the reference game East plays open misère (its partner West sits out) after taking the kitty and
discarding what it took; North and South defend.  East's hand is shown once the first trick is
complete, and the defenders must play to make it win a trick.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from helpers import E, N, S, W, act, cards, new_hand

import fivehundred
from fivehundred.bots.club import ClubPlayer
from fivehundred.engine.state import GameState, HandLog, Phase
from fivehundred.rules.cards import HEARTS, card_str
from fivehundred.rules.manager import compile_rules


def heuristic_club(seat: int, rng: random.Random, cls: type[ClubPlayer] = ClubPlayer) -> ClubPlayer:
    """``club`` defending an open misère by its rules of thumb alone (``club:fast``: the tuned set without its search,
    ``misere_worlds``): these tests are of those rules."""
    player = cls(seat, rng)
    player.searches = False
    return player


def decide(st: GameState) -> str:
    seat = st.current_player()
    return card_str(heuristic_club(seat, random.Random(0)).act(st, st.legal_actions()))


def let_through(st: GameState) -> set[str]:
    """The cards of the seat to play after which the misère is made against best play, every card seen."""
    contract = st.contract
    assert contract is not None
    return {st.action_to_str(a) for a, value in fivehundred.solve_cards(st).items() if contract.made(value)}


def open_misere(north: str, east: str, south: str, west: str, kitty: str) -> GameState:
    """East bids open misère over North's pass and throws the kitty's three cards back."""
    st = new_hand([north, east, south, west, kitty])
    act(st, "pass open-misere pass pass")
    act(st, kitty)
    assert st.current_player() == E
    return st


def test_a_defender_who_cannot_duck_the_contractor_keeps_its_low_card() -> None:
    st = open_misere(north="8S 10S 6S KS JC 10C 9C JD 10D 9D",
                     east="5S QS 5C 6C 4D 5D 6D 4H 5H 6H",
                     south="9S JS AC KC QC AD KD QD AH KH",
                     west="AS 8C 8D 7H 8H 9H 10H JH QH JK", kitty="7S 7C 7D")
    act(st, "5S")  # East leads its lowest spade: South beats it whatever it plays
    assert st.current_player() == S
    assert decide(st) == "JS"  # the 9 stays, to lead under East's queen later


def test_a_defender_stays_under_the_contractors_card_with_its_highest_safe_card() -> None:
    st = open_misere(north="5D 9D KD 8S 9S 8C 9C QH JH 10H",
                     east="4D QD 5S 6S 5C 6C 4H 5H 6H 7H",
                     south="6D 8D AS KS QS AC KC QC AH KH",
                     west="10S JS 10C JC 10D JD AD 8H 9H JK", kitty="7S 7C 7D")
    act(st, "5S AS 9S 6D")  # South wins the first trick; East's hand is shown; South leads the 6
    assert st.current_player() == N  # West sits out: North plays before East
    # East ducks with the 4 whatever North plays under its queen: North keeps the 5, which the
    # queen cannot duck once the 4 is gone, and throws the 9 (not the king, which frees the queen)
    assert decide(st) == "9D"


def test_a_void_defender_keeps_the_card_that_can_force_the_contractor() -> None:
    st = open_misere(north="AS KS QS JS 10S 9S 8S AC KC QC",
                     east="5S 6S 5C 6C 7C 4D 5D 6D QH KH",
                     south="8C 7D 8D 9D 10D JD QD KD AD JH",
                     west="JC 4H 5H 6H 7H 8H 9H 10H AH JK", kitty="7S 9C 10C")
    act(st, "5C 8C AC AS 6S")  # North wins the first trick and leads a spade: South is void
    assert st.current_player() == S
    # every diamond of South's is above East's: the jack of hearts, under East's queen and king,
    # is the defence's only way to make East win a heart; South throws its lowest diamond, keeping
    # the ace to win a diamond North leads and then lead the jack
    assert decide(st) == "7D"


def test_a_defender_leads_under_every_card_the_contractor_holds_in_a_suit() -> None:
    st = open_misere(north="5D 9D KD 8S 9S 8C 9C QH JH 10H",
                     east="7D QD 5S 6S 5C 6C 4H 5H 6H 7H",
                     south="6D 8D AS KS QS AC KC QC AH KH",
                     west="10S JS 10C JC 10D JD AD 8H 4D JK", kitty="7S 7C 9H")
    act(st, "5S AS 9S")  # South wins the first trick and sees East's hand
    assert st.current_player() == S
    assert decide(st) == "6D"  # under the 7 and the queen: East must win it


def test_a_defender_draws_its_partners_cards_before_leading_under_the_contractor() -> None:
    """French-Canadian grosse misère (open, six discards): South keeps 4♣ 6♣ 7♣ 8♣ 5♦ 6♦ 8♦ 10♦
    4♥ 6♥.  East holds 4♦ 9♦ K♦; every other diamond East cannot see (7♦ J♦ with West, Q♦ A♦
    laid aside or thrown) lies above South's 5, so the 4 led now would be overtaken by West.  East
    leads its king first to draw West's diamonds, and keeps the 4 for when West is out of them."""
    from fivehundred.rules.manager import compile_rules

    fc = compile_rules(fivehundred.load_ruleset("french-canadian"))
    st = new_hand(["7S JK2 5S 5C QC 10C AH JC 5H QD", "4D 9D 9C KH QS KD 9S JH KC 6S",
                   "JS 5D JK 4H 10S 6H 6D 6C 8C QH", "8H 7H 10H 7D JD AS AC 4S 8S 9H",
                   "4C 10D KS 7C AD 8D"], dealer=E, rules=fc)
    act(st, "grosse-misere pass pass pass")
    act(st, "JK KS JS 10S QH AD")
    assert sorted(st.hand(S)) == sorted(cards("4C 6C 7C 8C 5D 6D 8D 10D 4H 6H"))
    act(st, "4H 10H KH")  # North sits out; East wins the first trick and sees South's hand
    assert st.current_player() == E
    assert decide(st) == "KD"


def test_a_defender_leads_the_suit_whose_high_card_the_defence_can_get_under() -> None:
    """East's lowest card of every suit is guarded, but five hearts (6 to 10) lie under its jack and it holds
    two below it: low hearts led three times force the jack (South's 6, 7, 8 with North's 9 and 10 under the
    jack too).  Any other suit East ducks for ever."""
    st = open_misere(north="9H 10H 9S 8S 9C 8C 9D 8D 7D 10D",
                     east="4H 5H JH 5S 6S 5C 6C 4D 5D 6D",
                     south="6H 7H 8H AS KS QS AC KC QC AD",
                     west="QH KH AH JS 10S JC 10C JD QD KD", kitty="7S 7C JK")
    act(st, "5S AS 8S")  # South wins the first trick and sees East's hand
    assert st.current_player() == S
    lead = decide(st)
    assert lead in {"6H", "7H", "8H"}
    # and played out from here by club defenders, the jack is forced
    seats = {s: heuristic_club(s, random.Random(0)) for s in (N, S)}
    east = heuristic_club(E, random.Random(0))
    st.apply(st.legal_actions()[[st.action_to_str(a) for a in st.legal_actions()].index(lead)])
    while st.hands_log[0].outcome is None:
        seat = st.current_player()
        st.apply((east if seat == E else seats[seat]).act(st, st.legal_actions()))
    outcome = st.hands_log[0].outcome
    assert outcome is not None and not outcome.made


def test_a_defender_whom_rule_21_would_make_overtake_leads_the_joker_first() -> None:
    """A full deal of the reference game (seed 30, game 92, hand 8 of ``benchmarks/misere_defence.py``): East's
    open misère holds ♠6 7 9 ♦4 J Q ♥4 5 8 (and the ♣K it throws).  South holds the joker: void in a suit, it
    must play it (rule 21) and would take the trick a partner's low lead gives East.  With no lead that forces East
    at once, South leads it first (naming spades, where East must follow), and later North's ♦6 under East's
    last diamond wins: South, void in diamonds by then, throws a club instead of the joker."""
    st = new_hand(["QS AS 7C JC QC 6D 7D 9D 6H 9H", "6S 7S 9S KC 4D JD QD 4H 5H 8H",
                   "JS KS 5C 10C 10D AD 10H QH AH JK", "5S 8S 10S 6C 8C AC 5D 8D JH KH", "9C KD 7H"],
                  dealer=N, totals=[40, 240])
    act(st, "open-misere pass pass pass")
    seats = [heuristic_club(s, random.Random(s)) for s in range(4)]
    while st.hands_log[0].outcome is None:
        st.apply(seats[st.current_player()].act(st, st.legal_actions()))
    log = st.hands_log[0]
    assert log.contractor == E and log.outcome is not None and not log.outcome.made
    leads = [(t.leader, card_str(t.cards[0])) for t in log.tricks]
    assert leads[1] == (S, "JK")  # the joker led at the first chance
    last = log.tricks[-1]
    assert last.leader == N and card_str(last.cards[0]) == "6D" and "JK" not in map(card_str, last.cards)


def test_a_defender_does_not_draw_with_a_high_card_where_the_contractor_holds_one_card_of_the_suit() -> None:
    """East's open misère holds one spade, ♠6; South holds ♠Q J 5 and every spade South cannot see lies above
    the 6 (North or the hand laid aside may have to overtake the 5).  Drawing North's spades with the ♠Q does
    nothing here: East ducks with its only spade and the 5 has nothing left to force.  South keeps the queen."""
    st = open_misere("7S 8S 9S 10S 8C 9C 10C 7D 8D 9D", "6S 5C 6C 7C 4D 5D 6D 4H 5H 6H",
                     "QS JS 5S AC KC AD KD AH KH QH", "KS AS JC QC 10D JD QD 7H 8H 9H", "10H JH JK")
    act(st, "4H KH 10S")  # South wins the first trick and sees East's hand
    assert st.current_player() == S
    assert decide(st) != "QS"


def test_a_defender_keeps_its_card_under_the_contractors_lowest_when_the_contractor_ducks_anyway() -> None:
    """South leads ♥7 into East's ♥5 6 9; North, second, holds ♥4 J A.  East ducks this trick with the 6
    whatever North plays, so North's 4 (under East's lowest) saves nothing now and is the only heart left that
    can force East later: North plays the jack, wins, and leads the 4 under East's 5 and 9."""
    st = open_misere("4H JH AH 8S 9S 8C 9C 8D 9D 10D", "5S 6S 5C 6C 4D 5D 6D 5H 6H 9H",
                     "AS KS QS AC KC QC AD KD QD 7H", "10S JS 10C JC JD 8H 10H QH KH JK", "7S 7C 7D")
    act(st, "5S AS 8S 7H")  # South wins the first trick, sees East's hand and leads the 7 of hearts
    assert st.current_player() == N
    assert "4H" in let_through(st) and "JH" not in let_through(st)
    assert decide(st) == "JH"


def test_a_defender_with_no_attack_leaves_the_trick_to_its_partner() -> None:
    """South leads ♠9; East will duck it with either of its spades, ♠5 6, whatever North plays.  North (♠7 8 10,
    clubs and hearts above East's, no diamond) has nothing to attack East with; South holds ♦4, under every
    diamond of East's, and nothing that could ever win a trick North leads.  North plays under the 9 and South
    keeps the lead; the 10 would take it, and North's leads East ducks to the end."""
    st = open_misere("7S 8S 10S 8C 9C 10C JC QC 8H 9H", "5S 6S 5C 6C 7C 5D 6D 7D 4H 5H",
                     "9S AC 4D 8D 9D 10D JD QD KD AD", "AS KC 6H 7H 10H JH QH KH AH JK", "JS QS KS")
    act(st, "5C AC 8C 9S")  # South wins the first trick, sees East's hand and leads the 9 of spades
    assert st.current_player() == N
    assert "10S" in let_through(st) and "8S" not in let_through(st)
    assert decide(st) in ("7S", "8S")


def test_a_defender_does_not_lead_above_the_contractors_last_card_of_a_suit() -> None:
    """East's open misère holds one diamond, ♦7; South's only diamond is the 8, North holds the 6 under it.  Led,
    South's 8 lets East duck its last diamond, and every other lead beats the misère with best play (North wins a
    heart, cashes the ace of clubs on which South throws the 8, and leads the 6).  South leads something else."""
    st = open_misere("7S 6D KC AC 10H 5H 8C 9C 9D KD", "5S 6S 5C 7D 4H 6H 7H 9H QH KH",
                     "AS KS QS 10S JS 9S 8D 8H AH JH", "8S 6C 7C 10C JC QC 4D 5D 10D JD", "QD AD JK")
    act(st, "5S AS 7S")  # South wins the first trick and sees East's hand
    assert st.current_player() == S
    assert let_through(st) == {"8D"}
    assert decide(st) != "8D"


def test_a_defender_draws_first_where_its_partner_likely_holds_only_cards_above_the_contractors() -> None:
    """North leads after the first trick; East's open misère holds ♦6 K.  North's ♦5 lies under both, but South, who
    plays after East, may have to overtake: of the diamonds North cannot see one is under the 6 (♦4) and six above
    it, so South holds some of those above and not the 4 more often than not (about 58% of deals).  Here South holds
    ♦Q alone: the 5 lets East off, the ace draws the queen (East ducks the king) and the 5 follows."""
    st = open_misere("AS KS 8C 9C 5D AD 6H 7H 8H 9H", "5S 6S 7S 5C 6C 7C 6D KD 4H 5H",
                     "QD JC QC KC AC 10H JH QH KH AH", "8S 9S 10S JS QS 10C 4D 9D 7D 8D", "10D JD JK")
    act(st, "5S JC AS")  # North wins the first trick and sees East's hand
    assert st.current_player() == N
    assert "5D" in let_through(st) and "AD" not in let_through(st)
    assert decide(st) == "AD"


def test_a_void_defender_throws_the_card_that_would_overtake_its_partners_attack() -> None:
    """East's open misère holds a lone club, ♣8; South holds ♣5 6 7 under it, North ♣9 alone.  South leads its only
    diamond and North, out of diamonds, throws: the one chance North gets to shed the 9, which would overtake every
    low club South leads, so that East's 8 is never forced.  North throws it (not a spade or a heart: they lead
    under nothing of East's and stop nothing), and South's club lead beats the misère; any other card lets it
    through.  (The club player before December 2026 threw the ♥A, the card with the most unseen cards under it.)"""
    st = open_misere("9C 8S 10S JS QS KS AH KH QH JH", "5S 6S 7S 8C 4D 5D 6D 4H 5H 6H",
                     "5C 6C 7C AD 9S AS 7H 8H 9H 10H", "10C JC QC KC AC 10D JD QD KD JK", "7D 8D 9D")
    act(st, "5S AS 8S AD")  # South wins the first trick, sees East's hand and leads the ace of diamonds
    assert st.current_player() == N
    assert let_through(st) == {"10S", "JS", "QS", "KS", "AH", "KH", "QH", "JH"}
    assert decide(st) == "9C"



def club_hand(deal: list[str], calls: str, until: Callable[[GameState], bool], **kwargs: Any
              ) -> tuple[GameState, list[ClubPlayer]]:
    """A full deal of the reference game, its calls made, then played by ``club`` in every seat (each seeded by its
    seat) until ``until`` holds."""
    return club_play(new_hand(deal, **kwargs), calls, until)


def club_play(st: GameState, calls: str, until: Callable[[GameState], bool]) -> tuple[GameState, list[ClubPlayer]]:
    """``st``'s calls made, then played by ``club`` in every seat (each seeded by its seat) until ``until`` holds."""
    act(st, calls)
    seats = [heuristic_club(s, random.Random(s)) for s in range(st.rules.players)]
    while not until(st):
        st.apply(seats[st.current_player()].act(st, st.legal_actions()))
    return st, seats


def with_and_without(st: GameState, seats: list[ClubPlayer], rule: str) -> tuple[str, str]:
    """The card ``club`` plays at ``st``, and the card it plays with ``rule`` (a class attribute) False."""
    seat = st.current_player()
    former = heuristic_club(seat, random.Random(seat), type("FormerClub", (ClubPlayer,), {rule: False}))
    return (st.action_to_str(seats[seat].act(st, st.legal_actions())),
            st.action_to_str(former.act(st, st.legal_actions())))


def beaten(st: GameState, seats: list[ClubPlayer], contractor: int) -> HandLog:
    """The hand played out by ``seats``: ``contractor``'s misère beaten."""
    while st.hands_log[0].outcome is None:
        st.apply(seats[st.current_player()].act(st, st.legal_actions()))
    log = st.hands_log[0]
    assert log.contractor == contractor and log.outcome is not None and not log.outcome.made
    return log


def rule_keeps_the_kill(st: GameState, seats: list[ClubPlayer], rule: str, new: str, old: str, contractor: int
                        ) -> HandLog:
    """At ``st``, ``club`` plays ``new`` and, with ``rule`` off, ``old``; double dummy ``old`` lets the misère through
    and ``new`` does not; then the hand, played out by ``seats``, beats ``contractor``'s misère."""
    through = let_through(st)
    assert old in through and new not in through
    assert with_and_without(st, seats, rule) == (new, old)
    return beaten(st, seats, contractor)


def leads_trick(n: int) -> Callable[[GameState], bool]:
    """At the lead to trick ``n``."""
    return lambda st: len(st.hand_log.tricks) == n - 1 and not st.trick


def test_a_defender_leads_the_joker_where_its_only_low_lead_a_partner_would_overtake() -> None:
    """A full deal of the reference game (seed 31, game 608, hand 1 of ``benchmarks/misere_defence.py``): North's open
    misère holds ♥5 6 8 9 Q ♦4 6 ♣5 6 9 after the kitty.  East, on lead at the second trick, holds the joker, ♥4 10 and
    no card under North's lowest in another suit; every heart East cannot see lies above the 5, so West, who plays
    after North, would overtake the 4 with a heart of its own.  Kept, the joker would be played on West's low lead
    once East is void (rule 21).  So East leads it now, naming hearts (West gives up ♥J, North ♥Q), draws West's
    last heart with the 10, and the 4 later forces North.  Double dummy the ♥10 that East led before lets the misère
    through, the joker does not; with the rule off (``joker_before_a_blocked_attack``) East leads the ♥10."""
    st, seats = club_hand(["9H 6D AH 5C 5H 6H QD 6C 8H 9C", "10C 6S JK 10H 4H JS 8D KS AD 9D",
                           "7D 10D QC 9S 7S 7C JC QS AC 5S", "JH AS 8C JD 8S KD 7H 5D KC 10S", "QH KH 4D"],
                          "7S 7D open-misere pass pass pass", leads_trick(2), dealer=E)
    assert st.current_player() == E and card_str(st.hand_log.tricks[0].cards[0]) == "4D"
    log = rule_keeps_the_kill(st, seats, "joker_before_a_blocked_attack", "JK:H", "10H", N)
    assert card_str(log.tricks[1].cards[0]) == "JK" and log.tricks[1].named == HEARTS


def test_a_defender_whose_low_lead_is_blocked_lets_its_fellow_defender_throw_the_blocking_card() -> None:
    """A full deal of the reference game (seed 31, game 1231, hand 5 of ``benchmarks/misere_defence.py``), after seven
    tricks of North's open misère (as ``club`` played them before ``leaves_the_lead_to_a_fellow``): North holds ♣5
    ♦5 ♥5, East ♠6 9 ♥8, West ♠10 ♣Q ♥4, West to lead.  West's ♥4 lies under North's ♥5, but East would have to
    overtake it with the 8.  East has shown out of clubs, so West leads the ♣Q: North ducks with its last club, East
    throws the ♥8, and the ♥4 then forces North's 5.  Double dummy the ♥4 now lets the misère through, the queen does
    not; with the rule off (``leads_for_a_fellows_throw``) West leads the 4."""
    st, seats = club_hand(["6H 9C 5C KC 5D 5S 5H 6C JD 8D", "10H 7D JC 6S KD 9D KH JS 8H 9S",
                           "AH 10D QS 7C 8S 8C 7S KS 9H QD", "4D QC AD AS 10C 4H QH 10S 7H AC", "JH JK 6D"],
                          "7S 7H misere 8S pass pass open-misere pass", lambda st: st.phase == Phase.PLAY, dealer=E,
                          totals=[370, 130])
    act(st, "5S JS AS | AD JD KD | QH 6H KH | 7D 4D 6D | 9D 7H 8D | JC AC 9C | 10C 6C 10H")
    assert st.current_player() == W
    assert [sorted(map(card_str, st.hand(s))) for s in (N, E, W)] == [["5C", "5D", "5H"], ["6S", "8H", "9S"],
                                                                       ["10S", "4H", "QC"]]
    log = rule_keeps_the_kill(st, seats, "leads_for_a_fellows_throw", "QC", "4H", N)
    assert [card_str(c) for c in log.tricks[7].cards] == ["QC", "5C", "8H"]


def test_a_void_defender_throws_a_card_between_the_contractors_that_would_overtake_its_partners_attack() -> None:
    """A full deal of the reference game (seed 31, game 700, hand 11 of ``benchmarks/misere_defence.py``): West's open
    misère holds ♦5 7 9 10 after the kitty; South holds ♦4, under them all, and North ♦8 alone, between West's 7 and
    9: on South's ♦4 North would have to overtake.  At the third trick North, out of hearts, throws on South's ♥8:
    the ♦8 (not the ♠10), and South's ♦4 later forces West.  Double dummy the ♠10 lets the misère through, the ♦8 does
    not; with the rule off (``throws_a_blocker_between``) North throws the ♠10."""
    st, seats = club_hand(["6S 8D 9C KD QH 5C 10S 7C 9S 5S", "JK JD 7S KS 6D AD JH QS 10C QD",
                           "KC JS AH 8S 8H AS 4D JC QC 7H", "AC 9H KH 7D 6C 9D 5H 6H 8C 10H", "10D 4H 5D"],
                          "8D 9S open-misere pass pass pass",
                          lambda st: len(st.hand_log.tricks) == 2 and len(st.trick) == 2, dealer=N, totals=[290, 270])
    assert st.current_player() == N and [card_str(c) for c in st.trick] == ["8H", "5H"]
    rule_keeps_the_kill(st, seats, "throws_a_blocker_between", "8D", "10S", W)


def test_a_defender_draws_with_its_high_card_before_leading_its_low_one() -> None:
    """A full deal of the reference game (seed 31, game 2173, hand 3 of ``benchmarks/misere_defence.py``): South's
    open misère holds ♠8 9; East, on lead at the second trick, holds ♠6 under both and ♠J over both, West the ♠10.
    The 6 first lets West overtake with the 10 (East cannot see it, and two spades under the 8 are unseen, so the
    lead did not count as blocked); the jack first draws the 10 while South ducks, and the 6 then forces South's 8.
    Double dummy the 6 now lets the misère through, the jack does not; with the rule off
    (``draws_before_the_low_lead``) East leads the 6."""
    st, seats = club_hand(["7C KS 4H 5S 6D 7D 7S 8D 10C 8H", "KD QC 6S 10H AC JS JK 4D JD 9H",
                           "9C 6H 5C 6C 5H QS AS 9S JC 10D", "KH AD 8C 7H AH KC 10S 5D QD 9D", "QH 8S JH"],
                          "6C 7NT misere 8H open-misere pass pass pass", leads_trick(2), dealer=E, totals=[180, 280])
    assert st.current_player() == E
    rule_keeps_the_kill(st, seats, "draws_before_the_low_lead", "JS", "6S", S)


def test_a_defender_leads_a_suit_the_contractor_holds_before_one_it_is_void_in() -> None:
    """A full deal of the reference game (seed 31, game 1068, hand 5 of ``benchmarks/misere_defence.py``), after five
    tricks of West's open misère: West holds ♠6 7 10 ♣Q ♥5, South (to lead) ♦6 10 ♥6 8 10, North ♣10 among its cards.
    No lead of South's attacks anything.  The ♦6 lets West, out of diamonds, throw the ♣Q; the ♥6 costs West its last
    heart instead, North wins and leads the ♣10, and West's queen must win.  Double dummy the ♦6 lets the misère
    through, the ♥6 does not; with the rule off (``void_suit_led_last``) South leads the ♦6, its lowest card."""
    st, seats = club_hand(["10C QS AD JD JH 4D 9H 5S 6C AC", "KD AH KH 8D 7H 4H 7C KS AS 7D",
                           "9S JC QD 9C 8H JK 10H 6H 10D 6D", "9D 7S JS QC 6S 8S QH 10S 5D 5C", "KC 5H 8C"],
                          "6H 7NT 8H open-misere pass pass pass", leads_trick(6), dealer=W, totals=[0, 360])
    assert st.current_player() == S
    assert sorted(map(card_str, st.hand(W))) == ["10S", "5H", "6S", "7S", "QC"]
    rule_keeps_the_kill(st, seats, "void_suit_led_last", "6H", "6D", W)


def test_a_defender_counts_a_low_lead_blocked_where_its_void_fellow_may_hold_the_joker() -> None:
    """A full deal of three-handed (seed 33, game 9, hand 5 of ``benchmarks/misere_defence.py -r three-handed``):
    North's open misère holds ♥8 10 Q among its cards; at the third trick East, on lead, holds ♥7 under them all and
    ♥9 between, and South, its fellow defender, has shown out of hearts while the joker is unseen.  Void, South must
    play the joker to a heart (rule 21) and take the trick, so the 7 now would let North off.  East leads the 9 first:
    South's joker takes it (North throws its queen), and the 7 forces North later.  Double dummy the 7 now lets the
    misère through, the 9 does not; with the rule off (``fellows_joker_blocks``) East leads the 7."""
    rules = compile_rules(fivehundred.load_ruleset("three-handed"))
    st = GameState(rules, first_dealer=E)
    st.start_at([50, 20, 20], 5)
    st.deal_cards([cards("9C 8D 7S QC 10H 8S 8H KD 10D 7D"), cards("10C AD AH KC 7H 7C AS QD 9H 9S"),
                   cards("KS 10S JH AC JK 8C 9D JS JD JC")], cards("KH QH QS"))
    st, seats = club_play(st, "7S open-misere pass pass QC 9C QS", leads_trick(3))
    assert st.current_player() == E and "JK" in map(card_str, st.hand(S))
    assert not any(card_str(c).endswith("H") for c in st.hand(S))
    log = rule_keeps_the_kill(st, seats, "fellows_joker_blocks", "9H", "7H", N)
    assert [card_str(c) for c in log.tricks[2].cards] == ["9H", "JK", "QH"]


def test_a_defender_without_an_attack_of_its_own_leaves_the_lead_with_its_fellow() -> None:
    """A full deal of the reference game (seed 32, game 730, hand 1 of ``benchmarks/misere_defence.py``): West's open
    misère.  At the third trick South leads ♥10 and West ducks with ♥7, keeping ♥5; North, last, holds ♥Q 9 6 and no
    card under any of West's.  The one unseen heart under West's 5, the 4, is South's.  North used to overtake with
    the queen wherever the defenders' unseen low cards outnumbered the contractor's (it sheds its highest card and
    leads next), taking the lead from the one defender who can force West.  Now it plays the 9 under the 10, South
    keeps the lead and, after two clubs, leads the ♥4: West's 5 must win.  Double dummy the queen lets the misère
    through, the 9 does not; with the rule off (``leaves_the_lead_to_a_fellow``) North plays the queen."""
    st, seats = club_hand(["9H 7D 8S 5D AS 10D 6H KS QH 4D", "AH KC 7S JS 9D 9C 8H AD 6S KD",
                           "10S QS 10C 10H 8D QD QC 6D JD 4H", "JK 8C 6C JH 7H AC JC 5C 7C 5S", "9S KH 5H"],
                          "6D open-misere pass pass pass",
                          lambda st: len(st.hand_log.tricks) == 2 and len(st.trick) == 2, dealer=E)
    assert st.current_player() == N and [card_str(c) for c in st.trick] == ["10H", "7H"]
    log = rule_keeps_the_kill(st, seats, "leaves_the_lead_to_a_fellow", "9H", "QH", W)
    assert [card_str(c) for c in log.tricks[5].cards][:2] == ["4H", "5H"]


def test_a_defender_with_the_joker_takes_a_fellows_trick_to_lead_the_joker_away() -> None:
    """A full deal of the reference game (``fivehundred simulate -n 4 --seed 20261207 -p club``, game 2, hand 1):
    North's open misère keeps ♠5 ♣J 9 8 7 ♦9 8 6 5 4 over East's 8♦.  West's clubs are ♣K 5, the 5 under North's
    lowest; East, out of clubs after the second trick, holds the joker, which it must play when void (rule 21): on
    West's ♣5 it would take the trick.  At the fourth trick West leads ♦K, North ducks, and East, with no attack of its
    own, left West the trick (♦7), and West's ♣5 later fell to the joker.  Now East takes it with ♦A, leads the joker
    and its last diamond, then a spade for West to win, and West's ♣5 forces North.  Double dummy the ♦7 lets the
    misère through, the ♦A does not; with the rule off (``takes_the_lead_to_lead_the_joker``) East plays the ♦7."""
    st, seats = club_hand(["5S 10H 5H JC 8C 7C 9D 8D 6D 4D", "10S 7S 6S AH QH 10C AD JD 7D JK",
                           "AS 8S KH JH 9H 6H AC QC 6C 10D", "QS JS 9S 8H 7H 4H KC 5C KD QD", "KS 9C 5D"],
                          "7D 7H pass misere 8D pass open-misere pass KS 10H 5H 5S 10S QS KC JC 10C QD 9D JD KD 8D",
                          lambda st: True, dealer=N)
    log = rule_keeps_the_kill(st, seats, "takes_the_lead_to_lead_the_joker", "AD", "7D", N)
    assert [" ".join(card_str(c) for c in t.cards) for t in log.tricks[4:]] == ["JK 8H 7C", "7D 4H 6D", "6S JS 8C",
                                                                               "5C 9C AH"]
