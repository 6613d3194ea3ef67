"""`kill -9` of a running `citechunk ingest` at several points, then a rerun: the folder ends
byte-identical to one uninterrupted run. Also: a second concurrent run refuses (lock)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest

from citechunk import ingest
from citechunk.config import load_config
from citechunk.errors import LockedError
from citechunk.runner.lock import LOCK_NAME
from citechunk.runner.manifest import JOURNAL_NAME
from conftest import output_tree

pytestmark = pytest.mark.heavy

Condition = Callable[[Path, int], bool]


def journal_lines(out: Path) -> int:
    try:
        return (out / JOURNAL_NAME).read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def start(src: Path, out: Path) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "citechunk",
        "ingest",
        str(src),
        "--out",
        str(out),
        "--workers",
        "2",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for(proc: subprocess.Popen[bytes], ready: Callable[[], bool], limit: float = 240) -> bool:
    """Poll until `ready()` (True) or the process ends (False)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if ready():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    raise AssertionError("condition not reached in time")


def kill_run(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the run's main process only; its workers must die with it (no orphans)."""
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(30) == -signal.SIGKILL
    _, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, f"orphan workers survived: {alive}"


def assert_readable(out: Path) -> None:
    """What a reader sees after a kill: only whole files (temp files are hidden dot-files)."""
    for p in (out / "chunks").glob("[!.]*.parquet"):
        pq.read_table(p)
    for p in (out / "markdown").glob("[!.]*.md.json"):
        assert p.read_text(encoding="utf-8").rstrip().endswith("}")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("reference") / "out"
    report = ingest(sample_pdfs, out, load_config(None, {"run": {"workers": 2}}))
    assert report.ok
    return output_tree(out)


KILL_POINTS: list[tuple[str, Condition]] = [
    ("lock taken", lambda out, _: (out / LOCK_NAME).exists()),
    ("first Markdown written", lambda out, _: any((out / "markdown").glob("[!.]*.md"))),
    ("first file journaled", lambda out, base: journal_lines(out) > base),
    ("three files journaled", lambda out, base: journal_lines(out) >= base + 3),
]


def test_kill9_at_several_points_then_rerun_is_byte_identical(
    tmp_path: Path, sample_pdfs: Path, reference: dict[str, bytes]
) -> None:
    out = tmp_path / "out"
    killed = 0
    for _, condition in KILL_POINTS:
        base = journal_lines(out)
        proc = start(sample_pdfs, out)
        if wait_for(proc, lambda c=condition, b=base: c(out, b)):  # type: ignore[misc]
            kill_run(proc)
            killed += 1
            assert_readable(out)
        else:
            assert proc.returncode == 0
    assert killed >= 3  # the run was really interrupted, not finished first
    final = start(sample_pdfs, out)
    assert final.wait(300) == 0
    assert output_tree(out) == reference


def test_second_concurrent_run_refuses(
    tmp_path: Path, sample_pdfs: Path, reference: dict[str, bytes]
) -> None:
    out = tmp_path / "out"
    first = start(sample_pdfs, out)
    try:
        assert wait_for(first, lambda: (out / LOCK_NAME).exists())
        with pytest.raises(LockedError, match=f"pid {first.pid}"):
            ingest(sample_pdfs, out, load_config(None, {"run": {"workers": 1}}))
    finally:
        assert first.wait(300) == 0
    assert output_tree(out) == reference
    assert not os.path.exists(out / LOCK_NAME)
