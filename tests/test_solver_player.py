"""The solver player: registered as ``solver`` (``solver:N``, ``solver:N:C``), club's auction, and in the play a
card chosen over sampled worlds solved double dummy that does at least as well as club's card on the true deal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import N, W, act, new_hand

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.bots import solved_worlds
from fivehundred.bots.club import ClubPlayer
from fivehundred.bots.defence import MisereDefender
from fivehundred.bots.params import tuned_for
from fivehundred.bots.solved_worlds import BidReading, best_card, world_seed, worth_table
from fivehundred.bots.solver_player import PLAYED_WORLDS, SolverPlayer, solved_from
from fivehundred.bots.unseen import determinise, knowledge
from fivehundred.engine.state import GameState, new_game
from fivehundred.rules.actions import Phase
from fivehundred.rules.manager import compile_rules, make_player
from fivehundred.rules.steps import FIRST_STEP_ACTION

RULES = compile_rules(fivehundred.load_ruleset("pagat-australian"))


def test_the_solver_player_is_registered_with_its_worlds_and_cards() -> None:
    player = make_player("solver:3:4", 1, random.Random(0))
    assert isinstance(player, SolverPlayer) and (player.worlds, player.cards, player.seat) == (3, 4, 1)
    default = make_player("solver", 0, random.Random(0))
    assert isinstance(default, SolverPlayer) and default.cards is None  # by the table: solved_from


@pytest.mark.parametrize(("name", "cards"), [("pagat-australian", 10), ("two-handed", 10), ("three-handed", 13),
                                              ("five-handed", 8), ("six-handed", 6), ("six-handed-two-jokers", 6)])
def test_the_solver_solves_whole_hands_up_to_four_seats_and_the_last_cards_beyond(name: str, cards: int) -> None:
    state, _ = new_game(fivehundred.load_ruleset(name), 1)
    assert solved_from(state) == cards
    for bad in ("solver:0", "solver:x", "solver:1:2:3"):
        with pytest.raises(ValueError, match="solver:"):
            make_player(bad, 0, random.Random(0))
    from fivehundred.bots.params import tuned_for

    bidding = make_player("solver:2:4:three-handed", 0, random.Random(0))  # club's parameters for the auction
    assert isinstance(bidding, SolverPlayer) and (bidding.worlds, bidding.cards) == (2, 4)
    assert bidding.params == tuned_for("three-handed")
    assert make_player("solver:default", 0, random.Random(0)).worlds == 8


def test_a_solver_game_is_a_pure_function_of_its_seed() -> None:
    a = play_game(RULES.ruleset, 7, "solver:2,club,solver:2,club", game=0)
    b = play_game(RULES.ruleset, 7, "solver:2,club,solver:2,club", game=0)
    assert [log.tricks for log in a.hands_log] == [log.tricks for log in b.hands_log]


def _endings(games: int) -> list[GameState]:
    """Positions of club games where the seat to play holds three to five cards and has a choice."""
    found = []
    for game in range(games):
        rng = random.Random(f"ending:{game}")
        state = GameState(RULES, first_dealer=game % 4)
        players = [ClubPlayer(s, random.Random(s)) for s in range(4)]
        state.deal(rng)
        while not state.is_terminal() and len(state.hands_log) < 3:
            if state.phase == Phase.DEAL:
                state.deal(rng)
                continue
            seat = state.current_player()
            legal = state.legal_actions()
            if state.phase == Phase.PLAY and 3 <= len(state.hand(seat)) <= 5 and len(legal) > 1:
                found.append(state.clone())
            state.apply(players[seat].act(state, legal))
    return found


@pytest.mark.searches
def test_the_solvers_cards_do_at_least_as_well_as_clubs_on_the_true_deal() -> None:
    """Over endings of seeded club games, the card ``solver`` plays (eight sampled worlds, read by the calls and
    cards the others made), valued on the true deal double dummy for the seat's side, adds up to at least club's
    cards' values (and differs somewhere)."""
    positions = _endings(24)  # 343 positions: a contract made or not counts 100, and fewer leave the sum to the
    assert len(positions) >= 300  # luck of a few worlds (unread worlds and club's stopper rule come level on 200)
    ours = theirs = differ = 0
    for state in positions:
        seat = state.current_player()
        legal = state.legal_actions()
        club_card = MisereDefender.act(ClubPlayer(seat, random.Random(0)), state, legal)
        card = SolverPlayer(seat, random.Random(0)).act(state, legal)
        true = fivehundred.solve_cards(state)
        contract = state.contract
        assert contract is not None
        sign = 1 if seat in state.contracting_side else -1

        worth = {a: sign * (100 * contract.made(v) + (v if contract.goal == "at-least" else -v))
                 for a, v in true.items()}
        ours += worth[card]
        theirs += worth[club_card]
        differ += card != club_card
    assert differ > 0
    assert ours >= theirs


def _first_leads(kinds: tuple[str, ...], wanted: int, rules: Any = RULES) -> list[GameState]:
    """Positions at the first lead of club games whose contract is of one of ``kinds`` (``Contract.kind``)."""
    found = []
    for game in range(400):
        rng = random.Random(f"lead:{game}")
        state = GameState(rules, first_dealer=game % 4)
        players = [ClubPlayer(s, random.Random(s)) for s in range(4)]
        state.deal(rng)
        while not state.is_terminal() and len(state.hands_log) < 4 and len(found) < wanted:
            if state.phase == Phase.DEAL:
                state.deal(rng)
                continue
            contract = state.contract
            if (state.phase == Phase.PLAY and not state.hand_log.tricks and not state.trick and contract is not None
                    and contract.kind in kinds and not getattr(contract, "open", False)):
                found.append(state.clone())
                break
            seat = state.current_player()
            state.apply(players[seat].act(state, state.legal_actions()))
        if len(found) >= wanted:
            break
    return found


@pytest.mark.parametrize("kinds", [("trumps", "no-trumps"), ("misere",)])
@pytest.mark.searches
def test_a_defenders_worlds_agree_with_the_contractors_bid(kinds: tuple[str, ...]) -> None:
    """Uniform worlds give a contractor of 7 spades the mere share of the unseen cards a defender expects; the
    solver's worlds keep its hand as strong as club would bid on (or, for a closed misère, as safe), and a world
    is the same for the same decision."""
    from fivehundred.bots.solved_worlds import BidReading
    from fivehundred.bots.unseen import determinise, knowledge

    positions = _first_leads(kinds, 6)
    assert len(positions) >= 3
    for state in positions:
        contractor = state.hand_log.contractor
        defender = next(s for s in range(4) if s not in state.contracting_side)
        k = knowledge(state, defender)
        bid = BidReading.of(state, k)
        assert bid is not None and bid.contractor == contractor
        assert bid.score(state.hand(contractor)) >= -1.0  # the true hand reads as (nearly) plausible
        read = [bid.score(bid.world(state, defender, random.Random(i), k).hand(contractor)) for i in range(12)]
        uniform = [bid.score(determinise(state, defender, random.Random(i), k).hand(contractor)) for i in range(12)]
        assert sum(x >= 0 for x in read) > sum(x >= 0 for x in uniform)
        assert sum(read) > sum(uniform)
        again = bid.world(state, defender, random.Random(3), k)
        assert again.hand(contractor) == bid.world(state, defender, random.Random(3), k).hand(contractor)


def test_no_bid_reading_where_the_contractors_hand_is_seen() -> None:
    """The contractor itself, and its side's worlds of a contract it holds, need no reading of the bid."""
    from fivehundred.bots.solved_worlds import BidReading
    from fivehundred.bots.unseen import knowledge

    state = _first_leads(("trumps", "no-trumps"), 1)[0]
    contractor = state.hand_log.contractor
    assert BidReading.of(state, knowledge(state, contractor)) is None


def _full_totals_card(state: GameState, worlds: int, plays: list[int], default: int) -> int:
    """``best_card`` without its shortcut: every card valued in every world (``solve_cards``)."""
    seat = state.current_player()
    worth = worth_table(state, seat)
    rng = random.Random("solver:" + world_seed(state, seat))
    k = knowledge(state, seat)
    bid = BidReading.of(state, k)
    total = dict.fromkeys(plays, 0.0)
    for _ in range(worlds):
        values = fivehundred.solve_cards(bid.world(state, seat, rng, k) if bid else determinise(state, seat, rng, k))
        for action in plays:
            total[action] += worth[values[action]]
    best = max(total.values())
    return default if total[default] == best else next(a for a in plays if total[a] == best)


@pytest.mark.parametrize("default_kind", ["club", "first", "last"])
def test_best_card_plays_what_every_card_valued_in_every_world_would(default_kind: str) -> None:
    """``best_card`` values only the default card and the seat's best in each world, and values every card only
    where the default is not the best in some world: the card is the one the full totals give, for every
    caller's card (club's, or the first or last legal card, which the shortcut more often cannot keep)."""
    positions = _endings(6)
    assert len(positions) >= 50
    for state in positions:
        seat = state.current_player()
        plays = [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
        default = {"club": MisereDefender.act(ClubPlayer(seat, random.Random(0)), state, state.legal_actions()),
                   "first": plays[0], "last": plays[-1]}[default_kind]
        assert best_card(state, 4, plays, default) == _full_totals_card(state, 4, plays, default)


def _reference_score(contract_value: int, bid: int, tricks: int) -> tuple[int, int]:
    """Rules 25-26 of docs/rules.md, written out: the contracting side's and the defenders' points for a contract
    in a suit or no-trumps worth ``contract_value``, ``bid`` tricks bid, ``tricks`` taken by the contracting side."""
    if tricks < bid:
        return -contract_value, 10 * (10 - tricks)
    if tricks == 10 and contract_value < 250:
        return 250, 0
    return contract_value, 10 * (10 - tricks)


def test_a_worlds_worth_is_what_the_hand_scores_for_each_side_and_the_game() -> None:
    """``worth_table``: for each total of tricks the contracting side may take, the hand's points for the seat's
    side less the other side's by the reference scoring (the slam of rule 25 too), and 1,000 more or less where
    the hand ends the game (rules 29-30)."""
    state = _first_leads(("trumps", "no-trumps"), 1)[0]
    contract = state.contract
    assert contract is not None
    contractor = state.hand_log.contractor
    defender = (contractor + 1) % 4
    for tricks in range(11):
        ours, theirs = _reference_score(contract.value, contract.tricks, tricks)
        assert worth_table(state, contractor)[tricks] == ours - theirs
        assert worth_table(state, defender)[tricks] == theirs - ours
    team = RULES.team_of[contractor]
    ending = state.clone()
    ending.totals = [500 - contract.value if t == team else 0 for t in range(2)]  # made: the game is won
    won = worth_table(ending, contractor)
    assert won[contract.tricks] == worth_table(state, contractor)[contract.tricks] + 1000
    assert won[contract.tricks - 1] == worth_table(state, contractor)[contract.tricks - 1]
    ending.totals = [contract.value - 500 if t == team else 0 for t in range(2)]  # failed: the game is lost
    lost = worth_table(ending, defender)
    assert lost[contract.tricks - 1] == worth_table(state, defender)[contract.tricks - 1] + 1000
    assert lost[contract.tricks] == worth_table(state, defender)[contract.tricks]


def test_a_worlds_worth_follows_a_variants_scoring(tmp_path: Path) -> None:
    """S3 and S6 laid over the reference: each trick over the bid scores 10 for the contracting side (no slam), the
    defenders score nothing, so a defender's worth changes only where the contract is made or beaten."""
    path = tmp_path / "overtricks.yaml"
    path.write_text("extends: pagat-australian\nscoring: {overtrick_points: 10, overtrick_cap: 520, slam: null, "
                    "defender_trick_points: 0}\n", encoding="utf-8")
    state = _first_leads(("trumps", "no-trumps"), 1, compile_rules(fivehundred.load_ruleset(path)))[0]
    contract = state.contract
    assert contract is not None
    contractor = state.hand_log.contractor
    ours = worth_table(state, contractor)
    theirs = worth_table(state, (contractor + 1) % 4)
    for tricks in range(11):
        points = contract.value + 10 * (tricks - contract.tricks) if tricks >= contract.tricks else -contract.value
        assert ours[tricks] == points
        assert theirs[tricks] == -points


def test_the_contracting_sides_worlds_played_out_by_club_is_an_option() -> None:
    player = make_player("solver:8:out=16", 2, random.Random(0))
    assert isinstance(player, SolverPlayer) and (player.worlds, player.played_worlds) == (8, 16)
    assert make_player("solver", 0, random.Random(0)).played_worlds == PLAYED_WORLDS
    with pytest.raises(ValueError, match="out="):
        make_player("solver:out=x", 0, random.Random(0))


def _scored_after(state: GameState, card: int) -> int:
    """The seat's side's points less the other side's for the hand, by the engine's own scoring, when ``card`` is
    played and ``club`` plays every seat from there."""
    seat = state.current_player()
    s = state.clone()
    players = [ClubPlayer(x, random.Random(x)) for x in range(4)]
    log = s.hand_log
    s.apply(card)
    while log.outcome is None:
        s.apply(players[s.current_player()].act(s, s.legal_actions()))
    team = RULES.team_of[seat]
    return log.scores[team] - log.scores[1 - team]


def test_played_card_plays_the_card_clubs_play_of_the_world_scores_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the true deal as its one world, ``played_card`` plays the card after which ``club``'s play of the rest of
    the hand scores best for the seat's side by the engine's own scoring (the caller's card among equals)."""
    monkeypatch.setattr(solved_worlds, "sample_worlds", lambda state, seat, worlds, models=None: [state.clone()])
    players = [ClubPlayer(x, random.Random(x)) for x in range(4)]
    checked = chosen_other = 0
    for state in _endings(8):
        if state.current_player() not in state.contracting_side or len(state.hands_log) > 1:
            continue  # the first hand: 0-0, so no hand ends the game and the scores are the hand's
        plays = [a for a in state.legal_actions() if a < FIRST_STEP_ACTION]
        default = plays[-1]
        scored = {card: _scored_after(state, card) for card in plays}
        best = max(scored.values())
        expected = default if scored[default] == best else next(c for c in plays if scored[c] == best)
        assert solved_worlds.played_card(state, 1, plays, default, players) == expected
        checked += 1
        chosen_other += expected != default
    assert checked >= 20 and chosen_other >= 3


def _made_from(state: GameState, card: int) -> bool:
    """Whether the hand's contract is made when ``card`` is played and ``club`` plays every seat from there (without
    its open-misère search, ``club:fast``: the model of the other seats ``solver`` plays its cards out with)."""
    s = state.clone()
    log = s.hand_log
    players = [ClubPlayer.from_spec(k, random.Random(k), "fast") for k in range(s.rules.players)]
    s.apply(card)
    while s.hand_log is log and not s.is_terminal() and s.current_player() >= 0:
        s.apply(players[s.rules.controller[s.current_player()]].act(s, s.legal_actions()))
    assert log.outcome is not None
    return bool(log.outcome.made)


def _survival_hand() -> tuple[GameState, int]:
    """The open misère of seed ``surv:0``'s first hand at South's first lead, and South."""
    state, rng = new_game(RULES.ruleset, "surv:0")
    former = tuned_for(RULES.ruleset).model_copy(update={"misere_long": 0.0, "misere_bid_worlds": 0.0})
    bidders = [ClubPlayer(s, random.Random(s), former) for s in range(4)]
    state.deal(rng)
    while state.phase != Phase.PLAY:
        state.apply(bidders[state.current_player()].act(state, state.legal_actions()))
    south = state.current_player()
    assert state.contract is not None and state.contract.call == "open-misere" and state.contractor == south
    return state, south


def test_a_misere_contractor_that_fails_against_every_seeing_defence_plays_for_the_defence_at_the_table() -> None:
    """South's open misère (seed ``surv:0``, the first hand): ♠5 6 8 10 J Q ♣5 J ♦5 ♥7 against ♠K ♣9 10 K and ♠A ♣7 Q.
    The defenders hold three clubs under the ♣J and South one: whatever South leads, a defence that sees every card
    beats it, so every card is worth the same in every world and the double-dummy totals choose nothing.  ``club``
    leads ♣5, and its own defenders then beat the misère; ``solver`` breaks the tie by playing each card on in its
    worlds with ``club`` in every seat (``survival_card``), leads away from its clubs (a spade or the ♥7), keeps ♣5 to
    duck under a club lead, and the misère is made.  (The auction is bid by ``club`` without ``misere_long``: since
    it counts South's six spades, ``club`` bids no misère on this hand.)"""
    state, south = _survival_hand()
    assert fivehundred.solve(state) > 0  # beaten against every card seen
    legal = state.legal_actions()
    club_card = ClubPlayer.from_spec(south, random.Random(0), "fast").act(state, legal)
    card = SolverPlayer(south, random.Random(0)).act(state, legal)
    assert state.action_to_str(club_card) == "5C" and state.action_to_str(card)[-1] != "C"
    assert _made_from(state, card) and not _made_from(state, club_card)


def test_an_open_miseres_contractor_doomed_in_its_worlds_plays_for_the_defence_at_the_table() -> None:
    """North's open misère over East's 7NT (a seeded game's second hand, South sitting out): after the kitty ♥Q J 8,
    North leads from ♠7 9 ♣6 7 J ♦4 5 7 10 K.  Against a defence that sees every card every lead is beaten, and of the
    32 worlds North samples ♦4, ♦5 and ♦7 are made in 5 each, the most: double dummy alone (``best_card``, ``solver``
    before December 2026) leads ♦4, ``club``'s rules of thumb's card.  Made in half the worlds or fewer, ``solver``
    counts too the worlds in which the misère is made with ``club`` playing every seat on from each card
    (``solved_worlds.table_misere_card``, as ``club``'s own open misère does), and leads ♦7; on the true deal the misère
    is then made, and after ♦4 it is beaten."""
    st = new_hand(["7S 9S 6C 7C JC 4D 5D 7D 10D KD", "QC JK 5S 10C 6D 6H KC 4H AC AD",
                   "5C KS 8S 9C AS QS 10S 8C JD 9D", "8D 9H 6S 5H 10H KH QD JS 7H AH", "QH JH 8H"],
                  dealer=W, totals=[20, 300])
    act(st, "7D 7NT pass pass open-misere pass QH JH 8H")
    assert st.current_player() == N and st.contract is not None and st.contract.call == "open-misere"
    assert set(fivehundred.solve_cards(st).values()) == {1}  # beaten whatever North leads, every card seen
    legal = st.legal_actions()
    player = SolverPlayer(N, random.Random(0))
    plays = [a for a in legal if a < FIRST_STEP_ACTION]
    default = MisereDefender.act(player, st, legal)
    dd_alone = best_card(st, 32, plays, default, models=player._club_models(st))
    card = player.act(st, legal)
    assert [st.action_to_str(c) for c in (default, dd_alone, card)] == ["4D", "4D", "7D"]
    assert _made_from(st, card) and not _made_from(st, default)


@pytest.mark.parametrize("own_worlds", [0, 8, 32])
def test_club_plays_its_open_misere_for_the_defence_at_the_table_from_misere_own_worlds(own_worlds: int) -> None:
    """The same hand with ``club`` as the contractor and ``club`` (its shipped set: the defence searches) defending:
    by rules of thumb (``misere_own_worlds`` 0) South leads ♣5 and is beaten; searching its card as ``solver`` does
    (double dummy over the worlds, ties broken by ``survival_card``), it leads away from its clubs and makes it."""
    state, south = _survival_hand()
    own = tuned_for(RULES.ruleset).model_copy(update={"misere_own_worlds": float(own_worlds)})
    seats = [ClubPlayer(s, random.Random(s), own if s == south else None) for s in range(4)]
    first = seats[south].act(state, state.legal_actions())
    log = state.hand_log
    state.apply(first)
    while log.outcome is None:
        state.apply(seats[state.current_player()].act(state, state.legal_actions()))
    if own_worlds:
        assert state.action_to_str(first)[-1] != "C" and log.outcome.made
    else:
        assert state.action_to_str(first) == "5C" and not log.outcome.made
