"""Lines that label a table's figures are not sections (block form of the ``table-labels`` rule).

`demote_table_labels(pages)`: a line of a heading block that is a unit line ("(in thousands,
except per share data)"), a bare period or a bare date ("Year Ended December 31,", "2022
2021": `tables.labels.is_table_label`) becomes a text block of its own (bold where its spans
are): it names no content of its own, only the unit or the period of the figures next to it,
so the heading above it keeps heading the section. A line that is a row of figures
(`tables.labels.is_figure_row`: a table's column header set in large type) becomes plain text.
The block's other lines stay a heading. A line's text is the text it renders to
(`common.line_text`).
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..tables.labels import is_figure_row, is_table_label
from .common import Pages, in_order, line_text, spliced, split_heading

log = logging.getLogger(__name__)


def _label(text: str) -> str:
    if is_table_label(text):
        return "unit or period"
    return "row of figures" if is_figure_row(text) else ""


def demote_table_labels(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A heading line that is a unit line, a bare period or a bare date becomes a text block;
    a row of figures plain text (module docstring)."""
    changes = {}
    for n, i, block in in_order(pages):
        if not block.is_heading:
            continue
        found = [_label(line_text(block, line)) for line in block.lines]
        if any(found):
            plain = [f == "row of figures" for f in found]
            changes[(n, i)] = split_heading(block, found, "labels a table's figures", plain)
    if changes:
        log.debug("unit, period and figure-row heading blocks cut: %d", len(changes))
    return spliced(pages, changes)
