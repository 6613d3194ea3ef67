"""Labels, dates and sentences are not section titles (block form of the ``label-headings``
rule).

`demote_label_headings(pages)`: a heading block whose text as rendered (`blocks.Block.shown`)
`repairs.runin.is_label_title` finds a label, a date or a sentence becomes a text block (bold where its spans are): a
mixed-case title ending with a colon ("Parameters:", "On Windows, you have two options:")
introduces what follows inside the current section; a bare date ("February 2024") is a
title page's dateline; a sentence (ending with a period, six words or more) is body text set
large. As headings they replaced the section's own title in the chunk paths below them.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..repairs.runin import is_label_title
from .common import Pages, demoted, edited, in_order

log = logging.getLogger(__name__)


def demote_label_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks that are labels ending with a colon, bare dates or sentences become
    text blocks (module docstring)."""
    changes = {
        (n, i): demoted(block, "a label, a date or a sentence, not a title")
        for n, i, block in in_order(pages)
        if block.is_heading and is_label_title(block.shown)
    }
    if changes:
        log.debug("label headings made text: %d", len(changes))
    return edited(pages, changes)
