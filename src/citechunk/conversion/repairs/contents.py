"""Contents headings never parent the document.

A "Contents" page is set like a chapter title, so layout models give its heading the top level
(often the document title's): every heading after it then nests under "Contents" and every chunk
path starts with it ("Contents > Treatment > Surgery"). `level_contents_headings(pages)` gives a
heading whose title is a list title ("Contents", "Table of Contents", "List of Figures", "List
of Tables"; case, markup and a trailing colon ignored) the level of the next heading when that
one is deeper, so the list becomes a sibling of what follows instead of its parent. Its own body
(the listed titles) stays its own section.

Back matter belongs to the document, not to its last chapter (`level_back_matter`): a heading
that the PDF outline does not list (the outline places those it lists) and that names back matter ("References", "Bibliography", "Appendix B", "Glossary", "Index",
"Acknowledgements", "Competing interests", "Author contributions", ...; markup, a
trailing colon and a labelled number ignored), on the second half of the document's pages, whose
title occurs once (a "References" after every chapter belongs to each chapter), goes up to the
document's section level -- the shallowest level held by headings on two or more pages -- when it is
deeper, and the headings inside it (deeper than it, up to the next heading of its level or
higher) move up with it. A heading numbered by decimals or roman numerals ("7 References") keeps
the level its numbering gives. Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..mdlines import heading_lines, join_pages, make_heading, split_pages, strip_inline_markup
from ..numbers import heading_number
from ..outline import title_key

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)

_LIST_TITLE_RE = re.compile(r"(?:table of )?contents|list of (?:figures|tables)")
_BACK_MATTER_RE = re.compile(
    r"(?:appendix|appendices|annex|annexes)(?:\s+(?:[a-z]|\d{1,2}|[ivx]{1,4})\b.{0,80})?"
    r"|references|bibliography|works cited|literature cited|glossary(?: of terms)?|index"
    r"|acknowledge?ments?|competing interests?|declarations? of interests?"
    r"|authors?[’']? contributions|author details|author information|about the authors?"
    r"|additional files?|supplementary (?:material|information|data)|endnotes"
)


def title_words(title: str) -> str:
    """A heading title as the list-title rules read it: markup stripped, a trailing colon,
    stop or blank dropped, lower case."""
    return re.sub(r"[\s:.]+$", "", strip_inline_markup(title)).strip().lower()


def is_list_title(title: str) -> bool:
    """Whether a heading title names a contents list."""
    return bool(_LIST_TITLE_RE.fullmatch(title_words(title)))


def is_back_matter(title: str) -> bool:
    """Whether a heading title names back matter (module docstring)."""
    return bool(_BACK_MATTER_RE.fullmatch(title_words(title)))


def level_contents(pages: Pages, ctx: PassContext) -> Pages:
    """A Contents or List-of heading takes the level of a deeper next heading, so it parents
    nothing, and back matter the outline does not list goes up to the document's section level
    (module docstring). Returns new (page, Markdown) pairs."""
    listed = level_contents_headings(pages)
    return level_back_matter(listed, frozenset(title_key(e.title) for e in ctx.outline))


def level_back_matter(
    pages: Sequence[tuple[int, str]], placed: frozenset[str] = frozenset()
) -> list[tuple[int, str]]:
    """The back-matter rule of the module docstring, but for headings whose `title_key` is in
    `placed` (the outline's). Returns new (page, Markdown) pairs."""
    split = split_pages(pages)
    heads = [(k, i, len(m.group(1)), m.group(2)) for k, i, m in heading_lines(split)]
    counts = Counter(strip_inline_markup(t).strip().lower() for *_, t in heads)
    pages_at: dict[int, set[int]] = {}
    for k, _, level, _ in heads:
        pages_at.setdefault(level, set()).add(k)
    shared = [level for level, at in pages_at.items() if len(at) > 1]
    if not shared:
        return list(pages)
    top, moved = min(shared), 0
    for n, (k, _, level, title) in enumerate(heads):
        if level <= top or 2 * k + 1 < len(split) or not is_back_matter(title):
            continue
        if title_key(title) in placed:
            continue
        number = heading_number(title)
        if counts[strip_inline_markup(title).strip().lower()] > 1 or (
            number is not None and number.scheme in ("decimal", "roman")
        ):
            continue
        shift = level - top
        for j in range(n, len(heads)):
            hk, hi, hlevel, htitle = heads[j]
            if j > n and hlevel <= level:
                break
            split[hk][hi] = make_heading(hlevel - shift, htitle)
            heads[j] = (hk, hi, hlevel - shift, htitle)
        moved += 1
    if not moved:
        return list(pages)
    log.debug("back matter raised to the section level: %d headings", moved)
    return join_pages(pages, split)


def level_contents_headings(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A Contents or List-of heading takes the level of a deeper next heading, so it parents
    nothing (module docstring). Returns new (page, Markdown) pairs."""
    split = split_pages(pages)
    pending: tuple[int, int, int, str] | None = None  # page index, line, level, title
    changed = 0
    for p, i, m in heading_lines(split):
        level = len(m.group(1))
        if pending is not None and level > pending[2]:
            split[pending[0]][pending[1]] = make_heading(level, pending[3])
            changed += 1
        pending = (p, i, level, m.group(2)) if is_list_title(m.group(2)) else None
    if changed:
        log.debug("contents headings levelled with the heading after them: %d", changed)
    return join_pages(pages, split)
