"""What the heading stage's steps share: the document's heading blocks in reading order, and a
heading block given a level with the reason recorded."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from ..blocks import Block, Layer

Pages = Mapping[int, Sequence[Block]]
#: A block's place: (page number, index on the page).
Place = tuple[int, int]


def body_blocks(pages: Pages) -> Iterator[tuple[Place, Block]]:
    """((page number, index), block) of every block that is written (not furniture), pages in
    ascending order."""
    for number in sorted(pages):
        for index, block in enumerate(pages[number]):
            if block.layer is not Layer.FURNITURE:
                yield (number, index), block


def level_of(block: Block) -> int:
    """The level a heading block is written at (6 when unset, as `render` writes it)."""
    return block.level or 6


def leveled(block: Block, level: int, why: str) -> Block:
    """`block` at heading `level`, `why` added to its evidence (the block itself when its
    level is already `level`)."""
    if block.level == level:
        return block
    return replace(block, level=level, evidence=(*block.evidence, why))
