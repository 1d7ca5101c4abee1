"""R2, breach (“500 (juego de cartas)”): before play on a 7+ contract a defender may call breach, a bet that the
defence will beat the contract by one trick more than defeating it needs (5 tricks against a 7-bid,
2 against a 10-bid; against any misère, the misère side taking 3 tricks).  The breach is paid on top
of the hand's usual scores:

- win/lose: the contract is made → the contractors score it, the breaching side loses ``breach``;
- lose/lose: the contract fails but the breach is not reached → both lose;
- lose/win: the breach is reached → the contractors lose the contract, the breaching side gains ``breach``.

Nobody wins or loses the game on breach points; a failed breacher, and a seven-bidder who was breached,
sit out the next auction.

The call is a step of the hand (``BreachCall``, when ``ruleset.scoring.breach`` is not null), after the
nomination; the hand's outcome carries its calls (``HandOutcome.steps["breach"]``), and the wrappers below
add the breach to the scores that the other scoring plugins decided.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from fivehundred.rules import effects
from fivehundred.rules.markers import applies_when, hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import NOMINATION_ORDER, Step
from fivehundred.rules.tables import Contract, GameResult, HandOutcome

from . import scoring

if TYPE_CHECKING:
    from fivehundred.engine.state import GameState, HandLog
    from fivehundred.rules.manager import Rules

MISERE_BREACH = 3
"""The encyclopedia article: against misère, open misère and double misère a breach is always 3 tricks, taken by the
misère side; a misère that is breached is therefore played to its last trick (the step asks for it)."""


@hookimpl(wrapper=True, trylast=True)  # the innermost wrapper: other plugins' wrappers see the breach
@applies_when(lambda ruleset: ruleset.scoring.breach is not None)
def fivehundred_score_hand(ruleset: Ruleset, outcome: HandOutcome) -> Generator[None, list[int] | None,
                                                                                 list[int] | None]:
    scores = yield
    if scores is None:
        return scores
    return [a + b for a, b in zip(scores, breach_points(ruleset, outcome), strict=True)]


@hookimpl(wrapper=True, trylast=True)
@applies_when(lambda ruleset: ruleset.scoring.breach is not None)
def fivehundred_game_result(ruleset: Ruleset, totals: Sequence[int],
                            outcome: HandOutcome) -> Generator[None, GameResult | None, GameResult | None]:
    """The encyclopedia article: a breach is not a bid, so nobody wins or loses ("goes out the back door") on the
    points a breach won or lost: the built-in end of the game is judged on the totals without this hand's breach."""
    result = yield
    points = breach_points(ruleset, outcome)
    if not any(points):
        return result
    return scoring.fivehundred_game_result(ruleset, [t - p for t, p in zip(totals, points, strict=True)], outcome)


@hookimpl(wrapper=True, trylast=True)
def fivehundred_auction_rules(ruleset: Ruleset, ladder: Sequence[Contract]) -> Generator[None, Any, Any]:
    """The encyclopedia article's bars after a breach, for the next auction (see ``breach_bars``)."""
    auction = yield
    if auction is not None and ruleset.scoring.breach is not None:
        auction.bars.append(partial(breach_bars, ruleset.players.team_of()))
    return auction


def breach_points(ruleset: Ruleset, outcome: HandOutcome) -> list[int]:
    """What the breach adds to each team's score this hand: ``breach`` to the breaching side when the
    breach is reached, ``-breach`` when not; nothing without a breach call."""
    points = [0] * len(ruleset.players.teams)
    value = ruleset.scoring.breach
    breacher = breaching_seat(outcome.steps)
    if value is not None and breacher >= 0:
        team_of = ruleset.players.team_of()
        points[team_of[breacher]] = value if breach_reached(outcome, team_of) else -value
    return points


def breach_bars(team_of: Sequence[int], outcome: HandOutcome) -> frozenset[int]:
    """The encyclopedia article: a player whose breach call fails (win/lose, lose/lose) may not bid in the next
    round, nor may the player who bid a seven-trick contract that was breached (lose/win)."""
    breacher = breaching_seat(outcome.steps)
    if breacher < 0:
        return frozenset()
    if not breach_reached(outcome, team_of):
        return frozenset({breacher})
    seven = outcome.contract.goal == "at-least" and outcome.contract.tricks == 7
    return frozenset({outcome.contractor}) if seven else frozenset()


def tricks_to_breach(contract: Contract, hand_size: int) -> int:
    """Tricks a breach needs: the defenders' tricks one more than it takes to defeat the contract;
    in misère, the misère side's tricks."""
    if contract.goal == "none":
        return MISERE_BREACH
    return hand_size - contract.tricks + 2


def breach_reached(outcome: HandOutcome, team_of: Sequence[int]) -> bool:
    """Whether the tricks of the defenders (every seat off the contracting side) reach the breach;
    in misère, whether the misère side's do."""
    side_tricks = outcome.side_tricks
    counted = side_tricks if outcome.contract.goal == "none" else outcome.tricks_played - side_tricks
    return counted >= tricks_to_breach(outcome.contract, outcome.hand_size)



NO_BREACH, BREACH = 800, 801


class BreachCall(Step):
    """Each defender in turn, from the contractor's left, may call breach on a 7+ contract; one call ends
    the round (``HandLog.steps["breach"]``: ``(seat, called)`` for each defender asked)."""

    name = "breach"
    order = NOMINATION_ORDER + 100
    actions = range(NO_BREACH, BREACH + 1)
    record_key = "breach_calls"
    rule = "R2: each defender in turn may call breach before play"

    def actor(self, state: GameState) -> int | None:
        log = state.hand_log
        if log.contract is None or log.contractor < 0 or not breachable(log.contract):
            return None
        calls = log.steps.get(self.name, ())
        if any(called for _, called in calls):
            return None
        n, side, dummies = state.rules.players, state.contracting_side, state.rules.dummies
        asked = {seat for seat, _ in calls}
        defenders = [(log.contractor + k) % n for k in range(1, n) if (log.contractor + k) % n not in side]
        return next((s for s in defenders if s not in asked and s not in dummies), None)

    def legal(self, state: GameState, seat: int) -> list[int]:
        return [NO_BREACH, BREACH]

    def apply(self, state: GameState, seat: int, action: int) -> None:
        log = state.hand_log
        log.steps.setdefault(self.name, []).append((seat, action == BREACH))
        if action == BREACH and log.contract is not None and log.contract.goal == "none":
            state.carry_out(effects.PlayEveryTrick())  # the misère side's third trick decides the breach

    def text(self, action: int) -> str:
        return "breach" if action == BREACH else "no breach"

    def parse(self, text: str) -> int:
        return BREACH if text.lower().split() == ["breach"] else NO_BREACH

    def write(self, state: GameState, log: HandLog) -> dict[str, Any]:
        seats = state.rules.seats
        calls = log.steps.get(self.name)
        return {self.record_key: [{"seat": seats[s], "breach": c} for s, c in calls]} if calls else {}

    def recorded(self, hand: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        entries = hand.get(self.record_key, [])
        return [(entry["seat"], "breach" if entry["breach"] else "no breach") for entry in entries]

    def unrecorded(self, state: GameState, seat: int) -> str | None:
        return "no breach"  # a record may leave out the defenders who did not call

    def show(self, hand: Mapping[str, Any]) -> list[str]:
        calls = hand.get(self.record_key)
        if not calls:
            return []
        return ["breach: " + ", ".join(f"{c.get('seat')} {'calls breach' if c.get('breach') else 'passes'}"
                                       for c in calls)]

    def public(self, state: GameState, log: HandLog) -> Any:
        return tuple(log.steps[self.name])

    def copy_data(self, data: Any) -> Any:
        return list(data)

    scored = True
    sheet_column = "breach"

    def from_sheet(self, text: str, rules: Rules, contract: Contract, contractor: int, side: Sequence[int]) -> Any:
        """A score sheet's ``breach`` cell: the defender who called breach."""
        seats = rules.seats
        if text not in seats:
            raise ValueError(f"{text!r} is not a seat ({' '.join(seats)}): the cell names who called breach")
        seat = seats.index(text)
        if seat in side:
            raise ValueError(f"{text} is on the contracting side: a defender calls breach")
        if not breachable(contract):
            raise ValueError(f"breach on {contract.call}: only on a contract of seven tricks or more, or a misère")
        return [(seat, True)]

    def plays_every_trick(self, data: Any, contract: Contract) -> bool:
        return contract.goal == "none" and any(called for _, called in data)  # the misère side's third trick

    def public_size(self, rules: Rules) -> int:
        return 2 * rules.players  # for each seat: asked and passed, asked and called breach

    def public_indices(self, public: Any, rules: Rules) -> Iterable[int]:
        return [2 * seat + int(called) for seat, called in public]


def breachable(contract: Contract) -> bool:
    """The encyclopedia article: breach may be called on a contract of seven tricks or more, and on any misère
    (open and double misère too: they are called over a seven, rule 10); not on Hi/Lo."""
    return contract.goal == "none" or (contract.goal == "at-least" and contract.tricks >= 7)


def breaching_seat(steps: Mapping[str, Any]) -> int:
    """The defender who called breach this hand, or -1 (from a hand's step data)."""
    return next((seat for seat, called in steps.get(BreachCall.name, ()) if called), -1)


@hookimpl
def fivehundred_hand_steps(ruleset: Ruleset) -> list[Step] | None:
    return [BreachCall()] if ruleset.scoring.breach is not None else None


@hookimpl
def fivehundred_check_ruleset(ruleset: Ruleset) -> list[tuple[str, str]]:
    breach = ruleset.scoring.breach
    if breach is not None and breach <= 0:
        return [("scoring.breach", f"the breach value {breach} must be above 0: a breach call wins or loses it (R2)")]
    return []
