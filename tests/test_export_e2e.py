"""Real chunker -> records -> files -> read back: every record cites its Markdown file exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from citechunk.chunking import chunk_markdown, resolve_embedder
from citechunk.config import ChunkOptions
from citechunk.conversion import read_markdown
from citechunk.export import (
    SCHEMA_VERSION,
    chunks_path,
    config_fingerprint,
    make_records,
    markdown_relpath,
    offset_problems,
    read_chunks,
    run_metadata,
    table_to_records,
    write_chunks,
)
from citechunk.fsutil import atomic_write_text
from citechunk.markers import render_pages

PARAGRAPH = (
    "Retrieval systems must cite the page a passage came from, so every chunk keeps its "
    "page range and its character offsets into the converted Markdown file. "
)
PAGES = [
    (1, "# Annual report\n\nIntroductory words before any section.\n\n## Scope\n\n" + PARAGRAPH),
    (2, PARAGRAPH * 3 + "\n\n## Method\n\n" + PARAGRAPH),
    (
        3,
        "| Year | Value |\n|---|---|\n"
        + "".join(f"| {y} | {y % 7} |\n" for y in range(1990, 2030)),
    ),
    (4, "# Appendix\n\nClosing remarks on page four. Ünïcode “quotes” – dashes."),
]
SOURCES = ["reports/annual.pdf", "second copy.pdf"]


def ingest_like(out: Path, fmt: str, options: ChunkOptions) -> None:
    """What the runner does per document, minus PDF conversion."""
    config = {"chunk": {"max_tokens": options.max_tokens, "embedder": options.embedder}}
    fingerprint = config_fingerprint(config)
    for source in SOURCES:
        markdown = render_pages(PAGES)
        md_rel = markdown_relpath(source)
        atomic_write_text(out / md_rel, markdown)
        records = make_records(
            chunk_markdown(markdown, options),
            source_file=source,
            source_sha256=str(len(markdown)) * 4,
            markdown_file=md_rel,
            tokenizer=resolve_embedder(options.embedder).tokenizer,
            embedder=options.embedder,
            backend="test",
            config_fingerprint=fingerprint,
        )
        write_chunks(records, chunks_path(out, source, fmt), fmt, run_metadata(config))  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_chunked_markdown_round_trips_with_exact_citations(tmp_path: Path, fmt: str) -> None:
    options = ChunkOptions(max_tokens=64, embedder="approx@512")
    ingest_like(tmp_path / "a", fmt, options)
    ingest_like(tmp_path / "b", fmt, options)
    table = read_chunks(tmp_path / "a")
    records = table_to_records(table)
    assert len(records) > 2 * len(PAGES)  # the size limit split sections
    assert {r.source_file for r in records} == set(SOURCES)
    for r in records:
        markdown = read_markdown(tmp_path / "a" / r.markdown_file)
        assert offset_problems(r, markdown) == [], (r.chunk_index, r.text[:60])
        assert r.schema_version == SCHEMA_VERSION
    assert max(r.last_page for r in records) == 4
    ids = [r.chunk_id for r in records]
    assert len(set(ids)) == len(ids)
    assert ids == read_chunks(tmp_path / "b").column("chunk_id").to_pylist()
    for a in sorted((tmp_path / "a" / "chunks").iterdir()):
        assert a.read_bytes() == (tmp_path / "b" / "chunks" / a.name).read_bytes()


def test_changing_an_option_changes_chunk_ids_not_doc_ids(tmp_path: Path) -> None:
    ingest_like(tmp_path / "a", "parquet", ChunkOptions(max_tokens=64, embedder="approx@512"))
    ingest_like(tmp_path / "b", "parquet", ChunkOptions(max_tokens=128, embedder="approx@512"))
    a, b = read_chunks(tmp_path / "a"), read_chunks(tmp_path / "b")
    assert set(a.column("doc_id").to_pylist()) == set(b.column("doc_id").to_pylist())
    assert not set(a.column("chunk_id").to_pylist()) & set(b.column("chunk_id").to_pylist())
