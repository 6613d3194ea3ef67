"""Box fidelity: do a chunk's boxes cover its text on the page, and only its text?

Two measures, both over PyMuPDF's own words of the page (independent of the source map):

* answer cover -- for a question whose answer is intact in a chunk (`match.contains`) that
  cites the gold page, the share of the area of the answer's words on that page (the answer's
  word sequence, matched as `match.words` reads it, in the page's word order) that lies inside
  the chunk's boxes on that page; the best occurrence counts when the answer appears twice.
  A question passes at ``>= COVER`` (0.9).
* overlap -- for each chunk and page, the share of the area of the chunk's boxes on the page
  covered by the boxes of the other chunks, except chunks whose character ranges overlap it
  (the configured size-fallback overlap repeats text on purpose). A chunk-page passes below
  ``OVERLAP`` (0.02).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..chunking import chunk_markdown
from ..config import ChunkOptions
from ..export import sourcemap
from ..export.sourcemap import Box
from .match import contains, words

COVER = 0.9
OVERLAP = 0.02

Rect = tuple[float, float, float, float]


def _intersection(a: Rect, b: Box) -> float:
    w = min(a[2], b.x1) - max(a[0], b.x0)
    h = min(a[3], b.y1) - max(a[1], b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def _area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def covered_share(rects: Sequence[Rect], boxes: Sequence[Box]) -> float:
    """Share of the total area of `rects` inside `boxes` (each rect capped at its own area)."""
    total = sum(_area(r) for r in rects)
    if total <= 0:
        return 0.0
    inside = sum(min(_area(r), sum(_intersection(r, b) for b in boxes)) for r in rects)
    return inside / total


def answer_occurrences(page: Any, answer: str) -> list[list[Rect]]:
    """The word boxes of each occurrence of `answer`'s word sequence on a PyMuPDF page."""
    needle = words(answer)
    if not needle:
        return []
    seq: list[tuple[str, Rect]] = []
    for w in page.get_text("words", sort=False):
        seq += [(part, (w[0], w[1], w[2], w[3])) for part in words(str(w[4]))]
    found = []
    for i in range(len(seq) - len(needle) + 1):
        if all(seq[i + k][0] == needle[k] for k in range(len(needle))):
            found.append([r for _, r in seq[i : i + len(needle)]])
    return found


def answer_cover(page: Any, answer: str, boxes: Sequence[Box]) -> float | None:
    """Best `covered_share` of the answer's occurrences on `page` by the `boxes` on that page;
    None when PyMuPDF does not find the answer on the page."""
    number = page.number + 1
    on_page = [b for b in boxes if b.page == number]
    shares = [covered_share(occ, on_page) for occ in answer_occurrences(page, answer)]
    return max(shares) if shares else None


@dataclass(frozen=True)
class Span:
    """What `overlaps` needs of a chunk: its character range and boxes."""

    char_start: int
    char_end: int
    boxes: tuple[Box, ...]


def _box_overlap(a: Sequence[Box], b: Sequence[Box]) -> float:
    return sum(_intersection((x.x0, x.y0, x.x1, x.y1), y) for x in a for y in b)


def overlaps(chunks: Sequence[Span]) -> list[float]:
    """For each (chunk, page with boxes): the share of its box area covered by other chunks'
    boxes (chunks sharing characters with it excluded; see the module docstring)."""
    out = []
    for i, c in enumerate(chunks):
        for page in sorted({b.page for b in c.boxes}):
            mine = [b for b in c.boxes if b.page == page]
            area = sum(b.area for b in mine)
            if area <= 0:
                continue
            others = [
                b
                for j, o in enumerate(chunks)
                if j != i and (o.char_end <= c.char_start or o.char_start >= c.char_end)
                for b in o.boxes
                if b.page == page
            ]
            out.append(min(1.0, _box_overlap(mine, others) / area))
    return out


@dataclass(frozen=True)
class Fidelity:
    """Box fidelity of one document: question counts, each located answer's cover (with the
    question's id) and each chunk-page's overlap share."""

    questions: int
    intact: int  # answer intact in a chunk citing the gold page
    covers: tuple[tuple[str, float], ...]  # ... and PyMuPDF finds it on the gold page
    overlaps: tuple[float, ...]
    box_counts: tuple[int, ...]  # boxes of each (chunk, page with boxes)


def fidelity(
    pdf: str | os.PathLike[str],
    markdown: str,
    title: str,
    questions: Sequence[Mapping[str, Any]],
    options: ChunkOptions | None = None,
) -> Fidelity:
    """Chunk `markdown` (converted from `pdf`), box it with its source map and measure
    (questions: ``page``, ``answer`` and optionally ``id``; see the module docstring)."""
    import pymupdf

    smap = sourcemap.of_pdf(pdf, markdown)
    chunks = chunk_markdown(markdown, options, title)
    spans = [
        Span(c.char_start, c.char_end, tuple(smap.boxes(c.char_start, c.char_end))) for c in chunks
    ]
    intact, covers = 0, []
    with pymupdf.open(pdf) as doc:
        for q in questions:
            page, answer = int(q["page"]), str(q["answer"])
            held = [
                s
                for c, s in zip(chunks, spans, strict=True)
                if c.first_page <= page <= c.last_page and contains(c.text, answer)
            ]
            intact += bool(held)
            found = [
                x
                for x in (answer_cover(doc[page - 1], answer, s.boxes) for s in held)
                if x is not None
            ]
            if found:
                covers.append((str(q.get("id", "")), max(found)))
    counts = tuple(
        sum(b.page == page for b in s.boxes)
        for s in spans
        for page in sorted({b.page for b in s.boxes})
    )
    return Fidelity(len(questions), intact, tuple(covers), tuple(overlaps(spans)), counts)
