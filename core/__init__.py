"""fivehundred: a configurable rules-variant framework for the card game Five Hundred.

The public API::

    import fivehundred
    ruleset = fivehundred.load_ruleset("pagat-australian")
    summary = fivehundred.simulate(games=100, seed=1, ruleset=ruleset)
    report = fivehundred.validate(["games.jsonl"])
"""

import warnings
from typing import TYPE_CHECKING

from fivehundred.build import engine_build, stale_extensions
from fivehundred.cards import Card, card_str, parse_card
from fivehundred.errors import (
    FiveHundredError,
    IllegalActionError,
    PluginError,
    RecordError,
    RulesetError,
    UnknownNameError,
)
from fivehundred.markers import applies_when, hookimpl
from fivehundred.ruleset import Ruleset, load_ruleset
from fivehundred.steps import Step

if TYPE_CHECKING:
    from fivehundred.comparison import Arm, Comparison, compare
    from fivehundred.manager import compile_rules
    from fivehundred.report import make_report
    from fivehundred.simulation import play_game, simulate
    from fivehundred.state import GameState, new_game
    from fivehundred.validation import validate

__version__ = "0.1.0"

for _built in stale_extensions():
    warnings.warn(f"{_built} was compiled before its source was edited and still runs the old code: reinstall "
                  "the package to rebuild it, or install it with FIVEHUNDRED_NO_EXTENSIONS=1 to work on the engine",
                  RuntimeWarning, stacklevel=2)

__all__ = [
    "Arm",
    "Card",
    "Comparison",
    "FiveHundredError",
    "GameState",
    "IllegalActionError",
    "PluginError",
    "RecordError",
    "Ruleset",
    "RulesetError",
    "Step",
    "UnknownNameError",
    "__version__",
    "applies_when",
    "card_str",
    "compare",
    "compile_rules",
    "engine_build",
    "hookimpl",
    "load_ruleset",
    "make_report",
    "new_game",
    "parse_card",
    "play_game",
    "simulate",
    "validate",
]


def __getattr__(name: str) -> object:
    # The engine, simulator and validator load on first use, so that plugins can import
    # ``fivehundred.hookimpl`` without pulling the whole engine in.
    lazy = {
        "GameState": "fivehundred.state",
        "new_game": "fivehundred.state",
        "compile_rules": "fivehundred.manager",
        "Arm": "fivehundred.comparison",
        "Comparison": "fivehundred.comparison",
        "compare": "fivehundred.comparison",
        "make_report": "fivehundred.report",
        "play_game": "fivehundred.simulation",
        "simulate": "fivehundred.simulation",
        "validate": "fivehundred.validation",
    }
    if name in lazy:
        import importlib

        return getattr(importlib.import_module(lazy[name]), name)
    raise AttributeError(f"module 'fivehundred' has no attribute {name!r}")
