"""The documentation keeps up with the code: every catalogue id has its row and its tests, and
docs/variants.md is what docs/gen_variants.py makes of the rulesets' fields and the tests."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path
from types import ModuleType

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


@cache
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_variants", ROOT / "docs" / "gen_variants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_variants_is_up_to_date() -> None:
    """Regenerate with ``python docs/gen_variants.py`` when this fails."""
    assert (ROOT / "docs" / "variants.md").read_text("utf-8") == generator().render(), (
        "docs/variants.md is stale: run python docs/gen_variants.py")


def test_every_catalogue_id_has_a_test_on_the_rulesets_fields() -> None:
    gen = generator()
    assert sorted(vid for vid, *_ in gen.V) == sorted(catalogue_ids())
    assert set(gen.USES) == set(catalogue_ids())


@cache
def uses() -> dict[str, list[str]]:
    found: dict[str, list[str]] = generator().uses()
    return found


def listed() -> dict[str, list[str]]:
    """The "shipped rulesets" column of docs/variants.md, by id."""
    out = {}
    for line in (ROOT / "docs" / "variants.md").read_text("utf-8").splitlines():
        cells = line.strip("| ").split(" | ")
        if len(cells) == 5 and re.fullmatch(r"[A-Z][A-Z0-9]*", cells[0]) and cells[0] != "id":
            out[cells[0]] = [] if cells[3] == "—" else cells[3].split(", ")
    return out


@pytest.mark.parametrize(("vid", "ruleset"), [
    ("B1", "six-handed-three-teams"), ("B2", "six-handed-three-teams"), ("C1", "six-handed-three-teams"),
    ("C2", "six-handed-three-teams"), ("E1", "six-handed"), ("E2", "six-handed"), ("E3", "six-handed")])
def test_a_seat_named_like_an_id_is_not_a_use_of_it(vid: str, ruleset: str) -> None:
    """The seats A1 B1 C1 … and E1 E2 E3 are seat names, not variants (a text search took them for ids)."""
    assert ruleset not in uses()[vid]
    assert ruleset not in listed()[vid]


@pytest.mark.parametrize(("vid", "ruleset"), [
    ("B5", "avondale-us"), ("E1", "avondale-us"), ("B1", "avondale-us"),  # inherited from american-1904
    ("B11", "nullo"), ("S2", "perfect"), ("C3", "perfect"), ("S1", "american-1904"), ("P6", "six-handed"),
    ("P6", "six-handed-three-teams"), ("P3", "three-handed-dead-hand"), ("J2", "canadian"), ("FC", "french-canadian")])
def test_a_ruleset_uses_what_its_fields_say(vid: str, ruleset: str) -> None:
    assert ruleset in uses()[vid]
    assert ruleset in listed()[vid]


def test_the_reference_uses_no_variant() -> None:
    assert [vid for vid, names in uses().items() if "pagat-australian" in names] == []
