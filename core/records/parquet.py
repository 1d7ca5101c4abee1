"""Parquet output of a batch: the rows of ``fivehundred.records.columns``, streamed a row group at a time.

Needs pyarrow (``pip install 'fivehundred[parquet]'``), imported only when a Parquet file is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fivehundred.rules.extras import require
from fivehundred.rules.manager import Rules

from .columns import FORMAT, Row, column_types

GAMES_PER_ROW_GROUP = 2000
"""Games buffered before a row group is written: the file does not depend on the number of workers."""


def _arrow() -> tuple[Any, Any]:
    pa = require("pyarrow", "parquet", "writing Parquet results")
    pq = require("pyarrow.parquet", "parquet", "writing Parquet results")
    return pa, pq


def arrow_schema(rules: Rules, seed: int | str, players: Sequence[str]) -> Any:
    """The ``pyarrow.Schema`` of a batch's rows, with the batch described in its metadata."""
    pa, _ = _arrow()
    types = {"string": pa.string(), "int64": pa.int64(), "int32": pa.int32(), "bool": pa.bool_()}
    metadata = {"fivehundred.format": FORMAT, "fivehundred.rules.ruleset": rules.ruleset.name,
                "fivehundred.ruleset_hash": rules.ruleset.content_hash, "fivehundred.seed": json.dumps(seed),
                "fivehundred.bots.players": json.dumps(dict(zip(rules.seats, players, strict=True))),
                "fivehundred.teams": json.dumps(list(rules.team_names))}
    return pa.schema([pa.field(name, types[kind]) for name, kind in column_types(rules, seed)], metadata=metadata)


class ParquetSink:
    """Writes the rows of finished games to ``path``; ``close()`` leaves a valid file at any point."""

    def __init__(self, path: str | Path, rules: Rules, seed: int | str, players: Sequence[str],
                 games_per_row_group: int | None = None):
        self._pa, pq = _arrow()
        self.schema = arrow_schema(rules, seed, players)
        self._writer = pq.ParquetWriter(str(path), self.schema, compression="zstd")
        self._rows: list[Row] = []
        self._games = 0
        self._per_group = games_per_row_group or GAMES_PER_ROW_GROUP

    def add(self, rows: list[Row]) -> None:
        """The rows of one more game, in game order."""
        self._rows.extend(rows)
        self._games += 1
        if self._games % self._per_group == 0:
            self.flush()

    def flush(self) -> None:
        if not self._rows:
            return
        pa = self._pa
        columns = zip(*self._rows, strict=True)
        arrays = [pa.array(values, type=f.type) for values, f in zip(columns, self.schema, strict=True)]
        self._writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))
        self._rows = []

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._writer.close()
