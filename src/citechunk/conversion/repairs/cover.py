"""A heading set once in large type is not the section everything else sits in.

The first pages' largest type (a banner, an issuer's name) can come out as the document's only
top-level heading, so every later section nests under it and every chunk's path starts with it.

`raise_below_cover(pages, ctx)`: when the shallowest heading level is held by one heading
only, that heading is on one of the first `COVER_PAGES` pages, a heading below it sits on a
later page, and the document's label (`ctx.title`) does not hold it, the headings after it move
up so the shallowest of them takes its level: they become its siblings, and it keeps only the
text up to the next heading. The rule is then applied to the headings after it, one at a
time, at most `MAX_COVER_HEADINGS`. A heading the label holds stays the root (the chunker
leaves it out of the path line already). Headings before it keep their levels. A document
whose top level several headings share is left as it is.

The same holds further in (`raise_below_long_sections`): in a document of `MIN_PAGES` or more
pages without an outline, a heading after which no heading of its level or higher begins,
whose section therefore holds more than half of the document's body characters or touches
more than half of its pages, does not parent the rest of the document: the headings on the
pages after its own move up so the shallowest of them takes its level. Exempt are a heading
the label holds and a numbered heading whose next number (`numbers.heading_number`) opens no
heading and no bold lead-in inside its section (its numbering says it runs on). Applied until
no such heading is left (at most `MAX_LONG_SECTIONS` times). With an outline, the outline sets
the levels and this step does not run. Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...textkeys import compact_key
from ..mdlines import heading_lines, iter_unfenced, join_pages, make_heading, split_pages
from ..numbers import HeadingNumber, heading_number, successor

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)

COVER_PAGES = 2  # a cover heading sits on one of the document's first pages
MAX_COVER_HEADINGS = 3  # a cover sets at most this many headings one under another
MIN_PAGES = 20  # the long-section step reads documents of at least this many pages
MAX_LONG_SECTIONS = 8


def _named(title: str, label: str) -> bool:
    """Whether the label holds the heading's words (or the heading the label's)."""
    a, b = compact_key(title), compact_key(label)
    return bool(a and b) and (a in b or b in a)


def _raise_once(split: list[list[str]], start: int, label: str) -> int | None:
    """One step of the rule (module docstring) on the headings from index `start` on, in place;
    the index of the cover heading it applied to, or None."""
    heads = [(k, i, len(m.group(1)), m.group(2)) for k, i, m in heading_lines(split)][start:]
    if not heads:
        return None
    top = min(level for _, _, level, _ in heads)
    at_top = [n for n, h in enumerate(heads) if h[2] == top]
    if len(at_top) != 1:
        return None
    page, _, _, title = heads[at_top[0]]
    after = heads[at_top[0] + 1 :]
    if page >= COVER_PAGES or _named(title, label) or not any(k > page for k, *_ in after):
        return None
    shift = min(level for _, _, level, _ in after) - top
    for k, i, level, text in after:
        split[k][i] = make_heading(level - shift, text)
    return start + at_top[0]


def raise_below_cover(pages: Pages, ctx: PassContext) -> Pages:
    """Sections after a lone top heading on the first pages that the label does not hold, or
    after a heading whose type never recurs and whose section holds most of the document,
    become its siblings (module docstring). Returns new (page, Markdown) pairs."""
    raised = raise_cover_sections(pages, ctx.title)
    return raised if ctx.outline else raise_below_long_sections(raised, ctx.title)


def raise_below_long_sections(
    pages: Sequence[tuple[int, str]], label: str
) -> list[tuple[int, str]]:
    """The long-section step of the module docstring on (page, Markdown) pairs."""
    split = split_pages(pages)
    if len(split) < MIN_PAGES:
        return list(pages)
    raised = 0
    while raised < MAX_LONG_SECTIONS and _raise_long_once(split, label):
        raised += 1
    if not raised:
        return list(pages)
    log.debug("long sections: the sections after %d heading(s) raised", raised)
    return join_pages(pages, split)


def _raise_long_once(split: list[list[str]], label: str) -> bool:
    """One step of the long-section rule, in place; whether it applied."""
    heads = [(k, i, len(m.group(1)), m.group(2)) for k, i, m in heading_lines(split)]
    body = _body_chars(split)
    total = sum(body)
    for n, (page, _, level, title) in enumerate(heads):
        after = heads[n + 1 :]
        if any(other <= level for _, _, other, _ in after) or _named(title, label):
            continue
        later = [h for h in after if h[0] > page]
        chars = sum(body[page:]) if later else 0
        if not later or (2 * chars <= total and 2 * (len(split) - page) <= len(split)):
            continue
        number = heading_number(title)
        if number is not None and not _successor_inside(number, split, page):
            continue
        shift = min(other for _, _, other, _ in later) - level
        for k, i, other, text in later:
            split[k][i] = make_heading(other - shift, text)
        return True
    return False


def _body_chars(split: Sequence[list[str]]) -> list[int]:
    """Characters of the non-heading lines of each page."""
    return [sum(len(line.strip()) for line in lines if not line.startswith("#")) for lines in split]


def _successor_inside(number: HeadingNumber, split: Sequence[list[str]], page: int) -> bool:
    """Whether the number after `number` opens a heading or a bold lead-in from page index
    `page` on (the heading is the last of its level, so its section runs to the end)."""
    wanted = successor(number)
    for lines in split[page:]:
        for i, inside in iter_unfenced(lines):
            if wanted is None or inside or not lines[i].startswith(("#", "**")):
                continue
            if heading_number(lines[i].lstrip("#*_ ")) == wanted:
                return True
    return False


def raise_cover_sections(pages: Sequence[tuple[int, str]], label: str) -> list[tuple[int, str]]:
    """`raise_below_cover` with the label given."""
    split = split_pages(pages)
    raised, start = 0, 0
    while raised < MAX_COVER_HEADINGS:
        cover = _raise_once(split, start, label)
        if cover is None:
            break
        raised, start = raised + 1, cover + 1
    if not raised:
        return list(pages)
    log.debug("cover headings: the sections after %d cover heading(s) raised", raised)
    return join_pages(pages, split)
