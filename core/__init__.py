"""fivehundred: a configurable rules-variant framework for the card game Five Hundred.

The public API::

    import fivehundred
    ruleset = fivehundred.load_ruleset("pagat-australian")
    summary = fivehundred.simulate(games=100, seed=1, ruleset=ruleset)
    report = fivehundred.validate(["games.jsonl"])
    sheet = fivehundred.score_sheet("sheet.csv", ruleset)
    deal = fivehundred.deal_state(ruleset, hands, kitty)      # a deal before its auction
    result = fivehundred.analyse(deal)                         # its double-dummy table and par
    found = fivehundred.deal_par(deal)                         # its par alone, solving only what par reads
"""

import warnings
from typing import TYPE_CHECKING

from fivehundred.engine.build import REQUIRE_ENV, engine_build, not_compiled, stale_extensions
from fivehundred.rules.cards import Card, card_str, parse_card
from fivehundred.rules.errors import (
    FiveHundredError,
    IllegalActionError,
    PluginError,
    RecordError,
    RulesetError,
    UnknownNameError,
)
from fivehundred.rules.loading import load_ruleset
from fivehundred.rules.markers import applies_when, hookimpl
from fivehundred.rules.ruleset import Ruleset
from fivehundred.rules.steps import Step

if TYPE_CHECKING:
    from fivehundred.analysis.report import make_report
    from fivehundred.batch.checking import validate
    from fivehundred.batch.comparison import Arm, Comparison, compare
    from fivehundred.batch.par import analyse, dd_table, deal_state, par
    from fivehundred.batch.par_search import deal_par
    from fivehundred.batch.simulation import play_game, simulate
    from fivehundred.engine.solver import solve, solve_cards
    from fivehundred.engine.state import GameState, new_game
    from fivehundred.records.ptn_export import export_ptn
    from fivehundred.records.ptn_import import import_ptn
    from fivehundred.records.sheets import SheetError, SheetScore, score_sheet
    from fivehundred.rules.manager import compile_rules

__version__ = "0.1.0"

for _built in stale_extensions():
    warnings.warn(f"{_built} was compiled before its source was edited and still runs the old code: reinstall "
                  "the package to rebuild it, or install it with FIVEHUNDRED_NO_EXTENSIONS=1 to work on the engine",
                  RuntimeWarning, stacklevel=2)
if _missing := not_compiled():
    warnings.warn(f"{REQUIRE_ENV}=1, but these modules run as Python, not compiled: {', '.join(_missing)} "
                  "(reinstall with a C compiler and Cython, or unset it)", RuntimeWarning, stacklevel=2)

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
    "SheetError",
    "SheetScore",
    "Step",
    "UnknownNameError",
    "__version__",
    "analyse",
    "applies_when",
    "card_str",
    "compare",
    "compile_rules",
    "dd_table",
    "deal_par",
    "deal_state",
    "engine_build",
    "export_ptn",
    "hookimpl",
    "import_ptn",
    "load_ruleset",
    "make_report",
    "new_game",
    "par",
    "parse_card",
    "play_game",
    "score_sheet",
    "simulate",
    "solve",
    "solve_cards",
    "validate",
]


def __getattr__(name: str) -> object:
    # The engine, simulator and validator load on first use, so that plugins can import
    # ``fivehundred.hookimpl`` without pulling the whole engine in.
    lazy = {
        "GameState": "fivehundred.engine.state",
        "new_game": "fivehundred.engine.state",
        "compile_rules": "fivehundred.rules.manager",
        "Arm": "fivehundred.batch.comparison",
        "Comparison": "fivehundred.batch.comparison",
        "compare": "fivehundred.batch.comparison",
        "make_report": "fivehundred.analysis.report",
        "analyse": "fivehundred.batch.par",
        "dd_table": "fivehundred.batch.par",
        "deal_par": "fivehundred.batch.par_search",
        "deal_state": "fivehundred.batch.par",
        "par": "fivehundred.batch.par",
        "play_game": "fivehundred.batch.simulation",
        "simulate": "fivehundred.batch.simulation",
        "solve": "fivehundred.engine.solver",
        "solve_cards": "fivehundred.engine.solver",
        "validate": "fivehundred.batch.checking",
        "score_sheet": "fivehundred.records.sheets",
        "SheetScore": "fivehundred.records.sheets",
        "SheetError": "fivehundred.records.sheets",
        "import_ptn": "fivehundred.records.ptn_import",
        "export_ptn": "fivehundred.records.ptn_export",
    }
    if name in lazy:
        import importlib

        return getattr(importlib.import_module(lazy[name]), name)
    raise AttributeError(f"module 'fivehundred' has no attribute {name!r}")
