"""Numbered siblings share a level; a numbered child never outranks its parent.

Font sizes disagree with a document's own numbering more often than its numbering disagrees
with itself. `level_numbered_siblings(pages)` makes levels follow the numbering
(`numbers.heading_number`: decimal, letter-led, labelled such as "Item 1A" / "Note 5", roman):

* Siblings: the headings of one pattern (scheme and depth) take the level most of them have
  (ties: the level of the first one). A pattern needs two different numbers to count: one
  number repeated is a citation, not a numbering.
* Children: a deeper pattern of the same scheme ("2.1" under "2") sits at least one level
  below the shallower one.
* Containment: a labelled pattern whose numbers extend those of another labelled pattern
  ("Objective 1.2" after "Goal 1"), start again after its headings ("Item 1" again after
  "Part II"), or all lie between the same two of its headings, sits at least one level below
  it.
* Unnumbered headings inside the numbering: between the first and the last numbered heading
  (of a pattern that counts), an unnumbered heading that is not deeper than the numbered
  section it sits in goes one level below that section.

Levels that would pass 6 are made to fit by closing gaps between the levels in use (parents
stay parents), then capped. Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..mdlines import heading_lines, join_pages, make_heading, split_pages
from ..numbers import HeadingNumber, heading_number, unnumbered_level

log = logging.getLogger(__name__)

Key = tuple[str, int]


@dataclass(frozen=True)
class _Head:
    page: int
    line: int
    level: int
    title: str
    number: HeadingNumber | None


def _heads(split: list[list[str]]) -> list[_Head]:
    return [
        _Head(k, i, len(m.group(1)), m.group(2), heading_number(m.group(2)))
        for k, i, m in heading_lines(split)
    ]


def _voted_levels(heads: list[_Head]) -> dict[Key, int]:
    """Per pattern with >= 2 different numbers: the most common level (ties: the first one's)."""
    groups: dict[Key, list[_Head]] = {}
    for h in heads:
        if h.number is not None:
            groups.setdefault(h.number.key, []).append(h)
    voted = {}
    for key, group in groups.items():
        if len({h.number for h in group}) >= 2:
            levels = [h.level for h in group]
            counts = Counter(levels)
            best = max(counts.values())
            voted[key] = next(level for level in levels if counts[level] == best)
    return voted


def _inside(inner: Key, outer: Key, heads: list[_Head]) -> bool:
    """True when labelled pattern `inner` is nested in pattern `outer` (module docstring)."""
    return _extends(inner, outer, heads) or _within_one(inner, outer, heads)


def _extends(inner: Key, outer: Key, heads: list[_Head]) -> bool:
    """Every `inner` heading follows an `outer` one and either extends its number
    ("Objective 1.2" after "Goal 1") or, at the same depth, numbers again from the start after
    an `outer` heading although it was used before ("Item 1" again after "Part II")."""
    last: HeadingNumber | None = None
    used = fresh = restarts = False  # inner seen yet / no inner since the last outer
    extends = True
    for h in heads:
        if h.number is None:
            continue
        if h.number.key == outer:
            last, fresh = h.number, True
        elif h.number.key == inner:
            if last is None:
                return False
            deeper = h.number.depth > last.depth
            extends &= deeper and h.number.parts[: last.depth] == last.parts
            restarts |= fresh and used and h.number.parts[0] in ("1", "I", "A")
            used, fresh = True, False
    return extends or restarts


def _within_one(inner: Key, outer: Key, heads: list[_Head]) -> bool:
    """Every `inner` heading lies between the same two consecutive `outer` headings."""
    keys = [h.number.key for h in heads if h.number]
    spans = {keys[:i].count(outer) for i, k in enumerate(keys) if k == inner}
    return len(spans) == 1 and 0 < next(iter(spans)) < keys.count(outer)


def _ordered(voted: dict[Key, int], heads: list[_Head]) -> dict[Key, int]:
    """Children below parents, contained schemes below their containers (module docstring)."""
    labelled = sorted(k for k in voted if k[0] not in ("decimal", "letter", "roman"))
    nested = [
        (inner, outer)
        for outer in labelled
        for inner in labelled
        if inner[0] != outer[0] and inner[1] >= outer[1] and _inside(inner, outer, heads)
    ]
    for _ in range(len(voted)):  # until nothing changes: nesting may chain (Part > Item > Note)
        before = dict(voted)
        for inner, outer in nested:
            voted[inner] = max(voted[inner], voted[outer] + 1)
        for scheme, depth in sorted(voted, key=lambda k: k[1]):
            parent = voted.get((scheme, depth - 1))
            if parent is not None:
                voted[(scheme, depth)] = max(voted[(scheme, depth)], parent + 1)
        if voted == before:
            break
    return voted


def _new_levels(heads: list[_Head], levels: dict[Key, int]) -> list[int]:
    """The level of each heading after the rules (module docstring)."""
    inside = [n for n, h in enumerate(heads) if h.number and h.number.key in levels]
    out, current = [], 0
    for n, h in enumerate(heads):
        if h.number and h.number.key in levels:
            current = levels[h.number.key]
            out.append(current)
        elif h.number is None and inside[0] < n < inside[-1]:
            out.append(unnumbered_level(h.level, current))
        else:
            out.append(h.level)
    return _within_six(out)


def _within_six(levels: list[int]) -> list[int]:
    """Levels past 6 (Markdown's deepest) made to fit by closing the gaps between the levels
    in use, which keeps every heading's parent; what still does not fit is capped at 6."""
    if max(levels, default=0) <= 6:
        return levels
    used = sorted(set(levels))
    rank = {level: used[0] + i for i, level in enumerate(used)}
    return [min(rank[level], 6) for level in levels]


def level_numbered_siblings(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Numbered headings of one pattern share a level, below their parents, and unnumbered
    headings inside the numbering nest in their section (module docstring). Returns new
    (page, Markdown) pairs."""
    split = split_pages(pages)
    heads = _heads(split)
    levels = _ordered(_voted_levels(heads), heads)
    if not levels:
        return list(pages)
    changed = 0
    for h, new in zip(heads, _new_levels(heads, levels), strict=True):
        if new != h.level:
            split[h.page][h.line] = make_heading(new, h.title)
            changed += 1
    if changed:
        log.debug("numbered siblings: %d heading level(s) changed", changed)
    return join_pages(pages, split)
