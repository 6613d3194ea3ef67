"""OCR quality and speed per engine, side by side in one run, on scans of real PDFs.

For each PDF of ../shared/corpus/pdfs and ../shared/eval/dev2/pdfs, its first --pages pages
are copied as an image-only PDF (`citechunk.evaluation.scans.make_scan`: grey, 200 dpi, 0.5
degree skew, JPEG, the picture as the only content of a new page) into a temporary folder
(deleted afterwards; never committed). Each engine converts the scan (pymupdf backend,
``ocr = "auto"``); its Markdown per page is compared with the born-digital Markdown of the same
page (same backend, ``ocr = "off"``):

  recall  share of the born-digital words (multiset, case-folded) found on the OCR'd page
  WER     word error rate (word edit distance / born-digital words), reading order included
  pages/s OCR'd pages per second of OCR time (rendering + engine), on this machine's load

Rows: one per engine per document, then a total per engine (page-weighted means). An engine
may name its languages after a colon (``tesseract:eng``, ``tesseract:auto``,
``tesseract:eng+ita``: `convert.ocr_languages`), so settings compare side by side in one run.
--rapidocr-docs limits RapidOCR (several times slower here) to the first N documents.

--scanned DIR instead converts the PDFs of DIR as they are (real scans, no truth) with each
engine setting: per document its label, OCR'd pages, OCR seconds and whether the Markdown
equals the first setting's; then seconds per page per setting and its ratio to the first.
--save DIR writes each setting's Markdown (and provenance) to DIR/<setting>/<stem>.md, for
reading and for `citechunk chunk`.

Usage: .venv/bin/python bench/ocr_quality.py [--pages 3] [--engines tesseract,rapidocr]
       [--rapidocr-docs 6] [--limit N]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from citechunk.config import ConvertOptions
from citechunk.conversion import convert, save
from citechunk.conversion.ocr import unavailable
from citechunk.evaluation.scans import make_scan, word_error_rate, word_recall, words

SHARED = Path(__file__).resolve().parents[2] / "shared"
FOLDERS = (SHARED / "corpus" / "pdfs", SHARED / "eval" / "dev2" / "pdfs")
MARKER = re.compile(r"<!-- page (\d+) -->")


@dataclass(frozen=True)
class Row:
    engine: str
    doc: str
    pages: int
    recall: float
    wer: float
    seconds: float


def page_texts(markdown: str) -> dict[int, str]:
    parts = MARKER.split(markdown)
    return {int(n): text for n, text in zip(parts[1::2], parts[2::2], strict=True)}


def options(spec: str) -> ConvertOptions:
    """``engine[:languages]`` as options (languages "auto" or "+"-joined codes)."""
    engine, _, languages = spec.partition(":")
    if not languages:
        return ConvertOptions(ocr_engine=engine)  # type: ignore[arg-type]
    chosen = "auto" if languages == "auto" else tuple(languages.split("+"))
    return ConvertOptions(ocr_engine=engine, ocr_languages=chosen)  # type: ignore[arg-type]


def measure(pdf: Path, scan: Path, pages: int, engine: str, reference: dict[int, str]) -> Row:
    doc = convert(scan, options(engine))
    found = page_texts(doc.markdown)
    recalls, wers = [], []
    for page in range(1, pages + 1):
        ref, got = words(reference.get(page, "")), words(found.get(page, ""))
        if not ref:
            continue  # a page without born-digital text has nothing to compare
        recalls.append(word_recall(ref, got))
        wers.append(word_error_rate(ref, got))
    n = len(recalls)
    return Row(
        engine,
        pdf.name,
        n,
        sum(recalls) / n if n else 0.0,
        sum(wers) / n if n else 0.0,
        doc.ocr_seconds,
    )


def table(rows: list[Row]) -> str:
    lines = [
        "| engine | document | pages | recall | WER | OCR s |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.engine} | {r.doc} | {r.pages} | {r.recall:.3f} | {r.wer:.3f} | {r.seconds:.1f} |"
        )
    return "\n".join(lines)


def totals(rows: list[Row]) -> str:
    lines = [
        "| engine | documents | pages | recall | WER | pages/s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for engine in dict.fromkeys(r.engine for r in rows):
        mine = [r for r in rows if r.engine == engine and r.pages]
        pages = sum(r.pages for r in mine)
        if not pages:
            continue
        recall = sum(r.recall * r.pages for r in mine) / pages
        wer = sum(r.wer * r.pages for r in mine) / pages
        speed = pages / sum(r.seconds for r in mine)
        lines.append(
            f"| {engine} | {len(mine)} | {pages} | {recall:.3f} | {wer:.3f} | {speed:.3f} |"
        )
    return "\n".join(lines)


def scanned(folder: Path, engines: list[str], folder_out: Path | None) -> None:
    """The --scanned table (see the module docstring)."""
    print("| document | setting | label (source) | OCR pages | OCR s | same as first |")
    print("|---|---|---|---:|---:|---|")
    pages = dict.fromkeys(engines, 0)
    seconds = dict.fromkeys(engines, 0.0)
    for pdf in sorted(folder.glob("*.pdf")):
        first = None
        for spec in engines:
            doc = convert(pdf, options(spec))
            if folder_out:
                out = folder_out / spec.replace(":", "-") / f"{pdf.stem}.md"
                out.parent.mkdir(parents=True, exist_ok=True)
                save(doc, out)
            same = "" if first is None else ("yes" if doc.markdown == first else "no")
            first = doc.markdown if first is None else first
            n = len(doc.provenance.ocr_pages)
            pages[spec] += n
            seconds[spec] += doc.ocr_seconds
            label = f"{doc.provenance.title[:60]} ({doc.provenance.title_source})"
            print(f"| {pdf.name} | {spec} | {label} | {n} | {doc.ocr_seconds:.1f} | {same} |")
    print()
    print("| setting | OCR pages | OCR s | s/page | ratio to first |")
    print("|---|---:|---:|---:|---:|")
    for spec in engines:
        per_page = seconds[spec] / pages[spec] if pages[spec] else 0.0
        ratio = seconds[spec] / seconds[engines[0]] if seconds[engines[0]] else 0.0
        print(f"| {spec} | {pages[spec]} | {seconds[spec]:.1f} | {per_page:.2f} | {ratio:.2f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--pages", type=int, default=3, help="first N pages of each PDF")
    ap.add_argument("--engines", default="tesseract,rapidocr")
    ap.add_argument("--rapidocr-docs", type=int, default=6, help="RapidOCR on the first N docs")
    ap.add_argument("--limit", type=int, default=0, help="first N documents only (0 = all)")
    ap.add_argument("--scanned", type=Path, help="convert these real scans instead (no truth)")
    ap.add_argument("--save", type=Path, help="with --scanned: write each setting's Markdown")
    args = ap.parse_args()
    if args.scanned:
        scanned(args.scanned, [e for e in args.engines.split(",") if e], args.save)
        return 0
    pdfs = [p for folder in FOLDERS if folder.is_dir() for p in sorted(folder.glob("*.pdf"))]
    if args.limit:
        pdfs = pdfs[: args.limit]
    if not pdfs:
        print("no PDFs under", *FOLDERS)
        return 0
    engines = [e for e in args.engines.split(",") if e]
    for engine in list(engines):
        why = unavailable(engine.partition(":")[0], ["eng"])
        if why:
            print(f"skipping {engine}: {why}")
            engines.remove(engine)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="citechunk-ocr-bench-") as tmp:
        for i, pdf in enumerate(pdfs):
            pages = min(args.pages, _page_count(pdf))
            spec = f"1-{pages}"
            reference = page_texts(convert(pdf, ConvertOptions(pages=spec, ocr="off")).markdown)
            scan = make_scan(pdf, Path(tmp) / pdf.name, pages=range(1, pages + 1), skew=0.5)
            for engine in engines:
                if engine.startswith("rapidocr") and i >= args.rapidocr_docs:
                    continue
                row = measure(pdf, scan, pages, engine, reference)
                rows.append(row)
                print(
                    f"{engine:14} {pdf.name:40} recall {row.recall:.3f} WER {row.wer:.3f} "
                    f"{row.seconds:.1f} s",
                    flush=True,
                )
    print()
    print(table(rows))
    print()
    print(totals(rows))
    return 0


def _page_count(pdf: Path) -> int:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return int(doc.page_count)


if __name__ == "__main__":
    sys.exit(main())
