"""Boxes: blocks a drawn rectangle sets apart from the page's body (a sidebar, a boxed note)
are a section of their own, so a heading inside one scopes that box only.

The rule, over a page's blocks and its vector drawings (read once per page, `page_rects`):

- A *drawn rectangle* is a path of rectangles, quads or lines at least `MIN_SIDE` points on
  each side that shows: stroked, or filled with a colour that is not white (a white fill is
  the invisible frame a page-layout program draws behind every text frame). Pages with more
  than `MAX_PATHS` paths (a vector figure, a chart) are not read.
- A *box* is a drawn rectangle that encloses (within `TOLERANCE` points) a heading block and
  at least one other text block of the body, but not every body block of the page, that is
  at most `MAX_WIDTH` of the width the page's body blocks span (a sidebar or note beside the
  text, not a banner or a frame across the page: a title banner's heading heads the page),
  whose text is at most `MAX_SHARE` of the page's body text (set apart from the body, not
  the body's frame), and which is not a table's frame (no table block covers most of it).
  Of rectangles nested in one another the outermost box counts.
- A box's blocks move, in their order, to just before the next body heading after the box
  on its page, or to the page's end when no body heading follows on the page but the next
  page's first body block is a heading; its headings take level `BOX_LEVEL` (the deepest),
  so that next heading, whatever its level, closes them and the body after the box is not
  under them. Where the body runs on past the page's end without a heading, the box stays
  where it is and its headings become text lines: nothing would close a heading there.

The blocks keep their page, so citations are unchanged. Evidence names the box's rectangle.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .blocks import Block, Box, Layer, box_area
from .layers import RUNNING_KINDS

log = logging.getLogger(__name__)

#: Points: a drawn rectangle narrower or lower than this frames no text block.
MIN_SIDE = 24.0
#: A page with more drawn paths than this is a vector figure: its drawings are not read.
MAX_PATHS = 3000
#: Points a block may stand out of a rectangle and still be enclosed by it.
TOLERANCE = 3.0
#: A box holds at most this share of its page's body characters.
MAX_SHARE = 0.4
#: A box is at most this share of the width the page's body blocks span.
MAX_WIDTH = 0.7
#: A fill whose every channel is at least this is white (an invisible frame).
WHITE = 0.95
#: The level of a box's headings: the deepest, closed by any heading after the box.
BOX_LEVEL = 6
_SHAPES = frozenset({"re", "qu", "l"})


def _shows(path: Mapping[str, Any]) -> bool:
    """The path is stroked, or filled with a colour that is not white."""
    if "s" in str(path.get("type", "")) and path.get("color") is not None:
        return True
    fill = path.get("fill")
    return fill is not None and not all(float(c) >= WHITE for c in fill)


def page_rects(page: Any) -> tuple[Box, ...]:
    """The drawn rectangles of a PyMuPDF `page` that show (module docstring), read once; none
    on a page with more than `MAX_PATHS` paths."""
    paths = page.get_cdrawings()
    if len(paths) > MAX_PATHS:
        log.debug("page %d: %d drawn paths, boxes not read", page.number + 1, len(paths))
        return ()
    rects = []
    for path in paths:
        x0, y0, x1, y1 = (float(v) for v in path["rect"])
        items = path.get("items") or ()
        if x1 - x0 < MIN_SIDE or y1 - y0 < MIN_SIDE or not items:
            continue
        if all(item[0] in _SHAPES for item in items) and _shows(path):
            rects.append((x0, y0, x1, y1))
    return tuple(dict.fromkeys(rects))


def _inside(box: Box, rect: Box) -> bool:
    return (
        box[0] >= rect[0] - TOLERANCE
        and box[1] >= rect[1] - TOLERANCE
        and box[2] <= rect[2] + TOLERANCE
        and box[3] <= rect[3] + TOLERANCE
    )


def _body(block: Block) -> bool:
    return block.kind not in RUNNING_KINDS and block.layer is not Layer.FURNITURE


def _chars(block: Block) -> int:
    return len(block.text) if block.kind != "table" else len(block.table or "")


def _is_box(blocks: Sequence[Block], rect: Box) -> frozenset[int]:
    """The indexes of `blocks` that `rect` makes a box (module docstring), else none."""
    body = [i for i, b in enumerate(blocks) if _body(b)]
    held = [i for i in body if _inside(blocks[i].bbox, rect)]
    if len(held) < 2 or len(held) == len(body):
        return frozenset()
    span = max(blocks[i].bbox[2] for i in body) - min(blocks[i].bbox[0] for i in body)
    if rect[2] - rect[0] > MAX_WIDTH * span:
        return frozenset()
    if not any(blocks[i].is_heading for i in held):
        return frozenset()
    if all(blocks[i].is_heading for i in held):
        return frozenset()
    tables = [blocks[i] for i in held if blocks[i].kind == "table"]
    if any(box_area(t.bbox) > box_area(rect) / 2 for t in tables):
        return frozenset()
    total = sum(_chars(blocks[i]) for i in body)
    if sum(_chars(blocks[i]) for i in held) > MAX_SHARE * total:
        return frozenset()
    return frozenset(held)


def find_boxes(blocks: Sequence[Block], rects: Sequence[Box]) -> list[tuple[Box, frozenset[int]]]:
    """Each box of the page (its rectangle, the indexes of its blocks), outermost first, in
    the order of their first block; a block is in one box at most."""
    found = [(rect, held) for rect in rects if (held := _is_box(blocks, rect))]
    found.sort(key=lambda f: -box_area(f[0]))
    out: list[tuple[Box, frozenset[int]]] = []
    taken: set[int] = set()
    for rect, held in found:
        if not held & taken:
            out.append((rect, held))
            taken |= held
    return sorted(out, key=lambda f: min(f[1]))


def _opens_with_heading(blocks: Sequence[Block] | None) -> bool:
    """The page's first body block is a heading."""
    first = next((b for b in blocks or () if _body(b) and (b.lines or b.table)), None)
    return first is not None and first.is_heading


def scope_boxes(
    blocks: Sequence[Block], rects: Sequence[Box], following: Sequence[Block] | None
) -> tuple[Block, ...]:
    """The page's `blocks` with each box's headings scoped to the box (module docstring);
    `following`: the next page's blocks, None on the last page."""
    out = list(blocks)
    for rect, held in reversed(find_boxes(blocks, rects)):
        why = f"in a drawn box {tuple(round(v) for v in rect)}"
        ids = {id(blocks[i]) for i in held}
        where = [i for i, b in enumerate(out) if id(b) in ids]
        after = [i for i, b in enumerate(out) if i > where[-1] and _body(b) and b.is_heading]
        if after or _opens_with_heading(following):
            at = after[0] if after else len(out)
            moved = [_boxed(out[i], why) for i in where]
            kept = [b for b in out[:at] if id(b) not in ids]
            out = [*kept, *moved, *out[at:]]
        else:
            out = [_unheaded(b, why) if id(b) in ids and b.is_heading else b for b in out]
    return tuple(out)


def _boxed(block: Block, why: str) -> Block:
    if not block.is_heading:
        return block
    return replace(block, level=BOX_LEVEL, evidence=(*block.evidence, why))


def _unheaded(block: Block, why: str) -> Block:
    """A box's heading where nothing would close it: a text line (its spans' style kept:
    `render` writes a bold "text" block in bold)."""
    return replace(
        block, kind="text", level=None, evidence=(*block.evidence, f"{why}, body runs on")
    )


def scope_document(
    pages: Mapping[int, Sequence[Block]], rects: Mapping[int, Sequence[Box]]
) -> dict[int, tuple[Block, ...]]:
    """`scope_boxes` over every page with drawn rectangles in `rects`."""
    numbers = sorted(pages)
    out = {n: tuple(bs) for n, bs in pages.items()}
    for k, n in enumerate(numbers):
        if rects.get(n):
            following = pages[numbers[k + 1]] if k + 1 < len(numbers) else None
            out[n] = scope_boxes(pages[n], rects[n], following)
    return out


def candidate(blocks: Sequence[Block]) -> bool:
    """The page may hold a box: a body heading and two more body blocks (the only pages whose
    drawings are read)."""
    body = [b for b in blocks if _body(b)]
    return len(body) >= 3 and any(b.is_heading for b in body)
