"""`citechunk ingest`: a thin layer over `citechunk.ingest` with progress and a summary.

On a terminal: a rich progress bar over files (log lines print above it). Otherwise: one plain
log line per file. At the end: a summary table on stdout and the failures listed. Exit 0 when
every file succeeded (warnings allowed), 1 when any failed, 2 for usage/configuration errors
(including a locked output folder).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from ..export.ids import doc_id
from ..runner import RunReport, ingest
from ..runner.work import FileResult
from ..stores import sync
from . import State, main, pass_state
from .console import StdoutConsole, closed_pipe_ok
from .options import Overrides, config_flags
from .sync import show_report, sync_options

log = logging.getLogger("citechunk.runner")


class _ConsoleStream:
    """A text stream for logging handlers that prints whole lines above a live progress bar."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._buffer = ""

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)
        return len(text)

    def flush(self) -> None:
        pass


@contextlib.contextmanager
def _logs_above(console: Console) -> Iterator[None]:
    handlers = [
        h for h in logging.getLogger("citechunk").handlers if isinstance(h, logging.StreamHandler)
    ]
    saved = [h.setStream(_ConsoleStream(console)) for h in handlers]
    try:
        yield
    finally:
        for h, stream in zip(handlers, saved, strict=True):
            h.setStream(stream)


class BarProgress:
    """A rich progress bar over the files to convert (pages so far in the description)."""

    def __init__(self, console: Console) -> None:
        self.bar = Progress(
            SpinnerColumn(),
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[pages]} pages"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[current]}"),
            console=console,
            transient=False,
        )
        self.task: TaskID | None = None
        self.pages = 0

    def planned(self, total: int, todo: int) -> None:
        self.task = self.bar.add_task(f"{total} files, converting", total=todo, pages=0, current="")

    def started(self, source_file: str) -> None:
        if self.task is not None:
            self.bar.update(self.task, current=source_file)

    def finished(self, result: FileResult) -> None:
        self.pages += result.pages
        if self.task is not None:
            self.bar.update(self.task, advance=1, pages=self.pages, current="")


class LogProgress:
    """Plain log lines (one per file comes from the runner at INFO)."""

    def planned(self, total: int, todo: int) -> None:
        log.info("%d file(s) found, %d to convert, %d unchanged", total, todo, total - todo)

    def started(self, source_file: str) -> None:
        log.debug("%s: started", source_file)

    def finished(self, result: FileResult) -> None:
        pass


def _stage_line(seconds: dict[str, float]) -> str:
    """ "extract 41.2 s (81%), passes 3.1 s (6%), ..." (stages over 1% of the total)."""
    total = sum(seconds.values())
    if not total:
        return "-"
    shown = [(n, s) for n, s in seconds.items() if s / total >= 0.01]
    return ", ".join(f"{n} {s:.1f} s ({s / total:.0%})" for n, s in shown)


def _model_line(model: dict[str, Any]) -> str:
    """ "ran on 120 of 275 pages (44%), 31.0 s (CPU 30.2 s)"."""
    return (
        f"ran on {model['pages']} of {model['of_pages']} pages ({model['share']:.0%}), "
        f"{model['seconds']:.1f} s (CPU {model['cpu_seconds']:.1f} s)"
    )


def _summary(report: RunReport, console: Console) -> None:
    c = report.counts
    table = Table(title="citechunk ingest", show_header=False, title_justify="left")
    table.add_column("what")
    table.add_column("value", justify="right")
    rows = [
        ("files", len(report.files) - c["removed"]),
        ("converted", c["converted"]),
        ("unchanged (skipped)", c["skipped"]),
        ("removed (source gone)", c["removed"]),
        ("failed", c["failed"]),
        ("with warnings", len(report.with_warnings)),
        ("pages", report.pages),
        ("chunks", report.chunks),
        ("pages OCR'd", f"{report.ocr_pages} ({report.ocr_seconds:.1f} s)"),
        ("time", f"{report.seconds:.1f} s"),
        ("time by stage (all workers)", _stage_line(report.stage_seconds)),
        ("CPU by stage (all workers)", _stage_line(report.stage_cpu_seconds)),
        ("layout model", _model_line(report.layout_model)),
    ]
    for name, value in rows:
        table.add_row(name, str(value))
    console.print(table)
    console.print(f"output: {report.out}  (report: run.json)", markup=False, highlight=False)
    for r in report.failures:
        console.print(
            f"FAILED {r.source_file}: {r.error_class}: {r.error}", markup=False, highlight=False
        )
    for r in report.with_warnings:
        console.print(
            f"warning {r.source_file}: {'; '.join(r.warnings)}", markup=False, highlight=False
        )


@main.command("ingest")
@click.argument("input_path", metavar="INPUT", type=click.Path())
@click.option("-o", "--out", required=True, type=click.Path(file_okay=False), help="Output folder.")
@config_flags(
    "export.format",
    "convert.backend",
    "convert.layout_model",
    "convert.layout",
    "convert.layout_gpu",
    "convert.ocr",
    "convert.password",
    "run.passwords_file",
    "run.workers",
    "run.threads_per_worker",
    "run.timeout",
    "run.full",
    "run.executor",
    "run.ray_address",
    "export.include",
    "export.exclude",
    "chunk.max_tokens",
)
@click.option(
    "--sync", "sync_to", default=None, metavar="URI", help="Then sync OUT into this store."
)
@sync_options
@pass_state
def ingest_cmd(
    state: State,
    input_path: str,
    out: str,
    overrides: Overrides,
    sync_to: str | None,
    table: str,
    embed: str,
    batch: int,
    rebuild: bool,
) -> None:
    """Convert, chunk and export every PDF under INPUT into OUT, incrementally (then, with
    --sync, make a vector store hold exactly OUT's chunks; failed files keep their rows)."""
    cfg = state.config(overrides)
    err = Console(stderr=True)
    if err.is_terminal:
        bar = BarProgress(err)
        with bar.bar, _logs_above(err):
            report = ingest(input_path, out, cfg, bar)
    else:
        level = log.level
        if log.getEffectiveLevel() > logging.INFO:
            log.setLevel(logging.INFO)  # one plain line per file even without -v
        try:
            report = ingest(input_path, out, cfg, LogProgress())
        finally:
            log.setLevel(level)
    with closed_pipe_ok():  # `| head` keeps the run's own exit status
        _summary(report, StdoutConsole(file=sys.stdout, highlight=False))
    code = 0 if report.ok else 1
    if sync_to:
        keep = [doc_id(r.source_file) for r in report.failures]
        synced = sync(
            report.out, sync_to, table=table, embed=embed, batch=batch, rebuild=rebuild, keep=keep
        )
        with closed_pipe_ok():
            show_report(synced)
        code = max(code, synced.exit_code)
    if code:
        raise click.exceptions.Exit(code)
