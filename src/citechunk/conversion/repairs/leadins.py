"""Numbered lead-ins: a clause heading set in bold at the start of its first paragraph.

Contracts, terms and policies number their clauses ("**7. App Stores.** You may ...") and set
the number and title in bold inside the paragraph, so layout models read body text.
`promote_numbered_leadins(pages)` turns such a lead-in into a heading line (its title without
the closing period or colon), a blank line, and the rest of the paragraph.

A lead-in is a paragraph's first line opening with a bold span that holds a section number
(`numbers.heading_number`) and a title of at most `MAX_TITLE_WORDS` words; a bold number alone
is a list step, not a clause. A bold line with nothing after it is a lead-in too unless it ends
with a number (a contents entry). Its number must follow the previous heading or lead-in of
its pattern (the next number, or "1" or "A" to open a pattern or a new parent), and its title
must not repeat an existing heading's nor another lead-in's. It is promoted only in a document
numbered that way:

* when a heading of the same pattern (`HeadingNumber.key`) exists, the lead-in takes the level
  most such headings have;
* else, when an open heading's number is a prefix of its own, one below it;
* else, when `MIN_RUN` or more lead-ins share the pattern, one below the heading before the
  first of them.

A numbered paragraph whose title, after a plain number, is set in bold ("4. **Payment.** ...")
is a lead-in too, but only where its number's level is known: a heading of its pattern exists,
or an open heading's number is a prefix of its own. It is a list item instead when the number
before its own opened a plain numbered line since the last heading.

Bulleted list items, table rows, headings and lines inside code fences are never lead-ins.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ...textkeys import words_key
from ..mdlines import (
    heading_lines,
    make_heading,
    page_lines,
    split_pages,
    strip_inline_markup,
)
from ..numbers import HeadingNumber, heading_number, next_in_pattern, plain_number, previous

log = logging.getLogger(__name__)

MAX_TITLE_WORDS = 12
MIN_RUN = 3
_LEADIN_RE = re.compile(r"^\*\*(?P<title>[^*]{2,120}?)\*\*[ \t]*(?P<rest>.*)$")
_NUMBERED_RE = re.compile(
    r"^(?P<number>\d{1,2}(?:\.\d{1,2}){0,3}\.?)[ \t]+\*\*(?P<title>[^*]{2,120}?)\*\*[ \t]*(?P<rest>.*)$"
)


class Leadin(NamedTuple):
    """A numbered lead-in: its title (number included), number, the rest of the line, and
    whether the number stood outside the bold title (`plain`)."""

    title: str
    number: HeadingNumber
    rest: str
    plain: bool = False


def _leadin(line: str) -> Leadin | None:
    """The numbered lead-in `line` opens with, else None."""
    m = _LEADIN_RE.match(line)
    plain = _NUMBERED_RE.match(line) if not m else None
    if plain:
        m = plain
    if not m:
        return None
    title = strip_inline_markup(m.group("title")).rstrip(" .:")
    if plain:
        title = f"{plain.group('number')} {title}"
    number = heading_number(title)
    if number is None or not 2 <= len(title.split()) <= MAX_TITLE_WORDS + 1:
        return None
    rest = m.group("rest")
    if not rest.strip() and title[-1].isdigit():
        return None
    return Leadin(title, number, rest, plain is not None)


def _candidates(pages: Sequence[tuple[int, str]]) -> tuple[Counter[tuple[str, int]], Counter[str]]:
    """How many lead-ins each numbering pattern has, and how often each lead-in title occurs."""
    keys: Counter[tuple[str, int]] = Counter()
    titles: Counter[str] = Counter()
    for _, text in pages:
        for line in page_lines(text.split("\n")):
            lead = _leadin(line.text) if line.opens else None
            if lead and not lead.plain:
                keys[lead.number.key] += 1
                titles[_title_key(lead.title)] += 1
    return keys, titles


def _title_key(title: str) -> str:
    """Letters and digits of a title, case-folded: "1.3. STETIGKEIT" is "1 3 stetigkeit"."""
    return words_key(strip_inline_markup(title))


def _headings(pages: Sequence[tuple[int, str]]) -> tuple[dict[tuple[str, int], int], set[str]]:
    """The level most headings of each numbering pattern have, and every heading's title."""
    levels: dict[tuple[str, int], Counter[int]] = {}
    titles = set()
    for _, _, m in heading_lines(split_pages(pages)):
        titles.add(_title_key(m.group(2)))
        number = heading_number(m.group(2))
        if number:
            levels.setdefault(number.key, Counter())[len(m.group(1))] += 1
    return {key: c.most_common(1)[0][0] for key, c in levels.items()}, titles


class _Promoter:
    """Walks the document, keeping the open headings, and decides each lead-in's level."""

    def __init__(self, pages: Sequence[tuple[int, str]]) -> None:
        self.levels, self.titles = _headings(pages)
        keys, titles = _candidates(pages)
        self.runs = {k for k, n in keys.items() if n >= MIN_RUN}
        self.titles |= {t for t, n in titles.items() if n > 1}  # repeated: a running title
        self.run_levels: dict[tuple[str, int], int] = {}
        self.open: list[tuple[int, HeadingNumber | None]] = []  # (level, number) stack
        self.last: dict[tuple[str, int], HeadingNumber] = {}  # last number of each pattern
        self.promoted = 0
        self.listed: set[tuple[int, ...]] = set()  # plain numbered lines since the last heading

    def see_heading(self, level: int, title: str) -> None:
        self.listed = set()
        self.open = [h for h in self.open if h[0] < level]
        number = heading_number(title)
        self.open.append((level, number))
        if number:
            self.last[number.key] = number

    def level_for(self, lead: Leadin) -> int | None:
        title, number = lead.title, lead.number
        last = self.last.get(number.key)
        if _title_key(title) in self.titles or not next_in_pattern(last, number):
            return None
        if lead.plain and number.decimal and previous(number.decimal) in self.listed:
            return None
        if number.key in self.levels:
            return self.levels[number.key]
        for level, parent in reversed(self.open):
            if parent is not None and parent.is_parent_of(number):
                return min(6, level + 1)
        if number.key in self.runs and not lead.plain:
            before = self.open[-1][0] if self.open else 0
            return self.run_levels.setdefault(number.key, min(6, before + 1))
        return None

    def page(self, text: str) -> str:
        lines = text.split("\n")
        new: list[str] = []
        for line in page_lines(lines):
            if line.heading:
                self.see_heading(len(line.heading.group(1)), line.heading.group(2))
            lead = _leadin(line.text) if line.opens else None
            level = self.level_for(lead) if lead else None
            if lead and level:
                new += [
                    make_heading(level, lead.title),
                    *(["", lead.rest] if lead.rest.strip() else []),
                ]
                self.see_heading(level, lead.title)
                self.promoted += 1
            else:
                listed = None if line.inside or line.heading else plain_number(line.text)
                if listed:
                    self.listed.add(listed)
                new.append(line.text)
        return "\n".join(new)


def promote_numbered_leadins(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A paragraph opening with a bold numbered clause title, in a document numbered that way,
    becomes a heading at its number's level (module docstring)."""
    promoter = _Promoter(pages)
    out = [(n, promoter.page(text)) for n, text in pages]
    if promoter.promoted:
        log.debug("numbered lead-ins promoted to headings: %d", promoter.promoted)
    return out
