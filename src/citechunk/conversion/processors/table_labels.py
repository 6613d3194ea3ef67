"""Lines that label a table's figures are not sections (block form of the ``table-labels`` rule).

`demote_table_labels(pages)`: a heading block whose text as rendered (`blocks.Block.shown`: small
capitals reach the blocks as spans without their blanks) is a unit line ("(in thousands, except per
share data)"), a bare period or a bare date ("Year Ended December 31,", "2022 2021":
`tables.labels.is_table_label`) becomes a text block (bold where its spans are): it names no
content of its own, only the unit or the period of the figures next to it, so the heading
above it keeps heading the section. A heading block that is a row of figures
(`tables.labels.is_figure_row`: a table's column header set in large type) becomes plain text.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..tables.labels import is_figure_row, is_table_label
from .common import Pages, demoted, edited, in_order

log = logging.getLogger(__name__)


def demote_table_labels(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A heading block that is a unit line, a bare period or a bare date becomes a text
    block; a row of figures becomes plain text (module docstring)."""
    changes = {}
    for n, i, block in in_order(pages):
        if not block.is_heading:
            continue
        if is_table_label(block.shown):
            changes[(n, i)] = demoted(block, "labels a table's figures: a unit or a period")
        elif is_figure_row(block.shown):
            changes[(n, i)] = demoted(block, "a row of figures", plain=True)
    if changes:
        log.debug("unit, period and figure-row headings made text: %d", len(changes))
    return edited(pages, changes)
