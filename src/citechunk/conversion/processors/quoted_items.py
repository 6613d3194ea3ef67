"""A list item that opens with a quotation mark is a quotation, not a list item (block rule
``quoted-items``).

A list item opens with its marker: a bullet, a number or a letter. A quotation set in from
the text with its opening quotation mark hung left of its lines (a judgment quoting a
precedent) has the shape the layout model reads as a list item, and it would be written as a
``- `` item, nested deeper for each quotation set further in. `quoted_items(pages)`: a
list-item block whose text opens with a quotation mark (`QUOTES`) becomes a text block, so
the quotation reads as the paragraph it is. An item opening with a bullet glyph and then a
quotation ("• “Restrict where this build can run” is checked") keeps its kind.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from .common import Pages, demoted

log = logging.getLogger(__name__)

#: Opening quotation marks (and the closing forms some languages open with).
QUOTES = frozenset("“”„\"‘’‚'«»")


def opens_with_quote(block: Block) -> bool:
    """The block's text, blanks aside, opens with a quotation mark."""
    return block.shown.lstrip()[:1] in QUOTES


def _unlisted(block: Block) -> Block:
    if block.kind != "list-item" or not opens_with_quote(block):
        return block
    return demoted(block, "quoted items: a quotation, not a list item")


def quoted_items(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """List-item blocks that open with a quotation mark become text blocks (module docstring)."""
    out = {n: tuple(_unlisted(b) for b in blocks) for n, blocks in pages.items()}
    changed = sum(a is not b for n in out for a, b in zip(out[n], pages[n], strict=True))
    log.debug("quotations read as list items made text in %d blocks", changed)
    return out
