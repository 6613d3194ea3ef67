"""Punctuation set against a word in another style stays against it (block rule
``glued-punctuation``).

The renderer writes a blank wherever the style changes between two spans, so a comma after
a bold phrase reads "**144 cases** , with" and a bracket before an italic symbol "( _R(t)_ )".
`glued_punctuation(pages)`: in each line of a block of text (paragraphs, list items,
captions, footnotes, headings; right-to-left lines aside), where two spans neither of them
superscript are glued (`spans.glued`: no blank between them, no gap), the closing
punctuation (`CLOSING`) that opens the second span and is followed by a blank or ends it
moves to the end of the first span, and the opening punctuation (`OPENING`) that ends the
first span, after a blank or alone, moves to the start of the second: each mark takes the
style of the word it touches, and no blank comes between them. Punctuation never moves into
a monospaced span: code is written as the PDF sets it ("`client.toml` ;" stays).
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from ..blocks import Block, Line, Span
from ..rawlines import right_to_left
from ..spans import glued
from .common import Pages, changed_blocks, lines_mapped

log = logging.getLogger(__name__)

CLOSING = ",.;:!?)]}”’%"
OPENING = "([{“‘"
_KINDS = frozenset({"text", "list-item", "caption", "footnote", "title", "section-header"})
_CLOSING_RE = re.compile(rf"^[{re.escape(CLOSING)}]+(?=\s|$)")
_OPENING_RE = re.compile(rf"(?:^|(?<=\s))[{re.escape(OPENING)}]+$")


def _kept(text: str) -> str:
    """What is left of a span's text: nothing when only blanks are left (the renderer writes
    the blank between spans itself)."""
    return text if text.strip() else ""


def _moved(a: Span, b: Span) -> tuple[Span, Span] | None:
    """`a` and `b` with the punctuation between them moved to the word it touches, or None
    when none moves (module docstring)."""
    if a.superscript or b.superscript or not glued(a, b):
        return None
    closing = _CLOSING_RE.match(b.text)
    if closing and a.text.strip() and not a.monospace:
        cut = closing.end()
        return replace(a, text=a.text + b.text[:cut]), replace(b, text=_kept(b.text[cut:]))
    opening = _OPENING_RE.search(a.text)
    if opening and b.text.strip() and not b.monospace:
        cut = opening.start()
        return replace(a, text=_kept(a.text[:cut])), replace(b, text=a.text[cut:] + b.text)
    return None


def _line(line: Line) -> Line:
    if right_to_left(line.text):
        return line
    spans = list(line.spans)
    for i in range(len(spans) - 1):
        pair = _moved(spans[i], spans[i + 1])
        if pair is not None:
            spans[i], spans[i + 1] = pair
    if spans == list(line.spans):
        return line
    return replace(line, spans=tuple(s for s in spans if s.text))


def glued_punctuation(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Punctuation glued to a word in another style moves into that word's span (module
    docstring)."""
    out = lines_mapped(pages, _KINDS, _line, "glued punctuation kept")
    log.debug("glued punctuation moved in %d blocks", changed_blocks(pages, out))
    return out
