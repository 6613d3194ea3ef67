"""One heading stage for the whole document: the levels of its title and section-header blocks.

The rule: headings are grouped by style, their type size (`blocks.Block.size`, whole points)
and, within one size, the depth of the number they open with (`numbers.number_depth`: a
heading number, or a word and a dotted number such as "Guideline 1.2:"; an unnumbered heading
takes the smallest depth of its size). A heading's level is the rank of its style among the
styles of every heading block of the document, larger size first, then shallower number
(level 1); styles below the sixth are level 6. A heading block without a type size (an OCR'd page's: the
engine reads no font) takes no place in the scale and keeps the level its reader gave it.
The scale is read once over all pages, whichever parse, model or
page group read them, so headings set alike are peers wherever they stand, and a heading's
level never depends on which model read its page. A heading whose level a processor settled
from the other headings' levels (`blocks.Block.settled`: a numbered lead-in takes its pattern's
level) keeps it and takes no place in the scale. The Markdown passes after rendering
(outline, numbering) still repair levels where the document says more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .blocks import Block
from .numbers import number_depth

MAX_LEVEL = 6

Style = tuple[int, int]  # (-size, number depth): sorts as the levels go


def styles(blocks: Sequence[Block]) -> dict[int, Style]:
    """Each heading block's style, by its position in `blocks` (module docstring)."""
    depths = {
        i: number_depth(b.text)
        for i, b in enumerate(blocks)
        if b.is_heading and b.size and not b.settled
    }
    shallowest: dict[int, int] = {}
    for i, depth in depths.items():
        if depth is not None:
            size = blocks[i].size
            shallowest[size] = min(depth, shallowest.get(size, depth))
    return {
        i: (-blocks[i].size, depth or shallowest.get(blocks[i].size, 1))
        for i, depth in depths.items()
    }


def level_headings(pages: Mapping[int, Sequence[Block]]) -> dict[int, tuple[Block, ...]]:
    """Each page's blocks with every heading's level set from the document's style scale
    (module docstring); other blocks unchanged."""
    flat = [(n, b) for n, blocks in pages.items() for b in blocks]
    style = styles([b for _, b in flat])
    scale = sorted(set(style.values()))
    out: dict[int, list[Block]] = {n: [] for n in pages}
    for i, (n, block) in enumerate(flat):
        if i in style:
            rank = scale.index(style[i]) + 1
            level = min(rank, MAX_LEVEL)
            why = f"size {block.size} pt, number depth {style[i][1]}: style {rank} of {len(scale)}"
            block = replace(block, level=level, evidence=(*block.evidence, why))
        out[n].append(block)
    return {n: tuple(blocks) for n, blocks in out.items()}
