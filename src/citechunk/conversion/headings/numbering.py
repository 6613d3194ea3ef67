"""Heading levels from section numbers, for PDFs without an outline (bookmarks).

`repair_numbering(pages)` takes the document's blocks and returns them with the heading blocks'
levels made consistent with the document's own decimal section numbers:

* A document is numbered when at least `MIN_NUMBERED` heading blocks open with a section
  number (`numbers.decimal_parts`: "2 ", "2.1 ", "3.1.4. ", each part at most 2 digits, then a
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
* A paragraph block (text, caption, or a page header or footer kept in the body) set wholly
  in bold whose number continues the heading numbering (next sibling, first child or an
  ancestor's next sibling) is a missed heading: it becomes one, at its number's level. So is a paragraph or list-item block holding only a subsection number and a
  title set wholly in bold or wholly in italic, or a list item set wholly in bold, whose
  number continues the numbering of the heading before it, or that the heading after it
  continues with no other numbered block between, unless the number before its own opened a
  plain numbered block since the last heading (then it is an ordered list's item).
* A heading that is only a chapter number ("1", "Chapter 1", "PART 2"), whose body is empty or
  only repeats the label, followed by an unnumbered heading (the chapter title) is one heading
  "1 Title" at the label's level, in the label's place (`join_chapter_labels`).
Only written blocks count (not the furniture layer); code, tables and pictures are never
headings here.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from ..blocks import Block, Line, Span
from ..numbers import (
    chapter_label,
    decimal_parts,
    next_in_outline,
    plain_number,
    previous,
    unnumbered_level,
)
from ..textlayer import union_box
from .common import Pages, Place, body_blocks, level_of, leveled

log = logging.getLogger(__name__)

MIN_NUMBERED = 3
MAX_TITLE = 120  # characters of a bold or emphasised title line
_SUBSECTION_RE = re.compile(r"\d{1,2}(?:\.\d{1,2}){1,4}\.?")
#: Blocks written as one paragraph (a page header or footer kept in the body too).
_PARAGRAPHS = frozenset({"text", "caption", "page-header", "page-footer"})
#: Blocks written as one paragraph or list item (a line the rule may read).
_LINE_KINDS = _PARAGRAPHS | {"list-item"}


def _base_level(numbered: list[tuple[int, int]]) -> int:
    """The level for depth-1 numbers: the most common (level - depth + 1) among numbered
    headings (robust to a few misread font sizes), lowered so the deepest number fits in 6."""
    votes = Counter(level - depth + 1 for level, depth in numbered)
    best = max(sorted(votes), key=lambda b: votes[b])
    deepest = max(depth for _, depth in numbered)
    return max(1, min(best, 7 - deepest))


class _Entry(NamedTuple):
    place: Place
    level: int  # 0 for a block to promote
    number: tuple[int, ...] | None
    bold: bool


def _visible(block: Block) -> list[Span]:
    return [s for line in block.lines for s in line.spans if s.text.strip()]


def _bold_number(block: Block) -> tuple[int, ...] | None:
    """The section number of a paragraph block set wholly in bold."""
    spans = _visible(block)
    whole = bool(spans) and all(s.bold for s in spans) and len(block.shown) <= MAX_TITLE
    return decimal_parts(block.shown) if block.kind in _PARAGRAPHS and whole else None


def _emphasised(spans: Sequence[Span]) -> bool:
    """Every span set in bold, or every span in italic (and one is)."""
    return bool(spans) and (all(s.bold for s in spans) or all(s.italic for s in spans))


def _titled_number(block: Block) -> tuple[int, ...] | None:
    """The section number of a block holding only a subsection number and an emphasised
    title, or of a list item set wholly in bold (module docstring)."""
    spans = _visible(block)
    if block.kind not in _LINE_KINDS or not spans or len(block.shown) > MAX_TITLE:
        return None
    if block.kind == "list-item" and all(s.bold for s in spans):
        return decimal_parts(block.shown)
    first, rest = spans[0], spans[1:]
    plain = not (first.bold or first.italic)
    if plain and _SUBSECTION_RE.fullmatch(first.text.strip()) and _emphasised(rest):
        return decimal_parts(block.shown)
    return None


def _plain_number(block: Block) -> tuple[int, ...] | None:
    """The number a plain numbered block opens with (its first span not emphasised)."""
    spans = _visible(block)
    if block.kind not in _LINE_KINDS or not spans or spans[0].bold or spans[0].italic:
        return None
    return plain_number(block.shown)


def _entries(pages: Pages) -> list[_Entry]:
    """Every heading block, and every block whose numbered title continues the heading
    numbering (to be promoted), in document order."""
    out: list[_Entry | None] = []  # None: a titled block not (yet) taken
    titled: list[tuple[int, _Entry]] = []  # (index in out, entry) of emphasised title blocks
    prev: tuple[int, ...] | None = None
    listed: set[tuple[int, ...]] = set()  # plain numbered blocks since the last heading
    plains: dict[int, int] = {}  # index in out of each plain numbered block: its depth
    for place, block in body_blocks(pages):
        if block.is_heading:
            number = decimal_parts(block.shown)
            out.append(_Entry(place, level_of(block), number, False))
            prev, listed = number or prev, set()
            continue
        number = _bold_number(block)
        if number and next_in_outline(prev, number):
            out.append(_Entry(place, 0, number, True))
            prev, listed = number, set()
            continue
        number = _titled_number(block)
        if number is not None and previous(number) not in listed:
            entry = _Entry(place, 0, number, True)
            taken = next_in_outline(prev, number)
            out.append(entry if taken else None)
            titled.append((len(out) - 1, entry))
            if taken:
                prev, listed = number, set()
            continue
        plain = _plain_number(block)
        if plain:
            listed.add(plain)
            out.append(None)
            plains[len(out) - 1] = len(plain)
    _take_backwards(out, titled, plains)
    return [e for e in out if e is not None]


def _take_backwards(
    out: list[_Entry | None], titled: list[tuple[int, _Entry]], plains: dict[int, int]
) -> None:
    """Take, in place, the titled blocks not taken whose number the next numbered heading or
    taken block continues, with no plain numbered block of their depth or shallower between
    (a list's next item; deeper numbered paragraphs are their own), walking back from the end."""
    untaken = {n: e for n, e in titled if out[n] is None}
    following: tuple[int, ...] | None = None
    between = 99  # the shallowest plain numbered block since `following`
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
            following = None  # a title block not taken


def _written(block: Block) -> str:
    """The text a block shows on the page ("" for one that writes nothing)."""
    return (block.table or "").strip() if block.kind == "table" else block.shown


def _joined(label: Block, number: str, title: Block) -> Block:
    """The chapter heading "number title": `label`'s place and level, `title`'s words."""
    mark = replace(_visible(label)[0], text=number)
    lines = (Line(label.lines[0].bbox, (mark,)), *title.lines)
    same = label.page == title.page
    box = union_box((label.bbox, title.bbox)) if same else label.bbox
    why = f"chapter label {number} joined with the title after it"
    return replace(label, lines=lines, bbox=box, evidence=(*label.evidence, why))


def join_chapter_labels(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Chapter-number headings joined with the title heading after them (module docstring)."""
    written = list(body_blocks(pages))
    heads = [n for n, (_, b) in enumerate(written) if b.is_heading]
    changes: dict[Place, Block | None] = {}
    for a, b in zip(heads, heads[1:], strict=False):
        (place, label), (gone, title) = written[a], written[b]
        if decimal_parts(title.shown) or chapter_label(title.shown) is not None:
            continue  # "## 1" then "## 2": two labels, no title
        number = chapter_label(label.shown)
        body = [_written(block) for _, block in written[a + 1 : b]]
        if number is None or any(chapter_label(t) != number for t in body if t):
            continue
        changes[place], changes[gone] = _joined(label, number, title), None
    return {
        n: tuple(c for i, b in enumerate(blocks) if (c := changes.get((n, i), b)) is not None)
        for n, blocks in pages.items()
    }


def _promoted(block: Block, level: int) -> Block:
    why = f"numbering: its number continues the headings' numbering, level {level}"
    return replace(
        block, kind="section-header", level=level, depth=0, evidence=(*block.evidence, why)
    )


def repair_numbering(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Numbered headings nest under the open heading whose number prefixes theirs, and a chapter
    label joins the title after it (module docstring)."""
    joined = join_chapter_labels(pages)
    headings = _entries(joined)
    numbered = [h for h in headings if h.number is not None]
    tops = {h.number[0] for h in numbered if h.number}
    if len(numbered) < MIN_NUMBERED or len(tops) < 2 or all(h.bold for h in numbered):
        return {n: tuple(blocks) for n, blocks in pages.items()}  # the joins are dropped too
    first, last = headings.index(numbered[0]), headings.index(numbered[-1])
    base = _base_level([(h.level, len(h.number)) for h in numbered if h.number and not h.bold])
    current = base  # level of the numbered section we are in
    chain: list[tuple[tuple[int, ...], int]] = []  # open numbered sections: (number, level)
    out = {n: list(blocks) for n, blocks in joined.items()}
    changed = 0
    for pos, ((n, i), level, number, bold) in enumerate(headings):
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
            why = f"numbering: level {new} under its numbered section"
            out[n][i] = _promoted(out[n][i], new) if bold else leveled(out[n][i], new, why)
            changed += 1
    log.debug(
        "numbering repair: %d chapter label(s) joined with their titles, %d heading level(s)"
        " changed",
        sum(len(pages[n]) - len(blocks) for n, blocks in joined.items()),
        changed,
    )
    return {n: tuple(blocks) for n, blocks in out.items()}
