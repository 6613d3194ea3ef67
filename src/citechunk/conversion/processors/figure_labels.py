"""The labels inside a figure are no body text (block rule ``figure-labels``).

A picture's text lines are what is printed inside the drawing: a chart's tick values, axis
titles and legend entries, a diagram's callouts, a pin-out's pin names. The renderer writes
them one after another, so a chunk reads "$24 $22 $20 …" or "E E III III II" between its
paragraphs: words with no sentence around them, which neither a reader nor a retriever can
use (the figure's caption, a block of its own, says what the figure shows).

`figure_labels(pages)`: a picture block is *labels* when at least `LABEL_SHARE` of its lines
hold at most `LABEL_WORDS` words each; its lines are taken out (the block stays, rendered as
a figure without text). A picture whose lines are mostly longer (a boxed algorithm, a text
panel the layout model took for a picture) keeps them, and so does a picture on a page with
no other body text (a slide, a poster or a scan the model read as one picture: its text is
the page's content). `label_boxes` gives the boxes of the pictures whose labels went, so
the text-layer self-check (`repairs.restore`) does not bring the labels back.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..blocks import Block, Box
from .common import Pages, changed_blocks

log = logging.getLogger(__name__)

#: A label line holds at most this many words ("VOUT = 1.8V", "List Scheduling", "$24").
LABEL_WORDS = 4
#: Share of a picture's lines that must be label lines.
LABEL_SHARE = 2 / 3
#: Kinds of block that make a page's body text besides its pictures.
_EVIDENCE = " figure label lines out"
_BODY_KINDS = frozenset({"text", "list-item", "section-header", "title", "table", "code"})


def is_labels(block: Block) -> bool:
    """The picture's text is labels (module docstring)."""
    lines = [line.shown for line in block.lines if line.shown]
    short = sum(len(text.split()) <= LABEL_WORDS for text in lines)
    return bool(lines) and short >= LABEL_SHARE * len(lines)


def _page(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    if not any(b.kind in _BODY_KINDS and b.shown for b in blocks):
        return blocks
    return tuple(
        replace(b, lines=(), evidence=(*b.evidence, f"{len(b.lines)}{_EVIDENCE}"))
        if b.kind == "picture" and is_labels(b)
        else b
        for b in blocks
    )


def _left_out(block: Block) -> bool:
    return any(e.endswith(_EVIDENCE) for e in block.evidence)


def figure_labels(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Each page's pictures without their label lines (module docstring)."""
    out = {n: _page(tuple(blocks)) for n, blocks in pages.items()}
    log.debug("figure labels taken out of %d blocks", changed_blocks(pages, out))
    return out


def label_boxes(pages: Pages) -> dict[int, tuple[Box, ...]]:
    """Per page, the boxes of the pictures whose label lines this rule took out (pages
    without one left out)."""
    out = {n: tuple(b.bbox for b in blocks if _left_out(b)) for n, blocks in pages.items()}
    return {n: boxes for n, boxes in out.items() if boxes}
