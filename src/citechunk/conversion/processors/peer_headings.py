"""A numbered label set like the document's headings of that label is a heading too (block form
of the ``peer-headings`` rule).

`promote_peer_headings(pages)`: a one-line text block whose whole text is a label word and a
number ("Article 12", "SECTION 3", "Rule IV") becomes a section-header block when at least
`MIN_PEERS` heading blocks of the document are that label word with other numbers, set in the
same style: size to the point, bold, italic (`style`). Headings that share a style are peers; a
layout model that reads one of them as body text breaks the run of sections, and every chunk
after it is filed under the section before. Its level is left to the heading stage, which
levels it with its peers.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace

from ..blocks import Block
from ..numbers import numbered_label
from .common import Pages, edited, in_order

log = logging.getLogger(__name__)

#: Headings of one label and style needed before a text block of that label and style joins them.
MIN_PEERS = 3

Style = tuple[int, bool, bool]


def style(block: Block) -> Style | None:
    """(size to the point, bold, italic) shared by every visible span of the block, else None."""
    spans = [s for line in block.lines for s in line.spans if s.text.strip()]
    styles = {(round(s.size), s.bold, s.italic) for s in spans}
    return styles.pop() if len(styles) == 1 else None


def _key(block: Block) -> tuple[str, Style] | None:
    label = numbered_label(block.text)
    shown = style(block) if label else None
    return (label, shown) if label and shown else None


def promote_peer_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """One-line text blocks set like `MIN_PEERS` or more headings of their numbered label
    become section-header blocks (module docstring)."""
    peers = Counter(key for _, _, b in in_order(pages) if b.is_heading and (key := _key(b)))
    why = "a numbered label set like the document's headings of that label"
    changes = {
        (n, i): replace(block, kind="section-header", level=None, evidence=(*block.evidence, why))
        for n, i, block in in_order(pages)
        if block.kind == "text"
        and len(block.lines) == 1
        and (key := _key(block))
        and peers[key] >= MIN_PEERS
    }
    if changes:
        log.debug("numbered labels made headings like their peers: %d", len(changes))
    return edited(pages, changes)
