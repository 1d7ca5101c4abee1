"""The heuristic player: always legal, clearly better than random, and sensible in set positions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

import fivehundred
from fivehundred.bots.evaluation import _danger, _Denomination, _info, _misere_suits, _misere_throw
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.state import CALL, CHANCE, DISCARD, NO_NOMINATION, PASS_ACTION, GameState, Phase, new_game
from fivehundred.rules.cards import HEARTS, NO_SUIT, SPADES, card_str, parse_cards
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import Rules, compile_rules

RULES = compile_rules(fivehundred.load_ruleset("pagat-australian"))
N, E, S, W = 0, 1, 2, 3


def players(kinds: Sequence[str], seed: int) -> list[HeuristicPlayer | RandomPlayer]:
    made: list[HeuristicPlayer | RandomPlayer] = []
    for seat, kind in enumerate(kinds):
        rng = random.Random(f"{seed}:{seat}")
        made.append(HeuristicPlayer(seat, rng) if kind == "h" else RandomPlayer(seat, rng))
    return made


def play_game(rules: Rules, seed: int, kinds: Sequence[str]) -> GameState:
    """A whole game; ``apply`` checks every action the players choose."""
    st, rng = new_game(rules, seed)
    seats = players(kinds, seed)
    while not st.is_terminal():
        p = st.current_player()
        if p == CHANCE:
            st.deal(rng)
        else:
            st.apply(seats[p].act(st, st.legal_actions()))
    return st


def deal(hands: dict[int, str], kitty: str, first_dealer: int = W) -> GameState:
    """A hand with the given cards; the one seat left out gets the rest of the deck."""
    given = {seat: parse_cards(text) for seat, text in hands.items()}
    kitty_cards = parse_cards(kitty)
    used = {c for cards in given.values() for c in cards} | set(kitty_cards)
    rest = [c for c in RULES.deck if c not in used]
    missing = [seat for seat in range(4) if seat not in given]
    assert len(missing) == 1 and len(rest) == RULES.hand_size, "give three hands of ten and a kitty of three"
    given[missing[0]] = rest
    st = GameState(RULES, first_dealer=first_dealer)
    st.deal_cards([given[seat] for seat in range(4)], kitty_cards)
    return st


def script(st: GameState, text: str) -> None:
    """Apply actions in text notation (``6S``, ``pass``, ``AH``); in the discard phase a card
    means discarding it."""
    for word in text.split():
        if st.phase == Phase.DISCARD:
            word = f"discard {word}"
        st.apply(st.parse_action(word))


def decide(st: GameState) -> int:
    seat = st.current_player()
    return HeuristicPlayer(seat, random.Random(0)).act(st, st.legal_actions())


def call_of(action: int) -> str:
    return "pass" if action == PASS_ACTION else RULES.ladder[action - CALL].call


# --- legality, strength, determinism ----------------------------------------------------------


@pytest.mark.parametrize("ruleset_name", sorted(ruleset_paths()))
def test_always_legal_in_every_shipped_ruleset(ruleset_name: str) -> None:
    rules = compile_rules(fivehundred.load_ruleset(ruleset_name))
    n = rules.players
    for seed in range(3):
        play_game(rules, seed, "h" * n)
        play_game(rules, 100 + seed, "hr" * n)


SEEN_FIELDS = ("calls", "contract", "contractor", "current_trick", "discards", "hand", "leader", "led", "nomination",
               "open_hand", "open_hands", "phase", "seat", "sitting_out", "tricks", "tricks_won", "totals")
"""The fields of ``Observation`` a ``_Seen`` carries (the heuristic's decisions read no others)."""


@pytest.mark.parametrize("ruleset_name", sorted(ruleset_paths()))
def test_the_seats_view_is_its_observation(ruleset_name: str) -> None:
    """``HeuristicPlayer._seen`` (the fields read through the state's public API, the finished tricks and
    what stays the same through the play kept between decisions) against ``observation(seat)``, field by
    field, at every call, discard and card of seeded games: one view-keeper per seat across each hand, as
    at the table and in ``montecarlo``'s rollouts."""
    rules = compile_rules(fivehundred.load_ruleset(ruleset_name))
    checked = {Phase.AUCTION: 0, Phase.DISCARD: 0, Phase.PLAY: 0}
    for g in range(12):  # until enough cards are played (most five-handed deals are passed out)
        if checked[Phase.PLAY] > 60:
            break
        state, deal_rng = new_game(rules, f"seen:{g}")
        bots = players("hr"[g % 2] * rules.players, g)
        keepers = [HeuristicPlayer(s, random.Random(s)) for s in range(rules.players)]
        while not state.is_terminal() and state.deals <= 2:
            seat = state.current_player()
            if seat == CHANCE:
                state.deal(deal_rng)
                continue
            if state.phase in checked:
                seen, obs = keepers[seat]._seen(state, seat), state.observation(seat)
                for field in SEEN_FIELDS:
                    assert getattr(seen, field) == getattr(obs, field), (state.phase, field)
                checked[state.phase] += 1
            state.apply(bots[rules.controller[seat]].act(state, state.legal_actions()))
    assert checked[Phase.AUCTION] > 5 and checked[Phase.PLAY] > 20


THREE_HANDED = """
extends: pagat-australian
name: three-alone
players:
  seats: [N, E, S]
  teams: [{name: N, seats: [N]}, {name: E, seats: [E]}, {name: S, seats: [S]}]
deck:
  suits: {S: [A, K, Q, J, "10", "9", "8", "7"], C: [A, K, Q, J, "10", "9", "8", "7"],
          D: [A, K, Q, J, "10", "9", "8", "7"], H: [A, K, Q, J, "10", "9", "8", "7"]}
"""

ODD_LADDER = """
extends: pagat-australian
name: odd-ladder
auction:
  rounds: single
  ladder:
    - {call: 7S, value: 140}
    - {call: 7H, value: 200}
    - {call: misere, value: 250}
    - {call: 8NT, value: 320}
    - {call: 9C, value: 360}
    - {call: 10NT, value: 520}
    - {call: open-misere, value: 600}
"""


@pytest.mark.parametrize("text", [THREE_HANDED, ODD_LADDER], ids=["three-handed", "odd-ladder"])
def test_always_legal_with_other_tables_and_ladders(text: str, tmp_path: Path) -> None:
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    rules = compile_rules(fivehundred.load_ruleset(path))
    for seed in range(6):
        play_game(rules, seed, "h" * rules.players)
        play_game(rules, 50 + seed, "hr" * rules.players)


def test_always_legal_over_many_games() -> None:
    for seed in range(40):
        st = play_game(RULES, seed, "hhhh")
        assert st.result is not None


def test_beats_random_players() -> None:
    games = 100
    wins = 0
    for seed in range(games):
        for kinds, team in (("hrhr", 0), ("rhrh", 1)):
            result = play_game(RULES, seed, kinds).result
            assert result is not None
            wins += result.winner == team
    assert wins / (2 * games) > 0.85


def test_contracts_are_made_more_often_than_not_in_self_play() -> None:
    made = played = 0
    for seed in range(40):
        st = play_game(RULES, 1000 + seed, "hhhh")
        for log in st.hands_log:
            if log.contract is None:
                continue
            played += 1
            made += log.scores[RULES.team_of[log.contractor]] > 0
    assert played > 100
    assert made / played > 0.5


def test_same_seed_same_game() -> None:
    a = play_game(RULES, 7, "hhhh")
    b = play_game(RULES, 7, "hhhh")
    assert [(h.calls, h.discards, [t.cards for t in h.tricks]) for h in a.hands_log] == \
        [(h.calls, h.discards, [t.cards for t in h.tricks]) for h in b.hands_log]


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    """Shuffling the other hands (same public history) never changes a decision."""
    for seed in range(25):
        rng = random.Random(seed)
        deck = list(RULES.deck)
        rng.shuffle(deck)
        hands = [sorted(deck[i * 10:(i + 1) * 10]) for i in range(4)]
        kitty = deck[40:]
        others = hands[1] + hands[2] + hands[3]
        rng.shuffle(others)
        swapped = [hands[0], sorted(others[:10]), sorted(others[10:20]), sorted(others[20:])]
        choices = []
        for dealt in (hands, swapped):
            st = GameState(RULES, first_dealer=W)
            st.deal_cards(dealt, kitty)
            opening = decide(st)
            # let N be the contractor in its best denomination, then take its discards and lead
            bid = opening if opening != PASS_ACTION else CALL + 0
            st.apply(bid)
            for _ in range(3):
                st.apply(PASS_ACTION)
            seen = [opening]
            while st.current_player() == N:
                action = decide(st)
                seen.append(action)
                st.apply(action)
            choices.append(seen)
        assert choices[0] == choices[1]


# --- the auction --------------------------------------------------------------------------------


def test_bids_hearts_with_a_very_strong_heart_hand() -> None:
    st = deal({N: "JK JH JD AH KH QH 10H 9H AS AC", E: "5S 6S 7S 5C 6C 7C 4D 5D 6D 7D",
               S: "8S 9S 10S 8C 9C 10C 8D 9D 10D QD"}, "4H 5H 6H")
    action = decide(st)
    assert action != PASS_ACTION
    contract = RULES.ladder[action - CALL]
    assert contract.kind == "trumps" and contract.trump == HEARTS
    assert contract.call == "6H"  # the cheapest legal rung of its denomination


def test_raises_in_its_suit_over_an_opponent_while_within_its_estimate() -> None:
    st = deal({N: "JK JH JD AH KH QH 10H 9H AS AC", E: "5S 6S 7S 5C 6C 7C 4D 5D 6D 7D",
               S: "8S 9S 10S 8C 9C 10C 8D 9D 10D QD"}, "4H 5H 6H", first_dealer=N)
    script(st, "7NT pass pass")  # E opens 7NT over which N must go to 8 hearts
    assert call_of(decide(st)) == "8H"


def test_passes_with_a_weak_hand() -> None:
    st = deal({N: "5S 7S 9S 6C 8C 10C 5D 7D 9D 6H", E: "AS KS QS AC KC QC AD KD QD JK",
               S: "6S 8S 10S 5C 7C 9C 4D 6D 8D 10D"}, "4H 5H 7H")
    assert decide(st) == PASS_ACTION


def test_does_not_outbid_a_partner_without_reason() -> None:
    st = deal({N: "JS JC AS KS QS 10S 9S AH 4D 5D", E: "5S 6C 7C 10C 9C 6D 7D 10D 4H 5H",
               S: "8S 7S 6S AC KC 8C AD 9D 8D 6H"}, "7H 8H 9H")
    script(st, "6S pass")  # N opens 6S, E passes: S, with support, lets partner's bid stand
    assert decide(st) == PASS_ACTION


def test_bids_misere_only_with_a_low_hand() -> None:
    low = deal({N: "AS KS QS AC KC QC AD KD QD AH", E: "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H",
                S: "8S 8C 8D 7D 6D QH JH 10H 9H 8H"}, "7H 6H JK")
    script(low, "7S")  # misère may be called over a 7 bid
    action = decide(low)
    assert action != PASS_ACTION and RULES.ladder[action - CALL].call == "open-misere"  # nothing can go wrong

    fair = deal({N: "AS KS QS AC KC QC AD KD QD AH", E: "5S 7S 10S 5C 6C 7C 4D 5D 4H 5H",
                 S: "8S 8C 8D 7D 6D QH JH 10H 9H 8H"}, "7H 6H JK")
    script(fair, "7S")
    action = decide(fair)
    assert action != PASS_ACTION and RULES.ladder[action - CALL].call == "misere"  # the 10 needs a discard

    high = deal({N: "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H", E: "AS KS 9S AC 10C QC 8D KD QD AH",
                 S: "8S 8C 9C 7D 6D QH JH 10H 9H 8H"}, "7H 6H JK")
    script(high, "7S")
    action = decide(high)
    assert action == PASS_ACTION or RULES.ladder[action - CALL].kind != "misere"


# --- kitty exchange and nomination --------------------------------------------------------------


def test_contractor_keeps_trumps_and_aces_and_voids_a_short_suit() -> None:
    st = deal({N: "JK JS JC AS KS QS 10S AH 7D 5C", E: "5S 6C 7C 8C 9C 6D 8D 4H 5H 6H",
               S: "9S 8S 7S AC KC QC AD KD QD 7H"}, "4D 5D 8H")
    script(st, "7S pass pass pass")
    while st.phase == Phase.DISCARD:
        st.apply(decide(st))
    discards = st.hands_log[-1].discards
    contract = st.hands_log[-1].contract
    assert contract is not None
    table = RULES.play_table(contract)
    assert all(table.suit_of[c] != SPADES for c in discards)  # no trump, no bower, not the joker
    assert parse_cards("AH")[0] not in discards
    assert parse_cards("5C")[0] in discards  # the singleton club: void, to ruff clubs


def test_misere_contractor_throws_the_joker_first() -> None:
    st = deal({N: "AS KS QS AC KC QC AD KD QD AH", E: "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H",
               S: "8S 8C 8D 7D 6D QH JH 10H 9H 8H"}, "7H 6H JK")
    script(st, "7S misere pass pass pass")
    assert st.phase == Phase.DISCARD and st.current_player() == E
    assert decide(st) == DISCARD + parse_cards("JK")[0]


def test_no_trump_contractor_keeps_the_joker_free() -> None:
    st = deal({N: "JK AS KS QS AC KC AD KD AH 5H", E: "5S 6S 7S 5C 6C 7C 4D 5D 4H 6H",
               S: "8S 9S 8C 9C 8D 9D 7H 8H 9H 10H"}, "10S 10C 10D")
    script(st, "6NT pass pass pass 10S 10C 10D")
    assert st.phase == Phase.NOMINATE
    assert decide(st) == NO_NOMINATION


# --- the play -----------------------------------------------------------------------------------


def test_contractor_draws_trumps_when_holding_most_of_them() -> None:
    st = deal({N: "JK JS JC AS KS QS 10S AH 7D 5C", E: "5S 6C 7C 8C 9C 6D 8D 4H 5H 6H",
               S: "9S 8S 7S AC KC QC AD KD QD 7H"}, "4D 5D 8H")
    script(st, "7S pass pass pass 4D 5D 8H")
    lead = decide(st)
    assert card_str(lead) == "JK"  # the top trump, to draw the others'


def test_does_not_overtake_a_partner_who_is_winning() -> None:
    st = deal({N: "JS JC AS KS QS 10S AH 7D 8D 9D", E: "4H 5H 7H AD KD QD AC KC QC 5S",
               S: "KH 6H 8H JD 10D 6D 9C 8C 6S 7S"}, "5C 6C 4D")
    script(st, "6S pass pass pass 5C 6C 4D AH 4H")  # N leads the ace of hearts, E follows low
    assert card_str(decide(st)) == "6H"  # S keeps the king


def test_wins_as_cheaply_as_possible_in_last_seat() -> None:
    st = deal({N: "JS JC AS KS QS 10S 9H 7D 8D 9D", E: "KH 5H 7H AD KD QD AC KC QC 5S",
               S: "JH 6H 8H JD 10D 6D 9C 8C 6S 7S"}, "5C 6C 4D")
    script(st, "6S pass pass pass 5C 6C 4D 9H 5H JH")  # S's jack wins so far; W plays last
    legal = {card_str(c) for c in st.legal_actions()}
    assert {"AH", "QH"} <= legal  # W holds both: the queen is enough
    assert card_str(decide(st)) == "QH"


def test_second_hand_plays_low() -> None:
    st = deal({N: "JS JC AS KS QS 10S 9H 7D 8D 9D", E: "KH 5H 7H AD KD QD AC KC QC 5S",
               S: "AH 6H 8H JD 10D 6D 9C 8C 6S 7S"}, "5C 6C 4D")
    script(st, "6S pass pass pass 5C 6C 4D 9H")  # E holds K 7 5 of hearts; the ace is unseen
    assert card_str(decide(st)) == "5H"


def test_misere_contractor_ducks_with_its_highest_losing_card() -> None:
    st = deal({N: "AS KS QS AC KC QC AD KD QD AH", E: "5S 6S 9S 5C 6C 7C 4D 5D 4H 5H",
               S: "8S 8C 8D 7D 6D QH JH 10H 9H 8H"}, "7H 6H JK")
    script(st, "7S misere pass pass pass JK 7H 6H")
    script(st, "4H 8H AH QS")  # W sits out; N wins the first trick and leads the queen of spades
    assert st.current_player() == E
    assert card_str(decide(st)) == "9S"


# --- what the player remembers gives what it would work out afresh ------------------------------


def _plain_throw(hand: Sequence[int], d: _Denomination) -> int:
    """``_misere_throw`` counted card by card, with nothing remembered."""
    groups = _misere_suits(hand, d)

    def danger(cards: list[int], suit: int) -> float:
        if suit == NO_SUIT:
            return 3.0 * len(cards)
        return sum(_danger(suit, d.size[suit] - 1 - d.rank[c] - below, below) for below, c in enumerate(cards))

    best, best_key = hand[0], (-1.0, 0)
    for s, g in enumerate(groups):
        for c in g:
            key = (round(danger(g, s) - danger([x for x in g if x != c], s), 6), -d.rank[c])
            if key > best_key:
                best, best_key = c, key
    return best


@pytest.mark.parametrize("name", ["pagat-australian", "three-handed", "six-handed"])
def test_remembered_misere_throws_are_the_counted_ones(name: str) -> None:
    rules = compile_rules(fivehundred.load_ruleset(name))
    info = _info(rules)
    d = info.misere
    assert d is not None
    rng = random.Random(11)
    for _ in range(300):
        hand = rng.sample(sorted(rules.deck), rules.hand_size + rules.kitty_size)
        rest = list(hand)
        for _ in range(rules.kitty_size):  # the greedy discards, each against a fresh count
            card = _misere_throw(rest, d)
            assert card == _plain_throw(rest, d), (name, [card_str(c) for c in rest])
            rest.remove(card)


def test_the_play_tracks_the_unseen_cards_and_the_top_of_each_suit() -> None:
    """At every play decision of seeded games: ``out`` is the deck less the seat's hand and discards and
    every card played, by table suit; ``top`` is the power of each suit's best unseen card."""
    checked = 0
    for seed in range(6):
        st, rng = new_game(RULES, seed)
        bots = players("hhhh", seed)
        while not st.is_terminal() and len(st.hands_log) <= 2:
            seat = st.current_player()
            if seat == CHANCE:
                st.deal(rng)
                continue
            legal = st.legal_actions()
            if st.phase == Phase.PLAY:
                obs = st.observation(seat)
                bot = bots[seat]
                assert isinstance(bot, HeuristicPlayer)
                p = bot._situation(seat, obs, _info(RULES))
                seen = set(obs.hand) | set(obs.discards) | set(st.played)
                table = p.table
                for s in range(5):
                    assert sorted(p.out[s]) == sorted(c for c in RULES.deck if c not in seen and table.suit_of[c] == s)
                for s in range(4):
                    assert p.top[s] == max((table.power[s][c] for c in p.out[s]), default=-1)
                checked += 1
            st.apply(bots[seat].act(st, legal))
    assert checked > 100
