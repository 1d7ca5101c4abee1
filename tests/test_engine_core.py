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


# --- each rule of the play and of the auction written once ------------------------------------------------------

ONCE_SCOPE = ("core/engine", "core/rules", "plugins")
"""Where the rules of the trick and of the auction must be written once.  Not scanned: the double-dummy
solver's search (``core/engine/solver.py``, ``solver_search.py``, ``solver_bounds.py``, ``solver_moves.py``),
which restates the trick inline for speed on the kernel's compiled tables, and the players (``core/bots``), whose
own look-ahead reads the table's tables: the issue's item on what the table knows."""
ONCE_EXEMPT = {"core/engine/solver.py", "core/engine/solver_search.py", "core/engine/solver_bounds.py",
               "core/engine/solver_moves.py"}

WRITTEN_ONCE = {
    "the trick's winner": {"core/engine/kernel.py:trick_winner"},
    "follow suit": {"core/rules/tables.py:follow_suit"},
    "the end of the play": {"core/engine/kernel.py:play_over"},
    "the auction's end": {"core/rules/auction.py:closed"},
    "whose call it is": {"core/rules/auction.py:next_caller"},
}
"""Each rule, and the one function allowed to state it."""


def _functions(tree: ast.AST) -> list[tuple[str, ast.AST]]:
    """Every function of a module with its qualified name (``Class.method``, ``outer.inner``)."""
    found: list[tuple[str, ast.AST]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + child.name, child))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _name(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _stores(node: ast.AST, word: str) -> bool:
    return any(isinstance(t, (ast.Name, ast.Attribute)) and isinstance(t.ctx, ast.Store) and word in _name(t)
               for t in ast.walk(node))


def _decides_a_trick(fn: ast.AST) -> bool:
    """``if strength > best: ... winner = seat``: a card compared with the trick's best so far."""
    def compares_up(test: ast.AST) -> bool:
        return any(isinstance(c, ast.Compare) and any(isinstance(op, (ast.Gt, ast.GtE)) for op in c.ops)
                   for c in ast.walk(test))

    return any(isinstance(n, ast.If) and compares_up(n.test) and any(_stores(b, "winner") for b in n.body)
               for n in ast.walk(fn))


def _follows_suit(fn: ast.AST) -> bool:
    """``hand[led] or …`` (the cards of the suit led, else …) or ``hand & suit_mask[led]``."""
    for n in ast.walk(fn):
        if (isinstance(n, ast.BoolOp) and isinstance(n.op, ast.Or) and isinstance(n.values[0], ast.Subscript)
                and _name(n.values[0].slice).endswith("led")):
            return True
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitAnd) and any(
                isinstance(side, ast.Subscript) and "suit_mask" in _name(side.value)
                and _name(side.slice).endswith("led") for side in (n.left, n.right)):
            return True
    return False


def _ends_the_play(fn: ast.AST) -> bool:
    """Tricks played compared with the hand's size, or a trick's ``winner`` looked up in a set of seats (a
    misère lost)."""
    for n in ast.walk(fn):
        if not isinstance(n, ast.Compare):
            continue
        sides = [n.left, *n.comparators]
        played = any((isinstance(s, ast.Call) and _name(s.func) == "len" and "trick" in ast.unparse(s.args[0]))
                     or _name(s) in ("played", "tricks_played") for s in sides)
        if played and any(_name(s) == "hand_size" for s in sides):
            return True
        if isinstance(n.left, ast.Name) and n.left.id == "winner" and any(isinstance(op, (ast.In, ast.NotIn))
                                                                          for op in n.ops):
            return True
    return False


def _ends_the_auction(fn: ast.AST) -> bool:
    """The passes counted against the seats (rules 11 and 12)."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Compare) and any(isinstance(op, ast.Eq) for op in n.ops) and any(
                _name(s) == "passes" or (isinstance(s, ast.Call) and _name(s.func) == "sum"
                                         and "passed" in ast.unparse(s)) for s in [n.left, *n.comparators]):
            return True
    return False


def _moves_the_turn(fn: ast.AST) -> bool:
    """A loop that steps a ``seat`` on round the table past the seats that passed (or are out): whose call it is."""
    for loop in ast.walk(fn):
        if isinstance(loop, (ast.For, ast.While)):
            skips = any(isinstance(n, ast.Subscript) and any(w in _name(n.value) for w in ("passed", "out"))
                        and _name(n.slice) == "seat" for n in ast.walk(loop))
            steps = any(isinstance(n, ast.Assign) and any(_name(t) == "seat" for t in n.targets)
                        and isinstance(n.value, (ast.BinOp, ast.Subscript)) and "seat" in ast.unparse(n.value)
                        for n in ast.walk(loop))  # seat = (seat + 1) % n, seat = next_seat[seat]
            if skips and steps:
                return True
    return False


RULE_CHECKS = {"the trick's winner": _decides_a_trick, "follow suit": _follows_suit,
               "the end of the play": _ends_the_play, "the auction's end": _ends_the_auction,
               "whose call it is": _moves_the_turn}


def _statements(sources: dict[str, str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {rule: set() for rule in RULE_CHECKS}
    for path, source in sources.items():
        for name, fn in _functions(ast.parse(source)):
            for rule, check in RULE_CHECKS.items():
                if check(fn):
                    found[rule].add(f"{path}:{name}")
    return found


def test_the_rules_of_the_trick_and_of_the_auction_are_each_written_once() -> None:
    sources = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
               for folder in ONCE_SCOPE for p in sorted((ROOT / folder).rglob("*.py"))}
    found = _statements({path: text for path, text in sources.items() if path not in ONCE_EXEMPT})
    for rule, allowed in WRITTEN_ONCE.items():
        assert found[rule] == allowed, f"{rule} is stated in {sorted(found[rule] - allowed)}" if found[rule] - allowed \
            else f"{rule}: {sorted(allowed - found[rule])} no longer state it: update WRITTEN_ONCE"


def test_the_written_once_check_would_catch_a_restated_rule() -> None:
    restated = '''
def loop(hand, held, led, row, trick, nxt, bidding, tricks, hand_size, misere_side):
    pool = hand[led] or held
    mask = bits & suit_mask[led]
    best, winner = -1, -1
    for card in trick:
        if row[card] > best:
            best, winner = row[card], seat
    if len(tricks) == hand_size or winner in misere_side:
        return
    if sum(bidding.passed) == bidding.players:
        bidding.over = True
    seat = bidding.turn
    while bidding.passed[seat]:
        seat = (seat + 1) % 4
'''
    found = _statements({"core/engine/restated.py": restated})
    assert all(found[rule] == {"core/engine/restated.py:loop"} for rule in RULE_CHECKS), found
    assert all(found[rule] for rule in WRITTEN_ONCE)
