"""Export layer: record schema, ids, layout, Parquet/JSONL writers and readers (real pyarrow)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citechunk import ChunkOptions, chunk_markdown
from citechunk.errors import CitechunkError, ConfigError
from citechunk.export import (
    ARROW_SCHEMA,
    CONFIG_KEY,
    FIELDS,
    FINGERPRINT_KEY,
    SCHEMA_VERSION,
    SCHEMA_VERSION_KEY,
    ChunkRecord,
    chunks_relpath,
    config_fingerprint,
    doc_id,
    document_stem,
    iter_records,
    make_records,
    markdown_relpath,
    offset_problems,
    parquet_metadata,
    read_chunks,
    run_metadata,
    write_chunks,
)
from citechunk.markers import render_pages
from citechunk.models import Chunk

CONTRACT = [
    "chunk_id",
    "doc_id",
    "source_file",
    "source_sha256",
    "chunk_index",
    "text",
    "heading_path",
    "first_page",
    "last_page",
    "char_start",
    "char_end",
    "markdown_file",
    "token_count",
    "tokenizer",
    "backend",
    "boxes",
    "schema_version",
    "ocr_pages",
    "role",
    "embedder",
    "section_id",
    "section_char_start",
    "section_char_end",
    "kind",
]

SECTIONS = [
    (1, ("Intro",), "# Intro\n\nCitations matter — “quoted” text, ünïcödé.\u2028Line sep."),
    (1, ("Intro", "Scope"), "## Scope\n\nOnly PDFs."),
    (2, ("Methods",), "# Methods\n\nWe split at headings.\n\nThen by size."),
    (3, (), "Trailing text without a heading."),
]


def build_document(sections: list[tuple[int, tuple[str, ...], str]]) -> tuple[str, list[Chunk]]:
    """Page-marked Markdown and one hand-made chunk per section with exact offsets."""
    pages: dict[int, list[str]] = {}
    for page, _, body in sections:
        pages.setdefault(page, []).append(body)
    markdown = render_pages((p, "\n\n".join(parts)) for p, parts in sorted(pages.items()))
    chunks, cursor = [], 0
    for i, (page, path, body) in enumerate(sections):
        start = markdown.index(body, cursor)
        cursor = start + len(body)
        text = " > ".join(path) + "\n\n" + body if path else body
        chunks.append(Chunk(i, text, body, path, page, page, start, cursor, len(text.split())))
    return markdown, chunks


def records_for(source_file: str, sha: str = "a" * 64, fingerprint: str = "f" * 16):
    markdown, chunks = build_document(SECTIONS)
    records = make_records(
        chunks,
        source_file=source_file,
        source_sha256=sha,
        markdown_file=markdown_relpath(source_file),
        tokenizer="tiktoken:cl100k_base",
        backend="pymupdf",
        config_fingerprint=fingerprint,
    )
    return markdown, records


def test_fields_are_the_contract_and_schema_declares_types() -> None:
    assert list(FIELDS) == CONTRACT
    assert ARROW_SCHEMA.names == CONTRACT
    assert ARROW_SCHEMA.field("heading_path").type == pa.list_(pa.string())
    for name in ("chunk_index", "first_page", "last_page", "token_count"):
        assert pa.types.is_integer(ARROW_SCHEMA.field(name).type)
    assert ARROW_SCHEMA.field("char_start").type == pa.int64()
    assert ARROW_SCHEMA.field("text").type == pa.string()
    assert ARROW_SCHEMA.field("ocr_pages").type == pa.list_(pa.int32())
    assert ARROW_SCHEMA.field("role").type == pa.string()
    assert ARROW_SCHEMA.field("kind").type == pa.string()


def test_kind_is_recorded_and_a_file_without_it_reads_as_text(tmp_path: Path) -> None:
    """Schema 1.3's ``kind``: the chunk's, written and read back in both formats; a file
    written before 1.3 (no ``kind`` column or key) reads as "text"."""
    markdown = "# T\n\nIntro.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    chunks = chunk_markdown(markdown, ChunkOptions())
    records = make_records(
        chunks,
        source_file="t.pdf",
        source_sha256="a" * 64,
        markdown_file=markdown_relpath("t.pdf"),
        tokenizer="approx",
        backend="pymupdf",
        config_fingerprint="f" * 16,
    )
    assert [r.kind for r in records] == ["table"]
    for fmt in ("parquet", "jsonl"):
        path = tmp_path / f"t.{fmt}"
        write_chunks(records, path, fmt)  # type: ignore[arg-type]
        assert read_chunks(path).column("kind").to_pylist() == ["table"]
    old = [{k: v for k, v in r.to_dict().items() if k != "kind"} for r in records]
    assert [ChunkRecord.from_dict(d).kind for d in old] == ["text"]


def test_records_name_their_ocr_pages_and_round_trip(tmp_path: Path) -> None:
    markdown, chunks = build_document(SECTIONS)
    records = make_records(
        chunks,
        source_file="scan.pdf",
        source_sha256="a" * 64,
        markdown_file=markdown_relpath("scan.pdf"),
        tokenizer="approx",
        backend="pymupdf",
        config_fingerprint="f" * 16,
        ocr_pages=(3, 2, 9),
    )
    assert [r.ocr_pages for r in records] == [(), (), (2,), (3,)]
    for fmt in ("parquet", "jsonl"):
        path = tmp_path / f"scan.{fmt}"
        write_chunks(records, path, fmt)  # type: ignore[arg-type]
        assert list(iter_records(path)) == records
        assert read_chunks(path).column("ocr_pages").to_pylist() == [[], [], [2], [3]]


def test_schema_1_0_files_without_ocr_pages_still_read(tmp_path: Path) -> None:
    """Files written before 1.1 lack the column: readers give every record ocr_pages=()."""
    _, records = records_for("old.pdf")
    old = [{**r.to_dict(), "schema_version": "1.0"} for r in records]
    for row in old:
        del row["ocr_pages"]
    (tmp_path / "jsonl").mkdir()
    (tmp_path / "jsonl" / "old.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in old), encoding="utf-8"
    )
    schema_1_0 = pa.schema([f for f in ARROW_SCHEMA if f.name != "ocr_pages"])
    (tmp_path / "parquet").mkdir()
    pq.write_table(
        pa.Table.from_pylist(old, schema=schema_1_0), tmp_path / "parquet" / "old.parquet"
    )
    for folder in ("jsonl", "parquet"):
        read = list(iter_records(tmp_path / folder))
        assert [r.ocr_pages for r in read] == [()] * len(records)
        assert [r.text for r in read] == [r.text for r in records]
        table = read_chunks(tmp_path / folder)
        assert table.column("ocr_pages").to_pylist() == [[]] * len(records)


def test_records_cite_their_markdown() -> None:
    markdown, records = records_for("reports/2024/a.pdf")
    assert [r.chunk_index for r in records] == [0, 1, 2, 3]
    assert {r.schema_version for r in records} == {SCHEMA_VERSION}
    assert records[2].first_page == 2 and records[3].heading_path == ()
    for r in records:
        assert offset_problems(r, markdown) == []
    shifted = ChunkRecord.from_dict({**records[1].to_dict(), "char_start": 0, "char_end": 5})
    assert offset_problems(shifted, markdown)
    beyond = ChunkRecord.from_dict({**records[1].to_dict(), "char_end": len(markdown) + 3})
    assert any("beyond" in p for p in offset_problems(beyond, markdown))


def test_ids_are_deterministic_unique_and_doc_id_ignores_content() -> None:
    _, first = records_for("a.pdf")
    _, again = records_for("a.pdf")
    _, changed = records_for("a.pdf", sha="b" * 64)
    _, reconfigured = records_for("a.pdf", fingerprint="0" * 16)
    _, other = records_for("b.pdf")
    assert [r.chunk_id for r in first] == [r.chunk_id for r in again]
    assert {r.doc_id for r in first} == {r.doc_id for r in changed} == {doc_id("a.pdf")}
    assert doc_id("a.pdf") != doc_id("b.pdf")
    all_ids = [r.chunk_id for rs in (first, changed, reconfigured, other) for r in rs]
    assert len(set(all_ids)) == len(all_ids) == 16


def test_config_fingerprint_ignores_key_order_not_values() -> None:
    a = config_fingerprint({"chunk": {"max_tokens": 512, "tokenizer": "t"}, "backend": "pymupdf"})
    b = config_fingerprint({"backend": "pymupdf", "chunk": {"tokenizer": "t", "max_tokens": 512}})
    c = config_fingerprint({"backend": "pymupdf", "chunk": {"tokenizer": "t", "max_tokens": 256}})
    assert a == b != c
    assert len(a) == 16 and int(a, 16) >= 0


def test_make_records_rejects_broken_input() -> None:
    _, chunks = build_document(SECTIONS)
    kwargs = dict(
        source_sha256="a",
        markdown_file="markdown/x.md",
        tokenizer="t",
        backend="b",
        config_fingerprint="f",
    )
    with pytest.raises(ValueError, match="relative POSIX"):
        make_records(chunks, source_file="/abs/a.pdf", **kwargs)
    with pytest.raises(ValueError, match="relative POSIX"):
        make_records(chunks, source_file="../a.pdf", **kwargs)
    with pytest.raises(ValueError, match="out of order"):
        make_records(chunks[1:], source_file="a.pdf", **kwargs)


def test_layout_stems_are_flat_unique_and_visible() -> None:
    sources = ["a/b.pdf", "a__b.pdf", "A/B.pdf", ".hidden/x.pdf", "_x.pdf", "ü ber/straße?.pdf"]
    stems = [document_stem(s) for s in sources]
    assert len({s.lower() for s in stems}) == len(sources)
    assert all("/" not in s and not s.startswith((".", "_")) for s in stems)
    assert chunks_relpath("a/b.pdf", "jsonl") == f"chunks/{document_stem('a/b.pdf')}.jsonl"
    assert markdown_relpath("a/b.pdf").startswith("markdown/a__b.pdf-")


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_write_twice_is_byte_identical(tmp_path: Path, fmt: str) -> None:
    _, records = records_for("a.pdf")
    meta = run_metadata({"backend": "pymupdf", "chunk": {"max_tokens": 512}})
    write_chunks(records, tmp_path / f"one.{fmt}", fmt, meta)  # type: ignore[arg-type]
    write_chunks(records, tmp_path / f"two.{fmt}", fmt, dict(reversed(meta.items())))  # type: ignore[arg-type]
    one, two = (tmp_path / f"one.{fmt}").read_bytes(), (tmp_path / f"two.{fmt}").read_bytes()
    assert one == two and len(one) > 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_parquet_metadata_and_compression(tmp_path: Path) -> None:
    _, records = records_for("a.pdf")
    config = {"backend": "pymupdf", "chunk": {"max_tokens": 512}}
    path = tmp_path / "a.parquet"
    write_chunks(records, path, "parquet", run_metadata(config))
    meta = parquet_metadata(path)
    assert meta[SCHEMA_VERSION_KEY] == SCHEMA_VERSION
    assert json.loads(meta[CONFIG_KEY]) == config
    assert meta[FINGERPRINT_KEY] == config_fingerprint(config)
    group = pq.ParquetFile(path).metadata.row_group(0)
    columns = {group.column(i).path_in_schema: group.column(i) for i in range(group.num_columns)}
    assert {c.compression for c in columns.values()} == {"ZSTD"}
    assert "RLE_DICTIONARY" in columns["heading_path.list.element"].encodings
    assert "RLE_DICTIONARY" not in columns["text"].encodings


def test_folder_of_parquet_files_reads_as_one_typed_table(tmp_path: Path) -> None:
    out = tmp_path / "out"
    expected = []
    for source in ["z.pdf", "a.pdf", "sub/m.pdf"]:
        _, records = records_for(source)
        expected += records
        write_chunks(records, out / chunks_relpath(source, "parquet"), "parquet", {})
    (out / "chunks" / ".partial.parquet.tmp").write_bytes(b"garbage")  # an interrupted write
    table = read_chunks(out)
    assert table.num_rows == len(expected) == 12
    assert table.schema.remove_metadata().equals(ARROW_SCHEMA)
    assert table.column("source_file").to_pylist()[:4] == ["a.pdf"] * 4
    assert table.column("chunk_index").to_pylist()[:4] == [0, 1, 2, 3]
    read_back = sorted(iter_records(out / "chunks"), key=lambda r: r.chunk_id)
    assert read_back == sorted(expected, key=lambda r: r.chunk_id)
    # what DuckDB/polars see: the folder opened by a generic reader, without our schema
    generic = ds.dataset(out / "chunks", format="parquet").to_table()
    assert generic.num_rows == 12
    assert generic.schema.remove_metadata().equals(ARROW_SCHEMA)


def test_jsonl_round_trips_one_object_per_line(tmp_path: Path) -> None:
    _, records = records_for("a.pdf")
    path = tmp_path / "chunks" / "a.jsonl"
    write_chunks(records, path, "jsonl")
    raw = path.read_bytes().decode("utf-8")
    assert len(raw.splitlines()) == len(records)  # U+2028 in a text does not split a record
    assert "ünïcödé" in raw  # UTF-8, not \u escapes
    first = json.loads(raw.splitlines()[0])
    assert list(first) == CONTRACT and isinstance(first["heading_path"], list)
    assert list(iter_records(path)) == records
    table = read_chunks(tmp_path)
    assert table.schema.equals(ARROW_SCHEMA) and table.num_rows == len(records)


def test_empty_document_writes_a_readable_file(tmp_path: Path) -> None:
    for fmt in ("parquet", "jsonl"):
        write_chunks([], tmp_path / f"e.{fmt}", fmt)  # type: ignore[arg-type]
        assert read_chunks(tmp_path / f"e.{fmt}").num_rows == 0


def test_reader_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such"):
        read_chunks(tmp_path / "missing")
    _, records = records_for("a.pdf")
    write_chunks(records, tmp_path / "a.parquet", "parquet")
    write_chunks(records, tmp_path / "a.jsonl", "jsonl")
    with pytest.raises(CitechunkError, match="both"):
        read_chunks(tmp_path)
    assert read_chunks(tmp_path, "jsonl").num_rows == len(records)
    future = [ChunkRecord.from_dict({**r.to_dict(), "schema_version": "2.0"}) for r in records]
    write_chunks(future, tmp_path / "a.jsonl", "jsonl")
    with pytest.raises(CitechunkError, match="schema version 2.0"):
        read_chunks(tmp_path, "jsonl")
    (tmp_path / "a.jsonl").write_text('{"chunk_id": "x"}\n', encoding="utf-8")
    with pytest.raises(CitechunkError, match="missing fields"):
        read_chunks(tmp_path, "jsonl")
    with pytest.raises(ConfigError, match="unknown chunk format"):
        write_chunks(records, tmp_path / "a.csv", "csv")  # type: ignore[arg-type]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=4),
    path=st.lists(st.text(max_size=12), max_size=3),
)
def test_any_text_round_trips_in_both_formats(
    tmp_path: Path, texts: list[str], path: list[str]
) -> None:
    """Arbitrary Unicode (line separators, NUL, surrogate-free astral) survives both formats."""
    chunks = [
        Chunk(i, t, t, tuple(path), 1, 2, 10 * i, 10 * i + len(t), len(t))
        for i, t in enumerate(texts)
    ]
    records = make_records(
        chunks,
        source_file="x.pdf",
        source_sha256="s",
        markdown_file="markdown/x.md",
        tokenizer="approx",
        backend="b",
        config_fingerprint="f",
    )
    for fmt in ("parquet", "jsonl"):
        target = tmp_path / f"x.{fmt}"
        write_chunks(records, target, fmt, {"k": "v"})  # type: ignore[arg-type]
        assert list(iter_records(target)) == records
    raw = (tmp_path / "x.jsonl").read_bytes().decode("utf-8")
    assert len(raw.splitlines()) == len(records)
