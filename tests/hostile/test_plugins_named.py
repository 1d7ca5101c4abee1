"""Plugins named (issue 29.7): a plugin that answers a hook wrongly, crashes in the check it supplies, points
at files that are not there or exits while it is imported is one line naming the plugin, its package and
the hook (exit 1); a plugin that changes a frozen ruleset behind its back is caught by the ruleset's
content hash, asked again after the plugins' hooks ran over it.

The plugins here are installed as a package would install them: a distribution on ``sys.path`` with a
``fivehundred`` entry point, loaded by the plugin manager the commands build.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.rules.manager import make_plugin_manager, set_plugin_manager

PACKAGE = "hostile-plugin-pkg"
VERSION = "6.6.6"

Install = Callable[[str], str]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """Install a plugin module (its source) as the package ``PACKAGE``, entry point ``bad``; the process-wide
    plugin manager is rebuilt with it on next use.  Gives the module's name."""
    count = iter(range(100))

    def installing(source: str) -> str:
        module = f"hostile_plugin_{next(count)}_{abs(hash(tmp_path)) % 10**6}"
        site = tmp_path / f"site{module}"
        write(site / f"{module}.py", textwrap.dedent(source))
        info = site / f"{PACKAGE.replace('-', '_')}-{VERSION}.dist-info"
        write(info / "METADATA", f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: {VERSION}\n")
        write(info / "entry_points.txt", f"[fivehundred]\nbad = {module}\n")
        write(info / "top_level.txt", f"{module}\n")
        monkeypatch.syspath_prepend(str(site))
        set_plugin_manager(None)
        return module

    try:
        yield installing
    finally:
        set_plugin_manager(None)


def named(output: str, hook: str) -> None:
    """The plugin, its package and the hook are named, in one line."""
    [line] = [line for line in output.splitlines() if line.startswith("error:")]
    assert "plugin 'bad'" in line and f"package {PACKAGE} {VERSION}" in line and hook in line, output
    assert len(output.strip().splitlines()) == 1, output


def test_a_check_ruleset_answering_a_text_names_the_plugin(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_check_ruleset(ruleset):
            return "the deck is too small"
    """)
    output = one_line_error(run("simulate", "-n", "1", "-p", "random"))
    named(output, "fivehundred_check_ruleset")
    assert "with 'the deck is too small': a text, not a list" in output
    assert "not enough values to unpack" not in output
    named(one_line_error(run("rules", "show", REF)), "fivehundred_check_ruleset")


def test_check_ruleset_pairs_must_be_text(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_check_ruleset(ruleset):
            return [("game.target", 42)]
    """)
    with pytest.raises(fivehundred.PluginError, match=r"plugin 'bad' answered fivehundred_check_ruleset for "
                       r"ruleset 'pagat-australian' with \[\('game.target', 42\)\]: not a list of \(key path, "
                       rf"message\) pairs of text \(plugin 'bad': package {PACKAGE} {VERSION}\)"):
        fivehundred.load_ruleset(REF)


def test_a_raising_trick_check_names_the_plugin(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl(tryfirst=True)
        def fivehundred_trick_check(ruleset):
            def check(state):
                raise RuntimeError("trick check exploded")
            return check
    """)
    output = one_line_error(run("simulate", "-n", "1", "-p", "random"), "RuntimeError: trick check exploded")
    named(output, "fivehundred_trick_check")
    output = one_line_error(run("simulate", "-n", "2", "-p", "random", "--workers", "2"), "trick check exploded")
    named(output, "fivehundred_trick_check")


def test_ruleset_paths_answering_a_text_names_the_plugin(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_ruleset_paths():
            return "/"
    """)
    output = one_line_error(run("rules", "list"), "with '/': a text, not a list")
    assert "is a folder" not in output
    named(output, "fivehundred_ruleset_paths")


def test_a_missing_plugin_ruleset_names_the_plugin(install: Install, tmp_path: Path) -> None:
    missing = tmp_path / "gone" / "club-rules.yaml"
    install(f"""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_ruleset_paths():
            return [{str(missing)!r}]
    """)
    output = one_line_error(run("rules", "list"), f"{str(missing)!r}: no such file")
    named(output, "fivehundred_ruleset_paths")
    named(one_line_error(run("rules", "show", "club-rules")), "fivehundred_ruleset_paths")


def test_a_plugin_ruleset_that_is_not_yaml_names_the_plugin(install: Install, tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    install(f"""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_ruleset_paths():
            return [{str(folder)!r}]
    """)
    named(one_line_error(run("rules", "list"), "is not a YAML file"), "fivehundred_ruleset_paths")


def test_sys_exit_while_imported_is_a_failure_to_load(install: Install) -> None:
    module = install("""
        import sys

        sys.exit(3)
    """)
    with pytest.raises(fivehundred.PluginError, match=rf"plugin 'bad' \({module}, from {PACKAGE}\) failed to load: "
                       "SystemExit: 3"):
        make_plugin_manager()
    result = run("rules", "list")
    assert result.exit_code == 1, (result.exit_code, result.output)
    output = one_line_error(result, "failed to load: SystemExit: 3")
    assert "plugin 'bad'" in output and PACKAGE in output


def test_a_plugin_mutating_the_ruleset_while_checking_it_is_caught(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_check_ruleset(ruleset):
            object.__setattr__(ruleset.game, "target", 250)
            return []
    """)
    output = one_line_error(run("simulate", "-n", "1", "-p", "random"),
                            "ruleset 'pagat-australian' was changed while the plugins checked it "
                            "(fivehundred_check_ruleset)", "content hash", f"'bad' (package {PACKAGE} {VERSION})")
    assert len(output.strip().splitlines()) == 1


def test_a_plugin_mutating_the_ruleset_in_a_play_hook_is_caught(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_trick_table(ruleset, contract, joker, nomination, deck, nominated):
            object.__setattr__(ruleset, "description", "changed in play")
            return None
    """)
    one_line_error(run("simulate", "-n", "1", "-p", "random"),
                   "was changed while the plugins answered fivehundred_trick_table", f"package {PACKAGE}")


def test_a_ruleset_mutated_after_loading_is_not_compiled(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_house_rules():
            return []
    """)
    ruleset = fivehundred.load_ruleset(REF)
    before = ruleset.content_hash
    object.__setattr__(ruleset.game, "target", 300)  # what a plugin's import could do to a cached ruleset
    with pytest.raises(fivehundred.PluginError, match=f"was changed after it was loaded \\(content hash {before}, "
                       "now [0-9a-f]{16}\\).*plugins not built in: 'bad'"):
        fivehundred.simulate(1, 0, ruleset, "random")


def test_a_well_behaved_plugin_changes_nothing(install: Install) -> None:
    install("""
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_check_ruleset(ruleset):
            return []
    """)
    ruleset = fivehundred.load_ruleset(REF)
    assert fivehundred.simulate(2, 0, ruleset, "random").games == 2


def test_sys_exit_in_a_hook_is_the_plugins_failure(install: Install) -> None:
    install("""
        import sys
        from fivehundred import hookimpl

        @hookimpl
        def fivehundred_check_ruleset(ruleset):
            sys.exit(3)
    """)
    output = one_line_error(run("rules", "show", REF), "crashed in fivehundred_check_ruleset: SystemExit: 3")
    named(output, "fivehundred_check_ruleset")
