"""What the block processors share: the document's blocks in reading order, and a heading
block made body text with the reason recorded."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace

from ..blocks import BOLD, CHAR_BOLD, Block, Kind, Line
from ..textlayer import union_box

Pages = Mapping[int, Sequence[Block]]
#: Blocks that are no part of the text's flow: running headers and footers, page furniture.
MARGIN_KINDS = frozenset({"page-header", "page-footer"})


def in_order(pages: Pages) -> Iterator[tuple[int, int, Block]]:
    """(page number, index on the page, block) of every block, pages in ascending order."""
    for number in sorted(pages):
        for index, block in enumerate(pages[number]):
            yield number, index, block


def all_bold(block: Block) -> bool:
    """Every span of the block that shows text is bold (and one does)."""
    spans = [s for line in block.lines for s in line.spans if s.text.strip()]
    return bool(spans) and all(s.bold for s in spans)


def _unbolded(line: Line) -> Line:
    spans = tuple(
        replace(s, flags=s.flags & ~BOLD, char_flags=s.char_flags & ~CHAR_BOLD) for s in line.spans
    )
    return replace(line, spans=spans)


def demoted(block: Block, why: str, kind: Kind = "text", plain: bool = False) -> Block:
    """`block` as a block of `kind` (a "text" block renders bold where its spans are bold;
    with `plain` its bold is dropped: a body line), no level, `why` added to its evidence."""
    lines = tuple(_unbolded(line) for line in block.lines) if plain else block.lines
    evidence = (*block.evidence, why)
    return replace(block, kind=kind, level=None, settled=False, lines=lines, evidence=evidence)


def part(
    block: Block, lines: tuple[Line, ...], kind: Kind, why: str, depth: int | None = None
) -> Block:
    """A block cut from `block`: its `lines`, boxed by them, of `kind`, no level (the heading
    stage sets it), `why` added to its evidence; its list nesting `depth` when given."""
    return replace(
        block,
        bbox=union_box(line.bbox for line in lines),
        kind=kind,
        lines=lines,
        level=None,
        depth=block.depth if depth is None else depth,
        evidence=(*block.evidence, why),
    )


def edited(pages: Pages, changes: Mapping[tuple[int, int], Block]) -> dict[int, tuple[Block, ...]]:
    """`pages` with the block at each (page number, index) of `changes` replaced."""
    return {
        number: tuple(changes.get((number, i), b) for i, b in enumerate(blocks))
        for number, blocks in pages.items()
    }


def lines_mapped(
    pages: Pages, kinds: Collection[str], rule: Callable[[Line], Line], why: str
) -> dict[int, tuple[Block, ...]]:
    """`pages` with `rule` applied to each line of every block of one of `kinds`; a block whose
    lines `rule` changed (returned a new line) records `why` in its evidence."""
    return {
        n: tuple(_line_mapped(b, kinds, rule, why) for b in blocks) for n, blocks in pages.items()
    }


def _line_mapped(
    block: Block, kinds: Collection[str], rule: Callable[[Line], Line], why: str
) -> Block:
    if block.kind not in kinds:
        return block
    lines = tuple(rule(line) for line in block.lines)
    if all(a is b for a, b in zip(lines, block.lines, strict=True)):
        return block
    return replace(block, lines=lines, evidence=(*block.evidence, why))


def changed_blocks(before: Pages, after: Mapping[int, Sequence[Block]]) -> int:
    """How many blocks of `after` are not the very blocks of `before`."""
    return sum(a is not b for n in after for a, b in zip(after[n], before[n], strict=True))
