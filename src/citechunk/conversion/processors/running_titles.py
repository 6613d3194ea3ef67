"""Running titles are not sections (block form of the ``running-titles`` rule).

Long documents reprint a title at the top of page after page (a company's name and "Notes to
the financial statements (Continued)", a report's title, a chapter name); layout models take
it for a heading on some pages, and as a heading it would parent whatever follows it on every
page and take a place in the document's heading scale.

`demote_running_titles(pages)`: a page's top blocks are its first `TOP_BLOCKS` blocks by
position (top edge, then left edge) among those with text that are no page header, page
footer or picture; the heading blocks and wholly bold text blocks among them are its opening
run, each alone and, when there are several, joined in that order ("PART I" / "Item 2"). A
title whose signature (`repairs.running_titles.signature`: case, digits, a label's number,
short parentheticals and punctuation ignored) opens `MIN_PAGES` pages or more is a running
title (a signature of labels and their numbers alone only when one exact title of it opens two
pages: `running_signatures`), and every heading block of the document with that signature, or
in an opening run whose joined signature is running, becomes a text block (bold where its
spans are). The pages need not follow each other; the cost is that a section title that opens
three pages by itself is read as a running title too.
"""

from __future__ import annotations

import logging

from ..blocks import Block
from ..repairs.running_titles import MIN_PAGES, exact_title, running_signatures, signature
from .common import MARGIN_KINDS, Pages, all_bold, demoted, edited

log = logging.getLogger(__name__)

TOP_BLOCKS = 3
_NOT_TOP = MARGIN_KINDS | {"picture"}


def top_run(blocks: tuple[Block, ...] | list[Block]) -> list[int]:
    """Indexes of the heading and wholly bold text blocks among the page's top blocks, in
    position order (module docstring)."""
    shown = [i for i, b in enumerate(blocks) if b.text and b.kind not in _NOT_TOP]
    top = sorted(shown, key=lambda i: (blocks[i].bbox[1], blocks[i].bbox[0]))[:TOP_BLOCKS]
    return [
        i for i in top if blocks[i].is_heading or (blocks[i].kind == "text" and all_bold(blocks[i]))
    ]


def _titles(blocks: tuple[Block, ...] | list[Block], run: list[int]) -> list[str]:
    titles = [blocks[i].text for i in run]
    return [*titles, " ".join(titles)] if len(titles) > 1 else titles


def demote_running_titles(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A heading that opens three or more pages is a running title: each heading block with
    its signature becomes a text block (module docstring)."""
    runs = {n: top_run(list(blocks)) for n, blocks in pages.items()}
    openers = [
        {(signature(t), exact_title(t)) for t in _titles(list(pages[n]), run) if signature(t)}
        for n, run in runs.items()
    ]
    running = running_signatures(openers)
    if not running:
        return {n: tuple(blocks) for n, blocks in pages.items()}
    joined = {
        (n, i)
        for n, run in runs.items()
        if len(run) > 1 and signature(" ".join(pages[n][i].text for i in run)) in running
        for i in run
    }
    changes = {}
    for n, blocks in pages.items():
        for i, block in enumerate(blocks):
            if block.is_heading and (signature(block.text) in running or (n, i) in joined):
                why = f"running title: its signature opens {MIN_PAGES}+ pages"
                changes[(n, i)] = demoted(block, why)
    if changes:
        log.debug("running titles made text (%d blocks): %s", len(changes), sorted(running))
    return edited(pages, changes)
