"""Line fidelity: does the text of each PDF line reach a chunk, on its page? One run, side by side.

A question's answer is a verbatim snippet of the document; it can only be found if extraction
and chunking kept it in one piece. This probe asks that of every text line of every page, as
PyMuPDF's plain text layer gives it: the line (NFKC, its first word and a word hyphenated at its
end dropped, so line breaks do not matter; at least 5 words left) must appear as a contiguous
word sequence (`citechunk.evaluation.match.words`) in the text of some chunk of that document
(`intact`), and in one whose page range holds the line's page (`on page`). Lines repeated on at
least 3 pages (running headers and footers, removed on purpose) are not counted.

Columns: bare pymupdf4llm Markdown (layout model on, OCR off, page markers added) and each
citechunk backend, all chunked with the default `ChunkOptions`. Totals are pooled over lines.

Usage: .venv/bin/python bench/line_fidelity.py [PDF_DIR] [--only "pymupdf,bare pymupdf4llm"]
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pymupdf
from heading_fidelity import DEFAULT_DIR, variants

from citechunk.chunking import chunk_markdown
from citechunk.errors import CitechunkError
from citechunk.evaluation.match import words

MIN_WORDS = 5


def pdf_lines(path: Path) -> list[tuple[int, str]]:
    """(page, normalised word sequence) of each countable line (module docstring)."""
    out: list[tuple[int, str]] = []
    with pymupdf.open(path) as doc:
        for number, page in enumerate(doc, 1):
            for raw in page.get_text("text").split("\n"):
                line = unicodedata.normalize("NFKC", raw).strip()
                seq = words(line)[1 : -1 if line.endswith("-") else None]
                if len(seq) >= MIN_WORDS:
                    out.append((number, " ".join(seq)))
        pages = len(doc)
    seen = Counter(_signature(text) for _, text in set(out))  # pages a line appears on
    repeated = {t for t, n in seen.items() if pages >= 4 and n >= 3}
    return [(p, t) for p, t in out if _signature(t) not in repeated]


def _signature(text: str) -> str:
    """A line with its digits blanked: "Page 3 of 6" repeats "Page 1 of 6"."""
    return re.sub(r"\d+", "#", text)


def score(markdown: str, lines: list[tuple[int, str]]) -> tuple[int, int]:
    """(intact, on page) counts of `lines` in the default chunks of `markdown`."""
    chunks = [
        (" " + " ".join(words(c.text)) + " ", c.first_page, c.last_page)
        for c in chunk_markdown(markdown)
    ]
    intact = on_page = 0
    for page, text in lines:
        needle = f" {text} "
        spans = [(a, b) for hay, a, b in chunks if needle in hay]
        intact += bool(spans)
        on_page += any(a <= page <= b for a, b in spans)
    return intact, on_page


def main(folder: Path, only: set[str]) -> int:
    runs: dict[str, Callable[[Path], str]] = {
        name: run
        for name, run in variants().items()
        if (not only or name in only) and name != "pymupdf no-repair"
    }
    totals = {name: [0, 0] for name in runs}
    skipped: dict[str, str] = {}
    counted = 0
    print(f"{'file':34} {'lines':>6}  " + "  ".join(f"{n:>20}" for n in runs))
    for path in sorted(folder.glob("*.pdf")):
        lines = pdf_lines(path)
        counted += len(lines)
        cells = []
        for name, run in runs.items():
            if name in skipped:
                cells.append(f"{'n/a':>20}")
                continue
            try:
                intact, on_page = score(run(path), lines)
            except CitechunkError as exc:  # e.g. docling's model weights are not here
                skipped[name] = str(exc)
                cells.append(f"{'n/a':>20}")
                continue
            totals[name][0] += intact
            totals[name][1] += on_page
            n = max(1, len(lines))
            cells.append(f"{intact / n:>9.3f} / {on_page / n:<8.3f}")
        print(f"{path.name[:34]:34} {len(lines):>6}  " + "  ".join(cells))
    print(f"\nintact / on page, pooled over {counted} lines:")
    for name, (intact, on_page) in totals.items():
        if name in skipped:
            print(f"  {name:22} n/a: {skipped[name]}")
            continue
        n = max(1, counted)
        print(f"  {name:22} intact {intact / n:.4f}  on page {on_page / n:.4f}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--only", default="", help="comma-separated column names to run")
    args = parser.parse_args()
    sys.exit(main(args.folder, {n.strip() for n in args.only.split(",") if n.strip()}))
