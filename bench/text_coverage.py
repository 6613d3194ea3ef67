"""Word coverage of the Markdown against each PDF's text layer, per document set and backend.

For every page: the words of PyMuPDF's plain text, minus lines repeated on 3 or more pages
(digits blurred: running headers/footers, removed on purpose) and lines that are only a page
number, counted as multisets against that page's Markdown (between its page markers); pages
with fewer than 3 such words are not counted. Two columns:
  exact       words compared as written (lower-cased runs of letters/digits): a ligature glyph
              ("ﬁ") and its spelled-out letters differ, and so do the two halves of a word
              hyphenated at a line end and the whole word the Markdown joined;
  normalized  `citechunk.conversion.coverage` (what provenance ``word_coverage`` records):
              NFKC, case folding, line-end hyphen joins counted whole.
``empty`` counts pages with text whose Markdown holds none of their words.
Target for the default backend: >= 0.995 and 0 empty pages on every set.

Sets: ../shared/corpus/pdfs, ../shared/eval/dev2/pdfs and ../shared/corpus/odd when present,
else sample_pdfs/. Each PDF is converted in this process unless ``--reuse NAME=OUT`` names an
ingest output folder whose ``markdown/`` holds that set's Markdown.

Usage: .venv/bin/python bench/text_coverage.py [--backend pymupdf] [--set NAME=PDF_DIR]
       [--reuse NAME=OUT]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion import convert, describe, read_markdown
from citechunk.conversion.coverage import Coverage, body_lines, page_coverage
from citechunk.conversion.outline import from_toc
from citechunk.conversion.runninglines import find_running
from citechunk.conversion.textlayer import TextLayer, read_page
from citechunk.errors import CitechunkError
from citechunk.markers import marker_spans

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEFAULT_SETS = {
    "corpus": SHARED / "corpus" / "pdfs",
    "dev2": SHARED / "eval" / "dev2" / "pdfs",
    "odd": SHARED / "corpus" / "odd",
}
TARGET = 0.995
MIN_WORDS = 3
_WORD_RE = re.compile(r"[^\W_]+")
_TAG_RE = re.compile(r"</?(?:sup|sub|br|b|i|em|strong|span|u)\b[^>]*>")
_PAGENO_RE = re.compile(r"^\s*(?:page\s*)?(?:\d+|[ivxlc]+)(?:\s*(?:of|/)\s*\d+)?\s*$", re.I)


@dataclass
class Tally:
    exact: Coverage = Coverage(0, 0)
    normalized: Coverage = Coverage(0, 0)
    empty: int = 0
    failed: int = 0


def exact_words(text: str) -> list[str]:
    return _WORD_RE.findall(_TAG_RE.sub(" ", text).lower().replace("\u00ad", ""))


def _shape(line: str) -> str:
    return re.sub(r"\d+", "#", line.strip())


def markdown_pages(markdown: str) -> dict[int, str]:
    """Page number -> that page's Markdown (text between its marker and the next)."""
    spans = marker_spans(markdown)
    out: dict[int, str] = {}
    for i, (_, end, page) in enumerate(spans):
        stop = spans[i + 1][0] if i + 1 < len(spans) else len(markdown)
        out[page] = out.get(page, "") + markdown[end:stop]
    return out


def measure(pdf: Path, markdown: str, tally: Tally) -> None:
    """Add one document's pages to `tally` (module docstring)."""
    with pymupdf.open(pdf) as doc:
        if doc.needs_pass:
            return
        texts = [page.get_text() for page in doc]
        layers = [read_page(page, page.number + 1) for page in doc]
        toc = from_toc(doc.get_toc(simple=True))
    shapes = Counter(s for t in texts for s in {_shape(x) for x in t.splitlines()} if s)
    running = find_running(TextLayer.from_pages(layers), toc)
    md = markdown_pages(markdown)
    for number, (text, layer) in enumerate(zip(texts, layers, strict=True), 1):
        want = Counter(
            w
            for line in text.splitlines()
            if shapes[_shape(line)] < 3 and not _PAGENO_RE.match(line)
            for w in exact_words(line)
        )
        total = sum(want.values())
        if total < MIN_WORDS:
            continue
        got = Counter(exact_words(md.get(number, "")))
        found = sum(min(n, got[w]) for w, n in want.items())
        tally.exact += Coverage(total, found)
        tally.normalized += page_coverage(
            body_lines(layer.lines, running.on_page(number)), md.get(number, "")
        )
        tally.empty += found == 0


def converter(backend: str) -> Callable[[Path], str]:
    def run(pdf: Path) -> str:
        return convert(pdf, ConvertOptions(backend=backend)).markdown

    return run


def reused(out: Path) -> Callable[[Path], str]:
    def run(pdf: Path) -> str:
        found = sorted((out / "markdown").glob(f"{pdf.name}-*.md"))
        if not found:
            raise CitechunkError(f"{pdf.name}: no Markdown in {out}/markdown")
        return read_markdown(found[0])

    return run


def run_set(pdf_dir: Path, produce: Callable[[Path], str]) -> Tally:
    tally = Tally()
    for pdf in sorted(pdf_dir.glob("*.pdf")):
        try:
            markdown = produce(pdf)
        except CitechunkError:
            tally.failed += 1  # damaged or encrypted: the text-layer side cannot be read either
            continue
        measure(pdf, markdown, tally)
    return tally


def _pairs(values: list[str], what: str) -> dict[str, Path]:
    out = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep:
            sys.exit(f"{what} wants NAME=PATH, got {value!r}")
        out[name] = Path(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", action="append", help="backend (repeatable; default: all usable)")
    ap.add_argument("--set", action="append", default=[], help="NAME=PDF_DIR (repeatable)")
    ap.add_argument("--reuse", action="append", default=[], help="NAME=OUT ingest folder")
    args = ap.parse_args()
    sets = _pairs(args.set, "--set") or {k: v for k, v in DEFAULT_SETS.items() if v.is_dir()}
    sets = sets or {"samples": ROOT / "sample_pdfs"}
    reuse = _pairs(args.reuse, "--reuse")
    backends = args.backend or [i.name for i in describe() if i.available]
    print("| backend | set | exact coverage | normalized coverage | words | empty pages |")
    print("|---|---|---|---|---|---|")
    for backend in backends:
        for name, pdf_dir in sets.items():
            produce = reused(reuse[name]) if name in reuse else converter(backend)
            t = run_set(pdf_dir, produce)
            print(
                f"| {backend} | {name} | {t.exact.share:.4f} | {t.normalized.share:.4f} | "
                f"{t.exact.words} | {t.empty} |",
                flush=True,
            )
    print(f"target: >= {TARGET} and 0 empty pages (default backend)")


if __name__ == "__main__":
    main()
