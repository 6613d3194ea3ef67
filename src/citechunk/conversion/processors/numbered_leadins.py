"""Numbered lead-ins: a clause heading set in bold at the start of its first paragraph (block
form of the ``numbered-leadins`` rule).

Contracts, terms and policies number their clauses ("**7. App Stores.** You may ...") and set
the number and title in bold inside the paragraph, so layout models read body text.
`promote_numbered_leadins(pages)` cuts such a paragraph block into a section-header block of
the lead-in (its title without the closing period or colon) and a text block of the rest.

A lead-in is a paragraph's bold lead (`leads.bold_lead`) that holds a section number
(`numbers.heading_number`) and a title of at most `MAX_TITLE_WORDS` words; a bold number alone
is a list step, not a clause. A bold paragraph with nothing after it is a lead-in too unless it
ends with a number (a contents entry). Its number must follow the previous heading or lead-in of
its pattern (the next number, or "1" or "A" to open a pattern or a new parent), and its title
must not repeat an existing heading's nor another lead-in's. It is promoted only in a document
numbered that way, reading the levels the heading stage gives the document's headings
(`headings.level_headings`):

* when a heading of the same pattern (`HeadingNumber.key`) exists, the lead-in takes the level
  most such headings have;
* else, when an open heading's number is a prefix of its own, one below it;
* else, when `MIN_RUN` or more lead-ins share the pattern, one below the heading before the
  first of them.

The level is settled (`blocks.Block.settled`): the heading stage keeps it. A numbered paragraph
whose title, after a plain number, is set in bold ("4. **Payment.** ...") is a lead-in too, but
only where its number's level is known: a heading of its pattern exists, or an open heading's
number is a prefix of its own. It is a list item instead when the number before its own opened
a plain numbered paragraph since the last heading.

Only text blocks, page headers and footers (a running one, repeated, is no lead-in) and list
items written without a bullet (their first word a number and a period) are paragraphs here:
bulleted list items, tables, headings and code are never lead-ins.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ...textkeys import words_key
from ..blocks import Block, Span
from ..headings import MAX_LEVEL, level_headings
from ..numbers import HeadingNumber, heading_number, next_in_pattern, plain_number, previous
from .common import MARGIN_KINDS, Pages, in_order
from .leads import Lead, bold_lead, split, trim_title

log = logging.getLogger(__name__)

MAX_TITLE_WORDS = 12
MAX_TITLE_CHARS = 120
MIN_RUN = 3
_NUMBER_RE = re.compile(r"\d{1,2}(?:\.\d{1,2}){0,3}\.?")
_BARE_ITEM_RE = re.compile(r"\d+\.(?:\s|$)")


@dataclass(frozen=True)
class Leadin:
    """A numbered lead-in: its title (number included), number, the block cut after it, and
    whether the number stood outside the bold title (`plain`)."""

    title: str
    number: HeadingNumber
    lead: Lead
    plain: bool = False


def _paragraph(block: Block) -> bool:
    """The block is written as a paragraph: a text block, a page header or footer (one that is
    no running line stays in the body), or a list item whose first word is a number and a
    period (written without a bullet)."""
    if block.kind == "list-item" and block.lines and block.lines[0].spans:
        return bool(_BARE_ITEM_RE.match(block.lines[0].spans[0].text.strip()))
    return block.kind == "text" or block.kind in MARGIN_KINDS


def _opening(block: Block) -> tuple[int, Span] | None:
    """(index over all the block's spans, span) of the block's first span showing text."""
    spans = [s for line in block.lines for s in line.spans]
    return next(((k, s) for k, s in enumerate(spans) if s.text.strip()), None)


def _lead(block: Block) -> tuple[Lead, bool] | None:
    """The block cut after its bold lead, the lead taking in a number written before it in
    plain type (then True)."""
    first = _opening(block)
    if first is None:
        return None
    lead = bold_lead(block)
    if lead is not None:
        return lead, False
    at, span = first
    lead = bold_lead(block, at + 1) if _NUMBER_RE.fullmatch(span.text.strip()) else None
    if lead is None:
        return None
    spans = tuple((i, s) for i, line in enumerate(block.lines) for s in line.spans)
    return Lead(block, (*spans[: at + 1], *lead.lead), lead.rest), True


def leadin(block: Block) -> Leadin | None:
    """The numbered lead-in the paragraph `block` opens with, else None (module docstring)."""
    found = _lead(block) if _paragraph(block) else None
    if found is None:
        return None
    lead, plain = found
    bold = lead.text.split(" ", 1)[1] if plain and " " in lead.text else lead.text
    if not 2 <= len(bold) <= MAX_TITLE_CHARS or "*" in bold:
        return None
    title = lead.text.rstrip(" .:")
    number = heading_number(title)
    if number is None or not 2 <= len(title.split()) <= MAX_TITLE_WORDS + 1:
        return None
    if not lead.rest_text.strip() and title[-1].isdigit():
        return None
    return Leadin(title, number, lead, plain)


class _Promoter:
    """Walks the document's blocks, keeping the open headings, and decides each lead-in's
    level."""

    def __init__(self, pages: Pages) -> None:
        levels: dict[tuple[str, int], Counter[int]] = {}
        self.titles: set[str] = set()
        keys: Counter[tuple[str, int]] = Counter()
        repeated: Counter[str] = Counter()
        for _, _, block in in_order(pages):
            if block.is_heading:
                self.titles.add(words_key(block.shown))
                number = heading_number(block.shown)
                if number:
                    levels.setdefault(number.key, Counter())[block.level or MAX_LEVEL] += 1
            elif (lead := leadin(block)) and not lead.plain:
                keys[lead.number.key] += 1
                repeated[words_key(lead.title)] += 1
        self.levels = {key: c.most_common(1)[0][0] for key, c in levels.items()}
        self.runs = {k for k, n in keys.items() if n >= MIN_RUN}
        self.titles |= {t for t, n in repeated.items() if n > 1}  # repeated: a running title
        self.run_levels: dict[tuple[str, int], int] = {}
        self.open: list[tuple[int, HeadingNumber | None]] = []  # (level, number) stack
        self.last: dict[tuple[str, int], HeadingNumber] = {}  # last number of each pattern
        self.listed: set[tuple[int, ...]] = set()  # plain numbered paragraphs since a heading
        self.promoted = 0

    def see_heading(self, level: int, title: str) -> None:
        self.listed = set()
        self.open = [h for h in self.open if h[0] < level]
        number = heading_number(title)
        self.open.append((level, number))
        if number:
            self.last[number.key] = number

    def see_paragraph(self, block: Block) -> None:
        first = _opening(block) if _paragraph(block) else None
        listed = plain_number(block.shown) if first and not first[1].bold else None
        if listed:
            self.listed.add(listed)

    def level_for(self, lead: Leadin) -> int | None:
        title, number = lead.title, lead.number
        last = self.last.get(number.key)
        if words_key(title) in self.titles or not next_in_pattern(last, number):
            return None
        if lead.plain and number.decimal and previous(number.decimal) in self.listed:
            return None
        if number.key in self.levels:
            return self.levels[number.key]
        for level, parent in reversed(self.open):
            if parent is not None and parent.is_parent_of(number):
                return min(MAX_LEVEL, level + 1)
        if number.key in self.runs and not lead.plain:
            before = self.open[-1][0] if self.open else 0
            return self.run_levels.setdefault(number.key, min(MAX_LEVEL, before + 1))
        return None

    def blocks(self, block: Block, leveled: Block) -> Iterator[Block]:
        """`block` (`leveled`: as the heading stage levels it) as it goes on: cut in two when
        it opens with a lead-in promoted here."""
        if leveled.is_heading:
            self.see_heading(leveled.level or MAX_LEVEL, leveled.shown)
            yield block
            return
        lead = leadin(block)
        level = self.level_for(lead) if lead else None
        if lead is None or level is None:
            self.see_paragraph(block)
            yield block
            return
        self.see_heading(level, lead.title)
        self.promoted += 1
        yield from _split(lead, level)


def _split(lead: Leadin, level: int) -> tuple[Block, ...]:
    """The lead-in's paragraph as a heading block at `level` (settled) and a text block."""
    cut = lead.lead
    head, *rest = split(cut, trim_title(cut.lead, ".:"), cut.rest, "a numbered lead-in")
    return (replace(head, level=level, settled=True), *rest)


def promote_numbered_leadins(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A paragraph opening with a bold numbered clause title, in a document numbered that way,
    becomes a heading at its number's level (module docstring)."""
    leveled = level_headings(pages)
    promoter = _Promoter(leveled)
    out = {
        number: tuple(
            part
            for block, seen in zip(blocks, leveled[number], strict=True)
            for part in promoter.blocks(block, seen)
        )
        for number, blocks in sorted(pages.items())
    }
    if promoter.promoted:
        log.debug("numbered lead-ins promoted to headings: %d", promoter.promoted)
    return {n: out[n] for n in pages}
