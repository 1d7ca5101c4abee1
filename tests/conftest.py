"""Shared fixtures: the shipped rulesets, loaded once per test session."""

from __future__ import annotations

import pytest

import fivehundred
from fivehundred.rules.ruleset import Ruleset, ruleset_paths

SHIPPED_RULESETS = sorted(ruleset_paths())
"""Every ruleset known by name (bundled and from installed plugins)."""


@pytest.fixture(scope="session")
def pagat() -> Ruleset:
    """The reference ruleset of RULES.md."""
    return fivehundred.load_ruleset("pagat-australian")


@pytest.fixture(scope="session", params=SHIPPED_RULESETS)
def shipped_ruleset(request: pytest.FixtureRequest) -> Ruleset:
    """Each shipped ruleset in turn."""
    return fivehundred.load_ruleset(request.param)
