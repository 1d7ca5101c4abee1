"""The engine's privacy, checked mechanically: nothing outside the engine touches a private attribute.

The rule, kept simple: in every module of the package except the engine itself (``core/engine/state.py`` and
the modules it is split into: its bases, its observation, parsing and explanations), an attribute access ``x._name``
(one leading underscore, not a dunder) is allowed only where ``x`` is the bare name ``self`` or
``cls``: an object may use its own private attributes in its own methods, and nothing else may.
Plugins, bots and tools read a game through ``GameState``'s public read API (``hand(seat)``,
``contract``, ``contracting_side``, ``trick``, ``voids(seat)``, ``play_table`` …) and change one
only through ``apply`` (or, for a sampling bot's determinised clone, ``redistribute`` and
``set_contracting_side``).  Private module-level names imported by name are not attribute accesses and
are not this rule's business.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ("core", "plugins", "cli", "rulesets")
"""The source folders of the package (``pyproject.toml``'s ``package-dir``)."""
ENGINE = {f"core/engine/{name}.py" for name in (
    "state", "exchange", "reading", "play", "observation", "parsing", "illegal", "kernel", "solver", "effects")}
OWN = {"self", "cls"}


def private_accesses(source: str, filename: str = "<module>") -> list[str]:
    """Every ``x._name`` in ``source`` where ``x`` is not ``self`` or ``cls``, as ``file:line: text``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in OWN:
            continue
        found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


def modules() -> list[Path]:
    return sorted(p for folder in PACKAGE for p in (ROOT / folder).rglob("*.py"))


def test_nothing_outside_the_engine_reads_or_writes_a_private_attribute() -> None:
    found = []
    for path in modules():
        name = path.relative_to(ROOT).as_posix()
        if name not in ENGINE:
            found += private_accesses(path.read_text(encoding="utf-8"), name)
    assert not found, "private attributes used outside the engine:\n" + "\n".join(found)


def test_the_check_sees_the_whole_package() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in modules()}
    assert names >= ENGINE
    assert {"core/bots/montecarlo.py", "plugins/claims.py", "plugins/midhand.py", "plugins/tricks.py",
            "cli/app.py"} <= names


def test_the_rule_flags_what_it_should() -> None:
    source = """
class Bot:
    def act(self, state, other):
        self._cache = state._held          # a state's private attribute: flagged
        state._side = frozenset()          # written: flagged
        held = state.hand(0)               # public: fine
        type(self)._count = 1              # not the bare name self: flagged
        return other._turn, self.__class__, cls._registry   # flagged, dunder fine, cls fine
"""
    flagged = [line.split(": ", 1)[1] for line in private_accesses(source)]
    assert sorted(flagged) == ["other._turn", "state._held", "state._side", "type(self)._count"]
