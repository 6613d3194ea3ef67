"""What a chunk holds: ``kind`` is "navigation", "table", "table-rows", "list" or "text".

Rule, over the chunk body's lines (non-blank lines that are not page markers):
* "navigation" when `navigation.chunk_role` says so (a contents page, an index);
* else, when at least half of the lines are table rows (lines starting with "|"): "table-rows"
  when the chunk holds part of a table only (its span starts on a row after the table's first
  line, or ends on a row with another row after it, in the Markdown), else "table";
* else "list" when at least half of the lines start a list item ("- ", "1. ", "a) ");
* else "text".
"""

from __future__ import annotations

import re

from ..markers import MARKER_RE
from ..models import ChunkKind
from .navigation import chunk_role

_ITEM = re.compile(r"[ \t]*(?:[-*+•▪●◦]|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]+")
_LOOK = 2000  # characters looked at beyond a span for the table row next to it


def _row_before(markdown: str, start: int) -> bool:
    """Whether the line before ``start`` (marker lines skipped) is a table row."""
    before = markdown[max(0, start - _LOOK) : start].split("\n")[:-1]
    lines = [ln for ln in before if ln.strip() and not MARKER_RE.match(ln)]
    return bool(lines) and lines[-1].lstrip().startswith("|")


def _row_after(markdown: str, end: int) -> bool:
    """Whether the next non-blank line after ``end`` (marker lines skipped) is a table row."""
    for line in markdown[end : end + _LOOK].split("\n")[1:]:
        if line.strip() and not MARKER_RE.match(line):
            return line.lstrip().startswith("|")
    return False


def chunk_kind(markdown: str, start: int, end: int, body: str) -> ChunkKind:
    """The kind of the chunk with ``body`` citing ``markdown[start:end]`` (module docstring)."""
    if chunk_role(body) == "navigation":
        return "navigation"
    lines = [ln for ln in body.split("\n") if ln.strip() and not MARKER_RE.match(ln)]
    if not lines:
        return "text"
    rows = sum(ln.lstrip().startswith("|") for ln in lines)
    if 2 * rows >= len(lines):
        starts_inside = markdown.startswith("|", start) and _row_before(markdown, start)
        ends_inside = markdown[:end].rstrip().endswith("|") and _row_after(markdown, end)
        return "table-rows" if starts_inside or ends_inside else "table"
    if 2 * sum(bool(_ITEM.match(ln)) for ln in lines) >= len(lines):
        return "list"
    return "text"
