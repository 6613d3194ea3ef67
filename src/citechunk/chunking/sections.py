"""Split Markdown into heading sections in one regex-driven pass.

Rules (contract):
- ATX headings ``#``..``######`` (up to 3 leading spaces, a space or end of line after the
  hashes) start a section when their level is <= ``max_depth``; deeper ones stay in the body.
- Lines inside fenced code (``` or ~~~) are never headings. A fence closes on a line of the same
  character, at least as long as the opener, with nothing else on it; an unclosed fence runs to
  the end of the document (CommonMark).
- The heading stack is tagged by level: a heading pops every open heading of the same or a
  deeper level, so ``#`` A, ``###`` B, ``##`` C gives paths (A,), (A, B), (A, C).
- Heading text is cleaned: trailing ``#`` run, emphasis markup and inline HTML tags removed,
  whitespace collapsed; numbering such as ``2.1`` is kept. A heading whose cleaned text is empty
  closes deeper headings but adds nothing to the path.
- Sections tile the document: the preamble [0, first heading) and then each heading line up to
  the next section heading. Page markers are not structure here (see `PageMap`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Structural lines: a fence line or an ATX heading. Candidates are found by a cheap literal-led
# pattern (newline, up to 3 spaces, one of # ` ~), then checked with the full pattern.
_CANDIDATE_RE = re.compile(r"\n {0,3}[#`~]")
_STRUCT_LINE = re.compile(
    r" {0,3}(?:(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)"
    r"|(?P<hashes>#{1,6})(?:[ \t]+(?P<title>[^\n]*?))?[ \t]*\r?)(?=\n|\Z)"
)
_NEEDS_CLEANING = re.compile(r"[*_~<#\t\r]|\s\s")
_TRAILING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_STRONG = re.compile(r"(\*\*|__)(.+?)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_STRIKE = re.compile(r"~~(.+?)~~")
_EMPHASIS = (("**", _STRONG), ("__", _STRONG), ("~~", _STRIKE), ("*", _EM_STAR), ("_", _EM_UNDER))
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


@dataclass(frozen=True)
class Section:
    """A heading's section: ``[heading_start, body_start)`` is the heading line (empty for the
    preamble, whose ``level`` is 0), ``[body_start, body_end)`` its body up to the next section."""

    path: tuple[str, ...]
    level: int
    heading_start: int
    body_start: int
    body_end: int
    parent: tuple[str, ...] = ()
    parent_start: int = -1  # heading_start of the parent section; -1 for the document root


@dataclass(frozen=True)
class Outline:
    """All sections in document order (they tile the text) and the fenced-code spans."""

    sections: tuple[Section, ...]
    fences: tuple[tuple[int, int], ...]


def _inner(m: re.Match[str]) -> str:
    return m[m.lastindex or 0]


def clean_heading(raw: str) -> str:
    """Heading text without closing hashes, emphasis, inline tags or extra whitespace."""
    text = raw.strip()
    if text.startswith("**") and text.endswith("**") and text.count("*") == 4:
        text = text[2:-2].strip()  # the common `## **Title**` of PDF converters
    if not _NEEDS_CLEANING.search(text):
        return text
    if "#" in text:
        text = _TRAILING_HASHES.sub("", text)
    if "<" in text:
        text = _HTML_TAG.sub(" ", text)
    for marks, pattern in _EMPHASIS:
        if marks in text:
            text = pattern.sub(_inner, text)
    text = text.replace("**", "")
    return " ".join(text.split())


def _structural_lines(markdown: str) -> list[tuple[int, int, re.Match[str]]]:
    """(line start, line end, match) of every fence or heading line, in order."""
    match = _STRUCT_LINE.match
    lines = []
    first = match(markdown)
    if first:
        lines.append((0, first.end(), first))
    for c in _CANDIDATE_RE.finditer(markdown):
        m = match(markdown, c.start() + 1)
        if m:
            lines.append((c.start() + 1, m.end(), m))
    return lines


def parse_outline(markdown: str, max_depth: int = 6) -> Outline:
    """The sections and fences of ``markdown`` (see the module docstring for the rules)."""
    sections: list[Section] = []
    fences: list[tuple[int, int]] = []
    stack: list[tuple[int, tuple[str, ...], int]] = []  # (level, path to it, heading offset)
    path: tuple[str, ...] = ()
    parent: tuple[str, ...] = ()
    level, heading_start, body_start, parent_start = 0, 0, 0, -1
    fence: tuple[str, int, int] | None = None  # (char, length, start)
    for line_start, line_end, m in _structural_lines(markdown):
        marks = m["fence"]
        if fence is not None:
            if marks and marks[0] == fence[0] and len(marks) >= fence[1] and not m["info"].strip():
                fences.append((fence[2], line_end))
                fence = None
            continue
        if marks:
            if not (marks[0] == "`" and "`" in m["info"]):
                fence = (marks[0], len(marks), line_start)
            continue
        new_level = len(m["hashes"])
        if new_level > max_depth:
            continue
        sections.append(
            Section(path, level, heading_start, body_start, line_start, parent, parent_start)
        )
        while stack and stack[-1][0] >= new_level:
            stack.pop()
        parent, parent_start = (stack[-1][1], stack[-1][2]) if stack else ((), -1)
        title = clean_heading(m["title"] or "")
        path = (*parent, title) if title else parent
        if title:
            stack.append((new_level, path, line_start))
        level, heading_start = new_level, line_start
        body_start = line_end + 1 if line_end < len(markdown) else line_end
    if fence is not None:
        fences.append((fence[2], len(markdown)))
    sections.append(
        Section(path, level, heading_start, body_start, len(markdown), parent, parent_start)
    )
    return Outline(tuple(sections), tuple(fences))
