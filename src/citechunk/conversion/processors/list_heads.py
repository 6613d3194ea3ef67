"""The first item of a numbered list is not a section (block form of the ``list-heads`` rule).

Figures and call-out boxes often hold a numbered list whose items open with a bold number and
title ("**1 Defend critical infrastructure**", "**2 Disrupt and dismantle threat actors**", ...).
Layout models sometimes take the first item, which sits just under the figure title, for a
heading and the rest for list items. As a heading it would open a section that swallows the
rest of the page and every later heading of a lower rank, and cut the figure title off from the
items it names.

`demote_list_heads(pages)`: a heading block whose text opens with an integer N ("1 Title",
"1. Title", "1) Title") becomes a block of its successor's kind (a list item or a paragraph), all
bold, when, before the next heading block, a body block (text, list item or caption), or an item
of a list-item block (a line set left of the line before opens one, as the block renders), opens
with a bold lead (`leads.bold_lead`) holding the next number N+1 in the same style ("**2
Title**").
A numbered heading followed by its successor as another heading, or by no bold successor at
all, stays a heading.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..blocks import BOLD, INDENT_SLACK, Block
from .common import Pages, demoted, edited, in_order
from .leads import bold_lead

log = logging.getLogger(__name__)

_NUMBERED_RE = re.compile(r"(\d{1,2})([.)]?)\s+\S.*")
_BODY_KINDS = frozenset({"text", "list-item", "caption"})


def _openings(block: Block) -> Iterator[int]:
    """The indices (over all the block's spans) of the spans that open the block or, in a
    list-item block, an item: a line that begins more than `INDENT_SLACK` left of the line
    before."""
    yield 0
    at = len(block.lines[0].spans) if block.lines else 0
    for before, line in itertools.pairwise(block.lines):
        if block.kind == "list-item" and line.bbox[0] < before.bbox[0] - INDENT_SLACK:
            yield at
        at += len(line.spans)


def _successor(blocks: Sequence[Block], start: int, number: int, mark: str) -> Block | None:
    """The first body block after `start`, before the next heading block, whose bold lead
    (or an item's) opens with `number` and `mark` and a blank; None when there is none."""
    opening = re.compile(rf"{number}{re.escape(mark)}\s")
    for block in blocks[start + 1 :]:
        if block.is_heading:
            return None
        for at in _openings(block) if block.kind in _BODY_KINDS else ():
            lead = bold_lead(block, at)
            if lead and opening.match(lead.text):
                return block
    return None


def _as_item(block: Block, like: Block) -> Block:
    """`block` as a block of `like`'s kind and depth, every span bold."""
    lines = tuple(
        replace(line, spans=tuple(replace(s, flags=s.flags | BOLD) for s in line.spans))
        for line in block.lines
    )
    why = "the first item of a bold-numbered list"
    return replace(demoted(block, why, like.kind), lines=lines, depth=like.depth)


def demote_list_heads(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """The first item of a bold-numbered list read as a heading becomes a list item like its
    siblings (module docstring)."""
    order = list(in_order(pages))
    blocks = [b for _, _, b in order]
    changes = {}
    for k, (n, i, block) in enumerate(order):
        numbered = _NUMBERED_RE.fullmatch(block.shown) if block.is_heading else None
        if numbered:
            number, mark = int(numbered.group(1)), numbered.group(2)
            successor = _successor(blocks, k, number + 1, mark)
            if successor is not None:
                changes[(n, i)] = _as_item(block, successor)
    if changes:
        log.debug("numbered list items demoted from headings: %d", len(changes))
    return edited(pages, changes)
