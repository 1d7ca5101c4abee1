"""PTN from game records: ``export_ptn``, the other way from ``fivehundred.records.ptn_import``.

Each hand becomes one PTN record, as Trickster Cards writes them: the options of the game
(``GameOptionsJson`` and the ``Event`` summary) when Trickster can express its ruleset, else this
project's ``Ruleset`` tag (and, for a ruleset not bundled, ``RulesetJson``: the resolved ruleset a record
carries); ``GameScores`` after the hand; the deal from the dealer; the auction in
rows of seats from the first caller; the exchange; the play in fixed seat columns from the first
leader.  What PTN has no tag for travels in this project's own tags (``Board``, ``Seed``, ``Game``,
``Nomination``, ``Fields``) and a joker played with a named suit carries it (``JH:S``), so that
``import`` reads the file back to the same records.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from fivehundred.rules.cards import JOKER_BASE, parse_card, rank_of
from fivehundred.rules.errors import FiveHundredError, RecordError
from fivehundred.rules.manager import Rules, compile_rules
from fivehundred.rules.outputs import check_outputs, replace_file
from fivehundred.rules.printable import printable
from fivehundred.rules.ruleset import Ruleset

from .ptn import BANNER, call_text, card_text, clockwise, hand_text, player_tag, ptn_seats, seat_rows, tag_line
from .reading import records_in
from .rulesets import (
    CONTENT,
    RecordRulesetError,
    RecordRulesets,
    RulesetRefs,
    hash_problem,
    load_rulesets,
    ruleset_header,
)
from .trickster import ruleset_options


def _ruleset(record: dict[str, Any], rulesets: RecordRulesets, source: str) -> Ruleset:
    """The ruleset ``record`` was played under: given, carried or shipped (``RecordRulesets``), its hash checked;
    a name the record holds is never read as a path."""
    try:
        ruleset = rulesets(record)
    except RecordRulesetError as e:
        raise RecordError(f"{source}: ruleset: {e}") from None
    problem = hash_problem(record, ruleset)
    if problem is not None:
        raise RecordError(f"{source}: ruleset: {problem}")
    return ruleset


def _check_seats(rules: Rules, source: str) -> dict[str, str]:
    """PTN's name of each seat; a ``RecordError`` when PTN cannot write the ruleset's games."""
    names = ptn_seats(rules.seats)
    problem = None
    if names is None:
        problem = f"PTN has no seats for {rules.players} players"
    elif rules.dummies:
        problem = "PTN has no place for a dummy's face-down cards"
    elif any(c < JOKER_BASE and rank_of(c) in (11, 12, 13) for c in rules.deck):
        problem = "PTN has no letters for the ranks 11, 12 and 13"
    if problem is not None:
        raise RecordError(f"{source}: ruleset {rules.ruleset.name}: {problem}")
    assert names is not None
    return dict(zip(rules.seats, names, strict=True))


def game_ptn(record: dict[str, Any], ruleset: Ruleset, source: str = "record") -> Iterator[str]:
    """The PTN lines of one game record, a record per hand."""
    rules = compile_rules(ruleset)
    names = _check_seats(rules, source)
    options = ruleset_options(ruleset)
    start = record.get("start") or {}
    totals = dict(start.get("totals") or dict.fromkeys(rules.team_names, 0))
    for h in record["hands"]:
        if h.get("claim") is not None:
            raise RecordError(f"{source}: hand {h.get('number')}: PTN has no way to write a claim")
        if h.get("totals"):
            totals = h["totals"]
        yield from _hand_ptn(record, h, rules, options, totals, names)


def _hand_ptn(record: dict[str, Any], h: dict[str, Any], rules: Rules, options: Any,
              totals: dict[str, int], names: dict[str, str]) -> Iterator[str]:
    """One hand as a PTN record; ``names``: PTN's name of each seat."""
    seats = tuple(names[s] for s in rules.seats)
    team = {names[s]: rules.team_names[rules.team_of[i]] for i, s in enumerate(rules.seats)}
    ruleset = rules.ruleset
    yield BANNER
    if options is not None:
        yield tag_line("Event", f"fivehundred: 500 - {options.summary()}")
    else:
        yield tag_line("Event", f"fivehundred: 500 - {ruleset.name}")
    yield tag_line("GameCode", "FiveHundred")
    if options is not None:
        yield tag_line("GameOptionsJson", options.options_json())
    else:
        yield tag_line("Ruleset", f"{ruleset.name} {ruleset.content_hash}")
        carried = ruleset_header(ruleset).get(CONTENT)
        if carried is not None:  # a ruleset not bundled travels with its games, as in their records
            yield tag_line("RulesetJson", json.dumps(carried, ensure_ascii=False, separators=(",", ":")))
    yield tag_line("Board", str(h["number"]))
    if record.get("seed") is not None:
        yield tag_line("Seed", str(record["seed"]))
    if record.get("game") is not None:
        yield tag_line("Game", str(record["game"]))
    yield tag_line("GameScores", "S:" + " ".join(str(totals[team[s]]) for s in clockwise(seats, "S")))
    players = record.get("players") or {}
    for seat in rules.seats:
        if seat in players:
            yield tag_line(player_tag(names[seat]), players[seat])
    dealer = names[h["dealer"]]
    yield tag_line("Dealer", dealer)
    ranks = {suit: [c % 20 for c in rules.deck if c < 80 and c // 20 == suit] for suit in range(4)}
    for suit in ranks:
        ranks[suit].sort(reverse=True)
    by_name = {names[s]: cards for s, cards in h["hands"].items()}
    hands = [hand_text((parse_card(c) for c in by_name[s]), ranks) for s in clockwise(seats, dealer)]
    yield tag_line("Deal", f"{dealer}:" + " ".join(hands))
    yield tag_line("Undealt", "".join(card_text(parse_card(c)) for c in h["kitty"]))
    contract = h.get("contract")
    if contract is not None and contract.get("contractor") is not None:
        yield tag_line("Declarer", names[contract["contractor"]])
        yield tag_line("Contract", call_text(contract["call"]))
    yield from _auction(h, names)
    if contract is not None and contract.get("contractor") is not None and h.get("discards"):
        taker = names[contract["contractor"]]
        yield tag_line("CardsAdded", f"{taker}:" + "".join(card_text(parse_card(c)) for c in h["kitty"]))
        yield tag_line("CardsRemoved", f"{taker}:" + "".join(card_text(parse_card(c)) for c in h["discards"]))
    if h.get("nomination") is not None:
        yield tag_line("Nomination", h["nomination"])
    fields = {step.record_key: h[step.record_key] for step in rules.steps
              if step.record_key and h.get(step.record_key) is not None}
    for key in ("passed", "dead"):  # C1's cards passed to the partner, P3's dead hand
        if h.get(key):
            fields[key] = h[key]
    if fields:
        yield tag_line("Fields", json.dumps(fields, ensure_ascii=False, separators=(",", ":")))
    yield from _play(h, rules, names)
    yield ""


def _auction(h: dict[str, Any], names: dict[str, str]) -> Iterator[str]:
    calls = h.get("calls") or []
    if not calls:
        return
    first = names[calls[0]["seat"]]
    yield tag_line("Auction", first)
    plays = [(names[c["seat"]], call_text(c["call"])) for c in calls]
    yield from (" ".join(row) for row in seat_rows(plays, list(names.values()), first))


def _play(h: dict[str, Any], rules: Rules, names: dict[str, str]) -> Iterator[str]:
    tricks = list(h.get("tricks") or [])
    unfinished = (h.get("unfinished") or {}).get("trick")
    if unfinished is not None:
        tricks.append(unfinished)
    if not tricks:
        return
    seats = rules.seats
    first = tricks[0]["leader"]
    yield tag_line("Play", names[first])
    order = clockwise(seats, first)  # the columns, as the record's seats
    sitting = _sitting_out(h, rules)
    for trick in tricks:
        row = ["-"] * len(order)
        players = (s for s in clockwise(seats, trick["leader"]) if s not in sitting)
        for card, seat in zip(trick["cards"], players, strict=False):
            text, _, named = card.partition(":")
            row[order.index(seat)] = card_text(parse_card(text)) + (f":{named}" if named else "")
        yield " ".join(row)


def _sitting_out(h: dict[str, Any], rules: Rules) -> set[str]:
    """The misère contractor's partners, who lay their hands aside (rule 15)."""
    contract = h.get("contract") or {}
    contractor = contract.get("contractor")
    if contractor is None or rules.ladder[rules.parse_call(contract["call"])].partner_plays:
        return set()
    side = (h.get("outcome") or {}).get("side")
    if side is None:
        team = rules.team_of[rules.seats.index(contractor)]
        side = [s for i, s in enumerate(rules.seats) if rules.team_of[i] == team]
    return set(side) - {contractor}


def export_ptn(paths: Iterable[str | Path], out: str | Path | None = None, *, ruleset: RulesetRefs = None) -> str:
    """PTN for the game records of ``paths`` (JSON Lines or .json); with ``out``, written there too.  Each record
    is read under the ruleset it carries or names; ``ruleset`` gives rulesets for the records of their names (a
    lone one for every record).

    Raises ``RecordError`` naming ``file:line`` for a record PTN cannot express (a number of players
    PTN has no seats for, a dummy, ranks 11–13, a claim) or that does not read."""
    return export_ptn_counted(paths, out, ruleset=ruleset)[0]


def export_ptn_counted(paths: Iterable[str | Path], out: str | Path | None = None, *,
                       ruleset: RulesetRefs = None) -> tuple[str, int]:
    """``export_ptn``'s text and the number of games in it (``fivehundred export`` says what it wrote)."""
    paths = list(paths)
    if out is not None:
        check_outputs([out], paths)
    lines: list[str] = []
    rulesets = RecordRulesets(load_rulesets(ruleset))
    games = 0
    for _, source, record in records_in(paths):
        games += 1
        try:
            found = _ruleset(record, rulesets, source)
            lines.extend(printable(line) for line in game_ptn(record, found, source))  # a line each, always
        except (KeyError, TypeError, ValueError, IndexError) as e:
            if isinstance(e, FiveHundredError):
                raise
            raise RecordError(f"{source}: malformed record: missing or wrong field {e}") from None
    text = "\n".join(lines)
    if out is not None:
        replace_file(out, text.encode("utf-8"))
    return text, games
