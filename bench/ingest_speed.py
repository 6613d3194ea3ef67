"""Ingest speed against its floor and a peer, side by side in one run (ratios, not seconds).

For one folder of PDFs (default ../shared/corpus/pdfs), `--rounds` alternating rounds of:

  raw text pass      every page's ``get_text("dict")`` in `--workers` processes: the floor, what
                     reading the text layer alone costs
  convert_batch      pymupdf4llm's own ``convert_batch(workers=N)`` (Markdown only, no chunks)
  citechunk ingest   ``citechunk.ingest(--full, workers=N)`` into a fresh OUT, default config

Each variant keeps its fastest round. Printed: pages/s, wall-time ratio to the raw text pass,
and citechunk's seconds per stage (`run.json` ``stage_seconds``, summed over workers) as shares,
so the table says where an ingest's time goes. Goal (issue: speed): citechunk <= 9x the raw
text pass.

Usage: .venv/bin/python bench/ingest_speed.py [PDF_DIR] [--workers 2] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pymupdf

from citechunk import ingest
from citechunk.config import load_config

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"


def _read_pages(path: str) -> int:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text("dict")
        return doc.page_count


def raw_text_pass(pdfs: list[Path], workers: int) -> dict[str, float]:
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_read_pages, [str(p) for p in pdfs]))
    return {}


def convert_batch(pdfs: list[Path], workers: int) -> dict[str, float]:
    import pymupdf4llm

    with tempfile.TemporaryDirectory() as out:
        pymupdf4llm.convert_batch([str(p) for p in pdfs], workers=workers, out_dir=out)
    return {}


def citechunk_ingest(pdfs: list[Path], workers: int) -> dict[str, float]:
    folder = pdfs[0].parent
    names = [p.name for p in pdfs]
    config = load_config(
        None, {"run": {"workers": workers, "full": True}, "export": {"include": names}}
    )
    with tempfile.TemporaryDirectory() as out:
        report = ingest(folder, Path(out) / "out", config)
        data = json.loads((Path(out) / "out" / "run.json").read_text(encoding="utf-8"))
    if not report.ok:
        raise SystemExit(f"ingest failed: {[f.source_file for f in report.failures]}")
    return dict(data["stage_seconds"])


VARIANTS: dict[str, Callable[[list[Path], int], dict[str, float]]] = {
    "raw text pass": raw_text_pass,
    "convert_batch": convert_batch,
    "citechunk ingest": citechunk_ingest,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    pdfs = sorted(args.folder.glob("*.pdf"))
    pages = sum(_read_pages(str(p)) for p in pdfs)
    best: dict[str, float] = {}
    stages: dict[str, float] = {}
    for r in range(args.rounds):
        order = list(VARIANTS)[r % len(VARIANTS) :] + list(VARIANTS)[: r % len(VARIANTS)]
        for name in order:
            start = time.perf_counter()
            got = VARIANTS[name](pdfs, args.workers)
            secs = time.perf_counter() - start
            if secs < best.get(name, float("inf")):
                best[name], stages = secs, (got or stages)
    floor = best["raw text pass"]
    print(f"{len(pdfs)} PDFs, {pages} pages, {args.workers} workers, best of {args.rounds}\n")
    print("| variant | seconds | pages/s | x raw text pass |\n|---|---|---|---|")
    for name, secs in best.items():
        print(f"| {name} | {secs:.1f} | {pages / secs:.1f} | {secs / floor:.1f} |")
    total = sum(stages.values()) or 1.0
    print("\n| citechunk stage | seconds (all workers) | share |\n|---|---|---|")
    for name, secs in stages.items():
        print(f"| {name} | {secs:.1f} | {secs / total:.0%} |")


if __name__ == "__main__":
    main()
