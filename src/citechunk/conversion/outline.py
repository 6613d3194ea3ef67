"""The PDF outline (bookmarks) as data.

`from_toc` reads PyMuPDF's table of contents into `OutlineEntry` rows; `title_key` is the
comparable form of a title (markup stripped, NFKC, case-folded, punctuation collapsed, leading
section numbers such as "2.1.", "III-A", "A." removed, so "III-A Google DeepDream" matches
"A. Google DeepDream"). The repair that uses the outline is `repairs.outline`; how well a
converter's headings reproduce it is measured in `evaluation.headings`.

An outline lists sections, whose entries are titles. One whose entries are mostly sentences
(`is_sentence`: bookmarks a word processor made from numbered paragraphs) lists paragraphs
instead: `lists_sections` is False for it and conversion treats the PDF as having no outline.

Word processors keep their own marks in the outline too: hidden bookmarks named as an identifier
beginning with an underscore (``_Toc12345``, ``_Ref678``, ``_GoBack``, ``_Hlk…``) or ``OLE_LINK``
and a number, which no author wrote (`is_hidden_bookmark`). `from_toc` leaves them out, so they
are neither repaired into headings nor reported as entries not found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..textkeys import words_key
from .mdlines import strip_inline_markup

NUMBERING_RE = re.compile(r"^(?:(?:\d+|[ivxlc]+|[a-z])(?: |$))+")
HIDDEN_BOOKMARK_RE = re.compile(r"^(?:_[A-Za-z]\S*|OLE_LINK\d+)$")
LIST_PREFIX_RE = re.compile(r"^(?:[-*+>]\s+)+")
MAX_TITLE_CHARS = 300
HEADING_WORDS = 12  # a title longer than this is an item's sentence, not a heading


@dataclass(frozen=True)
class OutlineEntry:
    """One bookmark: depth (1 = top), title, 1-based destination page (<= 0: none)."""

    level: int
    title: str
    page: int


def title_key(text: str) -> str:
    """Comparable form of a title: plain, case-folded words without leading numbering.

    Falls back to the full word string when the title is only numbering ("IV", "A.1").
    """
    full = full_key(text)
    stripped = NUMBERING_RE.sub("", full).strip()
    return stripped or full


def full_key(text: str) -> str:
    """`textkeys.words_key` of the title's plain text."""
    return words_key(strip_inline_markup(text))


def is_sentence(title: str) -> bool:
    """True when a title reads as a sentence, not a heading: more than `HEADING_WORDS` words,
    five or more words ending with a full stop, or ending with a comma or semicolon (a clause
    of a sentence that goes on)."""
    words = title.split()
    text = title.rstrip()
    full_stop = len(words) >= 5 and text.endswith((".", "?", "!"))
    return len(words) > HEADING_WORDS or full_stop or text.endswith((",", ";"))


def lists_sections(entries: Sequence[OutlineEntry]) -> bool:
    """True unless more than half of the entries are sentences (module docstring)."""
    sentences = sum(is_sentence(e.title) for e in entries)
    return 2 * sentences <= len(entries)


def is_hidden_bookmark(title: str) -> bool:
    """A word processor's own mark, not an author's entry: one identifier that begins with an
    underscore and a letter, or ``OLE_LINK`` and a number (module docstring)."""
    return HIDDEN_BOOKMARK_RE.match(title.strip()) is not None


def from_toc(toc: Sequence[Sequence[object]]) -> list[OutlineEntry]:
    """Entries from PyMuPDF's ``doc.get_toc(simple=True)`` rows ``[level, title, page]``,
    blank titles and hidden bookmarks (`is_hidden_bookmark`) left out."""
    entries = []
    for row in toc:
        level, title, page = row[0], row[1], row[2]
        if isinstance(level, int) and isinstance(title, str) and isinstance(page, int):
            if title.strip() and not is_hidden_bookmark(title):
                entries.append(OutlineEntry(level, title.strip(), page))
    return entries
