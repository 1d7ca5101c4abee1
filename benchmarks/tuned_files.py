"""The shipped tuned sets as the fitting benchmarks read and write them (``contested.py``, ``long_suits.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

TUNED = Path(__file__).resolve().parents[1] / "core" / "bots" / "tuned"


def fit_arguments(doc: str, games: int, seed: str, write: str) -> argparse.ArgumentParser:
    """A fitting benchmark's arguments: ``-r`` (repeatable), ``-n`` games, ``--seed`` and ``--write`` (``write``: what
    it sets in the shipped sets)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("-r", "--ruleset", action="append", help="repeatable; default: every ruleset with a tuned set")
    ap.add_argument("-n", "--games", type=int, default=games)
    ap.add_argument("--seed", default=seed)
    ap.add_argument("--write", action="store_true", help=write)
    return ap


def command_line(script: str, argv: list[str] | None) -> str:
    """The command that ran, as a tuned set records it."""
    return " ".join([f"python benchmarks/{script}", *(argv if argv is not None else sys.argv[1:])])


def write_fit(name: str, values: dict[str, Any], record: str, about: dict[str, Any]) -> Path:
    """Set ``values`` in the shipped tuned set of ruleset ``name`` (its other parameters kept) and record ``about``
    under its ``tuning.record``."""
    path = TUNED / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["params"].update(values)
    data.setdefault("tuning", {})[record] = about
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
