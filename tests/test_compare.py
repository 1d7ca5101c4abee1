"""Paired comparisons: the same deals under two arms, differences with their intervals."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fivehundred
from fivehundred.batch.comparison import Arm, PairedSums, _mean_ci, game_facts, newcombe
from fivehundred.batch.simulation import play_game
from fivehundred.cli.app import app

REF = "pagat-australian"
HEURISTIC_NS = "heuristic,random,heuristic,random"


def no_defence(tmp_path: Path) -> Path:
    """The reference rules but defenders score nothing: only scores change, the deals and calls do not."""
    path = tmp_path / "no-defence.yaml"
    path.write_text("extends: pagat-australian\nname: no-defence\nscoring:\n  defender_trick_points: 0\n",
                    encoding="utf-8")
    return path


# --- pairing ------------------------------------------------------------------------------------


def test_an_arm_against_itself_differs_in_nothing() -> None:
    c = fivehundred.compare(40, 3, Arm(players="random"))
    assert c.games == 40 and c.a.players == c.b.players == ["random"] * 4
    assert c.pairing.first_deals_identical == 40
    assert c.pairing.deals_identical == c.pairing.deals_compared > 0
    for m in c.metrics:
        assert m.a == m.b, m.name
        assert not m.significant, m.name
        if m.difference is not None:
            assert m.difference == 0, m.name
        if m.paired and m.ci95 is not None:
            assert m.ci95 == (0, 0), m.name
    assert c.metric("make_rate").a.n > 0 and c.metric("win_rate.NS").a.n == 40


@pytest.mark.parametrize("other", ["avondale-us", "american-1904"])
def test_paired_games_share_their_first_deal_when_decks_match(other: str) -> None:
    for game in range(6):
        a = play_game(REF, 11, "random", game=game)
        b = play_game(other, 11, "heuristic", game=game)
        first_a, first_b = a.hands_log[0], b.hands_log[0]
        assert first_a.dealer == first_b.dealer
        assert first_a.hands == first_b.hands and first_a.kitty == first_b.kitty


def test_pairing_counts_identical_deals_and_notices_a_different_deck() -> None:
    same = fivehundred.compare(30, 2, Arm(REF, "random"), Arm("avondale-us"))
    assert same.pairing.first_deals_identical == 30
    assert same.pairing.deals_identical == same.pairing.deals_compared >= 30
    other_deck = fivehundred.compare(10, 2, Arm(REF, "random"), Arm("french-canadian"))  # 46 cards
    assert other_deck.pairing.first_deals_identical == 0 and other_deck.pairing.deals_identical == 0


def test_players_generators_are_paired_too() -> None:
    """Same rules with random players: the same seed gives the same calls and cards in both arms."""
    c = fivehundred.compare(20, 5, Arm(players="random"), Arm(players=["random"] * 4))
    assert all(m.difference in (0, None) for m in c.metrics)


# --- what differences are found ------------------------------------------------------------------


def test_heuristic_partners_beat_random_ones_clearly_in_sixty_games() -> None:
    c = fivehundred.compare(60, 1, Arm(players="random"), Arm(players=HEURISTIC_NS))
    ns, ew = c.metric("win_rate.NS"), c.metric("win_rate.EW")
    assert ns.difference is not None and ns.difference > 0.25 and ns.significant
    assert ns.ci95 is not None and ns.ci95[0] > 0
    assert ew.difference == pytest.approx(-ns.difference) and ew.significant
    assert c.metric("score_margin.NS").significant
    assert ns.a.n == ns.b.n == 60 and ns.method.startswith("paired")


def test_a_scoring_change_moves_the_scores_on_the_same_deals(tmp_path: Path) -> None:
    # Seed 2: every game of it lasts as many hands in both arms.  A scoring change may end a game a
    # hand sooner or later (then one arm plays a hand the other does not), as with seeds 1, 3, 4, 5.
    c = fivehundred.compare(80, 2, Arm(REF, "random"), Arm(no_defence(tmp_path)))
    assert c.b.ruleset == "no-defence" and c.pairing.first_deals_identical == 80
    winner = c.metric("winner_score")
    assert winner.difference is not None and winner.difference < 0 and winner.significant
    for team in ("NS", "EW"):
        score = c.metric(f"final_score.{team}")
        assert score.difference is not None and score.difference < 0 and score.significant
    # the same calls and cards: the contracts and whether they were made do not move
    assert c.metric("make_rate").a.n == c.metric("make_rate").b.n  # the same hands played in both arms
    assert c.metric("make_rate").difference == 0 and c.metric("contractor_side_tricks").difference == 0


def test_reference_against_avondale_us_on_paired_deals() -> None:
    c = fivehundred.compare(150, 2, Arm(REF, "random"), Arm("avondale-us"))
    assert c.pairing.first_deals_identical == 150
    hands = c.metric("hands_per_game")
    assert hands.difference is not None and hands.difference > 0 and hands.significant
    misere = c.metric("misere_success_rate")
    assert misere.a.n > 0 and misere.b.n == 0 and misere.difference is None and not misere.significant


def test_workers_do_not_change_the_result() -> None:
    one = fivehundred.compare(48, 6, Arm(players="random"), Arm("avondale-us", HEURISTIC_NS))
    two = fivehundred.compare(48, 6, Arm(players="random"), Arm("avondale-us", HEURISTIC_NS), workers=2)
    assert one.as_dict() == two.as_dict()


def test_unfinished_games_are_left_out_of_win_rates_only() -> None:
    c = fivehundred.compare(12, 0, Arm(players="heuristic"), Arm(players="random"), max_deals=1)
    finished_a = 12 - c.a.summary.unfinished
    finished_b = 12 - c.b.summary.unfinished
    assert c.a.summary.unfinished > 0
    assert c.metric("win_rate.NS").a.n <= min(finished_a, finished_b)
    assert c.metric("hands_per_game").a.n == 12


def test_ctrl_c_keeps_the_pairs_finished() -> None:
    seen: list[int] = []

    def interrupt(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    c = fivehundred.compare(300, 1, Arm(players="random"), progress=interrupt)
    assert c.interrupted and c.games == sum(seen) < 300
    assert c.metric("hands_per_game").a.n == c.games


@pytest.mark.parametrize("ruleset", [REF, "five-handed"])
def test_contracting_side_tricks_agree_with_made(ruleset: str) -> None:
    """A trump or no-trump contract is made exactly when its side took as many tricks as it called."""
    checked = made = 0
    for game in range(4):
        state = play_game(ruleset, 8, "heuristic", game=game)
        played = [log for log in state.hands_log if log.contract is not None and log.scores]
        for log, hand in zip(played, game_facts(state).hands, strict=True):
            if hand.side_tricks is None:
                assert hand.misere
                continue
            level = int("".join(ch for ch in log.contract.call if ch.isdigit()))
            assert hand.made == (hand.side_tricks >= level), (log.contract.call, log.tricks_won)
            checked += 1
            made += hand.made
    assert checked > 5 and made > 0


# --- the intervals ---------------------------------------------------------------------------------


def test_newcombe_matches_the_published_example() -> None:
    """Newcombe (1998), method 10: 56/70 − 48/80 = 0.2, 95% interval 0.0524 to 0.3339."""
    low, high = newcombe(48, 80, 56, 70) or (0, 0)
    assert low == pytest.approx(0.0524, abs=2e-4) and high == pytest.approx(0.3339, abs=2e-4)
    assert newcombe(0, 0, 3, 10) is None


def test_paired_interval_is_the_mean_difference_plus_minus_z_se() -> None:
    pairs = [(3, 5), (1, 1), (4, 9), (0, 2), (7, 6), (2, 5)]
    sums = PairedSums()
    for a, b in pairs:
        sums.add(a, b)
    diffs = [b - a for a, b in pairs]
    mean, ci = _mean_ci(sums.n, sums.sb - sums.sa, sums.sdd)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert mean == pytest.approx(statistics.mean(diffs))
    assert ci == pytest.approx((mean - half, mean + half))


# --- the command line ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["compare", *args], prog_name="fivehundred")
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_cli_json(runner: CliRunner) -> None:
    code, out, _ = invoke(runner, "-n", "30", "--seed", "1", "-p", "random", "--players-b", HEURISTIC_NS, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 30 and data["arms"]["B"]["players"] == HEURISTIC_NS.split(",")
    assert data["pairing"]["first_deals_identical"] == 30
    win = next(m for m in data["metrics"] if m["name"] == "win_rate.NS")
    assert win["significant"] and win["difference"] > 0 and win["n"] == {"A": 30, "B": 30}
    assert set(win) >= {"A", "B", "difference", "ci95", "method", "paired"}
    same = fivehundred.compare(30, 1, Arm(players="random"), Arm(players=HEURISTIC_NS)).as_dict()
    assert data == json.loads(json.dumps(same))


def test_cli_table(runner: CliRunner) -> None:
    code, out, _ = invoke(runner, "-n", "10", "-p", "random", "--ruleset-b", "avondale-us")
    assert code == 0
    for word in ("B − A", "95% CI", "win rate NS", "make rate, all contracts", "avondale-us", "pairing"):
        assert word in out, word


@pytest.mark.parametrize(("args", "words"), [
    (["--ruleset-b", "no-such-rules"], ["no-such-rules"]),
    (["-r", "no-such-rules"], ["no-such-rules"]),
    (["--players-b", "random,random"], ["2 players given for 4 seats"]),
    (["--players-b", "nobody"], ["unknown player"]),
    (["--ruleset-b", "three-handed"], ["different teams"]),
])
def test_cli_user_errors_exit_1(runner: CliRunner, args: list[str], words: list[str]) -> None:
    code, out, err = invoke(runner, "-n", "2", "-p", "random", *args)
    assert code == 1 and out == ""
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize("args", [["-n", "0"], ["--workers", "0"], ["--no-such-option"], ["-n", "two"]])
def test_cli_usage_errors_exit_2(runner: CliRunner, args: list[str]) -> None:
    code, _, _ = invoke(runner, *args)
    assert code == 2


def test_cli_help_names_the_options(runner: CliRunner) -> None:
    code, out, _ = invoke(runner, "-h")
    assert code == 0
    for word in ("--games", "--seed", "--ruleset", "--ruleset-b", "--players", "--players-b", "--workers", "--json"):
        assert word in out, word
    top = runner.invoke(app, ["-h"], prog_name="fivehundred")
    assert "compare" in top.stdout


def test_teams_are_compared_by_position_and_named_from_both_arms() -> None:
    c = fivehundred.compare(6, 0, Arm(REF, "random"), Arm("six-handed"))  # teams NS, EW against N, E
    assert [m.name for m in c.metrics[:2]] == ["win_rate.NS/N", "win_rate.EW/E"]
    assert c.pairing.first_deals_identical == 0  # 43 cards against 63: nothing is paired but the seeds
    with pytest.raises(KeyError, match="no metric"):
        c.metric("win_rate.NS")
