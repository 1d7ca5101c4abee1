"""Malformed and malicious ruleset YAML: every load ends quickly, in bounded memory, with a line
naming the file, the line and what is wrong; never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_cli import REF, one_line_error, run, write

import fivehundred
from fivehundred.rules.errors import MAX_PROBLEMS
from fivehundred.rules.inputs import MAX_RULESET_BYTES
from fivehundred.rules.ruleset import MAX_YAML_DEPTH, MAX_YAML_NODES


def problems(path: Path) -> list[str]:
    with pytest.raises(fivehundred.RulesetError) as caught:
        fivehundred.load_ruleset(path)
    return caught.value.problems


def alias_bomb(levels: int) -> str:
    """A few hundred bytes that expand to 9 ** levels values."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [7, 9, 30])
def test_an_alias_bomb_is_refused_without_being_expanded(tmp_path: Path, levels: int) -> None:
    bomb = write(tmp_path / "bomb.yaml", alias_bomb(levels))
    assert bomb.stat().st_size < 2000
    [problem] = problems(bomb)
    assert problem.startswith(f"{bomb}:")
    assert f"more than {MAX_YAML_NODES:,} values" in problem


def test_aliases_of_modest_size_still_load(tmp_path: Path) -> None:
    path = write(tmp_path / "anchored.yaml", f"extends: {REF}\ngame: &g {{target: 300}}\nx-unused: *g\n")
    [problem] = problems(path)  # the alias itself is fine; the unknown key is the only problem
    assert f"{path}:3: x-unused: unknown key" in problem


def test_a_recursive_alias_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "loop.yaml", "a: &a [1, *a]\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:1:") and "recursive alias" in problem


@pytest.mark.parametrize("text", ["a: " + "[" * 5000 + "]" * 5000, "a:\n" + "".join(
    f"{'  ' * i}k{i}:\n" for i in range(1, 200))])
def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path, text: str) -> None:
    path = write(tmp_path / "deep.yaml", text + "\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:") and f"nested more than {MAX_YAML_DEPTH} levels" in problem


def test_deep_nesting_through_aliases_is_refused(tmp_path: Path) -> None:
    depth = MAX_YAML_DEPTH // 2 + 2
    nested = "[" * depth + "]" * depth
    path = write(tmp_path / "deep.yaml", f"a: &a {nested}\nb: &b [{'[' * depth}*a{']' * depth}]\n")
    [problem] = problems(path)
    assert "levels deep once aliases are expanded" in problem


def test_an_oversized_ruleset_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = write(tmp_path / "big.yaml", f"extends: {REF}\nhouse_rules:\n" + "  k: {}\n" * (MAX_RULESET_BYTES // 8))
    [problem] = problems(path)
    assert problem == f"{path}: {path.stat().st_size // 1024} KiB is too large for a ruleset (the limit is 128 KiB)"


def test_problems_are_capped_and_each_points_at_its_own_line(tmp_path: Path) -> None:
    keys = MAX_PROBLEMS + 30
    path = write(tmp_path / "many.yaml", f"extends: {REF}\nhouse_rules:\n" + "".join(
        f"  k{i}: {{}}\n" for i in range(keys)))
    found = problems(path)
    assert len(found) == MAX_PROBLEMS + 1
    assert found[-1] == "… and 30 more problems"
    assert found[0].startswith(f"{path}:3: house_rules.k0: house rule 'k0' is not provided")
    assert found[9].startswith(f"{path}:12: house_rules.k9:")


@pytest.mark.parametrize("tag", ["!!python/object/apply:os.system", "!!python/name:os.system",
                                 "!!python/object:collections.OrderedDict", "!custom"])
def test_a_python_tag_is_named_with_its_line_and_nothing_runs(tmp_path: Path, tag: str) -> None:
    marker = tmp_path / "ran"
    path = write(tmp_path / "evil.yaml", f"extends: {REF}\ngame:\n  target: {tag} ['touch {marker}']\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:3: unsupported YAML tag {tag}"), problem
    assert not marker.exists()


def test_a_non_utf8_ruleset_names_the_file_line_and_byte(tmp_path: Path) -> None:
    path = write(tmp_path / "latin1.yaml", f"extends: {REF}\ndescription: café\n".encode("latin-1"))
    [problem] = problems(path)
    assert problem == f"{path}:2: not UTF-8 text: byte 0xe9 at column 17 (save the file as UTF-8)"


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "broken.yaml", f"extends: {REF}\ngame: {{target: 300\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}:") and "invalid YAML" in problem


def test_the_cli_reports_each_hostile_file_and_goes_on_to_the_next(tmp_path: Path) -> None:
    bomb = write(tmp_path / "bomb.yaml", alias_bomb(9))
    latin = write(tmp_path / "latin1.yaml", "name: caf\xe9\n".encode("latin-1"))
    good = write(tmp_path / "good.yaml", f"extends: {REF}\ngame: {{target: 300}}\n")
    output = one_line_error(run("validate", bomb, latin, good), "1 of 3 valid")
    assert f"invalid {bomb}: {bomb}:" in output
    assert f"invalid {latin}: {latin}:1: not UTF-8" in output


def test_simulate_with_a_hostile_ruleset_is_a_one_line_error(tmp_path: Path) -> None:
    evil = write(tmp_path / "evil.yaml", "players: !!python/object/apply:os.system [true]\n")
    output = one_line_error(run("simulate", "-n", "1", "-r", evil), f"{evil}:1: unsupported YAML tag")
    assert len(output.strip().splitlines()) == 1
