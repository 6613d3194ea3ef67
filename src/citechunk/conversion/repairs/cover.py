"""A cover's heading is not the section everything else sits in.

The first pages' largest type (a banner such as "UNITED STATES SECURITIES AND EXCHANGE
COMMISSION", an issuer with its registration number, a first page's "Key figures") can come
out as the document's only top-level heading, so every later section nests under it and every
chunk's path starts with it.

`raise_below_cover(pages, ctx)`: when the shallowest heading level is held by one heading
only, that heading is on one of the first `COVER_PAGES` pages, a heading below it sits on a
later page, and the document's label (`ctx.title`) does not hold it, the headings after it move
up so the shallowest of them takes its level: they become its siblings, and it keeps only the
text up to the next heading. The rule is then applied to the headings after it (a cover's
headings one under another are taken one at a time, at most `MAX_COVER_HEADINGS`). A heading
the label holds (the title, an issuer or a form name the label repeats) stays the root: the
chunker leaves it out of the path line already (`chunking.heading`), and it is the author's
top level. Headings before it keep their levels. A document whose top level several headings
share (chapters, articles, or the documents `second-documents` found in one PDF) is left as it
is. Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...textkeys import compact_key
from ..mdlines import heading_lines, join_pages, make_heading, split_pages

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)

COVER_PAGES = 2  # a cover heading sits on one of the document's first pages
MAX_COVER_HEADINGS = 3  # a cover sets at most this many headings one under another


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
    """Sections after a lone top heading on the first pages that the label does not hold
    become its siblings (module docstring). Returns new (page, Markdown) pairs."""
    return raise_cover_sections(pages, ctx.title)


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
