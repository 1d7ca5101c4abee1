"""The club player's pricing of partner's support: a partner's own suit counts ``partner_support``, a
partner's raise of our suit ``raise_support`` (its call counted ours as support already), and the
reference ruleset's support is fitted to what such contracts take."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import fivehundred
from fivehundred.bots.club import RAISED, SUPPORT, ClubPlayer, _pricing, _support
from fivehundred.bots.heuristic import _info
from fivehundred.bots.params import tuned_for, write_params
from fivehundred.engine.state import GameState
from fivehundred.rules.cards import parse_cards
from fivehundred.rules.manager import compile_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

RULES = compile_rules(fivehundred.load_ruleset("pagat-australian"))


def _calls(*texts: str, first: int = 0) -> list[tuple[int, int]]:
    return [((first + i) % 4, RULES.parse_call(t)) for i, t in enumerate(texts)]


def test_who_called_the_denomination_first_decides_the_support() -> None:
    keys = _pricing(RULES, _info(RULES)).call_key
    clubs = RULES.ladder[RULES.parse_call("8C")].trump
    assert clubs is not None
    # W (3) opened 6♣, E (1) raised to 7♣: for W the clubs are raised, for E they are partner's own suit
    calls = _calls("6C", "6D", "7C", "7D", first=3)
    assert _support(3, (1,), keys, calls, clubs) == RAISED
    assert _support(1, (3,), keys, calls, clubs) == SUPPORT
    assert _support(0, (2,), keys, calls, clubs) == 0  # N/S never called clubs
    # a misère call supports nothing
    assert _support(0, (2,), keys, _calls("6C", "6D", "misere", first=1), clubs) == 0


# W opened 6♣; E raised to 7♣ on one club (the right bower); after 7♦ W counted E's raise as 1.5 tricks,
# bid 8♣ and took 6 (seed 30, game of the partner_raises benchmark, before the fit)
HANDS = ["6S 5D 9S AC 6D 6C JS 8D 10H JH", "KH 9H QS 10S 10D JC AS 5H AD 4D",
         "4H 7D QH JD QD 9D 9C QC 8C AH", "8S 8H 10C 5C 7S KD KC JK KS 7C"]


def _west_to_call() -> GameState:
    st = GameState(RULES, first_dealer=2)
    st.deal_cards([parse_cards(h) for h in HANDS], parse_cards("5S 6H 7H"))
    for call in ("6C", "6D", "7C", "7D"):
        st.apply(st.parse_action(call))
    assert st.current_player() == 3
    return st


def test_a_partners_raise_of_our_suit_counts_raise_support_not_partner_support() -> None:
    st = _west_to_call()
    tuned = tuned_for("pagat-australian")
    eight = RULES.ladder[RULES.parse_call("8C")]
    calls = list(st.observation(3).calls)
    for raise_support in (0.0, 0.5, 1.5):
        west = ClubPlayer(3, random.Random(0), tuned.model_copy(update={"raise_support": raise_support}))
        alone = west.contract_estimate(RULES, 3, st.hand(3), calls[:1], eight)
        raised = west.contract_estimate(RULES, 3, st.hand(3), calls, eight)
        assert alone is not None and raised is not None
        # N's 6♦ and S's 7♦ between: the two calls of the opponents cost what each costs (opponent_bids)
        assert abs(raised - alone - raise_support + 2 * tuned.opponent_bids) < 1e-9


def test_west_no_longer_raises_on_its_partners_raise() -> None:
    st = _west_to_call()
    tuned = tuned_for("pagat-australian")
    assert tuned.partner_support < 1.0 and tuned.raise_support == 0.0
    # not 8♣ again: W passes or, with the joker counted (``joker_trumps``), competes in 7NT, which makes its 7
    # tricks double dummy (``fivehundred.solve`` after W's discards)
    assert st.action_to_str(ClubPlayer(3, random.Random(0)).act(st, st.legal_actions())) in ("pass", "7NT")
    before = tuned.model_copy(update={"partner_support": 1.5, "raise_support": 1.5})  # club before the fit
    assert st.action_to_str(ClubPlayer(3, random.Random(0), before).act(st, st.legal_actions())) == "8C"


@pytest.mark.searches
def test_contracts_in_partners_denomination_are_made_as_often_as_estimated(tmp_path: Path) -> None:
    """On seeded self-play of the reference ruleset, contracts in partner's denomination are made
    more often than not, and the auction's estimate for them is off by under half a trick (it was
    48.6% made, estimated a trick over what was taken, before the fit).  (The open misères are
    defended without search here: the auction is what is tested, and the search costs time.)"""
    from partner_raises import Tally, report  # benchmarks/partner_raises.py

    params = tmp_path / "club.json"
    write_params(params, tuned_for("pagat-australian").model_copy(update={"misere_worlds": 0.0}))
    tally = Tally(RULES, None, 0)
    # 450 games: since the fit, such contracts are about one in nine of club's (one in five before it)
    fivehundred.simulate(450, 30, RULES.ruleset, f"club:{params}", out=tally)  # type: ignore[arg-type]
    got = report(tally)
    assert got["in_partners_denomination"]["contracts"] >= 100
    assert got["in_partners_denomination"]["make_rate"] > 0.55
    for group, row in got.items():
        if group != "in_partners_denomination" and row["contracts"] >= 50:
            assert abs(row["estimate_over_taken"]) < 0.5, group
