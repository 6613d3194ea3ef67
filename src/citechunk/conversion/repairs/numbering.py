"""Heading levels from section numbers, for PDFs without an outline (bookmarks).

`repair_numbering(pages)` takes the converted pages (1-based page number, Markdown) and returns
them with heading levels made consistent with the document's own decimal section numbers:

* A document is numbered when at least `MIN_NUMBERED` heading lines start with a section number
  (`numbers.decimal_parts`: "2 ", "2.1 ", "3.1.4. ", each part at most 2 digits, then a
  letter), using at least two different top-level numbers. Otherwise nothing changes.
* Numbered headings nest by number, whatever font sizes said: a heading goes one level below
  the nearest open numbered heading whose number is a prefix of its own, or at base level when
  there is none (so a heading whose parent number is missing never nests under an unrelated
  section). base is the most common (level - parts + 1) among the numbered headings, lowered
  when needed so the deepest number still fits in level 6.
* An unnumbered heading between the first and the last numbered heading that is not deeper
  than the numbered section it sits in (a figure or table label taken for a heading) goes one
  level below that section. Unnumbered headings before the first and after the last numbered
  heading (front matter, references, appendices) are left alone.
* A whole-line bold title whose number continues the heading numbering (next sibling, first
  child or an ancestor's next sibling) is a missed heading: it becomes one, at its number's
  level. So is a line holding only a subsection number and an emphasised title, or a list
  item that is only a bold numbered title, whose number continues the numbering of the
  heading before it, or that the heading after it continues with no other numbered line
  between, unless the number before its own opened a plain numbered line since the last
  heading (then it is an ordered list's item).
* A heading that is only a chapter number ("1", "Chapter 1", "PART 2"), whose body is empty or
  only repeats the label, followed by an unnumbered heading (the chapter title) is one heading
  "1 Title" at the label's level, in the label's place (`join_chapter_labels`).
Lines inside code fences and other non-heading lines are never touched.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..mdlines import (
    HEADING_RE,
    heading_lines,
    iter_unfenced,
    join_pages,
    make_heading,
    split_pages,
    strip_inline_markup,
)
from ..numbers import (
    chapter_label,
    decimal_parts,
    next_in_outline,
    plain_number,
    previous,
    unnumbered_level,
)

log = logging.getLogger(__name__)

MIN_NUMBERED = 3
_LIST_MARKER_RE = re.compile(r"^[-*+][ \t]+")
_BOLD_LINE_RE = re.compile(r"^\*\*([^*]{1,120}?)\*\*[ \t]*$")
_TITLE_LINE_RE = re.compile(
    r"^(?:[-*+][ \t]+)?(?P<number>\d{1,2}(?:\.\d{1,2}){1,4}\.?)[ \t]+"
    r"(?:\*\*[^*]{1,120}?\*\*|\*[^*]{1,120}?\*|_[^_]{1,120}?_)[ \t]*$"
    r"|^[-*+][ \t]+\*\*[^*]{1,120}?\*\*[ \t]*$"
)


def _base_level(numbered: list[tuple[int, int]]) -> int:
    """The level for depth-1 numbers: the most common (level - depth + 1) among numbered
    headings (robust to a few misread font sizes), lowered so the deepest number fits in 6."""
    votes = Counter(level - depth + 1 for level, depth in numbered)
    best = max(sorted(votes), key=lambda b: votes[b])
    deepest = max(depth for _, depth in numbered)
    return max(1, min(best, 7 - deepest))


class _Entry(NamedTuple):
    page: int  # index into the pages
    line: int
    level: int  # 0 for a bold line
    number: tuple[int, ...] | None
    bold: bool


def _entries(split: list[list[str]]) -> list[_Entry]:
    """Every heading line, and every whole-line numbered title that continues the heading
    numbering (to be promoted), in document order."""
    out: list[_Entry | None] = []  # None: a titled line not (yet) taken
    titled: list[tuple[int, _Entry]] = []  # (index in out, entry) of emphasised title lines
    prev: tuple[int, ...] | None = None
    listed: set[tuple[int, ...]] = set()  # plain numbered lines since the last heading
    plains: dict[int, int] = {}  # index in out of each plain numbered line: its depth
    for k, lines in enumerate(split):
        for i, inside in iter_unfenced(lines):
            if inside:
                continue
            m = HEADING_RE.match(lines[i])
            if m:
                number = decimal_parts(m.group(2))
                out.append(_Entry(k, i, len(m.group(1)), number, False))
                prev, listed = number or prev, set()
                continue
            b = _BOLD_LINE_RE.match(lines[i])
            number = decimal_parts(b.group(1)) if b else None
            if number and next_in_outline(prev, number):
                out.append(_Entry(k, i, 0, number, True))
                prev, listed = number, set()
                continue
            number = _titled_number(lines[i])
            if number is not None and previous(number) not in listed:
                entry = _Entry(k, i, 0, number, True)
                taken = next_in_outline(prev, number)
                out.append(entry if taken else None)
                titled.append((len(out) - 1, entry))
                if taken:
                    prev, listed = number, set()
                continue
            plain = plain_number(_LIST_MARKER_RE.sub("", lines[i]))
            if plain:
                listed.add(plain)
                out.append(None)
                plains[len(out) - 1] = len(plain)
    _take_backwards(out, titled, plains)
    return [e for e in out if e is not None]


def _titled_number(line: str) -> tuple[int, ...] | None:
    """The section number of a line holding only a number and an emphasised title."""
    return (
        decimal_parts(strip_inline_markup(_LIST_MARKER_RE.sub("", line)))
        if _TITLE_LINE_RE.match(line)
        else None
    )


def _take_backwards(
    out: list[_Entry | None], titled: list[tuple[int, _Entry]], plains: dict[int, int]
) -> None:
    """Take, in place, the titled lines not taken whose number the next numbered heading or
    taken line continues, with no plain numbered line of their depth or shallower between
    (a list's next item; deeper numbered paragraphs are their own), walking back from the end."""
    untaken = {n: e for n, e in titled if out[n] is None}
    following: tuple[int, ...] | None = None
    between = 99  # the shallowest plain numbered line since `following`
    for n in range(len(out) - 1, -1, -1):
        entry = out[n]
        if entry is None and n in untaken and following is not None:
            number = untaken[n].number
            if number and between > len(number) and next_in_outline(number, following):
                out[n] = entry = untaken[n]
        if n in plains:
            between = min(between, plains[n])
        elif entry is not None and entry.number is not None:
            following, between = entry.number, 99
        elif entry is None:
            following = None  # a title line not taken


_GONE = "\x00gone"  # marks a joined title line for removal (never produced by conversion)


def _chapter(text: str) -> str | None:
    """ "1" for a chapter label ("1", "Chapter 1.", "**PART 1**"), else None."""
    return chapter_label(strip_inline_markup(text))


def _lines_between(split: list[list[str]], a: tuple[int, int], b: tuple[int, int]) -> list[str]:
    """The lines strictly between line a and line b ((page, line) positions, a before b)."""
    if a[0] == b[0]:
        return split[a[0]][a[1] + 1 : b[1]]
    middle = [ln for page in split[a[0] + 1 : b[0]] for ln in page]
    return split[a[0]][a[1] + 1 :] + middle + split[b[0]][: b[1]]


def join_chapter_labels(split: list[list[str]]) -> int:
    """Join chapter-number headings with the title heading after them, in place (module
    docstring); returns how many were joined."""
    heads = [(k, i) for k, i, _ in heading_lines(split)]
    joined = 0
    for a, b in zip(heads, heads[1:], strict=False):
        label = HEADING_RE.match(split[a[0]][a[1]])
        title = HEADING_RE.match(split[b[0]][b[1]])
        if label is None or title is None or decimal_parts(title.group(2)):
            continue
        if _chapter(title.group(2)) is not None:  # "## 1" then "## 2": two labels, no title
            continue
        number = _chapter(label.group(2))
        body = [ln for ln in _lines_between(split, a, b) if ln.strip()]
        if number is None or any(_chapter(ln) != number for ln in body):
            continue
        split[a[0]][a[1]] = make_heading(len(label.group(1)), f"{number} {title.group(2)}")
        split[b[0]][b[1]] = _GONE
        joined += 1
    for k, lines in enumerate(split):
        if _GONE in lines:  # drop the title line and the blank line after it
            split[k] = [ln for n, ln in enumerate(lines) if not _gone_or_blank_after(lines, n)]
    return joined


def _gone_or_blank_after(lines: list[str], n: int) -> bool:
    return lines[n] == _GONE or (n > 0 and lines[n - 1] == _GONE and not lines[n].strip())


def _promoted_title(line: str) -> str:
    """The title of a bold or emphasised title line: markup and a list marker dropped."""
    m = _BOLD_LINE_RE.match(line)
    return m.group(1) if m else strip_inline_markup(_LIST_MARKER_RE.sub("", line))


def repair_numbering(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Numbered headings nest under the open heading whose number prefixes theirs, and a chapter
    label joins the title after it (module docstring). Returns new (page, Markdown) pairs."""
    split = split_pages(pages)
    joined = join_chapter_labels(split)
    headings = _entries(split)
    numbered = [h for h in headings if h.number is not None]
    tops = {h.number[0] for h in numbered if h.number}
    if len(numbered) < MIN_NUMBERED or len(tops) < 2 or all(h.bold for h in numbered):
        return list(pages)  # not a numbered document: the chapter-label joins are dropped too
    first, last = headings.index(numbered[0]), headings.index(numbered[-1])
    base = _base_level([(h.level, len(h.number)) for h in numbered if h.number and not h.bold])
    current = base  # level of the numbered section we are in
    chain: list[tuple[tuple[int, ...], int]] = []  # open numbered sections: (number, level)
    changed = 0
    for pos, (k, i, level, number, bold) in enumerate(headings):
        if number is not None:
            while chain and number[: len(chain[-1][0])] != chain[-1][0]:
                chain.pop()  # not an ancestor by number ("1.2" is no parent of "2.1.6")
            if chain and chain[-1][0] == number:
                chain.pop()  # the same number again (a repeated title): a sibling
            new = min(chain[-1][1] + 1 if chain else base, 6)
            chain.append((number, new))
            current = new
        elif first < pos < last:
            new = unnumbered_level(level, current)
        else:
            continue
        if new != level:
            title = _promoted_title(split[k][i]) if bold else split[k][i]
            split[k][i] = make_heading(new, HEADING_RE.sub(r"\2", title))
            changed += 1
    log.debug(
        "numbering repair: %d chapter label(s) joined with their titles, %d heading level(s)"
        " changed",
        joined,
        changed,
    )
    return join_pages(pages, split)
