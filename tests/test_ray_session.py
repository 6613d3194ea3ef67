"""`citechunk ingest --executor ray` starts a private Ray and leaves nothing behind.

One real start and stop of a local Ray instance, through the CLI, with a `RAY_ADDRESS` in the
environment pointing nowhere: the run must not follow it, and afterwards no Ray process, Ray
session folder or ``~/.ray/auth_token`` may remain.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.errors import BackendError
from citechunk.runner.ray_executor import import_ray

pytestmark = pytest.mark.heavy


def test_missing_ray_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without ray sees
    with pytest.raises(BackendError, match=r"pip install 'citechunk\[ray\]'"):
        import_ray()


def _ray_temp_dirs() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("cc-ray-*")} | {
        p.name for p in Path("/tmp").glob("cc-ray-*")
    }


def _children_alive() -> set[str]:
    """Live descendants of this process, as "pid command line"."""
    import psutil

    alive = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                alive.add(f"{child.pid} {' '.join(child.cmdline())[:80]}")
        except psutil.NoSuchProcess:
            continue
    return alive


@pytest.mark.slow
def test_cli_ray_run_is_private_quiet_and_clean(
    sample_pdfs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray.data", reason="ray not installed (pip install 'citechunk[ray]')")
    import ray

    assert not ray.is_initialized()
    token = Path.home() / ".ray" / "auth_token"
    had_token, dirs_before = token.exists(), _ray_temp_dirs()
    children_before = _children_alive()  # e.g. multiprocessing's resource tracker
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:9")  # nothing listens there
    src = tmp_path / "in"
    src.mkdir()
    pdf = sorted(sample_pdfs.glob("*.pdf"))[0]
    (src / pdf.name).write_bytes(pdf.read_bytes())

    result = CliRunner().invoke(
        main, ["ingest", str(src), "--out", str(tmp_path / "out"), "--executor", "ray"]
    )

    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "out" / "chunks").glob("*.parquet"))) == 1
    assert not ray.is_initialized()
    deadline = time.monotonic() + 20  # Ray's processes exit asynchronously after shutdown
    while _children_alive() - children_before and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _children_alive() - children_before == set()
    assert _ray_temp_dirs() == dirs_before
    assert token.exists() == had_token


def test_session_folder_is_removed_while_a_late_writer_still_adds_files(tmp_path: Path) -> None:
    import threading

    from citechunk.runner.ray_executor import _remove_session_dir

    session = tmp_path / "cc-ray-late"
    (session / "logs").mkdir(parents=True)
    stop = threading.Event()

    def write_late() -> None:  # like Ray's log monitor flushing while it exits
        for i in range(40):
            if stop.is_set():
                return
            try:
                (session / "logs" / f"late-{i}.log").write_text("x")
            except FileNotFoundError:
                return  # the folder is gone: an exiting process cannot recreate it
            time.sleep(0.01)

    writer = threading.Thread(target=write_late)
    writer.start()
    _remove_session_dir(str(session), wait_seconds=10)
    stop.set()
    writer.join()
    assert not session.exists()
