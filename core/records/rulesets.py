"""The ruleset of a game record: one the user gives, the one the record carries, or a shipped one.

A record names its ruleset and the hash of its resolved content (``ruleset.name``, ``ruleset.hash``).  A record
of a ruleset that is not bundled with fivehundred also carries it, resolved (``ruleset.content``: its fields that
differ from their defaults), so that ``validate``, ``show``, ``report`` and ``export`` read a house rule's records
with no ``--ruleset``.  Where a record's ruleset comes from, the first that applies:

1. a ruleset the user gives (``--ruleset``, repeatable): the one of the record's name; when only one is given,
   it reads every record;
2. the ruleset the record carries, once checked as a ruleset file is checked and found to have the record's hash
   (``RecordRulesetError`` otherwise: the content and the hash were edited apart);
3. the shipped or plugin-provided ruleset of the record's name.

A name in a record is a name, never a path: nothing a record holds makes the program open a file.  A carried
ruleset that has a shipped (or plugin) ruleset's name but another hash is refused: its games would read as the
shipped ruleset's while following other rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from fivehundred.rules.errors import RecordError, RulesetError, UnknownNameError
from fivehundred.rules.inputs import MAX_RULESET_BYTES
from fivehundred.rules.loading import bundled_dir, load_named_ruleset, load_ruleset, ruleset_from_data, ruleset_paths
from fivehundred.rules.ruleset import Ruleset

CONTENT = "content"
"""The key of ``ruleset`` under which a record carries its resolved ruleset."""
ANCESTORS = "ancestors"
"""The key of ``ruleset`` under which a record that carries its ruleset names the shipped rulesets it was built on
(``Ruleset.ancestors``, nearest first: the club player's tuned parameters are looked up along them)."""


class RecordRulesetError(RecordError):
    """A record's ruleset cannot be found or cannot be trusted; ``field`` is the record's field in question."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


# --- writing -----------------------------------------------------------------------------------


def ruleset_header(ruleset: Ruleset) -> dict[str, Any]:
    """A record's ``ruleset``: name and hash, and unless the ruleset is bundled its resolved content and the
    shipped rulesets it was built on (``Ruleset.ancestors``: informational, outside the hash)."""
    key = (ruleset.name, ruleset.content_hash, ruleset.ancestors)
    content = _contents.get(key)
    if content is None:
        content = "" if _is_bundled(*key[:2]) else json.dumps(ruleset.model_dump(mode="json", exclude_defaults=True))
        if len(_contents) < 64:
            _contents[key] = content
    header: dict[str, Any] = {"name": key[0], "hash": key[1]}
    if content:
        header[CONTENT] = json.loads(content)  # a record of its own: whoever changes it changes no other
        if ruleset.ancestors:
            header[ANCESTORS] = list(ruleset.ancestors)
    return header


_contents: dict[tuple[str, str, tuple[str, ...]], str] = {}
"""The content (JSON text) that the records of each ruleset carry; empty for a bundled ruleset."""


@lru_cache(maxsize=64)
def _is_bundled(name: str, digest: str) -> bool:
    path = bundled_dir() / f"{name}.yaml"
    try:
        return path.is_file() and load_ruleset(path).content_hash == digest
    except RulesetError:
        return False


def name_clash(ruleset: Ruleset) -> str | None:
    """Why records of ``ruleset`` would be refused without their file: a shipped or plugin ruleset has its name
    and other content (None when there is none)."""
    known = _known(ruleset.name)
    if known is None or known.content_hash == ruleset.content_hash:
        return None
    return (f"ruleset {ruleset.name!r} (hash {ruleset.content_hash}) has the name of a shipped or plugin ruleset "
            f"with other rules (hash {known.content_hash}): its records will need --ruleset with this file to be "
            "read; give it a name of its own")


def _known(name: str) -> Ruleset | None:
    """The shipped or plugin ruleset ``name``, if there is one."""
    if name not in ruleset_paths():
        return None
    try:
        return load_named_ruleset(name)
    except (UnknownNameError, RulesetError):
        return None


# --- reading -----------------------------------------------------------------------------------


class RecordRulesets:
    """The ruleset of each record (see the module's description), each loaded and checked once.

    ``given``: the rulesets the user gave (``--ruleset``), matched to records by name; a lone one reads every
    record.  Two given rulesets of one name and different content are refused (``RecordError``)."""

    def __init__(self, given: Iterable[Ruleset] = ()):
        self.given: dict[str, Ruleset] = {}
        for ruleset in given:
            other = self.given.setdefault(ruleset.name, ruleset)
            if other.content_hash != ruleset.content_hash:
                raise RecordError(f"--ruleset gives two rulesets named {ruleset.name!r} with different content "
                                  f"(hashes {other.content_hash} and {ruleset.content_hash})")
        self._named: dict[str, Ruleset | RecordRulesetError] = {}
        self._carried: dict[str, Ruleset | RecordRulesetError] = {}

    def __call__(self, record: dict[str, Any]) -> Ruleset:
        """The ruleset to read ``record`` under; ``RecordRulesetError`` (with the field) when there is none."""
        meta = record.get("ruleset")
        if not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
            raise RecordRulesetError("the record names no ruleset (ruleset.name)", "ruleset.name")
        name = meta["name"]
        if name in self.given:
            return self.given[name]
        if len(self.given) == 1:
            return next(iter(self.given.values()))
        if meta.get(CONTENT) is not None:
            return self._carried_ruleset(meta)
        return self._named_ruleset(name)

    def _carried_ruleset(self, meta: dict[str, Any]) -> Ruleset:
        key = json.dumps([meta["name"], meta.get("hash"), meta[CONTENT], meta.get(ANCESTORS)], sort_keys=True,
                         ensure_ascii=False)
        found = self._carried.get(key)
        if found is None and len(key) > MAX_RULESET_BYTES:
            found = RecordRulesetError(f"the ruleset the record carries is larger than a ruleset file may be "
                                       f"({MAX_RULESET_BYTES // 1024} KiB)", f"ruleset.{CONTENT}")
        if found is None:
            found = _remember(self._carried, key, _check_carried(meta))
        if isinstance(found, RecordRulesetError):
            raise found
        return found

    def _named_ruleset(self, name: str) -> Ruleset:
        found = self._named.get(name)
        if found is None:
            try:
                found = load_named_ruleset(name)
            except (UnknownNameError, RulesetError) as e:
                found = RecordRulesetError(f"cannot load the recorded ruleset {name!r}: {e}", "ruleset.name")
            _remember(self._named, name, found)
        if isinstance(found, RecordRulesetError):
            raise found
        return found


KEPT = 256
"""Rulesets (or why not) a ``RecordRulesets`` keeps, per kind: a file of records of ever new rulesets keeps memory
flat."""


def _remember(cache: dict[str, Ruleset | RecordRulesetError], key: str,
              found: Ruleset | RecordRulesetError) -> Ruleset | RecordRulesetError:
    if len(cache) >= KEPT:
        cache.clear()
    cache[key] = found
    return found


def _check_carried(meta: dict[str, Any]) -> Ruleset | RecordRulesetError:
    """The ruleset a record carries, or why it cannot be trusted."""
    name, digest, ancestors = meta["name"], meta.get("hash"), meta.get(ANCESTORS) or []
    if not isinstance(ancestors, list) or not all(isinstance(a, str) for a in ancestors):
        return RecordRulesetError("ruleset.ancestors is not a list of ruleset names", f"ruleset.{ANCESTORS}")
    try:
        ruleset = ruleset_from_data(meta[CONTENT], f"ruleset.{CONTENT}", ancestors)
    except RulesetError as e:
        return RecordRulesetError(f"the ruleset the record carries is not a valid ruleset: {'; '.join(e.problems)}",
                                  f"ruleset.{CONTENT}")
    if ruleset.name != name:
        return RecordRulesetError(f"the record names ruleset {name!r} but carries ruleset {ruleset.name!r}",
                                  "ruleset.name")
    if ruleset.content_hash != digest:
        return RecordRulesetError(f"the ruleset the record carries has hash {ruleset.content_hash}, but the record "
                                  f"says {digest}: the record or its ruleset was changed", "ruleset.hash")
    known = _known(name)
    if known is not None and known.content_hash != digest:
        return RecordRulesetError(f"the record carries its own ruleset {name!r} (hash {digest}), but the shipped or "
                                  f"plugin ruleset {name!r} has hash {known.content_hash}: a changed ruleset needs a "
                                  "name of its own (or give the file the games were played under with --ruleset)",
                                  "ruleset.name")
    return ruleset


def hash_problem(record: dict[str, Any], ruleset: Ruleset) -> str | None:
    """Why ``record`` was not played under ``ruleset`` (its hash differs), or None."""
    meta = record.get("ruleset") or {}
    if meta.get("hash") == ruleset.content_hash:
        return None
    carried = " (the record carries its own: read it without --ruleset)" if meta.get(CONTENT) is not None else ""
    return (f"the record was played under ruleset {meta.get('name')!r} with hash {meta.get('hash')}, but "
            f"{ruleset.name!r} now has hash {ruleset.content_hash}{carried}")


RulesetRefs = str | Path | Ruleset | Sequence[str | Path | Ruleset] | None
"""Rulesets a user gives: a name, a file or a loaded ruleset, a list of them, or none."""


def load_rulesets(refs: RulesetRefs) -> list[Ruleset]:
    """The rulesets a user gives (names, files, loaded rulesets; one or several, or None)."""
    if refs is None:
        return []
    items = [refs] if isinstance(refs, (str, Path, Ruleset)) else list(refs)
    return [ref if isinstance(ref, Ruleset) else load_ruleset(ref) for ref in items]
