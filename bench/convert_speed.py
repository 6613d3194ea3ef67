"""Conversion speed, pages per second, bare pymupdf4llm vs citechunk backends, in one run.

Every variant converts every PDF of ../shared/corpus/pdfs (or the folder given) `--rounds`
times, interleaved (file by file, variants in rotating order) so that load from other
processes hits all variants alike; each (file, variant) keeps its fastest round. Columns:

  bare pymupdf4llm        pymupdf4llm.to_markdown(path, page_chunks=True, use_ocr=False) -- the
                          layout-model path citechunk's default uses, nothing else
  pymupdf                 citechunk default: layout, header/footer removal, clean-up, outline repair
  pymupdf no-repair       the same without outline repair
  pymupdf no-layout       use_layout = false (pymupdf4llm's classic path)
  bare pymupdf4llm no-layout  pymupdf_rag.to_markdown(page_chunks=True), for that mode's ratio
  docling <mode>          when installed (--docling to include; it is much slower)

Target: `pymupdf` (outline repair included) within 5% of bare pymupdf4llm (ratio >= 0.95).

Usage: .venv/bin/python bench/convert_speed.py [PDF_DIR] [--rounds 2] [--docling]
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

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdfs"
TARGET = 0.95


def bare(path: Path) -> object:
    import pymupdf4llm

    return pymupdf4llm.to_markdown(str(path), page_chunks=True, use_ocr=False)


def bare_no_layout(path: Path) -> object:
    from pymupdf4llm.helpers import pymupdf_rag

    return pymupdf_rag.to_markdown(str(path), page_chunks=True, show_progress=False)


def citechunk_variant(**options: object) -> Callable[[Path], object]:
    def run(path: Path) -> object:
        return convert(path, ConvertOptions(**options))  # type: ignore[arg-type]

    return run


def variants(with_docling: bool) -> dict[str, Callable[[Path], object]]:
    out: dict[str, Callable[[Path], object]] = {
        "bare pymupdf4llm": bare,
        "pymupdf": citechunk_variant(backend="pymupdf"),
        "pymupdf no-repair": citechunk_variant(backend="pymupdf", outline_repair=False),
        "bare pymupdf4llm no-layout": bare_no_layout,
        "pymupdf no-layout": citechunk_variant(backend="pymupdf", use_layout=False),
    }
    usable = {info.name for info in describe() if info.available}
    if with_docling and "docling" in usable:
        for mode in ("offline", "model"):
            out[f"docling {mode}"] = citechunk_variant(backend="docling", docling_layout=mode)
    return out


def measure(
    pdfs: list[Path], runs: dict[str, Callable[[Path], object]], rounds: int
) -> tuple[dict[str, float], dict[str, str]]:
    """Total of per-file best times per variant; variants that fail are reported, not timed."""
    best: dict[tuple[str, str], float] = {}
    failed: dict[str, str] = {}
    names = list(runs)
    for r in range(rounds):
        for i, path in enumerate(pdfs):
            k = (r + i) % len(names)
            for name in names[k:] + names[:k]:
                if name in failed:
                    continue
                start = time.perf_counter()
                try:
                    runs[name](path)
                except Exception as exc:  # noqa: BLE001 - a bench reports any failure and goes on
                    failed[name] = f"{path.name}: {type(exc).__name__}: {exc}"
                    continue
                took = time.perf_counter() - start
                key = (name, path.name)
                best[key] = min(best.get(key, took), took)
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    totals = {n: sum(t for (v, _), t in best.items() if v == n) for n in names if n not in failed}
    return totals, failed


def main(folder: Path, rounds: int, with_docling: bool) -> int:
    pdfs = sorted(folder.glob("*.pdf"))
    if not pdfs:
        print(f"no PDFs in {folder}")
        return 1
    pages = 0
    for path in pdfs:
        with pymupdf.open(path) as doc:
            pages += doc.page_count
    runs = variants(with_docling)
    runs["pymupdf"](pdfs[0])  # load the layout model once before timing
    totals, failed = measure(pdfs, runs, rounds)
    print(f"{len(pdfs)} PDFs, {pages} pages, best of {rounds} interleaved rounds per file\n")
    print(f"{'variant':28} {'seconds':>8} {'pages/s':>8} {'speed vs bare':>20}")
    for name, seconds in totals.items():
        base = "bare pymupdf4llm no-layout" if name.endswith("no-layout") else "bare pymupdf4llm"
        shown = f"{totals[base] / seconds:.3f}" if base in totals else "-"
        print(f"{name:28} {seconds:8.1f} {pages / seconds:8.2f} {shown:>20}")
    for name, reason in failed.items():
        print(f"{name:28} failed: {reason}")
    if "pymupdf" in totals and "bare pymupdf4llm" in totals:
        ratio = totals["bare pymupdf4llm"] / totals["pymupdf"]
        verdict = "MET" if ratio >= TARGET else "NOT MET"
        print(
            f"\npymupdf backend speed / bare pymupdf4llm = {ratio:.3f} (target >= {TARGET}): {verdict}"
        )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--docling", action="store_true", help="also time the docling backend")
    args = parser.parse_args()
    sys.exit(main(args.folder, args.rounds, args.docling))
