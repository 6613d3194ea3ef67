"""The table rule on the pymupdf layout path, before rendering (`tables.grid.check_grid`).

`check_table_boxes(boxes, fulltext, page)`: each "table" box pymupdf4llm rendered as a pipe
table is checked against the words of the text-layer lines inside the box. A table whose grid
the rule mended (cut words joined or moved to their word boundary, stacked header rows joined
per column) gets the mended rendering; a table whose grid contradicts the text layer is
replaced by one "text" box per horizontal text line inside it, in reading order (top to
bottom, left to right within a line), so every word reads as printed, and the page and the
reason are logged at debug level ("table flattened: page N: REASON"). Other tables are left
as rendered.

A grid that still cuts words after mending (`grid.cut_words`) has its column lines in the
wrong place, not a wrong shape: before it is flattened, each cell of the box's grid
(pymupdf4llm's cell boxes) is read again as the text-layer words whose middle lies inside it,
so no word or phrase is cut (`cellwords`), and that grid is checked in its place ("table
re-read: page N").
"""

from __future__ import annotations

import logging
from typing import Any

from ..blocks import as_box
from ..rawlines import raw_lines
from .cellwords import read_cells
from .grid import Checked, check_grid, new_captions, parse, render, words
from .header import Grid

log = logging.getLogger(__name__)


def check_table_boxes(
    boxes: list[Any], fulltext: list[dict[str, Any]], page: int, pdf_page: Any = None
) -> list[Any]:
    """The boxes with each table mended or read as lines (module docstring). `boxes` are
    pymupdf4llm `LayoutBox` objects, `fulltext` the page's text blocks (``extractDICT``
    format) that pymupdf4llm parsed, `page` the 1-based page number (for the log),
    `pdf_page` the PyMuPDF page (its words re-read a grid that cuts words; None: no re-read)."""
    out: list[Any] = []
    for box in boxes:
        table = getattr(box, "table", None) if box.boxclass == "table" else None
        markdown = (table or {}).get("markdown")
        if not table or not markdown or not markdown.strip():
            out.append(box)
            continue
        lines = raw_lines(fulltext, tuple(table["bbox"]), ignore_invisible=False)
        layer = words(_texts(lines))
        checked = check_grid(parse(markdown.strip().split("\n")), layer)
        reread = _reread(table, pdf_page) if _cuts_left(checked) else None
        if reread is not None:
            again = check_grid(reread, layer)
            if not again.reason:
                log.debug("table re-read: page %d: %s", page, checked.reason)
                checked = Checked(again.grid, changed=True, caption=again.caption)
        if checked.reason:
            log.debug("table flattened: page %d: %s", page, checked.reason)
            out.extend(_line_box(type(box), bbox, spans) for bbox, spans in lines)
            continue
        if checked.changed:
            log.debug("table mended: page %d: %d cut words", page, checked.mended)
            lines_above = new_captions(checked.caption, _last_line(out))
            caption = "".join(f"**{line}**\n\n" for line in lines_above)
            table["markdown"] = caption + render(checked.grid, "<br>") + "\n\n"
        out.append(box)
    return out


def _cuts_left(checked: Checked) -> bool:
    """The grid was to be flattened for words its column lines cut."""
    return checked.reason.endswith("cut words left after mending")


def _reread(table: dict[str, Any], pdf_page: Any) -> Grid | None:
    """The table's grid with each cell the words of `pdf_page` whose middle lies inside the
    cell's box (`cellwords.read_cells`: whole phrases); None without cell boxes or a page."""
    cells = table.get("cells")
    if pdf_page is None or not cells:
        return None
    boxes = [[as_box(c) if c is not None else None for c in row] for row in cells]
    found = pdf_page.get_text("words", clip=tuple(table["bbox"]), sort=False)
    grid: Grid = [
        [[t.replace("|", "\\|")] if t else [] for t in row] for row in read_cells(boxes, found)
    ]
    return grid if any(any(row) for row in grid) else None


def _last_line(boxes: list[Any]) -> str:
    """The text of the last line of the box before the table ("" when there is none)."""
    textlines = getattr(boxes[-1], "textlines", None) if boxes else None
    if not textlines:
        return ""
    return " ".join(span.get("text", "") for span in textlines[-1].get("spans", [])).strip()


def _texts(lines: list[Any]) -> list[str]:
    return [span["text"] for _, spans in lines for span in spans]


def _line_box(box_type: Any, bbox: Any, spans: list[dict[str, Any]]) -> Any:
    x0, y0, x1, y1 = tuple(bbox)
    return box_type(x0, y0, x1, y1, "text", textlines=[{"bbox": bbox, "spans": spans}])
