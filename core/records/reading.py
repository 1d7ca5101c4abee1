"""Reading game records from files: one record per line of JSON Lines (or one per ``.json`` file), a
line in memory at a time, each checked against the published JSON Schema before anything else reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from fivehundred.rules.errors import RecordError
from fivehundred.rules.inputs import MAX_RECORD_BYTES, InputError, check_regular, read_lines, read_text
from fivehundred.rules.ruleset import Ruleset

from .bounds import PARSE_BOUNDED_FROM, TooBig, parse_bounded, size_problem, surrogate_problem
from .record import FORMAT, record_schema
from .rulesets import RecordRulesetError, RecordRulesets, hash_problem

Read = tuple[str, dict[str, Any] | None, str | None]
"""(source ``file:line``, the record or None, why it could not be read or None)."""

Line = tuple[str, str | None, str | None]
"""(source ``file:line``, a record's text or None, why it could not be read or None)."""


def _kind(value: Any) -> str:
    return {list: "a JSON array", str: "a JSON string", bool: "true/false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def parse_record(text: str) -> dict[str, Any]:
    """A record from its JSON text; ``RecordError`` (without a location) when it is not JSON or not a
    record at all.  Its fields are checked by ``schema_problem``."""
    try:
        if len(text) < PARSE_BOUNDED_FROM:
            record = json.loads(text, object_pairs_hook=_once_each)
        else:  # bounded as it is read: a huge map is refused before it is built
            record = parse_bounded(text, _once_each)
    except TooBig as e:
        raise RecordError(str(e)) from None
    except _DuplicateKey:
        raise RecordError(_duplicate(text)) from None
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e.msg} at column {e.colno}") from None
    except ValueError as e:  # an integer of more digits than Python converts (4,300)
        raise RecordError(f"not a game record: {e}") from None
    except RecursionError:
        raise RecordError("not a game record: nested too deeply") from None
    if isinstance(record, list) and record and all(isinstance(r, dict) for r in record):
        raise RecordError("not a game record but a JSON array of them: write one record per line of a .jsonl file")
    if not isinstance(record, dict):
        raise RecordError(f"not a game record: {_kind(record)}, not a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a game record: expected format {FORMAT!r}, got {record.get('format')!r}")
    return record


class _DuplicateKey(Exception):
    pass


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (``json`` would keep the last of a repeated key silently)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _DuplicateKey
    return found


class _Repeated(dict[str, Any]):
    key = ""


def _duplicate(text: str) -> str:
    """Where a record's JSON gives a key twice: read again, the objects concerned marked, to name the field."""

    def mark(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = _Repeated(pairs)
        seen: set[str] = set()
        for key, _ in pairs if len(found) != len(pairs) else ():
            if key in seen:
                found.key = key
                break
            seen.add(key)
        return found

    stack: list[tuple[Any, str]] = [(json.loads(text, object_pairs_hook=mark), "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, _Repeated) and value.key:
            field = f"{where}.{value.key}".lstrip(".")
            return f"not a game record: the key {value.key!r} is given twice at {field} (JSON keeps only the last)"
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        stack.extend((v, f"{where}[{k}]" if isinstance(k, int) else f"{where}.{k}") for k, v in items)
    return "not a game record: a key is given twice"


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    schema = record_schema()
    return Draft202012Validator(_inlined(schema, schema.get("$defs", {})))


def _inlined(node: Any, defs: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """The record schema with its ``#/$defs/…`` references replaced by what they name: the same checks,
    twice as fast (jsonschema resolves a reference each time it meets one: every card of a record)."""
    if isinstance(node, list):
        return [_inlined(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in seen:
        rest = {k: v for k, v in node.items() if k != "$ref"}
        name = ref.removeprefix("#/$defs/")
        return {**_inlined(defs[name], defs, (*seen, ref)), **_inlined(rest, defs, seen)}
    return {k: _inlined(v, defs, seen) for k, v in node.items()}


def schema_problem(record: dict[str, Any]) -> str | None:
    """Why ``record`` does not match the record schema (the most relevant reason), or None."""
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

    error = best_match(_validator().iter_errors(record))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    message = error.message if len(error.message) <= 200 else error.message[:200] + "…"
    return f"does not match the record schema at {where or '(top level)'}: {message}"


def record_lines(path: str | Path) -> Iterator[Line]:
    """The text of every record of a ``.json`` file (one record) or of JSON Lines (one per non-blank
    line), streamed, unparsed; a line or file that cannot be read gives its problem instead."""
    path = Path(path)
    lines: Iterator[tuple[int, str | None, str | None]]
    if path.suffix == ".json":
        try:
            lines = iter([(1, read_text(path, MAX_RECORD_BYTES, "a game record"), None)])
        except InputError as e:
            yield str(path), None, str(e).removeprefix(f"{path}: ")
            return
    else:
        try:
            lines = read_lines(path)
            first = next(lines, None)
        except InputError as e:
            yield str(path), None, str(e).removeprefix(f"{path}: ")
            return
        if first is None:
            return
        lines = _chain(first, lines)
    for number, text, problem in lines:
        yield f"{path}:{number}", text, problem


def read_record(text: str, *, check_schema: bool = True) -> tuple[dict[str, Any] | None, str | None]:
    """(the record, None) from a record's JSON text, or (None, why it is not one)."""
    try:
        record = parse_record(text)
    except RecordError as e:
        return None, str(e)
    bad = size_problem(record) or surrogate_problem(record, text)  # before anything walks it
    if bad:
        return None, bad
    problem = schema_problem(record) if check_schema else None
    return (None if problem else record), problem


def read_record_file(path: str | Path, *, check_schema: bool = True) -> Iterator[Read]:
    """Every record of a ``.json`` file (one record) or of JSON Lines (one per non-blank line), streamed;
    a file that cannot be read at all gives one item with its problem."""
    for source, text, problem in record_lines(path):
        if text is None:
            yield source, None, problem
        else:
            yield source, *read_record(text, check_schema=check_schema)


def _chain(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


def records_in(paths: Iterable[str | Path]) -> Iterator[tuple[Path, str, dict[str, Any]]]:
    """(file, ``file:line``, record) for every record of record files, in order, for commands that read
    records without validating them (``show``, ``export``); a missing file or a line that is not a
    record raises ``RecordError`` naming it."""
    for raw in paths:
        path = Path(raw)
        try:
            check_regular(path)  # a folder, a device: said as such
        except InputError as e:
            raise RecordError(str(e)) from None
        for source, record, error in read_record_file(path, check_schema=False):
            if record is None:
                raise RecordError(f"{source}: {error}")
            yield path, source, record


# --- a ruleset from records ------------------------------------------------------------------------


def is_record_file(ref: str | Path) -> bool:
    """Whether ``ref`` names a file of game records (``.jsonl`` or ``.json``) rather than a ruleset."""
    return str(ref).endswith((".jsonl", ".json"))


def ruleset_of_records(path: str | Path) -> Ruleset:
    """The ruleset the first record of ``path`` was played under (carried or shipped, as for reading it), for
    ``compare``; ``RecordError`` naming ``file:line`` when it has none or its ruleset cannot be trusted."""
    for _, source, record in records_in([path]):
        try:
            ruleset = RecordRulesets()(record)
        except RecordRulesetError as e:
            raise RecordError(f"{source}: ruleset: {e}") from None
        problem = hash_problem(record, ruleset)
        if problem is not None:
            raise RecordError(f"{source}: ruleset: {problem}")
        return ruleset
    raise RecordError(f"{path}: no game record")


def ruleset_or_records(ref: str | Path | Ruleset | None) -> str | Path | Ruleset | None:
    """``ref`` as given, but a file of game records (``.jsonl``, ``.json``) becomes the ruleset its first record
    was played under (``ruleset_of_records``): ``compare -r games.jsonl`` compares the rules of those games."""
    if ref is None or isinstance(ref, Ruleset) or not is_record_file(ref):
        return ref
    return ruleset_of_records(ref)
