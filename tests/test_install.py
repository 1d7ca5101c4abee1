"""The install: what ``setup.py`` asks of the compiler, the extras of ``pyproject.toml``, and a plain install
(no extras) whose every command runs (``.ci/plain-install-smoke`` runs them all on one; here the one that
used to need numpy, in a process where numpy cannot be imported)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import fivehundred
from fivehundred.engine.build import COMPILED_MODULES, compiled_modules

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]
HEAVY = {"open-spiel", "pettingzoo", "gymnasium", "numpy", "dask", "pyarrow", "matplotlib", "cosmic-ray"}
"""Packages a test run does not need: each extra's tests skip without it."""

WITHOUT_NUMPY = "import sys; sys.modules['numpy'] = None; "
"""Makes ``import numpy`` fail in the process, as on a plain install."""


def _name(requirement: str) -> str:
    for stop in "<>=[; ":
        requirement = requirement.split(stop)[0]
    return requirement.lower()


def test_the_test_extra_installs_nothing_heavy() -> None:
    for extra in ("test", "dev"):
        names = {_name(r) for r in EXTRAS[extra]}
        assert not names & HEAVY, (extra, names & HEAVY)
        assert not any(r.startswith("fivehundred[") for r in EXTRAS[extra]), extra


def test_all_installs_every_optional_extra() -> None:
    optional = {"cluster", "parquet", "report", "openspiel", "pettingzoo"}
    [everything] = EXTRAS["all"]
    assert set(everything.removeprefix("fivehundred[").removesuffix("]").split(",")) == optional
    assert {_name(r) for extra in optional for r in EXTRAS[extra]} | {"cosmic-ray"} == HEAVY | {"dask"}
    assert {_name(r) for r in EXTRAS["mutation"]} == {"cosmic-ray"}


def test_the_engine_build_is_found_without_importing_the_adapters() -> None:
    """``engine_build()`` (``--version``) finds the compiled modules without importing them: the research
    adapters' modules import numpy, which a plain install does not have."""
    code = WITHOUT_NUMPY + "import fivehundred; print(fivehundred.engine_build()); " \
        "print('fivehundred.adapters.table' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [fivehundred.engine_build(), "False"]
    assert set(compiled_modules()) <= set(COMPILED_MODULES)


def test_version_without_numpy() -> None:
    code = WITHOUT_NUMPY + "sys.argv = ['fivehundred', '--version']; from fivehundred.cli.app import main; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout == f"fivehundred {fivehundred.__version__} ({fivehundred.engine_build()} engine)\n"


@pytest.fixture()
def setup_py(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``setup.py``'s names, run without building anything (``setup()`` only records its arguments)."""
    setuptools = pytest.importorskip("setuptools")
    called: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: called.update(kwargs))
    monkeypatch.setenv("FIVEHUNDRED_NO_EXTENSIONS", "1")
    monkeypatch.delenv("FIVEHUNDRED_REQUIRE_COMPILED", raising=False)  # CI's: it refuses NO_EXTENSIONS
    monkeypatch.chdir(ROOT)
    names = runpy.run_path(str(ROOT / "setup.py"))
    assert called["ext_modules"] == [] and called["cmdclass"]["build_ext"] is names["BuildExt"]
    return names


def _build_ext(names: dict[str, Any], compiler_type: str) -> Any:
    from setuptools import Distribution

    command = names["BuildExt"](Distribution())
    command.initialize_options()
    command.finalize_options()
    command.compiler = SimpleNamespace(compiler_type=compiler_type)
    return command


def test_build_ext_compiles_on_every_core_at_o2(setup_py: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from setuptools import Extension
    from setuptools.command.build_ext import build_ext

    built: list[list[str]] = []
    monkeypatch.setattr(build_ext, "build_extension", lambda self, ext: built.append(list(ext.extra_compile_args)))
    monkeypatch.delenv("CFLAGS", raising=False)
    command = _build_ext(setup_py, "unix")
    assert command.parallel == (os.cpu_count() or 1)
    command.build_extension(Extension("fivehundred.engine.state", ["state.c"]))
    assert built == [["-O2", "-g0"]]
    monkeypatch.setenv("CFLAGS", "-O3")  # the user's flags choose
    command.build_extension(Extension("fivehundred.engine.state", ["state.c"]))
    msvc = _build_ext(setup_py, "msvc")
    msvc.build_extension(Extension("fivehundred.engine.state", ["state.c"]))
    assert built[1:] == [[], []]


def test_ci_runs_every_test_file_of_an_extra_in_its_extras_lane() -> None:
    """A test file that skips without an extra (``extras.need``) is run where the extras are installed and a
    skip is a failure (``FIVEHUNDRED_REQUIRE_EXTRAS=1`` in ``.ci/run``)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lane = [line for line in ci.replace("\\\n", " ").splitlines() if line.startswith("FIVEHUNDRED_REQUIRE_EXTRAS=1")]
    needing = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("**/test_*.py")
                     if "from extras import need" in p.read_text(encoding="utf-8").splitlines())
    assert needing and all(any(name in line for line in lane) for name in needing), (needing, lane)
    assert "python -c \"import fivehundred.openspiel, fivehundred.pettingzoo\"" in ci
    assert ".ci-plain-venv/bin/python .ci/plain-install-smoke" in ci


def test_a_module_that_does_not_compile_fails_the_install_where_compilation_is_required(
        setup_py: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """FIVEHUNDRED_REQUIRE_COMPILED=1: the compiler's error stops the install, naming the module; unset, the same
    error goes to setuptools, which leaves an optional extension's module as Python."""
    from setuptools import Extension
    from setuptools.command.build_ext import build_ext

    def fails(self: Any, ext: Any) -> None:
        raise RuntimeError("error: command 'cc' failed")

    monkeypatch.setattr(build_ext, "build_extension", fails)
    command = _build_ext(setup_py, "unix")
    module = Extension("fivehundred.engine.state", ["state.c"])
    with pytest.raises(RuntimeError, match="'cc' failed"):
        command.build_extension(module)
    monkeypatch.setitem(setup_py["BuildExt"].build_extension.__globals__, "REQUIRED", True)
    with pytest.raises(SystemExit, match=r"FIVEHUNDRED_REQUIRE_COMPILED=1, but fivehundred\.engine\.state did not "
                                         r"compile \(RuntimeError: error: command 'cc' failed\)"):
        command.build_extension(module)
