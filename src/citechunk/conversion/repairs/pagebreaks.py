"""Fixes across a page break: a word hyphenated over it, a table continued after it.

`join_page_hyphens` completes a word hyphenated across a page break on the page where it
starts; `join_page_tables` gives a table continued on the next page its header row back.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ...mdsyntax import EMPTY_TABLE_ROW_RE, TABLE_SEPARATOR_RE

log = logging.getLogger(__name__)

_NOT_PROSE_LINE_RE = re.compile(r"(?:[-*+]\s|\d{1,3}[.)]\s|#|\||>|```)")
_PAGE_END_HYPHEN_RE = re.compile(r"([^\W\d_]+)-$")
_PAGE_START_WORD_RE = re.compile(r"^([^\W\d_A-Z]+)([^\s]*)[ \t]*")


def _cells(row: str) -> list[str]:
    return row.strip().strip("|").split("|")


def _table_at(lines: list[str], from_end: bool) -> list[int]:
    """Indexes of the table rows that end (or open) the page, in order; [] when the page's
    last (first) non-blank line is not a table row."""
    order = range(len(lines) - 1, -1, -1) if from_end else range(len(lines))
    rows: list[int] = []
    for i in order:
        line = lines[i].strip()
        if not line and not rows:
            continue
        if not line.startswith("|"):
            break
        rows.append(i)
    return sorted(rows)


def _bold_row(row: str) -> bool:
    cells = [c.strip() for c in _cells(row)]
    return all(c.startswith("**") and c.endswith("**") for c in cells if c)


def join_page_tables(pages: Sequence[str]) -> list[str]:
    """Give a table that continues from the previous page its real header row back.

    Extractors render each page's part of a table as its own table, so a continuation without a
    repeated header comes out with its first data row as the header. When page N ends with a
    table and page N+1 opens with a table of the same number of columns, page N+1's table takes
    page N's header row:

    * in place of its own empty header row (the table rule, `tables.header`, found it has no
      header: its first row is data), when page N's header row is not empty;
    * above its first row, which becomes a data row again, when page N's header row is bold
      (an empty header row counts as bold: a table without a header goes on without one) and
      that first row is not bold and differs from it.

    A header-only table at the end of page N (no rows) moves to page N+1 instead of appearing
    twice.
    """
    out = [p.split("\n") for p in pages]
    for n in range(len(out) - 1):
        prev, cur = _table_at(out[n], True), _table_at(out[n + 1], False)
        if len(prev) < 2 or len(cur) < 2:
            continue
        lines = out[n + 1]
        header, sep = out[n][prev[0]], out[n][prev[1]]
        first = lines[cur[0]]
        if not (TABLE_SEPARATOR_RE.fullmatch(sep) and TABLE_SEPARATOR_RE.fullmatch(lines[cur[1]])):
            continue
        if len(_cells(header)) != len(_cells(first)) or first.strip() == header.strip():
            continue
        if EMPTY_TABLE_ROW_RE.fullmatch(first):
            if not EMPTY_TABLE_ROW_RE.fullmatch(header):
                lines[cur[0]] = header
                log.debug("page %d: a continued table takes its header row", n + 2)
        elif _bold_row(header) and not _bold_row(first):
            lines[cur[0] : cur[0] + 2] = [header, sep, first]
            if len(prev) == 2:  # page N held only the header: it moves to its rows
                del out[n][prev[0] : prev[1] + 1]
    return ["\n".join(lines) for lines in out]


def join_page_hyphens(pages: Sequence[str]) -> list[str]:
    """Re-join a word hyphenated across a page break ("rep-" | "resentations are ...").

    When a page's text ends with letters and a hyphen on a prose line, and the next page's
    text starts with a lower-case word, the hyphen goes and the word is completed on the
    first page (where it starts); the next page starts at the word after it. Headings, table
    rows, list items, quotes and code are never touched.
    """
    out = list(pages)
    for n in range(len(out) - 1):
        head, tail = out[n].rstrip(), out[n + 1].lstrip()
        last = head[head.rfind("\n") + 1 :]
        m = _PAGE_END_HYPHEN_RE.search(head)
        w = _PAGE_START_WORD_RE.match(tail)
        if not m or not w or _NOT_PROSE_LINE_RE.match(last.lstrip()):
            continue
        if out[n].count("```") % 2 or tail.startswith(("```", "|")):
            continue
        out[n] = head[:-1] + w.group(1) + w.group(2)
        out[n + 1] = tail[w.end() :]
    return out
