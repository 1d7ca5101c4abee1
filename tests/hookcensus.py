"""A census of the engine's hook calls during the test session (see ``conftest.py``).

Every plugin manager the package makes (``fivehundred.rules.manager.make_plugin_manager``, which the
process-wide manager comes from too) is watched with pluggy's hook-call monitoring, and the per-hand
callers that run the scoring hooks without pluggy (``fivehundred.rules.manager._per_hand_caller``) are
wrapped.  Neither changes what a hook answers, nor which implementations run.

A hook *answers* a call when the call raises nothing and returns a result: not None for a
first-result hook, at least one implementation's non-None answer for the others, and for a hook
whose spec returns None (``fivehundred_register_players``, which answers through its callback)
any call that ran at least one implementation.  A hook is *exercised* when it answered during a
test (its setup, call or teardown) that passed; calls while collecting, in a test that failed or
was skipped, and in subprocesses do not count.

The hooks are read from ``fivehundred.rules.hookspecs`` when the census is taken, so a new hookspec is
counted without touching this file.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pluggy

from fivehundred.rules import hookspecs, manager


def hook_names() -> list[str]:
    """Every hookspec of ``fivehundred.rules.hookspecs``, read now."""
    return sorted(name for name, f in inspect.getmembers(hookspecs, inspect.isfunction)
                  if hasattr(f, "fivehundred_spec"))


def _is_void(name: str) -> bool:
    """Whether the spec of hook ``name`` returns None (it answers through a callback, not a value)."""
    spec = getattr(hookspecs, name)
    return spec.__annotations__.get("return") in ("None", None, type(None))


def _is_first_result(name: str) -> bool:
    return bool(getattr(hookspecs, name).fivehundred_spec["firstresult"])


class HookCensus:
    """Which hooks answered during which passing test."""

    def __init__(self) -> None:
        self.test: str | None = None
        """The test running now (None while collecting and between tests)."""
        self.pending: set[str] = set()
        """Hooks that answered during the running test."""
        self.test_passed = False
        self.test_failed = False
        self.exercised: dict[str, str] = {}
        """Each exercised hook, with the first passing test during which it answered."""
        self.test_modules: set[str] = set()
        """The test files collected (a file skipped as a whole counts: it was selected)."""
        self.deselected = 0
        self.watched: weakref.WeakSet[pluggy.PluginManager] = weakref.WeakSet()

    # --- the session's side ----------------------------------------------------------------

    def start(self, nodeid: str) -> None:
        self.test, self.pending = nodeid, set()
        self.test_passed = self.test_failed = False

    def report(self, when: str, passed: bool, failed: bool) -> None:
        self.test_failed |= failed
        if when == "call":
            self.test_passed = passed

    def finish(self) -> None:
        if self.test is not None and self.test_passed and not self.test_failed:
            for name in self.pending:
                self.exercised.setdefault(name, self.test)
        self.test, self.pending = None, set()

    def answered(self, name: str) -> None:
        if self.test is not None:
            self.pending.add(name)

    # --- the engine's side -----------------------------------------------------------------

    def watch(self, pm: pluggy.PluginManager) -> None:
        """Record every answer of ``pm``'s hooks (once per manager)."""
        if pm in self.watched:
            return
        self.watched.add(pm)

        def before(hook_name: str, hook_impls: Sequence[Any], kwargs: dict[str, Any]) -> None:
            pass

        def after(outcome: Any, hook_name: str, hook_impls: Sequence[Any], kwargs: dict[str, Any]) -> None:
            if outcome.exception is not None or not hook_name.startswith("fivehundred_"):
                return
            result = outcome.get_result()
            if _is_first_result(hook_name):
                answered = result is not None
            else:  # pluggy leaves the implementations' None answers out of the list
                answered = bool(result) or (bool(hook_impls) and _is_void(hook_name))
            if answered:
                self.answered(hook_name)

        pm.add_hookcall_monitoring(before, after)

    def install(self) -> None:
        """Watch every manager the package makes from now on (and the process-wide one if it exists)."""
        make = manager.make_plugin_manager
        per_hand = manager._per_hand_caller

        @functools.wraps(make)
        def make_plugin_manager(*args: Any, **kwargs: Any) -> pluggy.PluginManager:
            pm = make(*args, **kwargs)
            self.watch(pm)
            return pm

        @functools.wraps(per_hand)
        def per_hand_caller(pm: pluggy.PluginManager, hook_name: str, *args: Any,
                            **kwargs: Any) -> Callable[..., Any]:
            call = per_hand(pm, hook_name, *args, **kwargs)

            def counted(*values: Any) -> Any:
                result = call(*values)
                if result is not None:
                    self.answered(hook_name)
                return result

            return counted

        manager.make_plugin_manager = make_plugin_manager  # type: ignore[assignment]
        manager._per_hand_caller = per_hand_caller  # type: ignore[assignment]
        if manager._manager is not None:
            self.watch(manager._manager)

    # --- the verdict -----------------------------------------------------------------------

    def partial(self, tests: Path) -> str | None:
        """Why this session is not the whole suite of ``tests`` (the census then proves nothing), or None."""
        missing = sorted(path.name for path in tests.glob("test_*.py") if path.name not in self.test_modules)
        if missing:
            listed = ", ".join(missing[:3]) + (", …" if len(missing) > 3 else "")
            return f"{len(missing)} test files not collected ({listed})"
        if self.deselected:
            return f"{self.deselected} tests deselected"
        return None

    def unexercised(self) -> list[str]:
        return [name for name in hook_names() if name not in self.exercised]

    def verdict(self, tests: Path) -> str | None:
        """Why the run fails the census (a hook that never answered), or None (it passes, or the session
        is not the whole suite of ``tests``)."""
        if self.partial(tests) is not None:
            return None
        missing = self.unexercised()
        if not missing:
            return None
        return (f"hooks that never answered during a passing test: {', '.join(missing)} "
                "(a hook answers when it returns a result; tests that failed do not count)")

    # --- across pytest-xdist workers ---------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """What a worker sends the controller at the end of its session."""
        return {"exercised": self.exercised, "modules": sorted(self.test_modules), "deselected": self.deselected}

    def merge(self, worker: dict[str, Any]) -> None:
        """Add a worker's census.  Every worker collects the whole session, so the files and the
        deselected tests are each worker's; the answers are the union."""
        for name, test in worker["exercised"].items():
            self.exercised.setdefault(name, test)
        self.test_modules.update(worker["modules"])
        self.deselected = max(self.deselected, worker["deselected"])


CENSUS = HookCensus()
"""The session's census (installed by ``conftest.py`` before any test module is imported)."""
