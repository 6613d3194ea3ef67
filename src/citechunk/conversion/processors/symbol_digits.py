"""A raised number that is part of a symbol is written inside the symbol, never as a footnote
mark (block rule ``symbol-digits``).

A footnote mark touches the word it follows and stands apart from the text after it
("found.³ More"). A raised number set the other way round, apart from the word before and
touching the letter after it, is the head of a symbol: a term symbol (²E, ³P), an isotope
(¹³C); and a raised number touching a one-letter word is that letter's power or index (d¹⁰,
R³). The renderer writes any superscript glued to the word before, which `repairs.tidy` turns
into a footnote mark ("the higher [2] _E_ states", "4 _d_ [10]").

`symbol_digits(pages)`: in every line of a block of text (headings, paragraphs, list items,
captions; not footnotes, whose run-in notes may open with glued numbers), a span of one to three digits that is raised (flagged superscript, or
set at most `spans.MARK_SMALLER` of its neighbour's size with its baseline at least
`spans.RAISED` of that size higher) and
- is glued to the span after it, which opens with a symbol of one or two letters ("E",
  "Pb", "A1"; a word is no symbol), and not to the span before it
  (a blank or a gap wider than `spans.GLUE` of the size between them), or
- is glued to the span before it, which ends with a word of one letter,
becomes superscript digits (²) joined to that neighbour's text, in that neighbour's style.
Glued: `spans.glued` (no blank between the two spans, and a gap of at most `spans.GLUE` of
the larger size).
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from ..blocks import Block, Line, Span
from ..spans import glued, set_raised
from ..textlayer import union_box
from .common import Pages, changed_blocks, lines_mapped

log = logging.getLogger(__name__)

_KINDS = frozenset({"text", "list-item", "caption", "title", "section-header"})
_DIGITS_RE = re.compile(r"^\d{1,3}$")
_ONE_LETTER_END_RE = re.compile(r"(?:^|[^\w])[^\W\d_]$")
#: A symbol after its raised number: one or two letters, then no letter ("E", "Pb", "A1").
_SYMBOL_RE = re.compile(r"^[^\W\d_]{1,2}(?![^\W\d_])")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _raised(span: Span, other: Span) -> bool:
    """`span` is set raised against `other`: flagged superscript, or smaller with its
    baseline higher."""
    return span.superscript or (span.size > 0 and set_raised(span, other))


def _heads_symbol(spans: tuple[Span, ...], i: int) -> bool:
    """Span `i` opens the symbol after it (module docstring)."""
    if i == 0 or i + 1 >= len(spans):
        return False
    after = spans[i + 1]
    symbol = bool(_SYMBOL_RE.match(after.text))
    return symbol and glued(spans[i], after) and not glued(spans[i - 1], spans[i])


def _powers_letter(spans: tuple[Span, ...], i: int) -> bool:
    """Span `i` is the power or index of the one-letter word before it."""
    if i == 0:
        return False
    before = spans[i - 1]
    return bool(_ONE_LETTER_END_RE.search(before.text)) and glued(before, spans[i])


def _line(line: Line) -> Line:
    """The line with each symbol's raised number joined to it (module docstring)."""
    spans = list(line.spans)
    i = 0
    while i < len(spans):
        span = spans[i]
        whole = tuple(spans)
        if _DIGITS_RE.match(span.text):
            digits = span.text.translate(_SUPERSCRIPTS)
            if _heads_symbol(whole, i) and _raised(span, spans[i + 1]):
                after = spans[i + 1]
                spans[i : i + 2] = [_joined(after, digits + after.text, span)]
                continue
            if _powers_letter(whole, i) and _raised(span, spans[i - 1]):
                before = spans[i - 1]
                spans[i - 1 : i + 1] = [_joined(before, before.text + digits, span)]
                continue
        i += 1
    return line if len(spans) == len(line.spans) else replace(line, spans=tuple(spans))


def _joined(base: Span, text: str, digits: Span) -> Span:
    """`base` with `text`, its box grown over the raised `digits`' box."""
    return replace(base, text=text, bbox=union_box((base.bbox, digits.bbox)))


def symbol_digits(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Raised numbers that belong to a symbol are written in it as superscript digits (module
    docstring)."""
    out = lines_mapped(pages, _KINDS, _line, "symbol digits joined")
    log.debug("symbol digits joined in %d blocks", changed_blocks(pages, out))
    return out
