"""Double-dummy tables and par (``fivehundred.dd_table``, ``fivehundred.par``, docs/par.md): cells known by hand,
each cell against ``fivehundred.solve`` on a hand forced through the engine by its own calls, par against tables
whose answer is known by hand and against a brute force over every auction, and the commands end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_cli import ok, run, user_error
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.par import DDTable, Entry, Undecided, bid_out, biddable, force, par, payoff_bounds, score_of
from fivehundred.batch.par_search import deal_par
from fivehundred.engine.state import GameState, Phase, new_game
from fivehundred.rules.cards import parse_cards
from fivehundred.rules.manager import Rules, compile_rules, make_player

PAGAT = compile_rules(fivehundred.load_ruleset("pagat-australian"))
N, E, S, W = range(4)

TRUMPS_ALL_NORTH = (
    "JK JH JD AH KH QH 10H 9H 8H 7H",
    "9S 8S 7S 6S 5S AD KD QD 10D 9D",
    "AS KS QS JS 10S AC KC QC JC 10C",
    "9C 8C 7C 6C 5C 8D 7D 6D 5D 4D",
    "6H 5H 4H",
)
"""North holds the ten highest hearts (the joker, both bowers, A K Q 10 9 8 7) and the kitty the other three: in
hearts North wins every trick whoever contracts, by following trumps or ruffing (it has nothing else)."""


def deal(rules: Rules, text: tuple[str, ...], dealer: int = W) -> GameState:
    return fivehundred.deal_state(rules, [parse_cards(h) for h in text[:-1]], parse_cards(text[-1]), dealer=dealer)


def random_deal(name: str, seed: str) -> GameState:
    state, rng = new_game(fivehundred.load_ruleset(name), seed)
    state.deal(rng)
    return state


# --- cells known by hand -------------------------------------------------------------------


def test_every_top_trump_makes_ten_at_every_level_and_the_others_none() -> None:
    state = deal(PAGAT, TRUMPS_ALL_NORTH)
    table = fivehundred.dd_table(state, calls=["6H", "8H", "10H"])
    for call in ("6H", "8H", "10H"):
        assert [table.get(seat, call).tricks for seat in (N, E, S, W)] == [10, 0, 10, 0]  # type: ignore[union-attr]
    assert table.get(N, "10H").made and not table.get(E, "6H").made  # type: ignore[union-attr]
    assert table.solves <= 4 * 3
    assert fivehundred.solve(forced_by_calls(state, E, "7H")) == table.get(E, "6H").tricks  # type: ignore[union-attr]


def test_a_table_reads_a_deal_before_its_auction() -> None:
    state = deal(PAGAT, TRUMPS_ALL_NORTH)
    state.apply(state.parse_action("pass"))
    with pytest.raises(ValueError, match="before its first call"):
        fivehundred.dd_table(state)


# --- each cell is the solve of the hand the engine plays when the contract is forced --------------


def forced_by_calls(state: GameState, seat: int, call: str, opener: str | None = None) -> GameState:
    """The hand in which ``seat`` contracts ``call``: the calls written out (``opener``: the first caller's bid
    when the ladder wants one below), the exchange and the steps made by club as docs/par.md says."""
    s = state.clone()
    rules = s.rules
    while s.phase == Phase.STEP:  # a round before the auction (B8): everybody looks at their cards
        s.apply(s.legal_actions()[0])
    first = True
    while s.phase == Phase.AUCTION:
        who = s.current_player()
        if who == seat and not any(c == rules.parse_call(call) for _, c in s.hand_log.calls):
            text = call
        elif first and opener is not None:
            text = opener
        else:
            text = "pass"
        first = False
        s.apply(s.parse_action(text), seat=who)
    players = [make_player("club", k, random.Random(0)) for k in range(rules.players)]
    while s.phase != Phase.PLAY:
        who = s.current_player()
        s.apply(players[rules.controller[who]].act(s, s.legal_actions()))
    assert s.contractor == seat and s.contract is not None and s.contract.call == call
    return s


CELLS = [("pagat-australian", "1:0", S, "misere", "7S"), ("three-handed", "2:0", 0, "7NT", None),
         ("three-handed", "2:1", 2, "open-misere", None), ("three-handed", "2:2", 1, "misere", None),
         ("perfect", "3:0", E, "hi-lo", "9C"), ("perfect", "3:1", S, "double-misere", "10C"),
         ("perfect", "3:2", E, "patastrophe", None), ("canadian", "6:0", W, "misere", "7S"),
         ("american-1904", "7:0", N, "7H", None), ("nullo", "8:0", E, "nullo", "7S"),
         ("french-canadian", "8:1", N, "grosse-misere", None), ("six-handed", "9:1", 0, "misere", "7S"),
         ("three-handed-dead-hand", "9:2", 1, "7D", None)]
"""A cell of a random deal of most shipped rulesets (the contracts with a goal of their own among them); the bid
a first caller must make below it where the ladder wants one (misère over a 7-level bid).  Cells the solver
answers in well under a second: a whole two-handed or five-handed hand can take it a minute (docs/par.md); their
contracts are forced by ``test_every_shipped_ruleset_forces_every_seat_and_call``."""


@pytest.mark.parametrize(("name", "seed", "seat", "call", "opener"), CELLS)
def test_a_cell_is_the_solve_of_the_hand_forced_by_calls(name: str, seed: str, seat: int, call: str,
                                                         opener: str | None) -> None:
    state = random_deal(name, seed)
    order = [(state.dealer + k) % state.rules.players for k in range(1, state.rules.players + 1)]
    if opener is not None and order[0] == seat:  # the first caller cannot both open and overcall: the next one
        seat = order[1]
    table = fivehundred.dd_table(state, seats=[seat], calls=[call])
    entry = table.get(seat, call)
    assert entry is not None, table.skipped
    hand = forced_by_calls(state, seat, call, opener)
    assert entry.tricks == fivehundred.solve(hand)
    assert entry.made == hand.contract.made(entry.tricks)  # type: ignore[union-attr]
    assert entry.side == tuple(sorted(hand.contracting_side))


def test_every_shipped_ruleset_forces_every_seat_and_call() -> None:
    from fivehundred.rules.loading import ruleset_paths

    for name in sorted(ruleset_paths()):
        state = random_deal(name, "9:0")
        seats, rungs, skipped = biddable(state.rules)
        for rung in rungs:
            for seat in seats:
                hand = force(state, seat, rung)
                assert not isinstance(hand, str), (name, seat, rung, hand)
                assert hand.phase == Phase.PLAY and hand.contractor == seat
                assert hand.hand_log.contract is not None and hand.hand_log.contract.rung == rung
        assert all("signal" in why or "dummy" in why for why in skipped.values()), skipped


@pytest.mark.searches
def test_two_rulesets_share_only_the_solves_they_play_alike(tmp_path: Path) -> None:
    played_out = tmp_path / "played-out.yaml"
    played_out.write_text("extends: three-handed\nname: three-played-out\nplay:\n  misere_ends_early: false\n"
                          "auction:\n  ladder_changes:\n    misere: {value: 300}\n", encoding="utf-8")
    calls = ("7S", "misere", "open-misere")
    a, b = random_deal("three-handed", "11:0"), random_deal(str(played_out), "11:0")
    solved: dict[Any, int] = {}
    shared_a = fivehundred.dd_table(a, calls=calls, solved=solved)
    shared_b = fivehundred.dd_table(b, calls=calls, solved=solved)
    alone_b = fivehundred.dd_table(b, calls=calls)
    assert {k: e.tricks for k, e in shared_b.entries.items()} == {k: e.tricks for k, e in alone_b.entries.items()}
    assert shared_b.solves < alone_b.solves  # the suit contracts play alike, the misères not (played out)
    assert shared_a.solves + shared_b.solves == len(solved)


# --- par ----------------------------------------------------------------------------------------


def synthetic(rules: Rules, tricks: dict[tuple[int, str], int], default: int) -> DDTable:
    """A table of every seat and rung: ``tricks`` where given (by seat and denomination or call), else
    ``default`` (a misère: 1, failed)."""
    table = DDTable(rules, dealer=W)
    _, rungs, _ = biddable(rules)
    for rung in rungs:
        c = rules.ladder[rung]
        denomination = c.call.lstrip("0123456789") if c.goal == "at-least" else c.call
        for seat in range(rules.players):
            value = tricks.get((seat, denomination), 1 if c.goal == "none" else default)
            table.entries[(seat, rung)] = Entry(seat, c.call, c, value, tuple(rules.team_seats[seat]))
    return table


def test_par_when_only_one_side_can_make_anything() -> None:
    table = synthetic(PAGAT, {(N, "H"): 8, (S, "H"): 7, (N, "NT"): 6}, default=2)
    found = par(table)
    assert found.entry is not None and (found.entry.seat, found.entry.call) == (N, "8H")
    assert found.scores == (300, 20)  # 8♥ made: NS 300; EW 10 a trick


def test_par_goes_to_the_side_that_can_outbid() -> None:
    table = synthetic(PAGAT, {(N, "H"): 8, (E, "NT"): 8}, default=2)
    found = par(table)
    assert found.entry is not None and (found.entry.seat, found.entry.call) == (E, "8NT")
    assert found.scores == (20, 320)  # 9♥ by NS would fail (-400): worse for NS than letting 8NT stand (-300)


def test_par_takes_the_slam_at_the_level_that_scores_most() -> None:
    table = synthetic(PAGAT, {(S, "S"): 10}, default=3)
    found = par(table)
    assert found.entry is not None and (found.entry.seat, found.entry.call) == (S, "10S")  # 440 against 250
    assert found.scores == (440, 0)


def test_par_is_a_pass_when_nobody_makes_anything() -> None:
    found = par(synthetic(PAGAT, {}, default=3))
    assert found.entry is None and found.scores == (0, 0)


def test_par_counts_the_defenders_tricks() -> None:
    # N's 6♠ with 6 tricks scores 40 and gives EW 40 for their 4 tricks: no better than passing (ties pass).
    assert par(synthetic(PAGAT, {(N, "S"): 6}, default=2)).entry is None
    found = par(synthetic(PAGAT, {(N, "S"): 7}, default=2))  # 7 tricks: 6♠ (40 - 30) or 7♠ (140 - 30)
    assert found.entry is not None and found.entry.call == "7S" and found.scores == (140, 30)


def test_a_side_sets_up_its_own_misere() -> None:
    # N makes misère (250, EW score nothing) and 8♠ (240, EW 20 for two tricks): misère wants a 7-level bid
    # standing, which S can make for N (S 7♠, W pass, N misère).
    found = par(synthetic(PAGAT, {(N, "misere"): 0, (N, "S"): 8}, default=2))
    assert found.entry is not None and (found.entry.seat, found.entry.call) == (N, "misere")
    assert found.scores == (250, 0)
    found = par(synthetic(PAGAT, {(N, "misere"): 0, (N, "S"): 8, (E, "S"): 10}, default=2))
    assert found.entry is not None and (found.entry.seat, found.entry.call) == (E, "10S")  # 440 over 250


def brute_par(table: DDTable) -> tuple[int, ...]:
    """Par by playing out every auction (no memo, sequences as lists): the teams call in turn from the dealer's
    left, each passes or bids above the standing bid what the ladder allows (a rung that wants a bid standing
    below it: a team of two bidders sets that up itself); each maximises its points less the mean of the
    others'.  Returns the par's scores (ties between contracts make the same scores)."""
    rules = table.rules
    teams = len(rules.team_names)
    order = list(dict.fromkeys(rules.team_of[(table.dealer + k) % rules.players]
                               for k in range(1, rules.players + 1)))
    cells = sorted(table.entries.items(), key=lambda kv: (kv[0][1], kv[0][0]))

    pairs = {t: sum(rules.team_of[s] == t for s in range(rules.players) if s not in rules.auction.silent) > 1
             for t in order}

    def worth(scores: tuple[int, ...], team: int) -> float:
        return scores[team] - (sum(scores) - scores[team]) / (teams - 1)

    def play(calls: list[tuple[int, int] | None]) -> tuple[int, ...]:
        bids = [c for c in calls if c is not None]
        passes = len(calls) - (max(i for i, c in enumerate(calls) if c is not None) + 1 if bids else 0)
        if bids and passes == teams - 1:
            return score_of(table, table.entries[bids[-1]])
        if not bids and passes == teams:
            return (0,) * teams
        team = order[len(calls) % teams]
        standing = bids[-1][1] if bids else -1
        best = play([*calls, None])
        for (seat, rung), _ in cells:
            need = rules.ladder[rung].requires_standing
            if rules.team_of[seat] == team and rung > standing and (need is None or standing >= need or pairs[team]):
                option = play([*calls, (seat, rung)])
                if worth(option, team) > worth(best, team):
                    best = option
        return best

    return play([])


@pytest.mark.parametrize(("name", "calls", "seed"), [
    ("three-handed", ("6S", "7H", "misere", "8NT", "open-misere", "10D"), "10:0"),
    ("three-handed", ("6C", "6NT", "7D", "misere", "9H", "10NT"), "10:1"),
])
def test_par_against_every_auction_on_random_deals(name: str, calls: tuple[str, ...], seed: str) -> None:
    table = fivehundred.dd_table(random_deal(name, seed), calls=calls)
    assert par(table).scores == brute_par(table)


def test_par_against_every_auction_on_a_hand_built_deal() -> None:
    table = fivehundred.dd_table(deal(PAGAT, TRUMPS_ALL_NORTH), calls=("6H", "7H", "misere", "open-misere", "10H"))
    assert par(table).scores == brute_par(table)
    assert par(table).entry == table.get(N, "10H")  # 500: nothing above it is bid


@pytest.mark.parametrize("seed", range(12))
def test_par_against_every_auction_on_random_tables(seed: int) -> None:
    rng = random.Random(seed)
    name = ("pagat-australian", "three-handed", "six-handed-three-teams")[seed % 3]
    rules = compile_rules(fivehundred.load_ruleset(name))
    kept = sorted(rng.sample(range(len(rules.ladder)), 6))
    table = DDTable(rules, dealer=rng.randrange(rules.players))
    for rung in kept:
        c = rules.ladder[rung]
        for seat in range(rules.players):
            tricks = rng.choice((0, 1)) if c.goal == "none" else rng.randrange(rules.hand_size + 1)
            table.entries[(seat, rung)] = Entry(seat, c.call, c, tricks, tuple(rules.team_seats[seat]))
    found = par(table)
    assert found.scores == brute_par(table)
    if found.entry is not None:  # nobody does better by bidding on: the contract itself is no worse than passing
        assert score_of(table, found.entry) == found.scores


# --- par without the whole table (deal_par) -----------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_the_auction_on_bounds_ends_where_the_exact_one_does_or_says_what_it_needs(seed: int) -> None:
    """``bid_out`` on bounds that hold each contract's exact payoffs: it ends on the exact par's contract, or names
    two contracts whose bounds overlap (it never guesses); told the tricks of those, it gets there."""
    rng = random.Random(seed)
    name = ("pagat-australian", "three-handed", "six-handed-three-teams")[seed % 3]
    rules = compile_rules(fivehundred.load_ruleset(name))
    table = DDTable(rules, dealer=rng.randrange(rules.players))
    for rung in sorted(rng.sample(range(len(rules.ladder)), 6)):
        c = rules.ladder[rung]
        for seat in range(rules.players):
            tricks = rng.choice((0, 1)) if c.goal == "none" else rng.randrange(rules.hand_size + 1)
            table.entries[(seat, rung)] = Entry(seat, c.call, c, tricks, tuple(rules.team_seats[seat]))
    exact = par(table)
    where = None if exact.entry is None else (exact.entry.seat, exact.entry.contract.rung)
    for _ in range(5):
        known = {}  # each cell widened at random, its exact tricks inside
        for key, e in table.entries.items():
            wide = e.contract.goal == "at-least"
            known[key] = (max(0, e.tricks - rng.randrange(4)) if wide else e.tricks,
                          min(rules.hand_size, e.tricks + rng.randrange(4)) if wide else e.tricks)
        while True:
            try:
                bounds = {key: payoff_bounds(table, table.entries[key], *known[key]) for key in known}
                assert bid_out(rules, table.dealer, bounds) == where
                break
            except Undecided as u:
                (a, first), (b, second) = u.options
                assert a[0][u.team] <= b[1][u.team] and a[1][u.team] > b[0][u.team]  # the two really overlap
                for key in (first, second):
                    if key is not None:
                        known[key] = (table.entries[key].tricks,) * 2


DEALS = [("pagat-australian", "41:0"), ("pagat-australian", "41:1"), ("three-handed", "41:2"),
         ("five-handed", "41:3"), ("canadian", "41:5")]


@pytest.mark.searches
@pytest.mark.parametrize(("name", "seed"), DEALS)
def test_deal_par_is_the_par_of_the_whole_table(name: str, seed: str) -> None:
    state = random_deal(name, seed)
    table = fivehundred.dd_table(state)
    whole = par(table)
    found = deal_par(state)
    assert found.par.scores == whole.scores
    if whole.entry is None:
        assert found.par.entry is None and found.rung is None
    else:
        assert found.par.entry == whole.entry
        assert table.entries[(whole.entry.seat, found.rung)] is whole.entry
    assert found.solves <= table.solves


# --- the commands -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("par") / "games.jsonl"
    fivehundred.simulate(1, 3, "three-handed", out=str(path), max_deals=2)
    return path


def test_analyse_prints_each_deal_and_its_par(runner: CliRunner, record: Path) -> None:
    text = ok(run(runner, "analyse", record, "--limit", "1")).stdout
    assert "hand 1" in text and "misere" in text and "  par: " in text
    data = json.loads(ok(run(runner, "analyse", record, "--limit", "1", "--json")).stdout)
    assert len(data) == 1 and data[0]["hand"] == 1
    cells = data[0]["table"]
    assert set(cells) == {"A", "B", "C"} and all(0 <= v <= 10 for row in cells.values() for v in row.values())
    assert data[0]["par"]["contract"] is None or data[0]["par"]["contract"] in cells[data[0]["par"]["contractor"]]


def test_analyse_with_nothing_to_analyse_is_a_user_error(runner: CliRunner, record: Path) -> None:
    user_error(run(runner, "analyse", record, "--hand", "99"), "no deal")


def test_show_dd_prints_the_table_after_the_hand(runner: CliRunner, record: Path) -> None:
    text = ok(run(runner, "show", record, "--dd", "--hand", "1")).stdout
    at = text.index("double dummy")
    assert text.index("score:") < at < text.index("par: ")


def test_simulate_dd_adds_the_columns(runner: CliRunner, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "hands.parquet"
    fivehundred.simulate(1, 3, "three-handed", out=str(out), max_deals=1, dd=True)
    rows = pq.read_table(out).to_pylist()
    assert rows
    row = rows[0]
    assert {"dd_A_S", "dd_B_NT", "dd_C_misere", "par_contract", "par_score_A"} <= set(row)
    state = random_deal("three-handed", "3:0")  # game 0 of seed 3: its first deal
    table = fivehundred.dd_table(state, seats=[0], calls=["6S", "misere"])
    assert row["dd_A_S"] == table.get(0, "6S").tricks  # type: ignore[union-attr]
    assert row["dd_A_misere"] == table.get(0, "misere").tricks  # type: ignore[union-attr]


def test_simulate_dd_needs_parquet(runner: CliRunner, tmp_path: Path) -> None:
    result = run(runner, "simulate", "-n", "1", "--dd", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2 and "--dd" in result.output


def test_compare_par(runner: CliRunner, tmp_path: Path) -> None:
    house = tmp_path / "misere-300.yaml"
    house.write_text("extends: three-handed\nname: three-misere-300\nauction:\n  ladder_changes:\n"
                     "    misere: {value: 300}\n", encoding="utf-8")
    data = json.loads(ok(run(runner, "compare", "--par", "-n", "2", "--seed", "4", "-r", "three-handed",
                             "--ruleset-b", house, "--json")).stdout)
    assert data["deals"] == 2 and data["identical_deals"] == 2
    for arm in ("a", "b"):
        assert sum(data[arm]["par_contracts"].values()) == 2
    text = ok(run(runner, "compare", "--par", "-n", "1", "-r", "three-handed")).stdout
    assert "par is a misère kind" in text and "the same cards in 1 of 1" in text
