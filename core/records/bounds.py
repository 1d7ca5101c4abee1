"""What a record may hold before anything else reads it: no more than a game can have, and text only.

A record's maps and lists are bounded by the game (at most 84 cards, so at most 84 seats, tricks, or
cards in a hand; at most 10,000 calls in an auction …): the bounds are the ``maxItems``,
``maxProperties`` and ``maxLength`` of the record schema, checked here first, by length alone, so that
a record of 5 million players is refused at once rather than each of its keys checked in turn.  A
string holding a lone surrogate (a ``\\uD800`` escape alone, which no UTF-8 file holds) is refused too:
it is not text, and nothing could print or write it.

A long line (over ``PARSE_BOUNDED_FROM``) is parsed against the bounds as it is read (``parse_bounded``):
a map of 5 million players is refused at its 85th key, before the rest of it is built in memory.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from .record import record_schema

Bound = tuple[int | None, int | None, int | None, dict[str, Any], Any, Any]
"""(maxItems, maxProperties, maxLength, bounds of named properties, of other properties, of items)."""


def _compile(node: Any, defs: dict[str, Any], depth: int = 0) -> Bound | None:
    """The bounds of a schema node and below it; None where there are none."""
    if not isinstance(node, dict) or depth > 32:
        return None
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _compile(defs.get(ref.removeprefix("#/$defs/")), defs, depth + 1)
    props = {k: b for k, v in (node.get("properties") or {}).items() if (b := _compile(v, defs, depth + 1))}
    other, items = _compile(node.get("additionalProperties"), defs, depth + 1), _compile(node.get("items"), defs,
                                                                                          depth + 1)
    limits = node.get("maxItems"), node.get("maxProperties"), node.get("maxLength")
    if not props and other is None and items is None and limits == (None, None, None):
        return None
    return (*limits, props, other, items)


@cache
def _bounds() -> Bound | None:
    schema = record_schema()
    return _compile(schema, schema.get("$defs", {}))


def _where(at: str) -> str:
    return at or "(top level)"


def _too_big(value: Any, bound: Bound, at: str) -> str | None:
    max_items, max_props, max_length, props, other, items = bound
    if isinstance(value, dict):
        if max_props is not None and len(value) > max_props:
            return f"{_where(at)}: {len(value):,} entries, more than a game can have ({max_props})"
        for key, sub in value.items():
            inner = props.get(key, other)
            if inner is not None:
                problem = _too_big(sub, inner, f"{at}.{key}" if at else str(key))
                if problem:
                    return problem
    elif isinstance(value, list):
        if max_items is not None and len(value) > max_items:
            return f"{_where(at)}: {len(value):,} items, more than a game can have ({max_items:,})"
        if items is not None:
            for i, sub in enumerate(value):
                problem = _too_big(sub, items, f"{at}[{i}]")
                if problem:
                    return problem
    elif isinstance(value, str) and max_length is not None and len(value) > max_length:
        return f"{_where(at)}: a text of {len(value):,} characters, more than {max_length:,}"
    return None


def size_problem(record: dict[str, Any]) -> str | None:
    """Where ``record`` holds more than a game can have (a map, a list or a text longer than the record
    schema allows), or None; in time proportional to the record's bounded parts only."""
    bound = _bounds()
    return None if bound is None else _too_big(record, bound, "")


def surrogate_problem(record: dict[str, Any], text: str) -> str | None:
    """Where ``record`` (read from ``text``) holds a lone surrogate, or None.  Only a ``\\u`` escape makes
    one (the text was read as UTF-8), so a record without ``\\ud`` in its text is not walked."""
    if "\\ud" not in text and "\\uD" not in text:
        return None
    stack: list[tuple[Any, str]] = [(record, "")]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if _lone(item):
                return f"{_where(at)}: a lone surrogate (a \\uD800–\\uDFFF escape alone), not a character"
        elif isinstance(item, dict):
            for key, sub in item.items():
                if _lone(key):
                    return f"{_where(at)}: a key holds a lone surrogate (a \\uD800–\\uDFFF escape alone)"
                stack.append((sub, f"{at}.{key}" if at else key))
        elif isinstance(item, list):
            stack.extend((sub, f"{at}[{i}]") for i, sub in enumerate(item))
    return None


def _lone(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


PARSE_BOUNDED_FROM = 4 << 20
"""A record's text from which ``parse_bounded`` reads it (below it, ``json`` at C speed: a few hundred
milliseconds and tens of megabytes at most, whatever the text holds)."""
UNBOUNDED_ITEMS = 100_000
"""Entries a map or list may hold where the record schema gives no bound (a carried ruleset's content):
far more than any ruleset has."""

_SPACE = re.compile(r"[ \t\n\r]*")


class TooBig(ValueError):
    """A record's text holds more than a game can have (the message says where)."""


def parse_bounded(text: str, pairs_hook: Callable[[list[tuple[str, Any]]], Any]) -> Any:
    """The JSON value of ``text``, read with its maps and lists checked against the record schema's bounds
    as they are read: ``TooBig`` at the first one over its bound, ``json.JSONDecodeError`` where the text is
    not JSON.  Maps are built by ``pairs_hook`` (as ``json.loads(..., object_pairs_hook=)``)."""
    reader = _Reader(text, json.JSONDecoder(object_pairs_hook=pairs_hook), pairs_hook)
    value, end = reader.value(_SPACE.match(text, 0).end(), _bounds(), "")  # type: ignore[union-attr]
    end = _SPACE.match(text, end).end()  # type: ignore[union-attr]
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


class _Reader:
    def __init__(self, text: str, decoder: json.JSONDecoder, pairs_hook: Callable[..., Any]) -> None:
        self.text, self.decode, self.pairs_hook = text, decoder.raw_decode, pairs_hook

    def value(self, i: int, bound: Bound | None, at: str) -> tuple[Any, int]:
        first = self.text[i:i + 1]
        if first == "{":
            return self.map(i + 1, bound, at)
        if first == "[":
            return self.list(i + 1, bound, at)
        value, end = self.decode(self.text, i)
        if isinstance(value, str) and bound is not None and bound[2] is not None and len(value) > bound[2]:
            raise TooBig(f"{_where(at)}: a text of {len(value):,} characters, more than {bound[2]:,}")
        return value, end

    def map(self, i: int, bound: Bound | None, at: str) -> tuple[Any, int]:
        most = UNBOUNDED_ITEMS if bound is None or bound[1] is None else bound[1]
        props, other = (bound[3], bound[4]) if bound is not None else ({}, None)
        pairs: list[tuple[str, Any]] = []
        i = self.skip(i)
        if self.text[i:i + 1] == "}":
            return self.pairs_hook(pairs), i + 1
        while True:
            if self.text[i:i + 1] != '"':
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", self.text, i)
            key, i = self.decode(self.text, i)
            i = self.expect(i, ":")
            value, i = self.value(self.skip(i), props.get(key, other), f"{at}.{key}" if at else key)
            pairs.append((key, value))
            if len(pairs) > most:
                raise TooBig(f"{_where(at)}: {most + 1:,} entries or more, more than a game can have ({most:,})")
            i = self.skip(i)
            if self.text[i:i + 1] == "}":
                return self.pairs_hook(pairs), i + 1
            i = self.skip(self.expect(i, ","))

    def list(self, i: int, bound: Bound | None, at: str) -> tuple[Any, int]:
        most = UNBOUNDED_ITEMS if bound is None or bound[0] is None else bound[0]
        items_bound = bound[5] if bound is not None else None
        items: list[Any] = []
        i = self.skip(i)
        if self.text[i:i + 1] == "]":
            return items, i + 1
        while True:
            value, i = self.value(i, items_bound, f"{at}[{len(items)}]")
            items.append(value)
            if len(items) > most:
                raise TooBig(f"{_where(at)}: {most + 1:,} items or more, more than a game can have ({most:,})")
            i = self.skip(i)
            if self.text[i:i + 1] == "]":
                return items, i + 1
            i = self.skip(self.expect(i, ","))

    def skip(self, i: int) -> int:
        return _SPACE.match(self.text, i).end()  # type: ignore[union-attr]

    def expect(self, i: int, delimiter: str) -> int:
        i = self.skip(i)
        if self.text[i:i + 1] != delimiter:
            raise json.JSONDecodeError(f"Expecting {delimiter!r} delimiter", self.text, i)
        return i + 1
