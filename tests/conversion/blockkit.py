"""Blocks built by hand for the block rules' tests: `Span`, `Line` and `Block` of
`citechunk.conversion.blocks` as a page would give them, with their boxes filled in.

A text line stands in the body column (`X0` to `X1`, PDF points, origin top left) unless a
test places it elsewhere; a block's box runs from its first line's top left to its last line's
bottom right unless the test gives one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from citechunk.conversion.blocks import BOLD, ITALIC, Block, Box, Line, Span

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


_HEADING_RE = re.compile(r"^(#{1,6}) (.*)$")
_TITLED_RE = re.compile(r"^(- )?(\d[\d.]*) (\*\*|_)(.+)\3$")


def _marked_block(text: str, top: float, page: int) -> Block:
    """One block for a line written as Markdown (`marked_page`)."""
    if m := _HEADING_RE.match(text):
        head = one_line("section-header", m.group(2), top, page=page)
        return replace(head, level=len(m.group(1)))
    kind = "list-item" if text.startswith("- ") else "text"
    text = text.removeprefix("- ")
    if m := _TITLED_RE.match(text):
        flags = BOLD if m.group(3) == "**" else ITALIC
        number = Span(m.group(2), size=11.0, bbox=row(top, 11.0))
        title = Span(m.group(4), size=11.0, flags=flags, bbox=row(top, 11.0))
        return block(kind, Line(row(top, 11.0), (number, title)), page=page)
    if text.startswith("**") and text.endswith("**"):
        return one_line(kind, text[2:-2], top, flags=BOLD, page=page)
    return one_line(kind, text, top, page=page)


def marked_page(text: str, page: int = 1) -> tuple[Block, ...]:
    """The blocks of a page written as Markdown, one block a line down the page: "## Title" a
    section header at level 2, "- " a list item, "**Title**" a text block set in bold,
    "1.2 _Title_" / "1.2 **Title**" a plain number and a title in italic / bold, "```code```" a
    code block, any other line a text block."""
    blocks = []
    for n, line_text in enumerate(t for t in text.split("\n") if t.strip()):
        top = 50.0 + 20.0 * n
        if line_text.startswith("```") and line_text.endswith("```") and len(line_text) > 6:
            blocks.append(one_line("code", line_text[3:-3], top, page=page))
        else:
            blocks.append(_marked_block(line_text, top, page))
    return tuple(blocks)


def marked_pages(pages: Sequence[tuple[int, str]]) -> dict[int, tuple[Block, ...]]:
    """{page number: `marked_page`} of (page number, Markdown) pairs."""
    return {n: marked_page(text, n) for n, text in pages}


def headings(pages: Mapping[int, Sequence[Block]]) -> list[tuple[int, str]]:
    """(level, text) of every heading block, pages in order (level 6 when unset)."""
    return [(b.level or 6, b.shown) for n in sorted(pages) for b in pages[n] if b.is_heading]
