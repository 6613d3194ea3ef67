"""A piece of a sentence is not a heading (block form of the ``sentence-headings`` rule).

A line set apart by a page or column break, or in a larger font for emphasis, can reach the
blocks as a heading although it is the middle or the end of a sentence ("flatfile) with the
database name."). `demote_sentence_headings(pages)` makes every heading block whose text as
rendered (`blocks.Block.shown`) `repairs.sentence_headings.is_sentence_piece` finds a piece
(it opens with a closing bracket or sentence punctuation, ends with a comma, semicolon or hyphen, or is a lower-case run of
words after body text that does not end a sentence) a plain text block: a body line, its bold
dropped. The body text before a heading is the last text of the blocks before it in reading
order, over page breaks, page headers, footers, footnotes and pictures left aside; a table or code block
ends a sentence, and a heading before it leaves none.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..repairs.sentence_headings import is_sentence_piece
from .common import MARGIN_KINDS, Pages, demoted, edited, in_order

log = logging.getLogger(__name__)

_ASIDE = MARGIN_KINDS | {"footnote", "picture"}
_ENDS_SENTENCE = frozenset({"table", "code"})


def _body_text(block: Block) -> str:
    """What the body before a heading says of `block`: its last line's text ("." for a
    table or code block: they end a sentence)."""
    if block.kind in _ENDS_SENTENCE:
        return "."
    lines = [line.shown for line in block.lines if line.shown]
    return lines[-1] if lines else ""


def demote_sentence_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks that are pieces of a sentence become plain text blocks (module
    docstring)."""
    before, changes = "", {}
    for n, i, block in in_order(pages):
        if block.kind in _ASIDE or not block.text:
            continue
        if block.is_heading:
            if is_sentence_piece(block.shown, before):
                changes[(n, i)] = demoted(block, "a piece of a sentence", plain=True)
                before = block.lines[-1].shown
            else:
                before = ""
            continue
        before = _body_text(block) or before
    if changes:
        log.debug("sentence pieces read as headings, made text: %d", len(changes))
    return edited(pages, changes)
