"""Split Markdown into heading sections in one regex-driven pass.

Rules (contract):
- ATX headings ``#``..``######`` (up to 3 leading spaces, a space or end of line after the
  hashes) start a section when their level is <= ``max_depth``; deeper ones stay in the body.
- Lines inside fenced code (``` or ~~~) are never headings; fences open and close by
  `citechunk.mdsyntax`'s rules, the same the conversion repairs use (CommonMark).
- The heading stack is tagged by level: a heading pops every open heading of the same or a
  deeper level, so ``#`` A, ``###`` B, ``##`` C gives paths (A,), (A, B), (A, C).
- Heading text is cleaned to plain text: trailing ``#`` run, emphasis markup and inline HTML
  tags removed, backslash escapes of ASCII punctuation resolved (``backoff\\_factor`` ->
  ``backoff_factor``; an escaped character is never markup), whitespace collapsed; numbering
  such as ``2.1`` is kept. A heading whose cleaned text is empty closes deeper headings but
  adds nothing to the path.
- Sections tile the document: the preamble [0, first heading) and then each heading line up to
  the next section heading. Page markers are not structure here (see `PageMap`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from ..mdsyntax import Fence, closes_fence, opens_fence

# Structural line candidates: up to 3 spaces, then a run of `#` (1-6), backticks or tildes (3+),
# and the rest of the line; `parse_sections` applies the remaining rules. The newline-led pattern
# lets the regex engine skip quickly to line starts; the first line is matched separately.
_CANDIDATE_RE = re.compile(r"\n {0,3}(#{1,6}|`{3,}|~{3,})([^\n]*)")
_FIRST_LINE_RE = re.compile(r" {0,3}(#{1,6}|`{3,}|~{3,})([^\n]*)")
_NEEDS_CLEANING = re.compile(r"[*_~<#\\\t\r]|\s\s")
_TRAILING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_STRONG = re.compile(r"(\*\*|__)(.+?)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_STRIKE = re.compile(r"~~(.+?)~~")
_EMPHASIS = (("**", _STRONG), ("__", _STRONG), ("~~", _STRIKE), ("*", _EM_STAR), ("_", _EM_UNDER))
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
# CommonMark backslash escapes: a backslash before any ASCII punctuation character.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# While markup is removed, escaped characters wait in the Private Use Area (U+E021..U+E07E),
# so an escaped `*` or `#` is never read as markup. Text already holding such characters
# (symbol fonts map glyphs there) is unescaped after the markup pass instead.
_PARK = 0xE000
_PARKED_RE = re.compile("[\ue021-\ue07e]")


class Section(NamedTuple):
    """A heading's section: ``[heading_start, body_start)`` is the heading line (empty for the
    preamble, whose ``level`` is 0), ``[body_start, body_end)`` its body up to the next section.
    (An immutable NamedTuple rather than a dataclass: one is made per heading, hot path.)"""

    path: tuple[str, ...]
    level: int
    heading_start: int
    body_start: int
    body_end: int
    parent: tuple[str, ...] = ()
    parent_start: int = -1  # heading_start of the parent section; -1 for the document root


@dataclass(frozen=True)
class SectionTree:
    """All sections in document order (they tile the text) and the fenced-code spans."""

    sections: tuple[Section, ...]
    fences: tuple[tuple[int, int], ...]


def _inner(m: re.Match[str]) -> str:
    return m[m.lastindex or 0]


def clean_heading(raw: str) -> str:
    """Heading text without closing hashes, emphasis, inline tags, backslash escapes or extra
    whitespace: plain text (an escaped ``\\*`` stays a literal ``*``)."""
    text = raw.strip()
    if text.startswith("**") and text.endswith("**") and text.count("*") == 4:
        text = text[2:-2].strip()  # the common `## **Title**` of PDF converters
    if not _NEEDS_CLEANING.search(text):
        return text
    park = "\\" in text and not _PARKED_RE.search(text)
    if park:
        text = _ESCAPE.sub(lambda m: chr(_PARK + ord(m[1])), text)
    if "#" in text:
        text = _TRAILING_HASHES.sub("", text)
    if "<" in text:
        text = _HTML_TAG.sub(" ", text)
    for marks, pattern in _EMPHASIS:
        if marks in text:
            text = pattern.sub(_inner, text)
    text = text.replace("**", "")
    if park:
        text = _PARKED_RE.sub(lambda m: chr(ord(m[0]) - _PARK), text)
    elif "\\" in text:
        text = _ESCAPE.sub(r"\1", text)
    return " ".join(text.split())


def _structural_lines(markdown: str) -> list[tuple[int, int, str, str]]:
    """(line start, line end, marks, rest of line) of every candidate line, in order."""
    first = _FIRST_LINE_RE.match(markdown)
    lines = [(0, first.end(), first[1], first[2])] if first else []
    lines += [(m.start() + 1, m.end(), m[1], m[2]) for m in _CANDIDATE_RE.finditer(markdown)]
    return lines


def parse_sections(markdown: str, max_depth: int = 6) -> SectionTree:
    """The sections and fences of ``markdown`` (see the module docstring for the rules)."""
    sections: list[Section] = []
    fences: list[tuple[int, int]] = []
    stack: list[tuple[int, tuple[str, ...], int]] = []  # (level, path to it, heading offset)
    path: tuple[str, ...] = ()
    parent: tuple[str, ...] = ()
    level, heading_start, body_start, parent_start = 0, 0, 0, -1
    fence: Fence | None = None
    fence_start = 0
    size = len(markdown)
    for line_start, line_end, marks, rest in _structural_lines(markdown):
        if fence is not None:
            if closes_fence(fence, marks, rest):
                fences.append((fence_start, line_end))
                fence = None
            continue
        new_level = len(marks)
        if marks[0] != "#":
            fence, fence_start = opens_fence(marks, rest), line_start
            continue
        if rest and rest[0] not in " \t\r" or (rest[:1] == "\r" and rest != "\r"):
            continue  # `#tag`, seven hashes: not a heading
        if new_level > max_depth:
            continue
        sections.append(
            Section(path, level, heading_start, body_start, line_start, parent, parent_start)
        )
        while stack and stack[-1][0] >= new_level:
            stack.pop()
        parent, parent_start = (stack[-1][1], stack[-1][2]) if stack else ((), -1)
        title = clean_heading(rest)
        path = (*parent, title) if title else parent
        if title:
            stack.append((new_level, path, line_start))
        level, heading_start = new_level, line_start
        body_start = line_end + 1 if line_end < size else line_end
    if fence is not None:
        fences.append((fence_start, len(markdown)))
    sections.append(
        Section(path, level, heading_start, body_start, len(markdown), parent, parent_start)
    )
    return SectionTree(tuple(sections), tuple(fences))
