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
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from .blocks import Span

#: A gap of at least this share of the character width is a space.
SPACE_SHARE = 0.5

Chars = Callable[[dict[str, Any]], Sequence[tuple[float, float, str]]]


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
