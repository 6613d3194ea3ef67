"""The per-file function: one PDF -> Markdown + provenance -> chunks -> one chunk file.

`run_job(job) -> FileResult` is the ONE code path every executor runs (local process pool, Ray).
Contract: it is a pure top-level function of its picklable `Job`; it never raises for a bad file
(any exception becomes a ``failed`` result carrying the error class and message); on success it
has written, each atomically and in this order, ``OUT/markdown/<stem>.md``, its ``.md.json``
provenance, its ``.md.map.json`` source map (`export.sourcemap`, built here for every
backend from the final Markdown and the PDF's text layer) and ``OUT/chunks/<stem>.<fmt>``. Outputs are a function of the source bytes and the
job's options only (provenance ``source`` is the relative path, no clock values), so a rerun
gives identical bytes. Cleaning up after a failure is the caller's job (see `runner.outputs`).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..chunking import chunk_markdown, resolve_embedder
from ..config import ChunkOptions, ConvertOptions, RunOptions
from ..conversion import convert, save
from ..errors import ConversionError
from ..export import Format, chunks_relpath, make_records, markdown_relpath, sourcemap, write_chunks
from ..export.sourcemap import SourceMap
from ..models import Chunk, ConvertedDocument, PassFailure
from ..timing import StageClock

log = logging.getLogger(__name__)

Status = Literal["converted", "skipped", "failed", "removed"]


@dataclass(frozen=True)
class Job:
    """Everything one file needs; picklable, so it crosses process (and Ray) boundaries."""

    source: str  # absolute path of the PDF
    source_file: str  # path relative to INPUT, POSIX separators
    out: str  # absolute OUT folder
    convert: ConvertOptions
    chunk: ChunkOptions
    fmt: Format
    fingerprint: str  # config fingerprint (enters every chunk_id)
    metadata: tuple[tuple[str, str], ...]  # Parquet key-value metadata (run configuration)
    size: int = 0  # bytes at discovery, used to schedule large files first
    timeout: float = 600.0  # seconds this file may take (`file_timeout`)


@dataclass(frozen=True)
class FileResult:
    """One row of the run report. `outputs` are paths relative to OUT (sorted)."""

    source_file: str
    status: Status
    pages: int = 0
    chunks: int = 0
    seconds: float = 0.0
    source_sha256: str = ""
    size: int = 0
    mtime_ns: int = 0
    outputs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    error_class: str = ""
    error: str = ""
    worker_pid: int = 0
    worker_peak_rss_kb: int = 0
    ocr_pages: int = 0  # pages whose text came from OCR in this run
    ocr_seconds: float = 0.0
    word_coverage: float | None = None  # provenance ``word_coverage`` of the Markdown
    stages: tuple[tuple[str, float], ...] = ()  # seconds per stage (`timing.STAGES`)
    stage_cpu: tuple[tuple[str, float], ...] = ()  # CPU seconds per stage, same names
    model_pages: int = 0  # pages the layout model ran on
    pass_failures: tuple[PassFailure, ...] = ()  # passes skipped where they raised (provenance)


def page_count(path: str, password: str = "") -> int:
    """The PDF's page count, read cheaply (no page is parsed); 0 when it cannot be opened
    (the job itself then reports why)."""
    import pymupdf

    try:
        with pymupdf.open(path) as pdf:
            if pdf.needs_pass and not pdf.authenticate(password):
                return 0
            return int(pdf.page_count)
    except Exception:  # noqa: BLE001 -- any unreadable file: the job's own error says why
        return 0


def file_timeout(pages: int, run: RunOptions) -> float:
    """Seconds a file of `pages` pages may take: `run.timeout_per_page` per page, never less
    than `run.timeout` (so a long document is not failed for being long, a stuck one still is)."""
    return max(run.timeout, pages * run.timeout_per_page)


def planned_outputs(source_file: str, fmt: Format) -> tuple[str, ...]:
    """The files (relative to OUT, sorted) a successful job for `source_file` writes."""
    md = markdown_relpath(source_file)
    return tuple(sorted((md, md + ".json", md + ".map.json", chunks_relpath(source_file, fmt))))


def _relative_provenance(doc: ConvertedDocument, source_file: str) -> ConvertedDocument:
    """Provenance naming the source by its relative path (its options never hold the password:
    `conversion.base.recorded_options`)."""
    prov = dataclasses.replace(doc.provenance, source=source_file)
    if not prov.source_sha256:
        raise ConversionError(source_file, "backend returned no source_sha256")
    return dataclasses.replace(doc, provenance=prov)


def _produce(
    job: Job, clock: StageClock
) -> tuple[int, int, str, tuple[str, ...], ConvertedDocument]:
    """Convert, save, chunk, export, timing each stage on `clock`. Returns (pages, chunks,
    sha256, warnings, document)."""
    doc = _relative_provenance(convert(job.source, job.convert), job.source_file)
    clock.add(dict(doc.stages), dict(doc.stage_cpu))
    out = Path(job.out)
    md_rel = markdown_relpath(job.source_file)
    with clock.stage("save"):
        save(doc, out / md_rel)
    with clock.stage("source map"):
        smap = (
            sourcemap.build(doc.markdown, doc.text_layer)
            if doc.text_layer is not None
            else sourcemap.of_pdf(job.source, doc.markdown, job.convert.password)
        )
        sourcemap.save(smap, out / md_rel)
    with clock.stage("chunking"):
        chunks = chunk_markdown(doc.markdown, job.chunk, doc.provenance.title)
    with clock.stage("writing"):
        return _export(job, doc, chunks, smap, md_rel)


def _export(
    job: Job, doc: ConvertedDocument, chunks: list[Chunk], smap: SourceMap, md_rel: str
) -> tuple[int, int, str, tuple[str, ...], ConvertedDocument]:
    records = make_records(
        chunks,
        source_file=job.source_file,
        source_sha256=doc.provenance.source_sha256,
        markdown_file=md_rel,
        tokenizer=resolve_embedder(job.chunk.embedder).tokenizer,
        embedder=job.chunk.embedder,
        backend=doc.provenance.backend,
        config_fingerprint=job.fingerprint,
        ocr_pages=doc.provenance.ocr_pages,
        source_map=smap,
    )
    write_chunks(
        records,
        Path(job.out) / chunks_relpath(job.source_file, job.fmt),
        job.fmt,
        dict(job.metadata),
    )
    prov = doc.provenance
    warnings = tuple(prov.warnings) + (() if records else ("no text found: 0 chunks",))
    return len(prov.pages), len(records), prov.source_sha256, warnings, doc


def error_text(exc: BaseException) -> str:
    """A one-line error message; a ConversionError's cause without the (absolute) path."""
    text = exc.cause if isinstance(exc, ConversionError) else str(exc)
    return " ".join(text.split())[:500] or type(exc).__name__


def run_job(job: Job) -> FileResult:
    """Process one file; never raises for a bad file (see the module docstring)."""
    start = time.perf_counter()
    try:
        st = os.stat(job.source)
    except OSError as exc:
        return FileResult(
            job.source_file, "failed", error_class=type(exc).__name__, error=error_text(exc)
        )
    base = FileResult(job.source_file, "failed", size=st.st_size, mtime_ns=st.st_mtime_ns)
    clock = StageClock()
    try:
        pages, chunks, sha, warnings, doc = _produce(job, clock)
    except Exception as exc:  # noqa: BLE001 -- every per-file failure becomes a report row
        log.debug("%s failed", job.source_file, exc_info=True)
        return dataclasses.replace(
            base,
            seconds=round(time.perf_counter() - start, 3),
            error_class=type(exc).__name__,
            error=error_text(exc),
        )
    return dataclasses.replace(
        base,
        status="converted",
        pages=pages,
        chunks=chunks,
        seconds=round(time.perf_counter() - start, 3),
        source_sha256=sha,
        outputs=planned_outputs(job.source_file, job.fmt),
        warnings=warnings,
        ocr_pages=len(doc.provenance.ocr_pages),
        ocr_seconds=round(doc.ocr_seconds, 3),
        word_coverage=doc.provenance.word_coverage,
        stages=clock.frozen(),
        stage_cpu=clock.frozen_cpu(),
        model_pages=doc.model_pages,
        pass_failures=doc.provenance.pass_failures,
    )
