"""Box fidelity of chunk boxes on the dev sets (`citechunk.evaluation.boxes` defines the measures).

For each dev question whose answer is intact in a chunk that cites the gold page: the share of
the answer's word area (PyMuPDF's words of the gold page) inside that chunk's boxes on the page;
a question passes at >= 0.9. For each chunk and page: the share of its box area covered by other
chunks' boxes; passes below 0.02. Chunks use the default `ChunkOptions`, boxes come from the
source map built after conversion (`export.sourcemap.of_pdf`), as `citechunk ingest` does.

Usage: .venv/bin/python bench/box_fidelity.py [--backend pymupdf,docling] [--misses] [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from citechunk import ConvertOptions, convert
from citechunk.conversion import read_markdown, save, saved_title
from citechunk.evaluation.boxes import COVER, OVERLAP, fidelity

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEV_SETS = {
    "dev": (SHARED / "corpus" / "pdfs", SHARED / "eval" / "dev_questions.jsonl"),
    "dev2": (SHARED / "eval" / "dev2" / "pdfs", SHARED / "eval" / "dev2" / "questions.jsonl"),
}


@dataclass
class Tally:
    questions: int = 0
    intact: int = 0  # answer intact in a chunk citing the gold page
    covers: list[float] = field(default_factory=list)  # ... and PyMuPDF finds it on the page
    overlaps: list[float] = field(default_factory=list)
    box_counts: list[int] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def converted(pdf: Path, backend: str, cache: Path | None) -> tuple[str, str]:
    """(Markdown, title) of `pdf`, from `cache` when it holds them (saved with `save`)."""
    md_path = cache / backend / f"{pdf.name}.md" if cache else None
    if md_path and md_path.is_file():
        return read_markdown(md_path), saved_title(md_path)
    doc = convert(pdf, ConvertOptions(backend=backend))
    if md_path:
        md_path.parent.mkdir(parents=True, exist_ok=True)
        save(doc, md_path)
    return doc.markdown, doc.provenance.title


def run(name: str, backend: str, cache: Path | None) -> Tally:
    folder, questions = DEV_SETS[name]
    qs = [json.loads(line) for line in questions.read_text(encoding="utf-8").splitlines() if line]
    t = Tally()
    for pdf_name in sorted({str(q["pdf"]) for q in qs}):
        pdf = folder / pdf_name
        markdown, title = converted(pdf, backend, cache)
        f = fidelity(pdf, markdown, title, [q for q in qs if q["pdf"] == pdf_name])
        t.questions, t.intact = t.questions + f.questions, t.intact + f.intact
        t.covers += [c for _, c in f.covers]
        t.overlaps += f.overlaps
        t.box_counts += f.box_counts
        t.misses += [f"{qid} {pdf_name}: cover {c:.2f}" for qid, c in f.covers if c < COVER]
        bad = [f"{o:.2f}" for o in f.overlaps if o >= OVERLAP]
        if bad:
            t.misses.append(f"overlap {pdf_name}: {len(bad)} chunk-pages: {' '.join(bad[:12])}")
    return t


def row(name: str, backend: str, t: Tally) -> str:
    ok = sum(c >= COVER for c in t.covers)
    low = sum(o < OVERLAP for o in t.overlaps)
    median = statistics.median(t.covers) if t.covers else 0.0
    return (
        f"| {name} | {backend} | {t.questions} | {t.intact} | {len(t.covers)} | "
        f"{ok}/{len(t.covers)} = {ok / max(1, len(t.covers)):.3f} | {median:.3f} | "
        f"{low}/{len(t.overlaps)} = {low / max(1, len(t.overlaps)):.3f} | "
        f"{statistics.median(t.box_counts or [0]):.0f} / {statistics.mean(t.box_counts or [0]):.1f} |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", default="pymupdf")
    ap.add_argument("--sets", default="dev,dev2")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--cache", type=Path, help="keep converted Markdown here between runs")
    a = ap.parse_args()
    print(
        "| set | backend | questions | intact on gold page | answer on page (PyMuPDF) "
        "| cover >= 0.9 | median cover | chunk-pages overlap < 2% | boxes per chunk-page (median / mean) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for backend in a.backend.split(","):
        for name in a.sets.split(","):
            t = run(name, backend, a.cache)
            print(row(name, backend, t), flush=True)
            if a.misses:
                for m in t.misses:
                    print("   miss:", m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
