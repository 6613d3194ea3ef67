"""Tables checked against the page's text layer (pymupdf layout path, before rendering).

A table model that draws a column line through a word splits it between two cells
("11000 hours (Total, all aircr | aft)"); such a table reads worse than the page's plain lines
and hides the split words from search. `replace_disagreeing_tables(boxes, fulltext)`: a "table"
box with at least `MAX_CUT_WORDS` cut words — cell words the text layer inside the box does not
have but holds inside a longer word (words compared lower-cased, letters and digits only) — is
replaced by one "text" box per horizontal text line inside it, in reading order (top to bottom,
left to right within a line), so every word reads as printed. A table is kept when its cells
agree with the text layer, and when a cell word is missing from those lines for another reason
(vertical header text, letters a logo joined): the lines would lose it.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)

MAX_CUT_WORDS = 2
_WORD_RE = re.compile(r"[^\W_]+")


def words(texts: Iterable[str]) -> Counter[str]:
    """Lower-cased runs of letters and digits of `texts`, counted."""
    return Counter(w for t in texts for w in _WORD_RE.findall(t.lower()))


def cut_words(cells: Iterable[Iterable[str | None]], layer: Counter[str]) -> tuple[int, int]:
    """(cut, lost): cell words (with repeats) the text layer lacks, split into those that are
    part of a longer text-layer word (cut by a column line) and the others."""
    have = words(c for row in cells for c in row if c)
    cut = lost = 0
    for w, n in have.items():
        extra = n - layer[w]
        if extra > 0:
            if any(w in longer and w != longer for longer in layer):
                cut += extra
            else:
                lost += extra
    return cut, lost


def replace_disagreeing_tables(boxes: list[Any], fulltext: list[dict[str, Any]]) -> list[Any]:
    """The boxes with each table that disagrees with the text layer replaced by its lines
    (module docstring). `boxes` are pymupdf4llm `LayoutBox` objects, `fulltext` the page's
    text blocks (``extractDICT`` format) that pymupdf4llm parsed."""
    from pymupdf4llm.helpers.get_text_lines import get_raw_lines

    out: list[Any] = []
    for box in boxes:
        table = getattr(box, "table", None) if box.boxclass == "table" else None
        if not table or not table.get("extract"):
            out.append(box)
            continue
        lines = get_raw_lines(
            textpage=None, blocks=fulltext, clip=tuple(table["bbox"]), ignore_invisible=False
        )
        layer = words(span["text"] for _, spans in lines for span in spans)
        cut, lost = cut_words(table["extract"], layer)
        if cut < MAX_CUT_WORDS or lost:
            out.append(box)
            continue
        log.debug("table with %d words the text layer lacks read as lines", cut)
        out.extend(_line_box(type(box), bbox, spans) for bbox, spans in lines)
    return out


def _line_box(box_type: Any, bbox: Any, spans: list[dict[str, Any]]) -> Any:
    x0, y0, x1, y1 = tuple(bbox)
    return box_type(x0, y0, x1, y1, "text", textlines=[{"bbox": bbox, "spans": spans}])
