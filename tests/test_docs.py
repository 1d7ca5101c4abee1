"""The documentation keeps up with the code: every catalogue id has its row and its tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT.parent / "shared" / "VARIANTS.md"
"""The variant catalogue: kept outside the repository, beside a developer's checkout."""
VENDORED = ROOT / "tests" / "data" / "variant_ids.txt"
"""Its ids, copied into the repository so that these tests run in a clean clone (CI) too."""
NOT_YET_PLAYED: set[str] = set()
"""Ids whose field exists but whose behaviour the engine does not play yet (said in docs/variants.md)."""


def catalogue_ids() -> list[str]:
    ids = [line.strip() for line in VENDORED.read_text(encoding="utf-8").splitlines()
           if line.strip() and not line.startswith("#")]
    assert len(ids) >= 40 and all(re.fullmatch(r"[A-Z][A-Z0-9]*", vid) for vid in ids), ids
    return ids


def test_the_vendored_ids_are_the_catalogue_s() -> None:
    if not CATALOGUE.exists():
        pytest.skip("shared/VARIANTS.md is kept outside the repository and is not beside this checkout: "
                    "tests/data/variant_ids.txt stands in for it")
    catalogue = re.findall(r"^\| ([A-Z][A-Z0-9]*) \|", CATALOGUE.read_text(encoding="utf-8"), flags=re.M)
    assert catalogue_ids() == catalogue, f"refresh {VENDORED.relative_to(ROOT)} from {CATALOGUE}"


def test_every_catalogue_id_has_a_row_in_docs_variants() -> None:
    rows = set(re.findall(r"^\| ([A-Z][A-Z0-9]*) \|", (ROOT / "docs" / "variants.md").read_text("utf-8"), re.M))
    missing = [vid for vid in catalogue_ids() if vid not in rows]
    assert not missing, f"docs/variants.md has no row for {missing}"


def test_every_catalogue_id_has_a_test_of_its_own() -> None:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names.update(re.findall(r"def test_([A-Z][A-Z0-9]*)_", path.read_text("utf-8")))
    missing = [vid for vid in catalogue_ids() if vid not in names and vid not in NOT_YET_PLAYED]
    assert not missing, f"no test_<ID>_… for {missing}"


def test_every_test_named_in_docs_variants_exists() -> None:
    text = (ROOT / "docs" / "variants.md").read_text("utf-8")
    for file, name in re.findall(r"`(test_\w+\.py)::(test_\w+)`", text):
        assert f"def {name}(" in (ROOT / "tests" / file).read_text("utf-8"), f"{file}::{name} is gone"
