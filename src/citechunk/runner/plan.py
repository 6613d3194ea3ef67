"""Decide, per source, whether this run must process it; and what a finished file records.

Contract of `plan`: a source is processed when `full` is set, it has no entry, its entry failed,
its configuration fingerprint or chunk format changed, one of its recorded outputs is missing,
or its content changed (size+mtime equal -> unchanged without hashing; otherwise the sha256
decides). Otherwise it is skipped (a touched-but-equal file only gets its new size/mtime
recorded). Entries whose source is gone are returned as `vanished`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..export import Format
from ..fsutil import sha256_file
from .discover import Source
from .manifest import Entry, Manifest
from .outputs import missing
from .work import FileResult, planned_outputs


@dataclass(frozen=True)
class Plan:
    todo: tuple[Source, ...]
    skipped: tuple[FileResult, ...]
    touched: tuple[Entry, ...]  # unchanged content, new size/mtime to record
    vanished: tuple[Entry, ...]


def _needs_work(s: Source, e: Entry | None, fingerprint: str, fmt: Format, out: Path) -> bool:
    if e is None or e.status != "converted":
        return True
    if e.fingerprint != fingerprint or e.format != fmt:
        return True
    return e.outputs != planned_outputs(s.rel, fmt) or missing(out, e.outputs)


def _sha256(s: Source) -> str:
    """The source's sha256, or "" when it cannot be read (its worker will report why)."""
    try:
        return sha256_file(Path(s.path))
    except OSError:
        return ""


def _skipped(e: Entry) -> FileResult:
    return FileResult(
        e.source_file,
        "skipped",
        pages=e.pages,
        chunks=e.chunks,
        source_sha256=e.sha256,
        size=e.size,
        mtime_ns=e.mtime_ns,
        outputs=e.outputs,
        warnings=e.warnings,
        pass_failures=e.pass_failures,
        word_coverage=e.word_coverage,
    )


def plan(
    sources: list[Source], manifest: Manifest, fingerprint: str, fmt: Format, full: bool
) -> Plan:
    todo: list[Source] = []
    skipped: list[FileResult] = []
    touched: list[Entry] = []
    for s in sources:
        e = manifest.get(s.rel)
        if full or e is None or _needs_work(s, e, fingerprint, fmt, manifest.out):
            todo.append(s)
        elif (s.size, s.mtime_ns) == (e.size, e.mtime_ns):
            skipped.append(_skipped(e))
        elif s.size == e.size and _sha256(s) == e.sha256:
            touched.append(dataclasses.replace(e, mtime_ns=s.mtime_ns))
            skipped.append(_skipped(touched[-1]))
        else:
            todo.append(s)
    seen = {s.rel for s in sources}
    vanished = [manifest.entries[k] for k in sorted(manifest.entries) if k not in seen]
    return Plan(tuple(todo), tuple(skipped), tuple(touched), tuple(vanished))


def entry_for(result: FileResult, fingerprint: str, fmt: Format) -> Entry:
    """The manifest entry recording a converted or failed result."""
    return Entry(
        source_file=result.source_file,
        size=result.size,
        mtime_ns=result.mtime_ns,
        sha256=result.source_sha256,
        fingerprint=fingerprint,
        format=fmt,
        status="converted" if result.status == "converted" else "failed",
        outputs=result.outputs,
        pages=result.pages,
        chunks=result.chunks,
        warnings=result.warnings,
        pass_failures=result.pass_failures,
        error_class=result.error_class,
        error=result.error,
        word_coverage=result.word_coverage,
    )
