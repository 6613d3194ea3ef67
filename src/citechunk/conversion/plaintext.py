"""Typed blocks of a plain one-column page straight from its text layer (the fast path, no model).

`triage` sends here only pages that are one column of running text (no image, no drawn grid,
no lines side by side, no column gaps), so reading order is the text blocks' top-to-bottom
order and every text-layer block is a heading, list items, code or a paragraph. The blocks
are the layout path's (`blocks.Block`), so the same heading stage levels them
(`headings.level_headings`, over the whole document) and the same renderer writes them
(`render.render_page`):

- a block is a "section-header" when it is short (at most `HEADING_MAX_CHARS`,
  `HEADING_MAX_LINES` lines), does not end like a sentence, does not start with a bullet, has
  at least two letters and no dot leaders ("Scope ........ 4": a table of contents), and is
  set larger than the body font (`body_size`: the size carrying most of the document's
  characters) or all bold; its level is left to the heading stage;
- a block whose first lines are bold and whose later lines are not starts with those lines
  as a heading when they qualify as one (a run-in heading block: "Contact" over an address);
- a block set wholly in a monospaced font (its first line not opening with a raised mark) is
  "code";
- otherwise a line starting with a bullet glyph starts a "list-item" (depth 1), the lines
  after it until the next bullet continuing it; lines before the first bullet are "text";
- running lines (`runninglines`) are left out, as the layout path cuts page-header/-footer
  boxes, and so are the spans of line numbers (`furniture`); each block's lines are read as
  the layout path reads a box's (`rawlines.raw_lines`: sideways, invisible and blank spans
  left out, the pieces of one word joined, "e" + "ff" + "ect" one word).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .blocks import Block, Kind, Line, Span
from .furniture import NumberPlaces, numbered_spans, without_numbers
from .geometry import LEADER_RE
from .rawlines import raw_lines
from .runninglines import line_signature
from .spans import readable
from .textlayer import PageText

HEADING_MAX_CHARS = 150
HEADING_MAX_LINES = 3
#: A size at least this many points over the body size is a heading size.
LARGER = 0.9
BULLETS = ("•", "◦", "▪", "■", "●", "○", "·", "\uf0b7", "\uf0a7")  # glyphs starting list items
_SENTENCE_ENDS = (".", ",", ";")


def body_size(pages: Iterable[PageText]) -> float:
    """The document's body font size: the size (to 0.1 pt) carrying most characters."""
    chars: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            chars[round(line.size, 1)] += len(line.text)
    return chars.most_common(1)[0][0] if chars else 0.0


def page_blocks(
    page: Any, running: Mapping[str, int], body: float, places: NumberPlaces | None = None
) -> tuple[Block, ...]:
    """The blocks of PyMuPDF page `page` (module docstring); `running` holds the signatures of
    the page's running lines, `body` is the document's body size, `places` where the document
    prints its line numbers."""
    number = int(page.number) + 1
    found = page.get_text("dict", sort=True)["blocks"]
    out: list[Block] = []
    for raw in without_numbers(found, numbered_spans(found, places)):
        lines = _lines(_kept(raw, running))
        if lines:
            out.extend(_blocks(number, lines, body))
    return tuple(out)


def _kept(raw: Mapping[str, Any], running: Mapping[str, int]) -> dict[str, Any]:
    """A copy of text-layer block `raw` with its readable spans only and without its running
    lines."""
    lines = []
    for line in raw.get("lines", ()):
        spans = [s for s in line["spans"] if readable(tuple(s["bbox"]))]
        text = "".join(str(s["text"]) for s in spans).strip()
        if text and line_signature(text) not in running:
            lines.append(dict(line, spans=spans))
    return dict(raw, lines=lines)


def _lines(raw: dict[str, Any]) -> list[Line]:
    """The block's lines as the layout path reads a box's (`rawlines.raw_lines`: horizontal,
    visible, non-blank spans, pieces of one word joined); none for a block without lines."""
    if not raw["lines"]:
        return []
    read = raw_lines([raw], raw["bbox"], numbered=frozenset())
    return [Line(tuple(rect), tuple(Span.of(s) for s in spans)) for rect, spans in read]


def _block(page: int, kind: Kind, lines: list[Line]) -> Block:
    box = (
        min(ln.bbox[0] for ln in lines),
        min(ln.bbox[1] for ln in lines),
        max(ln.bbox[2] for ln in lines),
        max(ln.bbox[3] for ln in lines),
    )
    return Block(page, box, kind, tuple(lines), depth=1 if kind == "list-item" else 0)


def _text(lines: Iterable[Line]) -> str:
    return " ".join(ln.text.strip() for ln in lines)


def is_heading(lines: list[Line], body: float) -> bool:
    """Whether block `lines` reads as a heading (module docstring)."""
    text = _text(lines)
    size = max(s.size for ln in lines for s in ln.spans)
    bold = all(s.bold for ln in lines for s in ln.spans)
    return (
        (round(size, 1) >= body + LARGER - 0.05 or bold)
        and len(lines) <= HEADING_MAX_LINES
        and len(text) <= HEADING_MAX_CHARS
        and not text.endswith(_SENTENCE_ENDS)
        and not text.startswith(BULLETS)
        and sum(ch.isalpha() for ch in text) >= 2
        and not LEADER_RE.search(text)
    )


def _blocks(page: int, lines: list[Line], body: float) -> list[Block]:
    """One text-layer block's lines as typed blocks (module docstring)."""
    if all(ln.monospace for ln in lines) and not lines[0].raised_start:
        return [_block(page, "code", lines)]
    if is_heading(lines, body):
        return [_block(page, "section-header", lines)]
    lead = next((i for i, ln in enumerate(lines) if not all(s.bold for s in ln.spans)), 0)
    if lead and is_heading(lines[:lead], body):
        return [_block(page, "section-header", lines[:lead]), *_blocks(page, lines[lead:], body)]
    items: list[list[Line]] = [[]]
    for ln in lines:
        if ln.text.lstrip().startswith(BULLETS) and items[-1]:
            items.append([])
        items[-1].append(ln)
    return [
        _block(page, "list-item" if item[0].text.lstrip().startswith(BULLETS) else "text", item)
        for item in items
        if item
    ]
