"""L2, claims: the contractor about to lead may claim every remaining trick; a claim stands only if
the side takes them all against any defence, and a wrong one costs ``play.claim_penalty``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import MISERE, MISERE_AUCTION, RULES, SUITED, act, finish, legal, log, new_hand, tricks

from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.state import GameState, Phase, new_game
from fivehundred.plugins.claims import CLAIM, takes_every_trick
from fivehundred.records.record import game_to_dict
from fivehundred.records.validation import validate_record
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.manager import Rules, compile_rules

SPADES = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"]


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    path: Path = tmp_path_factory.mktemp("claims") / "claims.yaml"
    path.write_text("name: claims\nextends: pagat-australian\nplay: {claims: true}\n", encoding="utf-8")
    return compile_rules(load_ruleset(str(path)))


def all_spades(rules: Rules) -> GameState:
    """SUITED, 7NT by North keeping all ten spades: whoever leads in no-trumps wins (the others are void)."""
    st = new_hand(SUITED, rules=rules)
    act(st, "7NT pass pass pass 4D 4H JK")
    return st


def nine_spades(rules: Rules) -> GameState:
    """As above, but North keeps the 4♥ instead of the 5♠: its last lead loses to West's hearts."""
    st = new_hand(SUITED, rules=rules)
    act(st, "7NT pass pass pass 5S 4D JK")
    return st


def test_L2_the_contractor_may_claim_when_about_to_lead_only(claims: Rules) -> None:
    st = all_spades(claims)
    assert "claim" in legal(st)
    act(st, "AS")
    assert "claim" not in legal(st)  # a follower never claims
    finish_trick = [a for a in st.legal_actions() if a != CLAIM]
    while len(log(st).tricks) == 0:
        st.apply(finish_trick[0])
        finish_trick = list(st.legal_actions())
    assert st.current_player() == 0 and "claim" in legal(st)


def test_L2_the_reference_has_no_claims(claims: Rules) -> None:
    st = all_spades(RULES)
    assert "claim" not in legal(st) and not RULES.lead_steps
    with pytest.raises(IllegalActionError, match="no such action"):
        st.apply(CLAIM)
    with pytest.raises(ValueError):
        st.parse_action("claim")
    assert [type(s).__name__ for s in claims.lead_steps] == ["Claim"]  # the step comes with the field alone


def test_L2_a_claim_out_of_place_names_the_rule(claims: Rules) -> None:
    st = all_spades(claims)
    act(st, "AS")
    with pytest.raises(IllegalActionError, match="the contractor may claim, once a hand, when about to lead") as e:
        st.apply(CLAIM)  # a follower
    assert e.value.rule.startswith("L2")


def test_L2_an_upheld_claim_ends_the_hand_with_every_trick(claims: Rules) -> None:
    st = all_spades(claims)
    act(st, "claim")
    hand = st.hands_log[0]
    assert hand.steps["claim"] == (0, 0, True) and hand.tricks == [] and st.phase != Phase.PLAY
    assert hand.tricks_won == [10, 0, 0, 0]
    assert hand.scores == [250, 0]  # rule 25: all ten tricks on a contract worth less than 250
    # the same hand played out scores the same
    played = all_spades(RULES)
    tricks(played, SPADES)
    assert played.hands_log[0].scores == hand.scores


def test_L2_a_wrong_claim_costs_100_and_the_hand_goes_on(claims: Rules) -> None:
    st = nine_spades(claims)
    tricks(st, SPADES[:8])
    act(st, "claim")  # North holds 6♠ and 4♥: West takes the 4♥ trick
    assert log(st).steps["claim"] == (0, 8, False) and st.phase == Phase.PLAY
    assert "claim" not in legal(st)  # once a hand
    finish(st)
    wrong = st.hands_log[0]
    plain = nine_spades(RULES)
    tricks(plain, SPADES[:8])
    finish(plain)
    assert wrong.tricks_won == plain.hands_log[0].tricks_won == [9, 0, 0, 1]
    assert wrong.scores == [plain.hands_log[0].scores[0] - 100, plain.hands_log[0].scores[1]] == [120, 10]


def test_L2_no_claim_in_misere(claims: Rules) -> None:
    st = new_hand(MISERE, rules=claims)
    act(st, f"{MISERE_AUCTION} 7H 6H JK")
    assert st.phase == Phase.PLAY and "claim" not in legal(st)


def _brute(state: GameState, side: frozenset[int]) -> bool:
    """Every line of the rest of the hand, no memo, no pruning: does the side win each trick?"""
    if state.phase != Phase.PLAY:
        return True
    ours = state.current_player() in side
    done = len(state.hands_log[-1].tricks)
    outcomes = []
    for action in state.legal_actions():
        if action == CLAIM:
            continue
        after = state.clone()
        after.apply(action)
        tricks_now = after.hands_log[-1].tricks
        lost = len(tricks_now) > done and tricks_now[done].winner not in side
        outcomes.append(not lost and _brute(after, side))
    return any(outcomes) if ours else all(outcomes)


@pytest.mark.parametrize("name", ["pagat-australian", "avondale-us", "five-handed", "two-handed"])
def test_L2_the_claim_search_agrees_with_every_line_of_play(name: str) -> None:
    """Late positions (three tricks to go) from random games: the memoised, pruned search against a
    plain walk of every line."""
    rules = compile_rules(load_ruleset(name))
    checked = {True: 0, False: 0}
    for game in range(60):
        st, rng = new_game(rules, game)
        bots = [RandomPlayer(s, random.Random(f"{game}:{s}")) for s in range(rules.players)]
        st.deal(rng)
        while st.phase != Phase.PLAY or len(log(st).tricks) < rules.hand_size - 3 or st.trick:
            if st.current_player() < 0:
                break
            seat = st.current_player()
            st.apply(bots[rules.controller[seat]].act(st, st.legal_actions()))
        if st.phase != Phase.PLAY or st.trick or log(st).contract.goal != "at-least":
            continue
        expected = _brute(st.clone(), st.contracting_side)
        assert takes_every_trick(st) == expected, (name, game)
        checked[expected] += 1
    assert checked[True] >= 1 and checked[False] >= 5, checked


def test_L2_records_with_claims_replay_and_a_false_ruling_is_caught(claims: Rules) -> None:
    seen = 0
    for game in range(40):
        st, rng = new_game(claims, game)
        bots = [RandomPlayer(s, random.Random(f"{game}:{s}")) for s in range(4)]
        st.play_out(bots, rng, max_deals=30)
        record = game_to_dict(st, seed=game, game=game)
        assert validate_record(record, ruleset=claims.ruleset) == []
        for hand in record["hands"]:
            if "claim" in hand:
                seen += 1
                hand["claim"]["upheld"] = not hand["claim"]["upheld"]
                problems = validate_record(record, ruleset=claims.ruleset)
                assert problems and "L2" in problems[0].rule
                break
    assert seen >= 5


def _a_record_with_a_claim(claims: Rules) -> tuple[dict[str, Any], dict[str, Any]]:
    for game in range(40):
        st, rng = new_game(claims, game)
        st.play_out([RandomPlayer(s, random.Random(f"{game}:{s}")) for s in range(4)], rng, max_deals=30)
        record = game_to_dict(st, seed=game, game=game)
        hand = next((h for h in record["hands"] if "claim" in h), None)
        if hand is not None:
            return record, hand
    raise AssertionError("no claim in 40 random games")


def test_L2_a_claim_the_play_never_came_to_is_caught(claims: Rules) -> None:
    record, hand = _a_record_with_a_claim(claims)
    hand["claim"]["after_tricks"] = claims.hand_size + 3
    problems = validate_record(record, ruleset=claims.ruleset)
    assert problems and "the play never came to it" in problems[0].message and problems[0].field.endswith("claim")


def test_L2_a_claim_in_a_ruleset_without_claims_is_caught() -> None:
    st, rng = new_game(RULES, 1)
    st.play_out([RandomPlayer(s, random.Random(s)) for s in range(4)], rng, max_deals=5)
    record = game_to_dict(st, seed=1, game=0)
    hand = next(h for h in record["hands"] if h.get("contract"))
    hand["claim"] = {"seat": hand["contract"]["contractor"], "after_tricks": 0, "upheld": True}
    assert validate_record(record) != []
    problems = validate_record(record, ruleset=RULES.ruleset)
    assert problems and "no step of ruleset 'pagat-australian' records it" in problems[0].message
    assert problems[0].field.endswith(".claim")
