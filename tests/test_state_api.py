"""GameState's public read API (for plugins and bots) against the engine's own attributes, at every
step of seeded games of every shipped ruleset; and the determinisation API for sampling bots."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from helpers import (
    MISERE,
    MISERE_AUCTION,
    MISERE_CLEAN_PLAY,
    MISERE_W_JOKER,
    RULESET,
    SPLIT,
    E,
    N,
    S,
    W,
    act,
    cards,
    log,
    new_hand,
    trick,
)

import fivehundred
from fivehundred.bots.players import RandomPlayer
from fivehundred.bots.unseen import knowledge
from fivehundred.engine.reading import next_seats
from fivehundred.engine.state import CHANCE, GameState, Phase, new_game
from fivehundred.plugins.partner import called_card
from fivehundred.records.validation import validate_record
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.errors import IllegalActionError
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import Rules, compile_rules

RULESETS = sorted(ruleset_paths())


def steps(name: str, games: int = 2, deals: int = 3) -> Iterator[GameState]:
    """The state before every action of a few seeded games with random players."""
    rules = compile_rules(fivehundred.load_ruleset(name))
    for g in range(games):
        state, deal_rng = new_game(rules, f"api:{g}")
        assert state.hand(0) == () and state.contract is None and state.contractor == -1
        assert state.tricks_won_by_seat == (0,) * rules.players and state.play_table is None
        bots = [RandomPlayer(s, random.Random(g * 10 + s)) for s in range(rules.players)]
        while not state.is_terminal() and state.deals <= deals:
            seat = state.current_player()
            if seat == CHANCE:
                if state.deals == deals:
                    break
                state.deal(deal_rng)
                continue
            yield state
            state.apply(bots[rules.controller[seat]].act(state, state.legal_actions()))
        yield state


@pytest.mark.parametrize("name", RULESETS)
def test_the_read_api_says_what_the_engine_holds(name: str) -> None:
    checked = 0
    for state in steps(name):
        rules, players = state.rules, state.rules.players
        if state.phase == Phase.DEAL:
            assert state.hand(0) == () and state.contract is None and state.contracting_side == frozenset()
            continue
        log = state.hands_log[-1]
        obs = state.observation(0)
        assert all(state.hand(s) == tuple(state._held[s]) for s in range(players))
        assert state.contract is log.contract and state.contractor == log.contractor
        assert log.contractor < 0 or log.contractor in state.contracting_side
        assert state.tricks_won_by_seat == obs.tricks_won
        by_team = [0] * len(rules.team_names)
        for s, won in enumerate(obs.tricks_won):
            by_team[rules.team_of[s]] += won
        assert state.tricks_won_by_team == tuple(by_team)
        assert state.trick_view() == (state.trick, state.led_suit, state.trick_leader, state.tricks_won_by_seat)
        for s in range(players):  # the shortcut when nothing lies on the table, against the seats shown
            hand, discards, shown = state.cards_seen(s)
            assert shown == tuple((p, tuple(state._held[p])) for p in state._public_seats() if p != s)
            assert discards == state._discards_made_by(s) and hand in ((), state.hand(s))
        if state.phase not in (Phase.PLAY, Phase.GAME_OVER):
            assert state.trick == () and state.led_suit is None and state.trick_leader == -1
            assert state.play_order == rules.next_seat and state.play_table is None
            continue
        assert state.play_table is not None and state.play_order == next_seats(players, state.sitting_out)
        assert sorted(state.sitting_out) == list(obs.sitting)
        assert state.played == tuple(c for t in log.tricks for c in t.cards) + state.trick
        for dummy in rules.dummies:
            assert state.covering(dummy) == tuple(sorted(state._covered[dummy]))
        if state.phase == Phase.GAME_OVER:
            continue
        assert state.trick == obs.current_trick and state.led_suit == obs.led and state.trick_leader == obs.leader
        table = state.play_table
        assert table is not None
        k = knowledge(state, state.current_player())
        for s in range(players):
            voids = state.voids(s)
            assert sum(1 << v for v in voids) == (0 if s in rules.dummies else k.void[s])
            assert not any(table.suit_of[card] in voids for card in state.hand(s))  # shown void: holds none
        checked += 1
    assert checked > 0


def test_voids_are_shown_by_not_following() -> None:
    shown = set()
    for state in steps("pagat-australian", games=3):
        if state.phase == Phase.PLAY:
            shown.update((s, suit) for s in range(4) for suit in state.voids(s))
    assert len(shown) > 3


@pytest.mark.parametrize("name", ["pagat-australian", "two-handed", "five-handed"])
def test_redistribute_keeps_the_engine_consistent(name: str) -> None:
    """Swap the hidden hands of a clone mid-play: the engine's split by suit follows, the legal plays
    are the new hand's, the game plays on and its record still validates under the new deal."""
    done = 0
    for state in steps(name, games=3):
        if state.phase != Phase.PLAY or state.trick or len(state.hands_log[-1].tricks) != 2:
            continue
        world = state.clone()
        acting = world.current_player()
        others = [s for s in range(world.rules.players) if s != acting and world.hand(s)
                  and len(world.hand(s)) == len(world.hand(acting)) and s not in world.rules.dummies]
        if not others:
            continue
        other = others[0]
        mine, theirs = world.hand(acting), world.hand(other)
        world.redistribute({acting: theirs, other: mine})
        assert world.hand(acting) == theirs and world.hand(other) == mine
        suit_of = world.play_table.suit_of
        for s in (acting, other):
            assert world._buckets[s] == [[c for c in world._held[s] if suit_of[c] == b] for b in range(5)]
        legal = world.legal_actions()
        assert all(a in theirs for a in legal if a < JOKER_BASE)
        for dummy in world.rules.dummies:
            ups = world.covering(dummy)
            with pytest.raises(ValueError):
                world.redistribute(covered={dummy: dict.fromkeys((*ups, -1), 0)})
        done += 1
    assert done > 0


def test_a_step_or_a_sampling_bot_may_set_the_contracting_side() -> None:
    for state in steps("five-handed", games=4):
        log = state.hands_log[-1] if state.hands_log else None
        if state.phase != Phase.PLAY or log is None or (called_card(log) or -1) < 0:
            continue
        world = state.clone()
        someone = next(s for s in range(world.rules.players) if s != world.contractor)
        world.set_contracting_side(frozenset({world.contractor, someone}))
        assert world.contracting_side == {world.contractor, someone}
        world.set_contracting_side(frozenset({world.contractor}))
        assert world.contracting_side == {world.contractor}
        assert state.contracting_side != world.contracting_side or len(state.contracting_side) == 1
        return
    pytest.fail("no called partner in these games")


def test_a_record_still_validates_after_reading() -> None:
    """Reading never changes a game: the record of a game read at every step validates."""
    from fivehundred.records.record import game_to_dict

    last = None
    for state in steps("canadian", games=1):
        _ = state.voids(0), state.played, state.trick, state.hand(1), state.tricks_won_by_team
        last = state
    assert last is not None and validate_record(game_to_dict(last)) == []


# --- found by the mutation run: the state machine played through the public API ---------------------


def reference(**sections: dict[str, Any]) -> Rules:
    """The reference ruleset with these fields changed, section by section."""
    update = {name: getattr(RULESET, name).model_copy(update=fields) for name, fields in sections.items()}
    return compile_rules(RULESET.model_copy(update=update))


E6 = reference(game={"win": "any", "mid_hand": True})
"""The reference with E1 (any 500 wins) and E6, the 1904 mid-hand end."""


# --- E6: the mid-hand end (plugins/midhand.py) ----------------------------------------------------


def north_7nt_then_west_leads_hearts(st: GameState, hearts: int, auction: str = "7NT pass pass pass") -> None:
    """N bids 7NT, discards the kitty and leads the 4♥: W wins it, then leads ``hearts`` hearts and wins
    them (nobody else holds one), while the hand lasts."""
    act(st, auction + " 5H 4D JK")
    trick(st, "4H")
    for lead in ("AH", "KH", "QH", "JH", "10H")[:hearts]:
        if st.phase != Phase.PLAY:
            return
        trick(st, lead)


def test_E6_the_bidder_reaching_exactly_the_target_can_still_win():
    """EW reach 500 at W's first trick.  N, at 280, can still make 7NT: its 220 (nine tricks at most, no
    slam) takes NS to exactly 500, so the hand goes on until N can no longer take seven; at 270 N
    could reach only 490, and the hand ends at once."""
    st = new_hand(SPLIT, rules=E6, totals=[280, 490])
    north_7nt_then_west_leads_hearts(st, 4)
    assert log(st).tricks_won == [0, 0, 0, 4] and log(st).totals == [60, 530]
    st = new_hand(SPLIT, rules=E6, totals=[270, 490])
    north_7nt_then_west_leads_hearts(st, 4)
    assert log(st).tricks_won == [0, 0, 0, 1] and log(st).totals == [50, 500]
    assert st.is_terminal() and st.result is not None and st.result.winner == 1


def test_E6_ends_a_hand_of_the_second_deal_too():
    """The first deal is passed out and the next dealer deals (rule 13): the mid-hand end judges the hand
    in play."""
    st = new_hand(SPLIT, rules=E6, totals=[270, 490])
    act(st, "pass pass pass pass")
    assert st.phase == Phase.DEAL and len(st.hands_log) == 1
    st.deal_cards([cards(h) for h in SPLIT[:4]], cards(SPLIT[4]))
    north_7nt_then_west_leads_hearts(st, 4, auction="pass pass pass 7NT")
    assert len(st.hands_log) == 2 and log(st).tricks_won == [0, 0, 0, 1] and log(st).totals == [50, 500]


def test_E6_never_cuts_a_misere_short():
    """Defenders score nothing in misère (rule 27), so E6 does not end one: E takes all ten tricks with
    EW at 490 and the hand is played out, N scoring its misère."""
    st = new_hand(MISERE, rules=E6, totals=[0, 490])
    act(st, MISERE_AUCTION + " 7H 6H JK")
    act(st, MISERE_CLEAN_PLAY)
    assert log(st).tricks_won == [0, 10, 0, 0] and log(st).totals == [250, 490]
    assert st.phase == Phase.DEAL


# --- the exchange: who sits out, who discards (core/engine/exchange.py) ---------------------------


def test_rule_15_nobody_sits_out_a_contract_the_partner_plays_nor_a_lone_players_misere():
    """The observation names no seat sitting out (-1) unless a partner lays its hand aside: in 7NT,
    and in a three-handed misère, where the contractor has no partner; in a four-handed misère, S does."""
    st = new_hand(SPLIT)
    act(st, "7NT pass pass pass 5H 4D JK")
    assert st.phase == Phase.PLAY
    assert all(st.observation(s).sitting_out == -1 and st.observation(s).sitting == () for s in range(4))
    st = new_hand(MISERE)
    act(st, MISERE_AUCTION + " 7H 6H JK")
    assert st.phase == Phase.PLAY and st.observation(E).sitting_out == 2 and st.observation(E).sitting == (2,)
    three = GameState(compile_rules(fivehundred.load_ruleset("three-handed")), first_dealer=0)
    three.deal(random.Random(5))
    act(three, "misere pass pass")
    while three.phase != Phase.PLAY:  # the kitty's three discards, a nomination if the joker came
        three.apply(three.legal_actions()[0])
    assert three.contractor == 1 and three.contract is not None and three.contract.kind == "misere"
    assert all(three.observation(s).sitting_out == -1 and three.observation(s).sitting == () for s in range(3))


def no_kitty_declare(tmp_path: Any) -> Rules:
    """The reference with a no-kitty 7NT (B9, worth 600) and declarations (C7)."""
    path = tmp_path / "no-kitty-declare.yaml"
    path.write_text(yaml.safe_dump({
        "name": "no-kitty-declare", "extends": "pagat-australian",
        "auction": {"ladder": [*RULESET.model_dump()["auction"]["ladder"], {"call": "7NT-no-kitty", "value": 600}]},
        "contracts": {"7NT-no-kitty": {"kind": "no-trumps", "goal": "at-least", "tricks": 7, "partner_plays": True,
                                       "kitty": False}},
        "declarations": {"declare": True}}), encoding="utf-8")
    return compile_rules(fivehundred.load_ruleset(path))


def test_B9_C7_a_card_given_to_a_contractor_who_took_no_kitty_is_discarded(tmp_path):
    """A no-kitty contract declared (C7): the partner gives the contractor a card, which the contractor
    then discards, one card only, before playing alone with ten; in the first deal or a later one."""
    rules = no_kitty_declare(tmp_path)
    first = new_hand(SPLIT, rules=rules)
    later = new_hand(SPLIT, rules=rules)
    act(later, "pass pass pass pass")  # passed out: the next dealer deals, and E calls first
    later.deal_cards([cards(h) for h in SPLIT[:4]], cards(SPLIT[4]))
    for st, auction in ((first, "7NT-no-kitty pass pass pass"), (later, "pass pass pass 7NT-no-kitty")):
        act(st, auction)
        st.apply(st.parse_action("declare"))
        st.apply(st.parse_action("give 5D"))
        assert st.phase == Phase.DISCARD and st.current_player() == N and len(st.hand(N)) == 11
        assert len(st.legal_actions()) == 11
        act(st, "5D")
        assert st.phase == Phase.PLAY and len(st.hand(N)) == 10 and log(st).discards == cards("5D")


def test_rule_15_the_play_skips_every_partner_laid_aside_however_the_teams_sit(tmp_path):
    """Three partners sitting N, E and S against W alone: N's misère leaves two hands in a row aside,
    and each trick is N's card and W's, whoever leads."""
    path = tmp_path / "three-against-one.yaml"
    path.write_text(yaml.safe_dump({
        "name": "three-against-one", "extends": "pagat-australian",
        "players": {"seats": ["N", "E", "S", "W"],
                    "teams": [{"name": "NES", "seats": ["N", "E", "S"]}, {"name": "W", "seats": ["W"]}]}}),
        encoding="utf-8")
    st = new_hand(MISERE, rules=compile_rules(fivehundred.load_ruleset(path)))
    act(st, MISERE_AUCTION + " 7H 6H JK")
    assert st.phase == Phase.PLAY and st.observation(W).sitting == (1, 2)
    assert st.play_order[N] == W and st.play_order[W] == N
    while st.phase == Phase.PLAY:
        st.apply(st.legal_actions()[0])
    assert [(t.leader, len(t.cards)) for t in log(st).tricks] == [(N, 2)] + [(W, 2)] * 9
    assert log(st).tricks_won == [0, 0, 0, 10] and log(st).scores == [250, 0]


def test_C1_the_partners_discards_are_seen_by_the_partner_alone():
    """Double misère (C1): N passes three cards to S, who discards three; S's observation shows them as
    its discards, N's shows none (rule 14: discards are face down, seen by whoever made them)."""
    st = GameState(compile_rules(fivehundred.load_ruleset("perfect")), first_dealer=W)
    st.deal_cards([cards(h) for h in MISERE[:4]], cards(MISERE[4]))
    for _ in range(4):
        st.apply(st.parse_action("look"))
    act(st, "double-misere pass pass pass 7H 6H JK")
    act(st, "JK 7H 6H")
    assert st.phase == Phase.PLAY
    assert st.observation(S).discards == tuple(cards("JK 7H 6H")) and st.observation(N).discards == ()


def test_rule_14_the_discards_shown_are_this_hands():
    """Passed out, then N's 7NT in the next deal: N sees the three cards it discarded this hand."""
    st = new_hand(SPLIT)
    act(st, "pass pass pass pass")
    st.deal_cards([cards(h) for h in SPLIT[:4]], cards(SPLIT[4]))
    act(st, "pass pass pass 7NT 5H 4D JK")
    assert st.observation(N).discards == tuple(cards("5H 4D JK")) and st.observation(E).discards == ()


def test_B10_a_deal_played_at_no_trumps_without_a_contractor_has_no_nomination():
    """Everybody passed (B10 'no-trumps'): nobody holds the kitty nor nominates, even where W holds the
    joker; the dealer's left leads."""
    st = new_hand(MISERE_W_JOKER, rules=reference(deal={"all_pass": "no-trumps"}))
    act(st, "pass pass pass pass")
    assert st.phase == Phase.PLAY and st.contractor == -1 and st.current_player() == N
    assert st.hands_log[-1].nomination is None and st.trick_leader == N


def test_rule_17_the_contractor_leads_from_any_seat():
    """S deals, W calls first and N wins the auction: N leads (not the dealer's left, W)."""
    st = new_hand(SPLIT, dealer=S)
    act(st, "pass 7NT pass pass 5H 4D JK")
    assert st.phase == Phase.PLAY and st.current_player() == N and st.trick_leader == N


# --- the hand's end and the next deal (core/engine/state.py) ---------------------------------------


def test_the_hand_outcome_counts_each_teams_tricks():
    """N's 7NT: N takes four spades, then W every trick left (at no-trumps nobody else holds a heart)."""
    st = new_hand(SPLIT)
    act(st, "7NT pass pass pass 5H 4D JK")
    for lead in ("AS", "KS", "QS", "JS", "4H", "AH", "KH", "QH", "JH", "10H"):
        trick(st, lead)
    outcome = log(st).outcome
    assert outcome is not None and outcome.tricks_by_seat == (4, 0, 0, 6) and outcome.tricks_by_team == (4, 6)
    assert outcome.tricks_played == 10 and not outcome.made and log(st).scores == [-220, 60]


def test_B10_the_deck_to_redeal_only_after_a_deal_passed_out_with_the_same_cards():
    """``deck_to_redeal``: None between hands that are shuffled (the reference, rule 13's redeal), the deck
    just dealt, unshuffled, after a deal everybody passed under B10 'same-cards'; None once dealt."""
    for rules, same in ((reference(), False), (reference(deal={"all_pass": "same-cards"}), True)):
        st = GameState(rules, first_dealer=W)
        assert st.deck_to_redeal is None
        st.deal(random.Random(7))
        dealt = st.hands_log[-1].hands
        assert st.deck_to_redeal is None  # the auction is on
        act(st, "pass pass pass pass")
        assert st.phase == Phase.DEAL
        if not same:
            assert st.deck_to_redeal is None
            continue
        deck = st.deck_to_redeal
        assert deck is not None and sorted(deck) == sorted(rules.deck)
        st.deal(random.Random(8))  # the generator is not drawn: the same cards, the next dealer's
        assert st.deck_to_redeal is None and st.hands_log[-1].dealer == N
        assert st.hands_log[-1].hands == dealt[-1:] + dealt[:-1]  # each packet to the next seat on


def test_deal_deck_between_hands_only_and_the_deck_to_redeal_unchanged():
    """``deal_deck``: a whole deck in a caller's order, only between hands; after a deal passed out under
    B10 'same-cards', only the deck to redeal, in its order."""
    rules = reference(deal={"all_pass": "same-cards"})
    st = GameState(rules, first_dealer=W)
    st.deal_deck(list(reversed(rules.deck)))
    with pytest.raises(IllegalActionError, match="only between hands"):
        st.deal_deck(list(rules.deck))
    act(st, "pass pass pass pass")
    with pytest.raises(IllegalActionError, match="not exactly the ruleset's deck"):
        st.deal_deck([*rules.deck[1:], rules.deck[1]])
    deck = st.deck_to_redeal
    assert deck is not None
    with pytest.raises(IllegalActionError, match="dealt again unshuffled"):
        st.deal_deck(list(rules.deck))
    st.deal_deck(list(deck))
    assert st.phase == Phase.AUCTION and st.hands_log[-1].dealer == N


def test_B10_a_deal_played_with_nobodys_bid_has_no_contractor_team():
    """B10 'no-trumps': the hand everybody passed is scored with no contracting team (-1), each side
    scoring its tricks."""
    st = new_hand(SPLIT, rules=reference(deal={"all_pass": "no-trumps"}))
    act(st, "pass pass pass pass")
    while st.phase == Phase.PLAY:
        st.apply(st.legal_actions()[0])
    outcome = log(st).outcome
    assert outcome is not None and outcome.contractor == -1 and outcome.contractor_team == -1
    assert outcome.side == () and not outcome.made
    assert log(st).scores == [10 * outcome.tricks_by_team[0], 10 * outcome.tricks_by_team[1]]


def test_no_leader_and_nobody_sitting_out_while_the_auction_lasts():
    st = new_hand(SPLIT)
    obs = st.observation(E)
    assert obs.phase == Phase.AUCTION and obs.leader == -1 and obs.sitting_out == -1 and obs.sitting == ()


class Scripted:
    """A player of ``play_out``: its script's actions in turn (as text), then the first legal action."""

    def __init__(self, script: str = ""):
        self.script = script.split()
        self.shown: list[tuple[int, int]] = []
        """(trick number, how many other hands it saw exposed) at each of its plays, as a defender."""

    def act(self, state: GameState, legal: list[int]) -> int:
        if state.phase == Phase.PLAY and state.current_player() != state.contractor:
            self.shown.append((len(state.hand_log.tricks), len(state.observation(state.current_player()).open_hands)))
        if self.script:
            return state.parse_action(self.script.pop(0).replace("_", " "))
        return legal[0]


def test_E6_ends_the_hand_in_the_simulators_play_loop_too():
    """The E6 deal at 270 to 490 played by ``play_out`` (the simulator's loops, not ``apply``): W's first
    trick takes EW to 500 and N can no longer win, so the hand and the game end there."""
    st = new_hand(SPLIT, rules=E6, totals=[270, 490])
    players = [Scripted("7NT discard_5H discard_4D discard_JK 4H"), Scripted("pass"), Scripted("pass"),
               Scripted("pass")]
    st.play_out(players, random.Random(0), max_deals=1)
    assert log(st).tricks_won == [0, 0, 0, 1] and st.is_terminal() and st.totals == [50, 500]


def test_rule_18_the_open_misere_is_shown_after_the_first_trick_in_any_deal():
    """N's open misère, in the first deal and after a deal passed out: once trick 1 is complete every seat
    sees N's hand (rule 18), not before."""
    first = new_hand(MISERE)
    later = new_hand(MISERE)
    act(later, "pass pass pass pass")
    later.deal_cards([cards(h) for h in MISERE[:4]], cards(MISERE[4]))
    for st, auction in ((first, "open-misere pass pass pass"), (later, "pass pass pass open-misere")):
        act(st, auction + " 7H 6H JK 5S AS")
        assert st.observation(E).open_hand is None
        act(st, "9S")
        assert st.observation(E).open_hand == st.hand(N) and st.observation(W).open_hands == ((N, st.hand(N)),)


def test_rule_19_the_nomination_offers_the_four_suits_or_none():
    st = new_hand(SPLIT)
    act(st, "7NT pass pass pass 5H 4D 6S")
    assert st.phase == Phase.NOMINATE and st.current_player() == N
    assert [st.action_to_str(a) for a in st.legal_actions()] == [
        "nominate S", "nominate C", "nominate D", "nominate H", "nominate none"]


def test_B10_redeals_count_from_each_new_dealer():
    """One redeal allowed: W deals twice, then N twice, then E: the count starts again with each dealer."""
    st = GameState(reference(deal={"redeals": 1}), first_dealer=W)
    dealers = []
    for seed in range(5):
        st.deal(random.Random(seed))
        dealers.append(st.dealer)
        act(st, "pass pass pass pass")
    assert dealers == [W, W, N, N, E]


def test_a_deal_is_a_step_the_legal_actions_follow():
    """Legal actions asked between hands (none) and again once dealt: the first caller's calls."""
    st = GameState(reference(), first_dealer=W)
    assert st.legal_actions() == []
    st.deal(random.Random(1))
    assert st.current_player() == N and st.legal_actions() and st.action_to_str(st.legal_actions()[0]) == "pass"


def test_rule_27_a_misere_ends_at_the_first_trick_lost_in_the_simulators_play_loop_too():
    """N's misère on SPLIT, played by ``play_out``: N leads the A♠ and nobody else holds a spade (S sits
    out), so N wins the first trick and the misère is lost there."""
    st = new_hand(SPLIT)
    players = [Scripted("6S misere discard_JK discard_5H discard_4D AS"), Scripted("7S pass"), Scripted("pass"),
               Scripted("pass")]
    st.play_out(players, random.Random(0), max_deals=1)
    assert len(st.hands_log[0].tricks) == 1 and st.hands_log[0].scores == [-250, 0]


def test_rule_18_the_open_misere_is_shown_in_the_simulators_play_loop_too():
    """N's open misère played by ``play_out``: from the second trick on, every player sees N's hand."""
    st = new_hand(MISERE)
    players = [Scripted("open-misere discard_7H discard_6H discard_JK 5S"), Scripted("pass"), Scripted("pass"),
               Scripted("pass")]
    st.play_out(players, random.Random(0), max_deals=1)
    shown = [seen for p in players for seen in p.shown]
    assert len(st.hands_log[0].tricks) > 1 and shown
    assert all(n == (1 if trick >= 1 else 0) for trick, n in shown if trick < len(st.hands_log[0].tricks))


def test_a_clone_copies_every_field_of_the_state() -> None:
    """``clone`` shares every field of the state through ``Play._copy_fields``, which names them one by one
    (compiled, the state's private fields are C fields that only code typed with its class reaches): a slot added
    to ``Exchange`` or ``Play`` must be copied there too."""
    from pathlib import Path

    from fivehundred.engine.state import _SLOTS

    source = (Path(__file__).resolve().parents[1] / "core" / "engine" / "play.py").read_text("utf-8")
    assert [name for name in _SLOTS if f"self.{name} = src.{name}\n" not in source] == []


def test_rule_18_an_open_misere_with_dummies_on_the_table_is_shown_only_after_trick_1(tmp_path):
    """Rule 18 with P2's dummies (a two-handed game with the reference's misères): the dummies' face-up cards
    are on the table from the deal, but the open misère contractor's hand is shown only once trick 1 is over."""
    from test_variants_exchange import TWO_HANDED, dealt, variant

    rules = variant(tmp_path, "two-handed-misere", players={
        "seats": ["N", "E", "S", "W"], "dummies": {"S": "N", "W": "E"},
        "teams": [{"name": "NS", "seats": ["N", "S"]}, {"name": "EW", "seats": ["E", "W"]}]})
    st = dealt(rules, TWO_HANDED, dealer=W)
    act(st, "open-misere pass AD KD JK")  # S, N's dummy, is laid aside (rule 15); W's cards lie face up
    assert st.current_player() == N and dict(st.observation(E).open_hands)[W]
    act(st, "4H 5C")
    assert st.observation(E).open_hand is None and N not in dict(st.observation(E).open_hands)
    act(st, "9H")  # W's face-up 9♥ wins trick 1
    assert log(st).tricks[0].winner == W and st.observation(E).open_hand == st.hand(N)
