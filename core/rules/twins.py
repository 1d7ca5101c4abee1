"""The shipped ruleset that says exactly what another says: its name and prose aside (``name``,
``description``, ``source``), the same resolved content.  A copy of a shipped file under a new name plays the
same game, so it gets the same tuned players (``fivehundred.bots.params.tuned_source``) and imports under the
shipped name (``fivehundred.records.trickster.shipped_match``)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from .loading import load_ruleset, ruleset_paths
from .ruleset import Ruleset

PROSE = frozenset({"name", "description", "source"})
"""The top-level fields that describe a ruleset without changing its game."""


def rules_key(ruleset: Ruleset) -> str:
    """A hash of what ``ruleset`` plays: its resolved content without its name and prose (computed once per
    instance, kept beside ``content_hash``'s)."""
    known: str | None = ruleset.__dict__.get("_rules_key")
    if known is None:
        content = ruleset.model_dump(mode="json", exclude=set(PROSE))
        text = json.dumps(content, sort_keys=True, separators=(",", ":"))
        known = ruleset.__dict__["_rules_key"] = hashlib.sha256(text.encode()).hexdigest()
    return known


def shipped_twin(ruleset: Ruleset) -> str | None:
    """The name of the shipped (or plugin-provided) ruleset that plays exactly ``ruleset``'s game, if one does:
    the ruleset's own name when it is one of them."""
    key = rules_key(ruleset)
    twins = [name for name, path in ruleset_paths().items() if _key_of(path) == key]
    return ruleset.name if ruleset.name in twins else twins[0] if twins else None


@cache
def _key_of(path: Path) -> str:
    return rules_key(load_ruleset(path))
