"""Hooks called with their plugins named: an exception or a wrong answer from a plugin becomes a
``PluginError`` naming the plugin, the package it comes from and the hook, in one line.

Also the checks that a plugin left alone what it must not change: a ruleset is frozen, and its content
hash (which records carry) is asked again after the plugins' hooks ran over it once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from .errors import FiveHundredError, PluginError
from .markers import APPLIES_WHEN


def _call(pm: pluggy.PluginManager, hook_name: str, **kwargs: Any) -> Any:
    caller = getattr(pm.hook, hook_name)
    try:
        return caller(**kwargs)
    except (Exception, SystemExit) as e:  # a plugin's sys.exit() is its failure, not the program's exit
        error = _plugin_error(caller, hook_name, e)
        if error is e:
            raise
        raise error from e


def _plugin_error(caller: Any, hook_name: str, error: BaseException) -> BaseException:
    """What a hook's exception is reported as: the package's own errors as they are, anything else
    a ``PluginError`` naming the plugin it came from."""
    if isinstance(error, FiveHundredError):
        return error
    impl = _culprit(error, caller)
    name = "unknown" if impl is None else impl.plugin_name
    return PluginError(f"plugin {name!r} crashed in {hook_name}: {type(error).__name__}: {error}"
                       f"{_from(impl)}")


def _culprit(error: BaseException, caller: Any) -> Any:
    """The implementation (``HookImpl``) deepest in the traceback, or None."""
    codes = {impl.function.__code__: impl for impl in caller.get_hookimpls()}
    found = None
    tb = error.__traceback__
    while tb is not None:
        found = codes.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


def _answerer(pm: pluggy.PluginManager, hook_name: str, kwargs: dict[str, Any]) -> Any:
    """The implementation whose answer a ``firstresult`` hook returns for ``kwargs`` (asked again, in
    pluggy's order, only to name the culprit of a wrong answer), or None."""
    for impl in reversed(getattr(pm.hook, hook_name).get_hookimpls()):
        relevant = getattr(impl.function, APPLIES_WHEN, None)
        if impl.hookwrapper or impl.wrapper or (relevant is not None and not relevant(kwargs.get("ruleset"))):
            continue
        try:
            answer = impl.function(*[kwargs[name] for name in impl.argnames])
        except Exception:
            return impl
        if answer is not None:
            return impl
    return None


def _shown(answer: Any) -> str:
    shown = repr(answer)
    return shown if len(shown) <= 80 else shown[:80] + "…"


def _for_ruleset(kwargs: dict[str, Any]) -> str:
    ruleset = kwargs.get("ruleset")
    return f" for ruleset {ruleset.name!r}" if ruleset is not None else ""


def _wrong_answer(pm: pluggy.PluginManager, hook_name: str, kwargs: dict[str, Any], answer: Any,
                  expected: str) -> PluginError:
    impl = _answerer(pm, hook_name, kwargs)
    name = "unknown" if impl is None else impl.plugin_name
    return PluginError(f"plugin {name!r} answered {hook_name}{_for_ruleset(kwargs)} with {_shown(answer)}, "
                       f"not {expected}{_from(impl)}")


# --- where a plugin comes from -------------------------------------------------------------------


def _from(impl: Any) -> str:
    """`` (plugin 'x': package foo 1.0)``: what a message about a plugin ends with; empty when unknown."""
    if impl is None:
        return ""
    return f" (plugin {impl.plugin_name!r}: {plugin_source(impl.plugin)})"


def plugin_source(plugin: object) -> str:
    """Where a plugin object comes from: ``package NAME VERSION`` (the distribution installing its module),
    ``built in (fivehundred)``, or ``module NAME, in no installed package``."""
    if isinstance(plugin, ModuleType):
        module = plugin.__name__
    elif isinstance(plugin, type):
        module = plugin.__module__
    else:
        module = type(plugin).__module__
    top = module.partition(".")[0]
    if top == "fivehundred":
        return "built in (fivehundred)"
    packages = _distributions().get(top)
    if packages:
        return f"package {packages[0]} {_version(packages[0])}"
    return f"module {module}, in no installed package"


def _distributions() -> Mapping[str, list[str]]:
    from importlib.metadata import packages_distributions  # asked only when a plugin is named

    return packages_distributions()


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "(version unknown)"


# --- answers of hooks every plugin answers ---------------------------------------------------------


def checked_answers(pm: pluggy.PluginManager, hook_name: str, problem: Callable[[Any], str | None],
                    **kwargs: Any) -> list[Any]:
    """The answers of a hook that every plugin answers (``None`` answers left out, as pluggy does), each
    checked by ``problem`` (what is wrong with it, or None); a wrong one is a ``PluginError`` naming the
    plugin that gave it."""
    answers: list[Any] = _call(pm, hook_name, **kwargs)
    for answer in answers:
        wrong = problem(answer)
        if wrong is not None:
            impl = _giver(pm, hook_name, kwargs, problem)
            name = "unknown" if impl is None else impl.plugin_name
            raise PluginError(f"plugin {name!r} answered {hook_name}{_for_ruleset(kwargs)} with {_shown(answer)}: "
                              f"{wrong}{_from(impl)}")
    return answers


def _giver(pm: pluggy.PluginManager, hook_name: str, kwargs: dict[str, Any],
           problem: Callable[[Any], str | None]) -> Any:
    """The implementation that answers wrongly (each asked again), or None."""
    for impl in reversed(getattr(pm.hook, hook_name).get_hookimpls()):
        if impl.hookwrapper or impl.wrapper:
            continue
        answer = impl.function(*[kwargs[name] for name in impl.argnames])
        if answer is not None and problem(answer) is not None:
            return impl
    return None


def _sequence(answer: Any) -> str | None:
    if isinstance(answer, (str, bytes)):
        return "a text, not a list (a text would be read a character at a time)"
    if not isinstance(answer, (list, tuple)):
        return f"a {type(answer).__name__}, not a list"
    return None


def problems_problem(answer: Any) -> str | None:
    """``fivehundred_check_ruleset``: a list of (key path, message) pairs of text."""
    wrong = _sequence(answer)
    if wrong is None and not all(isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                 for p in answer):
        wrong = "not a list of (key path, message) pairs of text"
    return wrong


def names_problem(answer: Any) -> str | None:
    """``fivehundred_house_rules``: a list of names."""
    wrong = _sequence(answer)
    if wrong is None and not all(isinstance(name, str) for name in answer):
        wrong = "not a list of names"
    return wrong


def ruleset_files_problem(answer: Any) -> str | None:
    """``fivehundred_ruleset_paths``: a list of paths of YAML files that exist."""
    wrong = _sequence(answer)
    if wrong is not None:
        return wrong
    for path in answer:
        if not isinstance(path, (str, os.PathLike)):
            return f"{_shown(path)} is not a path"
        if Path(path).suffix not in (".yaml", ".yml"):
            return f"{str(path)!r} is not a YAML file (.yaml)"
        if not Path(path).is_file():
            return f"{str(path)!r}: no such file (is the plugin's package installed whole?)"
    return None


# --- the checks a plugin supplies, and the ruleset it must leave alone -------------------------------


def named_check(pm: pluggy.PluginManager, ruleset: Any, check: Callable[[Any], bool] | None
                ) -> Callable[[Any], bool] | None:
    """The trick check a plugin answered ``fivehundred_trick_check`` with, its exceptions reported as
    ``PluginError`` naming the plugin (the check runs after every trick, outside pluggy)."""
    if check is None:
        return None
    impl = _answerer(pm, "fivehundred_trick_check", {"ruleset": ruleset})
    if impl is not None and plugin_source(impl.plugin).startswith("built in"):
        return check  # the built-in checks are the engine's own code: no wrapper on every trick
    name = "unknown" if impl is None else impl.plugin_name

    def checked(state: Any) -> bool:
        try:
            return check(state)
        except FiveHundredError:
            raise
        except Exception as e:
            raise PluginError(f"plugin {name!r} crashed in the trick check it answered fivehundred_trick_check "
                              f"with: {type(e).__name__}: {e}{_from(impl)}") from e

    return checked


def fresh_hash(ruleset: Any) -> str:
    """A ruleset's content hash worked out again from what it holds now (``content_hash`` keeps the first)."""
    kept = ruleset.__dict__.pop("_content_hash", None)
    try:
        fresh: str = ruleset.content_hash
    finally:
        if kept is not None:
            ruleset.__dict__["_content_hash"] = kept
    return fresh


def check_unchanged(pm: pluggy.PluginManager, ruleset: Any, before: str, when: str) -> None:
    """``PluginError`` if ``ruleset`` no longer hashes to ``before``: a plugin changed the frozen ruleset
    (with ``object.__setattr__``, say) ``when`` (while its hooks ran)."""
    now = fresh_hash(ruleset)
    if now == before:
        return
    suspects = [f"{name!r} ({plugin_source(plugin)})" for name, plugin in pm.list_name_plugin()
                if plugin is not None and not plugin_source(plugin).startswith("built in")]
    raise PluginError(f"ruleset {ruleset.name!r} was changed {when} (content hash {before}, now {now}): a plugin "
                      "changed the frozen ruleset instead of deriving another with model_copy(update=...); plugins "
                      f"not built in: {', '.join(suspects) or 'none'}")
