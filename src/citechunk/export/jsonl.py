"""JSON Lines encoding of chunk records: one object per line, UTF-8, fixed key order.

Keys appear in `FIELDS` order, separators are compact, non-ASCII text is written as is.
U+2028, U+2029 and U+0085 are escaped so that no line splitter (``str.splitlines``,
JavaScript) breaks a record in two; JSON already escapes the other control characters.
The output is a pure function of the records: identical records give identical bytes.
JSONL has no file metadata: every record carries ``schema_version``; the run configuration is in
``OUT/run.json``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..errors import CitechunkError
from .schema import ARROW_SCHEMA, FIELDS, OPTIONAL_FIELDS, ChunkRecord

_LINE_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}


def encode_line(record: ChunkRecord) -> str:
    """One record as a JSON line (with the trailing newline)."""
    line = json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in _LINE_BREAKS.items():
        line = line.replace(raw, escaped)
    return line + "\n"


def encode(records: Sequence[ChunkRecord]) -> bytes:
    return "".join(encode_line(r) for r in records).encode("utf-8")


def iter_rows(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The objects of a JSONL file in order; CitechunkError names the file and line if broken."""
    try:
        yield from _rows(path)
    except UnicodeDecodeError as exc:
        raise CitechunkError(f"{path}: not UTF-8 text: {exc.reason}") from None


def _rows(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8", newline="") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CitechunkError(f"{path}:{number}: not valid JSON: {exc.msg}") from None
            if not isinstance(row, dict):
                raise CitechunkError(f"{path}:{number}: not a JSON object")
            missing = [f for f in FIELDS if f not in row and f not in OPTIONAL_FIELDS]
            if missing:
                raise CitechunkError(f"{path}:{number}: missing fields {', '.join(missing)}")
            yield row


def _default(value: Any) -> Any:
    """An optional field's default as JSON would hold it (a list for a tuple)."""
    return list(value) if isinstance(value, tuple) else value


def read_table(paths: Sequence[str | os.PathLike[str]]) -> pa.Table:
    """All `paths` as one table with `ARROW_SCHEMA` (rows in file order, then line order)."""
    rows = [
        {
            f: row.get(f, _default(OPTIONAL_FIELDS[f])) if f in OPTIONAL_FIELDS else row[f]
            for f in FIELDS
        }
        for p in paths
        for row in iter_rows(Path(p))
    ]
    try:
        return pa.Table.from_pylist(rows, schema=ARROW_SCHEMA)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise CitechunkError(f"JSONL records do not match the chunk schema: {exc}") from None
