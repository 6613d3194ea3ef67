"""`ingest(input, out, config)`: a folder of PDFs -> an up-to-date chunk dataset under OUT.

Steps, under the output lock: load the manifest (replaying a killed run's journal), delete
leftover temporary files, plan (skip unchanged sources, remove vanished ones), run the per-file
function for the rest in isolated worker processes, record each finished file in the journal
as it completes, commit the manifest, sweep files no source owns, write ``OUT/run.json``.

Contract: per-file failures never raise; they are rows of the returned `RunReport` (check
`report.ok`). Raises `ConfigError` (bad input path or options, or an INPUT without PDFs while
OUT holds earlier documents: never read as "all deleted"), `BackendError` (unknown or
unavailable backend) and `LockedError` (another run holds OUT) before touching any output, and
`OutputError` for any operating-system error on OUT (read-only, permission denied, a path
through a file), naming the folder and the cause. Whatever ends a run early (Ctrl-C, SIGTERM,
a worker that cannot start, an OS error on OUT) leaves ``run.json`` in state ``aborted`` with
the cause, never ``running`` (only SIGKILL cannot be answered: the next run finishes the job).
Same input + configuration -> byte-identical chunk and Markdown files, whether the folder was
built in one run or by reruns after `kill -9`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..chunking import make_chunker
from ..config import Config
from ..conversion.registry import get_backend_class
from ..errors import ConfigError, OutputError
from ..export import Format, config_fingerprint, produced_config, run_metadata
from ..storage import is_remote
from . import outputs
from .discover import Source, discover
from .isolate import WorkerSetup
from .lock import OutputLock
from .manifest import Entry, Manifest
from .passwords import Passwords, load_passwords
from .plan import entry_for, plan
from .pool import LocalExecutor, default_workers
from .report import RunReport, converted_line, utc_now, worker_stats, write_report
from .staged import staged_ingest
from .work import FileResult, Job, file_timeout, page_count, planned_outputs

log = logging.getLogger(__name__)


class Progress(Protocol):
    """What a caller (the CLI's progress bar) hears while a run goes."""

    def planned(self, total: int, todo: int) -> None: ...
    def started(self, source_file: str) -> None: ...
    def finished(self, result: FileResult) -> None: ...


class Executor(Protocol):
    def run(
        self, jobs: Sequence[Job], on_start: Callable[[Job], None] | None = None
    ) -> Iterator[FileResult]: ...


def output_config(config: Config) -> dict[str, Any]:
    """What changes the bytes of a document's outputs (`export.produced_config`) for `config`."""
    backend = get_backend_class(config.convert.backend)
    return produced_config(
        config.convert.backend, backend.version(), config.convert.redacted(), config.chunk
    )


def _executor(config: Config, workers: int, origins: Mapping[str, str]) -> Executor:
    run = config.run
    setup = WorkerSetup.current(config.convert.backend, run.log_format, run.threads_per_worker)
    if config.run.executor == "local":
        return LocalExecutor(workers, setup)
    if config.run.executor == "ray":  # hook owned by ray_executor.py
        from .ray_executor import RayExecutor

        ray_workers = min(config.run.workers, workers) if config.run.workers else 0
        return RayExecutor(ray_workers, setup, config.run.ray_address, dict(origins))
    raise ConfigError(
        f"run.executor {config.run.executor!r} is not available in this build (use 'local')"
    )


def _job(
    s: Source, out: Path, config: Config, fp: str, meta: dict[str, str], passwords: Passwords
) -> Job:
    password = passwords.for_file(s.rel)
    return Job(
        source=s.path,
        source_file=s.rel,
        out=str(out),
        convert=dataclasses.replace(config.convert, password=password),
        chunk=config.chunk,
        fmt=config.export.format,
        fingerprint=fp,
        metadata=tuple(sorted(meta.items())),
        size=s.size,
        timeout=file_timeout(page_count(s.path, password), config.run),
    )


def _log_result(r: FileResult) -> None:
    extra = {"file": r.source_file, "status": r.status, "seconds": r.seconds}
    if r.status == "failed":
        log.error(
            "%s: failed: %s: %s",
            r.source_file,
            r.error_class,
            r.error,
            extra={**extra, "error": f"{r.error_class}: {r.error}"},
        )
    elif r.status == "converted":
        log.info("%s", converted_line(r), extra={**extra, "warnings": list(r.warnings)})
    else:
        log.debug("%s: %s", r.source_file, r.status, extra=extra)


def _record(manifest: Manifest, r: FileResult, fp: str, fmt: Format) -> None:
    """Make one finished file durable: clean a failure's outputs, then journal its entry."""
    if r.status != "converted":
        old = manifest.get(r.source_file)
        mine = planned_outputs(r.source_file, fmt)
        outputs.remove(manifest.out, mine + (old.outputs if old else ()))
        outputs.remove_temp_files(manifest.out, mine)  # a killed worker may leave some behind
    manifest.put(entry_for(r, fp, fmt))


def _execute(
    jobs: list[Job],
    config: Config,
    workers: int,
    manifest: Manifest,
    progress: Progress | None,
    origins: Mapping[str, str],
    done: list[FileResult],
) -> None:
    """Run the jobs; record, log, report and append to `done` each result as it arrives."""
    executor = _executor(config, min(workers, len(jobs)), origins)
    on_start = (lambda j: progress.started(j.source_file)) if progress else None
    for r in executor.run(jobs, on_start):
        _finish(manifest, r, jobs[0].fingerprint, config.export.format, progress, done)


def _finish(
    manifest: Manifest,
    r: FileResult,
    fp: str,
    fmt: Format,
    progress: Progress | None,
    done: list[FileResult],
) -> None:
    """Record, log, report and append to `done` one finished file."""
    _record(manifest, r, fp, fmt)
    if progress:
        progress.finished(r)
    _log_result(r)
    done.append(r)


def _broken(s: Source) -> FileResult:
    """The failed row of a source that is a symbolic link to nothing."""
    return FileResult(s.rel, "failed", error_class="BrokenLinkError", error=s.broken)


def _removed(manifest: Manifest, vanished: Sequence[Entry]) -> list[FileResult]:
    rows = []
    for e in vanished:
        outputs.remove(manifest.out, e.outputs)
        manifest.drop(e.source_file)
        rows.append(
            FileResult(e.source_file, "removed", pages=e.pages, chunks=e.chunks, outputs=e.outputs)
        )
        log.info(
            "%s: removed (source gone)",
            e.source_file,
            extra={"file": e.source_file, "status": "removed"},
        )
    return rows


def ingest(
    input: str | os.PathLike[str],
    out: str | os.PathLike[str],
    config: Config | None = None,
    progress: Progress | None = None,
) -> RunReport:
    """Bring OUT up to date with INPUT (a PDF or a folder); see the module docstring."""
    config = config or Config()
    if is_remote(input) or is_remote(out):  # s3:// INPUT or OUT: run on local mirrors
        return staged_ingest(_ingest_local, str(input), str(out), config, progress)
    return _ingest_local(input, out, config, progress, {})


def _ingest_local(
    input: str | os.PathLike[str],
    out: str | os.PathLike[str],
    config: Config,
    progress: Progress | None,
    origins: Mapping[str, str],
) -> RunReport:
    """`ingest` on local folders; `origins` maps mirrored sources to their remote URIs."""
    t0 = time.perf_counter()
    out_dir = Path(out).resolve()
    sources = discover(input, config.export, skip=out_dir)
    load_passwords(config.run.passwords_file)  # an unusable file fails before OUT is touched
    make_chunker(options=config.chunk)  # an unknown embedder or a size over its window, too
    out_config = output_config(config)
    workers = config.run.workers or default_workers()
    try:
        with OutputLock(out_dir), _terminate_as_exit():
            return _run(
                Path(input).resolve(),
                out_dir,
                config,
                sources,
                out_config,
                workers,
                progress,
                t0,
                origins,
            )
    except OSError as exc:
        if not _concerns(exc, out_dir):
            raise
        raise output_error(out_dir, exc) from exc


def _exit_on_signal(signum: int, *_: object) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """SIGTERM (a scheduler stopping the job) ends the run as an exception, so run.json says
    ``aborted``; only while SIGTERM has its default action and only in the main thread (an
    application's own handler is left alone)."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _concerns(exc: OSError, out: Path) -> bool:
    """True when `exc` is about a path in (or above) the output folder."""
    name = exc.filename
    if name is None:
        return False
    path = Path(os.fsdecode(name))
    return path == out or out in path.parents or path in out.parents


def output_error(out: Path, exc: OSError) -> OutputError:
    """One line: the folder, what failed and the operating system's cause."""
    cause = exc.strerror or str(exc)
    where = os.fsdecode(exc.filename) if exc.filename else str(out)
    return OutputError(f"{out}: cannot write the output folder: {cause} ({where})")


def _run(
    input_dir: Path,
    out: Path,
    config: Config,
    sources: list[Source],
    out_config: dict[str, Any],
    workers: int,
    progress: Progress | None,
    t0: float,
    origins: Mapping[str, str],
) -> RunReport:
    started = utc_now()
    fp = config_fingerprint(out_config)
    manifest = Manifest.load(out)
    if not sources and manifest.entries:
        raise ConfigError(
            f"{input_dir}: no PDFs found (empty or unmounted folder, or include/exclude match "
            f"nothing), but {out} holds {len(manifest.entries)} document(s) from earlier runs; "
            "refusing to remove them all. Delete the output folder to start empty."
        )
    base = RunReport(
        str(input_dir),
        str(out),
        "running",
        started,
        "",
        0.0,
        workers,
        fp,
        _public(config),
        device=get_backend_class(config.convert.backend).device(config.convert),
    )
    write_report(out, base)
    done: list[FileResult] = []
    try:
        rows, orphans = _process(
            out, config, sources, manifest, out_config, workers, progress, origins, done
        )
    except BaseException as exc:  # Ctrl-C, a worker that cannot start, a disk error: say so
        _abort(out, base, done, t0, exc)
        raise
    report = dataclasses.replace(
        base,
        state="finished",
        finished=utc_now(),
        seconds=round(time.perf_counter() - t0, 3),
        files=tuple(sorted(rows + done, key=lambda r: (r.source_file, r.status))),
        worker_stats=worker_stats(done),
        parent_peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        removed_orphans=tuple(orphans),
    )
    write_report(out, report)
    return report


def _process(
    out: Path,
    config: Config,
    sources: list[Source],
    manifest: Manifest,
    out_config: dict[str, Any],
    workers: int,
    progress: Progress | None,
    origins: Mapping[str, str],
    done: list[FileResult],
) -> tuple[list[FileResult], list[str]]:
    """Plan, convert the changed files (their results appended to `done` as they arrive),
    commit the manifest and sweep orphans. Returns (removed and skipped rows, orphans)."""
    fp, fmt = config_fingerprint(out_config), config.export.format
    outputs.remove_temp_files(out)
    p = plan(sources, manifest, fp, fmt, config.run.full)
    rows = _removed(manifest, p.vanished) + list(p.skipped)
    for entry in p.touched:
        manifest.put(entry)
    if progress:
        progress.planned(len(sources), len(p.todo))
    for s in (s for s in p.todo if s.broken):  # a link to nothing: failed without a worker
        _finish(manifest, _broken(s), fp, fmt, progress, done)
    meta = run_metadata(out_config)
    passwords = load_passwords(config.run.passwords_file, config.convert.password)
    jobs = [_job(s, out, config, fp, meta, passwords) for s in p.todo if not s.broken]
    if jobs:
        _execute(jobs, config, workers, manifest, progress, origins, done)
    manifest.commit()
    return rows, outputs.sweep(out, manifest.outputs())


def _abort(
    out: Path, base: RunReport, done: list[FileResult], t0: float, exc: BaseException
) -> None:
    """Replace the ``running`` report by an ``aborted`` one naming the cause (best effort: the
    original exception is what the caller sees)."""
    cause = f"{type(exc).__name__}: {exc}".rstrip(": ")
    report = dataclasses.replace(
        base,
        state="aborted",
        finished=utc_now(),
        seconds=round(time.perf_counter() - t0, 3),
        files=tuple(sorted(done, key=lambda r: r.source_file)),
        error=cause,
    )
    try:
        write_report(out, report)
    except OSError:
        log.debug("could not mark %s aborted", out, exc_info=True)


def _public(config: Config) -> dict[str, Any]:
    """The configuration for run.json: the password never, only whether one was given
    (the passwords file is named, its content never read into the report)."""
    data = config.to_dict()
    data["convert"] = {**config.convert.redacted(), "password_given": bool(config.convert.password)}
    return data
