"""Labels, dates and sentences are not section titles (block form of the ``label-headings``
rule).

`demote_label_headings(pages)`: a heading block whose text as rendered (`blocks.Block.shown`)
`is_label_title` finds a label, a date or a sentence becomes a text block (bold where its spans are): a
mixed-case title ending with a colon ("Parameters:", "On Windows, you have two options:")
introduces what follows inside the current section; a bare date ("February 2024") is a
title page's dateline; a sentence (ending with a period, six words or more) is body text set
large. As headings they replaced the section's own title in the chunk paths below them.
"""

from __future__ import annotations

import logging
import re

from ..blocks import Block
from ..mdlines import strip_inline_markup
from .common import Pages, demoted, edited, in_order

log = logging.getLogger(__name__)

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_RE = re.compile(
    rf"(?:[a-z]+day,?\s+)?(?:{_MONTH}\s+(?:\d{{1,2}},?\s+)?\d{{4}}|\d{{1,2}}\s+{_MONTH}\s+\d{{4}})",
    re.IGNORECASE,
)


SENTENCE_WORDS = 6  # a title ending with a period and this many words is a sentence


def is_label_title(title: str) -> bool:
    """A mixed-case title ending with a colon, a bare date ("February 2024"), or a sentence."""
    plain = strip_inline_markup(title)
    if _DATE_RE.fullmatch(plain):
        return True
    if plain.endswith(".") and len(plain.split()) >= SENTENCE_WORDS:
        return True
    return plain.endswith(":") and plain.upper() != plain


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
