"""The documentation keeps up with the code: every catalogue id has its row and its tests,
docs/variants.md is what docs/gen_variants.py makes of the rulesets' fields and the tests, and
docs/rules.md numbers every rule that errors cite.  Everything read here is inside the repository."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENDORED = ROOT / "tests" / "data" / "variant_ids.txt"
"""The variant catalogue's ids: docs/variants.md has a row for each."""
NOT_YET_PLAYED: set[str] = set()
"""Ids whose field exists but whose behaviour the engine does not play yet (said in docs/variants.md)."""
RULES_DOC = ROOT / "docs" / "rules.md"
REFERENCE_RULES = 31
"""docs/rules.md numbers the reference game's rules 1 to 31."""


def catalogue_ids() -> list[str]:
    ids = [line.strip() for line in VENDORED.read_text(encoding="utf-8").splitlines()
           if line.strip() and not line.startswith("#")]
    assert len(ids) >= 40 and all(re.fullmatch(r"[A-Z][A-Z0-9]*", vid) for vid in ids), ids
    return ids


def test_docs_variants_lists_the_catalogue_once_each() -> None:
    rows = re.findall(r"^\| ([A-Z][A-Z0-9]*) \|", (ROOT / "docs" / "variants.md").read_text("utf-8"), re.M)
    assert len(rows) == len(set(rows)) and sorted(rows) == sorted(catalogue_ids())


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


# --- docs/rules.md: the reference game, numbered as errors cite it ---------------------------


def numbered_rules() -> dict[int, str]:
    text = RULES_DOC.read_text("utf-8")
    found = re.findall(r"^(\d+)\. (.+)$", text, flags=re.M)
    return {int(n): line for n, line in found}


def test_docs_rules_numbers_the_rules_1_to_31_in_order() -> None:
    text = RULES_DOC.read_text("utf-8")
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", text, flags=re.M)]
    assert numbers == list(range(1, REFERENCE_RULES + 1))


def cited_rules() -> dict[int, set[str]]:
    """Every rule number that the code cites ("rule 16", "rules 24–27", "rule 2/6"), by source file."""
    cited: dict[int, set[str]] = {}
    for folder in ("core", "plugins", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            for first, last in re.findall(r"\brules? (\d+)(?:[–/-](\d+))?", path.read_text("utf-8")):
                for n in {int(first), int(last or first)}:
                    cited.setdefault(n, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_rule_the_code_cites_is_in_docs_rules() -> None:
    cited = cited_rules()
    assert {16, 12, 13, 24, 27, 31} <= set(cited), sorted(cited)
    missing = {n: sorted(files) for n, files in cited.items() if n not in numbered_rules()}
    assert not missing, f"cited but not numbered in docs/rules.md: {missing}"


@pytest.mark.parametrize(("number", "words"), [
    (7, "left"), (12, "may not raise"), (13, "nobody scores"), (16, "follow suit"), (21, "must then be played"),
    (22, "nobody has led yet"), (24, "Avondale"), (27, "wins no trick"), (29, "−500"), (30, "500 or more")])
def test_each_rule_says_what_errors_cite_it_for(number: int, words: str) -> None:
    text = RULES_DOC.read_text("utf-8")
    body = text.split(f"\n{number}. ", 1)[1].split(f"\n{number + 1}. ", 1)[0]
    assert words.lower() in " ".join(body.split()).lower(), body


def test_the_error_texts_cite_the_rules_as_docs_rules_numbers_them() -> None:
    from fivehundred.rules import rules_text

    for name, text in vars(rules_text).items():
        if name.isupper() and isinstance(text, str):
            found = re.match(r"rules? (\d+)", text)
            if found:
                assert int(found.group(1)) in numbered_rules(), (name, text)


def test_nothing_points_outside_the_repository() -> None:
    """The rules text ships with the project: no error, ruleset or document names a file beside it."""
    paths = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "rulesets").glob("*.yaml")]
    for folder in ("core", "plugins", "cli"):
        paths += (ROOT / folder).rglob("*.py")
    for path in paths:
        text = path.read_text("utf-8")
        for outside in ("RULES.md", "VARIANTS.md", "../shared", "shared/"):
            assert outside not in text, f"{path.relative_to(ROOT)} names {outside}"


def test_the_readme_and_rules_show_point_to_docs_rules() -> None:
    from typer.testing import CliRunner

    from fivehundred.cli.app import app

    assert "(docs/rules.md)" in (ROOT / "README.md").read_text("utf-8")
    for name in ("pagat-australian", "six-handed"):
        shown = CliRunner().invoke(app, ["rules", "show", name]).stdout
        assert "docs/rules.md" in shown and "docs/variants.md" in shown
    import fivehundred

    assert "docs/rules.md" in fivehundred.load_ruleset("pagat-australian").source


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", ["cli.md", "layers.md"])
def test_the_generated_reference_pages_are_up_to_date(page: str) -> None:
    """The command reference is the Typer app's own help; the layer table is pyproject.toml's contract and the
    source tree.  Regenerate with ``python docs/gen_reference.py`` when this fails."""
    made = _load("gen_reference").PAGES[page]()
    assert (ROOT / "docs" / page).read_text("utf-8") == made, f"docs/{page} is stale: run python docs/gen_reference.py"


def test_a_layer_table_in_the_readme_is_the_generated_one() -> None:
    """The README's Layout table, if it has one, is what ``python docs/gen_reference.py`` writes between its
    markers: no layer's row (``| `fivehundred.…` |``) outside them, and the rows between them up to date."""
    gen = _load("gen_reference")
    readme = (ROOT / "README.md").read_text("utf-8")
    begin, end = readme.find(gen.LAYOUT_BEGIN), readme.find(gen.LAYOUT_END)
    outside = readme if begin < 0 else readme[:begin] + readme[end:]
    assert not re.search(r"^\| `fivehundred\.", outside, re.M), "a layer table in README.md outside the markers"
    assert gen.with_layout(readme) == readme, "README.md's layout table is stale: run python docs/gen_reference.py"


def test_the_readme_layout_is_written_between_its_markers_only() -> None:
    gen = _load("gen_reference")
    text = f"# Title\n\n## Layout\n\n{gen.LAYOUT_BEGIN}\n| an old | table |\n{gen.LAYOUT_END}\n\nAfter.\n"
    made = gen.with_layout(text)
    assert made == (f"# Title\n\n## Layout\n\n{gen.LAYOUT_BEGIN}\n\n{gen.layout_table()}\n{gen.LAYOUT_END}\n"
                    "\nAfter.\n")
    assert gen.with_layout(made) == made  # written again: the same
    assert "`fivehundred.bots` |" in made and "`heuristic`" in made and "an old" not in made
    assert gen.with_layout("# no markers\n") == "# no markers\n"
    assert gen.layout_table() in gen.layers_page()  # the README's table is docs/layers.md's


def test_the_layer_table_names_every_module_of_each_layer() -> None:
    table = (ROOT / "docs" / "layers.md").read_text("utf-8")
    for module in (ROOT / "core" / "engine").glob("*.py"):
        if module.stem != "__init__":
            assert f"`{module.stem}`" in table, module.stem


def test_the_readme_is_a_users_guide_of_at_most_400_lines() -> None:
    assert len((ROOT / "README.md").read_text("utf-8").splitlines()) <= 400


def test_every_docs_page_is_in_the_site() -> None:
    """mkdocs builds the site from mkdocs.yml's nav: a page left out of it is a page nobody finds."""
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    for page in (ROOT / "docs").glob("*.md"):
        assert f": {page.name}" in nav, f"docs/{page.name} is not in mkdocs.yml's nav"


def test_no_commit_hashes_in_the_product_texts() -> None:
    """The README and docs speak of the program, not of its development history by commit."""
    hashes = re.compile(r"\b(?:commit\s+)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
    skip = {"testing.md"}  # mutation testing names cosmic-ray's job ids, which look the same
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        if page.name not in skip:
            found = hashes.findall(page.read_text("utf-8"))
            assert not found, f"{page.name}: {found[:5]}"
