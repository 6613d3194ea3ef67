"""Parquet encoding of chunk records: declared schema, zstd, metadata, byte-for-byte reproducible.

Every writer option that could change the bytes is pinned here (format version, page version,
dictionary, statistics, compression and level, no page index). The file carries no clock value;
``created_by`` names the pyarrow version, so identical records + metadata + pyarrow version give
identical bytes.  Key-value metadata: ``citechunk.schema_version`` plus the caller's entries
(the runner puts the run configuration there), written in sorted key order.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..errors import CitechunkError
from .schema import ARROW_SCHEMA, OPTIONAL_FIELDS, SCHEMA_VERSION, ChunkRecord, records_to_table

SCHEMA_VERSION_KEY = "citechunk.schema_version"
ZSTD_LEVEL = 3
DICTIONARY_COLUMNS = [
    "doc_id", "source_file", "source_sha256", "heading_path.list.element", "markdown_file", "tokenizer",
    "backend", "schema_version", "embedder", "section_id",
]  # fmt: skip
"""Columns that repeat within a document file. Unique ones (ids, text, numbers) are written
plain: a dictionary of unique values only adds work and bytes."""


def with_metadata(table: pa.Table, metadata: Mapping[str, str]) -> pa.Table:
    """`table` with its schema metadata replaced by `metadata` + the schema version, sorted."""
    meta = {**metadata, SCHEMA_VERSION_KEY: SCHEMA_VERSION}
    for key, value in meta.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"Parquet metadata must map str to str, got {key!r}: {value!r}")
    return table.replace_schema_metadata({k: meta[k] for k in sorted(meta)})


def encode(records: Sequence[ChunkRecord], metadata: Mapping[str, str]) -> bytes:
    """The Parquet file for `records` as bytes (one row group; `ARROW_SCHEMA`)."""
    table = with_metadata(records_to_table(records), metadata)
    sink = pa.BufferOutputStream()
    pq.write_table(
        table,
        sink,
        row_group_size=max(1, len(records)),
        version="2.6",
        data_page_version="1.0",
        use_dictionary=DICTIONARY_COLUMNS,
        compression="zstd",
        compression_level=ZSTD_LEVEL,
        write_statistics=True,
        write_page_index=False,
        store_schema=True,
        use_compliant_nested_type=True,  # list column path: heading_path.list.element
    )
    return bytes(sink.getvalue().to_pybytes())


def read_metadata(path: str | os.PathLike[str]) -> dict[str, str]:
    """The file's citechunk key-value metadata (Arrow's own ``ARROW:schema`` entry left out)."""
    raw = pq.read_schema(path).metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if not k.startswith(b"ARROW:")}


def _fill_optional(table: pa.Table) -> pa.Table:
    """Rows of a file written before an optional column existed read as its default."""
    for name, default in OPTIONAL_FIELDS.items():
        column = table.column(name)
        if column.null_count:
            value = list(default) if isinstance(default, tuple) else default
            empty = pa.scalar(value, type=column.type)
            table = table.set_column(
                table.schema.get_field_index(name),
                ARROW_SCHEMA.field(name),
                pc.fill_null(column, empty),
            )
    return table


def read_table(paths: Sequence[str | os.PathLike[str]]) -> pa.Table:
    """All `paths` as one table with `ARROW_SCHEMA` (pyarrow.dataset, files in the given order).

    Raises CitechunkError when a file is not Parquet or does not match the schema."""
    import pyarrow.dataset as ds

    if not paths:
        return ARROW_SCHEMA.empty_table()
    try:
        dataset = ds.dataset([os.fspath(p) for p in paths], format="parquet", schema=ARROW_SCHEMA)
        return _fill_optional(dataset.to_table())
    except (pa.ArrowException, OSError) as exc:
        where = paths[0] if len(paths) == 1 else f"{len(paths)} Parquet files"
        raise CitechunkError(f"{where}: not a readable chunk file: {exc}") from None
