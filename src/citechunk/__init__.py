"""citechunk: PDFs -> page-marked Markdown -> heading-first, citable chunks -> Parquet/JSONL.

Public API (each CLI command has a function twin here):
    convert(path, options) -> ConvertedDocument
    chunk_markdown(markdown, options) -> list[Chunk]
    evaluate(questions, chunks, options) -> EvalReport
    ingest(input, out, config) -> RunReport   (PDF or folder -> OUT/chunks, OUT/markdown, run.json)
    read_chunks(out) -> pyarrow.Table          (every ChunkRecord under OUT/chunks, one table)
    inspect(out) -> InspectReport; show_chunk(out, doc, n) -> ChunkView (with its Markdown span)
    review(out, doc=None) -> list[Path]       (HTML pages drawing each chunk's boxes on its pages)
    markdown_boxes(md_path, start, end) -> list[Box]  (page regions of any saved Markdown range)
    sync(out, to, ...) -> SyncReport; query(to, question) -> list[Hit]  (vector stores)

Report objects (`RunReport`, `InspectReport`, `ChunkView`, `SyncReport`) print as the CLI shows
them: `str(report)` = `report.render()`, the command's output into a file or a pipe.
"""

from __future__ import annotations

__version__ = "0.2.1"

from .chunking import chunk_markdown
from .config import ChunkOptions, Config, ConvertOptions, load_config
from .conversion import convert
from .errors import CitechunkError, ConfigError, ConversionError
from .evaluation import evaluate
from .export import SCHEMA_VERSION, ChunkRecord, iter_records, read_chunks
from .export.inspect import inspect, show_chunk
from .export.sourcemap import Box, markdown_boxes
from .models import Chunk, ConvertedDocument, Provenance
from .review import review
from .runner import RunReport, ingest
from .stores import SyncReport, query, sync

__all__ = [
    "__version__",
    "convert",
    "chunk_markdown",
    "evaluate",
    "ingest",
    "RunReport",
    "read_chunks",
    "iter_records",
    "inspect",
    "show_chunk",
    "review",
    "sync",
    "query",
    "SyncReport",
    "markdown_boxes",
    "Box",
    "ChunkRecord",
    "SCHEMA_VERSION",
    "load_config",
    "Config",
    "ConvertOptions",
    "ChunkOptions",
    "Chunk",
    "ConvertedDocument",
    "Provenance",
    "CitechunkError",
    "ConfigError",
    "ConversionError",
]
