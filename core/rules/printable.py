"""Text from files, made safe to print: ``printable`` escapes the characters that act on a terminal or
break a line-based format instead of showing.

A player's name, a ruleset's name, a record's winner or a PTN tag is text from a file, and a file can
hold anything: ESC starts terminal sequences (``ESC ] 0 ;`` retitles the window, ``ESC [ 2 J`` clears
the screen), CR returns to the line's start and overwrites it, LF starts a new line that looks like the
program's own output (or a new tag line in PTN).  ``printable`` writes each such character as a
Python-style escape (``\\x1b``, ``\\r``, ``\\n``, ``\\u202e``), so the text shows as written, on one line.
"""

from __future__ import annotations

ESCAPED = (
    *range(0x00, 0x20),  # C0 controls: ESC, CR, LF, TAB, BEL, backspace …
    *range(0x7F, 0xA0),  # DEL and the C1 controls (0x9B is a one-byte CSI on some terminals)
    0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A),  # bidirectional controls
    0x2028, 0x2029,  # line and paragraph separators
    *range(0xD800, 0xE000),  # lone surrogates (never valid text; printing one fails)
)
"""The code points ``printable`` escapes."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(code: int) -> str:
    char = chr(code)
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_TABLE = {code: _escape(code) for code in ESCAPED}


def printable(text: object) -> str:
    """``text`` (any value, as ``str`` gives it) with control characters, bidirectional controls, line
    separators and lone surrogates escaped: safe to print to a terminal, always one line."""
    return str(text).translate(_TABLE)
