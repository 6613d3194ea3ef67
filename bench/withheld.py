"""Sections with the outline withheld: convert each PDF as if it had no outline and score the
headings against the outline it has, plus a span check that needs no outline.

For every PDF of each folder:
  found / level order  (PDFs with `MIN_ENTRIES` or more outline entries that list sections,
                       `outline.lists_sections`) `evaluation.headings.heading_fidelity` of the
                       Markdown converted from a copy of the PDF without its outline (same file
                       name), against the withheld outline; pooled over entries / pairs per
                       folder. The copy is converted with the default options: the bookmarks
                       are gone (a contents list the document prints is read as for any PDF
                       without them: `conversion.printedcontents`), and `outline_repair` (which also enables
                       the numbering repair for PDFs without an outline) stays on, as for any
                       PDF that has none; "printed" scores the same Markdown against only the
                       entries whose title the text layer prints on their page (+-1)
                       (`evaluation.headings.printed_entries`: a bookmark to an index letter
                       the page never prints is no heading to find)
  long spans           (every PDF of 20+ pages) `evaluation.headings.long_spans`: headings other
                       than the label's whose section holds more than half of the document
                       without a top-level outline entry or numbering behind them (target 0)
The Markdown (and its provenance) is saved under OUT/<folder name>/<pdf name>.md so later runs
can compare; --reuse scores saved Markdown instead of converting again.

Usage: .venv/bin/python bench/withheld.py OUT FOLDER [FOLDER ...] [--reuse] [--spans] [--outlined]
`measure_folder` is the importable entry (bench/wide.py uses it).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion import convert, load, save
from citechunk.conversion.outline import OutlineEntry, from_toc, lists_sections
from citechunk.errors import CitechunkError
from citechunk.evaluation.headings import (
    Fidelity,
    LongSpan,
    heading_fidelity,
    long_spans,
    printed_entries,
)

log = logging.getLogger("bench.withheld")
MIN_ENTRIES = 5
FOUND_TARGET = ORDER_TARGET = 0.90


@dataclass(frozen=True)
class DocumentScore:
    """One PDF: its withheld outline's fidelity (None without a usable outline) and long spans."""

    name: str
    pages: int
    entries: int
    fidelity: Fidelity | None
    spans: tuple[LongSpan, ...]
    printed: Fidelity | None = None  # over the entries printed on their page (`printed_entries`)


@dataclass
class FolderScore:
    folder: Path
    documents: list[DocumentScore] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    @property
    def pooled(self) -> Fidelity:
        scored = [d.fidelity for d in self.documents if d.fidelity is not None]
        return Fidelity(*(sum(getattr(f, k) for f in scored) for k in Fidelity.__annotations__))

    @property
    def span_documents(self) -> int:
        return sum(bool(d.spans) for d in self.documents)

    def line(self) -> str:
        f = self.pooled
        return (
            f"{self.folder.name:10} outline PDFs {sum(d.fidelity is not None for d in self.documents):3}  "
            f"found {f.found_share:.3f} ({f.found}/{f.entries})  "
            f"level order {f.order_share:.3f} ({f.ordered}/{f.pairs})  "
            f"long spans {sum(len(d.spans) for d in self.documents)} in {self.span_documents} "
            f"of {sum(d.pages >= 20 for d in self.documents)} PDFs of 20+ pages"
            + (f"  ({len(self.failed)} failed)" if self.failed else "")
        )


def read_outline(path: Path) -> tuple[int, list[OutlineEntry]]:
    """(page count, outline entries) of the PDF."""
    with pymupdf.open(path) as doc:
        return doc.page_count, from_toc(doc.get_toc(simple=True))


def page_lines(path: Path) -> dict[int, list[str]]:
    """{page number: the text layer's lines} of the PDF."""
    with pymupdf.open(path) as doc:
        return {n: page.get_text().splitlines() for n, page in enumerate(doc, start=1)}


def convert_withheld(path: Path, md_path: Path, options: ConvertOptions | None = None) -> None:
    """Convert a copy of `path` without its outline (same file name), saved at `md_path`, with
    `options` (default: the default options)."""
    with tempfile.TemporaryDirectory() as tmp, pymupdf.open(path) as doc:
        copy = Path(tmp) / path.name
        doc.set_toc([])
        doc.save(copy)
        converted = convert(copy, options or ConvertOptions())
    md_path.parent.mkdir(parents=True, exist_ok=True)
    save(converted, md_path)


def score_document(
    path: Path, md_path: Path, reuse: bool = False, options: ConvertOptions | None = None
) -> DocumentScore:
    """Convert (unless `reuse` and saved) with `options` and score one PDF (module docstring)."""
    pages, outline = read_outline(path)
    if not (reuse and md_path.is_file()):
        convert_withheld(path, md_path, options)
    converted = load(md_path)
    usable = len(outline) >= MIN_ENTRIES and lists_sections(outline)
    fidelity = heading_fidelity(converted.markdown, outline) if usable else None
    printed = None
    if usable:
        printed = heading_fidelity(converted.markdown, printed_entries(outline, page_lines(path)))
    spans = long_spans(converted.markdown, converted.provenance.title, outline if usable else ())
    return DocumentScore(path.name, pages, len(outline), fidelity, tuple(spans), printed)


def measure_folder(
    folder: Path, out: Path, reuse: bool = False, only_outlined: bool = False
) -> FolderScore:
    """Every PDF of `folder` (or only those with a usable outline), Markdown under
    `out`/<folder name>/."""
    score = FolderScore(folder)
    for path in sorted(folder.glob("*.pdf")):
        if only_outlined:
            _, outline = read_outline(path)
            if len(outline) < MIN_ENTRIES or not lists_sections(outline):
                continue
        try:
            score.documents.append(
                score_document(path, out / _set_name(folder) / f"{path.name}.md", reuse)
            )
        except CitechunkError as exc:
            score.failed.append(f"{path.name}: {exc}")
    return score


def _set_name(folder: Path) -> str:
    """ "dev2" for .../dev2/pdfs, "wide" for .../wide."""
    return folder.parent.name if folder.name == "pdfs" else folder.name


def report(score: FolderScore, show_spans: bool) -> str:
    rows = [f"\n{score.folder}", f"{'file':48} {'pages':>5} {'entries':>7}  found  order  spans"]
    for d in score.documents:
        f = d.fidelity
        cells = f"{f.found_share:5.2f}  {f.order_share:5.2f}" if f else f"{'-':>5}  {'-':>5}"
        rows.append(f"{d.name[:48]:48} {d.pages:5} {d.entries:7}  {cells}  {len(d.spans):5}")
        if show_spans:
            rows += [
                f"    p{s.page} h{s.level} {s.title[:60]!r}: {s.pages}/{s.page_count} pages, "
                f"{s.chars}/{s.body_chars} chars"
                for s in d.spans
            ]
    rows += [f"  failed: {f}" for f in score.failed]
    rows.append(score.line())
    return "\n".join(rows)


def main(
    out: Path, folders: Sequence[Path], reuse: bool, show_spans: bool, only_outlined: bool
) -> int:
    scores = [measure_folder(folder, out, reuse, only_outlined) for folder in folders]
    for score in scores:
        print(report(score, show_spans), flush=True)
    print("\npooled:")
    for score in scores:
        print("  " + score.line())
    every = [d.fidelity for s in scores for d in s.documents if d.fidelity is not None]
    f = Fidelity(*(sum(getattr(x, k) for x in every) for k in Fidelity.__annotations__))
    met = f.found_share >= FOUND_TARGET and f.order_share >= ORDER_TARGET
    print(
        f"  {'all':10} found {f.found_share:.3f} ({f.found}/{f.entries})  "
        f"level order {f.order_share:.3f} ({f.ordered}/{f.pairs})" + ("  target met" if met else "")
    )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="folder for the converted Markdown")
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--reuse", action="store_true", help="score saved Markdown where present")
    parser.add_argument("--spans", action="store_true", help="list each long span")
    parser.add_argument("--outlined", action="store_true", help="only PDFs with a usable outline")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    sys.exit(main(args.out, args.folders, args.reuse, args.spans, args.outlined))
