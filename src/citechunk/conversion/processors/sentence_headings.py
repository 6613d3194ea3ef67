"""A piece of a sentence is not a heading (block form of the ``sentence-headings`` rule).

A line set apart by a page or column break, or in a larger font for emphasis, can reach the
blocks as a heading although it is the middle or the end of a sentence ("flatfile) with the
database name."). `demote_sentence_headings(pages)` makes every heading block whose text as
rendered (`blocks.Block.shown`) `is_sentence_piece` finds a piece a plain text block: a body line, its bold dropped. A heading
is a piece when it

* opens with a closing bracket or sentence punctuation (``)``, ``]``, ``,``, ``;``, ``.``), or
* has `MIN_PIECE_WORDS` words or more and opens with a lower-case word of two or more
  letters that is not an enumerator ("iv.", "b)") and has no upper-case letter in it (not a
  name like "iPhone"; a one- or two-word lower-case heading is a name, such as an attribute
  "colorspace" in an API reference), after body text that does not end a sentence (the
  continuation of that sentence; a document whose headings are set in lower case keeps
  them, as the text before them ends its sentences), or
* ends with a comma, a semicolon, a hyphen or an opening bracket (the sentence or the
  statement goes on: "import ("). The body text before a heading is the last text of the blocks before it in reading
order, over page breaks, page headers, footers, footnotes and pictures left aside; a table or code block
ends a sentence, and a heading before it leaves none.
"""

from __future__ import annotations

import logging
import re

from ..blocks import Block
from ..mdlines import strip_inline_markup
from .common import MARGIN_KINDS, Pages, demoted, edited, in_order

log = logging.getLogger(__name__)

_ASIDE = MARGIN_KINDS | {"footnote", "picture"}
_ENDS_SENTENCE = frozenset({"table", "code"})
#: A lower-case opening makes a sentence piece only in a heading of this many words.
MIN_PIECE_WORDS = 3
_OPENS_RE = re.compile(r"^[)\],;.]")
_LOWER_WORD_RE = re.compile(r"^([a-z]{2,})(\S*)")
_ROMAN_ENUM_RE = re.compile(r"^[ivxlc]+[.)]$")
_ENDS_RE = re.compile(r"[,;\-–(\[{]$")
_SENTENCE_ENDS = (".", "!", "?", ":", '"', "”", "|", "```")


def is_sentence_piece(title: str, before: str = "") -> bool:
    """Whether a heading title is a piece of a sentence, `before` the body line before it
    (module docstring)."""
    text = strip_inline_markup(title).strip()
    if not text:
        return False
    if _OPENS_RE.match(text) or _ENDS_RE.search(text):
        return True
    m = _LOWER_WORD_RE.match(text)
    if (
        len(text.split()) < MIN_PIECE_WORDS
        or not m
        or any(c.isupper() for c in m.group(0))
        or _ROMAN_ENUM_RE.match(m.group(0))
    ):
        return False
    ended = strip_inline_markup(before).rstrip().endswith(_SENTENCE_ENDS)
    return bool(before.strip()) and not ended


def _body_text(block: Block) -> str:
    """What the body before a heading says of `block`: its last line's text ("." for a
    table or code block: they end a sentence)."""
    if block.kind in _ENDS_SENTENCE:
        return "."
    lines = [line.shown for line in block.lines if line.shown]
    return lines[-1] if lines else ""


def demote_sentence_headings(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks that are pieces of a sentence become plain text blocks (module
    docstring)."""
    before, changes = "", {}
    for n, i, block in in_order(pages):
        if block.kind in _ASIDE or not block.text:
            continue
        if block.is_heading:
            if is_sentence_piece(block.shown, before):
                changes[(n, i)] = demoted(block, "a piece of a sentence", plain=True)
                before = block.lines[-1].shown
            else:
                before = ""
            continue
        before = _body_text(block) or before
    if changes:
        log.debug("sentence pieces read as headings, made text: %d", len(changes))
    return edited(pages, changes)
