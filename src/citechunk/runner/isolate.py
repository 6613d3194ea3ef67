"""Run `run_job` in a child process, so a crash, hang or leak in a PDF library stays contained.

A `Worker` is one child process (a fresh interpreter started as ``python -P -c <bootstrap>``:
no inherited threads, locks or file descriptors, and the caller's ``__main__`` is never
imported again, so a plain script without an ``if __name__ == "__main__":`` guard can call
`citechunk.ingest`) that handles jobs one at a time. The child gets the parent's ``sys.path``
(run-time plugins, tests), a socket for `Job`/`FileResult` messages and a pipe whose end closes
when it dies (the sentinel the parent waits on). The parent sends a `Job`, then waits for the
result with a deadline. Contract: whatever the file does to its process -- raise, segfault,
`abort()`, hang past the timeout, get OOM-killed -- the parent gets exactly one `FileResult` for
it (``failed`` with error class ``WorkerError`` and the signal or timeout in the message) and the
worker is replaced; no other file is affected. Workers die with the parent (Linux
PR_SET_PDEATHSIG), so `kill -9` of a run leaves no orphan writing into OUT.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection

from ..conversion.registry import get_backend, register, registrations
from ..errors import WorkerError
from .work import FileResult, Job, run_job

log = logging.getLogger(__name__)
_PR_SET_PDEATHSIG = 1
READY = "ready"
STARTUP_TIMEOUT = 300.0  # seconds a fresh worker may take to import and load its backend


@dataclass(frozen=True)
class WorkerSetup:
    """What a fresh child needs before its first job: backends registered at run time in the
    parent (tests, plugins) and the logging level/format."""

    registrations: tuple[tuple[str, str], ...]
    log_level: int
    log_format: str
    backend: str  # loaded before the worker reports ready, so no file pays for it
    threads: int = 1  # threads each library may use inside this worker (see threads.py)

    @classmethod
    def current(cls, backend: str, log_format: str = "text", threads: int = 1) -> WorkerSetup:
        level = logging.getLogger("citechunk").getEffectiveLevel()
        return cls(tuple(sorted(registrations().items())), level, log_format, backend, threads)


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _prepare(setup: WorkerSetup) -> None:
    """Thread limits, logging, run-time backend registrations, backend warm-up (errors surface
    per file)."""
    from ..logsetup import setup_logging
    from .threads import limit_threads

    limit_threads(setup.threads)
    verbose = (
        0 if setup.log_level >= logging.WARNING else 1 if setup.log_level >= logging.INFO else 2
    )
    setup_logging(verbose, setup.log_format)
    for name, target in setup.registrations:
        register(name, target)
    try:
        get_backend(setup.backend)
    except Exception:  # noqa: BLE001 -- the same error is reported for each file
        log.debug("backend %s failed to load in worker", setup.backend, exc_info=True)


def child_main(conn_fd: int, sentinel_fd: int) -> None:
    """The bootstrap's entry point in the child: adopt the inherited descriptors (not passed on
    to the child's own children), read the `WorkerSetup`, then serve jobs."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    os.set_inheritable(sentinel_fd, False)  # stays open until this process ends
    os.set_inheritable(conn_fd, False)
    conn = Connection(conn_fd)
    _worker_main(conn, conn.recv())


def _worker_main(conn: Connection, setup: WorkerSetup) -> None:
    """Child process loop: send READY, then receive a Job and send back its FileResult; stop
    on None or EOF."""
    _prepare(setup)
    conn.send(READY)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        result = run_job(job)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        conn.send(replace(result, worker_pid=os.getpid(), worker_peak_rss_kb=peak))


def _signal_name(exitcode: int | None) -> str:
    if exitcode is None:
        return "an unknown cause"
    if exitcode < 0:
        try:
            return f"signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


def _bootstrap_code(conn_fd: int, sentinel_fd: int) -> str:
    """The child's ``-c`` program: the parent's import path, then `child_main`."""
    paths = [p for p in sys.path if p]
    return (
        f"import sys; sys.path[:0] = {paths!r}; "
        f"from citechunk.runner.isolate import child_main; child_main({conn_fd}, {sentinel_fd})"
    )


class ChildProcess:
    """A worker interpreter started by `_bootstrap_code`, with the parts of
    `multiprocessing.Process` the pool uses: `pid`, `sentinel` (readable once the child is
    gone), `exitcode` (negative: killed by that signal), `is_alive`, `kill`, `join`."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair()
        sentinel_r, sentinel_w = os.pipe()
        fds = (theirs.fileno(), sentinel_w)
        try:
            self.popen = subprocess.Popen(
                [sys.executable, "-P", "-c", _bootstrap_code(*fds)],
                stdin=subprocess.DEVNULL,
                pass_fds=fds,
            )
        finally:
            theirs.close()
            os.close(sentinel_w)
        self.conn = Connection(mine.detach())
        self.sentinel = sentinel_r
        self.pid = self.popen.pid

    @property
    def exitcode(self) -> int | None:
        return self.popen.poll()

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()

    def join(self, timeout: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout)

    def close(self) -> None:
        """Release the sentinel (after the child ended or was killed)."""
        if self.sentinel >= 0:
            os.close(self.sentinel)
            self.sentinel = -1


class Worker:
    """One child process and the job it is running (if any)."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.process = ChildProcess()
        self.conn: Connection = self.process.conn
        with contextlib.suppress(OSError):  # a child dead at birth fails in mark_ready
            self.conn.send(setup)
        self.job: Job | None = None
        self.ready = False
        self.started = time.monotonic()
        self.deadline = self.started + STARTUP_TIMEOUT
        self.jobs_done = 0

    @property
    def busy(self) -> bool:
        return self.job is not None

    @property
    def idle(self) -> bool:
        return self.ready and self.job is None and self.process.is_alive()

    def mark_ready(self) -> None:
        """Read the READY message of a starting worker; raise WorkerError if it died or hung."""
        message = None
        with contextlib.suppress(EOFError, OSError):
            if self.conn.poll(0):
                message = self.conn.recv()
        if message != READY:
            self.kill()
            cause = f"worker process failed to start ({_signal_name(self.process.exitcode)})"
            raise WorkerError("<worker>", cause)
        self.ready = True

    def submit(self, job: Job) -> None:
        """Send `job`; it must answer within `job.timeout` seconds."""
        self.conn.send(job)
        self.job = job
        self.started = time.monotonic()
        self.deadline = self.started + job.timeout

    def collect(self) -> FileResult:
        """The result of the current job after `conn` became readable (or the process died)."""
        job = self._take_job()
        try:
            result: FileResult = self.conn.recv()
        except (EOFError, OSError):
            self.process.join(5)
            cause = f"worker process died with {_signal_name(self.process.exitcode)}"
            return self._failure(job, cause)
        self.jobs_done += 1
        return result

    def expire(self) -> FileResult:
        """Kill the process of a job past its deadline; the job's failed result."""
        job = self._take_job()
        self.kill()
        return self._failure(job, f"timed out after {job.timeout:g} s; worker process killed")

    def _take_job(self) -> Job:
        if self.job is None:
            raise RuntimeError("worker has no job")
        job, self.job = self.job, None
        return job

    def _failure(self, job: Job, cause: str) -> FileResult:
        log.debug("worker %s: %s: %s", self.process.pid, job.source_file, cause)
        return FileResult(
            job.source_file,
            "failed",
            seconds=round(time.monotonic() - self.started, 3),
            size=job.size,
            error_class=WorkerError.__name__,
            error=cause,
            worker_pid=self.process.pid or 0,
        )

    def stop(self) -> None:
        """Ask an idle worker to exit; kill it if it does not within a few seconds."""
        with contextlib.suppress(OSError, BrokenPipeError):
            self.conn.send(None)
        self.process.join(5)
        if self.process.is_alive():
            self.kill()
        self.conn.close()
        self.process.close()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        with contextlib.suppress(OSError):
            self.conn.close()
        self.process.close()
