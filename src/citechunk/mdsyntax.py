"""Markdown syntax both the conversion and the chunking stage recognise (one definition each),
so the repairs and the chunker agree on what is a heading, a fence or a table row.

* `TABLE_SEPARATOR_RE`: a pipe-table delimiter row (``|---|:--:|``), matched with ``fullmatch``
  on one line without its newline (leading/trailing pipes optional, alignment colons allowed).
* `EMPTY_TABLE_ROW_RE`: a pipe-table row without text in any cell (``| | |``, ``|||``), the header
  row of a table that has none (`conversion.tables.header`), matched with ``fullmatch``.
* A fence opens on a line of up to 3 spaces, then 3 or more backticks or tildes; a backtick
  opener's info string holds no backtick (``` ``x`` ``` is inline code, not a fence). It closes
  on a line of up to 3 spaces, the same character at least as many times, and nothing else but
  spaces; an unclosed fence runs to the end of the document. Inside a fence nothing is a heading.
* An ATX heading is up to 3 spaces, 1-6 ``#``, then a space or tab and its text (`HEADING_RE`;
  group 1 the hashes, group 2 the text without surrounding blanks). The chunker also reads a
  bare ``##`` (no text) as a heading that adds nothing to the path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$")
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
TABLE_SEPARATOR_RE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*(?::?-+:?[ \t]*)?")
EMPTY_TABLE_ROW_RE = re.compile(r"\s*\|(?:\s*\|)+\s*")


@dataclass(frozen=True)
class Fence:
    """An open fence: its character and the length of its opening run."""

    char: str
    length: int


def opens_fence(marks: str, rest: str) -> Fence | None:
    """The fence a line opens, given its run of backticks/tildes and the rest of the line."""
    if marks[0] == "`" and "`" in rest:
        return None
    return Fence(marks[0], len(marks))


def closes_fence(fence: Fence, marks: str, rest: str) -> bool:
    """True when a line with this run and rest closes `fence`."""
    return marks[0] == fence.char and len(marks) >= fence.length and not rest.strip()


def fenced_lines(lines: Sequence[str]) -> Iterator[tuple[int, bool]]:
    """(index, inside_fence) for each line; the opening and closing lines count as inside."""
    fence: Fence | None = None
    for i, line in enumerate(lines):
        m = FENCE_RE.match(line) if "`" in line or "~" in line else None
        if fence is None:
            fence = opens_fence(m[1], m[2]) if m else None
            yield i, fence is not None
        else:
            if m and closes_fence(fence, m[1], m[2]):
                fence = None
            yield i, True
