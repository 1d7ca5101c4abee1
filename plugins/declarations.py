"""C6, C7: after the exchange the contractor of a partnership may call slam (“500 (juego de cartas)”: at the levels the
ruleset lists, worth an eight-bid in the same suit, every trick to take) or declare (play for every
trick); the partner then sits out and first passes the contractor a card, which the contractor pays
for with one more discard.  Two steps of the hand (``fivehundred.rules.steps``), before the nomination.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fivehundred.rules import effects
from fivehundred.rules.cards import card_face, card_str, parse_card
from fivehundred.rules.markers import hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step, card_position, contractor_of, holder_of
from fivehundred.rules.tables import Contract

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog
    from fivehundred.rules.manager import Rules

NO_DECLARATION, SLAM, DECLARE = 600, 601, 602
GIVE = 700
"""Action ids: ``GIVE + card`` passes that card to the contractor."""

_WORDS = {NO_DECLARATION: "no declaration", SLAM: "slam", DECLARE: "declare"}
_RECORDED = {NO_DECLARATION: "none", SLAM: "slam", DECLARE: "declare"}


class Declaration(Step):
    """The contractor's choice (``HandLog.steps["declaration"]``: ``slam``, ``declare`` or ``none``)."""

    scored = True
    """A slam call or a declaration changes the contract after the auction (a sheet's ``declaration``)."""
    sheet_column = "declaration"

    name = "declaration"
    order = 300
    actions = range(NO_DECLARATION, DECLARE + 1)
    record_key = "declaration"
    rule = "C6/C7: slam at the listed levels, declare where the ruleset allows it"

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        contract = log.contract
        if self.name in log.steps or contract is None or contract.goal != "at-least" or log.contractor < 0:
            return None
        if len(state.contracting_side) < 2 or not self._offered(state, contract)[1:]:
            return None
        return log.contractor

    def _offered(self, state: GameState, contract: Contract) -> list[int]:
        return _offered(state.rules.ruleset, contract)

    def legal(self, state: GameState, seat: int) -> list[int]:
        contract = state.hand_log.contract
        assert contract is not None
        return self._offered(state, contract)

    def apply(self, state: GameState, seat: int, action: int) -> None:
        log = state.hand_log
        c = log.contract
        assert c is not None
        log.steps[self.name] = _RECORDED[action]
        if action != NO_DECLARATION:
            state.carry_out(effects.SetContract(_declared(c, action, state.rules)))

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        return "this declaration is not offered for this contract"

    def text(self, action: int) -> str:
        return _WORDS[action]

    def parse(self, text: str) -> int:
        words = text.lower().split()
        return {"slam": SLAM, "declare": DECLARE}.get(words[-1] if words else "", NO_DECLARATION)

    def kind(self, action: int) -> str:
        return "declare"

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        return {self.record_key: log.steps[self.name]} if self.name in log.steps else {}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(None, str(hand[self.record_key]))] if self.record_key in hand else []

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        made = hand.get(self.record_key)
        if made is None:
            return []
        who = contractor_of(hand)
        return [{"slam": f"{who} calls slam", "declare": f"{who} declares: every trick to take",
                 "none": f"{who} makes no declaration"}.get(str(made), f"{who} declares {made}")]

    def copy_data(self, data: Any) -> Any:
        return data

    def from_sheet(self, text: str, rules: Rules, contract: Contract, contractor: int, side: Sequence[int]) -> Any:
        """A score sheet's ``declaration`` cell: ``slam``, ``declare`` or ``none``, where it is offered."""
        word = text.strip().lower()
        action = {"slam": SLAM, "declare": DECLARE, "none": NO_DECLARATION}.get(word)
        if action is None:
            raise ValueError(f"{text!r}: a declaration is 'slam', 'declare' or 'none'")
        if action != NO_DECLARATION and (contract.goal != "at-least" or len(side) < 2
                                         or action not in _offered(rules.ruleset, contract)):
            raise ValueError(f"{word} is not offered on {contract.call}")
        return _RECORDED[action]

    def sheet_contract(self, data: Any, contract: Contract, rules: Rules) -> Contract:
        action = next(a for a, word in _RECORDED.items() if word == data)
        return contract if action == NO_DECLARATION else _declared(contract, action, rules)

    def public_size(self, rules: Rules) -> int:
        return len(_RECORDED)  # the contractor's declaration, one of them

    def public_indices(self, public: Any, rules: Rules) -> Iterable[int]:
        return [list(_RECORDED.values()).index(public)]


def _offered(ruleset: Ruleset, contract: Contract) -> list[int]:
    d = ruleset.declarations
    return [NO_DECLARATION] + ([SLAM] if contract.tricks in d.slam else []) + ([DECLARE] if d.declare else [])


def _declared(c: Contract, action: int, rules: Rules) -> Contract:
    """The contract once the contractor has called slam or declared."""
    d = rules.ruleset.declarations
    everything = rules.hand_size
    if action == SLAM:
        # The encyclopedia article: the slam is worth an eight-bid in the same suit (so underbidding to call one gains
        # nothing); failing it loses the bid's own value plus the penalty.
        return dataclasses.replace(
            c, tricks=everything, partner_plays=False, value=_next_level_value(rules, c),
            fail_penalty=d.slam_penalty, fail_value=c.value if c.fail_value is None else c.fail_value)
    return dataclasses.replace(c, tricks=everything, partner_plays=False, fail_value=d.declare_value)


class Gift(Step):
    """After a slam call or a declaration the partner passes the contractor a card
    (``HandLog.steps["gift"]``: the card)."""

    name = "gift"
    order = 400
    actions = range(GIVE, GIVE + 100)
    record_key = "given"
    rule = "C6/C7: the partner passes one of its own cards"

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        if self.name in log.steps or log.steps.get(Declaration.name) not in ("slam", "declare"):
            return None
        return _partner(state, log.contractor)

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [GIVE + c for c in state.hand(seat)]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        card = action - GIVE
        state.carry_out(effects.MoveCard(card, seat, state.hand_log.contractor), effects.OweDiscards(1))
        state.hand_log.steps[self.name] = card

    def why_illegal(self, state: GameState, seat: int, action: int) -> str:
        return "the card is not in the partner's hand"

    def text(self, action: int) -> str:
        return f"give {card_str(action - GIVE)}"

    def parse(self, text: str) -> int:
        return GIVE + parse_card(text.split()[-1])

    def kind(self, action: int) -> str:
        return "give"

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        return {self.record_key: card_str(log.steps[self.name])} if self.name in log.steps else {}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        return [(None, str(hand[self.record_key]))] if self.record_key in hand else []

    def public(self, state: GameState, log: HandLog) -> Any:
        return None  # only the contractor and the partner see the card

    def private(self, state: GameState, log: HandLog, seat: int) -> Any:
        card = log.steps.get(self.name)
        return card if card is not None and seat in (log.contractor, _partner(state, log.contractor)) else None

    def private_size(self, rules: Rules) -> int:
        return len(rules.deck)  # the card given

    def private_indices(self, private: Any, rules: Rules) -> Iterable[int]:
        return [card_position(rules, private)]

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        given = hand.get(self.record_key)
        if given is None:
            return []
        giver = holder_of(hand, str(given)) or "the partner"
        return [f"{giver} gives {contractor_of(hand)} the {card_face(str(given))}"]

    def copy_data(self, data: Any) -> Any:
        return data


def _partner(state: GameState, contractor: int) -> int:
    """The partner who gives the card: the first seat of the contracting side on the contractor's left."""
    n, side = state.rules.players, state.contracting_side
    return next((contractor + k) % n for k in range(1, n) if (contractor + k) % n in side)


def _next_level_value(rules: Rules, contract: Contract) -> int:
    """The value of the bid one level up in the same denomination (the contract's own if none)."""
    return next((r.value for r in rules.ladder if r.kind == contract.kind and r.trump == contract.trump
                 and r.tricks == contract.tricks + 1), contract.value)


def declaration(log: HandLog) -> str | None:
    """The contractor's declaration this hand (``slam``, ``declare``, ``none``), or None when none was asked."""
    made: str | None = log.steps.get(Declaration.name)
    return made


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    d = ruleset.declarations
    return [Declaration(), Gift()] if d.slam or d.declare else None
