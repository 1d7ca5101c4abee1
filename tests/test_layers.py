"""The package's layers: rules, engine, bots, plugins, records, batch, analysis, cli (``pyproject.toml``,
``[tool.importlinter]``).  A layer imports only the layers below it, nothing imports in a cycle (imports
inside functions included), imports inside a layer are relative, and nothing imports the source folders
by their bare names (``core``, ``cli``, ``plugins``).  CI also runs ``lint-imports`` on the same contract.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"]["importlinter"]["contracts"][0]["layers"]
"""Highest first."""
DATA = {"fivehundred.rulesets"}
"""Packages of data only (the shipped YAML rulesets): in no layer."""
FOLDERS = {"fivehundred.cli": ROOT / "cli", "fivehundred.plugins": ROOT / "plugins"}
"""Where a layer's source is, when not ``core/<name>`` (``pyproject.toml``'s ``package-dir``)."""


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("fivehundred", exclude_type_checking_imports=True)


def layer_of(module: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if module == layer or module.startswith(layer + ".")), None)


ENTRY = "fivehundred.__main__"
"""``python -m fivehundred``: above every layer, it only starts the command line."""


def test_every_module_of_the_package_is_in_a_layer(graph: grimp.ImportGraph) -> None:
    loose = sorted(m for m in graph.modules
                   if m not in ("fivehundred", ENTRY) and m not in DATA and layer_of(m) is None)
    assert not loose, f"modules in no layer: {loose}"
    assert graph.find_modules_directly_imported_by(ENTRY) <= {"fivehundred.cli.app"}


def test_a_layer_imports_only_the_layers_below_it(graph: grimp.ImportGraph) -> None:
    upward = []
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            low, high = layer_of(importer), layer_of(imported)
            if low is not None and high is not None and high < low:
                upward.append(f"{importer} -> {imported}")
    assert not upward, upward


def test_nothing_imports_in_a_cycle(graph: grimp.ImportGraph) -> None:
    cycles = set()
    for a in graph.modules:
        for b in graph.find_modules_directly_imported_by(a):
            if b.startswith(a + ".") or a.startswith(b + "."):
                continue  # a package and its own modules
            back = graph.find_shortest_chain(importer=b, imported=a)
            if back:
                cycles.add(" -> ".join([a, *back]))
    assert not cycles, sorted(cycles)


def python_files() -> list[Path]:
    skip = {".git", "build", ".ci-venv"}
    return [p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts)
            and not any(part.startswith(("venv", ".venv")) for part in p.relative_to(ROOT).parts)]


def test_nothing_imports_the_source_folders_by_their_bare_names() -> None:
    bare = []
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            bare += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in ("core", "cli", "plugins")]
    assert not bare, bare


def test_imports_inside_a_layer_are_relative() -> None:
    absolute = []
    for layer in LAYERS:
        folder = FOLDERS.get(layer, ROOT / "core" / layer.split(".")[1])
        for path in folder.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                        node.module == layer or node.module.startswith(layer + ".")):
                    absolute.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module}")
    assert not absolute, absolute
