"""Auction variants of VARIANTS.md (B1–B8, B10, B11, R1): each played on a concrete deal under the
reference ruleset and under the variant, asserting both sides of the difference.

Variant rulesets are small YAML files that extend ``pagat-australian`` (B1 and B11 remove contracts,
which a child cannot do to its parent's ``contracts`` mapping, so they are whole copies).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import (
    MISERE,
    MISERE_AUCTION,
    MISERE_CLEAN_PLAY,
    NS,
    RULES,
    RULESET,
    SUITED,
    E,
    N,
    S,
    W,
    act,
    cards,
    log,
    new_hand,
)
from helpers import legal as calls_of

import fivehundred
from fivehundred.engine.state import GameState, Phase
from fivehundred.rules.auction import (
    DEALER_MUST_BID,
    PASS,
    AuctionRules,
    Bidding,
    RebidAfterInterveningBid,
    ReentryAfterChange,
    SingleRoundAuction,
    WinnerMayRaise,
)
from fivehundred.rules.errors import IllegalActionError, RulesetError
from fivehundred.rules.loading import bundled_dir
from fivehundred.rules.manager import Rules, check_ruleset, compile_rules
from fivehundred.rules.tables import Contract, HandOutcome

REF_LADDER: list[dict[str, Any]] = [r.model_dump(exclude_defaults=True) for r in RULESET.auction.ladder]
"""The reference ladder as YAML data: ``{call, value[, requires_standing]}`` per rung."""


# --- building variant rulesets ------------------------------------------------------------------


def load(tmp_path: Path, name: str, data: dict[str, Any]) -> fivehundred.Ruleset:
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, **data}, sort_keys=False), encoding="utf-8")
    return fivehundred.load_ruleset(path)


def variant(tmp_path: Path, name: str, **sections: Any) -> Rules:
    """The compiled rules of ``pagat-australian`` with ``sections`` merged over it."""
    return compile_rules(load(tmp_path, name, {"extends": "pagat-australian", **sections}))


def standalone(tmp_path: Path, name: str, ladder: list[dict[str, Any]], contracts: dict[str, Any]) -> Rules:
    """A whole copy of the reference with another ladder and contracts (a child cannot drop contracts)."""
    data = yaml.safe_load((bundled_dir() / "pagat-australian.yaml").read_text(encoding="utf-8"))
    data["auction"]["ladder"], data["contracts"] = ladder, contracts
    data.pop("name")
    return compile_rules(load(tmp_path, name, data))


def ladder(*, drop: tuple[str, ...] = (), after: dict[str, dict[str, Any]] | None = None,
           change: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The reference ladder without ``drop``, each ``after[call]`` rung inserted just after ``call``
    (``""`` = at the top), and ``change[call]`` merged into the rung of ``call``."""
    rungs = [{**r, **(change or {}).get(r["call"], {})} for r in REF_LADDER if r["call"] not in drop]
    for anchor, rung in (after or {}).items():
        at = len(rungs) if anchor == "" else next(i for i, r in enumerate(rungs) if r["call"] == anchor) + 1
        rungs.insert(at, rung)
    return rungs


def misere_hand(rules: Rules, auction: str) -> GameState:
    """The MISERE deal, dealer W: ``auction`` makes N the misère contractor, who then loses every trick."""
    st = new_hand(MISERE, rules=rules)
    act(st, f"{auction} 7H 6H JK {MISERE_CLEAN_PLAY}")
    return st


# --- B1 no misère ----------------------------------------------------------------------------


def test_B1_misere_is_not_a_call(tmp_path: Path) -> None:
    b1 = standalone(tmp_path, "no-misere", ladder(drop=("misere", "open-misere")), {})
    ref, var = new_hand(SUITED), new_hand(SUITED, rules=b1)
    act(ref, "7S")
    act(var, "7S")
    assert {"misere", "open-misere"} <= calls_of(ref)
    assert not {"misere", "open-misere"} & calls_of(var)
    assert "8S" in calls_of(var)
    with pytest.raises(ValueError, match="not a call of this ruleset"):
        var.parse_action("misere")


# --- B2 misère any time ------------------------------------------------------------------------


def test_B2_misere_may_open_the_auction(tmp_path: Path) -> None:
    anytime = ladder(change={"misere": {"requires_standing": None}})
    b2 = variant(tmp_path, "misere-any-time", auction={"ladder": anytime})
    ref = new_hand(MISERE)
    with pytest.raises(IllegalActionError, match="rule 10"):
        act(ref, "misere")
    st = misere_hand(b2, "misere pass pass pass")
    assert log(st).contract is not None and log(st).contract.call == "misere"
    assert log(st).scores[NS] == 250


# --- B3 split colours ----------------------------------------------------------------------


SPLIT_COLOURS = ladder(
    drop=("misere", "open-misere"),
    after={"7C": {"call": "misere", "value": 250, "requires_standing": "7S"},
           "8C": {"call": "open-misere", "value": 500},
           "9C": {"call": "hi-lo", "value": 350},
           "10C": {"call": "double-misere", "value": 450}},
)
SPLIT_CONTRACTS = {
    "hi-lo": {"kind": "no-trumps", "goal": "exactly", "tricks": 5, "partner_plays": False},
    "double-misere": {"kind": "misere", "goal": "none", "partner_plays": True, "kitty_to_partner": True},
}


def test_B3_split_colours_ladder_order(tmp_path: Path) -> None:
    b3 = variant(tmp_path, "split-colours", auction={"ladder": SPLIT_COLOURS}, contracts=SPLIT_CONTRACTS)
    order = [r.call for r in b3.ladder]
    for low, named, high in [("7C", "misere", "7D"), ("8C", "open-misere", "8D"), ("9C", "hi-lo", "9D"),
                             ("10C", "double-misere", "10D")]:
        assert order.index(low) + 1 == order.index(named) == order.index(high) - 1
    hi_lo = b3.ladder[order.index("hi-lo")]
    assert (hi_lo.goal, hi_lo.tricks, hi_lo.partner_plays, hi_lo.value) == ("exactly", 5, False, 350)


@pytest.mark.parametrize(("standing", "call"), [("7D", "misere"), ("8D", "open-misere")])
def test_B3_misere_does_not_beat_the_red_suits(tmp_path: Path, standing: str, call: str) -> None:
    b3 = variant(tmp_path, "split-colours", auction={"ladder": SPLIT_COLOURS}, contracts=SPLIT_CONTRACTS)
    ref, var = new_hand(MISERE), new_hand(MISERE, rules=b3)
    act(ref, standing)
    act(var, standing)
    assert call in calls_of(ref)
    assert call not in calls_of(var)
    with pytest.raises(IllegalActionError, match="does not beat the standing bid"):
        act(var, call)


def test_B3_misere_beats_the_black_suits_and_hi_lo_is_a_call(tmp_path: Path) -> None:
    b3 = variant(tmp_path, "split-colours", auction={"ladder": SPLIT_COLOURS}, contracts=SPLIT_CONTRACTS)
    st = new_hand(MISERE, rules=b3)
    act(st, "7C")
    assert "misere" in calls_of(st)
    act(st, "9C")
    assert {"hi-lo", "double-misere", "9D"} <= calls_of(st) and "open-misere" not in calls_of(st)
    act(st, "hi-lo pass pass pass")
    assert log(st).contract is not None and log(st).contract.call == "hi-lo" and log(st).contractor == S
    with pytest.raises(ValueError):
        new_hand(MISERE).parse_action("hi-lo")


# --- B4 open misère on top ------------------------------------------------------------------


def test_B4_open_misere_outranks_10NT(tmp_path: Path) -> None:
    b4 = variant(tmp_path, "open-misere-top",
                 auction={"ladder": ladder(drop=("open-misere",), after={"": {"call": "open-misere", "value": 520}})})
    assert b4.ladder[-1].call == "open-misere" and b4.ladder[-1].value == 520
    ref, var = new_hand(MISERE), new_hand(MISERE, rules=b4)
    act(ref, "10H")
    act(var, "10H")
    assert calls_of(ref) == {"pass", "10NT"}
    assert calls_of(var) == {"pass", "10NT", "open-misere"}
    act(var, "pass pass 10NT")
    assert calls_of(var) == {"pass", "open-misere"}


def test_B4_open_misere_made_scores_520(tmp_path: Path) -> None:
    b4 = variant(tmp_path, "open-misere-top",
                 auction={"ladder": ladder(drop=("open-misere",), after={"": {"call": "open-misere", "value": 520}})})
    assert misere_hand(RULES, "open-misere pass pass pass").hands_log[-1].scores[NS] == 500
    assert misere_hand(b4, "open-misere pass pass pass").hands_log[-1].scores[NS] == 520


# --- B5 single round -----------------------------------------------------------------------


def test_B5_single_round_each_player_calls_once(tmp_path: Path) -> None:
    b5 = variant(tmp_path, "single-round", auction={"rounds": "single"})
    assert type(b5.auction) is SingleRoundAuction
    ref, var = new_hand(SUITED), new_hand(SUITED, rules=b5)
    act(ref, "6S 7S pass pass")
    act(var, "6S 7S pass pass")
    assert ref.phase == Phase.AUCTION and ref.current_player() == N and "8S" in calls_of(ref)
    assert var.phase == Phase.DISCARD and log(var).contractor == E and str(log(var).contract) == "7S"


def test_B5_single_round_all_pass(tmp_path: Path) -> None:
    b5 = variant(tmp_path, "single-round", auction={"rounds": "single"})
    st = new_hand(SUITED, rules=b5)
    act(st, "pass pass pass pass")
    assert st.phase == Phase.DEAL and log(st).contract is None


# --- B6 re-bidding -------------------------------------------------------------------------


def test_B6_winner_may_raise_after_all_others_passed(tmp_path: Path) -> None:
    b6 = variant(tmp_path, "winner-raises", auction={"winner_may_raise": True})
    assert type(b6.auction) is WinnerMayRaise
    ref, var = new_hand(SUITED), new_hand(SUITED, rules=b6)
    act(ref, "7S pass pass pass")
    act(var, "7S pass pass pass")
    assert ref.phase == Phase.DISCARD and str(log(ref).contract) == "7S"
    assert var.phase == Phase.AUCTION and var.current_player() == N
    assert {"pass", "8S", "10NT"} <= calls_of(var) and "7S" not in calls_of(var)
    act(var, "8S")
    assert var.phase == Phase.DISCARD and str(log(var).contract) == "8S" and log(var).contractor == N


def test_B6_winner_may_pass_and_keep_the_bid(tmp_path: Path) -> None:
    b6 = variant(tmp_path, "winner-raises", auction={"winner_may_raise": True})
    st = new_hand(SUITED, rules=b6)
    act(st, "6S 7S pass pass 8S pass")  # N outbid E; with E, S, W passed, N has one more call
    assert st.current_player() == N
    act(st, "pass")
    assert st.phase == Phase.DISCARD and str(log(st).contract) == "8S" and log(st).contractor == N


def test_B6_the_last_seat_bidding_after_three_passes_gets_no_raise(tmp_path: Path) -> None:
    b6 = variant(tmp_path, "winner-raises", auction={"winner_may_raise": True})
    st = new_hand(SUITED, rules=b6)
    act(st, "pass pass pass 6H")  # W's bid came after all others passed: that was its last word
    assert st.phase == Phase.DISCARD and log(st).contractor == W


def test_B6_rebid_only_after_an_intervening_bid(tmp_path: Path) -> None:
    # With final passes the holder of the standing bid is never asked again by the reference flow,
    # so the two settings differ in what the holder may call when asked (as WinnerMayRaise asks it).
    b6 = variant(tmp_path, "intervening", auction={"rebid": "after-intervening-bid"})
    assert type(b6.auction) is RebidAfterInterveningBid
    seven_spades = RULES.parse_call("7S")
    ref_bidding, var_bidding = RULES.auction.start(W, 4), b6.auction.start(W, 4)
    RULES.auction.apply(ref_bidding, N, seven_spades)
    b6.auction.apply(var_bidding, N, seven_spades)
    assert RULES.auction.legal_calls(ref_bidding, N) == RULES.auction.legal_calls(ref_bidding, E)
    assert b6.auction.legal_calls(var_bidding, N) == (PASS,)
    assert b6.auction.legal_calls(var_bidding, E) == RULES.auction.legal_calls(ref_bidding, E)
    assert b6.auction.why_illegal(var_bidding, N, seven_spades + 1) is not None
    b6.auction.apply(var_bidding, E, RULES.parse_call("7C"))  # E's bid intervenes: N may bid again
    assert RULES.parse_call("8S") in b6.auction.legal_calls(var_bidding, N)
    st = new_hand(SUITED, rules=b6)  # in play, the auction runs as the reference one
    act(st, "6S 7S pass pass 8S pass")
    assert str(log(st).contract) == "8S"


def test_B6_winner_raise_contradicts_rebid_after_intervening_bid(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="contradicts rebid 'after-intervening-bid'"):
        load(tmp_path, "both", {"extends": "pagat-australian",
                                "auction": {"winner_may_raise": True, "rebid": "after-intervening-bid"}})
    with pytest.raises(RulesetError, match="needs rounds 'unlimited'"):
        load(tmp_path, "single", {"extends": "pagat-australian",
                                  "auction": {"winner_may_raise": True, "rounds": "single"}})


# --- B7 inkle -------------------------------------------------------------------------------

INKLES = ladder(change={r["call"]: {"first_calls": 2, "signal": True} for r in REF_LADDER if r["call"][0] == "6"})


def test_B7_an_inkle_left_standing_is_no_contract(tmp_path: Path) -> None:
    b7 = variant(tmp_path, "inkle", auction={"ladder": INKLES})
    ref, var = new_hand(SUITED), new_hand(SUITED, rules=b7)
    act(ref, "6H pass pass pass")
    act(var, "6H pass pass pass")
    assert ref.phase == Phase.DISCARD and str(log(ref).contract) == "6H"
    assert var.phase == Phase.DEAL and log(var).contract is None and var.dealer == N  # as if all passed


def test_B7_only_the_first_two_calls_may_inkle(tmp_path: Path) -> None:
    b7 = variant(tmp_path, "inkle", auction={"ladder": INKLES})
    ref, var = new_hand(SUITED), new_hand(SUITED, rules=b7)
    act(ref, "pass 6D")
    act(var, "pass 6D")  # E, the second caller, may still inkle
    assert {"6H", "6NT"} <= calls_of(ref)
    assert calls_of(var) == calls_of(ref) - {"6H", "6NT"}
    with pytest.raises(IllegalActionError):
        act(var, "6H")
    act(var, "7H pass pass")  # a real bid over the inkle is a contract
    assert str(log(var).contract) == "7H" and log(var).contractor == S
    bidding = b7.auction.start(W, 4)
    b7.auction.apply(bidding, N, PASS)
    b7.auction.apply(bidding, E, PASS)
    why = b7.auction.why_illegal(bidding, S, b7.parse_call("6H"))
    assert why is not None and why[1].startswith("B7:")


# --- B8 blind misère ------------------------------------------------------------------------

BLIND = {"auction": {"ladder": ladder(after={"open-misere": {"call": "blind-misere", "value": 500,
                                                             "first_own_call": True}})},
         "contracts": {"blind-misere": {"kind": "misere"}}}


def test_B8_blind_misere_scores_500(tmp_path: Path) -> None:
    b8 = variant(tmp_path, "blind-misere", **BLIND)
    assert misere_hand(RULES, MISERE_AUCTION).hands_log[-1].scores[NS] == 250
    st = misere_hand(b8, "blind-misere pass pass pass")
    assert str(log(st).contract) == "blind-misere" and log(st).scores[NS] == 500
    with pytest.raises(ValueError):
        new_hand(MISERE).parse_action("blind-misere")


def test_B8_blind_misere_only_as_the_first_own_call(tmp_path: Path) -> None:
    b8 = variant(tmp_path, "blind-misere", **BLIND)
    st = new_hand(MISERE, rules=b8)
    act(st, "6S 7S pass")
    assert "blind-misere" in calls_of(st)  # W has not called yet
    act(st, "pass")
    assert st.current_player() == N
    assert "blind-misere" not in calls_of(st) and "misere" in calls_of(st)
    with pytest.raises(IllegalActionError):
        act(st, "blind-misere")
    bidding = b8.auction.start(W, 4)
    for seat, call in [(N, "6S"), (E, "7S"), (S, "pass"), (W, "pass")]:
        b8.auction.apply(bidding, seat, b8.parse_call(call))
    why = b8.auction.why_illegal(bidding, N, b8.parse_call("blind-misere"))
    assert why is not None and why[1].startswith("B8:")


# --- B10 the dealer must bid ----------------------------------------------------------------


def test_B10_dealer_must_bid_when_all_others_passed(tmp_path: Path) -> None:
    b10 = variant(tmp_path, "dealer-must-bid", deal={"all_pass": "dealer-must-bid"})
    ref, var = new_hand(SUITED, dealer=W), new_hand(SUITED, dealer=W, rules=b10)
    act(ref, "pass pass pass")
    act(var, "pass pass pass")
    assert var.current_player() == W
    assert calls_of(var) == calls_of(ref) - {"pass"}
    with pytest.raises(IllegalActionError):
        act(var, "pass")
    assert b10.auction.why_illegal(b10.auction.start(W, 4, frozenset({N, E, S})), W, PASS) == (
        "everyone else has passed: the dealer must bid", DEALER_MUST_BID)
    act(ref, "pass")
    assert ref.phase == Phase.DEAL and log(ref).contract is None
    act(var, "6S")
    assert var.phase == Phase.DISCARD and log(var).contractor == W


def test_B10_the_dealer_may_pass_over_a_bid(tmp_path: Path) -> None:
    b10 = variant(tmp_path, "dealer-must-bid", deal={"all_pass": "dealer-must-bid"})
    st = new_hand(SUITED, dealer=W, rules=b10)
    act(st, "pass 6S pass")
    assert "pass" in calls_of(st)
    act(st, "pass")
    assert log(st).contractor == E


# --- B11 nullo ------------------------------------------------------------------------------


def test_B11_nullo_scores_500_and_has_no_open_form(tmp_path: Path) -> None:
    nullo_ladder = ladder(drop=("open-misere",), change={"misere": {"value": 500}})
    b11 = standalone(tmp_path, "nullo", nullo_ladder, {"misere": {"kind": "misere"}})
    assert misere_hand(RULES, MISERE_AUCTION).hands_log[-1].scores[NS] == 250
    assert misere_hand(b11, MISERE_AUCTION).hands_log[-1].scores[NS] == 500
    with pytest.raises(ValueError):
        new_hand(MISERE, rules=b11).parse_action("open-misere")


# --- R1 set bars ----------------------------------------------------------------------------


def nine_no_trumps(rules: Rules, tricks_by_north: int) -> GameState:
    """SUITED, dealer W: N plays 9NT, leads ``tricks_by_north`` spades, then gives W the lead
    with the 4♥; W's hearts take the rest.  Then the next hand (dealer N) is dealt."""
    st = new_hand(SUITED, rules=rules)
    act(st, "9NT pass pass pass JK 4D 5S")
    for spade in ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"][:tricks_by_north]:
        act(st, spade)
        while st.current_player() != N:
            st.apply(st.legal_actions()[0])
    act(st, "4H")
    while st.phase == Phase.PLAY:
        st.apply(st.legal_actions()[0])
    assert log(st).tricks_won[N] == tricks_by_north
    st.deal_cards([cards(h) for h in SUITED[:4]], cards(SUITED[4]))
    return st


def test_R1_a_contractor_set_by_three_sits_out_the_next_auction(tmp_path: Path) -> None:
    r1 = variant(tmp_path, "ralphing", auction={"set_bar": 3})
    ref, var = nine_no_trumps(RULES, 6), nine_no_trumps(r1, 6)
    act(ref, "pass pass pass")  # dealer N: E, S, W call first
    act(var, "pass pass pass")
    assert ref.phase == Phase.AUCTION and ref.current_player() == N
    assert var.phase == Phase.DEAL and log(var).calls == [(E, PASS), (S, PASS), (W, PASS)]


def test_R1_set_by_two_is_not_barred_and_the_bar_lasts_one_auction(tmp_path: Path) -> None:
    r1 = variant(tmp_path, "ralphing", auction={"set_bar": 3})
    st = nine_no_trumps(r1, 7)
    act(st, "pass pass pass")
    assert st.current_player() == N
    barred = nine_no_trumps(r1, 6)
    act(barred, "pass pass pass")  # N sat out that auction …
    barred.deal_cards([[c for c in h] for h in log(barred).hands], log(barred).kitty)
    act(barred, "pass pass pass")  # … and calls in the one after (dealer E: S, W, N, E)
    assert barred.current_player() == E and [s for s, _ in log(barred).calls] == [S, W, N]


@pytest.mark.parametrize(("taken", "barred"), [(2, frozenset()), (3, frozenset({N}))])
def test_R1_misere_contractor_taking_three_tricks_is_barred(tmp_path: Path, taken: int, barred: frozenset[int]) -> None:
    r1 = variant(tmp_path, "ralphing", auction={"set_bar": 3, "set_bar_misere": 3},
                 play={"misere_ends_early": False})
    misere = r1.ladder[r1.parse_call("misere")]
    outcome = HandOutcome(misere, N, NS, (taken, 10 - taken, 0, 0), (taken, 10 - taken), False, 10, 10, (N, S))
    assert r1.auction.barred_after(outcome) == barred
    assert RULES.auction.barred_after(outcome) == frozenset()


def test_R1_misere_bar_needs_the_hand_played_out(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="misere_ends_early"):
        load(tmp_path, "bar", {"extends": "pagat-australian", "auction": {"set_bar_misere": 3}})


# --- ruleset checks -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("auction", "key", "words"),
    [
        ({"ladder": ladder(change={"7S": {"value": 0}})}, "auction.ladder.5.value", "ladder entry without a value"),
        ({"ladder": ladder(change={"misere": {"requires_standing": "8S"}})},
         "auction.ladder.10.requires_standing", "could never be called"),
        ({"ladder": ladder(change={"6S": {"first_calls": 5}})}, "auction.ladder.0.first_calls", "first round"),
        ({"ladder": [{**r, "signal": True} for r in REF_LADDER]}, "auction.ladder", "every call on the ladder"),
        ({"set_bar": 11}, "auction.set_bar", "can never be reached"),
    ],
    ids=["no-value", "standing-above", "first-calls", "all-signals", "set-bar"],
)
def test_ruleset_checks_of_the_auction(tmp_path: Path, auction: dict[str, Any], key: str, words: str) -> None:
    with pytest.raises(RulesetError) as caught:
        load(tmp_path, "bad", {"extends": "pagat-australian", "auction": auction})
    [problem] = [p for p in caught.value.problems if words in p]
    assert f": {key}: " in problem


def test_ruleset_checks_accept_the_variants(tmp_path: Path) -> None:
    assert check_ruleset(RULESET) == []
    signals_are_free = ladder(change={"6S": {"value": 0, "signal": True, "first_calls": 2}})
    assert check_ruleset(load(tmp_path, "ok", {"extends": "pagat-australian",
                                               "auction": {"ladder": signals_are_free}})) == []


# --- re-entry after a pass (Trickster Cards' "bid after pass if bid changed") ---------------------------------


def test_reentry_a_player_who_passed_is_asked_again_once_the_bid_changed(tmp_path: Path) -> None:
    again = variant(tmp_path, "reentry", auction={"reentry": "if-bid-changed"})
    assert type(again.auction) is ReentryAfterChange
    ref, var = new_hand(SUITED), new_hand(SUITED, rules=again)
    act(ref, "6S pass 6C pass 6D")  # E passed over 6S; the bid has changed twice since
    act(var, "6S pass 6C pass 6D")
    assert ref.current_player() == S  # rule 8: E's pass was final
    assert var.current_player() == E and "7S" in calls_of(var)
    act(var, "7S pass pass")  # E re-enters; S and W passed at 7S: nobody has bid since
    assert var.current_player() == N
    act(var, "pass")
    assert var.phase == Phase.DISCARD and str(log(var).contract) == "7S" and log(var).contractor == E
    with pytest.raises(IllegalActionError, match="after passing"):
        ref.apply(ref.parse_action("7S"), seat=E)  # rule 8: E has passed and may not call again


def test_reentry_the_auction_ends_without_asking_again_those_who_passed(tmp_path: Path) -> None:
    # The auction of tests/data/ptn/australian-8NT-partial.ptn: N passes, is asked again after E's and S's
    # bids and passes again; once S passes over E's 8NT the auction is over, and W is not asked again.
    again = variant(tmp_path, "reentry", auction={"reentry": "if-bid-changed"})
    st = new_hand(SUITED, rules=again)
    act(st, "pass 6NT 7D pass pass 8NT pass")
    assert st.phase == Phase.DISCARD and str(log(st).contract) == "8NT" and log(st).contractor == E
    assert [seat for seat, _ in log(st).calls] == [N, E, S, W, N, E, S]


def test_reentry_needs_the_plain_order_of_calls(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="re-entry after a pass"):
        load(tmp_path, "single", {"extends": "pagat-australian",
                                  "auction": {"reentry": "if-bid-changed", "rounds": "single"}})


# --- found by the mutation run (docs/testing.md): a wrong auction rule the rest would have passed ---------


def test_a_bidding_built_with_its_defaults_has_no_holder_and_three_passes_do_not_end_it():
    bidding = Bidding(players=4, turn=0)
    assert bidding.holder == -1 and bidding.standing == PASS and bidding.passed == [False] * 4
    auction = RULES.auction
    for seat in (1, 2, 3):
        auction.apply(bidding, seat, PASS)
    assert not bidding.over  # nobody holds a bid: the fourth seat may still call (rule 12)
    assert bidding.turn == 0
    auction.apply(bidding, 0, PASS)
    assert bidding.over and bidding.holder == -1


def test_dealer_must_bid_does_not_bind_the_holder_of_a_bid_asked_to_raise():
    """B10 with B6's last call: seat 0 (North) holds 6S and the three others passed; its extra call may
    be a pass, since a bid stands (B10 binds only when nobody has bid)."""
    auction = WinnerMayRaise(RULES.ladder, dealer_must_bid=True)
    for holder in (0, 2):
        bidding = auction.start(dealer=(holder - 1) % 4, players=4)
        assert bidding.turn == holder
        auction.apply(bidding, holder, 0)
        for seat in range(1, 4):
            auction.apply(bidding, (holder + seat) % 4, PASS)
        assert not bidding.over and bidding.turn == holder
        assert PASS in auction.legal_calls(bidding, holder)
        assert auction.why_illegal(bidding, holder, PASS) is None
        auction.apply(bidding, holder, PASS)
        assert bidding.over and bidding.holder == holder and bidding.standing == 0


def test_a_bidding_has_only_its_own_fields():
    bidding = Bidding(players=4, turn=0)
    with pytest.raises(AttributeError):
        bidding.stand = 3  # type: ignore[attr-defined]  # a misspelt field is an error, not a new attribute


def test_the_dealer_may_pass_unless_the_auction_says_it_must_bid():
    plain = AuctionRules(RULES.ladder)
    bidding = plain.start(dealer=3, players=4)
    for seat in (0, 1, 2):
        plain.apply(bidding, seat, PASS)
    assert bidding.turn == 3 and PASS in plain.legal_calls(bidding, 3)
    plain.apply(bidding, 3, PASS)
    assert bidding.over and bidding.holder == -1  # rule 13: all passed, a redeal


def test_a_single_round_auction_goes_clockwise_from_the_dealers_left():
    auction = SingleRoundAuction(RULES.ladder)
    bidding = auction.start(dealer=1, players=4)
    order = []
    for call in (0, PASS, 1, PASS):
        order.append(bidding.turn)
        auction.apply(bidding, bidding.turn, call)
    assert order == [2, 3, 0, 1]
    assert bidding.over and bidding.holder == 0 and bidding.standing == 1


def outcome(contract: Contract, side_tricks: int) -> HandOutcome:
    """North (seat 0) contracted with South; North took all the side's tricks."""
    hand_size = 10
    by_seat = (side_tricks, hand_size - side_tricks, 0, 0)
    return HandOutcome(contract, 0, 0, by_seat, (side_tricks, hand_size - side_tricks), contract.made(side_tricks),
                       hand_size, hand_size, (0, 2))


SIX_SPADES = Contract("6S", 0, "trumps", 40, 6, trump=0)
HI_LO = Contract("hi-lo", 27, "no-trumps", 350, 5, goal="exactly")


@pytest.mark.parametrize(("contract", "taken", "barred"), [
    (SIX_SPADES, 3, True),  # three short of six: set by the bar
    (SIX_SPADES, 4, False),
    (SIX_SPADES, 10, False),  # overtricks are no shortfall
    (HI_LO, 5, False),  # exactly five: made
    (HI_LO, 8, True),  # three over an exact contract miss it by three
    (HI_LO, 2, True),
    (HI_LO, 7, False),
])
def test_R1_set_bar_counts_the_tricks_missed(contract, taken, barred):
    auction = AuctionRules(RULES.ladder, set_bar=3)
    assert auction.barred_after(outcome(contract, taken)) == (frozenset({0}) if barred else frozenset())


def test_bars_from_plugins_apply_after_every_hand():
    auction = AuctionRules(RULES.ladder)
    auction.bars.append(lambda done: frozenset({done.contractor + 1}))
    auction.bars.append(lambda done: frozenset({3}))
    assert auction.barred_after(outcome(SIX_SPADES, 6)) == {1, 3}
    assert AuctionRules(RULES.ladder).barred_after(outcome(SIX_SPADES, 0)) == frozenset()


MISERE_CONTRACT = Contract("misere", 10, "misere", 250, 0, goal="none")


@pytest.mark.parametrize(("taken", "barred"), [(2, False), (3, True), (6, True)])
def test_R1_misere_bar_alone(taken, barred):
    """R1 with ``set_bar_misere`` and no ``set_bar``: a misère contractor taking three tricks sits out."""
    auction = AuctionRules(RULES.ladder, set_bar_misere=3)
    assert auction.barred_after(outcome(MISERE_CONTRACT, taken)) == (frozenset({0}) if barred else frozenset())
    assert auction.barred_after(outcome(SIX_SPADES, 0)) == frozenset()  # no bar for a set trump contract


def test_B7_an_inkle_left_standing_leaves_no_holder():
    inkle = Contract("6S", 0, "trumps", 40, 6, trump=0, first_calls=2, signal=True)
    auction = AuctionRules([inkle, *RULES.ladder[1:]])
    bidding = auction.start(dealer=3, players=4)
    for seat, call in enumerate((0, PASS, PASS, PASS)):
        auction.apply(bidding, seat, call)
    assert bidding.over and (bidding.standing, bidding.holder) == (PASS, -1)


def test_reentry_a_player_who_passed_is_asked_again_after_bids_alone(tmp_path: Path) -> None:
    """Re-entry after a pass: once the bid has changed since a seat's pass it is asked again, whether or not
    anybody passed in between (here only bids followed East's pass)."""
    again = variant(tmp_path, "reentry", auction={"reentry": "if-bid-changed"})
    st = new_hand(SUITED, rules=again)
    act(st, "6S pass 6C 6D 6H")  # N, E passes, S, W, N bid on
    assert st.current_player() == E and "7S" in calls_of(st)


def test_B6_a_deal_everybody_passed_is_thrown_in_with_no_raise_due(tmp_path: Path) -> None:
    """B6 (the winner may raise) with nobody's bid: rule 13, the deal is thrown in and passes on; nobody is
    asked to raise a bid that nobody made."""
    b6 = variant(tmp_path, "winner-raises", auction={"winner_may_raise": True})
    st = new_hand(SUITED, dealer=W, rules=b6)
    act(st, "pass pass pass pass")
    assert st.phase == Phase.DEAL and st.dealer == N and log(st).contract is None


def test_reentry_the_seats_that_never_call_stay_out(tmp_path: Path) -> None:
    """Re-entry after a pass with P2's dummies: a seat out of the auction from the start (it never called) is
    never asked, however the bid changes."""
    two = variant(tmp_path, "two-handed-reentry", auction={"reentry": "if-bid-changed"}, players={
        "seats": ["N", "E", "S", "W"], "dummies": {"S": "N", "W": "E"},
        "teams": [{"name": "NS", "seats": ["N", "S"]}, {"name": "EW", "seats": ["E", "W"]}]})
    st = new_hand(SUITED, rules=two)
    act(st, "pass 6S")  # N passes, E bids: nobody else may call
    assert st.phase == Phase.DISCARD and log(st).contractor == E and [s for s, _ in log(st).calls] == [N, E]
