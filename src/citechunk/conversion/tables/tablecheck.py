"""The table rule on the pymupdf layout path, before rendering (`tables.grid.check_grid`).

`check_table_boxes(boxes, fulltext, page)`: each "table" box pymupdf4llm rendered as a pipe
table is checked against the words of the text-layer lines inside the box. A table whose grid
the rule mended (cut words joined or moved to their word boundary, stacked header rows joined
per column) gets the mended rendering; a table whose grid contradicts the text layer is
replaced by one "text" box per horizontal text line inside it, in reading order (top to
bottom, left to right within a line), so every word reads as printed, and the page and the
reason are logged at debug level ("table flattened: page N: REASON"). Other tables are left
as rendered.
"""

from __future__ import annotations

import logging
from typing import Any

from ..rawlines import raw_lines
from .grid import check_grid, new_captions, parse, render, words

log = logging.getLogger(__name__)


def check_table_boxes(boxes: list[Any], fulltext: list[dict[str, Any]], page: int) -> list[Any]:
    """The boxes with each table mended or read as lines (module docstring). `boxes` are
    pymupdf4llm `LayoutBox` objects, `fulltext` the page's text blocks (``extractDICT``
    format) that pymupdf4llm parsed, `page` the 1-based page number (for the log)."""
    out: list[Any] = []
    for box in boxes:
        table = getattr(box, "table", None) if box.boxclass == "table" else None
        markdown = (table or {}).get("markdown")
        if not table or not markdown or not markdown.strip():
            out.append(box)
            continue
        lines = raw_lines(fulltext, tuple(table["bbox"]), ignore_invisible=False)
        checked = check_grid(parse(markdown.strip().split("\n")), words(_texts(lines)))
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
