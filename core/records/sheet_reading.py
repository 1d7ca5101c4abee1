"""Reading a score sheet (``sheets.score_sheet``): CSV with a header line, or YAML (a list of hands, or a mapping
with ``hands`` and optionally ``start``), each line as its cells by column with the line it was read from."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from fivehundred.rules.errors import RecordError, RulesetError
from fivehundred.rules.inputs import MAX_SHEET_BYTES, InputError, read_text
from fivehundred.rules.ruleset import load_plain_yaml

START = "start"
START_LINE = "score sheet: the start line comes first and gives every team's total before the first hand"


class SheetError(RecordError):
    """A score sheet that cannot be read, or a line that cannot have happened under the ruleset."""


def _read(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        text = read_text(path, MAX_SHEET_BYTES, "a score sheet")
    except InputError as e:
        raise SheetError(str(e)) from None
    text = text.removeprefix("\ufeff")  # Excel's "CSV UTF-8" starts with a byte order mark
    if path.suffix in (".yaml", ".yml"):
        return _read_yaml(path, text)
    return _read_csv(path, text)


def _read_csv(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.reader(io.StringIO(text, newline=""))  # lines end in \n, \r\n or \r (an old Mac's sheet)
    rows: list[tuple[int, dict[str, Any]]] = []
    header: list[str] | None = None
    for cells in _csv_lines(reader, path):
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip() for c in cells]
            twice = next((c for i, c in enumerate(header) if c and c in set(header[:i])), None) if len(
                set(header)) < len(header) else None
            if twice:
                raise SheetError(f"{path}:{reader.line_num}: {twice}: the header names this column twice")
            continue
        if len(cells) > len(header):
            raise SheetError(f"{path}:{reader.line_num}: {len(cells)} cells but the header names {len(header)}")
        rows.append((reader.line_num, {k: v.strip() for k, v in zip(header, cells, strict=False) if v.strip()}))
    if header is None:
        raise SheetError(f"{path}:1: empty sheet: a header line (contractor, contract, tricks …) and a line per hand")
    return rows


def _csv_lines(reader: Any, path: Path) -> Iterator[list[str]]:
    """The reader's rows; a line it cannot read (a cell over the csv module's 131,072 characters, a stray
    quote) is a ``SheetError`` naming the line."""
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise SheetError(f"{path}:{reader.line_num}: not a CSV line: {e}") from None
        yield cells


def _read_yaml(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    try:
        node, data = load_plain_yaml(text, str(path))
    except RulesetError as e:
        raise SheetError(e.problems[0]) from None
    start: list[tuple[int, dict[str, Any]]] = []
    if isinstance(node, yaml.MappingNode) and isinstance(data, dict):
        nodes = {k.value: v for k, v in node.value}
        if "hands" not in nodes or not set(data) <= {"hands", START}:
            raise SheetError(f"{path}:1: a YAML sheet is a list of hands, or a mapping with 'hands' and "
                             "optionally 'start'")
        if START in nodes:
            start = [_yaml_start(path, nodes[START].start_mark.line + 1, data[START])]
        node, data = nodes["hands"], data["hands"]
    if not isinstance(node, yaml.SequenceNode) or not isinstance(data, list):
        raise SheetError(f"{path}:1: a YAML sheet is a list of hands, one mapping each")
    rows = start
    for item, row in zip(node.value, data, strict=True):
        line = item.start_mark.line + 1
        if not isinstance(row, dict):
            raise SheetError(f"{path}:{line}: a hand is a mapping (contractor, contract, tricks)")
        rows.append((line, _cells(path, line, row)))
    return rows


def _cells(path: Path, line: int, row: dict[Any, Any]) -> dict[str, Any]:
    """A YAML hand's cells: each a word or a number (never a list or a mapping), the empty ones left out."""
    for key, value in row.items():
        if isinstance(value, (list, dict)):
            raise SheetError(f"{path}:{line}: {key}: a cell holds a word or a number, not a list or a mapping")
    return {str(k): v for k, v in row.items() if v is not None}


def _yaml_start(path: Path, line: int, start: Any) -> tuple[int, dict[str, Any]]:
    """``start: {number, totals: {team: total}}`` as the start line of a CSV sheet."""
    if not isinstance(start, dict) or not set(start) <= {"number", "totals"} or not isinstance(
            start.get("totals", {}), dict):
        raise SheetError(f"{path}:{line}: start: a mapping of 'number' (the first hand's) and 'totals' "
                         f"(each team's total before it) ({START_LINE})")
    row = _cells(path, line, start.get("totals", {}))
    if "number" in start:
        if isinstance(start["number"], (list, dict)):
            raise SheetError(f"{path}:{line}: start: number: a hand number, not a list or a mapping")
        row["hand"] = start["number"]
    return line, {"contract": START, **row}
