"""Validating files of records and rulesets: read a line at a time, checked in jobs by one process or a
pool of them, the verdicts reported in file order whatever the number of workers.

A job is a ruleset file, or up to ``JOB_RECORDS`` records (``JOB_BYTES`` of text) of one record file;
at most ``4 × workers`` jobs are read and not yet reported, so memory stays flat however large the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path

from fivehundred.records.reading import Line, record_lines
from fivehundred.records.rulesets import RecordRulesets, RulesetRefs, load_rulesets
from fivehundred.records.validation import (
    Problem,
    Report,
    check_record_line,
    check_ruleset_file,
    forget_rulesets,
    is_ruleset_file,
)
from fivehundred.rules.errors import FiveHundredError
from fivehundred.rules.ruleset import Ruleset

from .chunks import in_order, process_pool, quiet_worker

JOB_RECORDS = 32
JOB_BYTES = 1 << 20

Job = tuple[Path | list[Line], int]
"""A ruleset file or a file's records, and how many bytes of the files they stand for (for progress)."""

Verdict = tuple[int, list[Problem], int]
"""How many items a job checked, their problems in order, and the job's bytes."""


def _jobs(paths: list[Path]) -> Iterator[Job]:
    for path in paths:
        size = path.stat().st_size if path.is_file() else 0
        if is_ruleset_file(path):
            yield path, size
            continue
        lines: list[Line] = []
        text_bytes = counted = 0
        for line in record_lines(path):
            lines.append(line)
            if line[1] is not None:
                text_bytes += len(line[1].encode("utf-8"))
            if len(lines) >= JOB_RECORDS or text_bytes - counted >= JOB_BYTES:
                yield lines, min(text_bytes, size) - counted
                lines, counted = [], min(text_bytes, size)
        if lines or size > counted:  # the last job stands for the rest: blank and unreadable lines too
            yield lines, size - counted


def _check(job: Job, rulesets: RecordRulesets) -> Verdict:
    what, size = job
    if isinstance(what, Path):
        return 1, check_ruleset_file(what), size
    return len(what), [p for line in what for p in check_record_line(line, rulesets)], size


_RULESETS = RecordRulesets()
"""The rulesets of the records, in a pool worker (set once by its initializer)."""


def _init_worker(given: list[Ruleset]) -> None:
    global _RULESETS
    _RULESETS = RecordRulesets(given)
    quiet_worker()


def _pool_check(job: Job) -> Verdict:
    return _check(job, _RULESETS)


def validate(paths: Iterable[str | Path], ruleset: RulesetRefs = None, *, workers: int = 1,
             progress: Callable[[int], None] | None = None, max_problems: int | None = None) -> Report:
    """Validate game records (.json, .jsonl) and ruleset files (.yaml); return a ``Report``.

    Records are read a line at a time, checked against the record schema (``record_schema()``), then
    replayed; a file or line that cannot be read is a problem of its own and the others are still checked.
    ``workers`` processes check them; the report is the same, in the same order, for any number.
    ``progress`` is called with the number of bytes of the files just checked.

    A record is replayed under the ruleset it carries or names (``fivehundred.records.rulesets``); ``ruleset``
    gives rulesets (names, files, or loaded: one, or a list), each for the records of its name (a lone one for
    every record).  ``max_problems`` keeps only the first problems found (the others are counted in
    ``Report.not_kept``), so that checking a huge file of bad records stays in bounded memory.
    """
    files = [Path(p) for p in paths]
    for path in files:
        if not path.exists():
            raise FiveHundredError(f"{path}: no such file")
    forget_rulesets()  # files may have changed since the last call
    given = load_rulesets(ruleset)
    rulesets = RecordRulesets(given)
    report = Report(keep=max_problems)
    with ExitStack() as stack:
        verdicts: Iterator[Verdict]
        if workers > 1:
            pool = stack.enter_context(process_pool(workers, _init_worker, (given,)))
            verdicts = in_order(lambda job: pool.apply_async(_pool_check, (job,)), lambda r: r.get(),
                                _jobs(files), window=4 * workers)
        else:
            verdicts = (_check(job, rulesets) for job in _jobs(files))
        for checked, problems, size in verdicts:
            report.checked += checked
            report.add(problems)
            if progress is not None:
                progress(size)
    return report

