"""The local executor: N worker processes, one file each at a time, per-file timeout.

Contract: `LocalExecutor.run(jobs)` yields exactly one `FileResult` per job, in completion
order, and returns when all are done. Jobs are dispatched largest first (balances the tail).
At most `workers` processes exist at once, each recycled after `MAX_FILES_PER_WORKER` files so
memory stays bounded by the number of workers, not by the corpus. On exit (normal, exception or
KeyboardInterrupt) every worker is stopped or killed.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import wait

from .isolate import Worker, WorkerSetup
from .work import FileResult, Job

log = logging.getLogger(__name__)

MAX_FILES_PER_WORKER = 32


def default_workers() -> int:
    """The machine's usable cores (CPU affinity where the OS reports it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class LocalExecutor:
    """Runs jobs in `workers` spawned processes, each job within its own `Job.timeout`."""

    def __init__(self, workers: int, setup: WorkerSetup) -> None:
        self.workers = max(1, workers)
        self.setup = setup

    def run(
        self, jobs: Sequence[Job], on_start: Callable[[Job], None] | None = None
    ) -> Iterator[FileResult]:
        queue = deque(sorted(jobs, key=lambda j: (-j.size, j.source_file)))
        pool: list[Worker] = []
        try:
            while queue or any(w.busy for w in pool):
                self._dispatch(queue, pool, on_start)
                yield from self._wait(pool)
        finally:
            for w in pool:
                w.kill() if w.busy else w.stop()

    def _dispatch(
        self, queue: deque[Job], pool: list[Worker], on_start: Callable[[Job], None] | None
    ) -> None:
        """Give queued jobs to idle workers; replace dead or worn-out ones; start missing ones."""
        for w in [w for w in pool if w.ready and not w.idle and not w.busy]:
            pool.remove(w)  # died (crash or timeout kill)
            w.kill()
        for w in [w for w in pool if w.idle and w.jobs_done >= MAX_FILES_PER_WORKER]:
            pool.remove(w)
            w.stop()
        while len(pool) < min(self.workers, len(queue) + sum(w.busy for w in pool)):
            pool.append(Worker(self.setup))
        for w in pool:
            if queue and w.idle:
                job = queue.popleft()
                if on_start is not None:
                    on_start(job)
                try:
                    w.submit(job)
                except OSError:  # the idle worker died (e.g. OOM killer): requeue, replace it
                    queue.appendleft(job)
                    w.kill()

    def _wait(self, pool: list[Worker]) -> Iterator[FileResult]:
        """Block until a worker answers (READY or a result), dies or passes its deadline;
        yield the results of finished jobs."""
        waiting = [w for w in pool if w.busy or not w.ready]
        if not waiting:
            return
        timeout = max(0.0, min(w.deadline for w in waiting) - time.monotonic())
        handles = [w.conn for w in waiting] + [w.process.sentinel for w in waiting]
        ready = set(wait(handles, timeout))
        now = time.monotonic()
        for w in waiting:
            answered = w.conn in ready or w.process.sentinel in ready
            if not w.ready:
                if answered or now >= w.deadline:
                    w.mark_ready()  # raises WorkerError if the worker could not start
            elif answered:
                yield w.collect()
            elif now >= w.deadline:
                yield w.expire()
