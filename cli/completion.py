"""Shell completion of ruleset and player names (``fivehundred --install-completion`` installs it).

Every command's parameters that take a ruleset or players are completed by name, found here by the
parameter's name (``COMPLETED``), so that an option added later under one of these names is completed too
(``tests/test_names.py`` checks that every one is)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

YAML_SUFFIXES = (".yaml", ".yml")


def ruleset_names(incomplete: str) -> list[str]:
    """The rulesets known by name that start with ``incomplete``, then the ruleset files (YAML) of the current
    folder whose name does (a ruleset option takes either)."""
    from fivehundred.rules.ruleset import ruleset_paths

    names = sorted(name for name in ruleset_paths() if name.startswith(incomplete))
    return names + _yaml_paths(incomplete)


def player_names(incomplete: str) -> list[str]:
    """The players installed whose name starts with the last of the comma-separated names in ``incomplete``,
    after the names before it (``club,heu`` completes to ``club,heuristic``)."""
    from fivehundred.rules.manager import player_factories

    before, comma, last = incomplete.rpartition(",")
    prefix = before + comma
    return [prefix + name for name in sorted(player_factories()) if name.startswith(last)]


def _yaml_paths(incomplete: str) -> list[str]:
    """The YAML files of the current folder whose name starts with ``incomplete``; a path with a folder gets
    none, and the shell completes it as a file (the scripts Typer installs fall back to files)."""
    if "/" in incomplete or "\\" in incomplete:
        return []
    return sorted(path.name for path in Path().iterdir() if path.name.startswith(incomplete)
                  and path.suffix in YAML_SUFFIXES and path.is_file())


COMPLETED: dict[str, Callable[[str], list[str]]] = {
    "ruleset": ruleset_names, "ruleset_b": ruleset_names, "first": ruleset_names, "second": ruleset_names,
    "name": ruleset_names,  # rules show NAME
    "players": player_names, "players_b": player_names, "bots": player_names, "reference": player_names,
}
"""Which names complete a parameter, by the parameter's name (its Python name in the command's function)."""


def add_completion(params: list[Any]) -> list[Any]:
    """``params`` with ``COMPLETED``'s completion set on those it names (click calls it on <TAB>)."""
    for param in params:
        complete = COMPLETED.get(param.name or "")
        if complete is not None and getattr(param, "_custom_shell_complete", None) is None:
            param._custom_shell_complete = _completer(complete)
    return params


def _completer(names: Callable[[str], list[str]]) -> Callable[[Any, Any, str], list[str]]:
    def complete(ctx: Any, param: Any, incomplete: str) -> list[str]:
        return names(incomplete)

    return complete
