"""Where a document's outputs live under OUT. One flat folder per kind, one file per document:

    OUT/chunks/<stem>.parquet | <stem>.jsonl   chunk records (`write_chunks`)
    OUT/markdown/<stem>.md                     the Markdown the offsets point into
    OUT/markdown/<stem>.md.json                its provenance (`citechunk.conversion.save`)
    OUT/markdown/<stem>.md.map.json            its source map (`citechunk.export.sourcemap`)
    OUT/review/<stem>.html                     review page (`citechunk review`, not ingest)
    OUT/run.json                               the run report (timestamps live only there)

``<stem>`` = the source path relative to INPUT with "/" replaced by "__", characters other than
letters, digits, ".", "-", "_" replaced by "_", leading "." and "_" dropped (readers skip such
files), cut to 120 characters, then "-" and the first 8 hex digits of the doc_id.  The suffix
keeps stems unique when sanitising or case-insensitive file systems would make two sources
collide.  Flat folders let ``read_parquet('OUT/chunks/*.parquet')`` read everything as one table.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from .ids import doc_id

Format = Literal["parquet", "jsonl"]
FORMATS: tuple[Format, ...] = ("parquet", "jsonl")
CHUNKS_DIR = "chunks"
MARKDOWN_DIR = "markdown"
RUN_REPORT = "run.json"

_UNSAFE = re.compile(r"[^\w.\-]", re.UNICODE)


def document_stem(source_file: str) -> str:
    """The file-name stem shared by a document's outputs (see the module docstring)."""
    name = _UNSAFE.sub("_", source_file.replace("/", "__")).lstrip("._")[:120]
    return f"{name or 'document'}-{doc_id(source_file)[:8]}"


def chunks_relpath(source_file: str, fmt: Format) -> str:
    """``chunks/<stem>.<fmt>``, relative to OUT (POSIX)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown chunk format {fmt!r} (known: {', '.join(FORMATS)})")
    return f"{CHUNKS_DIR}/{document_stem(source_file)}.{fmt}"


def markdown_relpath(source_file: str) -> str:
    """``markdown/<stem>.md``, relative to OUT (POSIX); this is a record's ``markdown_file``."""
    return f"{MARKDOWN_DIR}/{document_stem(source_file)}.md"


def chunks_path(out: str | os.PathLike[str], source_file: str, fmt: Format) -> Path:
    return Path(out) / chunks_relpath(source_file, fmt)


def markdown_path(out: str | os.PathLike[str], source_file: str) -> Path:
    return Path(out) / markdown_relpath(source_file)
