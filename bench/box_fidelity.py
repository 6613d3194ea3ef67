"""Box fidelity of chunk boxes on the dev sets (`citechunk.evaluation.boxes` defines the measures).

For each dev question whose answer is intact in a chunk that cites the gold page: the share of
the answer's word area (PyMuPDF's words of the gold page) inside that chunk's boxes on the page;
a question passes at >= 0.9. For each chunk and page: the share of its box area covered by other
chunks' boxes; passes below 0.02. Chunks use the default `ChunkOptions`, boxes come from the
source map built after conversion (`conversion.sourcemap.of_pdf`), as `citechunk ingest` does.

Usage: .venv/bin/python bench/box_fidelity.py [--backend pymupdf,docling] [--misses]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from citechunk import ConvertOptions, chunk_markdown, convert
from citechunk.conversion import sourcemap
from citechunk.evaluation.boxes import COVER, OVERLAP, Span, answer_cover, overlaps
from citechunk.evaluation.match import contains

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEV_SETS = {
    "dev": (SHARED / "corpus" / "pdfs", SHARED / "eval" / "dev_questions.jsonl"),
    "dev2": (SHARED / "eval" / "dev2" / "pdfs", SHARED / "eval" / "dev2" / "questions.jsonl"),
}


@dataclass
class Tally:
    questions: int = 0
    intact: int = 0  # answer intact in a chunk citing the gold page
    located: int = 0  # ... and PyMuPDF finds the answer's words on the gold page
    covers: list[float] = field(default_factory=list)
    overlaps: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def document(pdf: Path, backend: str) -> list[tuple[Span, str, int, int]]:
    """(span, text, first page, last page) of each default chunk of `pdf`."""
    doc = convert(pdf, ConvertOptions(backend=backend))
    smap = sourcemap.of_pdf(pdf, doc.markdown)
    out = []
    for c in chunk_markdown(doc.markdown, None, doc.provenance.title):
        span = Span(c.char_start, c.char_end, tuple(smap.boxes(c.char_start, c.char_end)))
        out.append((span, c.text, c.first_page, c.last_page))
    return out


def score_question(q: dict[str, object], chunks: list, pdf: Path, t: Tally) -> None:
    t.questions += 1
    page_no, answer = int(q["page"]), str(q["answer"])  # type: ignore[call-overload]
    held = [s for s, text, a, b in chunks if a <= page_no <= b and contains(text, answer)]
    if not held:
        return
    t.intact += 1
    with pymupdf.open(pdf) as doc:
        shares = [answer_cover(doc[page_no - 1], answer, s.boxes) for s in held]
    found = [s for s in shares if s is not None]
    if not found:
        return
    t.located += 1
    t.covers.append(max(found))
    if max(found) < COVER:
        t.misses.append(f"{q.get('id')} {pdf.name} p{page_no}: {max(found):.2f} {answer[:60]!r}")


def run(name: str, backend: str) -> Tally:
    folder, questions = DEV_SETS[name]
    qs = [json.loads(line) for line in questions.read_text(encoding="utf-8").splitlines() if line]
    t = Tally()
    for pdf_name in sorted({str(q["pdf"]) for q in qs}):
        pdf = folder / pdf_name
        chunks = document(pdf, backend)
        t.overlaps += overlaps([s for s, *_ in chunks])
        for q in (q for q in qs if q["pdf"] == pdf_name):
            score_question(q, chunks, pdf, t)
    return t


def row(name: str, backend: str, t: Tally) -> str:
    ok = sum(c >= COVER for c in t.covers)
    low = sum(o < OVERLAP for o in t.overlaps)
    median = statistics.median(t.covers) if t.covers else 0.0
    return (
        f"| {name} | {backend} | {t.questions} | {t.intact} | {t.located} | "
        f"{ok}/{len(t.covers)} = {ok / max(1, len(t.covers)):.3f} | {median:.3f} | "
        f"{low}/{len(t.overlaps)} = {low / max(1, len(t.overlaps)):.3f} |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", default="pymupdf")
    ap.add_argument("--sets", default="dev,dev2")
    ap.add_argument("--misses", action="store_true")
    a = ap.parse_args()
    print(
        "| set | backend | questions | intact on gold page | answer on page (PyMuPDF) "
        "| cover >= 0.9 | median cover | chunk-pages overlap < 2% |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for backend in a.backend.split(","):
        for name in a.sets.split(","):
            t = run(name, backend)
            print(row(name, backend, t), flush=True)
            if a.misses:
                for m in t.misses:
                    print("   miss:", m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
