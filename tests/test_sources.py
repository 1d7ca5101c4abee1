"""Sources are cited by their own titles (never by the project's note files), and rewording a shipped
ruleset's citation kept its content hash: the records and tuned parameters made before still match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fivehundred.cli.app import app
from fivehundred.rules.loading import load_ruleset, ruleset_paths

ROOT = Path(__file__).resolve().parents[1]
TITLES = ("“Quinientos (500)”", "“Cómo jugar”", "“Introducción a Quinientos”", "“500 (juego de cartas)”")
NOTE_NAMES = re.compile(r"\bseeds? ?0\d\d\b|seeds/0|\b00[0-3]_[0-9a-f]{6}", re.IGNORECASE)


@pytest.mark.parametrize("name", sorted(ruleset_paths()))
def test_rules_show_cites_the_source_by_its_title(name: str) -> None:
    result = CliRunner().invoke(app, ["rules", "show", name])
    source = next(line for line in result.stdout.splitlines() if line.startswith("Source: "))
    assert any(title in source for title in TITLES) and not NOTE_NAMES.search(source)


@pytest.mark.parametrize("name", sorted(ruleset_paths()))
def test_a_reworded_citation_keeps_the_ruleset_s_hash(name: str) -> None:
    tuned = json.loads((ROOT / "core" / "bots" / "tuned" / f"{name}.json").read_text(encoding="utf-8"))
    assert load_ruleset(name).content_hash == tuned["ruleset_hash"]


def test_another_change_makes_another_hash() -> None:
    rs = load_ruleset("pagat-australian")
    assert rs.model_copy(update={"source": "my notes"}).content_hash != rs.content_hash


def test_no_text_of_the_product_cites_a_note_file() -> None:
    found = []
    for folder in ("core", "cli", "plugins", "rulesets", "docs", "tests", "examples"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".yaml", ".md", ".txt", ".toml") and path.name != "test_sources.py":
                text = path.read_text(encoding="utf-8", errors="replace")
                found += [f"{path.relative_to(ROOT)}: {m.group()}" for m in NOTE_NAMES.finditer(text)]
    assert not found
