"""Ray executor overhead on one machine: the same corpus slice with the local executor and with
Ray, in one run, side by side.

Measured (wall clock, each run into a fresh OUT, so every file is converted):
  local            `ingest(..., executor="local")`: spawn workers, convert, write, report
  ray start        `ray.init` of a private local instance (paid once per `ingest` call)
  ray run          `ingest(..., executor="ray")` inside the started instance
  ray stop         `ray.shutdown` and removal of its temporary folder
Printed: each time, ray run / local, (start + run + stop) / local, Ray's fixed cost and its
cost per file, and whether the chunk and Markdown files are byte-identical.

Usage: .venv/bin/python bench/ray_overhead.py [--files 8] [--workers 2] [--corpus DIR] [--ray-first]
The slice is the first N PDFs of ../shared/corpus/pdfs by name (all 16 with --files 0).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import tempfile
import time
from pathlib import Path

from citechunk.config import Config, load_config
from citechunk.runner import RunReport, ingest
from citechunk.runner.ray_executor import ray_session

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"


def source_digest() -> str:
    """A digest of the imported citechunk sources: workers import them afresh, so an edit
    during the benchmark would make the two executors run different code."""
    import hashlib

    import citechunk

    h = hashlib.sha256()
    for path in sorted(Path(citechunk.__file__).parent.rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


def configure(executor: str, workers: int) -> Config:
    cfg = load_config(None, {"run": {"workers": workers}})
    return dataclasses.replace(cfg, run=dataclasses.replace(cfg.run, executor=executor))


def outputs(out: Path, report: RunReport) -> dict[str, bytes]:
    return {rel: (out / rel).read_bytes() for f in report.files for rel in f.outputs}


def timed_ingest(src: Path, out: Path, cfg: Config) -> tuple[float, RunReport]:
    start = time.perf_counter()
    report = ingest(src, out, cfg)
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=8, help="PDFs in the slice (0 = all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--ray-first", action="store_true", help="run Ray before the local pool")
    args = parser.parse_args()
    pdfs = sorted(args.corpus.glob("*.pdf"))
    pdfs = pdfs[: args.files] if args.files else pdfs
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.corpus}")

    digest = source_digest()
    with tempfile.TemporaryDirectory(prefix="citechunk-bench-ray-") as tmp_name:
        tmp = Path(tmp_name)
        src = tmp / "in"
        src.mkdir()
        for pdf in pdfs:
            shutil.copy(pdf, src / pdf.name)
        mb = sum(p.stat().st_size for p in pdfs) / 1e6

        if not args.ray_first:
            local_s, local = timed_ingest(src, tmp / "local", configure("local", args.workers))
        with ray_session("", num_cpus=args.workers) as session:
            run_s, ray = timed_ingest(src, tmp / "ray", configure("ray", args.workers))
            stop_at = time.perf_counter()
        stop_s = time.perf_counter() - stop_at
        start_s = session.started_seconds
        if args.ray_first:
            local_s, local = timed_ingest(src, tmp / "local", configure("local", args.workers))
        ray_files, local_files = outputs(tmp / "ray", ray), outputs(tmp / "local", local)
        differ = sorted(
            k
            for k in ray_files.keys() | local_files.keys()
            if ray_files.get(k) != local_files.get(k)
        )

    n = len(pdfs)
    pages = sum(f.pages for f in local.files)
    total = start_s + run_s + stop_s
    print(
        f"slice: {n} PDFs, {pages} pages, {mb:.1f} MB; {args.workers} workers; {os.cpu_count()} CPUs"
    )
    print(
        f"machine load average (1/5/15 min) at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"order: {'ray, then local' if args.ray_first else 'local, then ray'}")
    print(f"converted: local {local.count('converted')}/{n}, ray {ray.count('converted')}/{n}")
    print(f"local executor         {local_s:8.2f} s  ({local_s / n:.2f} s/file)")
    print(f"ray start (ray.init)   {start_s:8.2f} s")
    print(f"ray run                {run_s:8.2f} s  ({run_s / n:.2f} s/file)")
    print(f"ray stop (shutdown)    {stop_s:8.2f} s")
    print(f"ray total              {total:8.2f} s")
    work_local = sum(f.seconds for f in local.files)
    work_ray = sum(f.seconds for f in ray.files)
    print(f"per-file work, summed  local {work_local:8.2f} s   ray {work_ray:8.2f} s")
    print(f"ratio ray run / local          {run_s / local_s:6.2f}x")
    print(f"ratio ray total / local        {total / local_s:6.2f}x")
    print(f"ray fixed cost (start+stop)    {start_s + stop_s:6.2f} s per ingest call")
    print(f"ray extra per file (run-local) {(run_s - local_s) / n:+6.2f} s")
    print(f"chunk + Markdown files byte-identical: {not differ} ({len(local_files)} files)")
    for rel in differ:
        print(f"  differs: {rel}")
    if source_digest() != digest:
        print("WARNING: citechunk's sources changed during the run; rerun from a frozen copy")


if __name__ == "__main__":
    main()
