"""Section-path fidelity, per PDF folder and per variant, side by side in one run.

For every PDF of each folder (default: ../shared/corpus/pdfs and ../shared/eval/dev2/pdfs):
  found       (PDFs with an outline) share of outline entries that appear, in order, as a
              Markdown heading on their page (+-1) -- `evaluation.headings.heading_fidelity`
  level order share of consecutive found entries whose heading-level change (up/same/down)
              matches the outline's
  siblings    (every PDF, no outline needed) share of numbered headings whose level equals
              their previous same-pattern sibling's ("Note 6" after "Note 5", "2.1" after
              "1.3") -- `evaluation.headings.numbered_siblings`
Variants: bare pymupdf4llm (layout model on, OCR off, page markers added), citechunk `pymupdf`
with and without outline repair, and `docling` (each layout mode) when installed; or, with
--markdown LABEL=OUT[:OUT...][,LABEL=...], the saved Markdown of `citechunk ingest` outputs
(one column per label).
Totals are pooled over entries / pairs per folder. Target for the default backend on each
folder: found >= 0.99, level order >= 0.98, siblings >= 0.99.

Usage: .venv/bin/python bench/heading_fidelity.py [FOLDER ...] [--only "pymupdf,docling offline"]
       .venv/bin/python bench/heading_fidelity.py FOLDER ... --markdown before=/tmp/a1:/tmp/a2,after=/tmp/b
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion import convert, describe, read_markdown
from citechunk.conversion.outline import OutlineEntry, from_toc
from citechunk.errors import CitechunkError
from citechunk.evaluation.headings import Fidelity, Siblings, heading_fidelity, numbered_siblings
from citechunk.markers import render_pages

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEFAULT_DIRS = (SHARED / "corpus" / "pdfs", SHARED / "eval" / "dev2" / "pdfs")
FOUND_TARGET, ORDER_TARGET, SIBLINGS_TARGET = 0.99, 0.98, 0.99
Variant = Callable[[Path], str]


def bare(path: Path) -> str:
    """pymupdf4llm as a user would call it, plus page markers for the page check."""
    import pymupdf4llm

    chunks = pymupdf4llm.to_markdown(str(path), page_chunks=True, use_ocr=False)
    return render_pages((c["metadata"]["page_number"], c["text"]) for c in chunks)


def citechunk_variant(**options: object) -> Variant:
    def run(path: Path) -> str:
        return convert(path, ConvertOptions(**options)).markdown  # type: ignore[arg-type]

    return run


def saved_variant(outs: list[Path]) -> Variant:
    """The Markdown an ingest saved for the PDF (OUT/markdown/<name>-<hex>.md) in one of `outs`."""

    def run(path: Path) -> str:
        found = sorted(md for out in outs for md in (out / "markdown").glob(f"{path.name}-*.md"))
        if not found:
            raise CitechunkError(f"no saved Markdown for {path.name} in {outs}")
        return read_markdown(found[0])

    return run


def variants(markdown: str) -> dict[str, Variant]:
    """Converting variants, or LABEL=OUT[:OUT...] groups of saved ingest outputs."""
    if markdown:
        groups = [g.split("=", 1) for g in markdown.split(",") if g]
        return {label: saved_variant([Path(o) for o in outs.split(":")]) for label, outs in groups}
    out: dict[str, Variant] = {"bare pymupdf4llm": bare}
    usable = {info.name for info in describe() if info.available}
    if "pymupdf" in usable:
        out["pymupdf"] = citechunk_variant(backend="pymupdf")
        out["pymupdf no-repair"] = citechunk_variant(backend="pymupdf", outline_repair=False)
    if "docling" in usable:
        for mode in ("offline", "model"):
            out[f"docling {mode}"] = citechunk_variant(backend="docling", docling_layout=mode)
    return out


@dataclass
class Totals:
    fidelity: list[Fidelity] = field(default_factory=list)
    siblings: list[Siblings] = field(default_factory=list)
    seconds: float = 0.0
    missing: list[str] = field(default_factory=list)

    def line(self) -> str:
        f = Fidelity(*(sum(getattr(x, k) for x in self.fidelity) for k in Fidelity.__annotations__))
        s = Siblings(sum(x.pairs for x in self.siblings), sum(x.same for x in self.siblings))
        ok = (
            f.found_share >= FOUND_TARGET
            and f.order_share >= ORDER_TARGET
            and s.share >= SIBLINGS_TARGET
        )
        return (
            f"found {f.found_share:.3f} ({f.found}/{f.entries})  "
            f"level order {f.order_share:.3f} ({f.ordered}/{f.pairs})  "
            f"siblings {s.share:.3f} ({s.same}/{s.pairs})  [{self.seconds:.1f} s]"
            + ("  target met" if ok and not self.missing else "")
            + (f"  ({len(self.missing)} files n/a)" if self.missing else "")
        )


def measure(path: Path, outline: list[OutlineEntry], run: Variant, totals: Totals) -> str:
    start = time.perf_counter()
    try:
        markdown = run(path)
    except CitechunkError as exc:
        totals.missing.append(f"{path.name}: {exc}")
        return f"{'n/a':>26}"
    totals.seconds += time.perf_counter() - start
    sib = numbered_siblings(markdown)
    totals.siblings.append(sib)
    cell = f"sib {sib.share:.2f}"
    if outline:
        fid = heading_fidelity(markdown, outline)
        totals.fidelity.append(fid)
        cell = f"{fid.found_share:.2f}/{fid.order_share:.2f} {cell}"
    return f"{cell:>26}"


def folder_report(folder: Path, runs: dict[str, Variant]) -> dict[str, Totals]:
    totals = {name: Totals() for name in runs}
    print(f"\n{folder}\n{'file':34} {'entries':>7}  " + "  ".join(f"{n:>26}" for n in runs))
    for path in sorted(folder.glob("*.pdf")):
        with pymupdf.open(path) as doc:
            outline = from_toc(doc.get_toc(simple=True))
        cells = [measure(path, outline, run, totals[name]) for name, run in runs.items()]
        print(f"{path.name[:34]:34} {len(outline):>7}  " + "  ".join(cells))
    print("pooled (found / level order over outline entries; siblings over numbered headings):")
    for name, t in totals.items():
        print(f"  {name:22} {t.line()}")
    return totals


def main(folders: list[Path], only: set[str], markdown: str) -> int:
    runs = {name: run for name, run in variants(markdown).items() if not only or name in only}
    for folder in folders:
        folder_report(folder, runs)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, default=list(DEFAULT_DIRS))
    parser.add_argument("--only", default="", help="comma-separated column names to run")
    parser.add_argument("--markdown", default="", help="LABEL=OUT[:OUT...],... saved Markdown")
    args = parser.parse_args()
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    sys.exit(main(args.folders, only, args.markdown))
