"""Writing the files users ask for: never over an input, never half-way, never two runs at once.

Every output is written beside its target as ``NAME.partial`` (a shorter name ending in ``.partial``
where ``NAME.partial`` would be too long for the file system), created afresh (never through an
existing file or link), locked while it is written, flushed to disk and renamed over the target once
complete: an existing file stays as it was until its replacement is whole.  A ``NAME.partial`` already
there is either being written by another run (refused: two runs never write the same file) or left by a
run that was killed (refused until the user moves it away or deletes it: it may hold the only copy of
finished work).  New files follow the umask, as any file the user creates.  A write that fails (a full
disk) cuts the partial file back to the last whole record, keeps it, leaves the target alone and says
so.  A target that is not a regular file (``/dev/null``, a FIFO) is written directly.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import signal
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .errors import FiveHundredError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; creating the partial file exclusively still keeps runs apart
    fcntl = None  # type: ignore[assignment]


class OutputError(FiveHundredError):
    """An output that may not be written (it is an input, a folder, being written by another run) or that
    could not be (a full disk)."""


NAME_MAX = 255
"""The longest file name (in bytes) where the file system does not say."""

SUFFIX = ".partial"


# --- names ---------------------------------------------------------------------------------------


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return NAME_MAX


def partial_path(path: str | Path, suffix: str = SUFFIX) -> Path:
    """Where the output ``path`` is written until it is complete: ``NAME.partial``, or, where that name is
    too long for the file system, the start of ``NAME``, ``~``, 8 hex digits of a hash of ``NAME`` and
    ``.partial`` (the same for the same target, so a later run finds what a killed one left)."""
    path = Path(path)
    name = path.name + suffix
    limit = _name_max(path.parent if str(path.parent) else Path("."))
    if len(os.fsencode(name)) <= limit:
        return path.with_name(name)
    tag = "~" + hashlib.sha256(os.fsencode(path.name)).hexdigest()[:8] + suffix
    head = os.fsencode(path.name)[: limit - len(tag)].decode("utf-8", "ignore")
    return path.with_name(head + tag)


# --- checks before any work ----------------------------------------------------------------------


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def is_special(path: Path) -> bool:
    """A target that is neither a regular file nor a folder (``/dev/null``, a FIFO): written directly."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_target(path: str | Path, what: str = "output") -> None:
    """``OutputError`` unless ``path`` names a file that can be written: not empty, not a folder, in a
    folder that exists and may be written, and no ``NAME.partial`` of another run in the way."""
    if str(path) in ("", "."):
        raise OutputError(f"the {what} names no file (an empty name, or the current folder); name a file to write")
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; name a file to write the {what} in")
    if is_special(path):
        return
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(f"{path}: cannot write: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: cannot write: the folder {folder} is not writable")
    temp = partial_path(path)
    if os.path.lexists(temp):
        raise in_the_way(path, temp)


def check_folder(folder: str | Path) -> None:
    """``OutputError`` unless ``folder`` is a folder, or can be made one, for outputs to be written in."""
    if str(folder) in ("",):
        raise OutputError("the output folder has an empty name")
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{path}: is not a folder; name a folder to write the files in")
    existing = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: cannot write: the folder {existing} is not writable")


def check_outputs(outputs: Iterable[str | Path | None], inputs: Iterable[str | Path | None],
                  what: str = "output") -> None:
    """``OutputError`` when an output may not be written (``check_target``) or is one of the inputs (the
    same file, by any name: a link, a hard link, another spelling of its path)."""
    sources = [Path(p) for p in inputs if p is not None]
    for output in outputs:
        if output is None:
            continue
        out = Path(output)
        for source in sources:
            if _same_file(out, source) or out.resolve() == source.resolve():
                raise OutputError(f"{out}: is also an input ({source}); write the {what} to another file")
        check_target(output, what)


def _locked_by_another(temp: Path) -> bool:
    """Whether another run holds the lock on ``temp`` (it is writing it now)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if fcntl is None:
        return False
    try:
        fd = os.open(temp, flags)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


def in_the_way(path: Path, temp: Path, hint: str = "") -> OutputError:
    """The error for a ``temp`` (``NAME.partial``, ``NAME.parts/``) that is already there."""
    try:
        mode = os.lstat(temp).st_mode
    except OSError:
        mode = 0
    if stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return OutputError(f"{path}: cannot write: {temp} is in the way (not a file this program left); "
                           "move it away or delete it")
    if _locked_by_another(temp):
        return OutputError(f"{path}: another run is writing it now (into {temp}); wait for it to end or "
                           "write to another file")
    return OutputError(f"{temp} holds what an earlier run wrote to {path} before it was stopped{hint}: move it "
                       "away (to keep it) or delete it, then run again")


# --- writing -------------------------------------------------------------------------------------


def _create(temp: Path, path: Path, hint: str = "") -> int:
    """A new file ``temp``, created exclusively (never through an existing file or link), locked, with the
    permissions the umask gives."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(temp, flags, 0o666)
    except FileExistsError:
        raise in_the_way(path, temp, hint) from None
    except OSError as e:
        raise OutputError(f"{path}: cannot write: {e.strerror}") from None
    _lock(fd, path, temp)
    return fd


def _lock(fd: int, path: Path, temp: Path) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise OutputError(f"{path}: another run is writing it now (into {temp})") from None


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (a file is never left half-renamed); in the main
    thread of a POSIX system."""
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _raw(fd: int) -> IO[bytes]:
    return open(fd, "wb", buffering=0, closefd=True)


class Replacement:
    """A new version of ``path``, written to ``partial_path(path)`` in whole records (``write``) and
    renamed over ``path`` by ``commit``; ``abandon`` removes it.

    The partial file is created (exclusively) and locked when the replacement is made, so a second run
    writing the same target at the same time is refused at once.  ``hint`` is added to the message for
    a partial file left by an earlier run (how to finish that run, say)."""

    def __init__(self, path: str | Path, opener: Callable[[int], Any] = _raw, hint: str = ""):
        self.path = Path(path)
        if str(path) in ("", ".") or self.path.is_dir():
            check_target(path)
        self.direct = is_special(self.path)
        self.temp = self.path if self.direct else partial_path(self.path)
        self.records = 0
        self.kept = False
        """Whether the partial file is left for the user (whole records of a failed or interrupted run)."""
        self._good = 0
        if self.direct:
            try:
                fd = os.open(self.path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError as e:
                raise OutputError(f"{self.path}: cannot write: {e.strerror}") from None
        else:
            fd = _create(self.temp, self.path, hint)
        self._fd = fd
        self._file: IO[bytes] = opener(fd)

    def write(self, data: bytes, records: int = 1) -> None:
        """Append ``records`` whole records; on a failed write the file is cut back to the records before."""
        view = memoryview(data)
        try:
            while view:
                written = self._file.write(view)
                view = view[written or 0:]
                if not written:
                    raise OSError(errno.ENOSPC, "No space left on device")
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
            os.fsync(self._fd)
        if not self.records and not self.direct:
            with contextlib.suppress(OSError):
                self.temp.unlink()
        with contextlib.suppress(OSError, ValueError):
            self._file.close()
        self.kept = bool(self.records) and not self.direct

    def commit(self, complete: bool = True) -> Path | None:
        """The output is written: it replaces ``path``, or, when it is not ``complete`` (a run stopped by
        Ctrl-C) and ``path`` holds an earlier file, it is kept as the partial file beside it (removed if it
        holds no record).  Returns where the records are (None: nowhere)."""
        with signals_held():
            try:
                if not self.direct:
                    os.fsync(self._fd)
                if self.direct:
                    where: Path | None = self.path
                elif not complete and os.path.lexists(self.path):
                    where = self.temp if self.records else None
                    if not self.records:
                        self.temp.unlink()
                    self.kept = bool(self.records)
                else:
                    os.replace(self.temp, self.path)
                    _fsync_folder(self.path.parent)
                    where = self.path
                self._file.close()
            except OSError as e:
                self._cut_back()
                raise self.failure(e.strerror or str(e)) from None
        return where

    def abandon(self) -> None:
        """The run failed before any record could be trusted: remove the partial file."""
        if not self.direct and not self.kept:
            with contextlib.suppress(OSError):
                self.temp.unlink()
        with contextlib.suppress(OSError, ValueError):
            self._file.close()


def replace_file(path: str | Path, data: bytes) -> None:
    """Write ``data`` as the whole of ``path`` (through its partial file, renamed when complete); Ctrl-C
    and SIGTERM wait until it is done, so the file is either the old one or the new one."""
    with signals_held():
        out = Replacement(path)
        try:
            out.write(data)
        except BaseException:
            out.abandon()
            raise
        out.commit()


def create_folder(folder: Path, path: Path, hint: str = "") -> int:
    """A new folder ``folder`` (``NAME.parts/``), created exclusively and locked; returns its descriptor
    (closing it releases the lock)."""
    try:
        folder.mkdir()
    except FileExistsError:
        raise in_the_way(path, folder, hint) from None
    except OSError as e:
        raise OutputError(f"{path}: cannot write: {e.strerror}") from None
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    _lock(fd, path, folder)
    return fd


def exclusive_file(temp: Path, path: Path) -> IO[bytes]:
    """A new file ``temp`` opened for writing, created exclusively and locked (for writers that want a
    file object, as pyarrow's)."""
    return open(_create(temp, path), "wb", closefd=True)
