"""A title printed again is not a section (block rule ``repeated-titles``).

Documents print their title more than once: on the cover and again on a title page, at the top
of the first page of the body, on the back cover. Each print reads as a heading, and a later
one opens a section named like the document under whatever heading is open there ("Overview >
Building a Continuous Integration Pipeline with Docker"), or takes every page after a back
cover's title into a section of its own.

`demote_repeated_titles(pages)`: the document's *title* is its first heading block when that
stands on the first page and holds at least `MIN_WORDS` words (a one-word first heading,
"Introduction", may be a section whose name recurs). A heading block on a later page whose
words are the title's (`running_titles.exact_title`: markup, case and punctuation ignored)
becomes a text block, unless the heading after it repeats the heading after the title: a
repeated opening run of headings is a second document's cover (``second-documents``).
"""

from __future__ import annotations

import logging

from ..blocks import Block
from .common import Pages, demoted, edited, in_order
from .running_titles import exact_title

log = logging.getLogger(__name__)

#: Words a first heading holds at least to be read as the document's title.
MIN_WORDS = 2

Heading = tuple[int, int, Block]  # page number, index on the page, block


def _headings(pages: Pages) -> list[Heading]:
    return [(n, i, b) for n, i, b in in_order(pages) if b.is_heading and exact_title(b.text)]


def _title(headings: list[Heading], first_page: int) -> str:
    """The title's words (module docstring), or "" when the document has no title heading."""
    if not headings or headings[0][0] != first_page:
        return ""
    words = exact_title(headings[0][2].text)
    return words if len(words.split()) >= MIN_WORDS else ""


def _next_words(headings: list[Heading], k: int) -> str:
    return exact_title(headings[k + 1][2].text) if k + 1 < len(headings) else ""


def demote_repeated_titles(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks on later pages that repeat the document's title become text blocks
    (module docstring)."""
    headings = _headings(pages)
    title = _title(headings, min(pages, default=0))
    if not title:
        return edited(pages, {})
    opening = _next_words(headings, 0)
    changes = {
        (n, i): demoted(block, "the document's title printed again, not a section")
        for k, (n, i, block) in enumerate(headings)
        if n != headings[0][0]
        and exact_title(block.text) == title
        and not (opening and _next_words(headings, k) == opening)
    }
    if changes:
        log.debug("repeated titles made text: %d", len(changes))
    return edited(pages, changes)
