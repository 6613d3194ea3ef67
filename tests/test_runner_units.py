"""Runner building blocks on real files and real processes: discovery, lock, manifest journal,
output housekeeping."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from citechunk.config import ExportOptions, RunOptions
from citechunk.errors import ConfigError, LockedError
from citechunk.runner import outputs
from citechunk.runner.discover import discover
from citechunk.runner.lock import LOCK_NAME, OutputLock
from citechunk.runner.manifest import JOURNAL_NAME, MANIFEST_NAME, Entry, Manifest
from citechunk.runner.work import file_timeout, page_count

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _touch(path: Path, data: bytes = b"%PDF-1.4\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_discover_recursive_case_insensitive_sorted(tmp_path: Path) -> None:
    for rel in ["b.pdf", "A.PDF", "sub/c.Pdf", "sub/deep/d.pdf", "notes.txt", "drafts/x.pdf"]:
        _touch(tmp_path / rel)
    found = discover(tmp_path, ExportOptions(exclude=("drafts/*",)))
    assert [s.rel for s in found] == ["A.PDF", "b.pdf", "sub/c.Pdf", "sub/deep/d.pdf"]
    assert all(Path(s.path).is_absolute() and s.size == 9 for s in found)
    only = discover(tmp_path, ExportOptions(include=("sub/*",)))
    assert [s.rel for s in only] == ["sub/c.Pdf", "sub/deep/d.pdf"]


def test_discover_single_file_and_missing_input(tmp_path: Path) -> None:
    pdf = _touch(tmp_path / "one" / "Report.PDF")
    assert [s.rel for s in discover(pdf, ExportOptions())] == ["Report.PDF"]
    with pytest.raises(ConfigError, match="input not found"):
        discover(tmp_path / "nope", ExportOptions())


def test_discover_skips_output_folder_inside_input(tmp_path: Path) -> None:
    _touch(tmp_path / "a.pdf")
    _touch(tmp_path / "out" / "markdown" / "stray.pdf")
    assert [s.rel for s in discover(tmp_path, ExportOptions(), skip=tmp_path / "out")] == ["a.pdf"]


def test_lock_refuses_second_holder_and_names_it(tmp_path: Path) -> None:
    with OutputLock(tmp_path):
        with pytest.raises(LockedError, match=f"pid {os.getpid()}"):
            OutputLock(tmp_path).acquire()
    assert not (tmp_path / LOCK_NAME).exists()  # removed on a clean exit
    with OutputLock(tmp_path):  # and free again
        pass


@pytest.mark.heavy
def test_lock_held_by_other_process_and_freed_by_kill9(tmp_path: Path) -> None:
    code = (
        "import sys, time; from citechunk.runner.lock import OutputLock; "
        f"l = OutputLock({str(tmp_path)!r}); l.acquire(); print('locked', flush=True); time.sleep(60)"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"locked"
        with pytest.raises(LockedError, match=f"pid {holder.pid}"):
            OutputLock(tmp_path).acquire()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert (tmp_path / LOCK_NAME).exists()  # stale file left by kill -9 ...
    with OutputLock(tmp_path):  # ... does not block the next run
        pass


def _entry(name: str, sha: str = "a" * 64) -> Entry:
    return Entry(
        name, 10, 123, sha, "fp", "parquet", "converted", (f"chunks/{name}.parquet",), 1, 2
    )


def test_manifest_journal_survives_torn_line_and_commits(tmp_path: Path) -> None:
    m = Manifest.load(tmp_path)
    m.put(_entry("a.pdf"))
    m.put(_entry("b.pdf"))
    m.drop("a.pdf")
    m.put(_entry("c.pdf"))
    with open(tmp_path / JOURNAL_NAME, "a", encoding="utf-8") as fh:
        fh.write('{"op": "put", "entry": {"source_file": "d.pd')  # kill -9 mid-append
    again = Manifest.load(tmp_path)
    assert sorted(again.entries) == ["b.pdf", "c.pdf"]
    again.commit()
    assert not (tmp_path / JOURNAL_NAME).exists()
    data = json.loads((tmp_path / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert list(data["entries"]) == ["b.pdf", "c.pdf"]
    first = (tmp_path / MANIFEST_NAME).read_bytes()
    Manifest.load(tmp_path).commit()
    assert (tmp_path / MANIFEST_NAME).read_bytes() == first
    assert Manifest.load(tmp_path).get("c.pdf") == _entry("c.pdf")


def test_manifest_unreadable_is_config_error(tmp_path: Path) -> None:
    (tmp_path / MANIFEST_NAME).write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="unreadable manifest"):
        Manifest.load(tmp_path)


def test_sweep_and_temp_cleanup_touch_only_output_folders(tmp_path: Path) -> None:
    keep = {"chunks/a-1.parquet", "markdown/a-1.md", "markdown/a-1.md.json"}
    temps = ["markdown/.a-1.md.x1y2.tmp", ".run.json.k3j4.tmp", ".manifest.json.z9.tmp"]
    for rel in [*keep, *temps, "chunks/gone-2.parquet", "mine.txt", ".mine.tmp"]:
        _touch(tmp_path / rel)
    assert outputs.remove_temp_files(tmp_path, ["markdown/b-3.md"]) == []
    assert outputs.remove_temp_files(tmp_path, ["markdown/a-1.md"]) == [temps[0]]
    assert outputs.remove_temp_files(tmp_path) == sorted(temps[1:])
    assert outputs.sweep(tmp_path, keep) == ["chunks/gone-2.parquet"]
    assert (tmp_path / "mine.txt").exists() and (tmp_path / ".mine.tmp").exists()
    assert not outputs.missing(tmp_path, keep)


def test_plan_decides_per_source(tmp_path: Path) -> None:
    from citechunk.conversion.base import sha256_file
    from citechunk.runner.plan import plan
    from citechunk.runner.work import planned_outputs

    src, out = tmp_path / "in", tmp_path / "out"
    names = ["same.pdf", "touched.pdf", "changed.pdf", "lost_output.pdf", "failed.pdf", "new.pdf"]
    for name in names:
        _touch(src / name, name.encode())
    m = Manifest(out, {})
    for name in names[:-1]:
        p = src / name
        st = p.stat()
        outs = planned_outputs(name, "parquet")
        for rel in outs:
            _touch(out / rel)
        status = "failed" if name == "failed.pdf" else "converted"
        m.entries[name] = Entry(
            name, st.st_size, st.st_mtime_ns, sha256_file(p), "fp", "parquet", status, outs
        )
    m.entries["gone.pdf"] = _entry("gone.pdf")
    t = src / "touched.pdf"
    os.utime(t, ns=(t.stat().st_atime_ns, t.stat().st_mtime_ns + 10**9))
    (src / "changed.pdf").write_bytes(b"changed!!!!")  # same size as before, new bytes
    os.utime(src / "changed.pdf", ns=(1, 1))
    (out / planned_outputs("lost_output.pdf", "parquet")[0]).unlink()
    sources = discover(src, ExportOptions())

    p = plan(sources, m, "fp", "parquet", full=False)
    assert sorted(s.rel for s in p.todo) == [
        "changed.pdf",
        "failed.pdf",
        "lost_output.pdf",
        "new.pdf",
    ]
    assert sorted(r.source_file for r in p.skipped) == ["same.pdf", "touched.pdf"]
    assert [e.source_file for e in p.touched] == ["touched.pdf"]
    assert p.touched[0].mtime_ns == t.stat().st_mtime_ns
    assert [e.source_file for e in p.vanished] == ["gone.pdf"]
    assert len(plan(sources, m, "other-fp", "parquet", full=False).todo) == len(names)
    assert len(plan(sources, m, "fp", "jsonl", full=False).todo) == len(names)
    assert len(plan(sources, m, "fp", "parquet", full=True).todo) == len(names)


def test_file_timeout_scales_with_pages_above_the_floor() -> None:
    run = RunOptions(timeout=600.0, timeout_per_page=2.0)
    assert file_timeout(0, run) == file_timeout(300, run) == 600.0
    assert file_timeout(1500, run) == 3000.0


def test_page_count_is_cheap_and_never_raises(tmp_path: Path, sample_pdfs: Path) -> None:
    import pymupdf

    pdf = sorted(sample_pdfs.glob("*.pdf"))[0]
    with pymupdf.open(pdf) as doc:
        assert page_count(str(pdf)) == doc.page_count > 0
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7 not really")
    assert page_count(str(bad)) == 0
    assert page_count(str(tmp_path / "missing.pdf")) == 0
    locked = tmp_path / "locked.pdf"
    with pymupdf.open(pdf) as doc:
        doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="u")
    assert page_count(str(locked)) == 0
    assert page_count(str(locked), "u") > 0
