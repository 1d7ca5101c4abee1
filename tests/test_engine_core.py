"""The engine core names no variant that a step has taken over, and nothing new.

The state machine (``core/engine/state.py`` and the modules it is split into), its action encoding
(``core/rules/actions.py``) and the step framework (``core/rules/steps.py``) are read as text.  What
differs between rulesets belongs in plugins (steps, tables, scoring) and ruleset fields.  The variants
the engine still handles itself are listed below, file by file, as known debt: the test fails when a
file names a variant id outside its list (a new variant wired into the engine), and when a listed id is
gone (so that the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

import pytest
import yaml

from fivehundred.rules.tables import Kind

ROOT = Path(__file__).resolve().parent.parent

ENGINE_DEBT: dict[str, set[str]] = {
    # No debt left.  (The dead hand, bars, partners' open hands, what becomes of a deal everybody passed, a
    # follower's joker played with a named suit and seats that never call or are played by another are
    # data the engine reads without naming a variant: the deal pattern's dead packets, the auction rules'
    # bars, AllPassed and silent seats, Contract.partner_open, the joker actions a play table's legal plays
    # offer, Rules.controller.  A misdeal and a hand laid out on the table are steps' effects:
    # fivehundred.rules.effects.ThrowIn and LayOut, carried out by GameState.carry_out.)
    "core/engine/state.py": set(),
    "core/engine/exchange.py": set(),
    "core/engine/reading.py": set(),
    "core/engine/play.py": set(),
    "core/engine/observation.py": set(),
    "core/engine/parsing.py": set(),
    "core/engine/illegal.py": set(),
    "core/engine/hand_log.py": set(),
    "core/rules/actions.py": set(),
    "core/rules/steps.py": set(),
}

MOVED_TO_STEPS = {"P5", "C6", "C7", "R2", "B8", "FC", "L2", "C1", "D4", "P2"}
"""Variants that are steps now (plugins/partner.py, declarations.py, breach.py, blind.py, kitty.py, claims.py,
passing.py, misdeal.py, dummies.py)."""

VARIANT_ID = re.compile(r"\b(?:FC|[A-Z]\d{1,2})\b")


def variant_ids(text: str) -> set[str]:
    known = {line.split("|")[1].strip() for line in (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
             .splitlines() if line.startswith("| ") and VARIANT_ID.fullmatch(line.split("|")[1].strip())}
    return {m for m in VARIANT_ID.findall(text) if m in known or m in MOVED_TO_STEPS}


@pytest.mark.parametrize("path", sorted(ENGINE_DEBT))
def test_the_engine_core_names_only_its_known_variants(path: str) -> None:
    named = variant_ids((ROOT / path).read_text(encoding="utf-8"))
    assert not named & MOVED_TO_STEPS, f"{path} names variants that are steps now: {sorted(named & MOVED_TO_STEPS)}"
    assert named <= ENGINE_DEBT[path], f"{path} names new variants: {sorted(named - ENGINE_DEBT[path])}"
    assert named == ENGINE_DEBT[path], f"{path} no longer names {sorted(ENGINE_DEBT[path] - named)}: shrink the list"


def call_names() -> set[str]:
    """Every call and contract name of the shipped rulesets' ladders (``7H``, ``misere``, ``blind-misere``…)."""
    names = set()
    for path in (ROOT / "rulesets").glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        names |= {rung["call"] for rung in data.get("auction", {}).get("ladder", [])}
        names |= set(data.get("contracts") or {})
    return names


@pytest.mark.parametrize("path", sorted(ENGINE_DEBT))
def test_the_engine_core_has_no_contract_name_and_reads_rulesets_through_the_rules(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    # The contract kinds (trumps, no-trumps, misère) are the reference game's categories, not names.
    names = (call_names() | {"slam", "declare", "breach", "partner", "give", "alone", "blind"}) - set(get_args(Kind))
    assert not strings & names, f"{path} compares against contract or step names: {sorted(strings & names)}"
    past_facade = [node.lineno for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and node.attr == "ruleset"
                   and isinstance(node.value, ast.Attribute) and node.value.attr == "rules"]
    assert not past_facade, f"{path} reads the ruleset past the Rules facade at lines {past_facade}"


def test_the_checks_would_catch_a_variant_wired_into_the_engine() -> None:
    wired = 'if log.contract.call == "open-misere" and rules.ruleset.scoring.breach:  # R2\n'
    assert "R2" in variant_ids(wired)
    tree = ast.parse(wired + "    pass\n")
    assert {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)} & call_names()
