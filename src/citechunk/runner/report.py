"""The run report: ``OUT/run.json``, the only output file with timestamps.

Contract: `RunReport.files` holds one `FileResult` per source seen (converted, skipped or failed)
plus one ``removed`` row per vanished source, sorted by source path. Totals count the dataset as
it stands after the run (converted + skipped files). `write_report` writes atomically; a run
writes it once at start (``"state": "running"``) and once at the end (``"finished"``, or
``"aborted"`` with ``error`` naming the cause when something other than a file stopped it).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..fsutil import atomic_write_text
from ..rendering import plain_text, plural, show
from ..timing import total_by_stage
from .work import FileResult

REPORT_NAME = "run.json"
STATUSES = ("converted", "skipped", "failed", "removed")


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class WorkerStat:
    """One worker process: files it finished and its peak resident memory (MiB)."""

    pid: int
    files: int
    peak_rss_mb: float


@dataclass(frozen=True)
class RunReport:
    input: str
    out: str
    state: str  # "running", "finished" or "aborted"
    started: str
    finished: str
    seconds: float
    workers: int
    fingerprint: str
    config: dict[str, Any]
    files: tuple[FileResult, ...] = ()
    worker_stats: tuple[WorkerStat, ...] = ()
    parent_peak_rss_mb: float = 0.0
    removed_orphans: tuple[str, ...] = field(default_factory=tuple)
    error: str = ""  # why an aborted run stopped
    device: str = "cpu"  # where the backend's models ran (`Backend.device`)

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in STATUSES}

    @property
    def failures(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "failed"]

    @property
    def with_warnings(self) -> list[FileResult]:
        """Files converted in this run with warnings (a skipped file's warnings were reported
        by the run that converted it; run.json keeps them on its row)."""
        return [f for f in self.files if f.warnings and f.status == "converted"]

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.files if f.status in ("converted", "skipped"))

    @property
    def chunks(self) -> int:
        return sum(f.chunks for f in self.files if f.status in ("converted", "skipped"))

    @property
    def ocr_pages(self) -> int:
        """Pages OCR'd in this run (files converted now; skipped files were not re-read)."""
        return sum(f.ocr_pages for f in self.files if f.status == "converted")

    @property
    def ocr_seconds(self) -> float:
        return round(sum(f.ocr_seconds for f in self.files if f.status == "converted"), 3)

    @property
    def stage_seconds(self) -> dict[str, float]:
        """Seconds per stage summed over the files converted in this run (`timing.STAGES`)."""
        return total_by_stage(f.stages for f in self.files if f.status == "converted")

    @property
    def stage_cpu_seconds(self) -> dict[str, float]:
        """CPU seconds per stage (the workers' own processes), as `stage_seconds`."""
        return total_by_stage(f.stage_cpu for f in self.files if f.status == "converted")

    @property
    def layout_model(self) -> dict[str, Any]:
        """The layout model's share of this run: pages it ran on out of the pages converted
        now, and its seconds (also under `stage_seconds`)."""
        converted = [f for f in self.files if f.status == "converted"]
        pages = sum(f.pages for f in converted)
        ran = sum(f.model_pages for f in converted)
        return {
            "pages": ran,
            "of_pages": pages,
            "share": round(ran / pages, 4) if pages else 0.0,
            "seconds": self.stage_seconds.get("layout model", 0.0),
            "cpu_seconds": self.stage_cpu_seconds.get("layout model", 0.0),
            "device": self.device,
        }

    @property
    def pass_failures(self) -> int:
        """Passes skipped where they raised (`conversion.passguard`), over the dataset as it
        stands (converted and skipped files)."""
        kept = ("converted", "skipped")
        return sum(len(f.pass_failures) for f in self.files if f.status in kept)

    @property
    def unchanged(self) -> bool:
        """Every source was up to date: nothing converted, failed or removed (an empty INPUT
        with an empty OUT is not "up to date": it has no documents)."""
        c = self.counts
        return c["skipped"] > 0 and c["converted"] + c["failed"] + c["removed"] == 0

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def pages_converted(self) -> int:
        """Pages of the files converted in this run (skipped files were not read)."""
        return sum(f.pages for f in self.files if f.status == "converted")

    def render(self) -> str:
        """The summary `citechunk ingest` prints (`render_summary`), as plain text (`str()`)."""
        return plain_text(lambda console: render_summary(console, self))

    __str__ = render

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "input": self.input,
            "out": self.out,
            "started": self.started,
            "finished": self.finished,
            "seconds": self.seconds,
            "workers": self.workers,
            "config_fingerprint": self.fingerprint,
            "config": self.config,
            "counts": {**self.counts, "files": len(self.files) - self.count("removed")},
            "pages": self.pages,
            "chunks": self.chunks,
            "pass_failures": self.pass_failures,
            "ocr": {"pages": self.ocr_pages, "seconds": self.ocr_seconds},
            "stage_seconds": self.stage_seconds,
            "stage_cpu_seconds": self.stage_cpu_seconds,
            "layout_model": self.layout_model,
            "memory": {
                "parent_peak_rss_mb": self.parent_peak_rss_mb,
                "workers": [dataclasses.asdict(w) for w in self.worker_stats],
            },
            "removed_orphans": list(self.removed_orphans),
            "error": self.error,
            "files": [_file_row(f) for f in self.files],
        }


def _file_row(f: FileResult) -> dict[str, Any]:
    return {
        "source_file": f.source_file,
        "status": f.status,
        "pages": f.pages,
        "chunks": f.chunks,
        "seconds": f.seconds,
        "ocr_pages": f.ocr_pages,
        "ocr_seconds": f.ocr_seconds,
        "stage_seconds": dict(f.stages),
        "stage_cpu_seconds": dict(f.stage_cpu),
        "model_pages": f.model_pages,
        "source_sha256": f.source_sha256,
        "outputs": list(f.outputs),
        "warnings": list(f.warnings),
        "pass_failures": [p.to_dict() for p in f.pass_failures],
        "word_coverage": f.word_coverage,
        "error_class": f.error_class,
        "error": f.error,
    }


def worker_stats(results: list[FileResult]) -> tuple[WorkerStat, ...]:
    """Per worker pid: files finished and the peak RSS it reported (ru_maxrss, KiB -> MiB)."""
    by_pid: dict[int, list[FileResult]] = {}
    for r in results:
        if r.worker_pid:
            by_pid.setdefault(r.worker_pid, []).append(r)
    return tuple(
        WorkerStat(pid, len(rs), round(max(r.worker_peak_rss_kb for r in rs) / 1024, 1))
        for pid, rs in sorted(by_pid.items())
    )


def write_report(out: str | os.PathLike[str], report: RunReport) -> Path:
    path = Path(out) / REPORT_NAME
    atomic_write_text(path, json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return path


def converted_line(r: FileResult) -> str:
    """ "NAME: converted (1 page, 3 chunks, 0.5 s)", ", with warnings" after it when it has
    any: the warnings themselves are listed once, in the run's summary (`render_summary`)."""
    counts = f"{plural(r.pages, 'page')}, {plural(r.chunks, 'chunk')}, {r.seconds:.1f} s"
    return f"{r.source_file}: converted ({counts})" + (", with warnings" if r.warnings else "")


def stage_lines(seconds: dict[str, float], cpu: dict[str, float]) -> str:
    """One line a stage (over 1% of the total), largest first: "extract 41.2 s (81%), CPU
    40.1 s"; "-" when nothing was timed."""
    total = sum(seconds.values())
    if not total:
        return "-"
    shown = sorted((s, n) for n, s in seconds.items() if s / total >= 0.01)[::-1]
    return "\n".join(
        f"{n} {s:.1f} s ({s / total:.0%})" + (f", CPU {cpu[n]:.1f} s" if n in cpu else "")
        for s, n in shown
    )


def model_line(model: dict[str, Any]) -> str:
    """ "ran on 120 of 275 pages (44%), 31.0 s (CPU 30.2 s)"."""
    return (
        f"ran on {model['pages']} of {model['of_pages']} pages ({model['share']:.0%}), "
        f"{model['seconds']:.1f} s (CPU {model['cpu_seconds']:.1f} s)"
    )


def _summary_rows(report: RunReport) -> list[tuple[str, object]]:
    """The summary's rows: the run's counts and the output as it stands, then (when the run
    converted pages) its speed and where its time went, one stage a line."""
    c = report.counts
    rows: list[tuple[str, object]] = [
        ("files", len(report.files) - c["removed"]),
        ("converted", c["converted"]),
        ("unchanged (skipped)", c["skipped"]),
        ("removed (source gone)", c["removed"]),
        ("failed", c["failed"]),
        ("with warnings", len(report.with_warnings)),
        ("passes skipped where they raised", report.pass_failures),
        ("pages", report.pages),
        ("chunks", report.chunks),
    ]
    if not report.pages_converted:
        return [*rows, ("time", f"{report.seconds:.1f} s")]
    speed = report.pages_converted / report.seconds if report.seconds else 0.0
    return [
        *rows,
        ("pages OCR'd", f"{report.ocr_pages} ({report.ocr_seconds:.1f} s)"),
        ("time", f"{report.seconds:.1f} s"),
        ("pages converted per second", f"{speed:.2f} ({plural(report.pages_converted, 'page')})"),
        (
            "time by stage (all workers)",
            stage_lines(report.stage_seconds, report.stage_cpu_seconds),
        ),
        ("layout model", model_line(report.layout_model)),
    ]


def unchanged_lines(report: RunReport) -> list[str]:
    """The summary of a run that found every document up to date: what happened and the
    output as it stands."""
    docs = plural(report.count("skipped"), "document")
    return [
        f"citechunk ingest: nothing changed, {docs} up to date",
        f"output as it stands: {docs}, {plural(report.pages, 'page')}, "
        f"{plural(report.chunks, 'chunk')}",
    ]


def render_summary(console: Console, report: RunReport) -> None:
    """The run's summary table, where its output went, then one line per failed file and per
    file with warnings (`RunReport.with_warnings`), each a single line off a terminal.

    A run that found every document up to date (`RunReport.unchanged`) prints two lines instead
    of the table (`unchanged_lines`): nothing was converted, so there is no speed or stage to
    show. The stages take a line each in the table, which keeps it about 80 columns wide."""
    lines = [f"output: {report.out}  (report: run.json)"]
    if report.unchanged:
        lines = unchanged_lines(report) + lines
    else:
        table = Table(title="citechunk ingest", show_header=False, title_justify="left")
        table.add_column("what")
        table.add_column("value")
        for name, value in _summary_rows(report):
            table.add_row(name, str(value))
        show(console, table)
    lines += [f"FAILED {r.source_file}: {r.error_class}: {r.error}" for r in report.failures]
    lines += [f"warning {r.source_file}: {'; '.join(r.warnings)}" for r in report.with_warnings]
    for line in lines:  # never wrapped by us: a terminal wraps, a file keeps one line
        console.print(line, markup=False, highlight=False, soft_wrap=True)
