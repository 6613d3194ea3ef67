"""Chunk boxes on the real dev sets (skipped when ../shared is absent): default backend and
chunk options, measures from `citechunk.evaluation.boxes`.

For the dev questions whose answer is intact in a chunk citing the gold page, the answer's words
(PyMuPDF's, on the gold page) lie >= 90% by area inside that chunk's boxes for >= 98% of them;
and on >= 95% of chunk-pages a chunk's boxes lie under other chunks' boxes by < 2% of their area.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citechunk import convert
from citechunk.evaluation.boxes import COVER, OVERLAP, fidelity

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.heavy]

SETS = {
    "dev": ("corpus/pdfs", "eval/dev_questions.jsonl"),
    "dev2": ("eval/dev2/pdfs", "eval/dev2/questions.jsonl"),
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_answers_lie_inside_their_chunks_boxes(shared_dir: Path, name: str) -> None:
    folder, questions = (shared_dir / p for p in SETS[name])
    qs = [json.loads(line) for line in questions.read_text(encoding="utf-8").splitlines() if line]
    covers: list[tuple[str, float]] = []
    shares: list[float] = []
    for pdf_name in sorted({q["pdf"] for q in qs}):
        pdf = folder / pdf_name
        doc = convert(pdf)
        f = fidelity(
            pdf, doc.markdown, doc.provenance.title, [q for q in qs if q["pdf"] == pdf_name]
        )
        covers += f.covers
        shares += f.overlaps
    assert len(covers) >= 0.9 * len(qs)  # the answers the check can locate at all
    passed = [qid for qid, c in covers if c >= COVER]
    assert len(passed) >= 0.98 * len(covers), [x for x in covers if x[1] < COVER]
    assert sum(o < OVERLAP for o in shares) >= 0.95 * len(shares)  # measured 0.997 and 0.965
