"""Loading rulesets: a name or a path found among the shipped rulesets and the files around, ``extends``
resolved (up to ``MAX_EXTENDS`` deep, never outside the folder of the file asked for), the YAML read plainly and
validated as a ``Ruleset``, every problem reported at once as ``file:line: key.path: message``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .errors import RulesetError, UnknownNameError, unknown_name
from .inputs import MAX_RULESET_BYTES, InputError, read_text
from .ladder import apply_ladder_changes
from .plain_yaml import load_plain_yaml
from .ruleset import Ruleset, Rung

Lines = dict[tuple[str | int, ...], tuple[str, int]]


def _read_yaml(path: Path) -> tuple[dict[str, Any], Lines]:
    try:
        text = read_text(path, MAX_RULESET_BYTES, "a ruleset")
    except InputError as e:
        raise RulesetError([str(e)]) from None
    node, data = load_plain_yaml(text, str(path))
    if node is None or not isinstance(node, yaml.MappingNode):
        raise RulesetError([f"{path}:1: a ruleset must be a mapping of keys to values"])
    lines: Lines = {}
    _index_lines(node, (), str(path), lines)
    return data, lines


def _index_lines(node: yaml.Node, path: tuple[str | int, ...], file: str, lines: Lines) -> None:
    lines[path] = (file, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            sub = (*path, key.value)
            lines[sub] = (file, key.start_mark.line + 1)
            _index_lines(value, sub, file, lines)
            lines[sub] = (file, key.start_mark.line + 1)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index_lines(item, (*path, i), file, lines)


FREE_FORM = {("contracts",), ("house_rules",), ("players", "dummies"), ("deck", "suits")}
"""Mappings whose entries a child ruleset may remove with ``name: null``."""


def _merge(base: Any, override: Any, path: tuple[str, ...] = ()) -> Any:
    """Deep-merge mappings; a list or scalar replaces; ``key: null`` inside a free-form mapping
    removes the inherited entry (``contracts: {misere: null}``)."""
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            if value is None and path in FREE_FORM:
                merged.pop(key, None)
            else:
                merged[key] = _merge(base[key], value, (*path, key)) if key in base else value
        return merged
    return override


def bundled_dir() -> Path:
    return Path(str(resources.files("fivehundred.rulesets")))


def ruleset_paths() -> dict[str, Path]:
    """Every ruleset known by name: the bundled ones, then those that plugins provide."""
    from .culprits import checked_answers, ruleset_files_problem
    from .manager import plugin_manager

    found = {p.stem: p for p in sorted(bundled_dir().glob("*.yaml"))}
    for extra in checked_answers(plugin_manager(), "fivehundred_ruleset_paths", ruleset_files_problem):
        for p in extra:
            found.setdefault(Path(p).stem, Path(p))
    return found


def is_ruleset_path(ref: str | Path) -> bool:
    """Whether ``ref`` names a ruleset file rather than a ruleset: a ``Path``, or text holding a path separator
    (``./house.yaml``, ``rules/house``) or ending in ``.yaml`` / ``.yml``.  Anything else is a name, of a shipped
    or plugin-provided ruleset only: a file or folder of that name in the current folder is never read."""
    return isinstance(ref, Path) or ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def _locate(ref: str | Path) -> Path:
    """A ruleset the user names: a shipped or plugin-provided name, or a path to a YAML file (``is_ruleset_path``)."""
    if is_ruleset_path(ref):
        if Path(ref).exists():
            return Path(ref)
        raise UnknownNameError(f"ruleset file not found: {ref}")
    try:
        return _named(str(ref))
    except UnknownNameError as e:
        if Path(ref).exists():  # the user typed it: say how to give the file
            raise UnknownNameError(f"{e}; a ruleset file is given by its path (./{ref}), a bare name is a shipped "
                                   "or plugin ruleset") from None
        raise


def _named(name: str) -> Path:
    known = ruleset_paths()
    if name in known:
        return known[name]
    raise unknown_name("ruleset", name, known, listed_by="`fivehundred rules list`")


def _by_name(ref: str) -> bool:
    """An ``extends:`` that names a shipped or plugin-provided ruleset (not a file: ``is_ruleset_path``)."""
    return not is_ruleset_path(ref)


def _locate_parent(ref: str, child: Path, root: Path) -> Path:
    """The ruleset an ``extends:`` names: a shipped or plugin-provided name, or a YAML file in the
    folder of the ruleset the user gave (``root``) or below it, found relative to the extending file."""
    if _by_name(ref):
        return _named(ref)
    if Path(ref).is_absolute():
        raise UnknownNameError(f"{ref} is an absolute path; a ruleset extends a ruleset name or a file beside "
                               f"or below it, by relative path")
    near = child.parent / ref
    if not near.resolve().is_relative_to(root.resolve()):
        raise UnknownNameError(f"{ref} is outside {root}, the folder of the ruleset given; a ruleset extends a "
                               "ruleset name or a file in that folder or below it")
    if not near.exists():
        raise UnknownNameError(f"ruleset file not found: {ref}")
    return near


MAX_EXTENDS = 32
"""The longest chain of ``extends:`` a ruleset may have (the shipped ones use two or three)."""


def _resolve(path: Path, root: Path, seen: tuple[Path, ...] = (),
             named: list[str] | None = None) -> tuple[dict[str, Any], Lines]:
    """The merged data of ``path`` and what it extends, with each key's line; ``named`` collects the
    ancestors extended by name, nearest first."""
    data, lines = _read_yaml(path)
    parent_ref = data.pop("extends", None)
    if parent_ref is None:
        apply_ladder_changes(data, lines, Rung.model_fields, str(path))
        return data, lines
    file, line = lines.get(("extends",), (str(path), 1))
    try:
        parent_path = _locate_parent(str(parent_ref), path, root)
    except UnknownNameError as e:
        raise RulesetError([f"{file}:{line}: extends: {e}"]) from None
    chain = (*seen, path.resolve())
    if len(chain) >= MAX_EXTENDS:
        raise RulesetError([f"{file}:{line}: extends: a chain of more than {MAX_EXTENDS} rulesets (each extending "
                            "the next); extend one nearer the base"])
    if parent_path.resolve() in chain:
        cycle = " → ".join(str(p) for p in (*chain, parent_path.resolve()))
        raise RulesetError([f"{file}:{line}: extends: makes a cycle: {cycle}"])
    if named is not None and _by_name(str(parent_ref)):
        named.append(str(parent_ref))
    base, base_lines = _resolve(parent_path, root if _is_within(parent_path, root) else parent_path.parent, chain,
                                named)
    for key in ("name", "description", "source"):
        base.pop(key, None)
    merged, merged_lines = _merge(base, data), {**_inherited(base_lines, lines, data), **lines}
    apply_ladder_changes(merged, merged_lines, Rung.model_fields, str(path))
    return merged, merged_lines


def _is_within(path: Path, root: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


def _inherited(base_lines: Lines, lines: Lines, data: dict[str, Any]) -> Lines:
    """The parent's line positions that still describe the merged data: none below a value that
    the child replaced (a list or a scalar), since what is there now comes from the child."""

    def replaced(path: tuple[str | int, ...]) -> bool:
        node: Any = data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
        return not isinstance(node, dict)

    return {path: where for path, where in base_lines.items()
            if not any(path[:n] in lines and replaced(path[:n]) for n in range(1, len(path)))}


def _line_of(loc: tuple[str | int, ...], lines: Lines, default: str) -> str:
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            file, line = lines[loc[:n]]
            return f"{file}:{line}"
    return default


def _problems(error: ValidationError, lines: Lines, default: str) -> list[str]:
    errors = [(tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-"))), e)
              for e in error.errors()]
    out = []
    for loc, err in errors:
        if err["type"] == "too_short" and any(len(o) > len(loc) and o[: len(loc)] == loc for o, _ in errors):
            continue  # its items were invalid, so pydantic saw none; the items' own errors say why
        key = ".".join(str(p) for p in loc) or "(top level)"
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown key (a typo?)"
        elif err["type"] == "int_type":
            msg = f"an integer in digits (such as 500), not {_kind(err.get('input'))}"
        out.append(f"{_line_of(loc, lines, default)}: {key}: {msg}")
    return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, str):
        return f"the text {value[:40]!r}" + (" (quoted, or not a decimal integer)" if value else "")
    return f"{type(value).__name__} {str(value)[:40]}"


def load_ruleset(ref: str | Path = "pagat-australian") -> Ruleset:
    """Load a ruleset by shipped or plugin name (``"pagat-australian"``) or by path to a YAML file (a ``Path``,
    or text with a path separator or ending in .yaml/.yml: ``is_ruleset_path``).

    Raises ``RulesetError`` listing every problem, each as ``file:line: key.path: message``, then
    runs the plugins' consistency checks (``fivehundred_check_ruleset``).
    """
    path = _locate(ref)
    ancestors: list[str] = []
    data, lines = _resolve(path, path.parent, named=ancestors)
    data.setdefault("name", path.stem)
    return _checked(data, lines, str(path), tuple(ancestors))


def ruleset_from_data(data: Mapping[str, Any], source: str, ancestors: Sequence[str] = ()) -> Ruleset:
    """A resolved ruleset from plain data (what a game record carries), checked as ``load_ruleset`` checks a
    file, the plugins' checks included; ``RulesetError`` names ``source`` and the key of every problem.
    ``ancestors``: the rulesets it was built on, by name (``Ruleset.ancestors``)."""
    if not isinstance(data, Mapping):
        raise RulesetError([f"{source}: not a ruleset (a JSON object)"])
    return _checked(dict(data), {}, source, tuple(ancestors))


def _checked(data: dict[str, Any], lines: Lines, source: str, ancestors: tuple[str, ...]) -> Ruleset:
    try:
        ruleset = Ruleset.model_validate(data, context={"locate_problems": True})
    except ValidationError as e:
        raise RulesetError(_problems(e, lines, source)) from None
    from .manager import check_ruleset

    located = [*ruleset.consistency_problems(), *((_key_path(key), msg) for key, msg in check_ruleset(ruleset))]
    if located:
        raise RulesetError([f"{_line_of(loc, lines, source)}: {'.'.join(map(str, loc))}: {msg}"
                            for loc, msg in located])
    ruleset.__dict__["_ancestors"] = tuple(ancestors)
    return ruleset


def load_named_ruleset(name: str) -> Ruleset:
    """A shipped or plugin-provided ruleset by name, never a file: for the names that records give
    (a record must not make the program open a path it holds; the user gives a file with --ruleset)."""
    try:
        path = _named(name)
    except UnknownNameError as e:
        raise UnknownNameError(f"{e} (a record names its ruleset; give a ruleset file with --ruleset)") from None
    return load_ruleset(path)


def _key_path(key: str) -> tuple[str | int, ...]:
    return tuple(int(part) if part.isdigit() else part for part in key.split("."))


def iter_rulesets() -> Iterator[tuple[str, Path]]:
    yield from ruleset_paths().items()
