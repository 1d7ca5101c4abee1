"""Every YAML example of the README works as printed: written under the file name the README gives it,
it loads with ``fivehundred.load_ruleset`` (or fails exactly as the README says it does), and the
README's commands that use it succeed.  The only changes made to a command: a batch of games
(``-n``) is cut to a few, to keep the test short, and where the solver runs as pure Python (an install
without a C compiler) a batch that names no players is played by ``club:fast``, whose games take
milliseconds there where ``club``'s searches take seconds, and ``compare --par`` solves one deal's tables;
every other word is as printed.  ``play`` is left
out: it waits for a person's choices (tests/test_play.py scripts them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from readme_examples import Example, commands_using, yaml_examples
from typer.testing import CliRunner

import fivehundred
from fivehundred.cli.app import app
from fivehundred.rules.errors import RulesetError
from fivehundred.rules.manager import compile_rules

EXAMPLES = yaml_examples()
GAMES = "4"
"""The games each README command that plays a batch plays here."""


def test_the_readme_has_its_examples() -> None:
    assert {e.file_name for e in EXAMPLES} >= {"no-defence.yaml", "our-club.yaml"}
    assert commands_using("no-defence.yaml")


def house_rules_installed(example: Example) -> bool:
    import yaml

    from fivehundred.rules.manager import plugin_manager

    installed = {name for names in plugin_manager().hook.fivehundred_house_rules() for name in names or ()}
    return set(yaml.safe_load(example.text).get("house_rules") or {}) <= installed


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.page.name}:{e.file_name}")
def test_each_yaml_example_loads_as_printed(example: Example, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = example.write(tmp_path)
    if not house_rules_installed(example):
        # The README: "a ruleset that names a house rule no installed plugin provides is rejected, naming
        # the rule" (the plugin is examples/house-rules; tests/test_house_rules_example.py loads it there).
        with pytest.raises(RulesetError, match="is not provided by any installed plugin") as caught:
            compile_rules(fivehundred.load_ruleset(path))
        assert all(str(path) in p or "house_rules" in p for p in caught.value.problems)
        return
    ruleset = fivehundred.load_ruleset(path)
    compile_rules(ruleset)
    assert fivehundred.validate([path]).ok
    monkeypatch.chdir(tmp_path)
    for words in commands_using(example.file_name, example.page):
        if words[0] == "play":
            continue
        words = as_run_here(words)
        result = CliRunner().invoke(app, words, prog_name="fivehundred")
        assert result.exit_code == 0, (words, result.output)


def as_run_here(words: list[str]) -> list[str]:
    """A README command as this test runs it (see the module's text)."""
    from fivehundred.engine.build import compiled_modules

    words = list(words)
    pure = "fivehundred.engine.solver_search" not in compiled_modules()
    if "-n" in words:
        words[words.index("-n") + 1] = "1" if pure and "--par" in words else GAMES
    if pure and words[0] in ("simulate", "compare") and "--par" not in words and not {"-p", "--players"} & set(words):
        words += ["-p", "club:fast"]
    return words
