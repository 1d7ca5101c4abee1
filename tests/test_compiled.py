"""The compiled engine (setup.py compiles the state machine with Cython when it can) plays exactly the
games of the pure-Python source, and a source edited after its compilation is reported."""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import fivehundred
from fivehundred.batch.simulation import play_game
from fivehundred.engine.build import COMPILED_MODULES, compiled_modules, pure_copy, stale_extensions
from fivehundred.records.record import dumps, game_to_dict
from fivehundred.rules.ruleset import ruleset_paths

GAMES = [(name, "random", game) for name in sorted(ruleset_paths()) for game in range(2)] + [
    ("pagat-australian", "heuristic", 0), ("five-handed", "heuristic", 0)]

DIGESTS = textwrap.dedent("""
    import hashlib, json, sys
    import fivehundred
    from fivehundred.records.record import dumps, game_to_dict
    from fivehundred.batch.simulation import play_game
    print(fivehundred.engine_build())
    for name, player, game in json.loads(sys.argv[1]):
        state = play_game(name, 7, player, game=game)
        print(hashlib.sha256(dumps(game_to_dict(state, seed=7, game=game)).encode()).hexdigest())
""")


def _digest(name: str, player: str, game: int) -> str:
    state = play_game(name, 7, player, game=game)
    return hashlib.sha256(dumps(game_to_dict(state, seed=7, game=game)).encode()).hexdigest()


@pytest.mark.skipif(os.environ.get("FIVEHUNDRED_REQUIRE_COMPILED") != "1",
                    reason="set FIVEHUNDRED_REQUIRE_COMPILED=1 where the build must compile (CI does)")
def test_the_build_compiled_the_engine() -> None:
    assert fivehundred.engine_build() == "compiled", f"compiled: {compiled_modules()} of {COMPILED_MODULES}"


def test_the_pure_source_plays_the_same_games_in_another_process(tmp_path: Path) -> None:
    """Every shipped ruleset, random and heuristic players: the same records, card for card, from the
    engine this process runs (compiled or not) and from a pure-Python copy in a fresh process."""
    import json

    root = pure_copy(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", DIGESTS, json.dumps(GAMES)], env=env, capture_output=True,
                         text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout.split()
    assert out[0:2] == ["pure", "Python"]
    assert out[2:] == [_digest(*game) for game in GAMES]


def test_a_source_edited_after_compilation_is_reported(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()  # a package laid out as installed: fivehundred/engine/state.py
    source = tmp_path / "engine" / "state.py"
    built = tmp_path / "engine" / f"state{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    source.write_text("# the engine\n")
    built.write_bytes(b"\0")
    now = time.time()
    os.utime(built, (now - 3600, now - 3600))
    os.utime(source, (now, now))
    assert stale_extensions(tmp_path) == [built]
    os.utime(built, (now, now))  # built with the source as it is: nothing to report
    assert stale_extensions(tmp_path) == []
