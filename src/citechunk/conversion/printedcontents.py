"""A printed contents list as the document's outline, when the PDF has no outline of its own.

A document made without bookmarks often prints its structure on a contents page: its section
titles, indented by depth, each with the page it starts on. That list is the author's outline
and is read as one (`printed_outline`), so the outline repair (`repairs.outline`) levels the
headings by it as it does by bookmarks.

The rule, over the text layer's lines (`textlayer.PageText`), each row (lines whose middles
share a band, left to right) read in order:

- The list opens at a line that is a contents title ("Contents", "Table of Contents", "Inhalt",
  ...: `processors.navigation_entries.is_navigation_title`, but not an index or a list of
  figures or tables) on one of the first `SEARCH_PAGES` pages. It runs over the rows after the
  title and over the next pages while a page holds `MIN_GOING_ON` or more entries making at
  least `MIN_PAGE_SHARE` of its rows; a list of figures, tables or an index title ends it.
- An *entry* is a row's text (lines joined left to right until one ends with a page number)
  that reads as a page reference entry (`chunking.navigation.entry`: a title of at most 20
  words, then an arabic page number, leaders or not). A row of text with no number just before
  an entry is the first line of its wrapped title.
- *Levels* come from the entries' styles: indent first (left edges clustered within
  `INDENT_TOLERANCE` points, measured from the leftmost entry of the page's column: facing
  pages have other margins, and a list may stand in two columns),
  then larger type, then bold before regular, then the depth of the section number
  (`numbers.number_depth`; unnumbered: 1), styles ranked in that order; an entry is one
  level below the nearest entry before it of a higher-ranked style, so levels never skip;
  entries numbered to one depth are peers at the level most of them have.
- *Pages*: the printed number plus the offset that puts the most entries' titles on the text of
  their page (searched from `-MAX_OFFSET` to `+MAX_OFFSET`); the list is read only when that
  offset places at least `MIN_PLACED_SHARE` of the entries (a list whose titles the pages do
  not print is no outline of this file).

Fewer than `MIN_ENTRIES` entries, or entries whose pages mostly descend, give no outline.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..chunking.navigation import entry
from ..textkeys import LETTER_RE, words_key
from .numbers import number_depth
from .outline import OutlineEntry, title_key
from .processors.navigation_entries import is_navigation_title
from .repairs.contents import title_words
from .runninglines import is_page_number, text_rows
from .textlayer import Line, TextLayer

SEARCH_PAGES = 12
MIN_ENTRIES = 4
MIN_PAGE_SHARE = 0.5
#: Entries a page after the list's first holds at least to go on with it (its last page may
#: hold a line or two).
MIN_GOING_ON = 2
INDENT_TOLERANCE = 6.0
MAX_OFFSET = 40
MIN_PLACED_SHARE = 0.5
MIN_ASCENDING_SHARE = 0.8
MAX_WRAP_WORDS = 12
#: Points: left edges of entries this far apart stand in two columns of one list.
COLUMN_GAP = 120.0

_OTHER_LIST_RE = re.compile(
    r"(?:(?:list|table) of )?(?:figures|tables|illustrations|exhibits)"
    r"|(?:list|table) of abbreviations|index"
)


@dataclass(frozen=True)
class Printed:
    """One entry as printed: its title, the page number printed after it, its left edge, and
    the type size and weight of its first line."""

    title: str
    page: int
    left: float
    size: float = 0.0
    bold: bool = False


def _rows(lines: Sequence[Line]) -> list[list[Line]]:
    """The page's horizontal lines in rows top to bottom (`runninglines.text_rows`), each left
    to right."""
    rows = text_rows([ln for ln in lines if not ln.vertical])
    return [sorted(row, key=lambda ln: ln.box[0]) for row in rows]


def _row_entries(row: Sequence[Line]) -> tuple[list[Printed], str]:
    """The entries of one row (a row of a two-column list holds two), and its text when it
    holds none."""
    found: list[Printed] = []
    text, first = "", None
    for line in row:
        first = first or line
        text = f"{text} {line.text}".strip()
        read = entry(text)
        if read is not None and read.page is not None:
            found.append(Printed(read.title, read.page, first.box[0], first.size, first.bold))
            text, first = "", None
    return found, ("" if found else text)


def _is_title(text: str) -> bool:
    words = title_words(text)
    return is_navigation_title(words) and not _OTHER_LIST_RE.fullmatch(words)


def _page_entries(rows: Sequence[Sequence[Line]]) -> tuple[list[Printed], bool]:
    """The entries of a page's `rows` in reading order (`_in_columns`), and whether another
    list's title ended them."""
    found: list[Printed] = []
    wrapped: Printed | None = None
    ended = False
    for row in rows:
        if _OTHER_LIST_RE.fullmatch(title_words(row[0].text)):
            ended = True
            break
        entries, rest = _row_entries(row)
        if entries and wrapped is not None:
            first = entries[0]
            entries[0] = replace(wrapped, title=f"{wrapped.title} {first.title}", page=first.page)
        found.extend(entries)
        wrapped = None
        if _wraps(rest):
            wrapped = Printed(rest, 0, row[0].box[0], row[0].size, row[0].bold)
    return _in_columns(found), ended


def _wraps(text: str) -> bool:
    """A row's text may be the first line of the next entry's title: words, not a folio."""
    return (
        bool(LETTER_RE.search(text))
        and not is_page_number(text)
        and (len(text.split()) <= MAX_WRAP_WORDS)
    )


def _in_columns(entries: Sequence[Printed]) -> list[Printed]:
    """A page's entries column by column (left edges more than `COLUMN_GAP` apart start a new
    column), each entry's left edge measured from its column's leftmost (facing pages set
    their margins apart)."""
    starts: list[float] = []
    for left in sorted({e.left for e in entries}):
        if not starts or left - starts[-1] > COLUMN_GAP:
            starts.append(left)
    column = [max(i for i, x in enumerate(starts) if e.left >= x) for e in entries]
    order = sorted(range(len(entries)), key=lambda k: column[k])
    return [replace(entries[k], left=entries[k].left - starts[column[k]]) for k in order]


def _listed(layer: TextLayer, pages: Sequence[int]) -> tuple[list[Printed], set[int]]:
    """The entries of the contents list, from its title over the pages it fills, and those
    pages."""
    for k, number in enumerate(pages[:SEARCH_PAGES]):
        rows = _rows(layer.page(number).lines)
        start = next((i for i, row in enumerate(rows) if _is_title(row[0].text)), None)
        if start is None:
            continue
        found, ended = _page_entries(rows[start + 1 :])
        listing = {number}
        for later in pages[k + 1 :]:
            if ended:
                break
            rows = _rows(layer.page(later).lines)
            more, ended = _page_entries(rows)
            if len(more) < MIN_GOING_ON or len(more) < MIN_PAGE_SHARE * len(rows):
                break
            found.extend(more)
            listing.add(later)
        return found, listing
    return [], set()


def _levels(entries: Sequence[Printed]) -> list[int]:
    """Each entry's level: the rank of its style among the entries' styles (module docstring)."""
    indents: list[float] = []
    for left in sorted(e.left for e in entries):
        if not indents or left - indents[-1] > INDENT_TOLERANCE:
            indents.append(left)

    def style(e: Printed) -> tuple[int, int, bool, int]:
        indent = max(i for i, x in enumerate(indents) if e.left >= x)
        return indent, -round(e.size), not e.bold, number_depth(e.title) or 1

    styles = sorted({style(e) for e in entries})
    return _numbered_peers(entries, _depths([styles.index(style(e)) for e in entries]))


def _numbered_peers(entries: Sequence[Printed], levels: list[int]) -> list[int]:
    """Entries numbered to one depth are peers: each takes the level most of them have (a
    list indented unevenly does not nest "3.2" under "3.1")."""
    by_depth: dict[int, Counter[int]] = {}
    depths = [number_depth(e.title) for e in entries]
    for depth, level in zip(depths, levels, strict=True):
        if depth is not None:
            by_depth.setdefault(depth, Counter())[level] += 1
    return [
        level if depth is None else by_depth[depth].most_common(1)[0][0]
        for depth, level in zip(depths, levels, strict=True)
    ]


def _depths(ranks: Sequence[int]) -> list[int]:
    """Each entry's depth in the list's tree: one below the nearest entry before it of a
    higher (smaller) rank, so levels never skip ("1" then "1.1.1" is level 1 then 2)."""
    open_ranks: list[int] = []
    depths = []
    for rank in ranks:
        while open_ranks and open_ranks[-1] >= rank:
            open_ranks.pop()
        open_ranks.append(rank)
        depths.append(len(open_ranks))
    return depths


def _page_keys(layer: TextLayer, pages: Sequence[int], listing: set[int]) -> dict[int, str]:
    """Each page's words as one string to search titles in; the list's own pages left out."""
    return {n: f" {words_key(layer.page(n).text)} " for n in pages if n not in listing}


def _printed_on(e: Printed, page: int, keys: dict[int, str]) -> bool:
    key = f" {title_key(e.title)} "
    return bool(key.strip()) and any(key in keys.get(n, "") for n in (page - 1, page, page + 1))


def _offset(entries: Sequence[Printed], keys: dict[int, str]) -> int:
    """The offset from printed to PDF page numbers that places the most titles on their page
    (module docstring)."""
    titles = [(f" {title_key(e.title)} ", e.page) for e in entries]
    scores = {
        offset: sum(key in keys.get(page + offset, "") for key, page in titles)
        for offset in range(-MAX_OFFSET, MAX_OFFSET + 1)
    }
    return max(scores, key=lambda offset: (scores[offset], -abs(offset)))


def _ascending(entries: Sequence[Printed]) -> bool:
    pairs = list(zip(entries, entries[1:], strict=False))
    return sum(b.page >= a.page for a, b in pairs) >= MIN_ASCENDING_SHARE * len(pairs)


def printed_outline(layer: TextLayer, pages: Sequence[int]) -> tuple[OutlineEntry, ...]:
    """The document's printed contents list as outline entries (module docstring); () when it
    prints none that its pages bear out."""
    entries, listing = _listed(layer, pages)
    if len(entries) < MIN_ENTRIES:
        return ()
    keys = _page_keys(layer, pages, listing)
    offset = _offset(entries, keys)
    placed = [e for e in entries if _printed_on(e, e.page + offset, keys)]
    if len(placed) < max(MIN_ENTRIES, MIN_PLACED_SHARE * len(entries)) or not _ascending(placed):
        return ()
    return tuple(
        OutlineEntry(level, e.title, e.page + offset)
        for e, level in zip(placed, _levels(placed), strict=True)
    )
