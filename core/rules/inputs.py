"""What users give: files, read as regular files only, of bounded size, as UTF-8, every error naming the
file; and seeds, bounded to what records hold.

A device, a FIFO, a socket or a directory is refused before it is opened (reading ``/dev/zero`` never
ends, opening a FIFO waits for a writer); a file larger than its limit is refused before it is read.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from .errors import FiveHundredError

MAX_RULESET_BYTES = 128 << 10
"""A ruleset file of more than 128 KiB is refused (the largest shipped one is under 4 KiB; reading YAML
takes about a second per 60 KiB, so this bounds the time too)."""

MAX_RECORD_BYTES = 64 << 20
"""A single record (a line of JSON Lines, or a ``.json`` file) of more than 64 MiB is refused
(a 1,000-deal game, the longest a batch plays, takes about 2 MiB)."""

MAX_SHEET_BYTES = 1 << 20
"""A score sheet of more than 1 MiB is refused (a sheet of 10,000 hands is under 500 KiB)."""


class InputError(FiveHundredError):
    """A file that cannot be read as input: missing, not a regular file, too large, or not UTF-8."""


def _size(n: int) -> str:
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.0f} {unit}"
    return f"{n} bytes"


def check_regular(path: Path) -> int:
    """The size of ``path``; ``InputError`` unless it is an existing regular file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: not a regular file (a device, FIFO or socket is never read)")
    return info.st_size


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text; ``InputError`` naming ``source``'s line and column of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(f"{source}:{line}: {_not_utf8(data, e)}") from None


def _not_utf8(data: bytes, e: UnicodeDecodeError) -> str:
    column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
    return f"not UTF-8 text: byte 0x{data[e.start]:02x} at column {column} (save the file as UTF-8)"


def read_text(path: str | Path, limit: int, what: str) -> str:
    """The whole of a regular file of at most ``limit`` bytes, as UTF-8 text."""
    path = Path(path)
    size = check_regular(path)
    if size > limit:
        raise InputError(f"{path}: {_size(size)} is too large for {what} (the limit is {_size(limit)})")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > limit:  # it grew since it was looked at
        raise InputError(f"{path}: too large for {what} (the limit is {_size(limit)})")
    return decode(data, str(path))


def read_lines(path: str | Path, limit: int = MAX_RECORD_BYTES) -> Iterator[tuple[int, str | None, str | None]]:
    """(line number, text, problem) for each non-blank line of a regular file, one line in memory at a
    time: a line longer than ``limit`` bytes or not UTF-8 has no text and a problem instead."""
    path = Path(path)
    check_regular(path)
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below; a failure to open is reported as input
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    with f:
        number = 0
        while True:
            line = f.readline(limit + 1)
            if not line:
                return
            number += 1
            if len(line) > limit and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # skip the rest of the overlong line
                    line = f.readline(1 << 20)
                yield number, None, f"a line longer than {_size(limit)} (the limit for one record)"
                continue
            if not line.strip():
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as e:
                yield number, None, _not_utf8(line, e)
                continue
            yield number, text, None


SEED_RANGE = (-(1 << 63), (1 << 63) - 1)
"""An integer seed is a 64-bit integer (records and Parquet files store it as one); any text may be a seed."""

MAX_SEED_TEXT = 1000


def check_seed(seed: int | str) -> None:
    """``ValueError`` for a seed that records cannot hold: an integer outside 64 bits, or a text of more
    than ``MAX_SEED_TEXT`` characters."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"seed: an integer or a text, not {type(seed).__name__}")
    if isinstance(seed, int) and not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise ValueError(f"seed: {_digits(seed)} is outside the 64-bit range {SEED_RANGE[0]}…{SEED_RANGE[1]}")
    if isinstance(seed, str) and len(seed) > MAX_SEED_TEXT:
        raise ValueError(f"seed: a text of {len(seed):,} characters; at most {MAX_SEED_TEXT:,}")


def _digits(n: int) -> str:
    if n.bit_length() < 200:
        return str(n)
    return f"an integer of about {int(n.bit_length() * 0.30103) + 1:,} digits"


MAX_INT_DIGITS = 18
"""An integer that users write (a score sheet's cell) has at most 18 digits: every such integer fits 64 bits."""

_DECIMAL = re.compile(rf"[-+]?[0-9]{{1,{MAX_INT_DIGITS}}}")


def decimal_integer(value: object) -> int:
    """An integer as users write it: an int (never true/false), or text of ASCII digits 0-9 with an optional
    sign (never ``١٢``, ``²``, ``1_000``, ``0x1F``), at most ``MAX_INT_DIGITS`` digits; ``ValueError`` otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) >= 10**MAX_INT_DIGITS:
            raise ValueError(f"an integer of more than {MAX_INT_DIGITS} digits")
        return value
    text = value.strip() if isinstance(value, str) else None
    if text is None or not _DECIMAL.fullmatch(text):
        raise ValueError(f"not an integer in digits 0-9: {value!r}"[:120])
    return int(text)
