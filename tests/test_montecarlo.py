"""The Monte Carlo player: determinisation keeps what the seat knows and nothing else; the player is
legal, reproducible, and picks the clearly better card."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import SUITED, E, N, act, cards, new_hand

import fivehundred
from fivehundred.bots import montecarlo, unseen
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.montecarlo import SETTLE_AFTER, MonteCarloPlayer, call_surprises
from fivehundred.bots.players import RandomPlayer
from fivehundred.bots.unseen import Knowledge, clone, deal_unseen, determinise, knowledge
from fivehundred.engine.state import CHANCE, GameState, Phase, new_game
from fivehundred.rules.cards import JOKER_BASE, NO_SUIT
from fivehundred.rules.loading import bundled_dir
from fivehundred.rules.manager import compile_rules, make_player

RULESETS = sorted(p.stem for p in bundled_dir().glob("*.yaml"))
"""The shipped rulesets."""
HISTORY_EXACT = {"pagat-australian", "three-handed", "three-handed-dead-hand", "five-handed", "six-handed"}
"""Rulesets where no card changes hands outside the kitty, so the hands as dealt can be checked."""


# --- states to determinise ----------------------------------------------------------------------


def states(name: str, games: int, every: int = 7) -> Iterator[GameState]:
    """Decision points of seeded games (random players in even games, heuristic in odd), every
    ``every``-th step, in every phase; the first three deals of each game."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    for g in range(games):
        state, deal_rng = new_game(rules, f"mc-test:{g}")
        kind = RandomPlayer if g % 2 == 0 else HeuristicPlayer
        bots = [kind(s, random.Random(g * 10 + s)) for s in range(rules.players)]
        step = 0
        while not state.is_terminal() and state.deals <= 3:
            seat = state.current_player()
            if seat == CHANCE:
                if state.deals == 3:
                    break
                state.deal(deal_rng)
                continue
            step += 1
            if step % every == g % every:
                yield clone(state)
            state.apply(bots[rules.controller[seat]].act(state, state.legal_actions()))


def kitty_taken(state: GameState) -> bool:
    log = state.hands_log[-1]
    return log.contract is not None and log.contract.kitty and log.contractor >= 0


def every_card(state: GameState) -> list[int]:
    """Every card of the deal where it is now: hands, tricks, discards, an untaken kitty, a dead
    hand, dummies' face-down cards and hands laid aside."""
    log = state.hands_log[-1]
    found = [c for h in state._held for c in h]
    found += [c for t in log.tricks for c in t.cards]
    if state.phase == Phase.PLAY:
        found += state.trick
        found += [c for s in state.sitting_out for c in log.hands[s]]
    found += log.discards + log.dead + ([] if kitty_taken(state) else log.kitty)
    found += [c for under in state._covered.values() for c in under.values()]
    return sorted(found)


def shown_void(state: GameState) -> list[set[int]]:
    """Per seat, the effective suits it has failed to follow in this hand (from the true log); a
    dummy's face-down cards may later turn up in such a suit, so dummies show nothing."""
    voids: list[set[int]] = [set() for _ in range(state.rules.players)]
    if state.phase != Phase.PLAY:
        return voids
    table = state.play_table
    assert table is not None
    log = state.hands_log[-1]
    played = [(t.leader, t.cards, t.named) for t in log.tricks]
    if state.trick:
        played.append((state.trick_leader, state.trick, state.led_suit))  # the suit led names itself
    for leader, trick, named in played:
        led = named if named is not None else table.suit_of[trick[0]]
        seat = leader
        for c in trick[1:]:
            seat = state.play_order[seat]
            if table.suit_of[c] not in (led, NO_SUIT) and seat not in state.rules.dummies:  # P2: cards turn up
                voids[seat].add(led)
    return voids


def snapshot(state: GameState) -> Any:
    log = state.hands_log[-1]
    return ([state.observation(s) for s in range(state.rules.players)], [list(h) for h in state._held],
            [list(h) for h in log.hands], list(log.kitty), list(log.discards), list(log.dead),
            {d: dict(u) for d, u in state._covered.items()})


# --- determinisation ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_a_determinised_state_keeps_what_the_seat_knows_and_every_card(name: str) -> None:
    deck = sorted(compile_rules(fivehundred.load_ruleset(name)).deck)
    checked = Counter[str]()
    for state in states(name, games=6):
        before = snapshot(state)
        assert every_card(state) == deck  # the helper itself accounts for every card of the true state
        voids = shown_void(state)
        for seat in range(state.rules.players):
            k = knowledge(state, seat)
            for s, held in enumerate(state._held):  # what the seat infers is true of the real deal
                assert not any(k.suit_of is not None and k.void[s] >> k.suit_of[c] & 1 for c in held)
            world = determinise(state, seat, random.Random(seat))
            assert world.observation(seat) == state.observation(seat)
            assert every_card(world) == deck
            assert [len(h) for h in world._held] == [len(h) for h in state._held]
            for s, held in enumerate(world._held):
                assert held == sorted(held)
                if state.phase == Phase.PLAY:
                    suit_of = state.play_table.suit_of
                    assert not {suit_of[c] for c in held} & voids[s], (name, seat, s)
                    assert world._buckets[s] == [[c for c in held if suit_of[c] == b] for b in range(5)]
            if name in HISTORY_EXACT:
                log = world.hands_log[-1]
                assert sorted([c for h in log.hands for c in h] + log.kitty + log.dead) == deck
            if seat == state.current_player():
                assert world.legal_actions() == state.legal_actions()
            if state.phase == Phase.AUCTION:
                assert world._bidding.passed == state._bidding.passed  # who has passed may not call again
            checked[state.phase.name] += 1
        assert snapshot(state) == before  # the real state is untouched
    assert {"AUCTION", "DISCARD", "PLAY"} <= set(checked), checked


@pytest.mark.parametrize("name", [n for n in RULESETS if not n.startswith("six-handed")])  # six: slow counting
def test_a_determinisation_reads_nothing_the_seat_cannot_see(name: str) -> None:
    """Two deals that look the same to the seat determinise alike: from the real state, and from
    another deal the seat cannot tell from it, the same seed gives the same cards everywhere."""
    for state in states(name, games=2, every=5):
        for seat in range(state.rules.players):
            other = determinise(state, seat, random.Random(99))
            a = determinise(state, seat, random.Random(5))
            b = determinise(other, seat, random.Random(5))
            la, lb = a.hands_log[-1], b.hands_log[-1]
            assert a._held == b._held
            assert (la.hands, la.kitty, la.discards, la.dead) == (lb.hands, lb.kitty, lb.discards, lb.dead)
            assert a._covered == b._covered
            assert a.contracting_side == b.contracting_side


@pytest.mark.parametrize("name", RULESETS)
def test_determinised_states_play_to_the_end_of_the_hand(name: str) -> None:
    for i, state in enumerate(states(name, games=4, every=11)):
        seat = state.current_player()
        world = determinise(state, seat, random.Random(i))
        log = world.hands_log[-1]
        bots = [RandomPlayer(s, random.Random(s)) for s in range(world.rules.players)]
        while world.current_player() >= 0 and world.hands_log[-1] is log:
            world.apply(bots[0].act(world, world.legal_actions()))  # validated: the clone is a sound state


@pytest.mark.parametrize("tries", [0, 32])
def test_the_deal_of_unseen_cards_is_uniform(tries: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six unseen cards, two hidden hands of two (the first void in spades) and two cards nobody
    sees: every agreeing deal is drawn about equally often, and no other; by the counting sampler
    alone, and by plain shuffles first."""
    monkeypatch.setattr(unseen, "REJECTION_TRIES", tries)
    spades, clubs = [2, 3, 4], [22, 23, 24]
    suit_of = [c // 20 for c in range(84)]
    k = Knowledge(seat=0, unseen=spades + clubs, hidden=[1, 2], void=[0, 1, 0, 0], played_by=[[], [], [], []],
                  suit_of=suit_of, contractor=0, sitting=(), must_hold={}, must_not_hold={})
    agreeing = set()
    for order in itertools.permutations(k.unseen):
        hands = (frozenset(order[:2]), frozenset(order[2:4]), frozenset(order[4:]))
        if not hands[0] & set(spades):
            agreeing.add(hands)
    rng = random.Random(3)
    draws = 9000
    seen = Counter(tuple(frozenset(h) for h in deal_unseen(k, [2, 2], rng)) for _ in range(draws))
    assert set(seen) == agreeing  # 18 deals: C(3,2) club pairs for hand 1, then C(4,2) for hand 2
    expected = draws / len(agreeing)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi2 < 45  # 17 degrees of freedom: p < 0.001 above 40.8


def test_a_nominated_joker_stays_with_the_contractor() -> None:
    """STRONG_NT-like: N plays no-trumps holding the joker and nominates hearts; a defender's
    determinisation must leave the joker in N's hand (the play table treats it as N's)."""
    st = new_hand(SUITED)
    act(st, "7NT pass pass pass 4D 5S 6S")  # N keeps the joker and the 4♥
    act(st, "H")  # nominate hearts
    assert st.phase == Phase.PLAY
    for seed in range(30):
        world = determinise(st, 1, random.Random(seed))
        assert JOKER_BASE in world._held[N]


def heuristic_auction(seed: int) -> GameState:
    """A reference deal bid by heuristic players, at the first card."""
    rules = compile_rules(fivehundred.load_ruleset("pagat-australian"))
    while True:
        state = GameState(rules, first_dealer=seed % 4)
        state.deal(random.Random(seed))
        bots = [HeuristicPlayer(s, random.Random(s)) for s in range(4)]
        while state.phase not in (Phase.PLAY, Phase.DEAL):
            state.apply(bots[state.current_player()].act(state, state.legal_actions()))
        if state.phase == Phase.PLAY and len(state.hands_log[-1].calls) >= 5:
            return state
        seed += 1000


def test_the_calls_are_read_as_the_heuristic_would_make_them() -> None:
    """Replayed on the true deal, no heuristic call is a surprise; the deals the player keeps are
    less surprising than plain determinisations."""
    bots = [HeuristicPlayer(s, random.Random(s)) for s in range(4)]
    for seed in range(6):
        state = heuristic_auction(seed)
        seat = (state.hands_log[-1].contractor + 1) % 4
        assert call_surprises(state, seat, bots) == 0
        k = knowledge(state, seat)
        rng = random.Random(seed)
        plain = [call_surprises(determinise(state, seat, rng, k), seat, bots) for _ in range(40)]
        player = MonteCarloPlayer(seat, random.Random(seed), infer_play=8)
        kept = [call_surprises(player._sample_world(state, k, bots), seat, bots) for _ in range(40)]
        assert sum(kept) < sum(plain), (kept, plain)


# --- the player ---------------------------------------------------------------------------------


def play_checked(name: str, players: list[Any], seed: int, deals: int) -> list[int]:
    """Play ``deals`` deals, checking every action with ``GameState.apply``; the actions taken."""
    state, deal_rng = new_game(fivehundred.load_ruleset(name), seed)
    actions = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            if state.deals == deals:
                break
            state.deal(deal_rng)
            continue
        legal = list(state.legal_actions())
        action = players[state.rules.controller[seat]].act(state, legal)
        assert action in legal
        state.apply(action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("name", ["pagat-australian", "three-handed", "five-handed"])
def test_the_player_only_plays_legal_actions(name: str) -> None:
    seats = compile_rules(fivehundred.load_ruleset(name)).players
    players: list[Any] = [MonteCarloPlayer(s, random.Random(s), rollouts=6) if s % 2 == 0
                          else HeuristicPlayer(s, random.Random(s)) for s in range(seats)]
    assert len(play_checked(name, players, seed=2, deals=2)) > 40


def test_the_player_is_reproducible_for_a_seed_and_a_rollout_budget() -> None:
    def run(seed: int) -> list[int]:
        players: list[Any] = [make_player("montecarlo:5", s, random.Random(seed + s)) for s in range(4)]
        return play_checked("pagat-australian", players, seed=4, deals=2)

    assert run(1) == run(1)


def suited_no_trumps() -> GameState:
    """SUITED: N bids 9NT, keeps nine spades and the 4♥ (the others hold one suit each).  Leading
    spades makes nine tricks whatever the others hold; the 4♥ gives the lead away for good."""
    st = new_hand(SUITED)
    act(st, "9NT pass pass pass 4D JK 5S")
    assert st.current_player() == N and st.phase == Phase.PLAY
    return st


def test_rollouts_pick_the_card_that_makes_the_contract() -> None:
    st = suited_no_trumps()
    player = MonteCarloPlayer(N, random.Random(0), rollouts=8)
    legal = st.legal_actions()
    assert player._play_candidates(st, legal, legal[0]) == [legal[0], cards("4H")[0]]  # the spades are one run
    assert st.action_to_str(player.act(st, legal)).endswith("S")
    # even when the heuristic's choice is the losing card, the rollouts overrule it
    four = cards("4H")[0]
    assert player.choose(st, [four, cards("6S")[0]], default=four) == cards("6S")[0]
    values = player.evaluate(st, [four, cards("6S")[0]])
    assert max(values[0]) < min(values[1])  # the 4♥ loses the contract in every sampled deal


def test_a_card_shown_in_another_hand_keeps_two_of_ours_apart() -> None:
    """The candidates' runs read the cards outside the hand still to be played: the cards the seat has not
    seen (``Observation.unseen``) and the hands shown.  An open misère's Q♥ lies between E's K♥ and J♥: it is
    seen, not unseen, and still to be played, so the two hearts are two candidates (the spades, clubs and
    diamonds touch: one each)."""
    st = new_hand(("QH 5S 6S 7S 5C 6C 7C 4D 5D 4H", "KH JH AS KS QS AC KC QC AD KD", "8S 9S 10S JS 8C 9C 10C JC 6D 7D",
                   "8D 9D 10D JD QD AH 10H 9H 8H 7H", "6H 5H JK"))
    act(st, "open-misere pass pass pass JK 6H 5H | 5S AS 7H")  # S sits out; N's hand is shown after the trick
    assert st.current_player() == E
    obs = st.observation(E)
    queen = cards("QH")[0]
    assert queen in dict(obs.open_hands)[N] and queen not in obs.unseen(st.rules.deck)
    player = MonteCarloPlayer(E, random.Random(0), rollouts=8)
    legal = st.legal_actions()
    assert player._play_candidates(st, legal, legal[0]) == cards("QS QC KD JH KH")


def test_player_specs() -> None:
    rng = random.Random(0)
    assert make_player("montecarlo:200", 0, rng).rollouts == 200
    assert make_player("montecarlo:50ms", 0, rng).ms == 50.0
    assert make_player("montecarlo", 0, rng).ms is None
    with pytest.raises(ValueError, match="neither a number of rollouts"):
        make_player("montecarlo:fast", 0, rng)
    with pytest.raises(ValueError, match="at least 1"):
        make_player("montecarlo:0", 0, rng)
    before = make_player("montecarlo:48:infer=16:batch=1:drop=off:settle=off", 0, rng)
    assert (before.rollouts, before.infer, before.batch, before.drop, before.settle) == (48, 16, 1, None, None)
    assert make_player("montecarlo::drop=0.25", 0, rng).drop == 0.25
    assert make_player("montecarlo:30ms:margin=1", 0, rng).margin == 1.0
    with pytest.raises(ValueError, match="cannot read the setting 'rollouts=3'"):
        make_player("montecarlo:48:rollouts=3", 0, rng)
    with pytest.raises(ValueError, match="needs a number"):
        make_player("montecarlo:48:infer=many", 0, rng)
    for name in ("random", "heuristic"):
        with pytest.raises(ValueError, match=f"player '{name}' takes no argument"):
            make_player(f"{name}:3", 0, rng)


class _Clock:
    """A stand-in for ``time`` whose ``perf_counter`` advances by a fixed step at every reading."""

    def __init__(self, step: float):
        self.now, self.step, self.readings = 0.0, step, 0

    def perf_counter(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def test_a_time_budget_bounds_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 30 ms budget on a clock that moves 10 ms a reading: three worlds per candidate, whatever the
    rollout count, read off a fake clock (never the machine's, whose load would make it flaky)."""
    st = suited_no_trumps()
    legal = st.legal_actions()
    clock = _Clock(0.010)
    monkeypatch.setattr(montecarlo, "time", clock)
    player = MonteCarloPlayer(N, random.Random(0), rollouts=10_000, ms=30)
    values = player.evaluate(st, legal[:2])
    assert [len(v) for v in values] == [3, 3]
    assert clock.readings == 4  # the deadline, then one reading after each world
    assert player.act(st, legal) in legal


def test_the_cli_takes_a_budget_and_refuses_an_argument_where_none_is_taken() -> None:
    from typer.testing import CliRunner

    from fivehundred.cli.app import app

    runner = CliRunner()
    ok = runner.invoke(app, ["simulate", "-n", "1", "--seed", "3", "-p", "montecarlo:2,random,montecarlo:2,random",
                             "--json"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["simulate", "-n", "1", "-p", "random:3"])
    assert bad.exit_code == 1
    assert "takes no argument" in bad.output


# --- every shipped ruleset ------------------------------------------------------------------------


def heuristic_auction_in(name: str, seed: int) -> GameState:
    """A deal of ``name`` bid by heuristic players, stopped at the last call of its auction (before the
    auction's last call, so that the calls made so far are the ones read)."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    state, deal_rng = new_game(rules, f"mc-auction:{seed}")
    bots = [HeuristicPlayer(s, random.Random(s)) for s in range(rules.players)]
    last = None
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            if last is not None:
                return last
            state.deal(deal_rng)
            continue
        if state.phase == Phase.AUCTION and state.hands_log[-1].calls:
            last = clone(state)
        state.apply(bots[rules.controller[seat]].act(state, state.legal_actions()))
    raise AssertionError("the game ended before an auction with a call")


@pytest.mark.parametrize("name", RULESETS)
def test_the_calls_are_replayed_in_every_shipped_ruleset(name: str) -> None:
    """On the true deal the replay of the auction goes through (a blind bid, a face-up kitty card, a
    dummy's face-up cards) and finds no heuristic call surprising; so does it on a determinisation,
    whose hands as dealt hold what the seat knows."""
    bots = [HeuristicPlayer(s, random.Random(s)) for s in range(12)]
    for seed in range(3):
        state = heuristic_auction_in(name, seed)
        seat = state.current_player()
        assert montecarlo.replay_calls(state, seat, bots, cap=99) == 0
        world = determinise(state, seat, random.Random(seed))
        assert montecarlo.replay_calls(world, seat, bots, cap=99) >= 0  # goes through: no FiveHundredError


@pytest.mark.parametrize("name", RULESETS)
def test_the_player_plays_a_legal_deal_in_every_shipped_ruleset(name: str) -> None:
    """Seeded deals of each shipped ruleset, the Monte Carlo player in every other seat on a small
    budget, each action checked by ``GameState.apply``, until the player has weighed a card to play."""
    seats = compile_rules(fivehundred.load_ruleset(name)).players
    players: list[Any] = [MonteCarloPlayer(s, random.Random(s), rollouts=4) if s % 2 == 0
                          else HeuristicPlayer(s, random.Random(s)) for s in range(seats)]
    weighed = Counter[str]()
    for p in players[::2]:
        evaluate = p.evaluate

        def counted(state: GameState, candidates: Any, default: Any = None, evaluate: Any = evaluate) -> Any:
            weighed[state.phase.name] += 1
            return evaluate(state, candidates, default)

        p.evaluate = counted
    for seed in range(3, 9):  # until a deal is played (most five-handed deals are passed out)
        assert play_checked(name, players, seed=seed, deals=1)
        if weighed["PLAY"]:
            break
    assert weighed["PLAY"] > 0, weighed


def test_a_candidate_no_better_than_the_default_is_dropped_after_a_batch() -> None:
    """The 4♥ loses the contract on every deal and the 7♠ is the 6♠ on every deal: after the first
    batch of deals neither is rolled out again and the decision stops, where without ``drop`` every
    candidate has all the deals of the budget."""
    st = suited_no_trumps()
    four, six, seven = cards("4H")[0], cards("6S")[0], cards("7S")[0]
    player = MonteCarloPlayer(N, random.Random(0), rollouts=30, batch=2)
    assert [len(v) for v in player.evaluate(st, [four, six, seven], default=six)] == [2, 2, 2]
    full = MonteCarloPlayer(N, random.Random(0), rollouts=30, batch=2, drop=None)
    assert [len(v) for v in full.evaluate(st, [four, six, seven], default=six)] == [10, 10, 10]
    # a better candidate than the default is never dropped: it is the one chosen
    assert player.choose(st, [four, six], default=four) == six


def test_a_candidate_far_better_than_the_default_ends_the_decision() -> None:
    """The 6♠ makes the contract on every deal where the heuristic's 4♥ loses it: once ``SETTLE_AFTER``
    deals are rolled out the decision ends, choosing the 6♠, where without ``settle`` every candidate
    has all the deals of the budget; a candidate no better than the default settles nothing."""
    st = suited_no_trumps()
    four, six = cards("4H")[0], cards("6S")[0]
    player = MonteCarloPlayer(N, random.Random(0), rollouts=40, batch=2)
    assert [len(v) for v in player.evaluate(st, [four, six], default=four)] == [SETTLE_AFTER] * 2
    assert player.choose(st, [four, six], default=four) == six
    patient = MonteCarloPlayer(N, random.Random(0), rollouts=40, batch=2, settle=None)
    assert [len(v) for v in patient.evaluate(st, [four, six], default=four)] == [20, 20]
    assert not player._settled([[1.0] * 8, [1.0] * 8], [0, 1], 0, 8)  # the same value on every deal


@pytest.mark.parametrize("name", ["pagat-australian", "perfect", "two-handed"])
def test_the_player_is_reproducible_in_other_rulesets(name: str) -> None:
    seats = compile_rules(fivehundred.load_ruleset(name)).players

    def run() -> list[int]:
        players: list[Any] = [make_player("montecarlo:4", s, random.Random(7 + s)) for s in range(seats)]
        return play_checked(name, players, seed=5, deals=1)

    assert run() == run()
