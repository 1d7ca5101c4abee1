"""Shell completion of ruleset and player names (``fivehundred --install-completion`` installs it): the
``autocompletion`` of every parameter that takes a ruleset or players (``tests/test_names.py`` checks that
each one has it)."""

from __future__ import annotations

from pathlib import Path

YAML_SUFFIXES = (".yaml", ".yml")


def ruleset_names(incomplete: str) -> list[str]:
    """The rulesets known by name that start with ``incomplete``, then the ruleset files (YAML) of the current
    folder whose name does (a ruleset option takes either)."""
    from fivehundred.rules.loading import ruleset_paths

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
