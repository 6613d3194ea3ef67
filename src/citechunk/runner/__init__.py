"""Runner: schedules the per-file function (`work.run_job`) over a corpus and records results.

Public: `ingest(input, out, config, progress) -> RunReport`. See `ingest.py` for the contract,
`work.py` for the per-file function, `isolate.py`/`pool.py` for process isolation, `manifest.py`
for incremental state, `lock.py` and `report.py` for the lock and ``OUT/run.json``.
"""

from __future__ import annotations

from .ingest import Progress, ingest, output_config
from .report import RunReport
from .work import FileResult, Job, run_job

__all__ = ["ingest", "output_config", "Progress", "RunReport", "FileResult", "Job", "run_job"]
