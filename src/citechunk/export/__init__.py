"""Export stage: chunk records with a versioned citation schema, as Parquet or JSONL.

Public API (used by the runner, `citechunk ingest` and `citechunk inspect`):

* `SCHEMA_VERSION`, `ChunkRecord`, `FIELDS`, `ARROW_SCHEMA` -- the record contract (schema.py).
* `make_records(chunks, *, source_file, source_sha256, markdown_file, tokenizer, backend,
  config_fingerprint)` -- one document's `Chunk`s -> `ChunkRecord`s.
* `doc_id`, `chunk_id`, `config_fingerprint` -- deterministic ids (ids.py documents the recipe).
* `document_stem`, `chunks_relpath`, `markdown_relpath`, `chunks_path`, `markdown_path` -- the
  OUT layout (layout.py): ``OUT/chunks/<stem>.<fmt>``, ``OUT/markdown/<stem>.md`` (+ ``.md.json``,
  ``.md.map.json``).
* `write_chunks(records, path, fmt, metadata)` -- atomic, byte-reproducible file per document.
* `read_chunks(path)` -> pyarrow.Table, `iter_records(path)` -- the whole folder as one table.
* `run_metadata(config)` -- the metadata dict to pass to `write_chunks` (config JSON + fingerprint).
* `parquet_metadata(file)` -- a Parquet chunk file's key-value metadata.
* `offset_problems(record, markdown)` -- checks a record's citation against its Markdown.
"""

from __future__ import annotations

from .dataset import (
    CONFIG_KEY,
    FINGERPRINT_KEY,
    dataset_files,
    iter_records,
    read_chunks,
    run_metadata,
    write_chunks,
)
from .ids import ID_NAMESPACE, canonical_json, chunk_id, config_fingerprint, doc_id
from .layout import (
    CHUNKS_DIR,
    FORMATS,
    MARKDOWN_DIR,
    RUN_REPORT,
    Format,
    chunks_path,
    chunks_relpath,
    document_stem,
    markdown_path,
    markdown_relpath,
)
from .parquet import SCHEMA_VERSION_KEY
from .parquet import read_metadata as parquet_metadata
from .schema import (
    ARROW_SCHEMA,
    FIELDS,
    SCHEMA_VERSION,
    ChunkRecord,
    make_records,
    offset_problems,
    produced_config,
    records_to_table,
    table_to_records,
)

__all__ = [
    "ARROW_SCHEMA",
    "CHUNKS_DIR",
    "CONFIG_KEY",
    "FINGERPRINT_KEY",
    "FIELDS",
    "FORMATS",
    "ID_NAMESPACE",
    "MARKDOWN_DIR",
    "RUN_REPORT",
    "SCHEMA_VERSION",
    "SCHEMA_VERSION_KEY",
    "ChunkRecord",
    "Format",
    "canonical_json",
    "chunk_id",
    "chunks_path",
    "chunks_relpath",
    "config_fingerprint",
    "dataset_files",
    "doc_id",
    "document_stem",
    "iter_records",
    "make_records",
    "produced_config",
    "markdown_path",
    "markdown_relpath",
    "offset_problems",
    "parquet_metadata",
    "read_chunks",
    "run_metadata",
    "records_to_table",
    "table_to_records",
    "write_chunks",
]
