"""Shared fixtures: the shipped rulesets, loaded once per test session; the tests that need the compiled solver's
speed; and the hook census.

The census (``hookcensus.py``) watches every plugin manager the package makes from the moment this
file is imported, before any test module is, and ``test_hook_census.py`` (run last) fails the
session when a hookspec never answered during a passing test.  Under pytest-xdist each worker keeps
its own census and sends it to the controller, which fails the run for a hook no worker saw answer
(the census test itself is left out: no single worker sees the whole suite).
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest
from hookcensus import CENSUS

CENSUS.install()

import fivehundred  # noqa: E402 - after the census is installed, so that it sees the first plugin manager
from fivehundred.engine.build import compiled_modules  # noqa: E402
from fivehundred.rules.loading import ruleset_paths  # noqa: E402
from fivehundred.rules.ruleset import Ruleset  # noqa: E402

SHIPPED_RULESETS = sorted(ruleset_paths())
"""Every ruleset known by name (bundled and from installed plugins)."""

CENSUS_TEST = "test_hook_census.py::test_every_hookspec_answered_during_a_passing_test"

SOLVER_COMPILED = "fivehundred.engine.solver_search" in compiled_modules()
"""Whether the double-dummy solver runs compiled.  As pure Python (an install without a C compiler, or
``FIVEHUNDRED_NO_EXTENSIONS=1``) it is about seventy times as slow, and the tests marked ``searches`` (that solve
whole hands by the hundred: seeded games of ``club``, whose open-misère searches solve sampled deals, and deals'
double-dummy tables; minutes each there) are skipped unless ``FIVEHUNDRED_PURE_SEARCHES=1``.  The compiled build
runs them, and checks that the pure source plays its games card for card (tests/test_compiled.py)."""


@pytest.fixture(scope="session")
def pagat() -> Ruleset:
    """The reference ruleset of docs/rules.md."""
    return fivehundred.load_ruleset("pagat-australian")


@pytest.fixture(scope="session", params=SHIPPED_RULESETS)
def shipped_ruleset(request: pytest.FixtureRequest) -> Ruleset:
    """Each shipped ruleset in turn."""
    return fivehundred.load_ruleset(request.param)


# --- the hook census -----------------------------------------------------------------------------


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.nodeid.endswith(".py") and not report.failed:  # a test file, collected or skipped whole
        CENSUS.test_modules.add(Path(report.nodeid).name)


def pytest_deselected(items: list[pytest.Item]) -> None:
    CENSUS.deselected += len(items)


def _xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _xdist_controller(config: pytest.Config) -> bool:
    return not _xdist_worker(config) and bool(getattr(config.option, "numprocesses", None))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "searches: solves whole hands double dummy by the hundred (skipped where "
                            "the solver runs as pure Python, unless FIVEHUNDRED_PURE_SEARCHES=1)")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The census test runs last, whatever the order of the others (pytest-randomly shuffles first);
    under pytest-xdist the controller takes the census instead.  Where the solver is pure Python, the tests
    marked ``searches`` are skipped (``SOLVER_COMPILED``)."""
    if not SOLVER_COMPILED and os.environ.get("FIVEHUNDRED_PURE_SEARCHES") != "1":
        skip = pytest.mark.skip(reason="whole hands solved double dummy by the hundred: minutes on a pure-Python "
                                       "solver (FIVEHUNDRED_PURE_SEARCHES=1 runs it)")
        for item in items:
            if "searches" in item.keywords:
                item.add_marker(skip)
    last = [] if _xdist_worker(config) else [item for item in items if item.nodeid.endswith(CENSUS_TEST)]
    items[:] = [item for item in items if not item.nodeid.endswith(CENSUS_TEST)] + last


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _xdist_worker(session.config):
        session.config.workeroutput["census"] = CENSUS.export()  # type: ignore[attr-defined]
    elif _xdist_controller(session.config) and session.exitstatus == pytest.ExitCode.OK:
        failure = CENSUS.verdict(Path(__file__).parent)
        if failure is not None:
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(f"hook census: {failure}", red=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """pytest-xdist: a worker is done; add its census."""
    census = getattr(node, "workeroutput", {}).get("census")
    if census is not None:
        CENSUS.merge(census)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    CENSUS.start(item.nodeid)
    try:
        return (yield)
    finally:
        CENSUS.finish()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    CENSUS.report(report.when, report.passed, report.failed)
