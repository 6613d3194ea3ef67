"""How well a converter's Markdown headings reproduce the PDF outline, and a check that needs none.

`heading_fidelity` is deliberately simpler than the outline repair's matcher (headings only, no
joining), so it measures any converter's output, repaired or not; tests and
`bench/heading_fidelity.py` use it. `numbered_siblings` checks numbered headings' levels
against each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..conversion.mdlines import HEADING_RE, heading_level, iter_unfenced
from ..conversion.outline import OutlineEntry, title_key


@dataclass(frozen=True)
class Fidelity:
    """How well Markdown headings reproduce an outline (see `heading_fidelity`)."""

    entries: int
    found: int
    pairs: int
    ordered: int

    @property
    def found_share(self) -> float:
        return self.found / self.entries if self.entries else 1.0

    @property
    def order_share(self) -> float:
        return self.ordered / self.pairs if self.pairs else 1.0


def markdown_headings(markdown: str) -> list[tuple[int, int, str]]:
    """(page, level, title_key) of every heading line outside code fences, in order."""
    from ..markers import page_spans

    spans = page_spans(markdown)
    lines = markdown.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    found, span_idx = [], 0
    for i, inside in iter_unfenced(lines):
        while span_idx + 1 < len(spans) and spans[span_idx + 1][0] <= offsets[i]:
            span_idx += 1
        level = 0 if inside else heading_level(lines[i])
        if level:
            found.append((spans[span_idx][1], level, title_key(HEADING_RE.sub(r"\2", lines[i]))))
    return found


def heading_fidelity(markdown: str, outline: Sequence[OutlineEntry]) -> Fidelity:
    """Found: entries that appear, in outline order, as a heading on their page (+-1) whose
    key equals the entry's or starts with the entry's words. Ordered: consecutive found entries
    whose heading-level change has the same sign (up, same, down) as in the outline.

    Deliberately simpler than `repair_headings`' matcher (headings only, no joining), so it
    measures any converter's output, repaired or not.
    """
    headings = markdown_headings(markdown)
    entries = [e for e in outline if e.page > 0]
    cursor, levels = 0, []
    for entry in entries:
        key = title_key(entry.title)
        for i in range(cursor, len(headings)):
            page, level, hkey = headings[i]
            if abs(page - entry.page) <= 1 and (hkey == key or hkey.startswith(key + " ")):
                levels.append((entry.level, level))
                cursor = i + 1
                break
    pairs = list(zip(levels, levels[1:], strict=False))
    ordered = sum(1 for (a, b), (c, d) in pairs if _sign(c - a) == _sign(d - b))
    return Fidelity(len(entries), len(levels), len(pairs), ordered)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@dataclass(frozen=True)
class Siblings:
    """Numbered headings whose level equals their previous same-pattern sibling's."""

    pairs: int
    same: int

    @property
    def share(self) -> float:
        return self.same / self.pairs if self.pairs else 1.0


def numbered_siblings(markdown: str) -> Siblings:
    """A check that needs no outline: of the numbered headings outside code fences (see
    `numbers.heading_number`), those whose level equals the level of the previous heading with
    the same numbering pattern (scheme and depth: "Note 6" after "Note 5", "2.1" after "1.3")."""
    from ..conversion.numbers import heading_number

    last: dict[tuple[str, int], int] = {}
    pairs = same = 0
    lines = markdown.split("\n")
    for i, inside in iter_unfenced(lines):
        level = 0 if inside else heading_level(lines[i])
        number = heading_number(HEADING_RE.sub(r"\2", lines[i])) if level else None
        if number is None:
            continue
        if number.key in last:
            pairs += 1
            same += last[number.key] == level
        last[number.key] = level
    return Siblings(pairs, same)
