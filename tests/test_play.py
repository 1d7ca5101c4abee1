"""``fivehundred play``: a person at one seat against bots, driven through stdin as a person would type.

A game is first played with a recording player at the person's seat; the same seed with the recorded
choices typed in (and some refused ones among them) must give the same game, written as a record that
validates."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import fivehundred
from fivehundred.batch.table import HUMAN, InputEnded, play_at_table
from fivehundred.bots.players import RandomPlayer
from fivehundred.engine.seeding import game_generators
from fivehundred.engine.state import GameState, Phase, new_game
from fivehundred.records.record import game_to_dict
from fivehundred.records.show import hand_face
from fivehundred.rules.loading import ruleset_paths
from fivehundred.rules.manager import make_player

MAX_DEALS = 12


class Recorder:
    """A random player that keeps its choices as text, and the first card it could not legally play."""

    def __init__(self, seat: int, person: str = "random"):
        self.seat = seat
        self.inner = (RandomPlayer(seat, random.Random("the person's choices")) if person == "random"
                      else make_player(person, seat, random.Random("the person's choices")))
        self.lines: list[str] = []
        self.in_play: list[bool] = []
        """Whether each line answered a card of the play (its hand's auction over)."""
        self.illegal: tuple[int, str] | None = None

    def act(self, state: GameState, legal: list[int]) -> int:
        if self.illegal is None and state.phase == Phase.PLAY and state.trick:
            wrong = [c for c in state.hand(self.seat) if c not in legal]
            if wrong:  # holds the suit led: any other card breaks rule 16
                self.illegal = (len(self.lines), state.action_to_str(wrong[0]))
        action = self.inner.act(state, legal)
        if not (state.phase == Phase.PLAY and len(legal) == 1):  # the table plays a single legal card itself
            self.lines.append(state.action_to_str(action))
            self.in_play.append(state.phase == Phase.PLAY)
        return action


def recorded_game(ruleset: str, seat: str, seed: int, person: str = "random",
                  bots: str = "random") -> tuple[dict[str, Any], Recorder]:
    """A game whose ``seat`` is played by ``person`` and the others by ``bots`` (player names): its record,
    and the choices at the seat as a person would type them."""
    rs = fivehundred.load_ruleset(ruleset)
    me = rs.players.seats.index(seat)
    state, rng = new_game(rs, f"{seed}:0")
    recorder = Recorder(me, person)
    _, bots_rng = game_generators(f"{seed}:0")  # the bots share the players' generator, as in simulate's game 0
    players = [recorder if s == me else make_player(bots, s, bots_rng) for s in range(len(rs.players.seats))]
    state.play_out(players, rng, MAX_DEALS)
    names = [HUMAN if s == me else bots for s in range(len(rs.players.seats))]
    return game_to_dict(state, seed=seed, game=0, players=names), recorder


def typed(recorder: Recorder) -> list[str]:
    """The recorded choices, with an unreadable line first and the illegal card where it was possible."""
    lines = ["no such thing", "?", *recorder.lines]
    assert recorder.illegal is not None
    at, card = recorder.illegal
    lines.insert(at + 2, card)
    return lines


def run(*args: str | Path, stdin: str = "") -> Result:
    return CliRunner().invoke(app(), [str(a) for a in args], input=stdin, prog_name="fivehundred")


def app() -> Any:
    from fivehundred.cli.app import app as the_app

    return the_app


def test_a_whole_game_typed_on_stdin_is_written_and_validates(tmp_path: Path) -> None:
    expected, recorder = recorded_game("pagat-australian", "S", seed=4)
    out = tmp_path / "game.jsonl"
    result = run("play", "--seat", "S", "--bots", "random", "--seed", "4", "--max-deals", str(MAX_DEALS),
                 "-o", out, stdin="\n".join(typed(recorder)) + "\n")
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record == expected and record["players"]["S"] == HUMAN and record["result"] is not None
    assert fivehundred.validate([out]).ok
    assert "refused: 'no such thing' is not a choice here" in result.stdout
    assert re.search(r"refused: S: \S+[♠♣♦♥]: holds a card of the suit led \([♠♣♦♥]\) \(rule 16", result.stdout)
    assert f"the game is written to {out}" in result.stdout


def test_the_table_shows_only_what_the_seat_may_know() -> None:
    _, recorder = recorded_game("pagat-australian", "S", seed=4)
    shown: list[str] = []
    answers = iter(recorder.lines)
    game = play_at_table("pagat-australian", "S", bots="random", seed=4, read=lambda: next(answers, None),
                         write=shown.append, max_deals=MAX_DEALS)
    hands = [line for line in shown if "'s hand" in line]
    assert hands and all(line.startswith("S's hand:") or "face up" in line for line in hands)
    dealt = game.state.hands_log[0].hands[game.state.rules.seats.index("S")]
    assert hands[0] == "S's hand: " + hand_face(fivehundred.card_str(c) for c in dealt)  # before any exchange
    assert not any("kitty" in line for line in shown)


def a_seat_that_plays(ruleset: str) -> str:
    """The second seat that is not a dummy (P2: a dummy's cards are played by its owner)."""
    rs = fivehundred.load_ruleset(ruleset)
    return [s for s in rs.players.seats if s not in rs.players.dummies][1]


@pytest.mark.parametrize("ruleset", sorted(ruleset_paths()))
def test_every_shipped_ruleset_is_played_and_its_record_validates(ruleset: str, tmp_path: Path) -> None:
    seat = a_seat_that_plays(ruleset)
    expected, recorder = recorded_game(ruleset, seat, seed=2)
    answers = iter(recorder.lines)
    game = play_at_table(ruleset, seat, bots="random", seed=2, read=lambda: next(answers, None),
                         write=lambda _: None, out=tmp_path / "g.jsonl", max_deals=MAX_DEALS)
    assert game.record == expected and not game.refusals
    report = fivehundred.validate([tmp_path / "g.jsonl"])
    assert report.ok and report.checked == 1, [str(p) for p in report.problems]


def test_a_user_s_ruleset_file_is_played_and_its_record_validates(tmp_path: Path) -> None:
    house = tmp_path / "club.yaml"
    house.write_text("extends: pagat-australian\nname: club\nplay: {claims: true}\ndeal: {all_pass: no-trumps}\n",
                     encoding="utf-8")
    expected, recorder = recorded_game(str(house), "E", seed=3)
    out = tmp_path / "g.jsonl"
    result = run("play", "-r", house, "--seat", "E", "--bots", "random", "--seed", "3", "--max-deals",
                 str(MAX_DEALS), "-o", out, stdin="\n".join(recorder.lines) + "\n")
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8")) == expected
    report = fivehundred.validate([out], fivehundred.load_ruleset(str(house)))
    assert report.ok and report.checked == 1, [str(p) for p in report.problems]


def test_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    result = run("play", "--seat", "X", "-o", out)
    assert result.exit_code == 1 and "not a seat of pagat-australian (seats: N, E, S, W)" in result.stderr
    result = run("play", "--seat", "S", "--bots", "random", "-o", out, stdin="pass\n")
    assert result.exit_code == 1 and "the input ended before the game did" in result.stderr
    assert f"to continue it: fivehundred play --resume {out}" in result.stderr
    assert "Traceback" not in result.output and fivehundred.validate([out]).ok  # the game so far is kept
    assert run("play", "-o", tmp_path / "other.jsonl").exit_code == 2  # --seat is required
    game = play_at_table("pagat-australian", "N", bots="random", read=lambda: None, write=lambda _: None)
    assert isinstance(game.stopped, InputEnded) and game.out is None


