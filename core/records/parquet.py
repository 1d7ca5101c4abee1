"""Parquet output of a batch: the rows of ``fivehundred.records.columns``, streamed a row group at a time.

Needs pyarrow (``pip install 'fivehundred[parquet]'``), imported only when a Parquet file is written.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fivehundred.rules.extras import require
from fivehundred.rules.manager import Rules
from fivehundred.rules.outputs import OutputError, create_folder, exclusive_file, partial_path, signals_held

from .columns import FORMAT, Row, column_types

GAMES_PER_ROW_GROUP = 2000
"""Games buffered before a row group is written: the file does not depend on the number of workers."""


def _arrow() -> tuple[Any, Any]:
    pa = require("pyarrow", "parquet", "writing Parquet results")
    pq = require("pyarrow.parquet", "parquet", "writing Parquet results")
    return pa, pq


def arrow_schema(rules: Rules, seed: int | str, players: Sequence[str],
                 extra: Sequence[tuple[str, str]] = ()) -> Any:
    """The ``pyarrow.Schema`` of a batch's rows, with the batch described in its metadata (``extra``: columns
    after the usual ones, as (name, Arrow type): ``simulate --dd``'s)."""
    pa, _ = _arrow()
    types = {"string": pa.string(), "int64": pa.int64(), "int32": pa.int32(), "bool": pa.bool_()}
    metadata = {"fivehundred.format": FORMAT, "fivehundred.rules.ruleset": rules.ruleset.name,
                "fivehundred.ruleset_hash": rules.ruleset.content_hash, "fivehundred.seed": json.dumps(seed),
                "fivehundred.bots.players": json.dumps(dict(zip(rules.seats, players, strict=True))),
                "fivehundred.teams": json.dumps(list(rules.team_names))}
    return pa.schema([pa.field(name, types[kind]) for name, kind in [*column_types(rules, seed), *extra]],
                     metadata=metadata)


_RANGES = {"int64": 63, "int32": 31}


def _fits(value: Any, kind: str) -> bool:
    bits = _RANGES.get(kind)
    return bits is None or value is None or (isinstance(value, int) and -(2 ** bits) <= value < 2 ** bits)


class ParquetSink:
    """Writes the rows of finished games to ``path``, a row group at a time.

    Each row group, once full, is written as a whole Parquet file of its own in ``PATH.parts/``, so that
    the games of every closed row group survive a kill (``pyarrow.parquet.read_table`` reads the folder).
    ``close()`` joins the parts into ``PATH.partial``, renames it over ``path`` and removes the parts:
    ``path`` is left as it was until the new file is complete.  ``PATH.parts/`` is made (exclusively, and
    locked) when the sink is: a second run writing ``path`` at the same time is refused, and so is a run
    while the parts of a killed one are there.
    """

    def __init__(self, path: str | Path, rules: Rules, seed: int | str, players: Sequence[str],
                 games_per_row_group: int | None = None, extra: Sequence[tuple[str, str]] = ()):
        self._pa, self._pq = _arrow()
        self.path = Path(path)
        self.parts = partial_path(self.path, ".parts")
        self.schema = arrow_schema(rules, seed, players, extra)
        self._lock = create_folder(self.parts, self.path, " (pyarrow.parquet.read_table reads the games in it)")
        self._rows: list[Row] = []
        self._games = 0
        self._written: list[Path] = []
        self._kept = False
        self._per_group = games_per_row_group or GAMES_PER_ROW_GROUP

    def add(self, rows: list[Row]) -> None:
        """The rows of one more game, in game order."""
        self._rows.extend(rows)
        self._games += 1
        if self._games % self._per_group == 0:
            self.flush()

    def flush(self) -> None:
        """Write the rows buffered as one more part (a whole Parquet file, renamed into place)."""
        if not self._rows:
            return
        pa = self._pa
        columns = zip(*self._rows, strict=True)
        arrays = [self._column(values, f) for values, f in zip(columns, self.schema, strict=True)]
        table = pa.Table.from_arrays(arrays, schema=self.schema)
        part = self.parts / f"part-{len(self._written):06d}.parquet"
        self._write(part, [table], temp=self.parts / f".{part.name}.partial")  # hidden: readers skip it
        self._written.append(part)
        self._rows = []

    def _column(self, values: Sequence[Any], field: Any) -> Any:
        try:
            return self._pa.array(values, type=field.type)
        except (self._pa.ArrowException, OverflowError, TypeError, ValueError):
            bad = next((v for v in values if not _fits(v, str(field.type))), None)
            shown = str(bad) if len(str(bad)) <= 40 else f"{str(bad)[:37]}..."
            raise OutputError(f"{self.path}: column {field.name}: the value {shown} does not fit Parquet's "
                              f"{field.type}; nothing of this run is kept; {self.path} is left as it was") from None

    def _write(self, path: Path, tables: Any, temp: Path | None = None) -> None:
        temp = temp or partial_path(path)
        try:
            with exclusive_file(temp, self.path) as f, self._pq.ParquetWriter(f, self.schema,
                                                                             compression="zstd") as writer:
                for table in tables:
                    writer.write_table(table)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, path)
        except OSError as e:
            with contextlib.suppress(OSError):
                temp.unlink()
            self._kept = bool(self._written)
            kept = (f"the games of the {len(self._written)} row group(s) finished are in {self.parts}/"
                    if self._written else "nothing of this run is kept")
            raise OutputError(f"{self.path}: cannot write: {e.strerror or e}; {kept}; {self.path} is left as "
                              "it was") from None

    def close(self, failed: bool = False, complete: bool = True) -> str | None:
        """Join the parts into ``path`` and return it; after a failure, remove them and leave ``path`` as
        it was (None); stopped by Ctrl-C (not ``complete``) while ``path`` holds an earlier file, leave that
        as it was and the games finished in ``PATH.parts/`` (returned)."""
        try:
            if failed:
                if not self._kept:
                    shutil.rmtree(self.parts, ignore_errors=True)
                return None
            try:
                self.flush()
            except OutputError:
                if not self._kept:
                    shutil.rmtree(self.parts, ignore_errors=True)
                raise
            if not complete and os.path.lexists(self.path):
                if self._written:
                    return str(self.parts)
                shutil.rmtree(self.parts, ignore_errors=True)
                return None
            with signals_held():
                self._write(self.path, (self._pq.read_table(part, schema=self.schema) for part in self._written))
                shutil.rmtree(self.parts, ignore_errors=True)
            return str(self.path)
        finally:
            with contextlib.suppress(OSError):
                os.close(self._lock)
