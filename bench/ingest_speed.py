"""Ingest speed against its floor and a peer, side by side in one run (ratios, not seconds).

For one folder of PDFs (default ../shared/corpus/pdfs), `--rounds` alternating rounds of:

  raw text pass      every page's ``get_text("dict")`` in `--workers` processes: the floor, what
                     reading the text layer alone costs
  convert_batch      pymupdf4llm's own ``convert_batch(workers=N)`` (Markdown only, no chunks)
  ingest MODEL/MODE  ``citechunk.ingest(--full, workers=N)`` into a fresh OUT, default config
                     but ``convert.layout_model`` = MODEL (text+image, text, auto) and
                     ``convert.layout`` = MODE (always, auto): six variants (--only picks)

With ``--src NAME=PATH`` (repeatable) the ingest variants instead run once per code version: the
``citechunk ingest`` command in a child process whose ``PYTHONPATH`` is PATH (a ``src`` folder, e.g.
one exported from another commit), named "NAME: ingest MODEL/MODE", so that two versions are
measured side by side in one run, interleaved; ``--threads N`` adds "... threads=N" variants
(``--threads-per-worker N``) to weigh intra-op threads against workers.

Each variant keeps its fastest round (by wall time). Printed: wall seconds and CPU seconds (this
process and its reaped children: the workers), pages/s, both ratios to the raw text pass; then
per ingest variant the pages the layout model ran on and the seconds per stage (`run.json`
``stage_cpu_seconds``, summed over workers) as shares, so the table says where an ingest's time
goes. Wall time depends on the machine's load (printed from ``os.getloadavg``); CPU seconds
much less. Goal (issue: speed): ingest wall time <= 9x the raw text pass on the corpus.

Usage: .venv/bin/python bench/ingest_speed.py [PDF_DIR] [--workers 2] [--rounds 2]
           [--only "raw text pass,ingest text/auto"] [--src before=OLD/src --src after=src]
           [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pymupdf

from citechunk import ingest
from citechunk.config import load_config

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"


def _read_pages(path: str) -> int:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text("dict")
        return doc.page_count


def raw_text_pass(pdfs: list[Path], workers: int) -> dict[str, Any]:
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_read_pages, [str(p) for p in pdfs]))
    return {}


def convert_batch(pdfs: list[Path], workers: int) -> dict[str, Any]:
    import pymupdf4llm

    with tempfile.TemporaryDirectory() as out:
        pymupdf4llm.convert_batch([str(p) for p in pdfs], workers=workers, out_dir=out)
    return {}


def citechunk_ingest(model: str, mode: str) -> Callable[[list[Path], int], dict[str, Any]]:
    """The ingest variant with ``layout_model`` = `model` and ``layout`` = `mode`."""

    def run(pdfs: list[Path], workers: int) -> dict[str, Any]:
        folder = pdfs[0].parent
        names = [p.name for p in pdfs]
        config = load_config(
            None,
            {
                "run": {"workers": workers, "full": True},
                "export": {"include": names},
                "convert": {"layout_model": model, "layout": mode},
            },
        )
        with tempfile.TemporaryDirectory() as out:
            report = ingest(folder, Path(out) / "out", config)
            data = json.loads((Path(out) / "out" / "run.json").read_text(encoding="utf-8"))
        if not report.ok:
            raise SystemExit(f"ingest failed: {[f.source_file for f in report.failures]}")
        return {"stages": data["stage_cpu_seconds"], "model": data["layout_model"]}

    return run


def cli_ingest(
    src: Path, model: str, mode: str, threads: int = 1
) -> Callable[[list[Path], int], dict[str, Any]]:
    """The ingest variant run as ``citechunk ingest`` in a child process importing `src`."""

    def run(pdfs: list[Path], workers: int) -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            command = [sys.executable, "-m", "citechunk", "ingest", str(pdfs[0].parent)]
            command += ["-o", str(out), "--full", "--workers", str(workers)]
            command += ["--layout-model", model, "--layout", mode]
            command += ["--threads-per-worker", str(threads)]
            for pdf in pdfs:
                command += ["--include", pdf.name]
            env = {**os.environ, "PYTHONPATH": str(src.resolve())}
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(f"ingest failed ({src}): {done.stderr[-2000:]}")
            data = json.loads((out / "run.json").read_text(encoding="utf-8"))
        return {"stages": data["stage_cpu_seconds"], "model": data["layout_model"]}

    return run


def versions(
    sources: list[str], threads: int
) -> dict[str, Callable[[list[Path], int], dict[str, Any]]]:
    """Ingest variants per code version NAME=PATH (and per thread count when `threads` > 1)."""
    out: dict[str, Callable[[list[Path], int], dict[str, Any]]] = {}
    for source in sources:
        name, _, path = source.partition("=")
        for model in ("text+image", "auto"):
            for mode in ("always", "auto"):
                out[f"{name}: ingest {model}/{mode}"] = cli_ingest(Path(path), model, mode)
                if threads > 1:
                    out[f"{name}: ingest {model}/{mode} threads={threads}"] = cli_ingest(
                        Path(path), model, mode, threads
                    )
    return out


VARIANTS: dict[str, Callable[[list[Path], int], dict[str, Any]]] = {
    "raw text pass": raw_text_pass,
    "convert_batch": convert_batch,
    **{
        f"ingest {model}/{mode}": citechunk_ingest(model, mode)
        for model in ("text+image", "text", "auto")
        for mode in ("always", "auto")
    },
}


def _cpu() -> float:
    """CPU seconds of this process and its reaped children so far."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated variant names")
    parser.add_argument("--src", action="append", default=[], help="NAME=PATH of a src folder")
    parser.add_argument("--threads", type=int, default=1, help="also threads-per-worker N")
    args = parser.parse_args()
    if args.src:
        VARIANTS.update(versions(args.src, args.threads))
        for name in [v for v in VARIANTS if v.startswith("ingest ")]:
            del VARIANTS[name]
    chosen = [v for v in VARIANTS if not args.only or v in args.only.split(",")]
    pdfs = sorted(args.folder.glob("*.pdf"))
    pages = sum(_read_pages(str(p)) for p in pdfs)
    best: dict[str, tuple[float, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    loads = []
    for r in range(args.rounds):
        order = chosen[r % len(chosen) :] + chosen[: r % len(chosen)]
        for name in order:
            start, cpu = time.perf_counter(), _cpu()
            got = VARIANTS[name](pdfs, args.workers)
            secs, cpu_secs = time.perf_counter() - start, _cpu() - cpu
            loads.append(os.getloadavg()[0])
            if secs < best.get(name, (float("inf"), 0.0))[0]:
                best[name] = (secs, cpu_secs)
                details[name] = got
    floor, cpu_floor = best.get("raw text pass", (0.0, 0.0))
    print(
        f"{len(pdfs)} PDFs, {pages} pages, {args.workers} workers, best of {args.rounds}, "
        f"load average (1 min) {min(loads):.1f}-{max(loads):.1f}\n"
    )
    print(
        "| variant | wall s | CPU s | pages/s | wall x raw text pass | CPU x raw text pass |"
        "\n|---|---|---|---|---|---|"
    )
    for name, (secs, cpu_secs) in best.items():
        ratio = f"{secs / floor:.1f}" if floor else "-"
        cpu_ratio = f"{cpu_secs / cpu_floor:.1f}" if cpu_floor else "-"
        print(
            f"| {name} | {secs:.1f} | {cpu_secs:.1f} | {pages / secs:.1f} | {ratio} | {cpu_ratio} |"
        )
    _stage_table({n: g for n, g in details.items() if "stages" in g})


def _stage_table(details: dict[str, dict[str, Any]]) -> None:
    """Per ingest variant (columns): the pages the layout model ran on, then each stage's CPU
    seconds (all workers) and share."""
    if not details:
        return
    names = list(details)
    print("\n| | " + " | ".join(names) + " |\n|---|" + "---|" * len(names))
    model = [details[n]["model"] for n in names]
    print(
        "| layout model ran on | "
        + " | ".join(f"{m['pages']}/{m['of_pages']} pages ({m['share']:.0%})" for m in model)
        + " |"
    )
    stages = [s for s in details[names[0]]["stages"]]
    for stage in stages:
        cells = []
        for n in names:
            secs = details[n]["stages"].get(stage, 0.0)
            total = sum(details[n]["stages"].values()) or 1.0
            cells.append(f"{secs:.1f} s ({secs / total:.0%})")
        print(f"| {stage} CPU | " + " | ".join(cells) + " |")
    totals = [sum(details[n]["stages"].values()) for n in names]
    print("| all stages CPU | " + " | ".join(f"{t:.1f} s" for t in totals) + " |")


if __name__ == "__main__":
    main()
