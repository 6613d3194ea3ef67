"""A small raised number or footnote symbol set after a word is a footnote mark (block rule
``raised-marks``).

A PDF may raise a footnote mark by moving its baseline up rather than by a superscript
font, so the text layer gives it as a plain span ("Engineering", "9") and the mark reads as
part of the word ("Engineering9"). `flag_raised_marks(pages)`: in a line of a body block, a
span whose text is a footnote mark (one to three digits, a list of them, or a footnote
symbol ∗ † ‡ § ¶), set at most `SMALLER` of the size of the span it stands against (the
visible span before it in the line, which it touches: no blank between them and
the gap is at most `TOUCH` of its size; else the one after it, a note's opening mark) and whose baseline stands at
least `RAISE` of that span's size above that span's baseline, is flagged superscript. The
renderer writes a superscript ``<sup>``, and `repairs.tidy` writes a superscript number after
a word as the text's footnote mark `` [N]``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from ..blocks import SUPERSCRIPT, Block, Line, Span
from .common import Pages

log = logging.getLogger(__name__)

#: A raised mark is set at most this share of the size of the span it stands against.
SMALLER = 0.8
#: Its baseline stands at least this share of that span's size above that span's baseline.
RAISE = 0.15
#: A mark after a word touches it: a gap of at most this share of the word's size.
TOUCH = 0.25
_KINDS = frozenset({"text", "list-item", "footnote", "caption"})
_MARK_RE = re.compile(r"^(?:\d{1,3}(?:[,–-]\d{1,3})*|[*∗†‡§¶]{1,3})$")


def _against(spans: tuple[Span, ...], i: int, opening: bool) -> tuple[Span | None, bool]:
    """The visible span before span `i` in the line, else (in an `opening` line) the visible
    one after it; and whether it is the one before."""
    before = [s for s in spans[:i] if s.text.strip()]
    after = [s for s in spans[i + 1 :] if s.text.strip()] if opening else []
    if before:
        return before[-1], True
    return (after[0] if after else None), False


def is_raised_mark(spans: tuple[Span, ...], i: int, opening: bool = False) -> bool:
    """Span `i` of a line is a raised footnote mark (module docstring); a line's first span
    only in the `opening` line of a block."""
    span = spans[i]
    if span.superscript or not _MARK_RE.match(span.text.strip()):
        return False
    other, before = _against(spans, i, opening)
    if other is None or other.size <= 0 or span.size > other.size * SMALLER:
        return False
    blank = other.text[-1:].isspace() or span.text[:1].isspace()
    apart = blank or span.bbox[0] - other.bbox[2] > other.size * TOUCH
    if before and apart:
        return False  # set apart from the word before: a prefix ("²A"), not a mark
    return other.origin[1] - span.origin[1] >= other.size * RAISE


def _flagged(line: Line, opening: bool) -> Line:
    spans = tuple(
        replace(s, flags=s.flags | SUPERSCRIPT) if is_raised_mark(line.spans, i, opening) else s
        for i, s in enumerate(line.spans)
    )
    return line if spans == line.spans else replace(line, spans=spans)


def _marked(block: Block) -> Block:
    if block.kind not in _KINDS:
        return block
    lines = tuple(_flagged(line, i == 0) for i, line in enumerate(block.lines))
    if lines == block.lines:
        return block
    return replace(block, lines=lines, evidence=(*block.evidence, "raised marks: superscript"))


def flag_raised_marks(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Small raised numbers and footnote symbols are flagged superscript (module docstring)."""
    out = {n: tuple(_marked(b) for b in blocks) for n, blocks in pages.items()}
    changed = sum(a is not b for n in out for a, b in zip(out[n], pages[n], strict=True))
    log.debug("raised marks flagged in %d blocks", changed)
    return out
