"""A game record as a person reads a game: ``show_records`` (``fivehundred show``).

Each hand: the deal by seat with suit symbols, the kitty, the auction in rounds, the contract, the
discards and the nomination, each trick with its leader and winner, the tricks each seat won and
the score after the hand.  It reads the record alone (seats, teams and values are all in it), so a
record imported from PTN reads the same as a simulated one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from fivehundred.rules.cards import (
    RANK_TEXT,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    call_face,
    card_face,
    card_str,
    is_joker,
    parse_card,
    rank_of,
    suit_of,
)
from fivehundred.rules.errors import PluginError, RecordError
from fivehundred.rules.manager import compile_rules
from fivehundred.rules.printable import printable
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import DISCARDS_ORDER, NOMINATION_ORDER, Step, field_text

from .ptn import clockwise, seat_rows
from .reading import records_in
from .rulesets import CONTENT, RecordRulesetError, RecordRulesets, RulesetRefs, load_rulesets

SUIT_ORDER = (0, 3, 1, 2)
"""Suits as a hand is shown: ♠ ♥ ♣ ♦, the colours alternating."""


__all__ = ["call_face", "card_face", "hand_face", "show_game", "show_hand", "show_records"]

ENGINE_FIELDS = frozenset({"number", "dealer", "hands", "kitty", "dead", "misdeal", "calls", "contract", "discards",
                           "nomination", "tricks", "outcome", "tricks_won", "scores", "totals", "unfinished"})
"""The fields of a hand the engine itself records; the others are the ruleset's steps' (``Step.record_key``)."""


def hand_face(cards: Iterable[str]) -> str:
    """A hand by suit, high to low: ``♠ A 10 7  ♥ K 4  ♣ —  ♦ Q 9  JK``."""
    held = [parse_card(c) for c in cards]
    parts = []
    for suit in SUIT_ORDER:
        ranks = sorted((c for c in held if not is_joker(c) and suit_of(c) == suit), key=rank_of, reverse=True)
        parts.append(SUIT_SYMBOLS[suit] + " " + (" ".join(RANK_TEXT[rank_of(c)] for c in ranks) or "—"))
    jokers = [c for c in held if is_joker(c)]
    if jokers:
        parts.append(" ".join(card_str(c) for c in sorted(jokers)))
    return "  ".join(parts)


def _by_team(values: dict[str, Any]) -> str:
    return ", ".join(f"{team} {points}" for team, points in values.items())


def show_hand(h: dict[str, Any], totals_before: dict[str, int] | None = None,
              steps: Sequence[Step] = ()) -> Iterator[str]:
    """The lines of one hand of a record; ``steps``, the ruleset's, print their own fields (``Step.show``),
    each where it happens in the hand; fields no step claims print as recorded (``field_text``)."""
    seats = list(h["hands"])
    mine = _Steps(h, steps)
    yield f"Hand {h['number']} · dealer {h['dealer']}" + (
        f" · totals before: {_by_team(totals_before)}" if totals_before else "")
    width = max(len(s) for s in seats)
    for seat in seats:
        yield f"  {seat:<{width}}  {hand_face(h['hands'][seat])}"
    yield f"  kitty: {' '.join(card_face(c) for c in h['kitty'])}" if h["kitty"] else "  no kitty"
    if h.get("dead"):
        yield f"  dead hand: {' '.join(card_face(c) for c in h['dead'])}"
    yield from mine.lines(lambda step: step.stage == "before-auction")
    yield from _auction(h, seats)
    if h.get("misdeal"):
        yield "  misdeal: the same dealer deals again"
        return
    contract = h.get("contract")
    if contract is None:
        if "unfinished" not in h:
            yield "  everybody passed: nothing is scored (rule 13)"
    else:
        who = contract.get("contractor")
        yield f"  contract: {call_face(contract['call'])}" + (f" by {who}" if who else " (nobody bid)") + \
            f", worth {contract['value']}"
        exchange = [step for step in steps if step.stage == "exchange"]
        yield from mine.lines(lambda step: step in exchange and step.order < DISCARDS_ORDER)
        if h.get("discards"):
            yield f"  {who} takes the kitty and discards {' '.join(card_face(c) for c in h['discards'])}"
        yield from mine.lines(lambda step: step in exchange and step.order < NOMINATION_ORDER)
        if h.get("nomination") is not None:
            symbol = SUIT_SYMBOLS[SUIT_LETTERS.index(h["nomination"])]
            yield f"  {who} nominates the joker as {symbol}"
        yield from mine.lines(lambda step: step in exchange)
        yield from mine.unclaimed()
        yield from _tricks(h, seats)
        yield from mine.lines(lambda step: True)
    unfinished = h.get("unfinished")
    if unfinished is not None:
        yield f"  the record stops here: {unfinished['stops']}"
        return
    if h.get("tricks_won") and contract is not None:
        yield "  tricks won: " + ", ".join(f"{seat} {n}" for seat, n in h["tricks_won"].items())
    outcome = h.get("outcome")
    if outcome is not None and outcome.get("made") is not None and contract is not None:
        yield f"  {'-'.join(outcome['side'])} {'made' if outcome['made'] else 'failed'} {call_face(contract['call'])}"
    if h.get("scores"):
        yield f"  score: {_by_team(h['scores'])} · totals: {_by_team(h['totals'])}"


def _auction(h: dict[str, Any], seats: list[str]) -> Iterator[str]:
    calls = h.get("calls") or []
    if not calls:
        return
    first = calls[0]["seat"]
    order = clockwise(seats, first)
    rows = seat_rows([(c["seat"], call_face(c["call"])) for c in calls], seats, first, empty="")
    width = max(6, *(len(cell) + 2 for row in rows for cell in row))
    yield "  auction:  " + "".join(f"{s:<{width}}" for s in order).rstrip()
    for number, row in enumerate(rows, 1):
        yield f"  round {number:<2}  " + "".join(f"{cell:<{width}}" for cell in row).rstrip()


class _Steps:
    """The steps' fields of one hand, each printed once, where it happens in the hand."""

    def __init__(self, h: dict[str, Any], steps: Sequence[Step]):
        self.hand = h
        self.left = [step for step in steps if step.record_key]
        keys = {step.record_key for step in self.left}
        self.others = {key: value for key, value in h.items() if key not in ENGINE_FIELDS and key not in keys}

    def lines(self, due: Callable[[Step], bool]) -> Iterator[str]:
        """The lines of the steps not yet printed that are ``due`` now, in the ruleset's order."""
        now = [step for step in self.left if due(step)]
        self.left = [step for step in self.left if step not in now]
        for step in now:
            yield from (f"  {line}" for line in step.show(self.hand))

    def unclaimed(self) -> Iterator[str]:
        """Fields no step of the ruleset claims (a plugin not installed, a ruleset not found), as recorded."""
        for key, value in self.others.items():
            if value not in (None, "", [], {}):
                yield f"  {key.replace('_', ' ')}: {field_text(value)}"


def _tricks(h: dict[str, Any], seats: list[str]) -> Iterator[str]:
    tricks = list(h.get("tricks") or [])
    partial = (h.get("unfinished") or {}).get("trick")
    contract = h.get("contract") or {}
    contractor = contract.get("contractor")
    side = (h.get("outcome") or {}).get("side") or []
    sitting = set()
    if tricks and len(tricks[0]["cards"]) < len(seats) and contractor is not None:
        sitting = {s for s in side if s != contractor}
    if sitting:
        yield f"  {', '.join(sorted(sitting))} sits the hand out"
    for number, trick in enumerate([*tricks, *([partial] if partial else [])], 1):
        order = [s for s in clockwise(seats, trick["leader"]) if s not in sitting]
        cards = "  ".join(f"{seat} {card_face(card):<4}" for seat, card in zip(order, trick["cards"], strict=False))
        won = f"→ {trick['winner']}" if "winner" in trick else "…"
        yield f"  trick {number:<2}  {cards}  {won}"


def show_game(record: dict[str, Any], *, hand: int | None = None, title: str = "",
              ruleset: Ruleset | RecordRulesets | None = None,
              extra: Callable[[dict[str, Any]], Iterable[str]] | None = None) -> Iterator[str]:
    """The lines of one game record (only hand number ``hand`` when given).  The steps of ``ruleset`` (by
    default the ruleset the record carries or names, if there is one: ``RecordRulesets``) print their fields
    (``Step.show``); ``extra(hand)`` gives lines to print after each hand (``show --dd``: its double-dummy
    table)."""
    meta = record.get("ruleset") or {}
    about = [f"ruleset {meta.get('name')}"]
    if isinstance(ruleset, Ruleset):
        steps = _steps(ruleset)
    else:
        steps, why = _record_steps(record, ruleset or RecordRulesets())
        if why is not None and meta.get(CONTENT) is not None:  # not for a name only: its file was not given
            about[0] += f" (the ruleset it carries is not read: {why.field} does not check; validate says why)"
    if record.get("seed") is not None:
        about.append(f"seed {record['seed']}" + (f", game {record['game']}" if record.get("game") is not None else ""))
    players = record.get("players")
    if players:
        about.append("players " + ", ".join(f"{seat} {name}" for seat, name in players.items()))
    yield (title + " · " if title else "") + " · ".join(about)
    start = record.get("start") or {}
    totals = dict(start.get("totals") or {})
    if start:
        where = ", ".join(f"{k} {v}" for k, v in (("hand", start.get("number")),) if v)
        yield f"starts at {_by_team(totals) or 'the beginning'}" + (f" ({where})" if where else "")
    hands = record["hands"]
    if hand is not None and not any(h.get("number") == hand for h in hands):
        numbers = [h.get("number") for h in hands]
        raise RecordError(f"{title or 'the record'}: no hand {hand} (hands {numbers[0]}–{numbers[-1]})" if numbers
                          else f"{title or 'the record'}: no hand {hand}: the record holds no hand")
    for h in hands:
        if hand is None or h.get("number") == hand:
            yield ""
            yield from show_hand(h, totals or None, steps)
            if extra is not None:
                yield from extra(h)
        if h.get("totals"):
            totals = dict(h["totals"])
    result = record.get("result")
    if hand is None:
        yield ""
        if result is not None:
            yield f"{result['winner']} wins: {result['reason']} · final totals: {_by_team(result['totals'])}"
        else:
            yield "the game is not over" + (f" · totals: {_by_team(totals)}" if totals else "")


def _steps(ruleset: Ruleset) -> tuple[Step, ...]:
    return tuple(compile_rules(ruleset).steps)  # compiled once per ruleset (``compile_rules``)


def _record_steps(record: dict[str, Any],
                  rulesets: RecordRulesets) -> tuple[tuple[Step, ...], RecordRulesetError | None]:
    """The steps of the ruleset ``record`` carries or names; none when there is no such ruleset or it cannot be
    trusted (its fields then print as recorded), and why."""
    try:
        return _steps(rulesets(record)), None
    except RecordRulesetError as e:
        return (), e
    except (RecordError, PluginError) as e:
        return (), RecordRulesetError(str(e), "ruleset")


def show_records(paths: Iterable[str | Path], *, game: int | None = None, hand: int | None = None,
                 ruleset: RulesetRefs = None) -> str:
    """The games of record files as text; ``game`` (from 1, in file order) picks one, ``hand`` one of its
    hands by number; ``ruleset``: rulesets given for the records of their names (a lone one for every record),
    else each record's own (``RecordRulesets``), print their steps' fields (``show_game``).  Raises
    ``RecordError`` naming ``file:line`` for a line that is not a record."""
    return show_records_counted(paths, game=game, hand=hand, ruleset=ruleset)[0]


def show_records_counted(paths: Iterable[str | Path], *, game: int | None = None, hand: int | None = None,
                         ruleset: RulesetRefs = None,
                         extra: Callable[[int, dict[str, Any]], Iterable[str]] | None = None) -> tuple[str, int]:
    """``show_records``' text and the number of games in the files (``fivehundred show`` says how to choose
    another); ``extra(game, hand)`` gives lines to print after each hand (``show_game``)."""
    lines: list[str] = []
    index = 0
    rulesets = RecordRulesets(load_rulesets(ruleset))
    for _, source, record in records_in(paths):
        index += 1
        if game is not None and index != game:
            continue
        try:
            if lines:
                lines.append("")
            after = None if extra is None else (lambda h, i=index: extra(i, h))
            lines.extend(printable(line) for line in show_game(record, hand=hand, title=f"game {index} ({source})",
                                                               ruleset=rulesets, extra=after))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"{source}: not a game record: missing or wrong field {e}") from None
    if game is not None and index < game:
        raise RecordError(f"no game {game}: {'the files hold ' + str(index) if index else 'no game in the files'}")
    return "\n".join(lines) + "\n", index
