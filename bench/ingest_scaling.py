"""Side-by-side timings of `citechunk ingest` on the real corpus, printed as ratios.

Every measurement is a fresh process timed from the outside (wall clock), run in this one script:

1. bare      -- one process converting every PDF with the default backend (no chunking, no
               export, no workers): the floor ingest is compared against. Measured twice: with
               the libraries' own thread defaults (ONNX Runtime: a spinning thread per core),
               and with the one-thread limit every ingest worker applies (runner/threads.py),
               which isolates citechunk's own overhead.
2. ingest w1 -- `citechunk ingest --workers 1` into an empty folder.   target: <= 5% slower
3. ingest w2 -- `citechunk ingest --workers 2` into an empty folder.   target: >= 1.8x faster
4. rerun     -- `citechunk ingest --workers 2` again, nothing changed.  target: <= 2% of (3)
5. memory    -- peak RSS per worker (from run.json) and of the whole process tree (sampled),
               for the corpus and the corpus copied N times (symlinks): should stay flat.
               Runs with --pages (default "1-3") to bound its time; pass "" for all pages.

Usage: .venv/bin/python bench/ingest_scaling.py [--corpus DIR] [--copies 10] [--pages 1-3]
The machine should be otherwise idle: other processes on the cores distort every ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "pdfs"
CLI = [sys.executable, "-m", "citechunk"]
BARE = """
import sys
from pathlib import Path
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
if sys.argv[3] == "limited":
    from citechunk.runner.threads import limit_threads
    limit_threads(1)
opts = ConvertOptions(pages=sys.argv[2])
for pdf in sorted(p for p in Path(sys.argv[1]).rglob("*") if p.suffix.lower() == ".pdf"):
    convert(pdf, opts)
"""


@dataclass
class Measured:
    seconds: float
    cpu_seconds: float  # user+sys of the process and every child it waited for
    peak_total_mb: float  # sampled RSS of the process and all its children, summed
    peak_child_mb: float  # largest sampled RSS of any single child process
    code: int


def measure(cmd: list[str]) -> Measured:
    """Run `cmd`, sampling the RSS of its process tree every 50 ms."""
    start, cpu0 = time.perf_counter(), _children_cpu()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peaks = [0.0, 0.0]
    done = threading.Event()

    def sample() -> None:
        root = psutil.Process(proc.pid)
        while not done.is_set():
            try:
                kids = root.children(recursive=True)
                rss = [k.memory_info().rss for k in kids]
                total = root.memory_info().rss + sum(rss)
            except psutil.Error:
                continue
            peaks[0] = max(peaks[0], total / 2**20)
            peaks[1] = max([peaks[1]] + [r / 2**20 for r in rss])
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    done.set()
    sampler.join()
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu0
    if proc.returncode not in (0, 1):
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err.decode()[-2000:]}")
    return Measured(seconds, cpu, peaks[0], peaks[1], proc.returncode)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ingest(src: Path, out: Path, workers: int, pages: str = "") -> tuple[Measured, dict]:
    """`citechunk ingest` in a fresh process; its measurement and its run.json."""
    options: list[str] = []
    if pages:
        config = out.parent / f"{out.name}.toml"
        config.write_text(f'[convert]\npages = "{pages}"\n', encoding="utf-8")
        options = ["--config", str(config)]
    cmd = [*CLI, *options, "ingest", str(src), "--out", str(out), "--workers", str(workers)]
    m = measure(cmd)
    return m, json.loads((out / "run.json").read_text(encoding="utf-8"))


def copies(src: Path, n: int, dest: Path) -> Path:
    for i in range(n):
        folder = dest / f"copy{i:02d}"
        folder.mkdir(parents=True)
        for pdf in sorted(src.glob("*.pdf")):
            os.symlink(pdf, folder / pdf.name)
    return dest


def tree(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name != "run.json"
    }


def memory_row(label: str, m: Measured, report: dict) -> str:
    workers = report["memory"]["workers"]
    per_worker = max(w["peak_rss_mb"] for w in workers) if workers else 0.0
    return (
        f"{label:<28} {report['counts']['files']:>5} files  {report['pages']:>5} pages  "
        f"worker peak {per_worker:7.1f} MiB ({len(workers)} worker processes)  "
        f"parent {report['memory']['parent_peak_rss_mb']:6.1f} MiB  tree peak {m.peak_total_mb:7.1f} MiB"
    )


def balance(report: dict, corpus: Path, workers: int = 2) -> tuple[float, float]:
    """(total, makespan) seconds when a --workers 1 run's per-file times are dispatched largest
    file first to `workers` workers, as `LocalExecutor` does: the speed-up the schedule allows
    on `workers` free cores, whatever else the machine is doing right now."""
    times = {f["source_file"]: f["seconds"] for f in report["files"]}
    order = sorted(times, key=lambda n: (-(corpus / n).stat().st_size, n))
    finish = [0.0] * workers
    for name in order:
        i = finish.index(min(finish))
        finish[i] += times[name]
    return sum(times.values()), max(finish)


def scaling_only(corpus: Path) -> None:
    """--workers 2, then 1, then 2 and 1 again (drift in the machine's load shows as spread)."""
    with tempfile.TemporaryDirectory(prefix="citechunk-bench-") as tmp:
        t = Path(tmp)
        results = [(w, *ingest(corpus, t / f"r{i}-w{w}", w)) for i, w in enumerate((2, 1, 2, 1))]
    runs = [(w, m) for w, m, _ in results]
    for w, m in runs:
        print(f"ingest --workers {w}: wall {m.seconds:8.2f} s  cpu {m.cpu_seconds:8.2f} s")
    best = {w: min(m.seconds for v, m in runs if v == w) for w in (1, 2)}
    print(
        f"scaling   ingest w2 vs w1 (best of 2 each): {best[1] / best[2]:5.2f} x   (target >= 1.8 x)"
    )
    total, makespan = balance(results[-1][2], corpus)
    print(
        f"schedule  bound on 2 free cores (last w1 run's per-file times): {total / makespan:.2f} x"
    )
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--copies", type=int, default=10)
    ap.add_argument("--pages", default="1-3", help='pages for the memory runs ("" = all)')
    ap.add_argument(
        "--scaling-only", action="store_true", help="only --workers 1 vs 2 (for a quiet moment)"
    )
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    pdfs = sorted(corpus.glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs in {corpus}")
    load = os.getloadavg()
    print(
        f"corpus: {corpus} ({len(pdfs)} PDFs, {sum(p.stat().st_size for p in pdfs) / 2**20:.1f} MiB)"
    )
    print(
        f"cores: {os.cpu_count()}  load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    if args.scaling_only:
        scaling_only(corpus)
        return
    with tempfile.TemporaryDirectory(prefix="citechunk-bench-") as tmp:
        t = Path(tmp)
        bare = measure([sys.executable, "-c", BARE, str(corpus), "", "default"])
        bare1 = measure([sys.executable, "-c", BARE, str(corpus), "", "limited"])
        w1, r1 = ingest(corpus, t / "w1", 1)
        w2, r2 = ingest(corpus, t / "w2", 2)
        rerun, rr = ingest(corpus, t / "w2", 2)
        identical = tree(t / "w1") == tree(t / "w2")
        m1, mr1 = ingest(corpus, t / "m1", 2, args.pages)
        big = copies(corpus, args.copies, t / "many")
        m10, mr10 = ingest(big, t / "m10", 2, args.pages)

    print()
    print(f"{'run':<28} {'wall s':>8} {'cpu s':>8}  {'files conv/skip/fail':>22}  {'chunks':>7}")
    for label, m, r in [
        ("bare, library threads", bare, None),
        ("bare, 1 thread (as workers)", bare1, None),
        ("ingest --workers 1", w1, r1),
        ("ingest --workers 2", w2, r2),
        ("ingest rerun, unchanged", rerun, rr),
    ]:
        c = r["counts"] if r else None
        files = f"{c['converted']}/{c['skipped']}/{c['failed']}" if c else "-"
        chunks = str(r["chunks"]) if r else "-"
        print(f"{label:<28} {m.seconds:8.2f} {m.cpu_seconds:8.2f}  {files:>22}  {chunks:>7}")
    print()
    overhead = (w1.seconds / bare1.seconds - 1) * 100
    cpu_overhead = (w1.cpu_seconds / bare1.cpu_seconds - 1) * 100
    vs_default = (w1.seconds / bare.seconds - 1) * 100
    cpu_vs_default = (w1.cpu_seconds / bare.cpu_seconds - 1) * 100
    speedup = w1.seconds / w2.seconds
    rerun_pct = rerun.seconds / w2.seconds * 100
    print(f"overhead  ingest w1 vs bare, 1 thread:  {overhead:+6.1f} %   (target <= +5 %)")
    print(
        f"          same, in CPU seconds:         {cpu_overhead:+6.1f} %   (insensitive to other load)"
    )
    print(
        f"          vs bare, library threads:     {vs_default:+6.1f} % wall, "
        f"{cpu_vs_default:+6.1f} % CPU   (one core against all of them)"
    )
    print(
        f"          ingest w2 vs bare, library threads: {bare.seconds / w2.seconds:5.2f} x faster"
    )
    print(f"scaling   ingest w2 vs w1:              {speedup:6.2f} x   (target >= 1.8 x)")
    total, makespan = balance(r1, corpus)
    print(
        f"          schedule bound on 2 free cores: {total / makespan:6.2f} x   "
        f"(w1 per-file times, largest first: {makespan:.0f} s of {total:.0f} s)"
    )
    print(
        f"rerun     unchanged vs first (w2):      {rerun_pct:6.2f} %   (target <= 2 %; in-process {rr['seconds']:.2f} s)"
    )
    print(
        f"w1 and w2 outputs byte-identical:       {identical}   (False if the code changed between runs)"
    )
    print()
    print(f"memory (pages {args.pages or 'all'}; 2 workers):")
    print(memory_row("corpus", m1, mr1))
    print(memory_row(f"corpus x{args.copies}", m10, mr10))
    print(memory_row("full corpus, --workers 1", w1, r1))
    print(memory_row("full corpus, --workers 2", w2, r2))
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
