"""Table titles are not sections (block form of the ``table-titles`` rule).

A table that runs over a page break repeats its title on the next page with "—Continued"
("ESTIMATED COSTS—Continued", "Table 2 (cont.)"); layout models set the first occurrence as a
heading, and as a heading it would open a section that swallows every later heading of a lower
rank. `demote_table_titles(pages)`: a heading block whose title (`textkeys.words_key` of its
text) a later or earlier block of the document repeats as a continuation title
(`mdlines.continued_title`, blocks of at most `MAX_TITLE` characters) and whose next block in
reading order (page headers and footers aside, over page breaks) is a table becomes a text
block (bold where its spans are): the table stays in the section it belongs to.
"""

from __future__ import annotations

import logging

from ...textkeys import words_key
from ..blocks import Block
from ..mdlines import continued_title
from .common import MARGIN_KINDS, Pages, demoted, edited, in_order

log = logging.getLogger(__name__)

MAX_TITLE = 200  # characters: a longer block is no table title


def _continued_keys(pages: Pages) -> set[str]:
    """The keys of the titles that blocks of the document continue."""
    keys = set()
    for _, _, block in in_order(pages):
        text = block.text
        if block.kind != "table" and len(text) <= MAX_TITLE and "cont" in text.lower():
            title = continued_title(text)  # the cheap test first: the pattern is slow
            if title:
                keys.add(words_key(title))
    return keys


def demote_table_titles(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A heading block that a continuation title repeats and that opens a table is the
    table's title: it becomes a text block (module docstring)."""
    keys = _continued_keys(pages)
    if not keys:
        return {n: tuple(blocks) for n, blocks in pages.items()}
    flow = [(n, i, b) for n, i, b in in_order(pages) if b.kind not in MARGIN_KINDS]
    changes = {}
    for k, (n, i, block) in enumerate(flow):
        following = next((b for _, _, b in flow[k + 1 :] if b.text or b.table), None)
        if (
            block.is_heading
            and words_key(block.text) in keys
            and following is not None
            and following.kind == "table"
        ):
            changes[(n, i)] = demoted(block, "a table's title: a continuation repeats it")
    if changes:
        log.debug("table titles made text: %d", len(changes))
    return edited(pages, changes)
