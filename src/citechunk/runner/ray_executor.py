"""The Ray executor: the local executor's contract, with Ray Data as the scheduler.

`RayExecutor.run(jobs)` yields exactly one `FileResult` per job (completion order), like
`LocalExecutor.run`. The driver (the `ingest` process) decides what to process and keeps writing
OUT, the manifest and the run report; Ray only runs the per-file function:

* A class-based `map_batches` with ``compute=ActorPoolStrategy(...)``: each actor owns one
  `isolate.Worker` (a child process holding the loaded backend) and runs `run_job` there with the
  per-file timeout -- the same code path as the local pool, so a crash, hang or leak stays in
  that child and becomes one ``failed`` row. Ray has no per-task timeout (ray-project/ray#45661);
  ours lives inside the task.
* A job's outputs are written by the actor to a node-local scratch folder, sent back as bytes
  and written to OUT by the driver (each file atomically, in `run_job`'s order), so the bytes
  are the local executor's and OUT may be a folder only the driver sees.
* A source mirrored from S3 (`storage.staged`) is fetched by the actor from its URI, so workers
  on other nodes need no access to the driver's disk; other sources must be visible to every
  node under the same path (true on one machine or on a shared file system).
* Retries are bounded and ours: Ray restarts a dead actor but never re-runs its task
  (``max_task_retries=0``; re-running a file that kills its actor would kill it again, and take
  the files queued behind it along), Data keeps going past a lost task, and the driver gives each
  lost job `LOST_RETRIES` more passes. A pass whose actors cannot start within
  `ACTOR_START_TIMEOUT` (a cluster without free CPUs) gives up instead of waiting forever. A job
  still without a result is reported ``failed`` with ``WorkerError`` -- no file vanishes from
  the report, and the run always ends.
* Without an address a private local Ray instance is started (``address="local"``, so a set
  ``RAY_ADDRESS`` cannot redirect it) with no dashboard, no usage stats, workers' logs kept off
  the terminal, a per-run token instead of ``~/.ray/auth_token``, and one temporary folder (Ray's
  sessions and the actors' scratch) removed with the instance at the end. With an address it
  joins that cluster and leaves it up.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import logging
import os
import pickle
import secrets
import shutil
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

from ..errors import BackendError, CitechunkError, WorkerError
from ..fsutil import atomic_write_bytes
from .isolate import STARTUP_TIMEOUT, Worker, WorkerSetup
from .work import FileResult, Job

log = logging.getLogger(__name__)

RAY_HINT = "pip install 'citechunk[ray]'"
LOST_RETRIES = 1  # extra passes for jobs whose actor or node died under them
ACTOR_START_TIMEOUT = 300  # seconds a pass waits for its actor pool before giving up
MAX_FILES_PER_CHILD = 32  # recycle the actor's child process (bounded memory), as the pool does
_LOCAL_TOKEN = secrets.token_hex(32)  # one per driver process: Ray caches the token it loads


def import_ray() -> Any:
    """`ray` with Ray Data, or `BackendError` with the install hint."""
    try:
        import ray
        import ray.data  # noqa: F401 -- Data is a separate extra of ray
    except ImportError as exc:
        raise BackendError(
            f"--executor ray needs Ray Data ({exc.name or 'ray'} is not installed); "
            f"install it with: {RAY_HINT}"
        ) from None
    return ray


# -- the Ray session ------------------------------------------------------------------------


@contextlib.contextmanager
def _env(values: dict[str, str]) -> Iterator[None]:
    """Set environment variables for the block (inherited by a local Ray instance)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def _local_env() -> dict[str, str]:
    env = {"RAY_USAGE_STATS_ENABLED": "0"}
    if "RAY_BACKEND_LOG_LEVEL" not in os.environ:  # C++ notices stay in the session logs
        env["RAY_BACKEND_LOG_LEVEL"] = "fatal"
    if not any(k in os.environ for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")):
        env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=_LOCAL_TOKEN)
    return env


def _reload_auth() -> None:
    """Make this (driver) process re-read the RAY_AUTH_* variables, as Ray's own test helpers
    do; Ray caches them at import, and the instance we start reads them from the environment."""
    from ray._raylet import AuthenticationTokenLoader, Config  # type: ignore[attr-defined]

    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


def _quiet_ray_data() -> None:
    """Ray Data logs plans and notices on the console; keep the console to errors (a lost
    task is reported by us as a failed row)."""
    for handler in logging.getLogger("ray.data").handlers:
        if type(handler).__name__ != "SessionFileHandler":
            handler.setLevel(logging.ERROR)


@dataclass(frozen=True)
class RaySession:
    """What `ray_session` connected to: seconds spent starting, whether we own the instance,
    and (for our local instance) its temporary folder, also used for the actors' scratch."""

    address: str
    started_seconds: float
    owned: bool
    temp_dir: str = ""


_owned: list[RaySession] = []  # the local instance `ray_session` is running, if any


@contextlib.contextmanager
def ray_session(address: str = "", num_cpus: int | None = None) -> Iterator[RaySession]:
    """Connect to Ray for the block (see the module docstring for the local-instance rules).

    An already initialised Ray (a notebook's) is used as is and left running.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield _owned[-1] if _owned else RaySession("existing", 0.0, owned=False)
        return
    start = time.perf_counter()
    if address:
        with _env({"RAY_USAGE_STATS_ENABLED": "0"}):
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        try:
            yield RaySession(address, time.perf_counter() - start, owned=False)
        finally:
            ray.shutdown()  # disconnects this driver; the cluster stays up
        return
    temp_dir = tempfile.mkdtemp(prefix="cc-ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    try:
        with _env(_local_env()):
            _reload_auth()
            ray.init(
                address="local",
                num_cpus=num_cpus,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
                _temp_dir=temp_dir,
            )
            _owned.append(RaySession("local", time.perf_counter() - start, True, temp_dir))
            try:
                yield _owned[-1]
            finally:
                _owned.pop()
                ray.shutdown()
    finally:
        _reload_auth()
        _remove_session_dir(temp_dir)


def _remove_session_dir(path: str, wait_seconds: float = 30.0) -> None:
    """Delete a private Ray session folder, retrying while Ray's exiting processes still write.

    Ray's log and metrics processes stop asynchronously after `ray.shutdown()`; one that writes
    a last file while the tree is being removed leaves the folder non-empty. Removal is retried
    until the folder is gone or `wait_seconds` pass, then logged if it remains.
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            return
        if time.monotonic() >= deadline:
            log.warning("could not remove Ray's session folder %s; delete it by hand", path)
            return
        time.sleep(0.25)


# -- the actor ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    """One job as shipped to an actor: where to fetch the source when it is remote."""

    job: Job
    origin: str  # "" = read job.source in place
    mtime_ns: int


def _failed(job: Job, exc: BaseException, seconds: float = 0.0) -> FileResult:
    return FileResult(
        job.source_file,
        "failed",
        seconds=round(seconds, 3),
        size=job.size,
        error_class=type(exc).__name__,
        error=" ".join(str(exc).split())[:500],
    )


def _same_file(path: str, size: int, mtime_ns: int) -> bool:
    """True when `path` is the driver's mirror itself (this actor runs on the driver's node)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (st.st_size, st.st_mtime_ns) == (size, mtime_ns)


class FileMapper:
    """Ray Data callable class: one isolated child process per actor, reused across files.

    `__call__` takes a batch ``{"task": [pickled _Task, ...]}`` and returns
    ``{"result": [pickled (FileResult, {relpath: bytes}), ...]}``; it never raises for a file.
    """

    def __init__(
        self,
        setup: WorkerSetup,
        sys_path: Sequence[str] = (),
        scratch: str = "",
        omp_threads: str | None = None,
    ) -> None:
        for entry in reversed(sys_path):  # a local driver's test/plugin modules
            if entry not in sys.path and os.path.isdir(entry):
                sys.path.insert(0, entry)
        # Ray sets OMP_NUM_THREADS=1 in its workers; the child must see what a local pool
        # worker sees (the driver's value), so thread counts cannot make outputs differ.
        if omp_threads is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = omp_threads
        self.setup = setup
        self.worker: Worker | None = None
        self.scratch = scratch if scratch and os.path.isdir(scratch) else None

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        import numpy as np

        out = [pickle.dumps(self.run(pickle.loads(raw))) for raw in batch["task"]]
        return {"result": np.array(out, dtype=object)}

    def run(self, task: _Task) -> tuple[FileResult, dict[str, bytes]]:
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="citechunk-ray-", dir=self.scratch) as tmp:
            try:
                job = self._localise(task, Path(tmp))
            except CitechunkError as exc:
                return _failed(task.job, exc, time.monotonic() - start), {}
            result = self._run_isolated(job)
            files = {rel: (Path(job.out) / rel).read_bytes() for rel in result.outputs}
        return result, files

    def _localise(self, task: _Task, tmp: Path) -> Job:
        """The job with OUT in scratch space and, for a remote origin, the source fetched."""
        source = task.job.source
        if task.origin and not _same_file(source, task.job.size, task.mtime_ns):
            from .. import storage

            local = tmp / "in" / Path(task.job.source_file).name
            source = str(storage.fetch(storage.locate(task.origin), local, task.mtime_ns))
        return dataclasses.replace(task.job, source=source, out=str(tmp / "out"))

    def _child(self) -> Worker:
        """A ready child process (started on first use, after a failure or when worn out)."""
        w = self.worker
        if w is not None and (not w.idle or w.jobs_done >= MAX_FILES_PER_CHILD):
            w.kill() if w.busy or not w.process.is_alive() else w.stop()
            w = self.worker = None
        if w is None:
            w = Worker(self.setup)
            wait([w.conn, w.process.sentinel], STARTUP_TIMEOUT)
            w.mark_ready()  # raises WorkerError if it died or hung while starting
            self.worker = w
        return w

    def _run_isolated(self, job: Job) -> FileResult:
        try:
            w = self._child()
        except WorkerError as exc:
            self.worker = None
            return _failed(job, exc)
        w.submit(job)
        ready = wait([w.conn, w.process.sentinel], job.timeout)
        return w.collect() if ready else w.expire()

    def __del__(self) -> None:
        if self.worker is not None:
            self.worker.kill()


# -- the driver side ------------------------------------------------------------------------


def _write_order(rel: str) -> tuple[int, str]:
    """`run_job`'s order: Markdown, its provenance, its source map, then the chunk file."""
    order = (".md", ".md.json", ".md.map.json")
    return (next((i for i, end in enumerate(order) if rel.endswith(end)), len(order)), rel)


def _write_outputs(out: str, files: dict[str, bytes]) -> None:
    """Write a job's files under OUT, each atomically, in `run_job`'s order."""
    for rel in sorted(files, key=_write_order):
        atomic_write_bytes(Path(out) / rel, files[rel])


def _lost(job: Job) -> FileResult:
    cause = f"no result from Ray in {1 + LOST_RETRIES} attempts (its Ray worker or node died)"
    return FileResult(
        job.source_file, "failed", size=job.size, error_class="WorkerError", error=cause
    )


class RayExecutor:
    """Runs jobs on Ray Data with `workers` actors (0 = all CPUs of the cluster)."""

    def __init__(
        self,
        workers: int,
        setup: WorkerSetup,
        address: str = "",
        origins: dict[str, str] | None = None,
    ) -> None:
        self.workers = workers
        self.setup = setup
        self.address = address
        self.origins = origins or {}
        self.session: RaySession | None = None
        self._actor_prefix = f"citechunk-{uuid.uuid4().hex[:12]}-"

    def run(
        self, jobs: Sequence[Job], on_start: Callable[[Job], None] | None = None
    ) -> Iterator[FileResult]:
        if not jobs:
            return
        num_cpus = None if self.address else (self.workers or None)
        with ray_session(self.address, num_cpus) as session, _data_context():
            self.session = session
            if on_start is not None:
                for job in jobs:
                    on_start(job)
            pending = {j.source_file: j for j in jobs}
            for attempt in range(1 + LOST_RETRIES):
                if attempt and pending:
                    log.warning("retrying %d file(s) lost with their Ray worker", len(pending))
                for result in self._pass(list(pending.values())):
                    pending.pop(result.source_file, None)
                    yield result
            for job in sorted(pending.values(), key=lambda j: j.source_file):
                yield _lost(job)

    def _tasks(self, jobs: Sequence[Job]) -> list[dict[str, bytes]]:
        ordered = sorted(jobs, key=lambda j: (-j.size, j.source_file))  # large files first
        tasks = []
        for job in ordered:
            origin = self.origins.get(job.source, "")
            mtime = os.stat(job.source).st_mtime_ns if origin else 0
            tasks.append({"task": pickle.dumps(_Task(job, origin, mtime))})
        return tasks

    def _pool_size(self) -> int:
        ray = import_ray()
        cpus = int(ray.cluster_resources().get("CPU", 1))
        return max(1, min(self.workers or cpus, cpus))

    def _pass(self, jobs: Sequence[Job]) -> Iterator[FileResult]:
        """One Ray Data pass over `jobs`: the results that came back (lost jobs are missing;
        a pass that Ray aborts -- e.g. no actor could start in time -- loses the rest)."""
        if not jobs:
            return
        try:
            yield from self._map(jobs)
        except Exception as exc:  # noqa: BLE001 -- every job still gets a row (see run)
            log.error("Ray pass over %d file(s) stopped: %s", len(jobs), exc)
        finally:
            _release_actors(self._actor_prefix, min(self._pool_size(), len(jobs)))

    def _map(self, jobs: Sequence[Job]) -> Iterator[FileResult]:
        from ray.data import ActorPoolStrategy

        tasks = self._tasks(jobs)
        by_name = {j.source_file: j for j in jobs}
        scratch = self.session.temp_dir if self.session else ""
        sys_path = [] if self.address else list(sys.path)
        ds = import_ray().data.from_items(tasks, override_num_blocks=len(tasks))
        with warnings.catch_warnings():
            # Ray 2.60 deprecates passing max_restarts/max_task_retries and per-actor args this
            # way but has no other knob for them; citechunk pins Ray, revisit before 2.64.
            # Restarting a dead actor is safe; re-running its task is not (module docstring).
            warnings.simplefilter("ignore", DeprecationWarning)
            mapped = ds.map_batches(
                FileMapper,
                batch_size=1,
                batch_format="numpy",
                compute=ActorPoolStrategy(
                    size=min(self._pool_size(), len(tasks)), max_tasks_in_flight_per_actor=1
                ),
                fn_constructor_args=(
                    self.setup,
                    sys_path,
                    scratch,
                    os.environ.get("OMP_NUM_THREADS"),
                ),
                num_cpus=1,
                max_restarts=-1,
                max_task_retries=0,
                ray_remote_args_fn=_ActorNames(self._actor_prefix),
            )
        for row in mapped.iter_rows():
            result, files = pickle.loads(row["result"])
            if result.status == "converted":
                _write_outputs(by_name[result.source_file].out, files)
            yield result


class _ActorNames:
    """`ray_remote_args_fn` giving each pool actor a unique name under one prefix."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self) -> dict[str, str]:
        return {"name": f"{self.prefix}{uuid.uuid4().hex}"}


def _release_actors(prefix: str, cpus: int, patience: float = 30.0) -> None:
    """Kill a finished pass's actors and wait until `cpus` CPUs are free again.

    Ray Data drops its actors by reference counting; after an actor died and restarted, its pool
    can stay referenced (holding CPUs) and a next pass would wait for them forever."""
    ray = import_ray()
    for name in ray.util.list_named_actors():
        if name.startswith(prefix):
            with contextlib.suppress(ValueError):  # already gone
                ray.kill(ray.get_actor(name))
    deadline = time.monotonic() + patience
    while True:
        gc.collect()
        if ray.available_resources().get("CPU", 0) >= cpus or time.monotonic() > deadline:
            return
        time.sleep(0.5)


@contextlib.contextmanager
def _data_context() -> Iterator[None]:
    """Ray Data settings for our runs, restored afterwards: no progress bars or plan banners,
    go on past a lost task, give up on an actor pool that cannot start in time."""
    from ray.data import DataContext

    ctx = DataContext.get_current()
    wanted = {
        "enable_progress_bars": False,
        "print_on_execution_start": False,
        "max_errored_blocks": -1,
        "wait_for_min_actors_s": ACTOR_START_TIMEOUT,
    }
    saved = {key: getattr(ctx, key) for key in wanted}
    for key, value in wanted.items():
        setattr(ctx, key, value)
    _quiet_ray_data()
    try:
        yield
    finally:
        for key, value in saved.items():
            setattr(ctx, key, value)
