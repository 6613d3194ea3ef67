"""One heading stage for the whole document: the levels of its title and section-header blocks.

The rule: a heading block's level is the rank of its type size (`blocks.Block.size`, whole
points) among the distinct sizes of every heading block of the document, largest first
(level 1); sizes below the sixth largest are level 6. The scale is read once over all pages,
whichever parse, model or page group read them, so headings set alike are peers wherever they
stand, and a heading's level never depends on which model read its page. The Markdown passes
after rendering (outline, numbering) still repair levels where the document says more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .blocks import Block

MAX_LEVEL = 6


def size_scale(blocks: Sequence[Block]) -> tuple[int, ...]:
    """The heading sizes of `blocks`, largest first, at most `MAX_LEVEL` of them."""
    sizes = {b.size for b in blocks if b.is_heading}
    return tuple(sorted(sizes, reverse=True)[:MAX_LEVEL])


def level_headings(pages: Mapping[int, Sequence[Block]]) -> dict[int, tuple[Block, ...]]:
    """Each page's blocks with every heading's level set from the document's size scale
    (module docstring); other blocks unchanged."""
    scale = size_scale([b for blocks in pages.values() for b in blocks])
    return {n: tuple(_leveled(b, scale) for b in blocks) for n, blocks in pages.items()}


def _leveled(block: Block, scale: tuple[int, ...]) -> Block:
    if not block.is_heading:
        return block
    level = scale.index(block.size) + 1 if block.size in scale else MAX_LEVEL
    why = f"size {block.size} pt: {level} of {len(scale)} heading sizes in the document"
    return replace(block, level=level, evidence=(*block.evidence, why))
