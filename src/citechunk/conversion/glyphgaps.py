"""Spaces of monospace (code) blocks rebuilt from glyph positions, before pymupdf4llm renders.

In a monospace font every character, the space included, advances by the same width, so the
space between two pieces of a code line is the horizontal gap between them divided by that
width. PDFs often carry no space characters there (a space is a glyph position, or a separate
whitespace span the layout path drops), and pymupdf4llm then renders ``importfitz`` and
``-o,--output=FILEoutputfile``. `rebuild_code_spaces` edits the text lines of every layout box
whose lines are all monospace (the boxes pymupdf4llm renders as code blocks):

- between two spans of a line: ``round(gap / width)`` spaces (none when the gap is smaller
  than half a character);
- inside a span whose glyph boxes (PyMuPDF ``rawdict``) leave such gaps without a space
  character: the same number of spaces at each gap;
- before the first span: the indentation, measured from the leftmost line start of the box.

The character width is the median advance of the box's characters. Boxes with proportional
fonts, and OCR text, are left alone.

The other way round, a space glyph can take no room: the PDF sets it between two letters of one
word and kerns the next letter back over it ("Pref ace", "Yo u"). `is_kerned_space`: a space
between two letters (or digits) of a left-to-right line is no word break when the letters meet
(the next one starts less than `KERNED_GAP` of the font size after the previous one's box) and
the next one starts before `KERNED_ROOM` of the space's own advance is spent. A real space keeps
its advance, or leaves a gap between the letters (an italic's box reaching over a space still
leaves its advance). `drop_kerned_spaces` edits the text of every line by that rule.
"""

from __future__ import annotations

import statistics
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from .blocks import Span

#: A gap of at least this share of the character width is a space.
SPACE_SHARE = 0.5

#: A space glyph between letters closer than this share of the font size ...
KERNED_GAP = 0.05
#: ... whose next letter starts before this share of the space's advance is no word break.
KERNED_ROOM = 0.6

Chars = Callable[[dict[str, Any]], Sequence[tuple[float, float, str]]]
Glyphs = Callable[[dict[str, Any]], Sequence[dict[str, Any]]]


def _visible(line: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in line.get("spans", ()) if str(s.get("text", "")).strip()]


def is_code_box(box: Any) -> bool:
    """A "text" box whose every line has visible spans, all of them monospaced
    (`blocks.Span.monospace`: by flag or font name)."""
    lines = getattr(box, "textlines", None) or []
    if getattr(box, "boxclass", "") != "text" or not lines:
        return False
    spans = [s for line in lines for s in _visible(line)]
    return bool(spans) and all(Span.of(s).monospace for s in spans)


def char_width(lines: Sequence[dict[str, Any]]) -> float:
    """Median advance per character of the visible spans (0 when none has width)."""
    widths = [
        (s["bbox"][2] - s["bbox"][0]) / len(s["text"])
        for line in lines
        for s in _visible(line)
        if s["bbox"][2] > s["bbox"][0]
    ]
    return statistics.median(widths) if widths else 0.0


def _spaces(gap: float, width: float) -> str:
    return " " * round(gap / width) if gap >= SPACE_SHARE * width else ""


def spaced_span_text(chars: Sequence[tuple[float, float, str]], width: float) -> str:
    """A span's text from its (x0, x1, character) glyphs, a space for each missing advance."""
    out: list[str] = []
    prev_end: float | None = None
    for x0, x1, ch in chars:
        if prev_end is not None and ch != " " and not (out and out[-1].endswith(" ")):
            out.append(_spaces(x0 - prev_end, width))
        out.append(ch)
        prev_end = x1
    return "".join(out)


def rebuild_line(line: dict[str, Any], left: float, width: float, chars: Chars | None) -> None:
    """Rewrite the span texts of one code line in place (module docstring)."""
    spans = sorted(_visible(line), key=lambda s: s["bbox"][0])
    prev_end = left
    for span in spans:
        text = span["text"]
        if chars is not None and " " not in text.strip():
            glyphs = chars(span)
            if len(glyphs) == len(text):
                text = spaced_span_text(glyphs, width)
        text = _spaces(span["bbox"][0] - prev_end, width) + text
        span["text"] = text
        prev_end = span["bbox"][2]
    line["spans"] = spans


def rebuild_code_spaces(boxes: list[Any], chars: Chars | None = None) -> list[Any]:
    """Give the code boxes among `boxes` their spaces back (module docstring); `chars` maps
    a span to its glyphs (x0, x1, character), when glyph boxes are available."""
    for box in boxes:
        if not is_code_box(box):
            continue
        lines = box.textlines
        width = char_width(lines)
        if width <= 0:
            continue
        left = min(s["bbox"][0] for line in lines for s in _visible(line))
        for line in lines:
            rebuild_line(line, left, width, chars)
    return boxes


def _ltr_letter(ch: str) -> bool:
    return ch.isalnum() and unicodedata.bidirectional(ch) not in ("R", "AL")


def is_kerned_space(prev: dict[str, Any], space: dict[str, Any], nxt: dict[str, Any]) -> bool:
    """`space` (a ``rawdict`` character with its span's ``size``, between `prev` and `nxt`) takes
    no room between two left-to-right letters (module docstring)."""
    if space["c"] != " " or not (_ltr_letter(prev["c"]) and _ltr_letter(nxt["c"])):
        return False
    advance, size = space["bbox"][2] - space["bbox"][0], float(space.get("size", 0))
    start = nxt["origin"][0]
    if advance <= 0 or size <= 0 or start < prev["origin"][0]:
        return False
    meet = start - prev["bbox"][2] < KERNED_GAP * size
    return meet and start - space["origin"][0] < KERNED_ROOM * advance


def kerned_indexes(glyphs: Sequence[dict[str, Any]]) -> set[int]:
    """The indexes of the kerned spaces (`is_kerned_space`) among one text-layer line's
    `glyphs`."""
    triples = zip(glyphs, glyphs[1:], glyphs[2:], strict=False)
    return {i for i, (a, b, c) in enumerate(triples, 1) if is_kerned_space(a, b, c)}


def unkerned_text(glyphs: Sequence[dict[str, Any]]) -> str:
    """The text of `glyphs` without those marked ``kerned`` (by `kerned_indexes`)."""
    return "".join(g["c"] for g in glyphs if not g.get("kerned"))


def _unkerned_line(line: dict[str, Any]) -> dict[str, Any]:
    glyphs = [dict(c, size=s["size"]) for s in line["spans"] for c in s.get("chars", ())]
    kerned = kerned_indexes(glyphs)
    if not kerned:
        return line
    spans, at = [], 0
    for span in line["spans"]:
        n = len(span.get("chars", ()))
        chars = [c for i, c in enumerate(span.get("chars", ()), at) if i not in kerned]
        spans.append(dict(span, chars=chars))
        at += n
    return dict(line, spans=spans)


def unkerned_blocks(blocks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rawdict`` text blocks without the space characters that take no room
    (`is_kerned_space`), copied where a line loses one."""
    return [
        dict(b, lines=[_unkerned_line(line) for line in b["lines"]]) if "lines" in b else b
        for b in blocks
    ]


def drop_kerned_spaces(boxes: list[Any], glyphs: Glyphs) -> list[Any]:
    """Every span of the boxes' text lines without the spaces that take no room (module
    docstring); `glyphs` maps a span to its ``rawdict`` characters, the kerned spaces of their
    own text-layer line marked ``kerned`` (`kerned_indexes`), or to none."""
    for box in boxes:
        for line in getattr(box, "textlines", None) or ():
            for span in line.get("spans", ()):
                text = span.get("text", "")
                chars = glyphs(span) if " " in text.strip() else ()
                if chars and "".join(c["c"] for c in chars) == text:
                    span["text"] = unkerned_text(chars)
    return boxes
