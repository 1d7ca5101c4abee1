"""``fivehundred play`` keeps a game: the record after every hand, a stop (``quit``, the end of the input) keeps
the hand in progress, and ``resume`` continues the same game (same deals, the bots' same decisions).

The person's choices come from a recording random player (``test_play.recorded_game``); a game stopped after
some of them and resumed with the rest must give the record of the game played straight through."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_play import MAX_DEALS, a_seat_that_plays, recorded_game, run

import fivehundred
from fivehundred.batch.simulation import DEFAULT_PLAYER
from fivehundred.batch.table import GameStopped, InputEnded, play_at_table, resume_args
from fivehundred.rules.errors import RecordError
from fivehundred.rules.loading import ruleset_paths


def lines_then(lines: list[str], last: str | None) -> Any:
    """A reader that gives ``lines`` and then ``last`` (None: the input ends)."""
    answers = iter(lines)
    return lambda: next(answers, last)


def stopped_and_resumed(ruleset: str, seat: str, seed: int, lines: list[str], stop_after: int,
                        tmp_path: Path) -> tuple[Any, Any]:
    out = tmp_path / "g.jsonl"
    first = play_at_table(ruleset, seat, bots="club", seed=seed, read=lines_then(lines[:stop_after], "quit"),
                          write=lambda _: None, out=out, max_deals=MAX_DEALS)
    record = json.loads(out.read_text(encoding="utf-8"))
    assert resume_args(record) == (seat, "club", seed)
    second = play_at_table(ruleset, seat, bots="club", seed=seed, read=lines_then(lines[stop_after:], None),
                           write=lambda _: None, out=out, max_deals=MAX_DEALS, resume=record)
    return first, second


@pytest.mark.parametrize("ruleset", sorted(ruleset_paths()))
def test_a_game_stopped_inside_a_hand_and_resumed_is_the_same_game(ruleset: str, tmp_path: Path) -> None:
    seat = a_seat_that_plays(ruleset)
    games = (recorded_game(ruleset, seat, seed, person="club", bots="club") for seed in range(2, 12))
    seed, (expected, recorder) = next((2 + k, g) for k, g in enumerate(games) if len(g[0]["hands"]) > 2)
    finished: list[int] = []
    n = len(recorder.lines)
    for stop_after in (recorder.in_play.index(True, n // 3), recorder.in_play.index(True, n * 2 // 3)):
        # "quit" answers a card of the play: a hand is in progress, whatever the bots' games
        first, second = stopped_and_resumed(ruleset, seat, seed, recorder.lines, stop_after, tmp_path)
        assert isinstance(first.stopped, GameStopped) and first.stopped.status == 0
        assert "unfinished" in first.record["hands"][-1]  # the hand in progress is kept, where it stopped
        finished.append(len(first.record["hands"]) - 1)
        assert first.record["result"] is None
        assert second.stopped is None and not second.refusals
        assert second.record == expected
        report = fivehundred.validate([tmp_path / "g.jsonl"])
        assert report.ok, [str(p) for p in report.problems]
    assert max(finished) >= 1  # finished hands were replayed too


def test_the_record_of_a_stopped_game_validates_as_unfinished(tmp_path: Path) -> None:
    _, recorder = recorded_game("pagat-australian", "S", seed=2, person="club", bots="club")
    out = tmp_path / "g.jsonl"
    game = play_at_table("pagat-australian", "S", bots="club", seed=2, read=lines_then(recorder.lines[:20], None),
                         write=lambda _: None, out=out, max_deals=MAX_DEALS)
    assert len(recorder.lines) > 20 and isinstance(game.stopped, InputEnded) and game.stopped.status == 1
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["result"] is None and record["hands"][-1]["unfinished"]["stops"].startswith("S to ")
    report = fivehundred.validate([out])
    assert report.ok and report.checked == 1, [str(p) for p in report.problems]


def test_every_finished_hand_is_written_as_it_ends(tmp_path: Path) -> None:
    """At every prompt the file holds each hand the table has reported finished, and validates."""
    _, recorder = recorded_game("pagat-australian", "S", seed=2, person="club", bots="club")
    out = tmp_path / "g.jsonl"
    shown: list[str] = []
    answers = iter(recorder.lines)
    seen: list[int] = []

    def read() -> str | None:
        finished = sum(1 for line in shown if line.startswith("hand ") and (" made;" in line or " failed;" in line
                                                                         or "passed" in line or "misdeal" in line))
        if finished and finished not in seen:
            record = json.loads(out.read_text(encoding="utf-8"))
            assert len(record["hands"]) == finished and record["result"] is None
            assert fivehundred.validate([out]).ok
            seen.append(finished)
        return next(answers, None)

    game = play_at_table("pagat-australian", "S", bots="club", seed=2, read=read, write=shown.append, out=out,
                         max_deals=MAX_DEALS)
    assert game.stopped is None and len(seen) >= 2
    assert json.loads(out.read_text(encoding="utf-8")) == game.record


def test_the_last_trick_shows_before_the_hand_s_summary_and_tricks_count_by_side() -> None:
    _, recorder = recorded_game("pagat-australian", "S", seed=2, person="club", bots="club")
    shown: list[str] = []
    play_at_table("pagat-australian", "S", bots="club", seed=2, read=lines_then(recorder.lines, None),
                  write=shown.append, max_deals=MAX_DEALS)
    summaries = [i for i, line in enumerate(shown) if line.startswith("hand ") and (" made;" in line
                                                                                   or " failed;" in line)]
    assert summaries
    for i in summaries:
        assert shown[i - 1].startswith("last trick: ") and " → " in shown[i - 1]
        assert ("contractor" in shown[i] and " needed · opponents " in shown[i]) or "misère" in shown[i]
    assert any(line.startswith("tricks: contractor side ") for line in shown)


def test_a_single_legal_card_is_played_for_the_person_unless_ask_always() -> None:
    _, recorder = recorded_game("pagat-australian", "S", seed=2, person="club", bots="club")
    shown: list[str] = []
    game = play_at_table("pagat-australian", "S", bots="club", seed=2, read=lines_then(recorder.lines, None),
                         write=shown.append, max_deals=MAX_DEALS)
    forced = [line for line in shown if line.endswith(": the only legal card")]
    assert forced and game.stopped is None
    asked: list[str] = []
    again = play_at_table("pagat-australian", "S", bots="club", seed=2, read=lines_then(recorder.lines, None),
                          write=asked.append, max_deals=MAX_DEALS, ask_always=True)
    assert not any(line.endswith(": the only legal card") for line in asked)
    assert isinstance(again.stopped, InputEnded)  # the recorded lines lack the forced cards: it asks for them


def test_the_default_bot_is_simulate_s(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = run("play", "--seat", "S", "-o", out, stdin="pass\n")
    assert json.loads(out.read_text(encoding="utf-8"))["players"]["N"] == DEFAULT_PLAYER == "club"
    assert "the others are club bots" in result.stdout


def test_help_shows_suit_symbols_and_ascii_shows_letters(tmp_path: Path) -> None:
    result = run("play", "--seat", "S", "--seed", "4", "-o", tmp_path / "a.jsonl", stdin="?\nquit\n")
    help_line = next(line for line in result.stdout.splitlines() if "'quit' stops the game" in line)
    assert any(s in help_line for s in "♠♣♦♥") and result.exit_code == 0
    assert "to continue it: fivehundred play --resume" in result.stdout
    result = run("play", "--seat", "S", "--seed", "4", "-o", tmp_path / "b.jsonl", "--ascii", stdin="?\nquit\n")
    assert result.stdout.isascii() and "6H" in result.stdout and result.exit_code == 0


def test_resume_refuses_another_game_and_a_new_game_keeps_an_unfinished_one(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    run("play", "--seat", "S", "--seed", "4", "-o", out, stdin="pass\nquit\n")
    record = json.loads(out.read_text(encoding="utf-8"))
    result = run("play", "--seat", "S", "-o", out, stdin="pass\n")  # a new game would replace it
    assert result.exit_code == 1 and "holds an unfinished game" in result.stderr and "--resume" in result.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == record
    result = run("play", "--resume", out, "--seed", "5")
    assert result.exit_code == 2 and "the resumed game has 4, not 5" in result.output
    with pytest.raises(RecordError, match="another game"):
        play_at_table("pagat-australian", "S", bots="club", seed=5, read=lambda: "quit", write=lambda _: None,
                      resume=record)
    assert json.loads(out.read_text(encoding="utf-8")) == record


def test_a_game_of_the_user_s_ruleset_resumes_with_its_file(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: pagat-australian\nname: house\nauction:\n  ladder_changes:\n    misere: {value: 300}\n",
                     encoding="utf-8")
    out = tmp_path / "g.jsonl"
    result = run("play", "-r", house, "--seat", "S", "--seed", "3", "-o", out, stdin="pass\nquit\n")
    assert result.exit_code == 0 and f"to continue it: fivehundred play --resume {out} -r {house}" in result.stdout
    result = run("play", "--resume", out, stdin="quit\n")
    assert result.exit_code == 1 and "'house', which is not shipped: give its file with -r FILE" in result.stderr
    result = run("play", "--resume", out, "-r", house, stdin="quit\n")
    assert result.exit_code == 0 and "resuming the recorded game" in result.stdout
    assert fivehundred.validate([out], fivehundred.load_ruleset(str(house))).ok
