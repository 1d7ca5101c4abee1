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

``options_ruleset`` builds the ruleset for a set of options, ``shipped_match`` finds the shipped
ruleset that says exactly the same, and ``ruleset_options`` goes back the other way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fivehundred.rules.ruleset import Ruleset, load_ruleset, ruleset_paths

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


def read_options(options_json: str | None, summary: str | None) -> tuple[Options, list[str]]:
    """The options of a game from ``GameOptionsJson`` and the ``Event`` summary, and notes on where
    they disagree (the summary wins: it states the rules in force).  Raises ``ValueError`` for JSON
    that does not read."""
    notes: list[str] = []
    found: dict[str, Any] = {}
    if options_json is not None:
        data = json.loads(options_json)
        if not isinstance(data, dict):
            raise ValueError("GameOptionsJson is not a JSON object")
        deck = data.get("deckSize", 43)
        if deck not in KITTY:
            raise ValueError(f"GameOptionsJson: deckSize {deck} is not a four-handed Trickster deck (43, 45 or 46)")
        found = {"australian": data.get("variation") == 1, "deck": deck,
                 "must_bid_to_win": bool(data.get("mustBidToWin", False)),
                 "misere_after_seven": data.get("whenNullo") == 1,
                 "eight_spades_over_misere": data.get("S8Overbid250Nullo", True) is not False,
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
    words = text.lower().replace("misère", "misere").replace("nullo", "misere")
    said: dict[str, Any] = {}
    if words.startswith("australian"):
        said["australian"] = True
    elif words.startswith("american"):
        said["australian"] = False
    for deck, kitty in KITTY.items():
        if f"{kitty}-card kitty" in words or f"{kitty}-card widow" in words:
            said["deck"] = deck
    said["must_bid_to_win"] = "must bid to win" in words
    said["reentry"] = "bid after pass" in words
    if "misere after 7" in words or "misere anytime" in words:
        said["misere_after_seven"] = "misere after 7" in words
    said["eight_spades_over_misere"] = "8♠ overbids misere" in words
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
    content = json.dumps(_content(ruleset), sort_keys=True)
    for name, path in ruleset_paths().items():
        if _shipped_content(path) == content:
            return name
    return None


@cache
def _shipped_content(path: Path) -> str | None:
    candidate = load_ruleset(path)
    return json.dumps(_content(candidate), sort_keys=True) if len(candidate.players.seats) == 4 else None


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
