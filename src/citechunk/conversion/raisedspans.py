"""A raised footnote mark keeps a span of its own (layout pass ``mark-spans``).

pymupdf4llm joins the spans of a line that touch and share font flags, whatever their sizes,
and the joined span keeps the first one's size and baseline. A footnote mark the PDF set
smaller and raised by moving its baseline (no superscript flag) then becomes letters of the
word before it ("Ltd23", "probabilities.22 Lord").

`split_raised_marks(boxes, page)`: a span of a box's text line is matched with the page's
text-layer spans (PyMuPDF ``dict``, read once per page and only when a span may hold a mark:
a digit or a footnote symbol) that lie inside it (their centre
in its box), in reading order; when their texts joined are the span's text and one of them is
a raised mark (`processors.raised_marks.is_raised_mark` against the text-layer span before
it, or the line's span before the joined one), the span is cut at the marks: each mark becomes a span of its own with its own size,
baseline and box, flagged superscript, and the text between marks keeps the joined span's
style. Every other span is left as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .blocks import SUPERSCRIPT, Span
from .processors.raised_marks import is_raised_mark

#: A span may hold a joined mark: it holds a digit or a footnote symbol.
_MAY_HOLD = re.compile(r"[\d*∗†‡§¶]")
#: Points: a text-layer span lies inside a joined span when its centre is this near its box.
_NEAR = 1.0

Raw = list[dict[str, Any]]


def _page_spans(pdf_page: Any) -> Raw:
    spans: Raw = []
    for block in pdf_page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            spans.extend(s for s in line["spans"] if s["text"].strip())
    return spans


def _inside(raw: dict[str, Any], box: Any) -> bool:
    x0, y0, x1, y1 = raw["bbox"]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return box[0] - _NEAR <= cx <= box[2] + _NEAR and box[1] - _NEAR <= cy <= box[3] + _NEAR


def _cut(span: dict[str, Any], parts: Raw, before: Raw) -> list[dict[str, Any]]:
    """`span` cut at the raised marks among its text-layer `parts` ([span] when none);
    `before`: the line's span before it (none when it opens the line)."""
    typed = tuple(Span.of(p) for p in (*before, *parts))
    marks = [is_raised_mark(typed, i) for i in range(len(before), len(typed))]
    if not any(marks):
        return [span]
    out: list[dict[str, Any]] = []
    run: Raw = []
    for part, mark in zip(parts, marks, strict=True):
        if not mark:
            run.append(part)
            continue
        if run:
            out.append(_joined(span, run))
            run = []
        out.append(
            dict(
                span,
                text=part["text"],
                size=part["size"],
                origin=tuple(part["origin"]),
                bbox=tuple(part["bbox"]),
                flags=span["flags"] | SUPERSCRIPT,
            )
        )
    if run:
        out.append(_joined(span, run))
    return out


def _joined(span: dict[str, Any], run: Raw) -> dict[str, Any]:
    boxes = [r["bbox"] for r in run]
    box = (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
    return dict(span, text="".join(r["text"] for r in run), bbox=box)


def _split_line(line: dict[str, Any], raw: Callable[[], Raw]) -> None:
    spans: Raw = []
    for span in line["spans"]:
        if not _MAY_HOLD.search(span["text"]):
            spans.append(span)
            continue
        parts = sorted((r for r in raw() if _inside(r, span["bbox"])), key=lambda r: r["bbox"][0])
        if len(parts) > 1 and "".join(p["text"] for p in parts) == span["text"]:
            spans.extend(_cut(span, parts, [s for s in spans if s["text"].strip()][-1:]))
        else:
            spans.append(span)
    line["spans"] = spans


def split_raised_marks(boxes: list[Any], pdf_page: Any) -> list[Any]:
    """The boxes with raised footnote marks cut out of the spans pymupdf4llm joined them to
    (module docstring); lines are edited in place, boxes returned for chaining."""
    cache: list[Raw] = []

    def raw() -> Raw:
        if not cache:
            cache.append(_page_spans(pdf_page))
        return cache[0]

    for box in boxes:
        for line in getattr(box, "textlines", None) or ():
            _split_line(line, raw)
    return boxes
