"""A piece of a sentence is not a heading.

A line set apart by a page or column break, or in a larger font for emphasis, can reach the
Markdown as a heading although it is the middle or the end of a sentence ("### flatfile) with
the database name."), and it then heads the chunks after it. A heading is a title, so
`demote_sentence_headings` turns into a plain body line (its text, markup kept) every heading
that

* opens with a closing bracket or sentence punctuation (``)``, ``]``, ``,``, ``;``, ``.``), or
* has `MIN_PIECE_WORDS` words or more and opens with a lower-case word of two or more
  letters that is not an enumerator ("iv.", "b)") and has no upper-case letter in it (not a
  name like "iPhone"; a one- or two-word lower-case heading is a name, such as an attribute
  "colorspace" in an API reference), after body text that
  does not end a sentence (the continuation of that sentence; a document whose headings are
  set in lower case keeps them, as the text before them ends its sentences), or
* ends with a comma, a semicolon or a hyphen (the sentence goes on).

Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ..mdlines import heading_lines, join_pages, split_pages, strip_inline_markup

log = logging.getLogger(__name__)

#: A lower-case opening makes a sentence piece only in a heading of this many words.
MIN_PIECE_WORDS = 3
_OPENS_RE = re.compile(r"^[)\],;.]")
_LOWER_WORD_RE = re.compile(r"^([a-z]{2,})(\S*)")
_ROMAN_ENUM_RE = re.compile(r"^[ivxlc]+[.)]$")
_ENDS_RE = re.compile(r"[,;\-–]$")
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


def _line_before(split: Sequence[list[str]], p: int, i: int) -> str:
    """The last non-blank line before line `i` of page `p` that is no page marker ("" when a
    heading or nothing comes first)."""
    for k in range(p, -1, -1):
        lines = split[k][:i] if k == p else split[k]
        for line in reversed(lines):
            if line.strip() and not line.lstrip().startswith("<!--"):
                return "" if line.startswith("#") else line
    return ""


def demote_sentence_headings(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Headings that are pieces of a sentence become body lines (module docstring)."""
    split, demoted = split_pages(pages), 0
    for p, i, heading in heading_lines(split):
        if is_sentence_piece(heading.group(2), _line_before(split, p, i)):
            split[p][i] = heading.group(2).strip()
            demoted += 1
    if demoted:
        log.debug("sentence pieces read as headings, made body lines: %d", demoted)
    return join_pages(pages, split)
