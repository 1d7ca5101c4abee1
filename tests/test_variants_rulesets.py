"""New variants proved as ruleset data only (issue 10, item 5): the 1904 American game with its inkles
(B7) and its mid-hand end (E6), six-handed 500 with two jokers (P6 + D2), and six-handed 500 with
each of the six playing alone (P6, the "individual" game of “Cómo jugar”).

Every hand is dealt by hand and played from a script; the expected scores are worked out in the
comments.  Each ruleset also plays 20 random games whose records validate, and ``rules show`` prints it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import SPLIT, SUITED, N, S, W, act, cards, finish, legal, log, tricks
from typer.testing import CliRunner

import fivehundred
from fivehundred.cli.app import app
from fivehundred.engine.state import GameState, Phase
from fivehundred.records.record import game_to_dict
from fivehundred.records.validation import validate_record
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.manager import Rules, compile_rules

NEW_OR_CHANGED = ("american-1904", "six-handed-two-jokers", "six-handed-individual")


def shipped(name: str) -> Rules:
    return compile_rules(fivehundred.load_ruleset(name))


def dealt(rules: Rules, deal: Sequence[str], *, dealer: int, totals: Sequence[int] | None = None) -> GameState:
    """A game under ``rules`` whose first hand is ``deal`` (hands by seat, then the kitty)."""
    st = GameState(rules, first_dealer=dealer)
    st.deal_cards([cards(h) for h in deal[:-1]], cards(deal[-1]))
    if totals is not None:
        st.totals = list(totals)
    return st


def validates(st: GameState) -> None:
    """The game's record replays without a problem under its own ruleset."""
    problems = validate_record(game_to_dict(st), ruleset=st.rules.ruleset)
    assert problems == [], problems


def refused(st: GameState, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        st.apply(st.parse_action(text))
    return caught.value


# --- american-1904: B7 inkles ------------------------------------------------------------------------

AMERICAN = shipped("american-1904")
SIXES = {"6S", "6C", "6D", "6H", "6NT"}


def test_B7_american_1904_only_the_first_two_players_may_inkle() -> None:
    st = dealt(AMERICAN, SUITED, dealer=W)
    assert legal(st) >= SIXES  # N, the first to call
    act(st, "6D")
    assert {"6H", "6NT"} <= legal(st) and not {"6S", "6C", "6D"} & legal(st)  # E: inkles rank as bids
    act(st, "6H")
    assert not SIXES & legal(st) and "7S" in legal(st)  # S, the third to call: seven or more
    error = refused(st, "6NT")
    assert error.rule.startswith("B7:") and "first 2 calls" in error.rule
    st = dealt(AMERICAN, SUITED, dealer=W)
    act(st, "pass pass")  # the first two passed: the third still may not inkle
    assert refused(st, "6S").rule.startswith("B7:")
    reference = dealt(shipped("pagat-australian"), SUITED, dealer=W)
    act(reference, "pass pass 6S")  # in the reference a six is an ordinary bid …
    assert reference.phase == Phase.AUCTION and log(reference).calls[-1] == (S, reference.rules.parse_call("6S"))


def test_B7_american_1904_a_standing_inkle_is_no_contract_the_hand_is_thrown_in() -> None:
    st = dealt(AMERICAN, SUITED, dealer=W)
    act(st, "6NT pass pass pass")  # N inkles, everyone passes: as if all had passed (B5: one round)
    assert st.phase == Phase.DEAL and log(st).contract is None and log(st).contractor == -1
    assert st.dealer == N and st.totals == [0, 0]  # the deal passes on (deal.all_pass: redeal); nothing scored
    hand = game_to_dict(st)["hands"][0]
    assert [c["call"] for c in hand["calls"]] == ["6NT", "pass", "pass", "pass"] and hand["contract"] is None
    validates(st)


def test_B7_american_1904_a_seven_over_the_inkle_plays_and_scores_the_1904_table() -> None:
    st = dealt(AMERICAN, SUITED, dealer=W)
    act(st, "6D pass 7NT pass")  # N inkles diamonds, S (holding them) bids 7NT; single round: over
    assert str(log(st).contract) == "7NT" and log(st).contractor == S
    act(st, "JK 6D 5D")  # S discards the joker (no nomination) and two low diamonds
    assert st.phase == Phase.PLAY
    # S holds AD KD QD JD 10D 9D 8D 7D 4D 4H: every diamond wins (the others are void), then the 4H
    # gives the lead to W, who wins it.
    tricks(st, ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "4D", "4H"])
    assert log(st).tricks_won == [0, 0, 9, 1]
    assert log(st).scores == [300, 10]  # 7NT is 300 in the 1904 table (220 in Avondale); EW 10 for a trick
    validates(st)


# --- american-1904: E6, the 1904 mid-hand end ------------------------------------------------------



def north_7nt(totals: Sequence[int], spades: int) -> GameState:
    """N bids 7NT (300 in the 1904 table), discards the kitty, wins ``spades`` spade tricks, then leads
    the 4H: W wins every trick left."""
    st = dealt(AMERICAN, SPLIT, dealer=W, totals=totals)
    act(st, "7NT pass pass pass 5H 4D JK")
    tricks(st, [*SPLIT[0].split()[:spades], "4H"])
    finish(st)
    return st


def test_E6_american_1904_the_defence_reaching_500_ends_the_hand_when_the_bidder_cannot_win() -> None:
    # After W's third trick EW reach 500.  N has 4 and 3 are left: 7NT could still be made, but its
    # 300 would take NS only to 300: the bidder cannot win, so the hand stops (the encyclopedia article's 1904 rule).
    st = north_7nt([0, 470], 4)
    assert len(log(st).tricks) == 7 and log(st).tricks_won == [4, 0, 0, 3]
    assert log(st).scores == [-300, 30] and st.totals == [-300, 500]
    assert st.is_terminal() and st.result is not None and st.result.winner == 1


def test_E6_american_1904_the_hand_goes_on_while_the_bidder_can_still_win() -> None:
    # NS at 250: made, 7NT would take them to 550, so W's third trick does not end the hand; W's
    # fourth leaves N at most six tricks, and then it ends.
    st = north_7nt([250, 470], 4)
    assert len(log(st).tricks) == 8 and log(st).tricks_won == [4, 0, 0, 4]
    assert st.totals == [-50, 510] and st.result is not None and st.result.winner == 1
    # N takes seven spades first: the 4H gives W the last three, EW reach 500 on the eighth trick,
    # but N has made 7NT and wins the game (E1: both reach 500, the contractors win).
    st = north_7nt([250, 490], 7)
    assert len(log(st).tricks) == 10 and log(st).tricks_won == [7, 0, 0, 3]
    assert st.totals == [550, 520] and st.result is not None and st.result.winner == 0


def test_E6_american_1904_is_switched_on_and_the_reference_plays_the_hand_out() -> None:
    assert AMERICAN.ruleset.game.mid_hand and AMERICAN.trick_check is not None
    reference = shipped("pagat-australian")
    assert reference.trick_check is None
    st = dealt(reference, SPLIT, dealer=W, totals=[0, 470])
    act(st, "7NT pass pass pass 5H 4D JK")
    tricks(st, [*SPLIT[0].split()[:4], "4H"])
    finish(st)
    assert len(log(st).tricks) == 10 and st.totals == [-220, 530]
    assert st.result is None  # rule 30: defence points alone do not win


# --- six-handed-two-jokers: P6 with D2 ---------------------------------------------------------------

TWO_JOKERS = shipped("six-handed-two-jokers")
SIX_TWO_JOKERS = (
    "JK2 JS JC AS KS QS 12S 11S 10S 9S",
    "JK AH KH QH JH 13H 12H 11H 10H 9H",
    "AD KD QD JD 13D 12D 11D 10D 9D 8D",
    "AC KC QC 12C 11C 10C 9C 8C 7C 6C",
    "8S 7S 6S 5S 4S 3S 2S 5C 4C 3C",
    "8H 7H 6H 5H 4H 3H 2H 7D 6D 5D",
    "4D 3D 2D 2C",
)
"""Seats N1 E1 N2 E2 N3 E3, then the kitty of 4: N1 holds the red joker and eight spades with both
bowers, E1 the black joker and hearts, N2 diamonds, E2 clubs, N3 low spades, E3 low hearts."""

SIX_TWO_JOKERS_PLAY = """
    JK2 JK 8D 6C 2S 2H | AH 9D 7C 3C 3H 9S
    JS 9H 10D 8C 3S 4H | JC 10H 11D 9C 4S 5H | AS 11H 12D 10C 5S 6H | KS 12H 13D 11C 6S 7H
    QS 13H JD 12C 7S 8H | 12S JH QD QC 8S 5D | 11S QH KD KC 4C 6D | 10S KH AD AC 5C 7D
"""
"""N1 leads the red joker and E1 must follow with the black one, which wins; E1 leads the A♥ and N1
ruffs; then N1 draws every trump and wins the rest: N1 nine tricks, E1 one."""


def test_P6_two_jokers_64_cards_kitty_of_4_and_one_more_trump() -> None:
    six = shipped("six-handed")
    assert (len(TWO_JOKERS.deck), TWO_JOKERS.players, TWO_JOKERS.hand_size, TWO_JOKERS.kitty_size) == (64, 6, 10, 4)
    assert (len(six.deck), six.kitty_size) == (63, 3)
    assert set(TWO_JOKERS.deck) - set(six.deck) == set(cards("JK2"))
    assert TWO_JOKERS.ruleset.players == six.ruleset.players  # two teams of three, alternate seats

    def trumps(rules: Rules, call: str) -> int:
        c = rules.ladder[rules.parse_call(call)]
        table = rules.play_table(c)
        return sum(table.suit_of[card] == c.trump for card in rules.deck)

    assert [trumps(six, c) for c in ("7S", "7C", "7D", "7H")] == [17, 17, 18, 18]
    assert [trumps(TWO_JOKERS, c) for c in ("7S", "7C", "7D", "7H")] == [18, 18, 19, 19]
    with pytest.raises(IllegalActionError, match="deck"):  # the 63-card deal is not this ruleset's deck
        dealt(TWO_JOKERS, (*SIX_TWO_JOKERS[:6], "4D 3D 2D"), dealer=5)


def test_D2_six_handed_the_black_joker_beats_the_red_one_in_a_full_hand() -> None:
    st = dealt(TWO_JOKERS, SIX_TWO_JOKERS, dealer=5)
    act(st, "7S pass pass pass pass pass")
    assert st.phase == Phase.DISCARD and len(st.observation(0).hand) == 14  # the kitty of 4
    act(st, "4D 3D 2D 2C")
    assert st.phase == Phase.PLAY and len(log(st).discards) == 4
    act(st, "JK2")
    assert legal(st) == {"JK"}  # the red joker is a trump: E1 must follow with its only trump
    act(st, SIX_TWO_JOKERS_PLAY.split("|")[0].split(None, 1)[1])
    assert log(st).tricks[0].winner == 1  # the black joker wins
    act(st, "|".join(SIX_TWO_JOKERS_PLAY.split("|")[1:]))
    assert log(st).tricks_won == [9, 1, 0, 0, 0, 0]
    assert log(st).scores == [140, 10]  # N made 7S (140); E took one trick
    validates(st)


def test_D2_six_handed_two_jokers_at_no_trumps_the_black_joker_wins() -> None:
    st = dealt(TWO_JOKERS, SIX_TWO_JOKERS, dealer=5)
    act(st, "7NT pass pass pass pass pass 4D 3D 2D 2C")
    assert st.phase == Phase.NOMINATE  # N1 holds the red joker (rule 19)
    act(st, "S")
    act(st, "JK2")
    assert "JK" in legal(st)  # E1 is void in spades: its free joker beats the nominated one
    act(st, "JK")
    finish(st)
    assert log(st).tricks[0].winner == 1


# --- six-handed-individual: P6, each alone -------------------------------------------------------------

ALONE = shipped("six-handed-individual")
SIX_ALONE = (
    "JS JC AS KS QS 12S 11S 10S AD 2H",
    "JK AH KH QH JH 13H 12H 11H 10H 9H",
    "KD QD JD 13D 12D 11D 10D 9D 8D 7D",
    "AC KC QC 12C 11C 10C 9C 8C 7C 6C",
    "9S 8S 7S 6S 5S 4S 3S 2S 5C 4C",
    "8H 7H 6H 5H 4H 3H 6D 5D 4D 3D",
    "2D 3C 2C",
)
"""Seats A–F, then the kitty: A holds seven spades with both bowers, the A♦ and a low heart; B the
joker and hearts, C diamonds, D clubs, E low spades, F low hearts and diamonds."""

SIX_ALONE_PLAY = """
    JS JK KD 7C 9S 6D | AH 7D 6C 2S 3H 2H | 5C 3D AD 9H 8D AC | KC 4C 4D 10S 10H 9D
    JC 11H 10D QC 3S 4H | AS 12H 11D 12C 4S 5H | KS 13H 12D 11C 5S 6H | QS JH 13D 10C 6S 7H
    12S QH JD 9C 7S 8H | 11S KH QD 8C 8S 5D
"""
"""A leads the right bower and B must play the joker; B's A♥ is ruffed by E's 2♠; E's club lead is won
by D's A♣; A ruffs D's K♣ and draws the rest: A seven tricks, B, D and E one each."""


def alone_7s(totals: Sequence[int] | None = None) -> GameState:
    st = dealt(ALONE, SIX_ALONE, dealer=5, totals=totals)
    act(st, "7S pass pass pass pass pass 2D 3C 2C")
    act(st, SIX_ALONE_PLAY)
    return st


def test_P6_individual_six_sides_each_scores_its_own_tricks() -> None:
    assert (len(ALONE.deck), ALONE.players, ALONE.hand_size, ALONE.kitty_size) == (63, 6, 10, 3)
    assert ALONE.team_of == (0, 1, 2, 3, 4, 5) and len(ALONE.ruleset.players.teams) == 6
    st = dealt(ALONE, SIX_ALONE, dealer=5)
    act(st, "7S pass pass pass pass pass 2D 3C 2C JS")
    assert legal(st) == {"JK"}  # B's only trump
    st = alone_7s()
    assert log(st).tricks_won == [7, 1, 0, 1, 1, 0]
    # A made 7S alone: 140; B, D and E each score 10 for their own trick; C and F took none.
    assert log(st).scores == [140, 10, 0, 10, 10, 0]
    validates(st)


def test_P6_individual_no_misere_for_a_lone_player() -> None:
    assert not {"misere", "open-misere"} & set(ALONE.ruleset.contracts)
    st = dealt(ALONE, SIX_ALONE, dealer=5)
    act(st, "7S")
    assert "8S" in legal(st) and not {"misere", "open-misere"} & legal(st)
    with pytest.raises(ValueError, match="not a call of this ruleset"):
        st.parse_action("misere")
    teams = dealt(shipped("six-handed"), (*SIX_ALONE[:6], "2D 3C 2C"), dealer=5)
    act(teams, "7S")
    assert "misere" in legal(teams)  # three against three: the partners sit a misère out


def test_P6_individual_only_a_made_contract_takes_a_player_to_500() -> None:
    st = alone_7s(totals=[0, 490, 0, 0, 0, 0])
    assert st.totals == [140, 500, 0, 10, 10, 0] and st.result is None  # B's trick points alone: play on
    st = alone_7s(totals=[400, 490, 0, 0, 0, 0])
    assert st.totals == [540, 500, 0, 10, 10, 0] and st.result is not None and st.result.winner == 0


def test_P6_individual_a_lone_player_at_minus_500_loses_the_highest_other_wins() -> None:
    st = dealt(ALONE, SIX_ALONE, dealer=5, totals=[-400, 100, 300, 0, 0, 0])
    act(st, "8S pass pass pass pass pass 2D 3C 2C")
    act(st, SIX_ALONE_PLAY)  # seven tricks: 8S (240) fails
    assert log(st).scores == [-240, 10, 0, 10, 10, 0]
    assert st.totals == [-640, 110, 300, 10, 10, 0]
    assert st.result is not None and st.result.winner == 2  # C, the highest of the other five


# --- every new or changed ruleset: random games whose records validate, and ``rules show`` ------------


@pytest.mark.parametrize("name", NEW_OR_CHANGED)
def test_random_games_of_the_new_rulesets_validate(tmp_path: Path, name: str) -> None:
    out = tmp_path / f"{name}.jsonl"
    summary = fivehundred.simulate(games=20, seed=11, ruleset=name, players="random", out=out)
    assert summary.games == 20 and summary.unfinished == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 20 and all(r["ruleset"]["name"] == name for r in records)
    report = fivehundred.validate([out])
    assert report.checked == 20 and report.problems == []


def test_random_american_1904_games_never_make_an_inkle_the_contract(tmp_path: Path) -> None:
    out = tmp_path / "american.jsonl"
    fivehundred.simulate(games=20, seed=3, ruleset="american-1904", players="random", out=out)
    hands = [h for line in out.read_text(encoding="utf-8").splitlines() for h in json.loads(line)["hands"]]
    calls = [[c["call"] for c in h["calls"]] for h in hands]
    assert any(SIXES & set(c) for c in calls)  # random players inkle now and then …
    assert not any(h["contract"] and h["contract"]["call"] in SIXES for h in hands)  # … never the contract
    assert not any(SIXES & set(c[2:]) for c in calls)  # only the first two calls


def test_E6_american_1904_games_with_hands_ended_mid_way_validate(tmp_path: Path) -> None:
    out = tmp_path / "american.jsonl"
    fivehundred.simulate(games=60, seed=1, ruleset="american-1904", out=out)  # club players reach 500 (2 E6 ends)
    hands = [h for line in out.read_text(encoding="utf-8").splitlines() for h in json.loads(line)["hands"]]
    assert any(h["contract"] and len(h["tricks"]) < 10 for h in hands)  # E6 stopped a hand
    assert fivehundred.validate([out]).problems == []


@pytest.mark.parametrize(("name", "words"), [
    ("american-1904", ["inkles (B7)", "a signal to partner: never the contract",
                       "unless the contractor can still win"]),
    ("six-handed-two-jokers", ["2 jokers, JK highest, then JK2", "(64 cards)", "kitty of 4"]),
    ("six-handed-individual", ["each player scores alone (A, B, C, D, E, F)", "(63 cards)", "No misère"]),
])
def test_rules_show_prints_the_new_rulesets(name: str, words: list[str]) -> None:
    result = CliRunner().invoke(app, ["rules", "show", name], prog_name="fivehundred")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for word in words:
        assert word in text, word
