"""Trickster Cards' game options for Five Hundred, and the rulesets that say the same.

Every option Trickster offers for the four-handed game is a ruleset field here:

- ``variation`` (omitted: American, one round of bidding; 1: Australian, as many rounds as needed):
  ``auction.rounds``;
- ``deckSize`` (43, 45, 46: kitty 3, 5, 6): ``deck`` and ``deal.packets`` (D1, D2);
- ``mustBidToWin``: ``game.win`` ``contract-made`` (rule 30), else ``any`` (E1);
- ``whenNullo`` 1 (misère only once the bidding has reached seven): the misère rung's
  ``requires_standing: 7S`` (rule 10), else none;
- ``S8Overbid250Nullo`` (8♠ overcalls misère, the default): misère below 8♠ on the ladder, as in the
  reference; false: above 8♠, below 8♣ (it ranks by its 250 points);
- ``bidAfterPass`` 2 (a player who passed may bid again once the bid has changed): ``auction.reentry``.

An option, a value or a part of the ``Event`` summary that PTN.md does not document is refused
(``OptionError``, naming the tag), never mapped to a guessed rule; the table settings take any value.

``options_ruleset`` builds the ruleset for a set of options, ``shipped_match`` finds the shipped
ruleset that says exactly the same, and ``ruleset_options`` goes back the other way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from typing import Any

from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.twins import shipped_twin

KITTY = {43: 3, 45: 5, 46: 6}
"""Trickster's decks for four players and their kitties."""


@dataclass(frozen=True)
class Options:
    """The rule options of a Trickster game of Five Hundred (four players)."""

    australian: bool = True
    deck: int = 43
    must_bid_to_win: bool = True
    misere_after_seven: bool = True
    eight_spades_over_misere: bool = True
    reentry: bool = False

    def summary(self) -> str:
        """The options in the words of Trickster's ``Event`` tag."""
        misere = "misère" if self.australian else "nullo"
        kitty = f"{KITTY[self.deck]}-card {'kitty' if self.australian else 'widow'}"
        parts = [f"{'Australian' if self.australian else 'American'} with {kitty}"]
        if self.must_bid_to_win:
            parts.append("must bid to win")
        if self.reentry:
            parts.append("bid after pass if bid changed")
        parts.append(f"{misere} after 7" if self.misere_after_seven else f"{misere} anytime")
        if self.eight_spades_over_misere:
            parts.append(f"8♠ overbids {misere}")
        parts.append(f"open {misere} ±500")
        return ", ".join(parts)

    def options_json(self) -> str:
        """The options as ``GameOptionsJson``: only those not at Trickster's defaults."""
        data: dict[str, Any] = {}
        if self.australian:
            data["variation"] = 1
        if self.deck != 43:
            data["deckSize"] = self.deck
        if self.must_bid_to_win:
            data["mustBidToWin"] = True
        if self.misere_after_seven:
            data["whenNullo"] = 1
        if not self.eight_spades_over_misere:
            data["S8Overbid250Nullo"] = False
        if self.reentry:
            data["bidAfterPass"] = 2
        return json.dumps(data, separators=(",", ":"))

    def slug(self) -> str:
        """A ruleset name for these options: ``trickster-australian-reentry-…``."""
        parts = ["trickster", "australian" if self.australian else "american"]
        if self.deck != 43:
            parts.append(f"{self.deck}-cards")
        if not self.must_bid_to_win:
            parts.append("any-500-wins")
        if not self.misere_after_seven:
            parts.append("misere-anytime")
        if not self.eight_spades_over_misere:
            parts.append("misere-over-8s")
        if self.reentry:
            parts.append("reentry")
        return "-".join(parts)


class OptionError(ValueError):
    """An option of a Trickster record that is not known (``tag``: ``GameOptionsJson`` or ``Event``)."""

    def __init__(self, tag: str, message: str):
        super().__init__(message)
        self.tag = tag


_KNOWN_VALUES: dict[str, tuple[Any, ...]] = {
    "variation": (1,), "deckSize": tuple(KITTY), "mustBidToWin": (True, False), "whenNullo": (1,),
    "S8Overbid250Nullo": (True, False), "bidAfterPass": (2,),
}
"""Each rule option of ``GameOptionsJson`` and the values known for it (PTN.md); omitted means the default."""
_TABLE_SETTINGS = frozenset({"noWatching", "noSuggestions", "reviewLastDeal"})
"""Options that are table settings, not rules: any value."""

_SUMMARY_PARTS = {
    "must bid to win": ("must_bid_to_win", True), "bid after pass if bid changed": ("reentry", True),
    "misere after 7": ("misere_after_seven", True), "misere anytime": ("misere_after_seven", False),
    "8♠ overbids misere": ("eight_spades_over_misere", True), "open misere ±500": None, "review last deal": None,
}
"""The parts of an ``Event`` summary after its first (``nullo`` is read as ``misere``), and the option each sets
(None: a part that every known export has, or a table setting)."""
_FIRST_PART = re.compile(r"(australian|american) with (\d+)-card (kitty|widow)")


def _digits(e: ValueError) -> str:
    """Python's refusal of a huge integer, without its advice to the programmer."""
    return str(e).split(";")[0]


def read_options(options_json: str | None, summary: str | None) -> tuple[Options, list[str]]:
    """The options of a game from ``GameOptionsJson`` and the ``Event`` summary, and notes on where
    they disagree (the summary wins: it states the rules in force).  Raises ``OptionError`` (naming
    the tag) for JSON that does not read, and for an option, a value or a part of the summary that
    is not known: no rule is guessed for it."""
    notes: list[str] = []
    found: dict[str, Any] = {}
    if options_json is not None:
        try:
            data = json.loads(options_json)
        except json.JSONDecodeError as e:
            raise OptionError("GameOptionsJson", f"not JSON: {e.msg}") from None
        except RecursionError:
            raise OptionError("GameOptionsJson", "nested too deeply") from None
        except ValueError as e:  # an integer of more digits than Python converts (4,300)
            raise OptionError("GameOptionsJson", f"not JSON: {_digits(e)}") from None
        if not isinstance(data, dict):
            raise OptionError("GameOptionsJson", "not a JSON object")
        for key, value in data.items():
            known = _KNOWN_VALUES.get(key)
            if known is None and key not in _TABLE_SETTINGS:
                known_keys = ", ".join([*_KNOWN_VALUES, *sorted(_TABLE_SETTINGS)])
                raise OptionError("GameOptionsJson", f"the option {key!r} is not known (known: {known_keys}): no rule "
                                  "is guessed for it")
            if known is not None and (value not in known or isinstance(value, bool) != isinstance(known[0], bool)):
                raise OptionError("GameOptionsJson", f"{key}: the value {json.dumps(value)} is not known (known: "
                                  f"{', '.join(json.dumps(v) for v in known)}, or the option left out)")
        found = {"australian": data.get("variation") == 1, "deck": data.get("deckSize", 43),
                 "must_bid_to_win": data.get("mustBidToWin", False),
                 "misere_after_seven": data.get("whenNullo") == 1,
                 "eight_spades_over_misere": data.get("S8Overbid250Nullo", True),
                 "reentry": data.get("bidAfterPass") == 2}
    if summary is not None and " - " in summary:
        said = _summary_options(summary.split(" - ", 1)[1])
        for key, value in said.items():
            if key in found and found[key] != value:
                notes.append(f"GameOptionsJson says {key}={found[key]} but the Event summary says {value}; "
                             "the summary is followed")
            found[key] = value
    if not found:
        notes.append("neither GameOptionsJson nor an Event summary: Trickster's Australian defaults are assumed")
    return Options(**found), notes


def _summary_options(text: str) -> dict[str, Any]:
    """The options an ``Event`` summary states: every part must be known (``_SUMMARY_PARTS``)."""
    parts = [part.strip() for part in text.lower().replace("misère", "misere").replace("nullo", "misere").split(",")]
    first = _FIRST_PART.fullmatch(parts[0])
    kitty = None if first is None else int(first.group(2))
    deck = next((d for d, k in KITTY.items() if k == kitty), None)
    if first is None or deck is None:
        raise OptionError("Event", f"the summary starts {parts[0]!r}, not 'Australian with 3-card kitty' or "
                          "'American with 5-card widow' (a kitty of 3, 5 or 6)")
    said: dict[str, Any] = {"australian": first.group(1) == "australian", "deck": deck, "must_bid_to_win": False,
                            "reentry": False, "eight_spades_over_misere": False}
    for part in parts[1:]:
        if part not in _SUMMARY_PARTS:
            raise OptionError("Event", f"the summary says {part!r}, which is not a known Trickster option: no rule "
                              "is guessed for it")
        option = _SUMMARY_PARTS[part]
        if option is not None:
            said[option[0]] = option[1]
    if "misere after 7" not in parts and "misere anytime" not in parts:
        raise OptionError("Event", "the summary says neither 'misère after 7' nor 'misère anytime' (or nullo), as "
                          "every known export does: when misère may be bid is not known")
    if "open misere ±500" not in parts[1:]:
        raise OptionError("Event", "the summary does not say 'open misère ±500' (or 'open nullo ±500'), which every "
                          "known export says: whether open misère is played is not known")
    return said


# --- options → ruleset ----------------------------------------------------------------------

_ALL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
_PACKETS = {43: None, 45: [{"each": 3}, {"kitty": 3}, {"each": 4}, {"kitty": 2}, {"each": 3}],
            46: [{"each": 3}, {"kitty": 3}, {"each": 4}, {"kitty": 3}, {"each": 3}]}


@lru_cache(maxsize=1)
def _reference() -> Ruleset:
    return load_ruleset("pagat-australian")


def options_ruleset(options: Options) -> dict[str, Any]:
    """The ruleset data (``extends: pagat-australian`` plus the fields that differ) for ``options``."""
    reference = _reference()
    ladder = [r.model_dump(exclude_defaults=True) for r in reference.auction.ladder if r.call != "misere"]
    misere: dict[str, Any] = {"call": "misere", "value": 250}
    if options.misere_after_seven:
        misere["requires_standing"] = "7S"
    above = "8S" if options.eight_spades_over_misere else "8C"
    ladder.insert(next(i for i, r in enumerate(ladder) if r["call"] == above), misere)
    data: dict[str, Any] = {"extends": "pagat-australian", "name": options.slug(),
                            "description": f"Trickster Cards: {options.summary()}.",
                            "source": "the options of a Trickster Cards game (GameOptionsJson and the Event summary)",
                            "auction": {"ladder": ladder}}
    if not options.australian:
        data["auction"]["rounds"] = "single"
    if options.reentry:
        data["auction"]["reentry"] = "if-bid-changed"
    if options.deck != 43:
        data["deck"] = {"suits": {suit: list(_ALL_RANKS) for suit in "SCDH"}, "jokers": 1 + (options.deck == 46)}
        data["deal"] = {"packets": _PACKETS[options.deck]}
    if not options.must_bid_to_win:
        data["game"] = {"win": "any"}
    return data


def _content(ruleset: Ruleset) -> dict[str, Any]:
    return ruleset.model_dump(mode="json", exclude={"name", "description", "source"})


def shipped_match(ruleset: Ruleset) -> str | None:
    """The name of the shipped ruleset that says exactly what ``ruleset`` says, if one does."""
    return shipped_twin(ruleset)


def ruleset_options(ruleset: Ruleset) -> Options | None:
    """The Trickster options that give exactly ``ruleset``, or None when Trickster cannot express it."""
    if len(ruleset.players.seats) != 4:
        return None
    content = _content(ruleset)
    flags = [f.name for f in fields(Options)][2:]
    for australian in (True, False):
        for deck in KITTY:
            for bits in range(1 << len(flags)):
                options = Options(australian, deck, **{f: bool(bits >> i & 1) for i, f in enumerate(flags)})
                if _content(build_ruleset(options)) == content:
                    return options
    return None


@cache
def build_ruleset(options: Options) -> Ruleset:
    """The ruleset ``options_ruleset(options)`` describes, resolved."""
    data = options_ruleset(options)
    data.pop("extends")
    return Ruleset.model_validate(_merge(_reference().model_dump(mode="json"), data))


def _merge(base: Any, override: Any) -> Any:
    """Mappings merge, anything else replaces (as ``extends:`` does)."""
    if isinstance(base, dict) and isinstance(override, dict):
        return {**base, **{k: _merge(base[k], v) if k in base else v for k, v in override.items()}}
    return override
