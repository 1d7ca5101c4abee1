"""The ``solver`` player's auction (``fivehundred.bots.bid_search``): a close call of ``club``'s weighed against passing
over sampled deals, each played on by ``club`` to the first lead and solved double dummy; scored as the engine
scores the hand; ``club``'s calls elsewhere."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.bots import bid_search, solver_player
from fivehundred.bots.club import ClubPlayer
from fivehundred.engine.solver import solved_outcome
from fivehundred.engine.state import PASS_ACTION, GameState
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import compile_rules, make_player


@pytest.mark.parametrize(("name", "misere"), [("pagat-australian", True), ("avondale-us", False), ("nullo", True),
                                               ("canadian", True)])
def test_a_hand_scored_from_its_tricks_scores_as_the_engine_scored_it(name: str, misere: bool) -> None:
    """``solved_outcome``, what the search (and par) score a solved hand by, given the tricks the contracting side
    took in a played hand, gets from the ruleset's ``score_hand`` and ``game_result`` what the engine got: over the
    hands of seeded ``club`` games played to their end (a misère to its first trick), misères and the hands that end
    a game among them."""
    rs = fivehundred.load_ruleset(name)
    rules = compile_rules(rs)
    kinds: set[str] = set()
    ends = 0
    for game in range(12):
        state = play_game(rs, 40, "club:fast", game=game)  # no searches: the hands, not the player, are tested
        totals = (0,) * len(rules.team_names)
        for log in state.hands_log:
            played = log.outcome
            if played is None:
                continue
            if played.tricks_played < rules.hand_size and played.contract.goal != "none":
                totals = tuple(t + p for t, p in zip(totals, rules.score_hand(played), strict=True))
                continue  # a game won in the play of a hand ends it at once (american-1904): not a whole hand
            side_tricks = sum(played.tricks_by_seat[s] for s in played.side)
            ours = solved_outcome(rules, played.contract, played.contractor, played.side, side_tricks, totals)
            points = rules.score_hand(ours)
            assert list(points) == list(rules.score_hand(played)), (game, log.contract)
            after = tuple(t + p for t, p in zip(totals, points, strict=True))
            result, engine_result = rules.game_result(after, ours), rules.game_result(after, played)
            assert (result and result.winner) == (engine_result and engine_result.winner)
            ends += engine_result is not None
            kinds.add(played.contract.kind)
            totals = after
    assert "trumps" in kinds and ("misere" in kinds) == misere and ends >= 6


def _auctions(name: str, games: int) -> list[GameState]:
    """States of seeded ``club`` games where a seat is to call and ``club`` finds its best call close to passing
    (``bid_search.close_call``), as ``benchmarks/close_calls.py`` finds them."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from close_calls import close_calls

    return [state for state, _, _ in close_calls(name, games, seed=3)]


def test_the_searched_call_is_one_of_the_two_and_a_pure_function_of_what_the_seat_sees() -> None:
    states = _auctions("pagat-australian", 2)[:2]
    assert states
    models = [ClubPlayer(s, random.Random(s)) for s in range(4)]
    for state in states:
        close = bid_search.close_call(models[state.current_player()], state, state.legal_actions())
        assert close is not None and PASS_ACTION in close
        call = next(c for c in close if c != PASS_ACTION)
        chosen = bid_search.searched_call(state, close, close[0], 2, models)
        assert chosen in (call, PASS_ACTION)
        again = bid_search.searched_call(state.clone(), close, close[0], 2,
                                         [ClubPlayer(s, random.Random(s)) for s in range(4)])
        assert again == chosen


def test_the_search_values_a_call_on_the_true_deal_as_its_double_dummy_hand() -> None:
    """On the true deal (every card known), ``rollout`` of a call is the hand ``club`` bids and exchanges on from
    there, solved and scored: a call that ends the auction in a contract its side makes double dummy is worth that
    contract's points to the side, less the defenders' points."""
    for state in _auctions("pagat-australian", 3)[:3]:
        seat = state.current_player()
        models = [ClubPlayer(s, random.Random(s)) for s in range(4)]
        world = state.clone()
        value = bid_search.rollout(world, PASS_ACTION, models, seat, random.Random(0), {})
        after = state.clone()
        after.apply(PASS_ACTION)
        replay = [ClubPlayer(s, random.Random(s)) for s in range(4)]
        while after.phase not in (Phase.PLAY, Phase.GAME_OVER) and after.current_player() >= 0 \
                and after.hand_log is not None and len(after.hands_log) == len(state.hands_log):
            after.apply(replay[after.current_player()].act(after, after.legal_actions()))
        if after.phase != Phase.PLAY:
            continue
        tricks = fivehundred.solve(after)
        rules = after.rules
        contract = after.contract
        assert contract is not None
        outcome = solved_outcome(rules, contract, after.contractor, rules.in_order(after.contracting_side), tricks,
                                 tuple(state.totals))
        points = rules.score_hand(outcome)
        mine = rules.team_of[seat]
        expected = points[mine] - max(p for t, p in enumerate(points) if t != mine)
        result = rules.game_result(tuple(t + p for t, p in zip(state.totals, points, strict=True)), outcome)
        if result is not None:
            expected += bid_search.GAME_BONUS if result.winner == mine else -bid_search.GAME_BONUS
        assert value == expected


def test_the_solver_calls_as_club_where_no_call_is_close(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = fivehundred.load_ruleset("pagat-australian")
    club = play_game(rs, 3, "club", game=0)
    monkeypatch.setattr(bid_search, "CLOSE", 0.0)
    for spec in ("solver:1:1:bid=16", "solver:1:1"):  # the play is club's until the last card: cheap
        game = play_game(rs, 3, f"{spec},club,{spec},club", game=0)
        assert game.hands_log[0].calls == club.hands_log[0].calls


def test_bid_worlds_are_read_from_the_player_spec() -> None:
    assert make_player("solver", 0, random.Random(0)).bid_worlds == solver_player.BID_WORLDS
    player = make_player("solver:4:6:bid=8:default", 0, random.Random(0))
    assert (player.worlds, player.cards, player.bid_worlds) == (4, 6, 8)
    assert make_player("solver:bid=0", 0, random.Random(0)).bid_worlds == 0
    with pytest.raises(ValueError, match="bid="):
        make_player("solver:bid=x", 0, random.Random(0))


@pytest.mark.parametrize(("gains", "chosen"), [((30.0,) * 4, "other"), ((0.0,) * 4, "club"),
                                               ((400.0, -300.0, 100.0, -150.0), "club"),
                                               ((-10.0,) * 4, "club"), ((90.0, 110.0, 100.0, 95.0), "other")])
def test_clubs_call_stands_unless_the_other_is_better_by_the_margin(monkeypatch: pytest.MonkeyPatch,
                                                                    gains: tuple[float, ...], chosen: str) -> None:
    """The other call is made when it beats ``club``'s on the same deals by more than ``MARGIN`` standard errors of
    the paired difference: always better by as much (no spread) or better by far on each, not one big win among
    losses."""
    state = _auctions("pagat-australian", 1)[0]
    seat = state.current_player()
    club_call, other = PASS_ACTION, next(a for a in state.legal_actions() if a != PASS_ACTION)
    world = iter(range(100))
    worth: dict[int, float] = {}

    def rollout(w: GameState, call: int, *_: object) -> float:
        if call == club_call:
            worth[0] = float(next(world) % len(gains))
            return 0.0
        return gains[int(worth[0])]

    monkeypatch.setattr(bid_search, "rollout", rollout)
    models = [ClubPlayer(s, random.Random(s)) for s in range(4)]
    assert state.current_player() == seat
    got = bid_search.searched_call(state, [club_call, other], club_call, len(gains), models)
    assert got == (other if chosen == "other" else club_call)


def test_unsolved_a_rollout_plays_the_hand_out_with_the_model_players() -> None:
    """With no solves (``solved`` None) the hand after the call is ``club``'s from the call to the last card: the
    value is the engine's score of that hand (a passed-out deal's 0 included)."""
    for state in _auctions("pagat-australian", 2)[:3]:
        seat = state.current_player()
        value = bid_search.rollout(state.clone(), PASS_ACTION, [ClubPlayer(s, random.Random(s)) for s in range(4)],
                                   seat, random.Random(0), None)
        s = state.clone()
        s.apply(PASS_ACTION)
        players = [ClubPlayer(k, random.Random(k)) for k in range(4)]
        while s.deals == state.deals and not s.is_terminal() and s.current_player() >= 0:
            s.apply(players[s.current_player()].act(s, s.legal_actions()))
        mine = s.rules.team_of[seat]
        gains = [a - b for a, b in zip(s.totals, state.totals, strict=True)]
        expected = gains[mine] - gains[1 - mine]
        if s.result is not None:
            expected += bid_search.GAME_BONUS if s.result.winner == mine else -bid_search.GAME_BONUS
        assert value == expected
