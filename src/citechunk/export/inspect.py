"""What a reviewer wants to see first in an ingest output folder, and one chunk with its citation.

`inspect(out)` reads ``OUT/chunks/`` one document file at a time and the provenance files beside
the Markdown (``OUT/markdown/<stem>.md.json``) for page counts. `show_chunk(out, doc, n)` returns
one record with the Markdown span its offsets point to, re-checked against the offset invariant.
`sample_chunks(out, n, seed)` draws chunks at random across documents, to be read against their
pages: the quickest way to judge what a reader of the chunks will get.
The reports it returns, and how they print, are `inspect_view`'s.
"""

from __future__ import annotations

import heapq
import json
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from ..conversion import read_markdown
from ..errors import CitechunkError, ConfigError
from ..markers import strip_markers
from ..models import Provenance
from . import jsonl, parquet
from .dataset import check_schema_version, dataset_files
from .ids import doc_id
from .inspect_view import (
    ChunkSummary,
    ChunkView,
    DocumentSummary,
    InspectReport,
    TokenStats,
    nearest_rank,
)
from .layout import CHUNKS_DIR, MARKDOWN_DIR, Format
from .schema import ChunkRecord, offset_problems, table_to_records

__all__ = [
    "ChunkSummary",
    "ChunkView",
    "DocumentSummary",
    "InspectReport",
    "LoadedDocument",
    "SampledChunk",
    "TokenStats",
    "document_chunks",
    "find_document",
    "inspect",
    "load_documents",
    "nearest_rank",
    "sample_chunks",
    "show_chunk",
    "split_text",
]


def _out_dir(out: str | os.PathLike[str]) -> Path:
    p = Path(out)
    if not p.is_dir():
        raise ConfigError(f"{p}: no such output folder")
    if not (p / CHUNKS_DIR).is_dir():
        raise ConfigError(f"{p}: not a citechunk output folder (no {CHUNKS_DIR}/ inside)")
    return p


def _read_file(path: Path, fmt: Format) -> list[ChunkRecord]:
    table: pa.Table = parquet.read_table([path]) if fmt == "parquet" else jsonl.read_table([path])
    check_schema_version(table, path)
    return table_to_records(table)


def _provenance(out: Path, chunk_file: Path, records: Sequence[ChunkRecord]) -> Provenance | None:
    rel = records[0].markdown_file if records else f"{MARKDOWN_DIR}/{chunk_file.stem}.md"
    path = out / (rel + ".json")
    if not path.is_file():
        return None
    try:
        return Provenance.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError) as exc:
        raise CitechunkError(f"{path}: unreadable provenance: {exc}") from None


def _covered(records: Iterable[ChunkRecord]) -> set[int]:
    return {p for r in records for p in range(r.first_page, r.last_page + 1)}


@dataclass(frozen=True)
class LoadedDocument:
    """One chunk file read back: its records, its provenance (None if missing) and its source
    path (from the records, else from the provenance, else the file stem)."""

    chunk_file: Path
    records: list[ChunkRecord]
    provenance: Provenance | None
    source_file: str

    @property
    def doc_id(self) -> str:
        return self.records[0].doc_id if self.records else doc_id(self.source_file)

    def keys(self) -> set[str]:
        """Names `find_document` accepts for this document."""
        src = self.source_file
        return {
            src,
            src.rsplit("/", 1)[-1],
            self.doc_id,
            self.chunk_file.stem,
            self.chunk_file.name,
        }


def _load_documents(root: Path) -> Iterator[LoadedDocument]:
    fmt, files = dataset_files(root / CHUNKS_DIR)
    for f in files:
        records = _read_file(f, fmt)
        prov = _provenance(root, f, records)
        source = records[0].source_file if records else (prov.source if prov else f.stem)
        yield LoadedDocument(f, records, prov, source)


def _summarise(root: Path, doc: LoadedDocument) -> DocumentSummary:
    prov, records = doc.provenance, doc.records
    covered = _covered(records)
    return DocumentSummary(
        source_file=doc.source_file,
        doc_id=doc.doc_id,
        chunk_file=doc.chunk_file.relative_to(root).as_posix(),
        chunks=len(records),
        tokens=sum(r.token_count for r in records),
        page_count=prov.page_count if prov else None,
        pages_without_chunk=tuple(p for p in (prov.pages if prov else ()) if p not in covered),
        pages_without_text=tuple(prov.pages_without_text) if prov else (),
        word_coverage=prov.word_coverage if prov else None,
        restored_lines=sum(n for _, n in prov.restored_lines) if prov else 0,
        label=prov.title if prov else "",
        label_source=prov.title_source if prov else "",
        navigation=sum(r.role == "navigation" for r in records),
    )


def inspect(out: str | os.PathLike[str], top: int = 5) -> InspectReport:
    """Summarise the dataset in `out` (an ingest OUT folder); `top` bounds each chunk list.

    Raises ConfigError when `out` is missing or has no ``chunks/`` folder; CitechunkError when a
    chunk or provenance file cannot be read.
    """
    root = _out_dir(out)
    fmt, _ = dataset_files(root / CHUNKS_DIR)
    docs, counts, versions = [], [], set()
    small: list[tuple[int, str, int, ChunkSummary]] = []
    large: list[tuple[int, str, int, ChunkSummary]] = []
    empty: list[ChunkSummary] = []
    empty_count = 0
    for doc in _load_documents(root):
        docs.append(_summarise(root, doc))
        for r in doc.records:
            counts.append(r.token_count)
            versions.add(r.schema_version)
            item = (r.token_count, r.source_file, r.chunk_index, ChunkSummary.of(r))
            small = heapq.nsmallest(top, [*small, item], key=lambda t: t[:3])
            large = heapq.nlargest(top, [*large, item], key=lambda t: (t[0], t[1], -t[2]))
            if not r.heading_path:
                empty_count += 1
                if len(empty) < top:
                    empty.append(item[3])
    docs.sort(key=lambda d: d.source_file)
    return InspectReport(
        out_dir=str(root),
        format=fmt,
        schema_versions=tuple(sorted(versions)),
        documents=tuple(docs),
        tokens=TokenStats.of(counts),
        smallest=tuple(t[3] for t in small),
        largest=tuple(t[3] for t in large),
        empty_heading=tuple(empty),
        empty_heading_count=empty_count,
    )


def load_documents(out: str | os.PathLike[str]) -> list[LoadedDocument]:
    """Every document of the dataset in `out`, read back (ConfigError when `out` is not one)."""
    return list(_load_documents(_out_dir(out)))


def find_document(out: str | os.PathLike[str], doc: str) -> LoadedDocument:
    """The document named `doc`, read back.

    `doc` may be the source path (relative to INPUT), its file name, the doc_id, or the chunk
    file's name or stem; failing those, a unique case-insensitive substring of the source path.
    Raises ConfigError when nothing or more than one document matches.
    """
    root = _out_dir(out)
    loaded = list(_load_documents(root))
    found = [d for d in loaded if doc in d.keys()]
    if not found:
        found = [d for d in loaded if doc.lower() in d.source_file.lower()]
    if len(found) == 1:
        return found[0]
    names = sorted(d.source_file for d in (found or loaded))
    shown = ", ".join(names[:10]) + (" …" if len(names) > 10 else "")
    if found:
        raise ConfigError(f"document '{doc}' is ambiguous: {shown}")
    raise ConfigError(f"no document '{doc}' in {root} (documents: {shown or 'none'})")


def document_chunks(out: str | os.PathLike[str], doc: str) -> tuple[str, tuple[ChunkSummary, ...]]:
    """The source path and every chunk (summarised, in order) of document `doc`."""
    found = find_document(out, doc)
    return found.source_file, tuple(ChunkSummary.of(r) for r in found.records)


def show_chunk(out: str | os.PathLike[str], doc: str, n: int) -> ChunkView:
    """Chunk `n` (its 0-based chunk_index) of document `doc` (see `find_document`)."""
    found = find_document(out, doc)
    records = found.records
    if not 0 <= n < len(records):
        valid = f"--chunk must be in 0..{len(records) - 1}" if records else "nothing to show"
        raise ConfigError(f"{found.source_file} has {len(records)} chunks; {valid}")
    record = next(r for r in records if r.chunk_index == n)
    md_path = Path(out) / record.markdown_file
    if not md_path.is_file():
        problems = (f"Markdown file {record.markdown_file} is missing",)
        return ChunkView(record, str(md_path), None, problems, len(records))
    markdown = read_markdown(md_path)
    span = markdown[record.char_start : record.char_end]
    return ChunkView(
        record, str(md_path), span, tuple(offset_problems(record, markdown)), len(records)
    )


def split_text(r: ChunkRecord, markdown: str | None) -> tuple[str, str]:
    """`r.text` as (path line, body). The body is the chunk's Markdown span (marker lines removed,
    trimmed) when `markdown` is the document's Markdown and `r.text` ends with it; else what
    follows the first blank line of a chunk with a heading path, else the whole text."""
    body = strip_markers(markdown[r.char_start : r.char_end]).strip() if markdown else ""
    if not body or not r.text.endswith(body):
        _, sep, rest = r.text.partition("\n\n")
        body = rest if r.heading_path and sep else r.text
    return r.text[: len(r.text) - len(body)].strip(), body


@dataclass(frozen=True)
class SampledChunk:
    """One chunk drawn by `sample_chunks`: its citation, path line and body, as a reader sees them."""

    source_file: str
    chunk_index: int
    document_chunks: int
    first_page: int
    last_page: int
    token_count: int
    path_line: str
    body: str

    @classmethod
    def of(cls, r: ChunkRecord, document_chunks: int, markdown: str | None) -> SampledChunk:
        path_line, body = split_text(r, markdown)
        return cls(
            r.source_file, r.chunk_index, document_chunks, r.first_page, r.last_page,
            r.token_count, path_line, body,
        )  # fmt: skip

    @property
    def pages(self) -> str:
        if self.first_page == self.last_page:
            return f"p. {self.first_page}"
        return f"pp. {self.first_page}-{self.last_page}"

    def render(self) -> str:
        """The chunk as `citechunk inspect OUT --sample N` prints it, lines never wrapped: a
        citation line, the path line, the body (`str()` too)."""
        return (
            f"== {self.source_file} #{self.chunk_index} (0-{self.document_chunks - 1}), "
            f"{self.pages}, {self.token_count} tokens\npath: {self.path_line or '(none)'}\n"
            f"{self.body}\n"
        )

    __str__ = render


def sample_chunks(
    out: str | os.PathLike[str], n: int, seed: int = 0, doc: str | None = None
) -> tuple[SampledChunk, ...]:
    """`n` chunks drawn uniformly without replacement from every chunk of the dataset in `out`,
    or of the one document `doc` names (`find_document`), all of them when there are fewer, in
    document then chunk order. The same `seed`, dataset and `doc` give the same sample."""
    root = _out_dir(out)
    if doc is not None:
        docs = [find_document(root, doc)]
    else:
        docs = sorted(_load_documents(root), key=lambda d: d.source_file)
    pool = [(d, r) for d in docs for r in sorted(d.records, key=lambda r: r.chunk_index)]
    picked = sorted(random.Random(seed).sample(range(len(pool)), min(n, len(pool))))
    texts: dict[str, str | None] = {}
    sample = []
    for loaded, r in (pool[i] for i in picked):
        if r.markdown_file not in texts:
            path = root / r.markdown_file
            texts[r.markdown_file] = read_markdown(path) if path.is_file() else None
        sample.append(SampledChunk.of(r, len(loaded.records), texts[r.markdown_file]))
    return tuple(sample)
