"""Score sheets (``fivehundred score``): a sheet written from a played game scores exactly as the
engine scored it, under every ruleset a sheet can describe; impossible lines are refused with their
line and rule; the table's written totals are checked and the first wrong hand is named."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app
from fivehundred.engine.state import CHANCE, GameState, new_game
from fivehundred.plugins.claims import wrong_claim
from fivehundred.records.sheets import SheetError, score_sheet
from fivehundred.rules.actions import PASS_ACTION
from fivehundred.rules.loading import load_ruleset, ruleset_paths
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.ruleset import Ruleset

HEADER = "dealer,contractor,contract,tricks,NS,EW"


def sheet_rows(state: GameState, *, by_side: bool = False) -> list[dict[str, Any]]:
    """The game as a table writes it down: a line per deal, the side's tricks (each side's when more
    than one side defends, or a passed-out deal is played, or ``by_side``), the called partner, a
    failed claim, the running totals."""
    rules = state.rules
    rows = []
    totals = dict.fromkeys(rules.team_names, 0)
    for log in state.hands_log:
        row: dict[str, Any] = {"dealer": rules.seats[log.dealer]}
        if log.contract is None or log.outcome is None:
            assert log.contract is None or log.contract.call == "no-bid", "a hand cut short"
            row["contract"] = "pass"
        else:
            outcome = log.outcome
            if outcome.contractor >= 0:
                row.update(contractor=rules.seats[outcome.contractor], contract=outcome.contract.call,
                           tricks=outcome.side_tricks)
            else:  # B10: everybody passed and the deal was played at no-trumps
                row["contract"] = "pass"
            if rules.ruleset.players.partnership == "called-card" and outcome.contractor >= 0:
                partner = [s for s in outcome.side if s != outcome.contractor]
                row["partner"] = rules.seats[partner[0]] if partner else "alone"
            if wrong_claim(outcome):
                row["claim"] = "failed"
            if log.steps.get("declaration") not in (None, "none"):  # C6/C7
                row["declaration"] = log.steps["declaration"]
            breacher = [seat for seat, called in log.steps.get("breach", ()) if called]  # R2
            if breacher:
                row["breach"] = rules.seats[breacher[0]]
            defending = {rules.team_of[s] for s in range(rules.players)} - {rules.team_of[s] for s in outcome.side}
            if by_side or outcome.contractor < 0 or len(defending) > 1:
                row.update({f"tricks_{team}": n for team, n in zip(rules.team_names, outcome.tricks_by_team,
                                                                   strict=True)})
                if outcome.contractor >= 0:
                    del row["tricks"]
            totals = dict(zip(rules.team_names, log.totals, strict=True))
        rows.append(row | totals)
    return rows


def house(tmp_path: Path, name: str, *fields: str) -> Ruleset:
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(("extends: pagat-australian", f"name: {name}", *fields)) + "\n", encoding="utf-8")
    return load_ruleset(str(path))


def played(rs: Ruleset | str, seeds: range, players: str = "random") -> list[GameState]:
    """Games a sheet can say everything about: finished, no hand cut short."""
    return [state for seed in seeds if (state := play_game(rs, seed, players)).result is not None]


def check_against_engine(state: GameState, rows: list[dict[str, Any]], rs: Ruleset | str) -> None:
    """The sheet scores every hand as the engine did, to the same totals, winner and reason."""
    teams = state.rules.team_names
    scored = score_sheet(rows, rs)
    assert scored.ok, scored.wrong_totals
    assert [h.scores for h in scored.hands] == [dict(zip(teams, log.scores or [0] * len(teams), strict=True))
                                                for log in state.hands_log]
    assert scored.totals == dict(zip(teams, state.totals, strict=True))
    winner = None if state.result is None else teams[state.result.winner]
    assert (scored.winner, scored.reason) == (winner, None if state.result is None else state.result.reason)


def sheet_rulesets() -> list[str]:
    """Every shipped ruleset: a sheet describes each of them."""
    return sorted(ruleset_paths())


@pytest.mark.parametrize("name", sheet_rulesets())
def test_a_sheet_of_a_played_game_scores_as_the_engine_did(name: str) -> None:
    games = played(name, range(10))
    assert len(games) >= 3, f"only {len(games)} finished games of {name}"
    for state in games:
        check_against_engine(state, sheet_rows(state), name)
        check_against_engine(state, sheet_rows(state, by_side=True), name)


def passing_every_other_deal(rs: Ruleset, seed: int) -> GameState:
    """A game of random choices in which everybody passes every other deal, and the bids are low."""
    state, rng = new_game(rs, seed)
    while not state.is_terminal() and state.deals < 80:
        if state.current_player() == CHANCE:
            state.deal(rng)
            continue
        legal = state.legal_actions()
        if PASS_ACTION in legal:  # the auction
            bids = [a for a in legal if a != PASS_ACTION]
            bid = state.deals % 2 and bids and rng.random() < 0.4
            state.apply(min(bids) if bid else PASS_ACTION)
        else:
            state.apply(rng.choice(legal))
    return state


def test_B10_a_passed_out_deal_played_at_no_trumps_scores_as_the_engine_did(tmp_path: Path) -> None:
    rs = house(tmp_path, "b10", "deal: {all_pass: no-trumps}")
    games = [state for seed in range(6) if (state := passing_every_other_deal(rs, seed)).result is not None]
    b10 = sum(log.outcome is not None and log.outcome.contractor < 0 for state in games for log in state.hands_log)
    assert len(games) >= 3 and b10 >= 3, (len(games), b10)
    for state in games:
        check_against_engine(state, sheet_rows(state), rs)


def test_L2_a_failed_claim_on_the_sheet_scores_as_the_engine_did(tmp_path: Path) -> None:
    rs = house(tmp_path, "claims", "play: {claims: true}")
    games = played(rs, range(24))
    failed = sum(log.outcome is not None and wrong_claim(log.outcome) for state in games for log in state.hands_log)
    assert len(games) >= 3 and failed >= 1, (len(games), failed)
    for state in games:
        check_against_engine(state, sheet_rows(state), rs)


def write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_sheet_follows_its_ruleset_s_scoring(tmp_path: Path) -> None:
    """The scoring comes from the ruleset: a house rule that gives defenders nothing changes the sheet."""
    house = write(tmp_path / "nodef.yaml", "extends: pagat-australian", "name: nodef",
                  "scoring: {defender_trick_points: 0}")
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,7H,8", "E,8S,7")
    ref = score_sheet(sheet, "pagat-australian")
    nodef = score_sheet(sheet, str(house))
    assert [h.scores for h in ref.hands] == [{"NS": 200, "EW": 20}, {"NS": 30, "EW": -240}]
    assert [h.scores for h in nodef.hands] == [{"NS": 200, "EW": 0}, {"NS": 0, "EW": -240}]


def test_a_game_won_and_its_winner(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,E,8S,7,230,-220", "E,,pass,,230,-220",
                  "S,S,misere,0,480,-220", "W,N,6NT,10,730,-220")
    scored = score_sheet(sheet)
    assert scored.ok and scored.winner == "NS" and scored.totals == {"NS": 730, "EW": -220}
    assert [h.number for h in scored.hands] == [1, 2, 3, 4, 5] and [h.line for h in scored.hands] == [2, 3, 4, 5, 6]
    assert scored.hands[2].made is None and scored.hands[2].scores == {"NS": 0, "EW": 0}  # rule 13
    assert scored.hands[4].scores["NS"] == 250  # rule 25: all ten on 6NT


def test_the_first_wrong_written_total_is_named(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,E,8S,7,230,-210", "E,S,6S,6,270,-200")
    wrong = score_sheet(sheet).wrong_totals
    assert wrong is not None and (wrong.line, wrong.hand) == (3, 2)
    assert (wrong.written, wrong.expected) == ({"NS": 230, "EW": -210}, {"NS": 230, "EW": -220})
    assert str(wrong).startswith(f"{sheet}:3: hand 2: the sheet says NS 230, EW -210 but the rules give")


def test_a_yaml_sheet_scores_as_the_csv_one(tmp_path: Path) -> None:
    csv_sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,E,8S,7,230,-220")
    yaml_sheet = write(tmp_path / "s.yaml", "hands:", "  - {dealer: W, contractor: N, contract: 7H, tricks: 8}",
                       "  - dealer: N", "    contractor: E", "    contract: 8S", "    tricks: 7",
                       "    NS: 230", "    EW: -210")
    a, b = score_sheet(csv_sheet), score_sheet(yaml_sheet)
    assert [h.totals for h in a.hands] == [h.totals for h in b.hands]
    assert b.wrong_totals is not None and (b.wrong_totals.line, b.wrong_totals.hand) == (3, 2)


@pytest.mark.parametrize(("line", "where", "rule"), [
    ("N,7H,11", "tricks", "rule 17"),
    ("N,7X,5", "contract", "rule 9"),
    ("N,misere,3", "tricks", "rule 27"),
    ("Q,7H,7", "contractor", "rule 1"),
    (",7H,7", "contractor", "rule 12"),
    ("N,pass,4", "contractor", "rule 13"),
    ("N,7H,seven", "tricks", None),
])
def test_an_impossible_line_is_refused_with_its_line_and_rule(tmp_path: Path, line: str, where: str,
                                                               rule: str | None) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,6S,6", line)
    with pytest.raises(SheetError) as e:
        score_sheet(sheet)
    assert str(e.value).startswith(f"{sheet}:3: {where}: "), e.value
    if rule is not None:
        assert f"({rule}" in str(e.value)


def test_a_hand_after_the_game_was_won(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,10NT,10", "E,6S,6", "S,6S,6")
    with pytest.raises(SheetError, match=r":3: contract: a hand after the game was over.*\(rules 28–31"):
        score_sheet(sheet)


def test_the_deal_passes_to_the_left(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "dealer,contractor,contract,tricks", "W,N,6S,6", "E,E,6S,6")
    with pytest.raises(SheetError, match=r":3: dealer: E deals but the deal passes to N \(rule 7"):
        score_sheet(sheet)


def test_a_yaml_line_is_named_in_errors(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.yaml", "- {contractor: N, contract: 7H, tricks: 8}", "", "- contractor: E",
                  "  contract: 8S", "  tricks: 12")
    with pytest.raises(SheetError, match=r"s\.yaml:3: tricks: 12 tricks, but a hand has 10"):
        score_sheet(sheet)


def test_a_ruleset_a_sheet_cannot_describe(tmp_path: Path) -> None:
    """A step whose doings the scores read but that names no sheet column: the ruleset is refused."""
    from fivehundred.plugins.declarations import Declaration

    rs = house(tmp_path, "unsheeted", "declarations: {slam: [8], declare: true}")
    column = Declaration.sheet_column
    try:
        Declaration.sheet_column = ""
        with pytest.raises(SheetError) as e:
            score_sheet([{"contractor": "N", "contract": "7H", "tricks": 8}], rs, source="s.csv")
    finally:
        Declaration.sheet_column = column
    message = str(e.value)
    assert message.startswith("s.csv: ruleset 'unsheeted' cannot be scored from a sheet: its declaration step "
                              "changes the scores and no column of a sheet says what it did (C6/C7"), message
    assert "\n" not in message


def test_C6_C7_slam_calls_and_declarations_score_as_the_engine_did(tmp_path: Path) -> None:
    rs = house(tmp_path, "declaring", "declarations: {slam: [6, 7, 8], declare: true}")
    games = played(rs, range(12))
    declared = sum("declaration" in row for state in games for row in sheet_rows(state))
    assert len(games) >= 3 and declared >= 3, (len(games), declared)
    for state in games:
        check_against_engine(state, sheet_rows(state), rs)


def test_C6_C7_by_hand(tmp_path: Path) -> None:
    """C6: a slam called on 7♥ is worth an eight-bid in hearts (300) for every trick, and loses 7♥'s 200
    plus the 100 penalty; C7: a declaration takes every trick or loses 500 (``declare_value``)."""
    rs = house(tmp_path, "declaring", "declarations: {slam: [7], slam_penalty: 100, declare: true}")
    scored = score_sheet([{"contractor": "N", "contract": "7H", "tricks": 10, "declaration": "slam"},
                          {"contractor": "E", "contract": "7H", "tricks": 9, "declaration": "slam"},
                          {"contractor": "S", "contract": "6S", "tricks": 9, "declaration": "declare"}], rs)
    assert [h.scores for h in scored.hands] == [{"NS": 300, "EW": 0}, {"NS": 10, "EW": -300},
                                                {"NS": -500, "EW": 10}]
    with pytest.raises(SheetError, match=r"sheet:1: declaration: slam is not offered on 6S \(C6/C7"):
        score_sheet([{"contractor": "N", "contract": "6S", "tricks": 10, "declaration": "slam"}], rs)
    with pytest.raises(SheetError, match=r"sheet:1: declaration: 'grand': a declaration is 'slam', 'declare'"):
        score_sheet([{"contractor": "N", "contract": "6S", "tricks": 10, "declaration": "grand"}], rs)


def test_R2_a_breach_on_the_sheet_scores_as_the_engine_did(tmp_path: Path) -> None:
    rs = house(tmp_path, "breach", "scoring: {breach: 100}")
    games = played(rs, range(16))
    breached = sum(bool(row.get("breach")) for state in games for row in sheet_rows(state))
    assert len(games) >= 3 and breached >= 3, (len(games), breached)
    for state in games:
        check_against_engine(state, sheet_rows(state), rs)


def test_R2_a_breach_by_hand(tmp_path: Path) -> None:
    """R2 (breach 100): E breaches N's 7♥. N takes 7: made, EW lose 100 (win/lose). N takes 5: the
    defence has 5, the breach of a 7-bid: N loses 200, EW gain 100 on top of their 50 (lose/win)."""
    rs = house(tmp_path, "breach", "scoring: {breach: 100}")
    scored = score_sheet([{"contractor": "N", "contract": "7H", "tricks": 7, "breach": "E"},
                          {"contractor": "N", "contract": "7H", "tricks": 5, "breach": "W"}], rs)
    assert [h.scores for h in scored.hands] == [{"NS": 200, "EW": 30 - 100}, {"NS": -200, "EW": 50 + 100}]
    for row, says in [({"breach": "S"}, "S is on the contracting side"), ({"breach": "Q"}, "'Q' is not a seat"),
                      ({"contract": "6S", "breach": "E"}, "breach on 6S: only on a contract of seven")]:
        with pytest.raises(SheetError, match=rf"sheet:1: breach: {says}.*\(R2"):
            score_sheet([{"contractor": "N", "contract": "7H", "tricks": 7, **row}], rs)
    # A breached misère is played to its last trick (the misère side's third trick decides the breach).
    scored = score_sheet([{"contractor": "N", "contract": "misere", "tricks": 3, "breach": "E"}], rs)
    assert scored.hands[0].scores == {"NS": -250, "EW": 100}
    with pytest.raises(SheetError, match=r"sheet:1: tricks: 3 tricks in misere: the hand stops .*\(rule 27"):
        score_sheet([{"contractor": "N", "contract": "misere", "tricks": 3}], rs)
    with pytest.raises(SheetError, match=r"sheet:1: breach: unknown column"):
        score_sheet([{"contractor": "N", "contract": "7H", "tricks": 7, "breach": "E"}])


# --- starting where a real game stands ---------------------------------------------------------


def test_a_sheet_starts_at_a_score_a_hand_number_and_a_dealer(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "hand,dealer,contractor,contract,tricks,NS,EW", "7,,,start,,310,250",
                  "7,S,W,7H,7,340,450", ",,N,6S,5,300,500")
    scored = score_sheet(sheet)
    assert scored.ok, scored.wrong_totals
    assert scored.start == {"number": 7, "totals": {"NS": 310, "EW": 250}}
    assert [h.number for h in scored.hands] == [7, 8] and [h.dealer for h in scored.hands] == ["S", "W"]
    assert [h.scores for h in scored.hands] == [{"NS": 30, "EW": 200}, {"NS": -40, "EW": 50}]  # rules 25-26
    assert scored.winner is None  # rule 30: EW reached 500 defending, not by making a contract
    assert scored.hands[0].line == 3


def test_the_game_ends_from_the_start_score(tmp_path: Path) -> None:
    """From 480-450 a made 6♠ wins; from 0-0 the same line does not (rule 30)."""
    line = "N,6S,6"
    started = score_sheet(write(tmp_path / "a.csv", "contractor,contract,tricks,NS,EW", ",start,,480,450", line))
    fresh = score_sheet(write(tmp_path / "b.csv", "contractor,contract,tricks", line))
    assert started.winner == "NS" and started.totals == {"NS": 520, "EW": 490}
    assert fresh.winner is None and fresh.totals == {"NS": 40, "EW": 40}
    with pytest.raises(SheetError, match=r"a\.csv:4: contract: a hand after the game was over"):
        score_sheet(write(tmp_path / "a.csv", "contractor,contract,tricks,NS,EW", ",start,,480,450", line,
                          "E,6S,6"))


def test_a_sheet_that_starts_below_the_swamp_line_loses(tmp_path: Path) -> None:
    scored = score_sheet(write(tmp_path / "s.csv", "contractor,contract,tricks,NS,EW", ",start,,-420,100",
                               "N,7H,5,-620,150"))
    assert scored.ok and scored.winner == "EW"  # rule 29: at -500 or below a side loses


@pytest.mark.parametrize(("game", "start", "says"), [
    ({}, "-500,20", "NS fell to -500"),  # rule 29: at -500 or below a side has lost
    ({}, "40,-730", "EW fell to -730"),
    ({"swamp_strict": True}, "40,-510", "EW fell to -510"),  # E3: only strictly below
    ({"win": "any"}, "510,200", "NS"),  # E1: any points win, so 510 has won already
    ({"spread": 500}, "300,-250", "point spread"),  # E4
])
def test_a_sheet_that_starts_where_the_game_is_over_is_refused(tmp_path: Path, game: dict[str, Any], start: str,
                                                               says: str) -> None:
    rs = variant(tmp_path, game)
    for sheet in (write(tmp_path / "s.csv", "contractor,contract,tricks,NS,EW", f",start,,{start}", "N,7H,7"),
                  write(tmp_path / "s.yaml", "start:", f"  totals: {{NS: {start.split(',')[0]}, "
                        f"EW: {start.split(',')[1]}}}", "hands:", "  - {contractor: N, contract: 7H, tricks: 7}")):
        with pytest.raises(SheetError) as e:
            score_sheet(sheet, rs)
        message = str(e.value)
        assert message.startswith(f"{sheet}:2: start: the game is already over at NS ") and says in message
        assert message.endswith("(rules 28–31: a game starts only at totals the game goes on from)"), message
        assert "\n" not in message


def test_a_sheet_may_start_where_the_game_goes_on(tmp_path: Path) -> None:
    """Rule 30: a side that reached 500 defending plays on; -490 is above the swamp; E3 keeps -500 playing."""
    for game, start in (({}, "520,-490"), ({"swamp_strict": True}, "40,-500"), ({"spread": 600}, "300,-250")):
        scored = score_sheet(write(tmp_path / "s.csv", "contractor,contract,tricks,NS,EW", f",start,,{start}",
                                   "E,6S,6"), variant(tmp_path, game))
        assert scored.start["totals"] == dict(zip(("NS", "EW"), map(int, start.split(",")), strict=True))


def test_a_lost_misere_written_with_its_one_trick_needs_the_defenders_tricks_where_they_score(tmp_path: Path) -> None:
    """Rule 27: the hand stops at the misère contractor's first trick, so ``tricks: 1`` says nothing of the
    defenders' tricks before it.  The reference scores them nothing in misère (the line stands); a ruleset
    that pays them per trick asks for each side's tricks rather than assume they took the other nine."""
    line = [{"contractor": "N", "contract": "misere", "tricks": 1}]
    assert score_sheet(line).hands[0].scores == {"NS": -250, "EW": 0}
    path = tmp_path / "paid.yaml"
    path.write_text(json.dumps({"name": "paid", "extends": "pagat-australian",
                                "scoring": {"defender_points_in_misere": 10}}), encoding="utf-8")
    paid = load_ruleset(path)
    with pytest.raises(SheetError) as e:
        score_sheet(line, paid)
    assert str(e.value) == ("sheet:1: tricks_EW: missing: misere lost at the contractor's first trick, and the "
                            "defenders score the tricks they took before it: the sheet gives each side's tricks "
                            "(tricks_NS, tricks_EW) (rule 27: the hand ends when the misère contractor wins a trick)")
    told = score_sheet([{"contractor": "N", "contract": "misere", "tricks_NS": 1, "tricks_EW": 4}], paid)
    assert told.hands[0].scores == {"NS": -250, "EW": 40}  # four tricks before N's first, 10 each
    made = score_sheet([{"contractor": "N", "contract": "misere", "tricks": 0}], paid)
    assert made.hands[0].scores == {"NS": 250, "EW": 100}  # a made misère is played out: the defence took all ten
    csv = write(tmp_path / "s.csv", "contractor,contract,tricks", "E,open-misere,1")
    with pytest.raises(SheetError, match=r"s\.csv:2: tricks_NS: missing: open-misere lost .*\(rule 27"):
        score_sheet(csv, paid)


def variant(tmp_path: Path, game: dict[str, Any]) -> Ruleset:
    if not game:
        return load_ruleset("pagat-australian")
    path = tmp_path / "variant.yaml"
    path.write_text(json.dumps({"name": "variant", "extends": "pagat-australian", "game": game}), encoding="utf-8")
    return load_ruleset(path)


def test_a_yaml_sheet_starts_as_a_record_does(tmp_path: Path) -> None:
    yaml_sheet = write(tmp_path / "s.yaml", "start: {number: 12, totals: {NS: 310, EW: 450}}", "hands:",
                       "  - {dealer: S, contractor: W, contract: 7H, tricks: 7, NS: 330, EW: 650}")
    csv_sheet = write(tmp_path / "s.csv", "hand,dealer,contractor,contract,tricks,NS,EW", "12,,,start,,310,450",
                      ",S,W,7H,7,330,650")
    a, b = score_sheet(yaml_sheet), score_sheet(csv_sheet)
    assert a.as_dict()["start"] == b.as_dict()["start"] == {"number": 12, "totals": {"NS": 310, "EW": 450}}
    assert a.wrong_totals is not None and b.wrong_totals is not None
    assert (a.wrong_totals.line, a.wrong_totals.hand, a.wrong_totals.expected) == (3, 12, {"NS": 340, "EW": 650})
    assert (b.wrong_totals.hand, b.wrong_totals.expected) == (12, {"NS": 340, "EW": 650})


def test_the_written_totals_are_checked_from_the_start(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks,NS,EW", ",start,,100,-50", "N,7H,8,300,-30",
                  "E,8S,7,330,-270", "S,6S,5,300,-220")
    wrong = score_sheet(sheet).wrong_totals
    assert wrong is not None and (wrong.line, wrong.hand) == (5, 3)
    assert wrong.expected == {"NS": 290, "EW": -220}  # 6♠ set: -40; EW take 5 tricks: +50


@pytest.mark.parametrize(("lines", "where", "says"), [
    (("contractor,contract,tricks,NS,EW", "N,7H,8,,", ",start,,10,10"), ":3: contract: ", "first line only"),
    (("contractor,contract,tricks,NS,EW", ",start,,10,"), ":2: EW: ", "every side or none"),
    (("contractor,contract,tricks,NS,EW", ",start,,,"), ":2: NS: missing", "each team's total"),
    (("contractor,contract,tricks,NS,EW", "N,start,,10,10"), ":2: contractor: ", "only the totals"),
    (("hand,contractor,contract,tricks,NS,EW", "4,,start,,0,0", "5,N,7H,8"),
     ":3: hand: hand 5, but this line is hand 4", "numbered in order"),
    (("hand,contractor,contract,tricks", "4,N,7H,8", "4,E,7H,8"), ":3: hand: hand 4, but this line is hand 5",
     "numbered in order"),
    (("hand,contractor,contract,tricks", "0,N,7H,8"), ":2: hand: '0' is not a hand number", "numbered"),
])
def test_a_bad_start_or_hand_number_is_refused(tmp_path: Path, lines: tuple[str, ...], where: str,
                                               says: str) -> None:
    sheet = write(tmp_path / "s.csv", *lines)
    with pytest.raises(SheetError) as e:
        score_sheet(sheet)
    assert str(e.value).startswith(f"{sheet}{where}") and says in str(e.value), e.value


def test_a_bad_yaml_start_is_refused(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.yaml", "hands: []", "start: {number: 3, total: {NS: 1, EW: 2}}")
    with pytest.raises(SheetError, match=r"s\.yaml:2: start: a mapping of 'number'"):
        score_sheet(sheet)


# --- called partners, three sides, a passed-out deal played -------------------------------------


def test_P5_a_called_partner_scores_the_contract_too(tmp_path: Path) -> None:
    """Five-handed (P5, called_partner_share: full): A's 7♥ with C as partner, made with 7 tricks:
    A and C score 200 each; B, D, E score 10 a trick (rule 26).  Alone, A's 8♠ set: A loses 240."""
    sheet = write(tmp_path / "s.csv", "contractor,partner,contract,tricks_A,tricks_B,tricks_C,tricks_D,tricks_E",
                  "A,C,7H,4,1,3,1,1", "B,alone,8S,0,7,1,1,1")
    scored = score_sheet(sheet, "five-handed")
    assert [h.scores for h in scored.hands] == [{"A": 200, "B": 10, "C": 200, "D": 10, "E": 10},
                                                {"A": 0, "B": -240, "C": 10, "D": 10, "E": 10}]
    assert [h.partner for h in scored.hands] == ["C", None] and [h.tricks for h in scored.hands] == [7, 7]
    assert scored.hands[0].made and not scored.hands[1].made


def test_P5_a_half_share_is_the_engine_s(tmp_path: Path) -> None:
    path = write(tmp_path / "half.yaml", "extends: five-handed", "name: half", "players: {called_partner_share: half}")
    rs = load_ruleset(str(path))
    scored = score_sheet([{"contractor": "A", "partner": "B", "contract": "7C", "tricks_A": 5, "tricks_B": 2,
                           "tricks_C": 1, "tricks_D": 1, "tricks_E": 1}], rs)
    assert scored.hands[0].scores == {"A": 160, "B": 80, "C": 10, "D": 10, "E": 10}


@pytest.mark.parametrize(("row", "where", "rule"), [
    ({"contractor": "A", "partner": "A", "contract": "7H", "tricks_A": 7, "tricks_B": 3, "tricks_C": 0,
      "tricks_D": 0, "tricks_E": 0}, "partner", "P5"),
    ({"contractor": "A", "partner": "F", "contract": "7H", "tricks": 7}, "partner", "rule 1"),
    ({"contractor": "A", "partner": "C", "contract": "7H", "tricks": 7}, "tricks_B", "rule 26"),
    ({"contractor": "A", "contract": "7H", "tricks_A": 7, "tricks_B": 1, "tricks_C": 1, "tricks_D": 0,
      "tricks_E": 0}, "tricks_A", "rule 17"),
    ({"contractor": "A", "contract": "7H", "tricks": 6, "tricks_A": 7, "tricks_B": 1, "tricks_C": 1,
      "tricks_D": 1, "tricks_E": 0}, "tricks", "rule 17"),
    ({"contractor": "A", "contract": "7H", "tricks_A": 7, "tricks_B": 3}, "tricks_C", None),
])
def test_P5_an_impossible_line(row: dict[str, Any], where: str, rule: str | None) -> None:
    with pytest.raises(SheetError) as e:
        score_sheet([row], "five-handed", source="s.csv")
    assert str(e.value).startswith(f"s.csv:1: {where}: "), e.value
    assert rule is None or f"({rule}" in str(e.value), e.value


def test_a_partner_column_only_with_called_partners() -> None:
    with pytest.raises(SheetError, match=r"sheet:1: partner: unknown column"):
        score_sheet([{"contractor": "N", "partner": "S", "contract": "7H", "tricks": 8}])


def test_three_sides_each_score_their_own_tricks(tmp_path: Path) -> None:
    """Three-handed: A's 7♥ made with 7 tricks; B took 2 and C 1 (rule 26: 10 a trick)."""
    sheet = write(tmp_path / "s.yaml", "- {contractor: A, contract: 7H, tricks_A: 7, tricks_B: 2, tricks_C: 1}",
                  "- {contractor: B, contract: misere, tricks_A: 5, tricks_B: 0, tricks_C: 5, A: 200, B: 270, C: 10}")
    scored = score_sheet(sheet, "three-handed")
    assert [h.scores for h in scored.hands] == [{"A": 200, "B": 20, "C": 10}, {"A": 0, "B": 250, "C": 0}]
    assert scored.ok and scored.totals == {"A": 200, "B": 270, "C": 10}
    with pytest.raises(SheetError, match=r"s\.csv:2: tricks_B: missing: more than one side defends"):
        score_sheet(write(tmp_path / "s.csv", "contractor,contract,tricks", "A,7H,7"), "three-handed")


def test_six_handed_three_teams_scores_per_side() -> None:
    rules = compile_rules(load_ruleset("six-handed-three-teams"))
    teams = rules.team_names
    contractor = rules.seats[0]
    row = {"contractor": contractor, "contract": "8S", "tricks_" + teams[0]: 8, "tricks_" + teams[1]: 1,
           "tricks_" + teams[2]: 1}
    value = rules.ladder[rules.parse_call("8S")].value
    scored = score_sheet([row], "six-handed-three-teams")
    assert scored.hands[0].scores == {teams[0]: value, teams[1]: 10, teams[2]: 10}


def test_B10_a_passed_out_deal_played_at_no_trumps(tmp_path: Path) -> None:
    """B10 ``no-trumps``: everybody passed, the deal is played, each side scores 10 a trick."""
    rs = house(tmp_path, "b10", "deal: {all_pass: no-trumps}")
    sheet = write(tmp_path / "s.csv", "dealer,contractor,contract,tricks_NS,tricks_EW,NS,EW", "N,,pass,6,4,60,40",
                  "E,S,7H,,,260,60")
    with pytest.raises(SheetError, match=r"s\.csv:3: tricks: missing: the tricks the contracting side took"):
        score_sheet(sheet, rs)
    sheet = write(tmp_path / "s.csv", "dealer,contractor,contract,tricks,tricks_NS,tricks_EW,NS,EW",
                  "N,,pass,,6,4,60,40", "E,S,7H,8,,,260,60")
    scored = score_sheet(sheet, rs)
    assert scored.ok and [h.made for h in scored.hands] == [None, True]
    assert scored.hands[0].scores == {"NS": 60, "EW": 40} and scored.hands[0].contractor is None
    with pytest.raises(SheetError, match=r"s\.csv:2: tricks_NS: missing: the deal everybody passed is played"):
        score_sheet(write(tmp_path / "s.csv", "contractor,contract,tricks", ",pass,"), rs)
    with pytest.raises(SheetError, match=r":2: tricks_NS: a deal everybody passed is not played \(rule 13"):
        score_sheet(write(tmp_path / "s.csv", "contract,tricks_NS,tricks_EW", "pass,6,4"))


def test_B10_the_dealer_must_bid(tmp_path: Path) -> None:
    rs = house(tmp_path, "stuck", "deal: {all_pass: dealer-must-bid}")
    with pytest.raises(SheetError, match=r"sheet:1: contract: no deal is passed out in this ruleset \(B10"):
        score_sheet([{"contract": "pass"}], rs)


def test_L2_a_failed_claim_costs_the_claim_penalty(tmp_path: Path) -> None:
    rs = house(tmp_path, "claims", "play: {claims: true, claim_penalty: 100}")
    scored = score_sheet([{"contractor": "N", "contract": "7H", "tricks": 8, "claim": "failed"},
                          {"contractor": "E", "contract": "7H", "tricks": 10, "claim": "upheld"}], rs)
    assert [h.scores for h in scored.hands] == [{"NS": 100, "EW": 20}, {"NS": 0, "EW": 250}]
    with pytest.raises(SheetError, match=r"sheet:1: claim: a claim in misere.*\(L2"):
        score_sheet([{"contractor": "N", "contract": "misere", "tricks": 0, "claim": "failed"}], rs)
    with pytest.raises(SheetError, match=r"sheet:1: claim: unknown column"):
        score_sheet([{"contractor": "N", "contract": "7H", "tricks": 8, "claim": "failed"}])


def test_sheet_rows_from_python() -> None:
    scored = fivehundred.score_sheet([{"contractor": "N", "contract": "7H", "tricks": "8"}])
    assert scored.hands[0].scores == {"NS": 200, "EW": 20} and scored.source == "sheet"


# --- the command ------------------------------------------------------------------------------


def run(*args: str | Path) -> Any:
    return CliRunner().invoke(app, ["score", *map(str, args)], prog_name="fivehundred")


def test_cli_score_prints_hands_totals_and_winner(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,20", "N,N,10NT,10,720,20")
    result = run(sheet, "-r", "pagat-australian")
    assert result.exit_code == 0, result.output
    assert "NS wins" in result.stdout and "720" in result.stdout


def test_cli_score_json_and_wrong_totals(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", HEADER, "W,N,7H,8,200,30")
    result = run(sheet, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["hands"][0]["scores"] == {"NS": 200, "EW": 20} and data["totals_checked"] is True
    assert data["wrong_totals"] == {"line": 2, "hand": 1, "written": {"NS": 200, "EW": 30},
                                    "expected": {"NS": 200, "EW": 20}, "rule": data["wrong_totals"]["rule"]}
    assert data["wrong_totals"]["rule"].startswith("rules 24–27")
    assert f"{sheet}:2: hand 1" in result.stderr


def test_cli_score_bad_input_and_usage(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,7H,11")
    result = run(sheet)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{sheet}:2: tricks: 11 tricks" in result.stderr
    assert run(tmp_path / "missing.csv").exit_code == 1
    assert run().exit_code == 2


def test_cli_score_under_a_ruleset_file(tmp_path: Path, pagat: Ruleset) -> None:
    house = write(tmp_path / "nodef.yaml", "extends: pagat-australian", "name: nodef",
                  "scoring: {defender_trick_points: 0}")
    sheet = write(tmp_path / "s.csv", "contractor,contract,tricks", "N,7H,8")
    data = json.loads(run(sheet, "-r", house, "--json").stdout)
    assert data["ruleset"] == "nodef" and data["totals"] == {"NS": 200, "EW": 0}


def test_cli_score_from_a_start_and_a_called_partner(tmp_path: Path) -> None:
    sheet = write(tmp_path / "s.csv", "hand,contractor,partner,contract,tricks_A,tricks_B,tricks_C,tricks_D,tricks_E",
                  "4,,,start,,,,,", "4,A,C,7H,4,1,3,1,1")
    result = run(sheet, "-r", "five-handed")
    assert result.exit_code == 1 and "A: missing: the start line gives each team's total" in result.stderr
    sheet = write(tmp_path / "s.csv", "hand,contractor,partner,contract,tricks_A,tricks_B,tricks_C,tricks_D,tricks_E,"
                  "A,B,C,D,E", "4,,,start,,,,,,100,20,0,-40,30", "4,A,C,7H,4,1,3,1,1,,,,,")
    result = run(sheet, "-r", "five-handed", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["start"] == {"number": 4, "totals": {"A": 100, "B": 20, "C": 0, "D": -40, "E": 30}}
    assert data["hands"][0]["partner"] == "C" and data["hands"][0]["tricks"] == 7
    assert data["totals"] == {"A": 300, "B": 30, "C": 200, "D": -30, "E": 40}
    text = run(sheet, "-r", "five-handed")
    assert text.exit_code == 0 and "from hand 4 at A 100, B 20, C 0, D -40, E 30" in text.stdout
    assert "7H A+C" in text.stdout


def test_hostile_sheets_are_refused_in_one_line(tmp_path: Path) -> None:
    """A YAML alias bomb, a cell that is a list, a FIFO, a sheet too large: each a one-line error."""
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"] + [
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]" for i in range(8)]
    sheet = write(tmp_path / "bomb.yaml", *bomb, "hands: [{contractor: N, contract: 7H, tricks: *i}]")
    with pytest.raises(SheetError, match=r"bomb\.yaml:\d+: more than 100,000 values once aliases are expanded"):
        score_sheet(sheet)
    sheet = write(tmp_path / "list.yaml", "- {contractor: N, contract: 7H, tricks: [8, 9]}")
    with pytest.raises(SheetError, match=r"list\.yaml:1: tricks: a cell holds a word or a number"):
        score_sheet(sheet)
    sheet = write(tmp_path / "tag.yaml", "- {contractor: N, contract: !!python/name:os.system 7H, tricks: 8}")
    with pytest.raises(SheetError, match=r"tag\.yaml:1: unsupported YAML tag"):
        score_sheet(sheet)
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    with pytest.raises(SheetError, match=r"fifo\.csv: not a regular file"):
        score_sheet(fifo)
    big = tmp_path / "big.csv"
    big.write_text("contractor,contract,tricks\n" + "N,6S,6\n" * 200_000, encoding="utf-8")
    with pytest.raises(SheetError, match=r"big\.csv: 1 MiB is too large for a score sheet"):
        score_sheet(big)
