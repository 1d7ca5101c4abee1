"""``fivehundred play`` in a pseudo-terminal, typed as a person types: calls and cards at the prompts, Ctrl-C
in the middle of a hand (the terminal sends SIGINT), ``quit``; the record written and the resume message
checked, then the game resumed (with a terminal that cannot show the suit symbols) and finished.  The game
so played must be the one played straight through with the same choices."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import sys
from pathlib import Path

import pytest

import fivehundred
from fivehundred.batch.table import play_at_table

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

SEED = 2
PROMPT = re.compile(r"legal: (?P<legal>[^\r\n]*)\r?\n(?P<seat>\w+)> ")
SYMBOLS = str.maketrans({"♠": "S", "♣": "C", "♦": "D", "♥": "H"})


def choose(legal: str) -> str:
    """A person's choice, as typed, from the legal choices shown: a call of six if one is open, else pass;
    the first card otherwise (a joker led as ``JK(♠)`` is typed ``JK:S``)."""
    options = legal.translate(SYMBOLS).split()
    if "pass" in options:
        six = [o for o in options if re.fullmatch(r"6[SCDH]", o)]
        return six[0] if six else "pass"
    first = options[0]
    return re.sub(r"^JK\((\w)\)$", r"JK:\1", first)


class Terminal:
    """``fivehundred`` running in a pseudo-terminal (its controlling terminal), read and typed into."""

    def __init__(self, *args: str, env: dict[str, str] | None = None):
        pid, fd = pty.fork()
        if pid == 0:  # the child: the terminal is its stdin, stdout, stderr and controlling terminal
            os.execve(sys.executable, [sys.executable, "-m", "fivehundred", *args],
                      {**os.environ, "COLUMNS": "200", "TERM": "dumb", **(env or {})})
        self.pid, self.fd = pid, fd
        self.seen = b""
        self.at = 0
        self.status: int | None = None

    def expect(self, pattern: re.Pattern[str] | str, timeout: float = 120) -> re.Match[str]:
        """Read until ``pattern`` shows after what was matched before; the match."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        while True:
            text = self.seen.decode("utf-8", errors="replace")
            found = regex.search(text, self.at)
            if found:
                self.at = found.end()
                return found
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                raise AssertionError(f"waited {timeout}s for {regex.pattern!r}; the screen ends:\n{text[-2000:]}")
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child has gone
                chunk = b""
            if not chunk:
                raise AssertionError(f"the program ended before {regex.pattern!r}; the screen ends:\n{text[-2000:]}")
            self.seen += chunk

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode("utf-8"))

    def wait(self) -> int:
        """Read to the end and return the exit status."""
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.seen += chunk
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    def screen(self) -> str:
        return self.seen.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def answer(term: Terminal, prompts: int) -> list[str]:
    """Answer ``prompts`` prompts as the person would; the choices typed."""
    typed = []
    for _ in range(prompts):
        choice = choose(term.expect(PROMPT)["legal"])
        term.type(choice + "\n")
        typed.append(choice)
    return typed


def test_a_person_plays_presses_ctrl_c_resumes_quits_resumes_and_finishes(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    first = Terminal("play", "--seat", "S", "--seed", str(SEED), "-o", str(out))
    try:
        first.expect("the others are club bots")
        typed = answer(first, 3)
        while True:  # into the second hand, then Ctrl-C in its play
            found = first.expect(PROMPT)
            hands = re.findall(r"\nhand (\d+) ·", first.screen())
            if int(hands[-1]) >= 2 and "trick " in first.screen()[first.screen().rfind("\nhand "):]:
                break
            choice = choose(found["legal"])
            first.type(choice + "\n")
            typed.append(choice)
        first.type("\x03")  # Ctrl-C, as the terminal sends it: SIGINT to the program
        first.expect(r"interrupted at hand 2, S to play: the game so far is in " + re.escape(str(out)))
        first.expect(r"to continue it: fivehundred play --resume " + re.escape(str(out)))
        assert first.wait() == 130
    finally:
        first.close()
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["result"] is None and len(record["hands"]) >= 2
    assert "unfinished" in record["hands"][-1] and "unfinished" not in record["hands"][0]
    report = fivehundred.validate([out])
    assert report.ok and report.checked == 1, [str(p) for p in report.problems]
    assert "♠" in first.screen() or "♥" in first.screen()

    second = Terminal("play", "--resume", str(out), env={"PYTHONIOENCODING": "ascii"})
    try:
        typed += answer(second, 4)
        second.expect(PROMPT)
        second.type("quit\n")
        second.expect(r"to continue it: fivehundred play --resume " + re.escape(str(out)))
        assert second.wait() == 0
    finally:
        second.close()
    assert second.screen().isascii(), "the suits are letters where the terminal cannot show symbols"
    assert fivehundred.validate([out]).ok

    third = Terminal("play", "--resume", str(out))
    try:
        while True:
            found = third.expect(re.compile(PROMPT.pattern + r"|(?P<end>the game is written to \S+)"))
            if found["end"]:
                break
            choice = choose(found["legal"])
            third.type(choice + "\n")
            typed.append(choice)
        assert third.wait() == 0
    finally:
        third.close()
    final = json.loads(out.read_text(encoding="utf-8"))
    assert final["result"] is not None and fivehundred.validate([out]).ok

    lines = iter(typed)  # the same choices typed in one sitting make the same game
    straight = play_at_table("pagat-australian", "S", seed=SEED, read=lambda: next(lines, None),
                             write=lambda _: None)
    assert straight.stopped is None and straight.record == final


def test_the_last_trick_and_the_tricks_by_side_on_the_screen(tmp_path: Path) -> None:
    term = Terminal("play", "--seat", "S", "--seed", str(SEED), "-o", str(tmp_path / "g.jsonl"))
    try:
        while "score: " not in term.screen():
            choice = choose(term.expect(PROMPT)["legal"])
            term.type(choice + "\n")
        term.expect(PROMPT)
        term.type("quit\n")
        assert term.wait() == 0
    finally:
        term.close()
    screen = term.screen().replace("\r\n", "\n")
    summary = re.search(r"last trick: [^\n]+ → \w\nhand 1: \S+ by \w (made|failed); contractor side "
                        r"\w·\w \d+ of \d+ needed · opponents \w·\w \d+\nscore: ", screen)
    assert summary, screen[-3000:]
    assert re.search(r"tricks: contractor side \w·\w \d+ of \d+ needed · opponents \w·\w \d+", screen)
    assert ": the only legal card" in screen or "legal: " in screen
