"""Contents headings never parent the document.

A "Contents" page is set like a chapter title, so layout models give its heading the top level
(often the document title's): every heading after it then nests under "Contents" and every chunk
path starts with it ("Contents > Treatment > Surgery"). `level_contents_headings(pages)` gives a
heading whose title is a list title ("Contents", "Table of Contents", "List of Figures", "List
of Tables"; case, markup and a trailing colon ignored) the level of the next heading when that
one is deeper, so the list becomes a sibling of what follows instead of its parent. Its own body
(the listed titles) stays its own section. Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ..mdlines import heading_lines, join_pages, make_heading, split_pages, strip_inline_markup

log = logging.getLogger(__name__)

_LIST_TITLE_RE = re.compile(r"(?:table of )?contents|list of (?:figures|tables)")


def is_list_title(title: str) -> bool:
    """Whether a heading title names a contents list."""
    key = re.sub(r"[\s:.]+$", "", strip_inline_markup(title)).strip().lower()
    return bool(_LIST_TITLE_RE.fullmatch(key))


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
