"""`citechunk ingest`: a thin layer over `citechunk.ingest` with progress and a summary.

On a terminal: a rich progress bar over files (log lines print above it). Otherwise: one line
per converted file, "NAME: converted (N pages, M chunks, S s)", ", with warnings" after it when
it has any (without -v written by the CLI, not as an INFO log line; with --log-format json a JSON
record, its warnings in a ``warnings`` field). At the end: the run's summary
(`runner.report.render_summary`) on stdout, failures and warnings listed: the one place a
warning's text is printed. Exit 0 when
every file succeeded (warnings allowed), 1 when any failed, 2 for usage/configuration errors
(including a locked output folder), 130 when Ctrl-C stopped it, 143 when SIGTERM did.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sys
from collections.abc import Iterator

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

from ..chunking.embedder import DEFAULT_EMBEDDER
from ..config import Config
from ..errors import ChunkFitError
from ..export.ids import doc_id
from ..runner import ingest
from ..runner.report import converted_line, render_summary
from ..runner.work import FileResult
from ..stores import sync
from ..stores.embed import NO_MODEL
from ..stores.fit import same_model
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
    """Off a terminal: one line per converted file. `plain` (text logs without -v): the CLI
    writes them itself on stderr, no level name, since INFO log lines show only with -v;
    otherwise the runner's INFO log records are those lines."""

    def __init__(self, plain: bool) -> None:
        self.plain = plain

    def planned(self, total: int, todo: int) -> None:
        line = f"{total} file(s) found, {todo} to convert, {total - todo} unchanged"
        if self.plain:
            click.echo(line, err=True)
        else:
            log.info("%s", line)

    def started(self, source_file: str) -> None:
        log.debug("%s: started", source_file)

    def finished(self, r: FileResult) -> None:
        if self.plain and r.status == "converted":
            click.echo(converted_line(r), err=True)


def sized_for_store(cfg: Config, embed: str) -> Config:
    """``ingest --sync``: chunks are sized for the store's model. A default ``chunk.embedder``
    follows ``--embed``; another explicit one is refused before anything runs."""
    if embed == NO_MODEL or same_model(cfg.chunk.embedder, embed):
        return cfg
    if cfg.chunk.embedder == DEFAULT_EMBEDDER:
        return dataclasses.replace(cfg, chunk=dataclasses.replace(cfg.chunk, embedder=embed))
    raise ChunkFitError(
        f"--embedder {cfg.chunk.embedder} sizes the chunks for another model than the store "
        f"embeds with (--embed {embed}): give the same model to both"
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
    "chunk.embedder",
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
    with_navigation: bool,
) -> None:
    """Convert, chunk and export every PDF under INPUT into OUT, incrementally (then, with
    --sync, make a vector store hold exactly OUT's chunks; failed files keep their rows).

    \b
    Exit codes: 0 every file converted (warnings allowed), 1 some files failed,
    2 usage or configuration error, 130 stopped by Ctrl-C, 143 stopped by SIGTERM
    (OUT/run.json then says "aborted")."""
    cfg = state.config(overrides)
    if sync_to:
        cfg = sized_for_store(cfg, embed)
    err = Console(stderr=True)
    if err.is_terminal:
        bar = BarProgress(err)
        with bar.bar, _logs_above(err):
            report = ingest(input_path, out, cfg, bar)
    else:
        quiet = log.getEffectiveLevel() > logging.INFO  # no -v
        level = log.level
        if quiet and cfg.run.log_format == "json":
            log.setLevel(logging.INFO)  # a JSON record per file for the scheduler's log
        try:
            plain = quiet and cfg.run.log_format == "text"
            report = ingest(input_path, out, cfg, LogProgress(plain))
        finally:
            log.setLevel(level)
    with closed_pipe_ok():  # `| head` keeps the run's own exit status
        render_summary(StdoutConsole(file=sys.stdout, highlight=False), report)
    code = 0 if report.ok else 1
    if sync_to:
        keep = [doc_id(r.source_file) for r in report.failures]
        synced = sync(
            report.out,
            sync_to,
            table=table,
            embed=embed,
            batch=batch,
            rebuild=rebuild,
            keep=keep,
            with_navigation=with_navigation,
        )
        with closed_pipe_ok():
            show_report(synced)
        code = max(code, synced.exit_code)
    if code:
        raise click.exceptions.Exit(code)
