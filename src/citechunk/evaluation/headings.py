"""How well a converter's Markdown headings reproduce the PDF outline, and a check that needs none.

`heading_fidelity` is deliberately simpler than the outline repair's matcher (headings only, no
joining), so it measures any converter's output, repaired or not; tests and
`bench/heading_fidelity.py` use it. `numbered_siblings` checks numbered headings' levels
against each other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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


def printed_entries(
    outline: Sequence[OutlineEntry], page_lines: Mapping[int, Sequence[str]], window: int = 3
) -> list[OutlineEntry]:
    """The entries whose title is printed on their page or the page before or after it: a run of
    up to `window` consecutive text-layer lines of `page_lines` ({page: lines}) whose title key
    equals the entry's or starts with its words. An entry without one points at a place, not a
    printed heading (an index letter the page never prints), and no reading of the page can
    find it as a heading."""
    printed = []
    for entry in outline:
        key = title_key(entry.title)
        near = [page_lines.get(page, ()) for page in range(entry.page - 1, entry.page + 2)]
        runs = (run for lines in near for run in _line_runs(lines, window))
        if entry.page > 0 and any(run == key or run.startswith(key + " ") for run in runs):
            printed.append(entry)
    return printed


def _line_runs(lines: Sequence[str], window: int) -> Iterator[str]:
    """The title key of every run of 1 to `window` consecutive `lines`."""
    for i in range(len(lines)):
        for n in range(1, window + 1):
            yield title_key(" ".join(lines[i : i + n]))


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


SPAN_MIN_PAGES = 20  # the span check reads documents of at least this many pages


@dataclass(frozen=True)
class LongSpan:
    """A heading whose section holds more than half of the document (see `long_spans`)."""

    page: int
    level: int
    title: str
    pages: int  # pages its section touches
    chars: int  # body characters of its section
    page_count: int
    body_chars: int


@dataclass(frozen=True)
class _Line:
    page: int
    level: int  # 0: body
    text: str


def long_spans(
    markdown: str, label: str = "", outline: Sequence[OutlineEntry] = ()
) -> list[LongSpan]:
    """A check that needs no outline: the headings of a document of `SPAN_MIN_PAGES` or more
    pages, other than the document label's, whose section (up to the next heading of its level
    or higher) touches more than half of the pages or holds more than half of the body
    characters. Exempt: a heading that names a top-level entry of `outline`, and a numbered
    heading whose successor number ("4" after "3", "Part III" after "Part II") opens no line
    as a heading or a bold lead-in inside its section (numbering says the section runs on)."""
    lines = _lines(markdown)
    pages = sorted({line.page for line in lines})
    body = sum(len(line.text) for line in lines if not line.level)
    if len(pages) < SPAN_MIN_PAGES or not body:
        return []
    top = min((e.level for e in outline), default=0)
    tops = {title_key(e.title) for e in outline if e.level == top}
    found = []
    for i, line in enumerate(lines):
        if not line.level or _is_label(line.text, label) or title_key(line.text) in tops:
            continue
        end = next((j for j in range(i + 1, len(lines)) if 0 < lines[j].level <= line.level), None)
        span = lines[i + 1 : end]
        chars = sum(len(s.text) for s in span if not s.level)
        touched = len({s.page for s in span if s.text.strip()} | {line.page})
        if 2 * chars <= body and 2 * touched <= len(pages):
            continue
        if _numbering_runs_on(line.text, span):
            continue
        found.append(LongSpan(line.page, line.level, line.text, touched, chars, len(pages), body))
    return found


def _lines(markdown: str) -> list[_Line]:
    from ..markers import page_spans

    spans = page_spans(markdown)
    lines = markdown.split("\n")
    out, pos, span_idx = [], 0, 0
    for i, inside in iter_unfenced(lines):
        offset = pos
        pos += len(lines[i]) + 1
        while span_idx + 1 < len(spans) and spans[span_idx + 1][0] <= offset:
            span_idx += 1
        text = lines[i].strip()
        if not text or text.startswith("<!-- page"):
            continue
        level = 0 if inside else heading_level(lines[i])
        if level:
            text = HEADING_RE.sub(r"\2", lines[i]).strip()
        out.append(_Line(spans[span_idx][1], level, text))
    return out


def _is_label(text: str, label: str) -> bool:
    from ..textkeys import compact_key

    key, whole = compact_key(text), compact_key(label)
    return bool(key) and bool(whole) and (key in whole or whole in key)


def _numbering_runs_on(title: str, span: Sequence[_Line]) -> bool:
    """True when `title` is numbered and the next number of its sequence opens no heading and
    no bold lead-in of `span` (a numbered list item is not a section)."""
    from ..conversion.numbers import heading_number, successor

    number = heading_number(title)
    if number is None:
        return False
    wanted = successor(number)
    return wanted is None or not any(
        (line.level or line.text.startswith("**"))
        and heading_number(line.text.lstrip("*_ ")) == wanted
        for line in span
    )
