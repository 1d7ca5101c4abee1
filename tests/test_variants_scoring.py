"""Scoring and end-of-game variants of VARIANTS.md (S1–S6, FC, C5–C7, P5, E1–E5) and games of more
than two sides.

Each variant is a small YAML that extends the reference; each test plays a concrete deal under the
reference and under the variant and checks that the scores or the end of the game differ as the
variant says.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    EW,
    FIVE_DEAL,
    MISERE,
    MISERE_AUCTION,
    MISERE_CLEAN_PLAY,
    NS,
    RULES,
    SUITED,
    act,
    finish,
    log,
    new_hand,
    tricks,
)

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.plugins.scoring import contract_points, fivehundred_game_result, fivehundred_score_hand
from fivehundred.rules.cards import parse_cards
from fivehundred.rules.errors import RulesetError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.ruleset import Ruleset, Slam
from fivehundred.rules.tables import Contract, HandOutcome

SPADES = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"]

LADDER_1904 = """
auction:
  ladder:
    - {call: 6S, value: 40}
    - {call: 6C, value: 80}
    - {call: 6D, value: 120}
    - {call: 6H, value: 160}
    - {call: 6NT, value: 200}
    - {call: 7S, value: 60}
    - {call: 7C, value: 120}
    - {call: 7D, value: 180}
    - {call: 7H, value: 240}
    - {call: 7NT, value: 300}
    - {call: misere, value: 250, requires_standing: 7S}
    - {call: 8S, value: 80}
    - {call: 8C, value: 160}
    - {call: 8D, value: 240}
    - {call: 8H, value: 320}
    - {call: 8NT, value: 400}
    - {call: 9S, value: 100}
    - {call: 9C, value: 200}
    - {call: 9D, value: 300}
    - {call: 9H, value: 400}
    - {call: 9NT, value: 500}
    - {call: 10S, value: 120}
    - {call: 10C, value: 240}
    - {call: 10D, value: 360}
    - {call: open-misere, value: 500}
    - {call: 10H, value: 480}
    - {call: 10NT, value: 600}
"""

LADDER_PERFECT = """
auction:
  ladder:
    - {call: 6S, value: 20}
    - {call: 6C, value: 40}
    - {call: 6D, value: 60}
    - {call: 6H, value: 80}
    - {call: 6NT, value: 100}
    - {call: 7S, value: 120}
    - {call: 7C, value: 140}
    - {call: 7D, value: 160}
    - {call: 7H, value: 180}
    - {call: 7NT, value: 200}
    - {call: misere, value: 150, requires_standing: 7S}
    - {call: 8S, value: 220}
    - {call: 8C, value: 240}
    - {call: 8D, value: 260}
    - {call: 8H, value: 280}
    - {call: 8NT, value: 300}
    - {call: 9S, value: 320}
    - {call: 9C, value: 340}
    - {call: 9D, value: 360}
    - {call: 9H, value: 380}
    - {call: 9NT, value: 400}
    - {call: 10S, value: 420}
    - {call: 10C, value: 440}
    - {call: 10D, value: 460}
    - {call: open-misere, value: 250}
    - {call: 10H, value: 480}
    - {call: 10NT, value: 500}
"""


def write(tmp_path: Path, body: str, name: str = "variant") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: pagat-australian\n{textwrap.dedent(body)}", encoding="utf-8")
    return path


def variant(tmp_path: Path, body: str, name: str = "variant") -> Rules:
    """The reference with ``body`` (YAML) laid over it, compiled."""
    return compile_rules(fivehundred.load_ruleset(write(tmp_path, body, name)))


def north_nt(rules: Rules, call: str, won: int, totals: list[int] | None = None) -> GameState:
    """SUITED deal, dealer W: N bids ``call`` (the others pass), keeps every spade but the 5 (all ten
    when ``won`` is 10), wins ``won`` spade tricks, then gives W the lead for good with the 4♥."""
    st = new_hand(SUITED, rules=rules, totals=totals)
    if won == 10:
        act(st, f"{call} pass pass pass 4D 4H JK")
        tricks(st, SPADES)
    else:
        act(st, f"{call} pass pass pass 5S 4D JK")
        tricks(st, [*SPADES[:won], "4H"])
    finish(st)
    return st


def scores(st: GameState) -> list[int]:
    return list(st.hands_log[0].scores)


def winner(st: GameState) -> int | None:
    return None if st.result is None else st.result.winner


def misere_made(rules: Rules) -> GameState:
    st = new_hand(MISERE, rules=rules)
    act(st, f"{MISERE_AUCTION} 7H 6H JK {MISERE_CLEAN_PLAY}")
    return st


def misere_failed(rules: Rules) -> GameState:
    """N plays misère, keeps the joker un-nominated and must win the second trick with it."""
    st = new_hand(MISERE, rules=rules)
    act(st, f"{MISERE_AUCTION} 4D 5D 7H none 5S AS 9S | AD 9D JK")
    return st


# --- S1, S2: other tables (ladder data) ---------------------------------------------------------


def test_S1_1904_table_scores_7NT_300(tmp_path):
    s1 = variant(tmp_path, LADDER_1904)
    assert scores(north_nt(RULES, "7NT", 7)) == [220, 30]
    assert scores(north_nt(s1, "7NT", 7)) == [300, 30]
    assert scores(north_nt(s1, "7NT", 6)) == [-300, 40]
    # 8NT with all ten: 320 (no slam bonus at 250+) against the 1904 table's 400.
    assert scores(north_nt(RULES, "8NT", 10)) == [320, 0]
    assert scores(north_nt(s1, "8NT", 10)) == [400, 0]


def test_S2_perfect_table_misere_150_and_7NT_200(tmp_path):
    s2 = variant(tmp_path, LADDER_PERFECT)
    assert scores(misere_made(RULES)) == [250, 0]
    assert scores(misere_made(s2)) == [150, 0]
    assert scores(misere_failed(s2)) == [-150, 0]
    assert scores(north_nt(RULES, "7NT", 7)) == [220, 30]
    assert scores(north_nt(s2, "7NT", 7)) == [200, 30]


# --- S3, S4, S5, S6: scoring fields -------------------------------------------------------------

S3 = """
scoring: {overtrick_points: 10, overtrick_cap: 520, slam: null}
"""


def test_S3_overtricks_score_10_each(tmp_path):
    s3 = variant(tmp_path, S3)
    assert scores(north_nt(RULES, "6NT", 8)) == [120, 20]
    assert scores(north_nt(s3, "6NT", 8)) == [140, 20]


def test_S3_no_slam_rule_all_ten_score_overtricks(tmp_path):
    s3 = variant(tmp_path, S3)
    assert scores(north_nt(RULES, "6NT", 10)) == [250, 0]
    assert scores(north_nt(s3, "6NT", 10)) == [160, 0]


def test_S3_overtricks_capped(tmp_path):
    capped = variant(tmp_path, "scoring: {overtrick_points: 10, overtrick_cap: 130, slam: null}")
    assert scores(north_nt(capped, "6NT", 9)) == [130, 10]  # 120 + 30, capped at 130
    assert scores(north_nt(capped, "7NT", 9)) == [220, 10]  # the cap never lowers a contract's value
    s3 = variant(tmp_path, S3, "s3")
    nt10 = s3.ladder[s3.parse_call("10NT")]
    nt9 = s3.ladder[s3.parse_call("9NT")]
    assert contract_points(s3.ruleset.scoring, nt9, 10, 10, True) == 430
    assert contract_points(s3.ruleset.scoring, nt10, 10, 10, True) == 520


def test_S4_no_slam_bonus(tmp_path):
    s4 = variant(tmp_path, "scoring: {slam: null}")
    assert scores(north_nt(RULES, "6NT", 10)) == [250, 0]
    assert scores(north_nt(s4, "6NT", 10)) == [120, 0]
    assert scores(north_nt(s4, "6NT", 8)) == [120, 20]  # no overtricks either


def test_S5_defence_points_stop_at_490(tmp_path):
    """S5 needs each side's total before the hand: the engine gives it (``HandOutcome.totals_before``)."""
    body = "scoring: {defender_cap: 490}"
    st = north_nt(RULES, "7NT", 6, totals=[0, 470])
    assert scores(st) == [-220, 40] and st.totals == [-220, 510]
    s5 = variant(tmp_path, body)
    st = north_nt(s5, "7NT", 6, totals=[0, 470])
    assert scores(st) == [-220, 20] and st.totals == [-220, 490]


def test_S5_cap_applies_to_defence_points_only():
    """The scoring rule itself, given the totals before the hand (see the test above)."""
    rs = RULES.ruleset.model_copy(update={"scoring": RULES.ruleset.scoring.model_copy(update={"defender_cap": 490})})
    s5 = compile_rules(rs)
    c = s5.ladder[s5.parse_call("7NT")]
    failed = HandOutcome(c, 0, NS, (6, 0, 0, 4), (6, 4), False, 10, 10, (0, 2), (0, 470))
    assert s5.score_hand(failed) == [-220, 20]
    made = HandOutcome(c, 0, NS, (7, 0, 0, 3), (7, 3), True, 10, 10, (0, 2), (480, 500))
    assert s5.score_hand(made) == [220, 0]  # already past 490: nothing more
    low = HandOutcome(c, 0, NS, (7, 0, 0, 3), (7, 3), True, 10, 10, (0, 2), (480, 100))
    assert s5.score_hand(low) == [220, 30]
    assert RULES.score_hand(failed) == [-220, 40]


def test_S6_no_defence_points(tmp_path):
    s6 = variant(tmp_path, "scoring: {defender_trick_points: 0}")
    assert scores(north_nt(RULES, "7NT", 7)) == [220, 30]
    assert scores(north_nt(s6, "7NT", 7)) == [220, 0]
    assert scores(north_nt(s6, "7NT", 3)) == [-220, 0]


# --- FC: a failed contract feeds the opponents ----------------------------------------------------

FC = """
scoring: {failed: opponents-gain}
game: {target: 1000, swamp: null}
"""


def test_FC_failed_contract_gives_its_value_to_the_opponents(tmp_path):
    fc = variant(tmp_path, FC)
    assert scores(north_nt(RULES, "7NT", 6)) == [-220, 40]
    st = north_nt(fc, "7NT", 6, totals=[0, 100])
    assert scores(st) == [0, 260] and st.totals == [0, 360]
    assert scores(misere_failed(RULES)) == [-250, 0]
    assert scores(misere_failed(fc)) == [0, 250]


def test_FC_game_to_1000(tmp_path):
    fc = variant(tmp_path, FC)
    ref = north_nt(RULES, "7NT", 7, totals=[600, 0])
    assert ref.is_terminal() and winner(ref) == NS
    st = north_nt(fc, "7NT", 7, totals=[600, 0])
    assert st.totals == [820, 30] and not st.is_terminal()
    st = north_nt(fc, "7NT", 7, totals=[800, 0])
    assert st.totals == [1020, 30] and winner(st) == NS


# --- C5, C6, C7: contracts with their own scoring -------------------------------------------------


def with_rung(ladder: str, before: str, rung: str) -> str:
    """``ladder`` (YAML) with ``rung`` placed just below the rung whose call is ``before``."""
    at = ladder.index(f"- {{call: {before},")
    return f"{ladder[:at]}- {rung}\n    {ladder[at:]}"


def hi_lo(goal: str) -> str:
    """S2's ladder with C5 Hi/Lo (350) between 9♣ and 9♦."""
    return with_rung(LADDER_PERFECT, "9D", "{call: hi-lo, value: 350}") + f"""
contracts:
  misere: {{kind: misere, open: false, partner_plays: false}}
  open-misere: {{kind: misere, open: true, partner_plays: false}}
  hi-lo: {{kind: no-trumps, goal: {goal}, tricks: 5, partner_plays: false}}
"""


def test_C5_hi_lo_needs_exactly_five_tricks(tmp_path):
    c5 = variant(tmp_path, hi_lo("exactly"))
    st = north_nt(c5, "hi-lo", 5)
    assert log(st).tricks_won == [5, 0, 0, 5]
    assert scores(st) == [350, 50]  # made: +350; defenders score their tricks as usual
    st = north_nt(c5, "hi-lo", 6)
    assert scores(st) == [-350, 40]  # six is not five
    at_least = variant(tmp_path, hi_lo("at-least"), "at-least")
    assert scores(north_nt(at_least, "hi-lo", 6)) == [350, 40]


def slam_contracts(extra: str) -> str:
    """A 'grand' contract worth 220: ten tricks at no-trumps, played alone (as a C6 slam call on 7NT
    or a C7 declaration leaves it), with ``extra`` contract fields."""
    return with_rung(LADDER_PERFECT, "10NT", "{call: grand, value: 220}") + f"""
contracts:
  misere: {{kind: misere, open: false, partner_plays: false}}
  open-misere: {{kind: misere, open: true, partner_plays: false}}
  grand: {{kind: no-trumps, goal: at-least, tricks: 10, partner_plays: false, {extra}}}
"""


def test_C6_fail_penalty_adds_to_the_loss(tmp_path):
    plain = variant(tmp_path, slam_contracts("fail_penalty: 0"), "plain")
    c6 = variant(tmp_path, slam_contracts("fail_penalty: 100"), "c6")
    assert scores(north_nt(plain, "grand", 9)) == [-220, 10]
    assert scores(north_nt(c6, "grand", 9)) == [-320, 10]
    assert scores(north_nt(c6, "grand", 10)) == [250, 0]  # made: the value (here the slam's 250)


def test_C7_fail_value_replaces_the_value_lost(tmp_path):
    c7 = variant(tmp_path, slam_contracts("fail_value: 500"), "c7")
    assert scores(north_nt(c7, "grand", 9)) == [-500, 10]
    assert scores(north_nt(c7, "grand", 10)) == [250, 0]


# --- E1–E5: the end of the game --------------------------------------------------------------------


def test_E1_any_points_reaching_500_win(tmp_path):
    e1 = variant(tmp_path, "game: {win: any}")
    ref = north_nt(RULES, "7NT", 6, totals=[0, 470])
    assert ref.totals == [-220, 510] and not ref.is_terminal()
    st = north_nt(e1, "7NT", 6, totals=[0, 470])
    assert winner(st) == EW


def test_E1_both_reach_contractors_or_higher(tmp_path):
    contractors = variant(tmp_path, "game: {win: any, both_reach: contractors}", "c")
    higher = variant(tmp_path, "game: {win: any, both_reach: higher}", "h")
    st = north_nt(contractors, "7NT", 7, totals=[290, 490])
    assert st.totals == [510, 520] and winner(st) == NS
    st = north_nt(higher, "7NT", 7, totals=[290, 490])
    assert winner(st) == EW
    assert winner(north_nt(RULES, "7NT", 7, totals=[290, 490])) == NS


def test_E2_no_swamp(tmp_path):
    e2 = variant(tmp_path, "game: {swamp: null}")
    ref = north_nt(RULES, "7NT", 6, totals=[-280, 0])
    assert ref.totals == [-500, 40] and winner(ref) == EW
    st = north_nt(e2, "7NT", 6, totals=[-900, 0])
    assert st.totals == [-1120, 40] and not st.is_terminal() and st.phase == Phase.DEAL


def test_E3_swamp_strictly_below(tmp_path):
    e3 = variant(tmp_path, "game: {swamp_strict: true}")
    assert winner(north_nt(RULES, "7NT", 6, totals=[-280, 0])) == EW
    st = north_nt(e3, "7NT", 6, totals=[-280, 0])
    assert st.totals == [-500, 40] and not st.is_terminal()
    assert winner(north_nt(e3, "7NT", 6, totals=[-290, 0])) == EW


def test_E3_swamp_only_while_the_opponents_are_not_negative(tmp_path):
    e3 = variant(tmp_path, "game: {swamp_needs_opponents_not_negative: true}")
    assert winner(north_nt(RULES, "7NT", 6, totals=[-280, -60])) == EW
    st = north_nt(e3, "7NT", 6, totals=[-280, -60])
    assert st.totals == [-500, -20] and not st.is_terminal()
    st = north_nt(e3, "7NT", 6, totals=[-280, -40])  # E–W climb back to 0: not negative
    assert st.totals == [-500, 0] and winner(st) == EW


def test_E4_point_spread_ends_the_game(tmp_path):
    e4 = variant(tmp_path, "game: {spread: 500}")
    ref = north_nt(RULES, "7NT", 6, totals=[-100, 200])
    assert ref.totals == [-320, 240] and not ref.is_terminal()
    st = north_nt(e4, "7NT", 6, totals=[-100, 200])
    assert winner(st) == EW  # positive, 560 ahead of a negative side
    st = north_nt(e4, "6NT", 6, totals=[300, -150])
    assert st.totals == [420, -110] and winner(st) == NS  # the positive side wins, contractor or not
    st = north_nt(e4, "6NT", 6, totals=[300, 0])
    assert st.totals == [420, 40] and not st.is_terminal()  # both positive: no spread


E5 = "game: {exact_target: true, bust: 1000}"


def test_E5_must_land_exactly_on_500(tmp_path):
    e5 = variant(tmp_path, E5)
    assert winner(north_nt(RULES, "7NT", 7, totals=[300, 0])) == NS
    st = north_nt(e5, "7NT", 7, totals=[300, 0])
    assert st.totals == [520, 30] and not st.is_terminal()  # past 500: play on
    st = north_nt(e5, "7NT", 7, totals=[280, 0])
    assert st.totals == [500, 30] and winner(st) == NS


def test_E5_defence_landing_on_500_does_not_win(tmp_path):
    e5 = variant(tmp_path, E5)
    st = north_nt(e5, "7NT", 6, totals=[0, 460])
    assert st.totals == [-220, 500] and not st.is_terminal()


def test_E5_reaching_1000_loses(tmp_path):
    e5 = variant(tmp_path, E5)
    ref = north_nt(RULES, "7NT", 6, totals=[0, 960])
    assert ref.totals == [-220, 1000] and not ref.is_terminal()
    st = north_nt(e5, "7NT", 6, totals=[0, 960])
    assert winner(st) == NS and "1000" in st.result.reason
    st = north_nt(e5, "7NT", 6, totals=[0, 950])
    assert st.totals == [-220, 990] and not st.is_terminal()
    st = north_nt(e5, "7NT", 6, totals=[-280, 0])  # the swamp still applies
    assert winner(st) == EW


def test_E5_bust_beats_reaching_the_target(tmp_path):
    """With any points winning (E1) and no exact target, a side jumping to 1000 goes bust, not out."""
    bust = variant(tmp_path, "game: {win: any, bust: 1000}")
    assert winner(north_nt(bust, "7NT", 6, totals=[0, 960])) == NS
    assert winner(north_nt(bust, "7NT", 6, totals=[0, 950])) == EW  # 990: past 500, short of 1000


# --- more than two sides ----------------------------------------------------------------------------

THREE_HANDED = """
players:
  seats: [A, B, C]
  teams: [{name: A, seats: [A]}, {name: B, seats: [B]}, {name: C, seats: [C]}]
deck:
  suits:
    S: [A, K, Q, J, "10", "9", "8", "7"]
    C: [A, K, Q, J, "10", "9", "8", "7"]
    D: [A, K, Q, J, "10", "9", "8", "7"]
    H: [A, K, Q, J, "10", "9", "8", "7"]
auction:
  ladder:
    - {call: 6S, value: 40}
    - {call: 6C, value: 60}
    - {call: 6D, value: 80}
    - {call: 6H, value: 100}
    - {call: 6NT, value: 120}
    - {call: 7S, value: 140}
    - {call: 7C, value: 160}
    - {call: 7D, value: 180}
    - {call: 7H, value: 200}
    - {call: 7NT, value: 220}
    - {call: misere, value: 250}
    - {call: 8S, value: 240}
    - {call: 8C, value: 260}
    - {call: 8D, value: 280}
    - {call: 8H, value: 300}
    - {call: 8NT, value: 320}
    - {call: 9S, value: 340}
    - {call: 9C, value: 360}
    - {call: 9D, value: 380}
    - {call: 9H, value: 400}
    - {call: 9NT, value: 420}
    - {call: 10S, value: 440}
    - {call: 10C, value: 460}
    - {call: 10D, value: 480}
    - {call: open-misere, value: 500}
    - {call: 10H, value: 500}
    - {call: 10NT, value: 520}
"""

THREE_DEAL = (
    "AS KS QS JS 10S 9S 8S 7S 8H 7H",
    "AH KH QH JH 10H 9H AC KC QC JC",
    "AD KD QD JD 10D 9D 8D 7D 10C 9C",
    "8C 7C JK",
)
"""A holds the spades and two low hearts, B the high hearts and clubs, C the diamonds."""


def three_handed_nt(rules: Rules, call: str, won: int, totals: list[int]) -> GameState:
    """Dealer C: A bids ``call`` (B and C pass), wins ``won`` spades (B throws clubs, then its low
    hearts), then gives B the lead for good with the 8♥."""
    st = GameState(rules, first_dealer=2)
    st.deal_cards([parse_cards(h) for h in THREE_DEAL[:3]], parse_cards(THREE_DEAL[3]))
    st.totals = list(totals)
    act(st, f"{call} pass pass 8C 7C JK")
    tricks(st, [*SPADES[:won], "8H"])
    finish(st)
    return st


def test_P3_three_sides_swamped_contractor_highest_other_side_wins(tmp_path):
    three = variant(tmp_path, THREE_HANDED, "three")
    st = three_handed_nt(three, "7NT", 6, totals=[-400, 100, 300])
    assert log(st).tricks_won == [6, 4, 0]
    assert scores(st) == [-220, 40, 0] and st.totals == [-620, 140, 300]
    assert winner(st) == 2  # C, the highest other side, not B who took the tricks


def test_P3_three_sides_contract_made_to_500_wins(tmp_path):
    three = variant(tmp_path, THREE_HANDED, "three")
    st = three_handed_nt(three, "7NT", 7, totals=[300, 490, 0])
    assert st.totals == [520, 520, 0] and winner(st) == 0


def test_FC_three_sides_each_opponent_gains(tmp_path):
    fc3 = variant(tmp_path, THREE_HANDED + FC, "fc3")
    st = three_handed_nt(fc3, "7NT", 6, totals=[0, 0, 0])
    assert scores(st) == [0, 260, 220]


SIX_HANDED = """
players:
  seats: [N1, E1, S1, N2, E2, S2]
  teams: [{name: A, seats: [N1, N2]}, {name: B, seats: [E1, E2]}, {name: C, seats: [S1, S2]}]
deck:
  suits:
    S: [A, K, Q, J, "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    C: [A, K, Q, J, "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    D: [A, K, Q, J, "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    H: [A, K, Q, J, "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
"""


def test_P6_three_teams_of_two_score_and_swamp(tmp_path):
    six = variant(tmp_path, SIX_HANDED, "six")
    c = six.ladder[six.parse_call("8H")]
    failed = HandOutcome(c, 0, 0, (3, 2, 1, 4, 0, 0), (7, 2, 1), False, 10, 10, (0, 3))
    assert six.score_hand(failed) == [-300, 20, 10]
    result = six.game_result([-510, 20, 30], failed)
    assert result is not None and result.winner == 2  # the highest other side
    made = HandOutcome(c, 0, 0, (5, 2, 1, 3, 0, 0), (8, 2, 1), True, 10, 10, (0, 3))
    assert six.score_hand(made) == [300, 20, 10]
    assert six.game_result([520, 510, 10], made).winner == 0
    assert six.game_result([480, 510, 10], made) is None  # defence points alone never win


# --- P5: a called partner ------------------------------------------------------------------------

FIVE_HANDED = """
players:
  seats: [A, B, C, D, E]
  teams: [{name: A, seats: [A]}, {name: B, seats: [B]}, {name: C, seats: [C]}, {name: D, seats: [D]},
          {name: E, seats: [E]}]
  partnership: called-card
  called_partner_share: SHARE
deck:
  suits:
    S: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    C: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    D: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    H: [A, K, Q, J, "10", "9", "8", "7", "6", "5", "4", "3", "2"]
"""




def five_handed_8nt(rules: Rules, called: str, won: int) -> GameState:
    """Dealer E: A bids 8NT, discards 5♠ 4♠ JK, calls ``called`` (a card, or 'alone'), wins ``won``
    spades and gives B the lead with the 2♥."""
    st = GameState(rules, first_dealer=4)
    st.deal_cards([parse_cards(h) for h in FIVE_DEAL[:5]], parse_cards(FIVE_DEAL[5]))
    act(st, f"8NT pass pass pass pass 5S 4S JK {called}")
    tricks(st, [*SPADES[:won], "2H"])
    finish(st)
    return st


@pytest.mark.parametrize(("share", "partner_points"), [("full", 320), ("half", 160)])
def test_P5_called_partner_scores_in_play(tmp_path, share, partner_points):
    five = variant(tmp_path, FIVE_HANDED.replace("SHARE", share), share)
    st = five_handed_8nt(five, "AH", 6)  # B holds the A♥: A and B take all ten
    assert log(st).tricks_won == [6, 4, 0, 0, 0]
    assert scores(st) == [320, partner_points, 0, 0, 0]
    st = five_handed_8nt(five, "AC", 6)  # C holds the A♣ and takes nothing: 6 of 8, failed
    assert scores(st) == [-320, 40, -partner_points, 0, 0]
    st = five_handed_8nt(five, "alone", 8)
    assert scores(st) == [320, 20, 0, 0, 0]


@pytest.mark.parametrize(("share", "partner_points"), [("full", 300), ("half", 150)])
def test_P5_called_partner_scores_full_or_half(tmp_path, share, partner_points):
    five = variant(tmp_path, FIVE_HANDED.replace("SHARE", share), share)
    c = five.ladder[five.parse_call("8H")]
    # A called C's card: A and C take 8 between them; B, D and E score their own tricks.
    made = HandOutcome(c, 0, 0, (5, 1, 3, 0, 1), (5, 1, 3, 0, 1), True, 10, 10, (0, 2))
    assert five.score_hand(made) == [300, 10, partner_points, 0, 10]
    failed = HandOutcome(c, 0, 0, (4, 2, 3, 0, 1), (4, 2, 3, 0, 1), False, 10, 10, (0, 2))
    assert five.score_hand(failed) == [-300, 20, -partner_points, 0, 10]
    alone = HandOutcome(c, 0, 0, (8, 1, 0, 0, 1), (8, 1, 0, 0, 1), True, 10, 10, (0,))
    assert five.score_hand(alone) == [300, 10, 0, 0, 10]


def test_P5_called_partner_reaching_500_wins(tmp_path):
    five = variant(tmp_path, FIVE_HANDED.replace("SHARE", "half"), "half")
    c = five.ladder[five.parse_call("8H")]
    made = HandOutcome(c, 0, 0, (5, 1, 3, 0, 1), (5, 1, 3, 0, 1), True, 10, 10, (0, 2))
    assert five.game_result([400, 10, 550, 0, 10], made).winner == 2  # on the contracting side
    assert five.game_result([400, 520, 450, 0, 10], made) is None  # B only defended


# --- contradictions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "key", "words"), [
    ("game: {target: 0}", "game.target", "above 0"),
    ("game: {target: 500, swamp: 600}", "game.swamp", "not below the target"),
    ("game: {swamp: 0}", "game.swamp", "below 0"),
    ("game: {swamp: null, swamp_strict: true}", "game.swamp", "E3"),
    ("game: {bust: 500}", "game.bust", "E5"),
    ("game: {spread: 0}", "game.spread", "E4"),
    ("game: {both_reach: higher}", "game.both_reach", "E1"),
    ("game: {mid_hand: true}", "game.mid_hand", "E6"),  # without win: any
    ("scoring: {defender_cap: 500}", "scoring.defender_cap", "not below the target"),
    ("scoring: {overtrick_cap: 520}", "scoring.overtrick_cap", "S3"),
])
def test_contradictions_in_scoring_and_game_end(tmp_path, body, key, words):
    with pytest.raises(RulesetError) as caught:
        fivehundred.load_ruleset(write(tmp_path, body))
    assert any(f": {key}: " in p and words in p for p in caught.value.problems), caught.value.problems


def test_variant_fields_without_contradiction_load(tmp_path):
    for i, body in enumerate([S3, FC, E5, "game: {spread: 500, swamp: null}", "game: {win: any, both_reach: higher}",
                              "game: {swamp: 0, swamp_strict: true}"]):
        fivehundred.load_ruleset(write(tmp_path, body, f"ok{i}"))


# --- what the scoring reads once per ruleset -----------------------------------------------------


def _reference_and_variant() -> tuple[fivehundred.Ruleset, fivehundred.Ruleset]:
    """The reference, and a copy scoring S3 overtricks, S6, FC, E2 and a target of 1000."""
    ref = RULES.ruleset
    scoring = ref.scoring.model_copy(update={"overtrick_points": 10, "slam": None, "defender_trick_points": 0,
                                             "failed": "opponents-gain"})
    game = ref.game.model_copy(update={"target": 1000, "swamp": None})
    return ref, ref.model_copy(update={"scoring": scoring, "game": game})


def test_two_rulesets_alive_at_once_each_score_by_their_own_fields():
    """Hands of two rulesets interleaved, as two simulations in one process would ask them: each
    is scored, and each game ended, by its own fields."""
    from fivehundred.plugins.scoring import fivehundred_game_result, fivehundred_score_hand

    ref, var = _reference_and_variant()
    c = RULES.ladder[RULES.parse_call("7NT")]
    made = HandOutcome(c, 0, NS, (4, 2, 4, 0), (8, 2), True, 10, 10, (0, 2), (0, 0))
    failed = HandOutcome(c, 0, NS, (3, 3, 3, 1), (6, 4), False, 10, 10, (0, 2), (0, 0))
    for _ in range(2):
        assert fivehundred_score_hand(ref, made) == [220, 20]
        assert fivehundred_score_hand(var, made) == [230, 0]  # one overtrick, no defence points
        assert fivehundred_score_hand(var, failed) == [0, 220]  # FC
        assert fivehundred_score_hand(ref, failed) == [-220, 40]
        assert fivehundred_game_result(ref, [520, 0], made) == (NS, "NS made its contract and reached 520")
        assert fivehundred_game_result(var, [520, 0], made) is None  # the target is 1000
        assert fivehundred_game_result(ref, [-520, 40], failed) == (
            EW, "NS fell to -520; EW, highest of the others with 40, wins")
        assert fivehundred_game_result(var, [-520, 40], failed) is None  # no swamp


def test_a_ruleset_at_a_stale_id_is_read_afresh():
    """The per-ruleset values are kept by ``id``, and the ruleset beside them keeps that id taken;
    were another ruleset ever to turn up at the same id (as after the first were freed), it must not
    be scored by the first one's values.  Planted here: an entry for the variant under the reference's id."""
    from fivehundred.plugins import scoring, scoring_plan

    ref, var = _reference_and_variant()
    c = RULES.ladder[RULES.parse_call("7NT")]
    made = HandOutcome(c, 0, NS, (4, 2, 4, 0), (8, 2), True, 10, 10, (0, 2), (0, 0))
    planted = (var, scoring_plan._Plan(var))
    kept = scoring_plan._plans.get(id(ref))
    scoring_plan._plans[id(ref)] = planted
    try:
        assert scoring.fivehundred_score_hand(ref, made) == [220, 20]
        scoring_plan._plans[id(ref)] = planted
        assert scoring.fivehundred_game_result(ref, [520, 0], made) == (NS, "NS made its contract and reached 520")
        assert scoring_plan._plans[id(ref)][0] is ref
    finally:
        if kept is not None:
            scoring_plan._plans[id(ref)] = kept


# --- found by the mutation run: the scoring hooks asked directly, as the engine asks them after a hand ----


SEVEN_NT = RULES.ladder[RULES.parse_call("7NT")]
MADE = HandOutcome(SEVEN_NT, 0, NS, (4, 2, 4, 0), (8, 2), True, 10, 10, (0, 2), (0, 0))
"""North and South made 7NT with eight tricks."""
FAILED = HandOutcome(SEVEN_NT, 0, NS, (3, 3, 3, 1), (6, 4), False, 10, 10, (0, 2), (0, 0))
"""North and South fell one short of 7NT."""


def game(**fields: Any) -> Ruleset:
    """The reference with these ``game`` fields."""
    ref = RULES.ruleset
    return ref.model_copy(update={"game": ref.game.model_copy(update=fields)})


def test_each_ruleset_is_judged_by_its_own_target_whichever_was_asked_first():
    """Both hooks keep what a ruleset fixes per ruleset object: a copy with another target, asked
    between two questions about the reference, answers by its own target, and the reference by its."""
    ruleset = game(target=750)
    for _ in range(2):
        assert fivehundred_game_result(RULES.ruleset, [520, 0], MADE) == (NS, "NS made its contract and reached 520")
        assert fivehundred_game_result(ruleset, [520, 0], MADE) is None
        assert fivehundred_game_result(ruleset, [760, 0], MADE) == (NS, "NS made its contract and reached 760")


def test_E5_bust_without_a_swamp_ends_the_game():
    bust = game(swamp=None, exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [1010, 40], MADE) == (
        EW, "NS passed 1000 with 1010; EW, highest of the others with 40, wins")
    assert fivehundred_game_result(bust, [-2000, 40], FAILED) is None  # no swamp: play on


def test_E5_bust_is_named_as_such_beside_a_swamp():
    bust = game(exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [40, 1020], FAILED) == (
        NS, "EW passed 1000 with 1020; NS, highest of the others with 40, wins")


def test_the_first_side_at_the_swamp_is_named():
    """Both sides at the swamp (a variant's penalties can do it): the first listed is named, and the
    higher of the two wins, no other side being left."""
    assert fivehundred_game_result(RULES.ruleset, [-600, -550], FAILED) == (
        EW, "NS fell to -600; EW, highest of the others with -550, wins")


@pytest.mark.parametrize(("totals", "winner"), [
    ([450, 0], None),  # a side at 0 is not negative: no spread win
    ([0, -450], None),
    ([200, -100], None),  # 300 apart, short of the 400 spread
    ([300, -100], NS),  # exactly the spread
    ([1, -399], NS),
    ([400, -1], NS),
    ([-150, 250], EW),
])
def test_E4_spread_needs_one_side_positive_one_negative_and_the_distance(totals, winner):
    spread = game(spread=400)
    result = fivehundred_game_result(spread, totals, FAILED)
    assert (result and result.winner) == winner if winner is not None else result is None


THREE_TEAMS = fivehundred.load_ruleset("six-handed-three-teams")
"""Teams A, B and C (seats A1 B1 C1 A2 B2 C2): three sides, so that two can tie for the highest."""
A, B, C = 0, 1, 2


def three_teams(contractor_team: int, made: bool = False, **fields: Any) -> tuple[Ruleset, HandOutcome]:
    """Six-handed in three teams with these ``game`` fields, and a hand whose contract the team played."""
    ruleset = THREE_TEAMS.model_copy(update={"game": THREE_TEAMS.game.model_copy(update=fields)})
    seat = contractor_team if contractor_team >= 0 else 0
    tricks = (2, 2, 1, 2, 1, 2)
    outcome = HandOutcome(SEVEN_NT, seat if contractor_team >= 0 else -1, contractor_team, tricks, (4, 3, 3), made,
                          10, 10, (seat, seat + 3) if contractor_team >= 0 else (), (0, 0, 0))
    return ruleset, outcome


@pytest.mark.parametrize(("totals", "ct", "winner"), [
    ((300, 300, -150), B, B),  # a tie for the highest goes to the contractor's team …
    ((300, 300, -150), A, A),
    ((300, 300, -150), C, A),  # … else to the first listed
    ((-150, 300, 300), A, B),
    ((-150, 300, 300), C, C),
    ((300, 280, -150), B, A),  # a higher total beats the contractor's tie-break
    ((280, 300, -150), A, B),
])
def test_E4_the_highest_side_wins_ties_to_the_contractor_then_the_first(totals, ct, winner):
    ruleset, outcome = three_teams(ct, spread=400)
    result = fivehundred_game_result(ruleset, list(totals), outcome)
    assert result is not None and result.winner == winner


@pytest.mark.parametrize(("totals", "ct", "winner"), [
    ((-600, 100, 100), A, B),  # the contractor's team went out: the first of the tied others
    ((100, -600, 100), B, A),
    ((100, 100, -600), B, B),  # the contractor's team is among the tied
    ((100, 120, -600), A, B),
    ((-600, -600, -600), C, C),  # every side out: the highest of all, the contractor's on a tie …
    ((-600, -600, -600), -1, A),  # … the first listed when nobody contracted
    ((-600, -550, -600), -1, B),
])
def test_rule_29_the_highest_of_the_others_wins_ties_to_the_contractor_then_the_first(totals, ct, winner):
    ruleset, outcome = three_teams(ct)
    result = fivehundred_game_result(ruleset, list(totals), outcome)
    assert result is not None and result.winner == winner


def test_E5_the_first_side_past_bust_is_named():
    bust = game(exact_target=True, bust=1000)
    assert fivehundred_game_result(bust, [1010, 1050], MADE) == (
        EW, "NS passed 1000 with 1010; EW, highest of the others with 1050, wins")


FIVE = fivehundred.load_ruleset("five-handed")
"""Five lone players (seat = team); the contractor (seat 0) calls seat 2 as partner (P5)."""


@pytest.mark.parametrize(("value", "made", "half"), [(240, True, 120), (125, True, 62), (5, True, 2), (1, True, 0),
                                                     (1, False, 0), (5, False, -2), (125, False, -62),
                                                     (250, False, -125)])
def test_P5_the_partner_scores_the_contract_in_full_or_half_rounded_toward_zero(value, made, half):
    contract = Contract("6S", 5, "trumps", value, 6, trump=0)
    tricks = (4, 1, 2, 2, 1) if made else (3, 2, 2, 2, 1)
    outcome = HandOutcome(contract, 0, 0, tricks, tricks, made, 10, 10, (0, 2), (0,) * 5)
    points = value if made else -value
    defence = [0, 10 * tricks[1], 0, 10 * tricks[3], 10 * tricks[4]]
    halved = FIVE.model_copy(update={"players": FIVE.players.model_copy(update={"called_partner_share": "half"})})
    assert fivehundred_score_hand(halved, outcome) == [points, defence[1], half, defence[3], defence[4]]
    assert fivehundred_score_hand(FIVE, outcome) == [points, defence[1], points, defence[3], defence[4]]


@pytest.mark.parametrize(("value", "all_ten"), [(240, 400), (249, 400), (250, 250), (260, 260)])
def test_rule_25_slam_only_below_its_bound(value, all_ten):
    """A slam worth 400 for contracts below 250: a contract worth exactly 250 scores its value."""
    rs = RULES.ruleset.scoring.model_copy(update={"slam": Slam(below=250, scores=400)})
    contract = Contract("8S", 15, "trumps", value, 8, trump=0)
    assert contract_points(rs, contract, 10, 10, True) == all_ten
    assert contract_points(rs, contract, 9, 10, True) == value


def test_E4_the_spread_win_names_the_distance():
    assert fivehundred_game_result(game(spread=400), [300, -150], FAILED) == (
        NS, "NS leads by 450 (point spread of 400)")


@pytest.mark.parametrize(("totals", "out"), [([-520, 0], True), ([-520, -1], False), ([-520, 30], True)])
def test_E3_the_swamp_takes_a_side_out_only_while_the_others_are_not_negative(totals, out):
    e3 = game(swamp_needs_opponents_not_negative=True)
    result = fivehundred_game_result(e3, totals, FAILED)
    assert (result == (EW, f"NS fell to -520; EW, highest of the others with {totals[1]}, wins")) if out \
        else result is None
