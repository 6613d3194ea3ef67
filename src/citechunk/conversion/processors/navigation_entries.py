"""A line of a contents page or an index is an entry, not a section title (block rule
``navigation-entries``).

Layout models set a line of a contents list or a back-of-book index as a heading now and then
("nonempty 92" among the index's lines): as a heading it opens a section, and every chunk after
it, up to the next real heading, carries it in its path ("Index > nonempty 92").

`demote_navigation_entries(pages)`: a heading block whose text as rendered
(`blocks.Block.shown`) is a page reference entry (`chunking.navigation.entry`: text, then page
numbers or roman numerals) becomes a text block when

* the nearest heading block before it, in reading order over page breaks, that is not itself
  an entry names a navigation list: "Contents", "Table of Contents", "List of Figures" or "List
  of Tables" (`repairs.contents.is_list_title`), an index ("Index", "Subject Index", "Index of
  Names"), or a contents title in another language ("Inhalt", "Sommaire", "Índice", ...);
  markup, case and a trailing colon ignored; and
* its page is a list: of the lines of the page's other text, list-item and heading blocks, at
  least `MIN_ENTRIES` are entries, and entries are at least `MIN_ENTRY_SHARE` of the lines and
  hold at least that share of their characters (the thresholds `chunking.navigation` reads a
  chunk of navigation by).

Both conditions hold on a contents or index page, and neither alone is enough: a heading that
ends in a number ("Article 12", "Appendix 2", "Results 2022") stands on a page of prose, and a
page of short lines ending in figures is no list unless a navigation title heads it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ...chunking.navigation import MIN_ENTRIES, MIN_ENTRY_SHARE, entry
from ..blocks import Block
from ..repairs.contents import is_list_title, title_words
from .common import Pages, demoted, edited, in_order

log = logging.getLogger(__name__)

#: Blocks whose lines are read for the page's share of entries.
LIST_KINDS = frozenset({"text", "list-item", "title", "section-header"})

_INDEX_TITLE_RE = re.compile(
    r"(?:(?:subject|general|author|name)\s+)?index(?:\s+of\s+\w+)?"
    r"|inhalt|inhaltsverzeichnis|sommaire|table des mati[eè]res|[íi]ndice|inhoud|innehåll"
    r"|indholdsfortegnelse|innhold|sisällys(?:luettelo)?|spis treści|содержание|оглавление|目次|目录|目錄|목차"
)


def is_navigation_title(title: str) -> bool:
    """Whether a heading title names a contents list or an index (module docstring)."""
    if is_list_title(title):
        return True
    return bool(_INDEX_TITLE_RE.fullmatch(title_words(title)))


def is_list_page(blocks: Sequence[Block], skip: int) -> bool:
    """The lines of `blocks` (their text, list-item and heading blocks, but the one at `skip`)
    are mostly page reference entries (module docstring)."""
    lines = [
        shown
        for i, block in enumerate(blocks)
        if i != skip and block.kind in LIST_KINDS
        for shown in (line.shown for line in block.lines)
        if shown
    ]
    entries = [line for line in lines if entry(line) is not None]
    if len(entries) < MIN_ENTRIES or len(entries) < MIN_ENTRY_SHARE * len(lines):
        return False
    return sum(map(len, entries)) >= MIN_ENTRY_SHARE * sum(map(len, lines))


def demote_navigation_entries(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Heading blocks that are entries of a contents list or an index become text blocks
    (module docstring)."""
    changes = {}
    under_list = False
    for n, i, block in in_order(pages):
        if not block.is_heading:
            continue
        if entry(block.shown) is None:
            under_list = is_navigation_title(block.shown)
        elif under_list and is_list_page(pages[n], i):
            changes[(n, i)] = demoted(block, "an entry of a contents list or an index")
    if changes:
        log.debug("navigation entries made text: %d", len(changes))
    return edited(pages, changes)
