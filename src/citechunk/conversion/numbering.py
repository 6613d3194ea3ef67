"""Heading levels from section numbers, for PDFs without an outline (bookmarks).

`repair_numbering(pages)` takes the converted pages (1-based page number, Markdown) and returns
them with heading levels made consistent with the document's own decimal section numbers:

* A document is numbered when at least `MIN_NUMBERED` heading lines start with a section number
  ("2 ", "2.1 ", "3.1.4. "; at most 4 parts, each at most 2 digits, then a letter), using at
  least two different top-level numbers. Otherwise nothing changes.
* Numbered headings: level = base + parts - 1, so "3.1.2" nests under "3.1" and "3.1.3.1"
  under "3.1.3", whatever font sizes said. base is the most common (level - parts + 1) among
  the numbered headings, lowered when needed so the deepest number still fits in level 6.
* An unnumbered heading between the first and the last numbered heading that is not deeper than
  the numbered section it sits in (a figure or table label the layout model took for a heading,
  e.g. "# Train: 1k" inside "5.1 Main Results") goes one level below that section, so it cannot
  end the section or capture the sections that follow. Unnumbered headings before the first and
  after the last numbered heading (front matter, references, appendices) are left alone.
Lines inside code fences and non-heading lines are never touched.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence

from .cleanup import HEADING_RE, iter_unfenced, make_heading

log = logging.getLogger(__name__)

MIN_NUMBERED = 3
_NUMBER_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(?=[^\W\d_])")


def section_number(title: str) -> tuple[int, ...] | None:
    """(2, 1) for "2.1 Main Components" or "2.1. Main Components"; None when unnumbered."""
    m = _NUMBER_RE.match(title)
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def _base_level(numbered: list[tuple[int, int]]) -> int:
    """The level for depth-1 numbers: the most common (level - depth + 1) among numbered
    headings (robust to a few misread font sizes), lowered so the deepest number fits in 6."""
    votes = Counter(level - depth + 1 for level, depth in numbered)
    best = max(sorted(votes), key=lambda b: votes[b])
    deepest = max(depth for _, depth in numbered)
    return max(1, min(best, 7 - deepest))


def repair_numbering(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Apply the module's rules; returns new (page, markdown) pairs."""
    split = [text.split("\n") for _, text in pages]
    headings = []  # (page index, line index, level, number or None, title)
    for k, lines in enumerate(split):
        for i, inside in iter_unfenced(lines):
            m = None if inside else HEADING_RE.match(lines[i])
            if m:
                title = m.group(2)
                headings.append((k, i, len(m.group(1)), section_number(title), title))
    numbered = [h for h in headings if h[3] is not None]
    tops = {h[3][0] for h in numbered if h[3]}
    if len(numbered) < MIN_NUMBERED or len(tops) < 2:
        return list(pages)
    first, last = headings.index(numbered[0]), headings.index(numbered[-1])
    base = _base_level([(h[2], len(h[3])) for h in numbered if h[3]])
    current = base  # level of the numbered section we are in
    changed = 0
    for pos, (k, i, level, number, _title) in enumerate(headings):
        if number is not None:
            new = min(base + len(number) - 1, 6)
            current = new
        elif first < pos < last and level <= current:
            new = min(current + 1, 6)
        else:
            continue
        if new != level:
            split[k][i] = make_heading(new, HEADING_RE.sub(r"\2", split[k][i]))
            changed += 1
    log.debug("numbering repair: %d heading level(s) changed", changed)
    return [(number, "\n".join(lines)) for (number, _), lines in zip(pages, split, strict=True)]
