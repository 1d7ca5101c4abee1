"""Writing the files users ask for: never over an input, never half-way.

Every output is written beside its target as ``NAME.partial`` and renamed over the target once
complete, so an existing file stays as it was until its replacement is whole.  A write that fails (a
full disk) cuts the partial file back to the last whole record, keeps it, leaves the target alone and
says so.  A target that is not a regular file (``/dev/null``, a FIFO) is written directly.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from .errors import FiveHundredError


class OutputError(FiveHundredError):
    """An output that may not be written (it is an input) or that could not be (a full disk)."""


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_outputs(outputs: Iterable[str | Path | None], inputs: Iterable[str | Path | None]) -> None:
    """``OutputError`` when an output is one of the inputs (the same file, by any name)."""
    sources = [Path(p) for p in inputs if p is not None]
    for output in outputs:
        if output is None:
            continue
        out = Path(output)
        for source in sources:
            if _same_file(out, source) or out.resolve() == source.resolve():
                raise OutputError(f"{out}: is also an input ({source}); write the output to another file")


def partial_path(path: str | Path) -> Path:
    """Where the output ``path`` is written until it is complete."""
    path = Path(path)
    return path.with_name(path.name + ".partial")


def _is_special(path: Path) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


class Replacement:
    """A new version of ``path``, written to ``partial_path(path)`` in whole records (``write``) and
    renamed over ``path`` by ``commit``; ``abandon`` removes it, ``keep`` leaves it for the user."""

    def __init__(self, path: str | Path, opener: Callable[..., Any] = open):
        self.path = Path(path)
        self.direct = _is_special(self.path)
        self.temp = self.path if self.direct else partial_path(self.path)
        self.records = 0
        self.kept = False
        """Whether a failed write left the whole records before it in the partial file, for the user."""
        self._good = 0
        try:
            self._file: IO[bytes] = opener(self.temp, "wb", buffering=0)
        except OSError as e:
            raise OutputError(f"{self.path}: cannot write: {e.strerror}") from None

    def write(self, data: bytes, records: int = 1) -> None:
        """Append ``records`` whole records; on a failed write the file is cut back to the records before."""
        view = memoryview(data)
        try:
            while view:
                written = self._file.write(view)
                view = view[written or 0:]
                if not written:
                    raise OSError(28, "No space left on device")
        except OSError as e:
            self._cut_back()
            raise self.failure(e.strerror or str(e)) from None
        self._good += len(data)
        self.records += records

    def failure(self, reason: str) -> OutputError:
        """The error that says what happened and what is left where."""
        kept = (f"the {self.records:,} whole record(s) written before it are in {self.temp}"
                if self.records and not self.direct else "nothing of this run is kept")
        unchanged = "" if self.direct else f"; {self.path} is left as it was"
        return OutputError(f"{self.path}: cannot write: {reason}; {kept}{unchanged}")

    def _cut_back(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._file.truncate(self._good)
        with contextlib.suppress(OSError, ValueError):
            self._file.close()
        if not self.records and not self.direct:
            with contextlib.suppress(OSError):
                self.temp.unlink()
        self.kept = bool(self.records)

    def commit(self) -> None:
        """The output is complete: it replaces ``path``."""
        try:
            self._file.close()
            if not self.direct:
                os.replace(self.temp, self.path)
        except OSError as e:
            self._cut_back()
            raise self.failure(e.strerror or str(e)) from None

    def abandon(self) -> None:
        """The run failed before any record could be trusted: remove the partial file."""
        with contextlib.suppress(OSError, ValueError):
            self._file.close()
        if not self.direct and not self.kept:
            with contextlib.suppress(OSError):
                self.temp.unlink()


def replace_file(path: str | Path, data: bytes) -> None:
    """Write ``data`` as the whole of ``path`` (through its partial file, renamed when complete)."""
    out = Replacement(path)
    try:
        out.write(data)
    except BaseException:
        out.abandon()
        raise
    out.commit()
