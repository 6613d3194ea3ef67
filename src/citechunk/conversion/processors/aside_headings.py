"""A bracketed aside is not a heading (``aside-headings``).

`demote_aside_headings(pages)`: a heading block whose text as rendered (`blocks.Block.shown`,
inline markup stripped) is one bracketed phrase, its opening bracket first and the matching
closing bracket last ("(Text with EEA relevance)", "(Unaudited)", "[Reserved]"), becomes a
plain text block. Such a line qualifies what stands before it or announces a continuation; it
names no section, and as a heading it parents every paragraph up to the next heading.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..mdlines import strip_inline_markup
from .common import Pages, demoted, edited, in_order

log = logging.getLogger(__name__)

_PAIRS = {"(": ")", "[": "]"}


def is_aside(title: str) -> bool:
    """Whether `title` is one bracketed phrase: the bracket it opens with closes at its end."""
    text = strip_inline_markup(title).strip()
    if len(text) < 3 or text[0] not in _PAIRS or text[-1] != _PAIRS[text[0]]:
        return False
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == text[0]) - (ch == text[-1])
        if depth == 0:
            return k == len(text) - 1
    return False


def demote_aside_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks that are one bracketed phrase become plain text blocks (module
    docstring)."""
    changes = {
        (n, i): demoted(block, "a bracketed aside", plain=True)
        for n, i, block in in_order(pages)
        if block.is_heading and is_aside(block.shown)
    }
    if changes:
        log.debug("bracketed asides read as headings, made text: %d", len(changes))
    return edited(pages, changes)
