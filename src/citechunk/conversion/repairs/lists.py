"""The first item of a numbered list is not a section.

Figures and call-out boxes often hold a numbered list whose items open with a bold number and
title ("**1 Defend critical infrastructure**", "**2 Disrupt and dismantle threat actors**", ...).
Layout models sometimes take the first item, which sits just under the figure title, for a
heading and the rest for list items. As a heading it would open a section that swallows the
rest of the page and every later heading of a lower rank, and cut the figure title off from the
items it names.

`demote_list_heads(pages)` ((page number, Markdown) pairs, like the other structure passes of
`conversion.pipeline`): a heading whose title opens with an integer N ("1 Title",
"1. Title", "1) Title") becomes a list item of the same form as its sibling when, before the
next heading, a body line (a list item or a paragraph, outside code fences) opens with the bold
next number N+1 in the same style ("- **2 Title**"). A numbered heading followed by its
successor as another heading, or by no bold successor at all, stays a heading.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ..mdlines import (
    HEADING_RE,
    heading_lines,
    iter_unfenced,
    join_pages,
    split_pages,
    strip_inline_markup,
)

log = logging.getLogger(__name__)

_NUMBERED_RE = re.compile(r"^(\d{1,2})([.)]?)[ \t]+(\S.*)$")
_ITEM_RE = re.compile(r"^((?:[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+)?)\*\*(\d{1,2})([.)]?)[ \t]")


def _successor(split: list[list[str]], page: int, line: int, number: int, mark: str) -> str | None:
    """The list-marker prefix of the first body line after (page, line), before the next
    heading, that opens with bold ``number`` and ``mark``; None when there is none."""
    for k in range(page, len(split)):
        lines = split[k]
        for i, inside in iter_unfenced(lines):
            if (k == page and i <= line) or inside:
                continue
            if HEADING_RE.match(lines[i]):
                return None
            item = _ITEM_RE.match(lines[i])
            if item and int(item.group(2)) == number and item.group(3) == mark:
                return item.group(1)
    return None


def demote_list_heads(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The first item of a bold-numbered list read as a heading becomes a list item like its
    siblings (module docstring). Returns new (page number, Markdown) pairs."""
    split, demoted = split_pages(pages), 0
    for k, i, heading in heading_lines(split):
        numbered = _NUMBERED_RE.match(strip_inline_markup(heading.group(2)))
        if not numbered:
            continue
        number, mark, rest = int(numbered.group(1)), numbered.group(2), numbered.group(3)
        prefix = _successor(split, k, i, number + 1, mark)
        if prefix is not None:
            split[k][i] = f"{prefix}**{number}{mark} {rest}**"
            demoted += 1
    if demoted:
        log.debug("numbered list items demoted from headings: %d", demoted)
    return join_pages(pages, split)
