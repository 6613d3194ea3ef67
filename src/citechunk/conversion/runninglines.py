"""The running-line policy: which lines of the PDF's text layer are running text.

Running text is what the printer repeats around the body: page headers and footers, page
numbers, letterheads repeated on every page, and margin stamps. Every step that removes or
discounts running text asks this module (`RunningLines`), so one rule decides everywhere: the
Markdown pass (`repairs.running`), the layout boxes the pymupdf backend cuts, the word coverage
and the self-check that restores lost lines (`coverage.body_lines`). Below, *repeats* means:
with the same text, or with numbers that differ only by following the page number, on
``min(MIN_REPEAT_PAGES, pages)`` pages (2 at least).

A text-layer line is running on its page when

* it is set sideways in the page's side margin (left of all horizontal text or right of it):
  a margin stamp; or it is set sideways with its centre left of the left edge (right of the
  right edge) of most of the page's horizontal lines and repeats so placed (a large stamp run
  up every page's margin, reaching into the text's column); or
* it is an *edge line*: among the first or last `EDGE_ROWS` rows of the page's horizontal
  text (rows: lines sharing a vertical band), with their middle inside the top or bottom `EDGE_BAND`
  of the page height (a line the band's limit cuts is in the band where most of it is), and
  - it is a bare page number ("7", "iv", "Page 3 of 12"), or
  - its signature (`line_signature`: NFKC, case-folded, blanks collapsed, digit runs as "#")
    repeats as an edge line, unless it is the heading an outline entry names on that entry's
    own page, or it is a top line set in display type (`DISPLAY_RATIO` x the body size or
    more) that repeats on fewer than half of the pages and does not run: a display line whose
    same text tops ``min(MIN_REPEAT_PAGES, pages)`` pages in a row (each at most `RUN_STEP`
    pages after the last) is a running title on all of them but the first (where it heads its
    section), and a display line at the foot of pages is never a heading.

A folio is running too when it sits outside that band (wide book margins): a bare page number
alone in its row, among the first or last `EDGE_ROWS` rows and inside the top or bottom
`FOLIO_BAND` of the page, whose value is the page number plus one constant on at least
``min(MIN_REPEAT_PAGES, pages)`` pages.

A plain-text page's own header or footer is running wherever it sits on the PDF page (a text
typed in a fixed-width font and printed with its own page breaks): a horizontal line that
spans the width of the page's text in three or more parts, each a gap of `SPREAD_GAP`
character widths or more apart, with letters in two parts at least, that repeats.

Line numbers are running too: a column of bare whole numbers beside the text counting up
by a fixed step (`furniture`; here the numbers that are text-layer lines of their own).

Any other line that repeats elsewhere on the page is never running: position among the page's
own lines decides, not the line's position in a backend's Markdown.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..textkeys import LETTER_RE
from . import furniture
from .outline import OutlineEntry, title_key
from .pagelist import page_ranges
from .textlayer import Line, PageText, TextLayer, Word, body_size

#: Rows from the top and from the bottom of a page that may hold running lines.
EDGE_ROWS = 3
#: Share of the page height, at the top and at the bottom, where running lines sit.
EDGE_BAND = 0.12
#: Share of the page height, at the top and at the bottom, where a folio that follows the page
#: numbers may sit.
FOLIO_BAND = 0.2
#: An edge line is running when it is an edge line on this many pages (all pages of a
#: shorter document, 2 at least).
MIN_REPEAT_PAGES = 3
#: Gap between the parts of a spread line, in the line's mean character widths.
SPREAD_GAP = 2.5
#: Share of the text width a spread line's parts may stay short of its left and right edges.
SPREAD_EDGE = 0.05
#: Pages a running line may skip between two of its pages (a running line of the left or the
#: right pages only stands on every second page).
RUN_STEP = 2
#: Lines this many times the body size are display type (headings, titles).
DISPLAY_RATIO = 1.15

_DIGITS_RE = re.compile(r"\d+")
_PAGE_NUMBER_RE = re.compile(
    r"^\s*(?:page\s*)?(?:\d+|[ivxlc]+)(?:\s*(?:of|/)\s*\d+)?\s*$", re.IGNORECASE
)


def line_signature(text: str) -> str:
    """A line's running-line identity: NFKC, case-folded, blanks collapsed, digit runs as
    ``#`` (so "Page 2 of 9" and "Page 3 of 9" are one line)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\d+", "#", " ".join(text.split()))


def is_page_number(text: str) -> bool:
    """A line that is only a page number ("7", "iv", "Page 3", "3 of 12", "3/12")."""
    return bool(_PAGE_NUMBER_RE.match(text))


@dataclass(frozen=True)
class RunningLines:
    """The running lines of a document: per page number, their signatures and how often the
    page holds each (module docstring); `body`: per page, how many of its other lines (not
    running) have one of those signatures (a chapter heading "Diagnosis" on the page whose
    footer reads "Diagnosis"); `numbered`: per page, how many line numbers its text layer
    holds (`furniture`; the readers leave them out of the text); `places`: where the document
    prints its line numbers (`furniture.NumberPlaces`, for the readers). Empty when nothing
    runs."""

    pages: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    body: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    numbered: Mapping[int, int] = field(default_factory=dict)
    places: furniture.NumberPlaces = field(default_factory=furniture.NumberPlaces)

    def on_page(self, number: int) -> Mapping[str, int]:
        """Signature -> count of the running lines of page `number`."""
        return self.pages.get(number, {})

    def in_body(self, number: int) -> Mapping[str, int]:
        """Signature -> count of page `number`'s lines that share a running line's signature
        without being running lines."""
        return self.body.get(number, {})

    def is_running(self, number: int, text: str) -> bool:
        """Whether a line with `text` on page `number` is one of its running lines."""
        return line_signature(text) in self.on_page(number)

    def warnings(self, pages: Sequence[int]) -> list[str]:
        """The provenance warning naming the line numbers left out of `pages` (the evidence
        that they were there), or none."""
        found = [n for n in pages if self.numbered.get(n)]
        if not found:
            return []
        total = sum(self.numbered[n] for n in found)
        return [f"line numbers left out of the text: {total} on pages {page_ranges(found)}"]

    @property
    def signatures(self) -> frozenset[str]:
        """Every running signature of the document (for logs and tests)."""
        return frozenset(sig for page in self.pages.values() for sig in page)


def text_rows(lines: Sequence[Line]) -> list[list[Line]]:
    """Horizontal lines grouped into rows top to bottom: a line whose vertical centre lies
    inside the current row's band joins it."""
    rows: list[list[Line]] = []
    bottom = float("-inf")
    for line in sorted(lines, key=lambda ln: (ln.box[1], ln.box[0])):
        centre = (line.box[1] + line.box[3]) / 2
        if rows and centre <= bottom:
            rows[-1].append(line)
            bottom = max(bottom, line.box[3])
        else:
            rows.append([line])
            bottom = line.box[3]
    return rows


def _height(page: PageText) -> float:
    return page.height or max((ln.box[3] for ln in page.lines), default=0.0)


def _middle(line: Line) -> float:
    return (line.box[1] + line.box[3]) / 2


def edge_lines(page: PageText) -> list[Line]:
    """The page's horizontal lines in its first or last `EDGE_ROWS` rows whose middle lies
    inside the top or bottom `EDGE_BAND` of the page."""
    height = _height(page)
    rows = text_rows([ln for ln in page.lines if not ln.vertical])
    top = [ln for row in rows[:EDGE_ROWS] for ln in row if _middle(ln) <= EDGE_BAND * height]
    low = [ln for row in rows[-EDGE_ROWS:] for ln in row if _middle(ln) >= (1 - EDGE_BAND) * height]
    return top + [ln for ln in low if ln not in top]


def _lone_numbers(page: PageText) -> list[tuple[Line, int]]:
    """Lines alone in one of the page's first or last `EDGE_ROWS` rows, inside the top or
    bottom `FOLIO_BAND`, that are a bare page number in digits, with their number."""
    height = _height(page)
    rows = text_rows([ln for ln in page.lines if not ln.vertical])
    found = []
    for row in rows[:EDGE_ROWS] + rows[-EDGE_ROWS:]:
        line = row[0]
        inside = line.box[3] <= FOLIO_BAND * height or line.box[1] >= (1 - FOLIO_BAND) * height
        digits = _DIGITS_RE.findall(line.text)
        if len(row) == 1 and inside and is_page_number(line.text) and digits:
            found.append((line, int(digits[0])))
    return found


def folios(pages: Sequence[PageText], min_pages: int) -> dict[int, list[Line]]:
    """Per page number, its lone page numbers (`_lone_numbers`) whose value is the page number
    plus the offset most of them share, when at least `min_pages` pages share it."""
    lone = {page.number: _lone_numbers(page) for page in pages}
    offsets: Counter[int] = Counter()
    for number, found in lone.items():
        offsets.update({value - number for _, value in found})
    if not offsets:
        return {}
    offset, count = offsets.most_common(1)[0]
    if count < min_pages:
        return {}
    return {n: [ln for ln, value in found if value - n == offset] for n, found in lone.items()}


def _parts(line: Line, words: Sequence[Word]) -> list[list[Word]]:
    """The line's words split where the gap is `SPREAD_GAP` character widths or more."""
    inside = sorted(
        (w for w in words if w.block == line.block and furniture.centred_in(w.box, line.box)),
        key=lambda w: w.box[0],
    )
    chars = sum(len(w.text) for w in inside)
    if not inside or not chars:
        return []
    width = sum(w.box[2] - w.box[0] for w in inside) / chars
    parts = [[inside[0]]]
    for prev, word in zip(inside, inside[1:], strict=False):
        if word.box[0] - prev.box[2] >= SPREAD_GAP * width:
            parts.append([])
        parts[-1].append(word)
    return parts


def spread_lines(page: PageText) -> list[Line]:
    """Horizontal lines spanning the page's text width in three or more parts, two of them
    with letters (module docstring)."""
    flat = [ln for ln in page.lines if not ln.vertical]
    if not flat:
        return []
    left, right = min(ln.box[0] for ln in flat), max(ln.box[2] for ln in flat)
    slack = SPREAD_EDGE * (right - left)
    found = []
    for line in flat:
        if line.box[0] > left + slack or line.box[2] < right - slack:
            continue
        parts = _parts(line, page.words)
        lettered = sum(any(LETTER_RE.search(w.text) for w in part) for part in parts)
        if len(parts) >= 3 and lettered >= 2:
            found.append(line)
    return found


def line_numbers(page: PageText) -> list[tuple[Line, int]]:
    """The page's text-layer lines that are only a line number (`furniture.layer_numbers`),
    top to bottom, with their values."""
    return _number_lines(page, furniture.layer_numbers(page))


def _number_lines(page: PageText, words: Sequence[Word]) -> list[tuple[Line, int]]:
    """The lines of `page` that are bare numbers holding one of `words`, with their values."""
    found = []
    for line in page.lines:
        text = line.text.strip()
        if text.isdigit() and any(furniture.centred_in(w.box, line.box) for w in words):
            found.append((line, int(text)))
    return sorted(found, key=lambda t: (t[0].box[1], t[0].box[0]))


def margin_stamps(page: PageText) -> list[Line]:
    """Sideways lines entirely left or right of the page's horizontal text."""
    flat = [ln for ln in page.lines if not ln.vertical]
    if not flat:
        return []
    left = min(ln.box[0] for ln in flat)
    right = max(ln.box[2] for ln in flat)
    return [ln for ln in page.lines if ln.vertical and (ln.box[2] <= left or ln.box[0] >= right)]


def side_lines(page: PageText) -> list[Line]:
    """Sideways lines whose centre lies left of the left edge of most of the page's horizontal
    lines, or right of the right edge of most of them (the median edges)."""
    flat = [ln for ln in page.lines if not ln.vertical]
    if not flat:
        return []
    left = statistics.median(ln.box[0] for ln in flat)
    right = statistics.median(ln.box[2] for ln in flat)
    return [
        ln for ln in page.lines if ln.vertical and not left < (ln.box[0] + ln.box[2]) / 2 < right
    ]


def _same_text(page: PageText) -> Counter[str]:
    """Signatures of the page's lines, and of its blocks of several lines read as one line (a
    heading set on two lines whose words a one-line footer repeats)."""
    counts = Counter(line_signature(ln.text) for ln in page.lines)
    blocks: dict[int, list[str]] = {}
    for line in page.lines:
        blocks.setdefault(line.block, []).append(line.text)
    counts.update(line_signature(" ".join(t)) for t in blocks.values() if len(t) > 1)
    return counts


def _exact(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _tracks_pages(occurrences: Sequence[tuple[int, str]]) -> bool:
    """Whether the numbers that differ between the occurrences ((page, text) of one signature)
    follow the page number: each such number is the page number plus one constant."""
    numbers = [(page, [int(d) for d in _DIGITS_RE.findall(text)]) for page, text in occurrences]
    if len({len(ns) for _, ns in numbers}) != 1:
        return False
    for i in range(len(numbers[0][1])):
        values = {ns[i] for _, ns in numbers}
        if len(values) > 1 and len({ns[i] - page for page, ns in numbers}) > 1:
            return False
    return True


def _repeated(edges: Mapping[int, Sequence[Line]], min_pages: int) -> Counter[str]:
    """Per signature, the pages it is an edge line of, when it repeats as a running line: the
    same text on `min_pages` pages, or one signature whose differing numbers follow the page
    number ("Page 3 of 12"; "Definition 20" and "Definition 34" at page tops do not)."""
    exact: Counter[str] = Counter()
    seen: dict[str, dict[int, str]] = {}
    for number, lines in edges.items():
        exact.update({_exact(ln.text) for ln in lines})
        for ln in lines:
            seen.setdefault(line_signature(ln.text), {}).setdefault(number, _exact(ln.text))
    counts: Counter[str] = Counter()
    for sig, occ in seen.items():
        same = max(exact[text] for text in occ.values())
        if same >= min_pages or (len(occ) >= min_pages and _tracks_pages(list(occ.items()))):
            counts[sig] = len(occ)
    return counts


def _page_runs(edges: Mapping[int, Sequence[Line]], min_pages: int) -> dict[str, set[int]]:
    """Per exact text of an edge line, the pages it runs on: where the same text stands on
    `min_pages` or more pages in a row, each at most `RUN_STEP` pages after the one before,
    those pages but the first of each row (the first opens the section it heads)."""
    pages_of: dict[str, list[int]] = {}
    for number in sorted(edges):
        for line in edges[number]:
            seen = pages_of.setdefault(_exact(line.text), [])
            if not seen or seen[-1] != number:
                seen.append(number)
    runs: dict[str, set[int]] = {}
    for text, numbers in pages_of.items():
        rows: list[list[int]] = []
        for number in numbers:
            if rows and number - rows[-1][-1] <= RUN_STEP:
                rows[-1].append(number)
            else:
                rows.append([number])
        running = {n for row in rows if len(row) >= min_pages for n in row[1:]}
        if running:
            runs[text] = running
    return runs


def _heading_like(
    line: Line, page: PageText, display: float, few: bool, runs: Mapping[str, set[int]]
) -> bool:
    """An edge line in display type repeated on `few` pages that is a heading, not a running
    line: in the top band, and not standing on a page of a row of pages its text runs on
    (`_page_runs`)."""
    top = _middle(line) <= EDGE_BAND * _height(page)
    running = page.number in runs.get(_exact(line.text), ())
    return line.size >= display and few and top and not running


def find_running(layer: TextLayer, outline: Sequence[OutlineEntry] = ()) -> RunningLines:
    """The document's `RunningLines` (module docstring) from its text layer and outline."""
    pages = [layer.page(n) for n in layer.numbers]
    edges = {page.number: edge_lines(page) for page in pages}
    min_pages = max(2, min(MIN_REPEAT_PAGES, len(pages)))
    counts = _repeated(edges, min_pages)
    runs = _page_runs(edges, min_pages)
    display = DISPLAY_RATIO * body_size(ln for page in pages for ln in page.lines)
    named = {(e.page, title_key(e.title)) for e in outline}
    folio = folios(pages, min_pages)
    spread = {page.number: spread_lines(page) for page in pages}
    spread_counts = _repeated(spread, min_pages)
    sides = {page.number: side_lines(page) for page in pages}
    side_counts = _repeated(sides, min_pages)
    result: dict[int, dict[str, int]] = {}
    body: dict[int, dict[str, int]] = {}
    numbered: dict[int, int] = {}
    first = {page.number: furniture.layer_numbers(page) for page in pages}
    places = furniture.NumberPlaces.of((w.text, w.box) for ws in first.values() for w in ws)
    for page in pages:
        stamps = margin_stamps(page)  # all of them among the page's side lines
        found: Counter[str] = Counter(
            line_signature(ln.text)
            for ln in sides[page.number]
            if ln in stamps or side_counts[line_signature(ln.text)] >= min_pages
        )
        outside = [ln for ln in folio.get(page.number, ()) if ln not in edges[page.number]]
        found.update(line_signature(ln.text) for ln in outside)
        words = furniture.layer_numbers(page, places) if places else first[page.number]
        found.update(line_signature(ln.text) for ln, _ in _number_lines(page, words))
        if words:
            numbered[page.number] = len(words)
        found.update(
            line_signature(ln.text)
            for ln in spread[page.number]
            if spread_counts[line_signature(ln.text)] >= min_pages and ln not in edges[page.number]
        )
        for line in edges[page.number]:
            sig = line_signature(line.text)
            if (page.number, title_key(line.text)) in named:
                continue
            few = counts[sig] < len(pages) / 2
            repeated = counts[sig] >= min_pages and not _heading_like(
                line, page, display, few, runs
            )
            if repeated or is_page_number(line.text):
                found[sig] += 1
        if found:
            result[page.number] = dict(found)
            same = _same_text(page)
            others = {sig: same[sig] - n for sig, n in found.items() if same[sig] > n}
            if others:
                body[page.number] = others
    return RunningLines(result, body, numbered, places)
