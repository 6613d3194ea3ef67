"""What a chunk is: the document's own text, or navigation (a contents page, an index, a list of
figures or tables).

Navigation stays in the Markdown and in the chunks (no text is lost), but a reader searching the
document's text wants the sections, not the list that points at them: a contents entry repeats a
heading's words and wins a lexical search for them while citing the wrong page. `chunk_role`
says which a chunk is; the record carries it (``role``), and retrieval and store sync leave
navigation out unless asked.

The rule, over the chunk body's entry lines (non-blank lines that are not page markers, table
separator rows, empty table rows (a table's empty header row) or headings; a table row is read
as its cells joined by spaces):

* A line is a *page reference entry* when, with list markers, emphasis and link syntax removed,
  it ends with page references — whole numbers of at most four digits (no thousands separator,
  decimal point or currency), lower-case roman numerals, or ranges and comma lists of them —
  after text holding a letter and at most 20 words. In a table row the references are its
  whole last filled cell (or follow a leader in it) and no other cell is a number but a
  section number in the first cell before a title ("| 1.2 | Scope ... 3 |").
* It is *marked* when a dot leader (three or more dots, spaced or not, or an ellipsis) or a
  comma (an index entry: "gawk, 23, 45-47") stands before the references, and *plain* otherwise
  ("Risk Factors 12", "| Item 1A. | Risk Factors | 12 |"); a plain entry's text does not end
  with a number (that is a row of figures: "Benefit payments 1,059 307").
* A chunk is navigation when entries are at least 60% of its lines and hold at least 60% of
  its characters (a contents table before a page of prose is not the chunk), number at least
  3, and
  either the marked entries are at least 30% of its lines, or there are at least 4 plain entries
  whose page numbers ascend (non-decreasing in at least 80% of neighbouring pairs): a contents
  list points forward through the document; a table of counts does not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..markers import MARKER_RE
from ..mdsyntax import EMPTY_TABLE_ROW_RE, HEADING_RE, TABLE_SEPARATOR_RE
from ..textkeys import LETTER_RE

Role = Literal["content", "navigation"]
ROLES: tuple[Role, ...] = ("content", "navigation")

MIN_ENTRY_SHARE = 0.6
MIN_MARKED_SHARE = 0.3
MIN_ENTRIES = 3
MIN_PLAIN_ASCENDING = 4
MIN_ASCENDING_SHARE = 0.8
MAX_ENTRY_WORDS = 20

_REF = r"(?:\d{1,4}|[ivxlc]{1,7})"
_REFS = rf"{_REF}(?:\s*[-–—]\s*{_REF})?(?:\s*,\s*{_REF}(?:\s*[-–—]\s*{_REF})?)*"
_LEADER = r"(?:\.\s*){3,}|…+|(?:_\s*){3,}"
_ENTRY_RE = re.compile(
    rf"^(?P<text>.*?)(?P<sep>\s*(?:{_LEADER})\s*|\s*,\s*|\s+)(?P<refs>{_REFS})$", re.IGNORECASE
)
_REFS_RE = re.compile(_REFS, re.IGNORECASE)
_LEADER_RE = re.compile(_LEADER)
_NUMBER_END_RE = re.compile(r"\d[\d,.]*%?\)?$")
_LIST_MARK_RE = re.compile(r"^\s*(?:[-*+•]\s+|>\s*)")
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS_RE = re.compile(r"[*_`]{1,3}(?=\S)|(?<=\S)[*_`]{1,3}")
_NUMBER_CELL_RE = re.compile(r"^[-+(]?[$€£]?\s*\d[\d,.]*\s*%?\)?$")
_ROMAN_RE = re.compile(r"^[ivxlc]+$")


@dataclass(frozen=True)
class Entry:
    """One page reference entry: whether a leader or comma marks it, its first page number
    (None for a roman numeral) and the text before its references."""

    marked: bool
    page: int | None
    title: str = field(default="", compare=False)


def _plain(line: str) -> str:
    """The line's text: link targets, emphasis and list markers removed, table cells joined."""
    text = _LINK_RE.sub(r"\1", line)
    text = _EMPHASIS_RE.sub("", text)
    text = _LIST_MARK_RE.sub("", text)
    return " ".join(text.split())


def _row_cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|")):
        return None
    return [_plain(c) for c in stripped.strip("|").split("|")]


def _row_text(cells: Sequence[str]) -> str | None:
    """A table row as one entry line, or None when a cell before the last holds a number (a
    table of figures, not of page references)."""
    filled = [c for c in cells if c]
    if len(filled) < 2:
        return " ".join(filled)
    if not _REFS_RE.fullmatch(filled[-1]) and not _LEADER_RE.search(filled[-1]):
        return None
    if any(_NUMBER_CELL_RE.match(c) and not _is_label_number(c, filled) for c in filled[:-1]):
        return None
    return " ".join(filled)


def _is_label_number(cell: str, filled: Sequence[str]) -> bool:
    """A section number in the first cell ("1.2", "4") before a title cell is a label: a cell
    with a letter followed by the page cell, or holding its title, a leader and the page."""
    if cell is not filled[0] or not LETTER_RE.search(filled[1]):
        return False
    return len(filled) >= 3 or bool(_LEADER_RE.search(filled[1]))


def entry(line: str) -> Entry | None:
    """The line as a page reference entry, or None (module docstring)."""
    cells = _row_cells(line)
    if cells is not None:
        text = _row_text(cells)
        if text is None:
            return None
    else:
        text = _plain(line)
    m = _ENTRY_RE.match(text)
    if m is None:
        return None
    before = m.group("text").rstrip(" .,:;")
    if not LETTER_RE.search(before) or len(before.split()) > MAX_ENTRY_WORDS:
        return None
    sep = m.group("sep").strip()
    if not sep and _NUMBER_END_RE.search(before):
        return None
    first = re.split(r"[\s,\-–—]+", m.group("refs"))[0]
    roman = bool(_ROMAN_RE.match(first.lower()))
    if roman and not sep:
        return None  # "Part II", "Chapter iv": a label's numeral, not a page
    return Entry(marked=bool(sep), page=None if roman else int(first), title=before)


def _lines(body: str) -> list[str]:
    return [
        line
        for line in body.splitlines()
        if line.strip()
        and not MARKER_RE.match(line)
        and not TABLE_SEPARATOR_RE.fullmatch(line)
        and not EMPTY_TABLE_ROW_RE.fullmatch(line)
        and not HEADING_RE.match(line)
    ]


def _ascending(pages: Sequence[int]) -> bool:
    if len(pages) < 2:
        return False
    up = sum(1 for a, b in zip(pages, pages[1:], strict=False) if b >= a)
    return up >= MIN_ASCENDING_SHARE * (len(pages) - 1)


def chunk_role(body: str) -> Role:
    """ "navigation" when the chunk body is a list of page references, else "content" (module
    docstring)."""
    lines = _lines(body)
    if len(lines) < MIN_ENTRIES:
        return "content"
    found = [(line, e) for line in lines if (e := entry(line)) is not None]
    entries = [e for _, e in found]
    if len(entries) < MIN_ENTRIES or len(entries) < MIN_ENTRY_SHARE * len(lines):
        return "content"
    chars = sum(len(line.strip()) for line in lines)
    if sum(len(line.strip()) for line, _ in found) < MIN_ENTRY_SHARE * chars:
        return "content"
    marked = sum(e.marked for e in entries)
    if marked >= MIN_MARKED_SHARE * len(lines):
        return "navigation"
    plain = [e.page for e in entries if not e.marked and e.page is not None]
    if len(plain) >= MIN_PLAIN_ASCENDING and _ascending(plain):
        return "navigation"
    return "content"
