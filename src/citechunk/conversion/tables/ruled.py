"""Ruled grids the layout model did not call a table (layout pass `ruled-tables`).

A region whose drawn rules form a grid is a table even when the layout model called its
text a picture, text or headings. `ruled_table_boxes(boxes, page, box_type)`: on a page whose
vector paths could draw a grid (`triage.drawn_grid`), PyMuPDF's table finder runs on the
drawn lines alone (``use_layout=False``: not gated by the layout model's own tables). A grid
it finds becomes one "table" box in place of the layout boxes it holds when

* it has `MIN_ROWS` rows and `MIN_COLUMNS` columns holding text, and at least
  `MIN_FILLED` of its cells hold text (a form's empty fields, a chart's plot area and a
  framed box of one column are no table);
* it overlaps no table box of the layout model (that table is checked by `table-check`);
* the boxes whose centre lies inside it lie inside it (`INSIDE` of their area), and no other
  box has a text line there (the grid holds exactly the text of the boxes it replaces).

Each cell holds the text-layer phrases whose middle lies inside it (`cellwords.read_cells`),
so no column line cuts a word; rows without text are left out.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ..blocks import Box, as_box, layout_box
from ..furniture import centred_in
from ..plaintext import grid
from ..triage import drawn_grid
from .cellwords import read_cells

log = logging.getLogger(__name__)

#: Rows and columns holding text that a ruled grid needs to be a table.
MIN_ROWS = 2
MIN_COLUMNS = 2
#: Share of a grid's cells that must hold text.
MIN_FILLED = 0.5
#: Share of a layout box's area that must lie inside the grid for the grid to replace it.
INSIDE = 0.8
#: PyMuPDF's finder strategy: drawn lines and thin filled rectangles are column and row lines.
STRATEGY = "lines"
_KEEP = frozenset({"table", "page-header", "page-footer"})


def ruled_table_boxes(boxes: list[Any], pdf_page: Any, box_type: Any) -> list[Any]:
    """`boxes` with each ruled grid the layout model missed as one table box (module
    docstring); `pdf_page` is the PyMuPDF page, `box_type` pymupdf4llm's box class."""
    if not any(b.boxclass not in _KEEP for b in boxes) or not drawn_grid(pdf_page):
        return boxes
    found = pdf_page.find_tables(strategy=STRATEGY, use_layout=False).tables
    if not found:
        return boxes
    words = pdf_page.get_text("words", sort=False)
    number = int(pdf_page.number) + 1
    for table in found:
        bbox = as_box(table.bbox)
        cells = [[as_box(c) if c is not None else None for c in row.cells] for row in table.rows]
        rows = read_cells(cells, words)
        taken = _taken(boxes, bbox)
        if not taken or not _is_table(rows) or _overlaps_table(boxes, bbox):
            continue
        if _text_elsewhere(boxes, taken, bbox):
            continue
        kept = [r for r in rows if any(r)]
        log.debug("ruled grid read as a table: page %d: %d x %d", number, len(kept), len(rows[0]))
        new = box_type(*bbox, "table")
        new.table = {
            "bbox": list(bbox),
            "row_count": len(kept),
            "col_count": table.col_count,
            "cells": None,
            "extract": None,
            "markdown": grid(kept),
        }
        at = min(taken)
        boxes = [new if i == at else b for i, b in enumerate(boxes) if i == at or i not in taken]
    return boxes


def _is_table(rows: Sequence[Sequence[str]]) -> bool:
    """`MIN_ROWS` rows and `MIN_COLUMNS` columns with text, `MIN_FILLED` of the cells filled."""
    cells = [c for r in rows for c in r]
    filled = sum(1 for c in cells if c)
    columns = sum(1 for j in range(max(map(len, rows), default=0)) if any(_at(r, j) for r in rows))
    text_rows = sum(1 for r in rows if any(r))
    return (
        text_rows >= MIN_ROWS
        and columns >= MIN_COLUMNS
        and bool(cells)
        and filled >= MIN_FILLED * len(cells)
    )


def _at(row: Sequence[str], j: int) -> str:
    return row[j] if j < len(row) else ""


def _inside_share(inner: Box, outer: Box) -> float:
    """The share of `inner`'s area inside `outer` (1.0 for a box without area)."""
    w = min(inner[2], outer[2]) - max(inner[0], outer[0])
    h = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    if area <= 0:
        return 1.0
    return max(w, 0.0) * max(h, 0.0) / area


def _taken(boxes: Sequence[Any], bbox: Box) -> set[int]:
    """Indexes of the boxes the grid replaces: those centred inside it, other than tables and
    running lines; empty when one of them reaches out of the grid."""
    taken = {
        i
        for i, b in enumerate(boxes)
        if b.boxclass not in _KEEP and centred_in(layout_box(b), bbox)
    }
    if any(_inside_share(layout_box(boxes[i]), bbox) < INSIDE for i in taken):
        return set()
    return taken


def _overlaps_table(boxes: Sequence[Any], bbox: Box) -> bool:
    """A table box of the layout model overlaps the grid."""
    return any(b.boxclass == "table" and _inside_share(layout_box(b), bbox) > 0 for b in boxes)


def _text_elsewhere(boxes: Sequence[Any], taken: set[int], bbox: Box) -> bool:
    """A box the grid does not replace has a text line centred inside the grid."""
    return any(
        centred_in(as_box(line["bbox"]), bbox)
        for i, b in enumerate(boxes)
        if i not in taken and b.boxclass != "table"
        for line in (getattr(b, "textlines", None) or ())
    )
