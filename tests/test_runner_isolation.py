"""A file that hangs, segfaults or aborts its process fails alone; its neighbours are written."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from citechunk.config import load_config
from citechunk.conversion.registry import register
from citechunk.runner import ingest
from citechunk.runner.work import page_count
from runner_backends import chaos_input

pytestmark = pytest.mark.heavy


def test_hang_crash_abort_are_isolated(tmp_path: Path, sample_pdfs: Path) -> None:
    register("test-chaos", "runner_backends:ChaosBackend")
    src = tmp_path / "in"
    good = chaos_input(src, sample_pdfs, ("hang_me.pdf", "crash_me.pdf", "abort_me.pdf"))
    cfg = load_config(
        None, {"convert": {"backend": "test-chaos"}, "run": {"workers": 2, "timeout": 45}}
    )

    report = ingest(src, tmp_path / "out", cfg)

    rows = {f.source_file: f for f in report.files}
    assert rows["hang_me.pdf"].status == "failed"
    assert rows["hang_me.pdf"].error_class == "WorkerError"
    assert "timed out after 45 s" in rows["hang_me.pdf"].error
    assert rows["crash_me.pdf"].status == "failed"
    assert "SIGSEGV" in rows["crash_me.pdf"].error
    assert rows["abort_me.pdf"].status == "failed"
    assert "SIGABRT" in rows["abort_me.pdf"].error
    for p in good:
        row = rows[p.name]
        assert row.status == "converted", row
        table = pq.read_table(tmp_path / "out" / row.outputs[0])
        assert table.num_rows == row.chunks > 0
    written = sorted(p.name for p in (tmp_path / "out" / "chunks").iterdir())
    assert len(written) == len(good)  # nothing, not even a temp file, for the failed ones
    assert not report.ok


def test_the_timeout_scales_with_the_page_count(tmp_path: Path, sample_pdfs: Path) -> None:
    """A file of N pages may take max(run.timeout, N x run.timeout_per_page) seconds."""
    register("test-chaos", "runner_backends:ChaosBackend")
    src = tmp_path / "in"
    good = chaos_input(src, sample_pdfs, ("hang_me.pdf",))
    pages = page_count(str(good[0]))
    assert pages >= 2
    cfg = load_config(
        None,
        {
            "convert": {"backend": "test-chaos"},
            "run": {"workers": 1, "timeout": 1, "timeout_per_page": 1.5},
        },
    )

    report = ingest(
        src,
        tmp_path / "out",
        cfg,
    )

    row = {f.source_file: f for f in report.files}["hang_me.pdf"]
    assert row.status == "failed" and f"timed out after {pages * 1.5:g} s" in row.error
    assert row.seconds >= pages * 1.5
