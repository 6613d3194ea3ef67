"""The chunk record: the versioned citation schema every exported file follows.

A `ChunkRecord` is one row of ``OUT/chunks/*.parquet`` / one line of ``OUT/chunks/*.jsonl``.
The field names and their order below are the contract (`FIELDS`, `ARROW_SCHEMA`); a change to
them bumps `SCHEMA_VERSION` (major for a rename/removal/type change, minor for an added field).

Invariants of a record (checked by `make_records`, verified end to end by `offset_problems`):

* ``source_file`` is relative to the ingest INPUT folder with POSIX separators; for a single-PDF
  input it is the file name.
* ``chunk_index`` is 0-based in document order, contiguous within a document.
* ``1 <= first_page <= last_page`` (PDF page numbers, 1-based).
* ``0 <= char_start <= char_end`` are Python string offsets (code points, not bytes) into the
  document's Markdown file ``OUT/<markdown_file>`` read with ``newline=""``.  That slice, with
  page-marker lines removed and outer whitespace trimmed, is the end of ``text`` (``text`` is the
  heading path joined by " > ", a blank line, then the body; a split table's body starts with the
  repeated header rows, which lie outside the slice).
* ``markdown_file`` is relative to OUT with POSIX separators.
* ``ocr_pages`` (added in 1.1) lists, ascending, the pages of ``first_page..last_page`` whose
  text came from OCR; readers fill it with ``[]`` for 1.0 files, which lack the column.
* ``boxes`` (added in 1.1) are the page regions of the cited span (`SourceMap.boxes` of
  ``[char_start, char_end)``): 1-based page, PDF points, origin top-left, in reading order;
  empty when the document has no source map. Files written before 1.1 have no ``boxes``
  column/key; readers give those records ``boxes=()``.
* ``role`` (added in 1.2) is "content" (the document's own text) or "navigation" (a contents
  page, an index, a list of figures or tables: `chunking.navigation.chunk_role`); records
  written before 1.2 read as "content".
* ``kind`` (added in 1.3) says what the chunk holds: "text", "table" (a whole table), "table-rows"
  (row groups of a longer table, under its repeated name and header), "list" or "navigation"
  (`chunking.kinds.chunk_kind`); records written before 1.3 read as "text".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import pyarrow as pa

from .. import __version__
from ..chunking.navigation import Role, chunk_role
from ..config import ChunkOptions
from ..markers import strip_markers
from ..models import Chunk, ChunkKind
from .ids import chunk_id, doc_id, section_id
from .sourcemap import Box, SourceMap

SCHEMA_VERSION = "1.3"


def produced_config(
    backend: str, backend_version: str, convert: Mapping[str, Any], chunk: ChunkOptions
) -> dict[str, Any]:
    """Everything that changes the bytes of a document's outputs, the input of
    `ids.config_fingerprint`: versions, the backend's options as given (`convert`, never with a
    password) and the chunk options."""
    return {
        "citechunk_version": __version__,
        "backend": backend,
        "backend_version": backend_version,
        "convert": dict(convert),
        "chunk": dataclasses.asdict(chunk),
        "schema_version": SCHEMA_VERSION,
    }


@dataclass(frozen=True)
class ChunkRecord:
    """One exported chunk with its full citation. Field order = column order = JSON key order."""

    chunk_id: str
    doc_id: str
    source_file: str
    source_sha256: str
    chunk_index: int
    text: str
    heading_path: tuple[str, ...]
    first_page: int
    last_page: int
    char_start: int
    char_end: int
    markdown_file: str
    token_count: int
    tokenizer: str
    backend: str
    boxes: tuple[Box, ...] = ()
    schema_version: str = SCHEMA_VERSION
    ocr_pages: tuple[int, ...] = ()
    role: Role = "content"
    #: The embedder the chunk was sized for (`chunk.embedder`); `tokenizer` is its counter.
    embedder: str = ""
    #: The section the chunk belongs to: a deterministic id shared by every chunk of it, and
    #: its character span in the Markdown (return the whole section for a small chunk).
    section_id: str = ""
    section_char_start: int = 0
    section_char_end: int = 0
    #: What the chunk holds (`models.ChunkKind`); filter on it ("table", "table-rows", ...).
    kind: ChunkKind = "text"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict in `FIELDS` order (``heading_path`` as a list, ``boxes`` as a list
        of ``{page, x0, y0, x1, y1}`` objects)."""
        d = {f: getattr(self, f) for f in FIELDS}
        d["heading_path"] = list(self.heading_path)
        d["ocr_pages"] = list(self.ocr_pages)
        d["boxes"] = [b.to_dict() for b in self.boxes]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ChunkRecord:
        """Inverse of `to_dict`; also accepts a row of `read_chunks(...).to_pylist()` and a
        record written before a field in `OPTIONAL_FIELDS` existed."""
        values = {
            f: OPTIONAL_FIELDS[f] if f in OPTIONAL_FIELDS and d.get(f) is None else d[f]
            for f in FIELDS
        }
        values["heading_path"] = tuple(values["heading_path"] or ())
        values["ocr_pages"] = tuple(values["ocr_pages"] or ())
        values["boxes"] = tuple(
            b if isinstance(b, Box) else Box.from_dict(b) for b in values["boxes"] or ()
        )
        return cls(**values)

    @property
    def pages(self) -> str:
        """Human page citation: "p. 3" or "pp. 3-5"."""
        if self.first_page == self.last_page:
            return f"p. {self.first_page}"
        return f"pp. {self.first_page}-{self.last_page}"

    @property
    def citation(self) -> str:
        """Human citation: "dir/a.pdf, pp. 3-5, § Methods > Data" (no § part for an empty path)."""
        where = f"{self.source_file}, {self.pages}"
        return f"{where}, § {' > '.join(self.heading_path)}" if self.heading_path else where


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ChunkRecord))
#: Fields added after 1.0, with the value a file written before them reads as.
OPTIONAL_FIELDS: dict[str, Any] = {
    "boxes": (),
    "ocr_pages": (),
    "role": "content",
    "embedder": "",
    "section_id": "",
    "section_char_start": 0,
    "section_char_end": 0,
    "kind": "text",
}

BOX_TYPE = pa.struct(
    [pa.field("page", pa.int32(), nullable=False)]
    + [pa.field(k, pa.float64(), nullable=False) for k in ("x0", "y0", "x1", "y1")]
)

_INT32 = {"chunk_index", "first_page", "last_page", "token_count"}
_INT64 = {"char_start", "char_end", "section_char_start", "section_char_end"}


def _arrow_type(name: str) -> pa.DataType:
    if name == "heading_path":
        return pa.list_(pa.string())
    if name == "ocr_pages":
        return pa.list_(pa.int32())
    if name == "boxes":
        return pa.list_(pa.field("element", BOX_TYPE, nullable=False))
    if name in _INT32:
        return pa.int32()
    if name in _INT64:
        return pa.int64()
    return pa.string()


ARROW_SCHEMA: pa.Schema = pa.schema([pa.field(n, _arrow_type(n), nullable=False) for n in FIELDS])
"""Declared column types: strings, ``list<string>`` for heading_path, ``list<int32>`` for
ocr_pages, int32 pages/index/tokens, int64 character offsets,
``list<struct<page: int32, x0, y0, x1, y1: float64>>`` for boxes. No column is nullable."""


def _check_relative_posix(path: str, what: str) -> None:
    p = PurePosixPath(path)
    if not path or "\\" in path or p.is_absolute() or ".." in p.parts:
        raise ValueError(f"{what} must be a relative POSIX path inside its root, got {path!r}")


def _check_chunk(c: Chunk, expected_index: int) -> None:
    if c.chunk_index != expected_index:
        raise ValueError(f"chunk_index {c.chunk_index} out of order, expected {expected_index}")
    if not 1 <= c.first_page <= c.last_page:
        raise ValueError(f"chunk {c.chunk_index}: bad page range {c.first_page}-{c.last_page}")
    if not 0 <= c.char_start <= c.char_end:
        raise ValueError(f"chunk {c.chunk_index}: bad char range {c.char_start}-{c.char_end}")


def make_records(
    chunks: Sequence[Chunk],
    *,
    source_file: str,
    source_sha256: str,
    markdown_file: str,
    tokenizer: str,
    backend: str,
    config_fingerprint: str,
    ocr_pages: Collection[int] = (),
    source_map: SourceMap | None = None,
    embedder: str = "",
) -> list[ChunkRecord]:
    """Turn one document's chunks (from `chunk_markdown`) into export records.

    `source_file` is relative to INPUT, `markdown_file` relative to OUT (both POSIX);
    `config_fingerprint` comes from `citechunk.export.config_fingerprint` and enters every
    `chunk_id` and `section_id`; `tokenizer` and `embedder` name what sized the chunks; `ocr_pages` are the document's OCR'd pages (provenance), each record gets those
    within its page range; `source_map` (the Markdown's, `export.sourcemap`) gives each record
    its ``boxes`` (none without it). Raises ValueError when a path is absolute or a chunk breaks
    the record invariants
    (index out of order, empty/inverted page or character range).
    """
    _check_relative_posix(source_file, "source_file")
    _check_relative_posix(markdown_file, "markdown_file")
    did = doc_id(source_file)
    ocr = set(ocr_pages)
    records = []
    for i, c in enumerate(chunks):
        _check_chunk(c, i)
        cid = chunk_id(
            did, source_sha256, config_fingerprint, c.chunk_index, c.char_start, c.char_end
        )
        s_start, s_end = c.section_span
        records.append(
            ChunkRecord(
                chunk_id=cid,
                doc_id=did,
                source_file=source_file,
                source_sha256=source_sha256,
                chunk_index=c.chunk_index,
                text=c.text,
                heading_path=tuple(c.heading_path),
                first_page=c.first_page,
                last_page=c.last_page,
                char_start=c.char_start,
                char_end=c.char_end,
                markdown_file=markdown_file,
                token_count=c.token_count,
                tokenizer=tokenizer,
                backend=backend,
                ocr_pages=tuple(p for p in sorted(ocr) if c.first_page <= p <= c.last_page),
                boxes=tuple(source_map.boxes(c.char_start, c.char_end)) if source_map else (),
                embedder=embedder,
                section_id=section_id(did, source_sha256, config_fingerprint, s_start, s_end),
                section_char_start=s_start,
                section_char_end=s_end,
                role=chunk_role(c.body),
                kind=c.kind,
            )
        )
    return records


def offset_problems(record: ChunkRecord, markdown: str) -> list[str]:
    """Why `record` does not cite `markdown` correctly (empty list when it does).

    Checks the offset invariant: ``markdown[char_start:char_end]`` minus page-marker lines,
    trimmed, is non-empty and ends ``text``.
    """
    problems = []
    if record.char_end > len(markdown):
        problems.append(f"char_end {record.char_end} beyond Markdown length {len(markdown)}")
    span = strip_markers(markdown[record.char_start : record.char_end]).strip()
    if not span:
        problems.append("the cited Markdown span is empty")
    elif not record.text.endswith(span):
        problems.append("the cited Markdown span is not the end of the chunk text")
    return problems


def records_to_table(records: Sequence[ChunkRecord]) -> pa.Table:
    """An Arrow table with `ARROW_SCHEMA` (columns in `FIELDS` order)."""
    columns = {f: [getattr(r, f) for r in records] for f in FIELDS}
    columns["heading_path"] = [list(r.heading_path) for r in records]
    columns["ocr_pages"] = [list(r.ocr_pages) for r in records]
    columns["boxes"] = [[b.to_dict() for b in r.boxes] for r in records]
    return pa.Table.from_pydict(columns, schema=ARROW_SCHEMA)


def table_to_records(table: pa.Table) -> list[ChunkRecord]:
    """Inverse of `records_to_table` (accepts any table with the `FIELDS` columns; one without
    an `OPTIONAL_FIELDS` column reads as that field's default)."""
    names = [f for f in FIELDS if f in table.column_names]
    return [ChunkRecord.from_dict(row) for row in table.select(names).to_pylist()]
