"""Which engine runs: the state machine compiled at install (Cython, from the same source; see
``setup.py``) or pure Python, and a pure-Python copy of the installed package to compare it with."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import shutil
from pathlib import Path

COMPILED_MODULES = ("fivehundred.engine.state", "fivehundred.engine.exchange", "fivehundred.engine.reading",
                    "fivehundred.engine.play", "fivehundred.engine.shuffle", "fivehundred.engine.seeding",
                    "fivehundred.rules.tables", "fivehundred.rules.auction", "fivehundred.rules.manager",
                    "fivehundred.bots.players", "fivehundred.batch.simulation", "fivehundred.bots.evaluation",
                    "fivehundred.bots.situation", "fivehundred.bots.trick_reading", "fivehundred.bots.misere_play",
                    "fivehundred.bots.card_play", "fivehundred.bots.heuristic", "fivehundred.bots.call_pricing",
                    "fivehundred.bots.club", "fivehundred.bots.defence", "fivehundred.adapters.table",
                    "fivehundred.adapters.tensors", "fivehundred.engine.kernel", "fivehundred.engine.solver",
                    "fivehundred.engine.solver_moves", "fivehundred.engine.solver_bounds",
                    "fivehundred.engine.solver_search",
                    "fivehundred.engine.hand_log", "fivehundred.plugins.scoring_plan",
                    "fivehundred.bots.misere_bids")
"""The modules ``setup.py`` compiles when it can: the state machine, what a batch of games calls game
after game (the generators, the play tables, the auction, the rules' resolved hooks, the random player,
the batch loop, the scoring plugin's arithmetic), the default bots (``club``, ``heuristic`` and their misère
defence, which montecarlo's rollouts play too), and the research adapters' episode and tensors (every step through
OpenSpiel or PettingZoo).  The rest of the package is always Python: the plugins' hooks among it, which pluggy finds
only as Python functions."""
SUBPACKAGES = ("plugins", "cli", "rulesets")
"""Subpackages an editable install maps from folders of their own (the layers live inside ``core/``)."""
PACKAGE = Path(__file__).parent.parent
"""The installed ``fivehundred`` package (this module is ``fivehundred.engine.build``)."""

_EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_STALE_AFTER = 60.0
"""Seconds by which a module's source may be newer than its compiled file (an install writes both)."""


def compiled_modules() -> list[str]:
    """The modules of ``COMPILED_MODULES`` that load from compiled extensions, found without importing them:
    the research adapters' modules import numpy, which a plain install (no extras) does not have."""
    return [name for name in COMPILED_MODULES if _origin(name).endswith(_EXTENSIONS)]


def _origin(name: str) -> str:
    spec = importlib.util.find_spec(name)
    return str(spec.origin if spec is not None else "")


REQUIRE_ENV = "FIVEHUNDRED_REQUIRE_COMPILED"
"""Set to 1 where the compiled build is expected (CI): ``setup.py`` fails when a module does not compile, and a
package that runs Python where it should run compiled code says so (``engine_build``, ``not_compiled``)."""


def engine_build() -> str:
    """``compiled``, ``pure Python``, or ``partly compiled (…)`` — printed by the benchmark and the CLI; with
    ``FIVEHUNDRED_REQUIRE_COMPILED=1``, a build short of compiled names what it lacks."""
    compiled = compiled_modules()
    if len(compiled) == len(COMPILED_MODULES):
        return "compiled"
    build = f"partly compiled ({', '.join(compiled)})" if compiled else "pure Python"
    missing = not_compiled()
    return f"{build}; {REQUIRE_ENV}=1 but not compiled: {', '.join(missing)}" if missing else build


def not_compiled() -> list[str]:
    """The modules of ``COMPILED_MODULES`` running as Python although ``FIVEHUNDRED_REQUIRE_COMPILED=1`` asks
    for the compiled build (empty when it does not ask)."""
    if os.environ.get(REQUIRE_ENV) != "1":
        return []
    compiled = set(compiled_modules())
    return [name for name in COMPILED_MODULES if name not in compiled]


def stale_extensions(package: Path | None = None) -> list[Path]:
    """Compiled engine modules whose Python source beside them was edited after they were built: the
    edit does not run until the package is rebuilt (or installed with FIVEHUNDRED_NO_EXTENSIONS=1)."""
    package = package or PACKAGE
    stale = []
    for name in COMPILED_MODULES:
        *folders, stem = name.split(".")[1:]
        where = package.joinpath(*folders)
        source = where / f"{stem}.py"
        for built in where.glob(f"{stem}.*"):
            if built.name.endswith(_EXTENSIONS) and source.exists() and (
                    source.stat().st_mtime > built.stat().st_mtime + _STALE_AFTER):
                stale.append(built)
    return stale


def pure_copy(directory: Path) -> Path:
    """A copy of the installed package without its compiled modules, under ``directory``; put the
    returned path first on ``sys.path`` (``PYTHONPATH``) to run the pure-Python engine."""
    target = directory / "fivehundred"
    _copy_python(PACKAGE, target)
    for sub in SUBPACKAGES:  # an editable install maps each from its own folder
        if not (target / sub).exists():
            _copy_python(Path(str(importlib.import_module(f"fivehundred.{sub}").__file__)).parent, target / sub)
    return directory


def _copy_python(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=lambda _, names: [
        n for n in names if n.endswith(_EXTENSIONS) or n in ("__pycache__", "__editable__")])
