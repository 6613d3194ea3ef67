"""Blocks built by hand for the block rules' tests: `Span`, `Line` and `Block` of
`citechunk.conversion.blocks` as a page would give them, with their boxes filled in.

A text line stands in the body column (`X0` to `X1`, PDF points, origin top left) unless a
test places it elsewhere; a block's box runs from its first line's top left to its last line's
bottom right unless the test gives one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citechunk.conversion.blocks import Block, Box, Line, Span

#: The body column a line stands in when a test does not place it.
X0, X1 = 50.0, 400.0


def row(top: float, height: float, x0: float = X0, x1: float = X1) -> Box:
    """The box of a line `height` tall from `top`, across x0..x1 (the body column)."""
    return (x0, top, x1, top + height)


def text_line(
    text: str,
    box: Box,
    size: float = 11.0,
    flags: int = 0,
    *,
    boxed: bool = True,
    before: Sequence[Span] = (),
    after: Sequence[Span] = (),
) -> Line:
    """A line in `box` of one span of `text` (in `size` and `flags`; the span has the line's
    box unless `boxed` is False), with the spans `before` and `after` it (footnote marks)."""
    span = Span(text, size=size, flags=flags, bbox=box if boxed else (0.0, 0.0, 0.0, 0.0))
    return Line(box, (*before, span, *after))


def line(*spans: Span, bbox: Box | None = None) -> Line:
    """A line of `spans`; its box: `bbox`, else from the first span's top left to the last
    span's bottom right."""
    first, last = spans[0].bbox, spans[-1].bbox
    return Line(bbox or (first[0], first[1], last[2], last[3]), spans)


def block(kind: str, *lines: Line, page: int = 1, bbox: Box | None = None, **fields: Any) -> Block:
    """A block of `lines` on `page` (`fields`: the other `Block` fields, e.g. ``level``); its
    box: `bbox`, else from the first line's top left to the last line's bottom right."""
    first, last = lines[0].bbox, lines[-1].bbox
    box = bbox or (first[0], first[1], last[2], last[3])
    return Block(page, box, kind, lines, **fields)  # type: ignore[arg-type]


def one_line(
    kind: str, text: str, top: float, size: float = 11.0, flags: int = 0, page: int = 1
) -> Block:
    """A block of one line of `text` `size` tall from `top` in the body column: span, line and
    block share the box."""
    return block(kind, text_line(text, row(top, size), size, flags), page=page)
