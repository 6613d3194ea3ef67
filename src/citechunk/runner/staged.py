"""An ingest whose INPUT or OUT is remote (``s3://``), run on local stand-ins.

`storage.staged` mirrors the remote side into a temporary folder; the local ingest runs there
with the mirrored sources' remote URIs (`origins`) handed to it, so an executor whose workers
cannot see this machine's disk (Ray) fetches from the URIs; OUT is pushed back only when the
local run returns (failed files included), never after an exception, with the manifest, journal
and run report last.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TypeVar

from ..config import Config
from ..storage import locate, staged
from .discover import selected
from .manifest import JOURNAL_NAME, MANIFEST_NAME
from .report import REPORT_NAME, RunReport, write_report

P = TypeVar("P")  # the caller's progress listener, handed through unchanged


def staged_ingest(
    run: Callable[[str, str, Config, P, Mapping[str, str]], RunReport],
    input_uri: str,
    out_uri: str,
    config: Config,
    progress: P,
) -> RunReport:
    """`run(input, out, config, progress, origins)` on local stand-ins for a remote INPUT/OUT;
    the returned report names the URIs."""

    def accept(rel: str) -> bool:
        return selected(rel, config.export)

    commit = (JOURNAL_NAME, MANIFEST_NAME, REPORT_NAME)
    with staged(input_uri, out_uri, accept, commit) as st:
        report = run(st.input, st.out, config, progress, st.origins)
        report = dataclasses.replace(report, input=locate(input_uri).uri, out=locate(out_uri).uri)
        write_report(st.out, report)
    return report
