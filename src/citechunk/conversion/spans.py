"""Subscripts stay in their word, and what a raised footnote mark is (`is_raised_mark`).

pymupdf4llm renders a line by joining its spans with a space, so a subscript set as its own
smaller span is cut off from the letter it belongs to ("T<sub>45</sub>" read "T 45").
Superscripts are not affected: pymupdf flags them and pymupdf4llm glues them to the word
before (a mark the PDF raised by its baseline alone is flagged when the text layer is read:
`rawlines`).

`join_subscripts(boxes)` works on the parsed layout boxes before rendering: in each text line,
a span that touches the span before it (it starts within `TOUCH` pt of that span's end, no blank
between), is set at most `SMALLER` of its size and is not flagged superscript is appended to
that span, text and box; the earlier span's style applies to both. Only the subscript's first
word moves: pymupdf sometimes keeps the text after a subscript in the same span
("16. Because"), and that text stays a span of its own.
"""

from __future__ import annotations

import re
from typing import Any

from .blocks import SUPERSCRIPT, Span

#: pt: text whose rendered box is lower than this cannot be read on the page (hidden identifiers
#: and tags); the box, not the font size, which a scaled text matrix leaves large or small
MIN_READABLE = 2.0
TOUCH = 0.5  # pt: the largest gap between a letter and its subscript
OVERLAP = 2.0  # pt: the largest overlap (kerning) between them
SMALLER = 0.85  # a subscript is set at most this share of its base's size
#: A raised mark's baseline stands at least this share of its neighbour's size above the neighbour's.
RAISED = 0.15


def _is_subscript_of(span: dict[str, Any], base: dict[str, Any]) -> bool:
    if span["flags"] & SUPERSCRIPT or span["size"] > SMALLER * base["size"]:
        return False
    text, before = span["text"], base["text"]
    if not text.strip() or text[0].isspace() or not before or before[-1].isspace():
        return False
    gap = span["bbox"][0] - base["bbox"][2]
    return -OVERLAP <= gap <= TOUCH


def _join_line(spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for span in spans:
        base = out[-1] if out else None
        if base is None or not _is_subscript_of(span, base):
            out.append(span)
            continue
        head, blank, tail = span["text"].partition(" ")
        x0, y0, x1, y1 = base["bbox"]
        sx0, sy0, sx1, sy1 = span["bbox"]
        out[-1] = dict(base, text=base["text"] + head)
        out[-1]["bbox"] = (min(x0, sx0), min(y0, sy0), max(x1, sx1), max(y1, sy1))
        if tail.strip():  # pymupdf may set the text after the subscript in the same span
            out.append(dict(span, text=blank + tail))
    return out


def join_subscripts(boxes: list[Any]) -> list[Any]:
    """The boxes with each line's subscript spans joined to their base span (module docstring);
    lines are edited in place, boxes returned for chaining."""
    for box in boxes:
        for line in box.textlines or ():
            if len(line["spans"]) > 1:
                line["spans"] = _join_line(line["spans"])
    return boxes


def readable(bbox: tuple[float, float, float, float]) -> bool:
    """A span or word box at least `MIN_READABLE` pt high (sideways text is high anyway)."""
    return bbox[3] - bbox[1] >= MIN_READABLE


def drop_unreadable(boxes: list[Any]) -> list[Any]:
    """The boxes without their spans rendered lower than `MIN_READABLE` pt: text a person
    cannot read on the page (a machine identifier in a hairline font) is no text of the
    document. Lines left without spans go; lines are edited in place, boxes returned for
    chaining."""
    for box in boxes:
        if box.textlines:
            for line in box.textlines:
                line["spans"] = [s for s in line["spans"] if readable(s["bbox"])]
            box.textlines = [line for line in box.textlines if line["spans"]]
    return boxes


#: A raised mark is set at most this share of the size of the span it stands against.
MARK_SMALLER = 0.8
#: A mark after a word touches it: a gap of at most this share of the word's size,
MARK_TOUCH = 0.25
#: or an overlap of at most this many points.
MARK_OVERLAP = 1.0
_MARK_RE = re.compile(r"^(?:\d{1,3}(?:[,;–-]\d{1,3})*|[*∗†‡§¶]{1,3})$")


def is_mark_text(text: str) -> bool:
    """The text (blanks aside) could be a footnote mark: one to three digits, a list or range
    of them (commas or semicolons between: "56;62", "44–46;57"), or footnote symbols."""
    return bool(_MARK_RE.match(text.strip()))


def _against(spans: tuple[Span, ...], i: int, opening: bool) -> tuple[Span | None, bool]:
    """The visible span before span `i` in the line, else (in an `opening` line) the visible
    one after it; and whether it is the one before."""
    before = [s for s in spans[:i] if s.text.strip()]
    after = [s for s in spans[i + 1 :] if s.text.strip()] if opening else []
    if before:
        return before[-1], True
    return (after[0] if after else None), False


def is_raised_mark(spans: tuple[Span, ...], i: int, opening: bool = False) -> bool:
    """Span `i` of `spans` (a line's, in reading order) is a raised footnote mark: its text is
    one to three digits, a list of them, or a footnote symbol (∗ † ‡ § ¶); it is set at most
    `MARK_SMALLER` of the size of the span it stands against, and its baseline at least
    `RAISED` of that span's size above that span's. It stands against the visible span before
    it, which it touches (no blank between them, a gap of at most `MARK_TOUCH` of that span's
    size or an overlap of at most `MARK_OVERLAP` pt: a raised digit set apart from the word
    before is a prefix, "²A") and which does not end with a digit (a raised number after a
    figure is a power or an index: "Ag3", "37"); a span opening an `opening` line (a note's
    number) stands against the span after it."""
    span = spans[i]
    if span.superscript or not is_mark_text(span.text):
        return False
    other, before = _against(spans, i, opening)
    if other is None or not set_raised(span, other):
        return False
    blank = other.text[-1:].isspace() or span.text[:1].isspace()
    gap = span.bbox[0] - other.bbox[2]
    apart = blank or not -MARK_OVERLAP <= gap <= other.size * MARK_TOUCH
    # a prefix set apart ("²A"), or a power or index after a figure
    return not (before and (apart or other.text.rstrip()[-1:].isdigit()))


def set_raised(span: Span, other: Span) -> bool:
    """`span` is set raised against `other`: at most `MARK_SMALLER` of its size, its baseline
    at least `RAISED` of that size above `other`'s."""
    if other.size <= 0 or span.size > other.size * MARK_SMALLER:
        return False
    return other.origin[1] - span.origin[1] >= other.size * RAISED


#: The widest gap between two glued spans, as a share of the larger size (a word space is
#: about a quarter of it).
GLUE = 0.12


def glued(left: Span, right: Span) -> bool:
    """`right` follows `left` without a blank: no blank ends or opens them and the gap
    between their boxes is at most `GLUE` of the larger size (or an overlap of at most
    `MARK_OVERLAP` pt)."""
    if not left.text or not right.text or left.text[-1].isspace() or right.text[0].isspace():
        return False
    gap = right.bbox[0] - left.bbox[2]
    return -MARK_OVERLAP <= gap <= GLUE * max(left.size, right.size)
