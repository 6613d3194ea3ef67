"""What the block processors share: the document's blocks in reading order, and a heading
block made body text with the reason recorded."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from ..blocks import BOLD, CHAR_BOLD, Block, Kind, Line

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
    return replace(block, kind=kind, level=None, lines=lines, evidence=(*block.evidence, why))


def edited(pages: Pages, changes: Mapping[tuple[int, int], Block]) -> dict[int, tuple[Block, ...]]:
    """`pages` with the block at each (page number, index) of `changes` replaced."""
    return {
        number: tuple(changes.get((number, i), b) for i, b in enumerate(blocks))
        for number, blocks in pages.items()
    }


def line_text(block: Block, line: Line) -> str:
    """The plain text `line` of `block` renders to (the renderer's spacing between spans, which
    the spans' own text may lack: "As at" for spans "As" and "at")."""
    from ..mdlines import strip_inline_markup
    from ..render import block_markdown

    return strip_inline_markup(block_markdown(replace(block, kind="text", lines=(line,))))


def split_heading(
    block: Block, matches: Sequence[str], why: str, plain: Sequence[bool]
) -> list[Block]:
    """A heading block cut at its lines: runs of lines whose `matches` entry is "" stay heading
    blocks, each other line becomes a text block (`demoted`, plain where `plain` says) with
    `why` and the entry added to its evidence."""
    out: list[Block] = []
    run: list[Line] = []
    for line, match, flat in zip(block.lines, matches, plain, strict=True):
        if not match:
            run.append(line)
            continue
        if run:
            out.append(replace(block, lines=tuple(run), bbox=_union(run)))
            run = []
        part = replace(block, lines=(line,), bbox=line.bbox)
        out.append(demoted(part, f"{why}: {match}", plain=flat))
    if run:
        out.append(replace(block, lines=tuple(run), bbox=_union(run)))
    return out


def _union(lines: Sequence[Line]) -> tuple[float, float, float, float]:
    return (
        min(ln.bbox[0] for ln in lines),
        min(ln.bbox[1] for ln in lines),
        max(ln.bbox[2] for ln in lines),
        max(ln.bbox[3] for ln in lines),
    )


def spliced(
    pages: Pages, changes: Mapping[tuple[int, int], Sequence[Block]]
) -> dict[int, tuple[Block, ...]]:
    """`pages` with the block at each (page number, index) of `changes` replaced by blocks."""
    return {
        number: tuple(part for i, b in enumerate(blocks) for part in changes.get((number, i), (b,)))
        for number, blocks in pages.items()
    }
