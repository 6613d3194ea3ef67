"""Labels, dates and sentences are not section titles (block form of the ``label-headings``
rule).

`demote_label_headings(pages)`: a line of a heading block whose text (`common.line_text`)
`repairs.runin.is_label_title` finds a label, a date or a sentence becomes a text block of its
own (bold where its spans are); the block's other lines stay a heading. A mixed-case title
ending with a colon ("Parameters:", "On Windows, you have two options:") introduces what
follows inside the current section; a bare date ("February 2024") is a title page's dateline;
a sentence (ending with a period, six words or more) is body text set large. As headings they
replaced the section's own title in the chunk paths below them.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..repairs.runin import is_label_title
from .common import Pages, in_order, line_text, spliced, split_heading

log = logging.getLogger(__name__)


def demote_label_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading lines that are labels ending with a colon, bare dates or sentences become text
    blocks (module docstring)."""
    changes = {}
    for n, i, block in in_order(pages):
        if not block.is_heading:
            continue
        found = ["label" if is_label_title(line_text(block, ln)) else "" for ln in block.lines]
        if any(found):
            why = "a label, a date or a sentence, not a title"
            changes[(n, i)] = split_heading(block, found, why, [False] * len(found))
    if changes:
        log.debug("label heading blocks cut: %d", len(changes))
    return spliced(pages, changes)
