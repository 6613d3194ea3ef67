"""Write one document's chunk file; read a whole ``OUT/chunks/`` folder back as one table."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import CitechunkError, ConfigError
from ..fsutil import atomic_write_bytes
from . import jsonl, parquet
from .ids import canonical_json, config_fingerprint
from .layout import CHUNKS_DIR, FORMATS, Format
from .schema import SCHEMA_VERSION, ChunkRecord, table_to_records

CONFIG_KEY = "citechunk.config"
FINGERPRINT_KEY = "citechunk.config_fingerprint"


def run_metadata(config: Mapping[str, object]) -> dict[str, str]:
    """The Parquet key-value metadata for a run configuration: its canonical JSON and its
    `config_fingerprint` (pass the same output-affecting mapping the fingerprint is made of)."""
    return {CONFIG_KEY: canonical_json(config), FINGERPRINT_KEY: config_fingerprint(config)}


def write_chunks(
    records: Sequence[ChunkRecord],
    path: str | os.PathLike[str],
    fmt: Format,
    metadata: Mapping[str, str] | None = None,
) -> None:
    """Write `records` to `path` atomically (temporary sibling, fsync, rename).

    Parquet: `ARROW_SCHEMA`, zstd, `metadata` + ``citechunk.schema_version`` as key-value
    metadata. JSONL: one object per line, `metadata` is not stored (records carry
    ``schema_version``). Same records + metadata (+ pyarrow version) -> byte-identical file.
    An empty `records` still writes a valid, empty file.
    """
    if fmt == "parquet":
        data = parquet.encode(records, metadata or {})
    elif fmt == "jsonl":
        data = jsonl.encode(records)
    else:
        raise ConfigError(f"unknown chunk format {fmt!r} (known: {', '.join(FORMATS)})")
    atomic_write_bytes(path, data)


def _format_of(path: Path) -> Format:
    suffix = path.suffix.lstrip(".")
    for fmt in FORMATS:
        if suffix == fmt:
            return fmt
    raise ConfigError(f"{path}: not a chunk file (expected .parquet or .jsonl)")


def dataset_files(
    path: str | os.PathLike[str], fmt: Format | None = None
) -> tuple[Format, list[Path]]:
    """The chunk files under `path` (a chunk file, ``OUT/chunks`` or OUT) and their format.

    Hidden and temporary files (leading "." or "_") are ignored. With `fmt` None the format is
    taken from the files; a folder holding both formats is an error unless `fmt` is given.
    Raises ConfigError when `path` does not exist.
    """
    p = Path(path)
    if p.is_file():
        return _format_of(p), [p]
    if not p.is_dir():
        raise ConfigError(f"{p}: no such file or folder")
    if (p / CHUNKS_DIR).is_dir():
        p = p / CHUNKS_DIR
    found = {
        f: sorted(c for c in p.glob(f"*.{f}") if c.is_file() and not c.name.startswith((".", "_")))
        for f in FORMATS
    }
    present = [f for f in FORMATS if found[f]]
    if fmt is None:
        if len(present) > 1:
            raise CitechunkError(f"{p}: holds both Parquet and JSONL chunk files; choose a format")
        fmt = present[0] if present else "parquet"
    return fmt, found[fmt]


def check_schema_version(table: pa.Table, where: str | os.PathLike[str]) -> None:
    """Raise CitechunkError when `table` holds records of another major `SCHEMA_VERSION`."""
    major = SCHEMA_VERSION.split(".")[0]
    found = set(pc.unique(table.column("schema_version")).to_pylist())
    foreign = sorted(v for v in found if v.split(".")[0] != major)
    if foreign:
        raise CitechunkError(
            f"{where}: chunk records use schema version {', '.join(foreign)}; this citechunk "
            f"reads {major}.x (re-run `citechunk ingest --full` to rewrite them)"
        )


def read_chunks(path: str | os.PathLike[str], fmt: Format | None = None) -> pa.Table:
    """Every chunk under `path` as one Arrow table with `ARROW_SCHEMA`.

    `path` is OUT, ``OUT/chunks`` or one chunk file. Rows are sorted by (source_file,
    chunk_index). An empty folder gives an empty table with the declared schema. Raises
    CitechunkError for an unreadable file or records of another major schema version.
    """
    fmt, files = dataset_files(path, fmt)
    table = parquet.read_table(files) if fmt == "parquet" else jsonl.read_table(files)
    check_schema_version(table, path)
    if table.num_rows == 0:
        return table
    return table.sort_by([("source_file", "ascending"), ("chunk_index", "ascending")])


def iter_records(path: str | os.PathLike[str], fmt: Format | None = None) -> Iterator[ChunkRecord]:
    """`read_chunks` as `ChunkRecord` objects, one document file at a time."""
    fmt, files = dataset_files(path, fmt)
    for f in files:
        table = parquet.read_table([f]) if fmt == "parquet" else jsonl.read_table([f])
        check_schema_version(table, f)
        yield from table_to_records(table)
