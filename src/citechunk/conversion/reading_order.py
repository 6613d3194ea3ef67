"""Column-by-column reading order for two-column pages (pymupdf layout path).

A layout model may order the boxes of a two-column page by height alone, so paragraphs of the
two columns alternate and a figure in one column is cut into pieces between the other column's
paragraphs. `read_columns(boxes, width)` returns the boxes of such a page in column order:

* Columns: a vertical gutter (`geometry.free_runs`, counted from the page's left edge) whose
  middle lies between 30% and 70% of the page width, that no box narrower than `WIDE` of the
  page crosses, with prose on both sides (`geometry.prose_columns` by `SIDE_PROSE`: at least 2
  text boxes and `MIN_SIDE_CHARS` characters each), so label/value layouts and single-column
  pages stay as they are.
* Bands: boxes that cross the gutter (titles, wide figures and tables, full-width footnotes)
  cut the page into horizontal bands. Each band reads its left-column boxes, then its
  right-column boxes, each side in the layout model's own order; a wide box comes after the
  band above it.
* page-header and page-footer boxes stay first and last.

First the page is cut into horizontal slabs at full-width blank strips at least `GAP_LINES`
text lines high (a masthead or title block above the columns stays on top); the rule above
applies within each slab, and the slabs are read top to bottom. The result is the input list
itself when no slab with two columns changes order.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .geometry import ProseRule, free_runs, prose_columns

log = logging.getLogger(__name__)

WIDE = 0.6  # a box at least this share of the page width may cross the gutter
MIN_SIDE_CHARS = 200
SIDE_PROSE = ProseRule(min_pieces=2, min_chars=MIN_SIDE_CHARS)
GAP_LINES = 2.0  # a full-width blank strip this many text lines high separates slabs
_RUNNING = ("page-header", "page-footer")
_TEXT = ("text", "list-item", "section-header", "caption", "title", "footnote")


def _runs(box: Any) -> list[str]:
    """The box's text runs (its lines' spans)."""
    return [s["text"] for ln in (box.textlines or []) for s in ln["spans"]]


def find_gutter(boxes: Sequence[Any], width: float) -> float | None:
    """x of the empty vertical strip nearest the page middle, or None (see module rule)."""
    narrow = [[(b.x0, b.x1)] for b in boxes if b.x1 - b.x0 < WIDE * width]
    lo, hi = 0.3 * width, 0.7 * width
    middles = [(a + b) / 2 for a, b in free_runs(narrow, start=0.0)]
    inside = [x for x in middles if lo <= x <= hi]
    if not inside:
        return None
    gutter = min(inside, key=lambda x: abs(x - width / 2))
    sides = [
        [_runs(b) for b in boxes if b.x1 <= gutter and b.boxclass in _TEXT],
        [_runs(b) for b in boxes if b.x0 >= gutter and b.boxclass in _TEXT],
    ]
    return gutter if prose_columns(sides, SIDE_PROSE) else None


def _line_height(boxes: Sequence[Any]) -> float:
    heights = sorted(
        ln["bbox"][3] - ln["bbox"][1] for b in boxes for ln in (b.textlines or []) if ln["spans"]
    )
    return heights[len(heights) // 2] if heights else 10.0


def _slabs(flow: list[Any], min_gap: float) -> list[list[Any]]:
    """The boxes cut into horizontal slabs at full-width gaps of at least ``min_gap``, top
    first; each slab keeps the layout model's order."""
    slab_of: dict[int, int] = {}
    bottom, slab = None, 0
    for b in sorted(flow, key=lambda b: b.y0):
        if bottom is not None and b.y0 - bottom >= min_gap:
            slab += 1
        bottom = b.y1 if bottom is None else max(bottom, b.y1)
        slab_of[id(b)] = slab
    slabs: list[list[Any]] = [[] for _ in range(slab + 1)]
    for b in flow:
        slabs[slab_of[id(b)]].append(b)
    return slabs


def _by_columns(slab: list[Any], width: float) -> list[Any] | None:
    """One slab in column order, or None when it has no two prose columns."""
    gutter = find_gutter(slab, width)
    if gutter is None:
        return None
    wide = sorted((b for b in slab if b.x0 < gutter < b.x1), key=lambda b: b.y0)
    bands: list[tuple[list[Any], list[Any]]] = [([], []) for _ in range(len(wide) + 1)]
    for b in slab:
        if b.x0 < gutter < b.x1:
            continue
        middle = (b.y0 + b.y1) / 2
        band = sum(1 for w in wide if w.y0 < middle)
        bands[band][0 if b.x1 <= gutter else 1].append(b)
    ordered: list[Any] = []
    for k, (left, right) in enumerate(bands):
        ordered += left + right
        if k < len(wide):
            ordered.append(wide[k])
    return ordered


def _same_order(a: list[Any], b: list[Any]) -> bool:
    """The same boxes in the same order (identity: box equality would compare all their text)."""
    return all(x is y for x, y in zip(a, b, strict=True))


def read_columns(boxes: list[Any], width: float) -> list[Any]:
    """The boxes in column order (module rule); the same list when nothing moves."""
    flow = [b for b in boxes if b.boxclass not in _RUNNING]
    slabs = _slabs(flow, GAP_LINES * _line_height(flow))
    columns = [_by_columns(slab, width) for slab in slabs]
    if all(c is None or _same_order(c, slab) for c, slab in zip(columns, slabs, strict=True)):
        return boxes
    ordered = [b for b in boxes if b.boxclass == "page-header"]
    for c, slab in zip(columns, slabs, strict=True):
        ordered += slab if c is None else c
    ordered += [b for b in boxes if b.boxclass == "page-footer"]
    log.debug("two-column page read column by column")
    return ordered
