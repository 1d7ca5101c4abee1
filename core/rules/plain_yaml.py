"""Plain-data YAML (a ruleset, a score sheet) read strictly, with the guards against hostile YAML.

YAML 1.1, which PyYAML reads, turns much that looks like text into numbers: ``8:20`` is 500 (base 60),
``0x1F4`` and ``0o764`` are 500, ``017`` is 15, ``1_000`` is 1000, ``yes``/``no``/``on``/``off`` are
true/false.  Here only YAML 1.2's core forms are numbers and booleans (``500``, ``-3``, ``2.5``,
``true``/``false``); anything else is text, which an integer field then refuses with its line.  A key
given twice in one mapping (YAML would keep the last silently) and an integer of more than
``MAX_INT_DIGITS`` digits are errors naming the file, the line and the key.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .errors import RulesetError

MAX_INT_DIGITS = 18
"""An integer written with more digits than this is refused (every 18-digit integer fits 64 bits; no
count, score or value of a game needs more)."""

INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
"""A YAML 1.2 core integer, in decimal (a leading zero, as in ``017``, is text: YAML 1.1 read it as octal)."""

_CORE_RESOLVERS: tuple[tuple[str, str, str], ...] = (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", INT.pattern, "-+0123456789"),
    ("tag:yaml.org,2002:float", r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
)
_YAML11_TAGS = {tag for tag, _, _ in _CORE_RESOLVERS}


def _core_resolvers() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """SafeLoader's implicit resolvers with YAML 1.1's booleans, integers and floats replaced by 1.2 core's."""
    resolvers = {first: [(tag, regexp) for tag, regexp in found if tag not in _YAML11_TAGS]
                 for first, found in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    for tag, pattern, firsts in _CORE_RESOLVERS:
        for first in firsts:
            resolvers.setdefault(first, []).append((tag, re.compile(pattern)))
    return resolvers

MAX_YAML_NODES = 100_000
"""A ruleset of more values than this, counting each alias as many times as it is used, is refused
(a few hundred bytes of nested aliases would otherwise expand to billions: the "billion laughs")."""

MAX_YAML_DEPTH = 64
"""A ruleset nested deeper than this (aliases expanded) is refused; the reference is 5 levels deep."""


class _LineLoader(yaml.SafeLoader):
    """A safe loader that refuses YAML nested deeper than ``MAX_YAML_DEPTH`` while composing it."""

    yaml_implicit_resolvers = _core_resolvers()

    def __init__(self, stream: str):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_YAML_DEPTH} levels deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_plain_yaml(text: str, file: str) -> tuple[yaml.Node | None, Any]:
    """Plain-data YAML (a ruleset, a score sheet) read with the guards against hostile YAML: no tags
    but plain data's, no recursive alias, at most ``MAX_YAML_NODES`` values and ``MAX_YAML_DEPTH``
    levels once aliases are expanded, no key twice in a mapping, YAML 1.2 core's numbers and booleans
    only, integers of at most ``MAX_INT_DIGITS`` digits.  The node tree (for line numbers) and the data;
    ``RulesetError`` naming ``file:line``."""
    loader = _LineLoader(text)
    data: Any = None
    try:
        node = loader.get_single_node()
        if node is not None:
            _check_tree(node, file)
            _check_keys_and_integers(node, file)
            data = loader.construct_document(node)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{file}:{mark.line + 1}" if mark else file
        raise RulesetError([f"{where}: invalid YAML: {getattr(e, 'problem', None) or e}"]) from None
    finally:
        loader.dispose()
    return node, data


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_tree(root: yaml.Node, file: str) -> None:
    """Refuse tags other than plain data's, recursive aliases, and a tree that, aliases expanded, holds
    more than ``MAX_YAML_NODES`` values or is deeper than ``MAX_YAML_DEPTH``: each node is visited
    once, whatever the aliases."""
    known = {*_LineLoader.yaml_constructors, "tag:yaml.org,2002:merge"} - {None}
    measured: dict[int, tuple[int, int]] = {}  # id(node) -> (values, depth) with aliases expanded
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            below = [measured[id(c)] for c in _children(node)]
            measured[key] = (1 + sum(n for n, _ in below), 1 + max((d for _, d in below), default=0))
            open_nodes.discard(key)
            count, depth = measured[key]
            line = node.start_mark.line + 1
            if count > MAX_YAML_NODES:
                raise RulesetError([f"{file}:{line}: more than {MAX_YAML_NODES:,} values once aliases are expanded "
                                    "(nested aliases?)"])
            if depth > MAX_YAML_DEPTH:
                raise RulesetError([f"{file}:{line}: nested more than {MAX_YAML_DEPTH} levels deep once aliases "
                                    "are expanded"])
            continue
        if key in measured:
            continue
        if key in open_nodes:
            raise RulesetError([f"{file}:{node.start_mark.line + 1}: an alias refers to a value that contains it "
                                "(a recursive alias)"])
        if node.tag not in known:
            raise RulesetError([f"{file}:{node.start_mark.line + 1}: unsupported YAML tag {_short_tag(node.tag)} "
                                "(a ruleset is plain data: mappings, lists, text, numbers, true/false, null)"])
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml.org,2002:") else tag


def _check_keys_and_integers(root: yaml.Node, file: str) -> None:
    """Refuse a key given twice in one mapping, and an integer of more than ``MAX_INT_DIGITS`` digits or
    tagged ``!!int`` but not decimal, each named with its line and key path (each node is checked once,
    at the first path that reaches it)."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, tuple[str, ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
            _check_integer(node, path, file)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, str(i))) for i, item in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            first: dict[tuple[str, str], int] = {}
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                line = key.start_mark.line + 1
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    if (key.tag, name) in first:
                        where = ".".join((*path, name))
                        raise RulesetError([f"{file}:{line}: {where}: duplicate key {_shown(name)} (first at line "
                                            f"{first[key.tag, name]}; YAML would keep only the last)"])
                    first[key.tag, name] = line
                stack.append((key, path))
                stack.append((value, (*path, name)))


def _check_integer(node: yaml.ScalarNode, path: tuple[str, ...], file: str) -> None:
    text = str(node.value)
    where = f"{file}:{node.start_mark.line + 1}: {'.'.join(path) or '(top level)'}"
    if not INT.match(text):
        raise RulesetError([f"{where}: {_shown(text)} is not a decimal integer (write it in digits 0-9)"])
    digits = len(text.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise RulesetError([f"{where}: an integer of {digits:,} digits is too large (at most {MAX_INT_DIGITS})"])


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")
