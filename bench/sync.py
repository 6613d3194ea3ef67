"""`citechunk sync` cost on a real ingest output, into LanceDB in a temporary folder.

Measured (wall clock):
  full          the first sync of OUT into an empty table (embedding every chunk with the
                shipped all-MiniLM-L6-v2): seconds, chunks/s, share of the time spent embedding
  no change     a second sync as `citechunk sync` in a fresh process (imports, listing the
                store, nothing to write): seconds and its ratio to the full sync (goal < 5%)
  one document  one PDF's bytes change (a trailing PDF comment: same text, new sha256, so every
                chunk id of that document changes), `ingest` reconverts it, then sync: rows
                written and deleted (goal: that document's chunks only)

Usage: .venv/bin/python bench/sync.py [--out /work/base/corpus] [--input DIR]
OUT is copied (never written); INPUT defaults to the input recorded in OUT/run.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from citechunk import ingest, load_config, read_chunks
from citechunk.stores import sync

BASE = Path("/work/base/corpus")


def one_document_change(src: Path, out: Path, uri: str) -> tuple[str, int, int, int]:
    """Change the smallest PDF's bytes, re-ingest, sync: (file, its chunks, inserted, deleted)."""
    pdf = min(src.rglob("*.pdf"), key=lambda p: p.stat().st_size)
    with pdf.open("ab") as f:
        f.write(b"\n% changed\n")
    fmt = json.loads((out / "run.json").read_text())["config"]["export"]["format"]
    report = ingest(src, out, load_config(None, {"export": {"format": fmt}, "run": {"workers": 1}}))
    assert report.counts["converted"] == 1, report.counts
    name = pdf.relative_to(src).as_posix()
    chunks = sum(1 for s in read_chunks(out)["source_file"].to_pylist() if s == name)
    synced = sync(out, uri)
    return name, chunks, synced.inserted, synced.deleted


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, default=BASE)
    ap.add_argument("--input", type=Path, default=None)
    args = ap.parse_args()
    src_dir = args.input or Path(json.loads((args.out / "run.json").read_text())["input"])
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        out = shutil.copytree(args.out, Path(tmp) / "out")
        src = shutil.copytree(src_dir, Path(tmp) / "in")
        uri = f"lancedb:{Path(tmp) / 'lance'}"
        full = sync(out, uri)
        assert full.exit_code == 0 and full.verified == full.rows
        cmd = [sys.executable, "-m", "citechunk", "sync", str(out), "--to", uri]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        again = time.perf_counter() - start
        name, chunks, inserted, deleted = one_document_change(src, out, uri)
    print(f"OUT {args.out}: {full.documents} documents, {full.rows} chunks")
    print("| measure | value |\n|---|---|")
    print(
        f"| full sync | {full.seconds:.1f} s, {full.rows / full.seconds:.1f} chunks/s, "
        f"{full.embed_seconds / full.seconds:.0%} embedding |"
    )
    print(
        f"| no-change re-sync (fresh process) | {again:.2f} s = {again / full.seconds:.1%} of full |"
    )
    print(f"| one document changed ({name}, {chunks} chunks) | {inserted} rows in, {deleted} out |")


if __name__ == "__main__":
    main()
