"""Heading fidelity against the PDF outline, bare pymupdf4llm vs citechunk backends, one run.

For every PDF with an outline (bookmarks) in ../shared/corpus/pdfs (or the folder given):
  found       share of outline entries that appear, in order, as a Markdown heading on their
              page (+-1) -- `citechunk.conversion.outline.heading_fidelity`
  level order share of consecutive found entries whose heading-level change (up/same/down)
              matches the outline's
Columns: bare pymupdf4llm.to_markdown (layout model on, OCR off, page markers added so pages
can be checked), citechunk `pymupdf` with and without outline repair, and `docling` (each
layout mode) when it is installed. Totals are pooled over all entries / pairs.
Target for the default backend: found >= 0.99, level order >= 0.98.

Usage: .venv/bin/python bench/heading_fidelity.py [PDF_DIR] [--only "pymupdf,bare pymupdf4llm"]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion import convert, describe
from citechunk.conversion.outline import Fidelity, from_toc, heading_fidelity
from citechunk.errors import CitechunkError
from citechunk.markers import render_pages

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"
FOUND_TARGET, ORDER_TARGET = 0.99, 0.98


def bare(path: Path) -> str:
    """pymupdf4llm as a user would call it, plus page markers for the page check."""
    import pymupdf4llm

    chunks = pymupdf4llm.to_markdown(str(path), page_chunks=True, use_ocr=False)
    return render_pages((c["metadata"]["page_number"], c["text"]) for c in chunks)


def citechunk_variant(**options: object) -> Callable[[Path], str]:
    def run(path: Path) -> str:
        return convert(path, ConvertOptions(**options)).markdown  # type: ignore[arg-type]

    return run


def variants() -> dict[str, Callable[[Path], str]]:
    out: dict[str, Callable[[Path], str]] = {"bare pymupdf4llm": bare}
    usable = {info.name for info in describe() if info.available}
    if "pymupdf" in usable:
        out["pymupdf"] = citechunk_variant(backend="pymupdf")
        out["pymupdf no-repair"] = citechunk_variant(backend="pymupdf", outline_repair=False)
    if "docling" in usable:
        for mode in ("offline", "model"):
            out[f"docling {mode}"] = citechunk_variant(backend="docling", docling_layout=mode)
    return out


def main(folder: Path, only: set[str]) -> int:
    pdfs = []
    for path in sorted(folder.glob("*.pdf")):
        with pymupdf.open(path) as doc:
            outline = from_toc(doc.get_toc(simple=True))
        if outline:
            pdfs.append((path, outline))
    if not pdfs:
        print(f"no PDFs with an outline in {folder}")
        return 1
    runs = {name: run for name, run in variants().items() if not only or name in only}
    totals: dict[str, list[Fidelity]] = {name: [] for name in runs}
    seconds: dict[str, float] = dict.fromkeys(runs, 0.0)
    skipped: dict[str, str] = {}
    print(f"{'file':34} {'entries':>7}  " + "  ".join(f"{n:>22}" for n in runs))
    for path, outline in pdfs:
        cells = []
        for name, run in runs.items():
            if name in skipped:
                cells.append(f"{'n/a':>22}")
                continue
            start = time.perf_counter()
            try:
                fid = heading_fidelity(run(path), outline)
            except CitechunkError as exc:
                skipped[name] = str(exc)
                cells.append(f"{'n/a':>22}")
                continue
            seconds[name] += time.perf_counter() - start
            totals[name].append(fid)
            cells.append(f"{fid.found_share:>10.3f} / {fid.order_share:<9.3f}")
        entries = len([e for e in outline if e.page > 0])
        print(f"{path.name:34} {entries:>7}  " + "  ".join(cells))
    print("\nfound / level order, pooled over all outline entries:")
    for name, fids in totals.items():
        if not fids:
            print(f"  {name:22} n/a: {skipped.get(name, 'not run')}")
            continue
        pooled = Fidelity(
            *(sum(getattr(f, k) for f in fids) for k in ("entries", "found", "pairs", "ordered"))
        )
        print(
            f"  {name:22} found {pooled.found_share:.3f} ({pooled.found}/{pooled.entries})  "
            f"level order {pooled.order_share:.3f} ({pooled.ordered}/{pooled.pairs})  "
            f"[{seconds[name]:.1f} s]"
        )
    if totals.get("pymupdf"):
        fids = totals["pymupdf"]
        found = sum(f.found for f in fids) / sum(f.entries for f in fids)
        order = sum(f.ordered for f in fids) / max(1, sum(f.pairs for f in fids))
        ok = found >= FOUND_TARGET and order >= ORDER_TARGET
        print(
            f"\ndefault backend target found >= {FOUND_TARGET}, level order >= {ORDER_TARGET}: "
            + ("MET" if ok else "NOT MET")
        )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--only", default="", help="comma-separated column names to run")
    args = parser.parse_args()
    sys.exit(main(args.folder, {n.strip() for n in args.only.split(",") if n.strip()}))
