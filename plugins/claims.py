"""L2, claims (“500 (juego de cartas)”): the contractor, about to lead, lays the hand down and claims every
remaining trick; a wrong claim costs the contracting side ``play.claim_penalty``.

The claim is a step of the play (``Claim``, stage ``"lead"``): when ``play.claims`` is on, it offers
the contractor the action ``claim`` beside the cards it may lead, once a hand, with two or more tricks
to go, in a contract to take tricks (a misère contractor has nothing to claim).  An upheld claim gives
the side every remaining trick and ends the hand (the ``EndPlay`` effect); a wrong one is
kept in ``HandLog.steps["claim"]`` as ``(claimer, tricks played before it, upheld)``, the wrapper below
takes the penalty off the side's score, and the hand is played on.

A claim is right when the contracting side takes every remaining trick however the defenders play,
with every hand known (the claimer shows its cards; a claim is judged, as at the table, on the
cards, not on a line of play).  ``takes_every_trick`` decides that by an exhaustive AND/OR search
of the rest of the hand through the engine itself (so joker, nomination and follow rules of every
variant hold): the side needs one card that keeps every trick, the defence one card that wins one.
Positions are memoised on the cards left and the trick in progress, which keeps late claims (the
usual ones) to a few hundred positions; a search that would pass ``budget`` positions is not a
proof, and the claim is judged wrong, as a claim the claimer cannot show is contested and lost.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fivehundred.rules import effects
from fivehundred.rules.actions import JOKER_LEAD, Phase
from fivehundred.rules.cards import JOKER_BASE
from fivehundred.rules.markers import applies_when, hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import FIRST_STEP_ACTION, Step
from fivehundred.rules.tables import Contract, HandOutcome

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog
    from fivehundred.rules.manager import Rules

CLAIM = 900
"""The claim's action id (the one it had when the engine made claims itself: records and games keep it)."""
RULE = "L2: a claim stands only if the side takes every remaining trick against any defence"


class Claim(Step):
    """The contractor's claim of every remaining trick, offered at a lead (see the module's text)."""

    name = "claim"
    stage = "lead"
    actions = range(CLAIM, CLAIM + 1)
    record_key = "claim"
    rule = "L2: the contractor may claim the remaining tricks"
    scored = True
    sheet_column = "claim"

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        contract = log.contract
        if (self.name in log.steps or contract is None or contract.goal != "at-least"
                or state.rules.hand_size - len(log.tricks) < 2):
            return None
        return log.contractor

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [CLAIM]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        log = state.hand_log
        upheld = takes_every_trick(state)
        log.steps[self.name] = (seat, len(log.tricks), upheld)
        if upheld:
            state.carry_out(effects.EndPlay(rest_to=seat))

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        return "the contractor may claim, once a hand, when about to lead"

    def text(self, action: int) -> str:
        return "claim"

    def parse(self, text: str) -> int:
        if text.strip().lower() == "claim":
            return CLAIM
        raise ValueError(f"{text!r} is not a claim")

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        claim = log.steps.get(self.name)
        if claim is None:
            return {}
        claimer, after, upheld = claim
        return {self.record_key: {"seat": state.rules.seats[claimer], "after_tricks": after, "upheld": upheld}}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        claim = hand.get(self.record_key)
        return [] if claim is None else [(claim.get("seat"), "claim")]

    def recorded_before(self, hand: Mapping[str, Any], tricks: int) -> list[tuple[str | None, str]]:
        claim = hand.get(self.record_key)
        return self.recorded(hand) if claim is not None and claim.get("after_tricks") == tricks else []

    def disagrees(self, state: GameState, hand: Mapping[str, Any]) -> str | None:
        claim, ruled = hand.get(self.record_key) or {}, state.hand_log.steps.get(self.name)
        if ruled is None or ruled[2] == claim.get("upheld"):
            return None
        verdict = "upheld" if ruled[2] else "wrong: the defence can take a trick"
        return f"the claim after {ruled[1]} tricks is recorded as upheld={claim.get('upheld')} but it is {verdict}"

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        claim = hand.get(self.record_key)
        if claim is None:
            return []
        verdict = "upheld" if claim.get("upheld") else "wrong: the defence could take a trick"
        return [f"{claim.get('seat')} claims the rest after {claim.get('after_tricks')} tricks: {verdict}"]

    def copy_data(self, data: Any) -> Any:
        return data  # a tuple

    def from_sheet(self, text: str, rules: Rules, contract: Contract, contractor: int, side: Sequence[int]) -> Any:
        """A score sheet's ``claim`` cell: ``upheld`` or ``failed`` (a failed claim costs the penalty)."""
        value = text.strip().lower()
        if value not in ("upheld", "failed"):
            raise ValueError(f"{text!r}: a claim is 'upheld' or 'failed' (or left empty)")
        if contract.goal != "at-least":
            raise ValueError(f"a claim in {contract.call}: only a contractor of a contract to take tricks claims")
        return (contractor, 0, value == "upheld")


def wrong_claim(outcome: HandOutcome) -> bool:
    """Whether the contractor claimed the remaining tricks this hand and the claim was not upheld."""
    claim = outcome.steps.get(Claim.name)
    return claim is not None and not claim[2]


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    return [Claim()] if ruleset.play.claims else None


@hookimpl(wrapper=True, trylast=True)
@applies_when(lambda ruleset: ruleset.play.claims)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> Generator[None, list[int] | None,
                                                                                 list[int] | None]:
    """A claim the side could not make good costs it ``play.claim_penalty``, on top of the hand's score."""
    scores = yield
    if scores is None or not wrong_claim(outcome):
        return scores
    scores = list(scores)
    scores[outcome.contractor_team] -= ruleset.play.claim_penalty
    return scores


# --- judging a claim ----------------------------------------------------------------------------

BUDGET = 3_000
"""Positions searched at most before a claim counts as not shown."""


class _OutOfBudget(Exception):
    pass


def takes_every_trick(state: GameState, budget: int = BUDGET) -> bool:
    """Whether the contracting side takes every remaining trick of the hand against any defence."""
    side = state.contracting_side
    memo: dict[tuple[object, ...], bool] = {}
    left = [budget]

    def search(position: GameState) -> bool:
        players = range(position.rules.players)
        key = (tuple(position.hand(s) for s in players), position.trick, position.current_player(), position.led_suit)
        known = memo.get(key)
        if known is not None:
            return known
        left[0] -= 1
        if left[0] < 0:
            raise _OutOfBudget
        ours = position.current_player() in side
        tricks = len(position.hands_log[-1].tricks)
        result = not ours  # the side: no card keeps every trick; the defence: no card wins one
        for action in _strongest_first(position):
            after = position.clone()
            after.apply_unchecked(action)
            log = after.hands_log[-1]
            if len(log.tricks) > tricks and log.tricks[tricks].winner not in side:
                holds = False
            else:  # the hand over (scored on the copy only) with every trick the side's, or play on
                holds = after.phase != Phase.PLAY or search(after)
            if holds == ours:
                result = ours
                break
        memo[key] = result
        return result

    if _defence_holds_a_sure_trick(state):
        return False
    try:
        return search(_searchable(state))
    except _OutOfBudget:
        return False


def _strongest_first(position: GameState) -> list[int]:
    """Plays ordered by how strongly they bid for the trick (the likeliest to settle a position first)."""
    table, led = position.play_table, position.led_suit
    assert table is not None
    row = table.power[led] if led is not None else None

    def strength(action: int) -> int:
        card = action if action < JOKER_LEAD else JOKER_BASE + (action - JOKER_LEAD) // 4
        return (row or table.power[min(table.suit_of[card], 3)])[card]

    plays = [a for a in position.legal_actions() if a < FIRST_STEP_ACTION]  # the cards, not a step's offer
    if table.legal_filter is None and not position.rules.dummies:
        plays = _one_per_run(position, plays)
    return sorted(plays, key=strength, reverse=True)


def _one_per_run(position: GameState, plays: list[int]) -> list[int]:
    """Cards of one suit that no other card still in play separates (in a hand or on the table) are
    interchangeable: whichever is played, the same tricks follow.  Keep the highest of each run."""
    table = position.play_table
    assert table is not None
    mine = set(plays)
    live = [card for seat in range(position.rules.players) for card in position.hand(seat)] + list(position.trick)
    kept: list[int] = []
    for action in plays:
        suit = table.suit_of[action] if action < JOKER_LEAD else 4
        if suit > 3:
            kept.append(action)  # a free joker or a joker led as a suit: its own
            continue
        order = table.power[suit]
        above = [c for c in live if table.suit_of[c] == suit and order[c] > order[action]]
        nearest = min(above, key=order.__getitem__, default=None)
        if nearest is None or nearest not in mine:
            kept.append(action)  # the top of its run
    return kept


def _searchable(state: GameState) -> GameState:
    """A copy holding only the hand in progress (every position searched is a copy of it)."""
    copy = state.clone()
    copy.hands_log = copy.hands_log[-1:]
    return copy


def _defence_holds_a_sure_trick(state: GameState) -> bool:
    """A shortcut for most wrong claims: a defender holds the card that wins whatever suit is led (the
    top trump, a free joker), and every card is played out, so it takes a trick.  Only where the
    tables alone decide tricks (no variant filter, no per-trick end, no face-down dummy cards)."""
    table = state.play_table
    if table is None or table.legal_filter is not None or state.rules.trick_check is not None or state.rules.dummies:
        return False
    power = table.power
    remaining = [card for seat in range(state.rules.players) for card in state.hand(seat)]
    tops = {max(remaining, key=power[led].__getitem__) for led in range(4)}
    if len(tops) != 1:
        return False
    top = tops.pop()
    if any(power[led][top] <= power[led][card] for led in range(4) for card in remaining if card != top):
        return False  # a tie for the top: no sure trick
    return not any(top in state.hand(seat) for seat in state.contracting_side)
