"""Line numbers: the page furniture that numbers the lines of the text.

A manuscript, a bill, a court filing or a patent numbers its lines: a column of small whole
numbers beside the text, in the margin, in the gutter between two columns or at the start of
every line. They are not text of the document: the readers of the text layer leave them out
span by span (`rawlines`, `plaintext`), and `runninglines` counts them as running lines (so
the self-check never restores them and provenance counts them).

The rule, over the horizontal pieces of one page (spans, or text-layer lines), each with its
text, box and font size: a *column of line numbers* is a run of at least `MIN_RUN` pieces

1. each a bare whole number of at most `MAX_DIGITS` digits, a piece of its own;
2. sharing one alignment: their right edges, or their left edges, within `ALIGN` pt;
3. counting up down the page by one fixed step (1 for every line, 5 for every fifth): each
   next value is the previous one plus the step;
4. each apart from the other text of its row: no piece of its row overlaps it or comes within
   `GAP` of its size of it;
5. beside text: at least half of them share their row with other text;
6. numbering every line: between two consecutive numbers stand no more unnumbered lines of
   the text beside them than the step skips, for most (`EVERY_LINE`) pairs (a reference
   list numbers only each reference's first line);
7. numbering the page or its prose: the run's count times its step is at least half of the
   page's rows of text, or at least `RUNNING_ON` of its numbers stand beside text opening
   lower-case (wrapped lines of prose, as on a bill's first page under its title block); a
   list of figures, a block of footnotes or an index of statements numbers a list;
8. set off as furniture: smaller than the text of their rows (`SMALLER`), or with text on
   one side only, in one stretch (no gap of `CELL_GAP` sizes) in most rows, and alone in
   their strip of the page (no other piece overlaps the column's width from `CLEAR_ROWS`
   line pitches above its first number to as far below its last: a margin, or a column of
   numbers opening every line; a table's index column has its header above it, cells on
   both sides, or rows of cells).

A line-numbered document prints the same numbers in the same places on every page, so a page
whose run is too short or broken for the rule keeps the places of the others:

9. a bare number (rule 1) apart from the text of its row (rule 4) is a line number too where
   another page of the document holds a line number of the same value in the same place
   (`NumberPlaces`: its right or left edge within `ALIGN`, its middle within `PLACE_DRIFT`
   of its height).

A numbered list ("1. ", "(2)") is no bare number; a column of page numbers in a contents
list does not count up by a fixed step. The table cell reader applies the rule too (a column
of line numbers the layout model boxed as a table), so rule 8 keeps tables' index columns.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .textlayer import Box, Line, PageText, Word

#: Numbers in a column of line numbers.
MIN_RUN = 6
#: Share of consecutive numbers with no unnumbered line between them (beyond the step's).
EVERY_LINE = 0.8
#: Line pitches above and below a column of numbers set in the text's size that must be clear
#: of other text.
CLEAR_ROWS = 2
#: Digits of a line number (manuscripts count into the thousands).
MAX_DIGITS = 5
#: pt: how far the aligned edges of a column may stray.
ALIGN = 2.0
#: Font sizes of clear space between a line number and the text of its row (a space is
#: about a quarter of one).
GAP = 0.15
#: A number is set smaller than its row's text when its size is at most this share of it.
SMALLER = 0.9
#: Font sizes of blank that part two stretches of text in a row (columns, table cells).
CELL_GAP = 2.0
#: Stretches of text beside a line number set in the text's size: its line.
MAX_STRETCHES = 1
#: Share of a column's numbers beside a lower-case line opening that makes it number prose.
RUNNING_ON = 1 / 3
#: pt: height of the bands `layer_numbers` files lines in to find a word's line.
BAND = 10.0
#: Share of a row's height two pieces must overlap vertically to share the row.
ROW_OVERLAP = 0.5
#: Share of a number's height by which the middles of one place on two pages may stray.
PLACE_DRIFT = 0.5

_NUMBER_RE = re.compile(rf"\d{{1,{MAX_DIGITS}}}")


@dataclass(frozen=True)
class Piece:
    """A horizontal piece of a page's text: a span or a text-layer line."""

    text: str
    box: Box
    size: float


@dataclass(frozen=True)
class NumberPlaces:
    """Where a document prints its line numbers (rule 9): per value, the boxes it stands in
    on the pages where the rule found it."""

    boxes: Mapping[int, tuple[Box, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, found: Iterable[tuple[str, Box]]) -> NumberPlaces:
        """The places of line numbers given as (text, box)."""
        boxes: dict[int, list[Box]] = {}
        for text, box in found:
            boxes.setdefault(int(text.strip()), []).append(box)
        return cls({value: tuple(b) for value, b in boxes.items()})

    def __bool__(self) -> bool:
        return bool(self.boxes)

    def holds(self, piece: Piece) -> bool:
        """Whether bare number `piece` stands where a line number of its value stood."""
        return any(
            _same_place(box, piece.box) for box in self.boxes.get(int(piece.text.strip()), ())
        )


def _same_place(a: Box, b: Box) -> bool:
    """Boxes sharing a right or left edge within `ALIGN` and a middle within `PLACE_DRIFT`."""
    edge = abs(a[2] - b[2]) <= ALIGN or abs(a[0] - b[0]) <= ALIGN
    drift = PLACE_DRIFT * min(a[3] - a[1], b[3] - b[1])
    return edge and abs((a[1] + a[3]) / 2 - (b[1] + b[3]) / 2) <= drift


def line_numbers(pieces: Sequence[Piece], places: NumberPlaces | None = None) -> list[int]:
    """Indexes into `pieces` of the page's line numbers, top to bottom (module docstring;
    rule 9 with `places`, the document's)."""
    numbers = [i for i, p in enumerate(pieces) if _NUMBER_RE.fullmatch(p.text.strip())]
    found: set[int] = set()
    if len(numbers) >= MIN_RUN:
        for column in _aligned(pieces, numbers):
            for run in _counting_runs(pieces, column):
                if _is_furniture(pieces, run):
                    found.update(run)
    if places:
        found.update(
            i
            for i in numbers
            if i not in found and places.holds(pieces[i]) and _apart(pieces, i, {i})
        )
    return sorted(found, key=lambda i: (pieces[i].box[1], pieces[i].box[0]))


def _aligned(pieces: Sequence[Piece], numbers: list[int]) -> list[list[int]]:
    """Groups of at least `MIN_RUN` numbers sharing a right edge, else a left edge, within
    `ALIGN` (each number in one group: right edges first, as numbers are set flush right)."""
    groups: list[list[int]] = []
    left = set(numbers)
    for edge in (2, 0):
        ordered = sorted(left, key=lambda i: pieces[i].box[edge])
        cluster: list[int] = []
        for i in ordered:
            if cluster and pieces[i].box[edge] - pieces[cluster[0]].box[edge] > ALIGN:
                if len(cluster) >= MIN_RUN:
                    groups.append(cluster)
                    left -= set(cluster)
                cluster = []
            cluster.append(i)
        if len(cluster) >= MIN_RUN:
            groups.append(cluster)
            left -= set(cluster)
    return groups


def _counting_runs(pieces: Sequence[Piece], column: list[int]) -> list[list[int]]:
    """The column's runs of at least `MIN_RUN` numbers that count up by the column's most
    common step, top to bottom."""
    ordered = sorted(column, key=lambda i: pieces[i].box[1])
    values = [int(pieces[i].text.strip()) for i in ordered]
    steps = Counter(b - a for a, b in zip(values, values[1:], strict=False) if b > a)
    if not steps:
        return []
    step = steps.most_common(1)[0][0]
    runs: list[list[int]] = [[ordered[0]]]
    for k in range(1, len(ordered)):
        if values[k] - values[k - 1] != step:
            runs.append([])
        runs[-1].append(ordered[k])
    return [run for run in runs if len(run) >= MIN_RUN]


def shares_row(a: Box, b: Box) -> bool:
    """The boxes overlap vertically by more than `ROW_OVERLAP` of the lower one's height."""
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    height = min(a[3] - a[1], b[3] - b[1])
    return height > 0 and overlap > ROW_OVERLAP * height


def _row_of(pieces: Sequence[Piece], i: int, members: set[int]) -> list[Piece]:
    """The pieces but `members` sharing piece `i`'s row."""
    box = pieces[i].box
    return [p for j, p in enumerate(pieces) if j not in members and shares_row(p.box, box)]


def _apart(pieces: Sequence[Piece], i: int, members: set[int]) -> bool:
    """Rule 4: no piece of `i`'s row but `members` overlaps it or comes within `GAP` of its
    size of it."""
    number = pieces[i]
    margin = GAP * number.size
    return not any(
        p.box[0] < number.box[2] + margin and p.box[2] > number.box[0] - margin
        for p in _row_of(pieces, i, members)
    )


def _is_furniture(pieces: Sequence[Piece], run: list[int]) -> bool:
    """Rules 4-8 of the module docstring for one counting run."""
    members = set(run)
    beside = smaller = cells = 0
    sides: set[str] = set()
    for i in run:
        number = pieces[i]
        row = _row_of(pieces, i, members)
        if not _apart(pieces, i, members):
            return False
        if row:
            beside += 1
            smaller += number.size <= SMALLER * statistics.median(p.size for p in row)
            cells += _stretches(row, number.size) > MAX_STRETCHES
            sides.update("right" if p.box[0] >= number.box[2] else "left" for p in row)
    if 2 * beside < len(run) or not _numbers_every_line(pieces, run):
        return False
    if not (_numbers_page(pieces, run) or _runs_on(pieces, run)):
        return False
    if 2 * smaller >= beside:
        return True
    return len(sides) == 1 and 2 * cells < beside and _clear_strip(pieces, run)


def _stretches(row: list[Piece], size: float) -> int:
    """Stretches of text in `row`: pieces apart by more than `CELL_GAP` sizes start a new one."""
    boxes = sorted(p.box for p in row)
    count, end = 1, boxes[0][2]
    for box in boxes[1:]:
        count += box[0] - end > CELL_GAP * size
        end = max(end, box[2])
    return count


def _runs_on(pieces: Sequence[Piece], run: list[int]) -> bool:
    """At least `RUNNING_ON` of the run's numbers stand beside text that opens lower-case: the
    lines they number are wrapped lines of running prose (a contents list, footnotes or a
    table's rows open each entry with a capital or a figure)."""
    members = set(run)
    nearest = [_nearest(pieces, i, members) for i in run]
    opens = sum(near.text.lstrip()[:1].islower() for near in nearest if near)
    return opens >= RUNNING_ON * len(run)


def _numbers_page(pieces: Sequence[Piece], run: list[int]) -> bool:
    """The run numbers (its count times its step) at least half of the page's rows of text."""
    values = [int(pieces[i].text.strip()) for i in run]
    members = set(run)
    rows = _row_count(sorted(p.box for j, p in enumerate(pieces) if j not in members))
    return 2 * len(run) * (values[1] - values[0]) >= rows


def _clear_strip(pieces: Sequence[Piece], run: list[int]) -> bool:
    """No piece but the run's overlaps the run's width from `CLEAR_ROWS` line pitches above
    its first number to as far below its last (a table's index column has its header above
    it)."""
    members = set(run)
    boxes = [pieces[i].box for i in run]
    x0, x1 = min(b[0] for b in boxes), max(b[2] for b in boxes)
    pitch = (boxes[-1][1] - boxes[0][1]) / (len(boxes) - 1)
    y0, y1 = boxes[0][1] - CLEAR_ROWS * pitch, boxes[-1][3] + CLEAR_ROWS * pitch
    return not any(
        p.box[0] < x1 and p.box[2] > x0 and p.box[1] < y1 and p.box[3] > y0
        for j, p in enumerate(pieces)
        if j not in members
    )


def _numbers_every_line(pieces: Sequence[Piece], run: list[int]) -> bool:
    """Between most (`EVERY_LINE`) pairs of consecutive numbers of the run stand at most
    step - 1 rows of the text beside them (the lines the step skips): a line number numbers
    every line, where an item number (a reference, a list entry) numbers only an item's first
    line."""
    members = set(run)
    values = [int(pieces[i].text.strip()) for i in run]
    step = values[1] - values[0]
    good = 0
    for a, b in zip(run, run[1:], strict=False):
        top, low = pieces[a].box, pieces[b].box
        near = _nearest(pieces, a, members)
        band = near.box if near else None
        between = list(
            p.box
            for j, p in enumerate(pieces)
            if j not in members
            and top[3] <= (p.box[1] + p.box[3]) / 2 <= low[1]
            and not shares_row(p.box, top)
            and not shares_row(p.box, low)
            and (band is None or (p.box[0] < band[2] and p.box[2] > band[0]))
        )
        good += _row_count(between) <= step - 1
    return good >= EVERY_LINE * (len(run) - 1)


def _nearest(pieces: Sequence[Piece], i: int, members: set[int]) -> Piece | None:
    """The piece of `i`'s row nearest to it (the text it numbers), or None."""
    number = pieces[i].box
    row = _row_of(pieces, i, members)
    return min(row, key=lambda p: max(p.box[0] - number[2], number[0] - p.box[2]), default=None)


def _row_count(boxes: list[Box]) -> int:
    """Rows among `boxes`: by their vertical centres, a box whose centre lies more than half
    its height below the centre that opened the current row opens a new one."""
    rows = 0
    opened = float("-inf")
    for box in sorted(boxes, key=lambda b: b[1] + b[3]):
        centre = (box[1] + box[3]) / 2
        if centre - opened > (box[3] - box[1]) / 2:
            rows += 1
            opened = centre
    return rows


def _trimmed(text: str, box: Box) -> Box:
    """`box` without the width of `text`'s leading and trailing blanks (characters taken as
    equally wide)."""
    if not text or not text.strip():
        return box
    width = (box[2] - box[0]) / len(text)
    lead = len(text) - len(text.lstrip())
    tail = len(text) - len(text.rstrip())
    return (box[0] + lead * width, box[1], box[2] - tail * width, box[3])


def _span_text(span: Mapping[str, Any]) -> str:
    """A span's text, from its characters in PyMuPDF's ``rawdict`` form."""
    if "text" in span:
        return str(span["text"])
    return "".join(str(c.get("c", "")) for c in span.get("chars", ()))


def numbered_spans(
    blocks: Sequence[Mapping[str, Any]], places: NumberPlaces | None = None
) -> frozenset[tuple[int, int, int]]:
    """(block, line, span) indexes, in `blocks` (a page's text blocks in PyMuPDF's ``dict``
    or ``rawdict`` form), of the spans that are line numbers (module docstring, rule 9 with
    the document's `places`; horizontal spans with text are the pieces)."""
    keys: list[tuple[int, int, int]] = []
    pieces: list[Piece] = []
    for bno, block in enumerate(blocks):
        for lno, line in enumerate(block.get("lines", ())):
            if abs(float(line.get("dir", (1.0, 0.0))[1])) > 0.01:
                continue
            for sno, span in enumerate(line.get("spans", ())):
                text = _span_text(span)
                if text.strip():
                    box = _trimmed(text, tuple(span["bbox"]))
                    keys.append((bno, lno, sno))
                    pieces.append(Piece(text.strip(), box, float(span.get("size", 0.0))))
    return frozenset(keys[i] for i in line_numbers(pieces, places))


def without_numbers(
    blocks: Sequence[dict[str, Any]], numbered: frozenset[tuple[int, int, int]]
) -> list[dict[str, Any]]:
    """Copies of `blocks` (``dict`` form) without the spans at the `numbered` (block, line,
    span) indexes."""
    if not numbered:
        return list(blocks)
    out = []
    for bno, block in enumerate(blocks):
        lines = [
            {
                **line,
                "spans": [
                    s for sno, s in enumerate(line["spans"]) if (bno, lno, sno) not in numbered
                ],
            }
            for lno, line in enumerate(block.get("lines", ()))
        ]
        out.append({**block, "lines": lines})
    return out


def layer_numbers(page: PageText, places: NumberPlaces | None = None) -> list[Word]:
    """The words of the page's text layer that are line numbers (module docstring, rule 9
    with the document's `places`; the pieces are the words of horizontal lines, each with the
    size of the line holding its centre)."""
    digits = sum(w.text.isdigit() for w in page.words)
    if not digits or digits < MIN_RUN and not places:
        return []
    bands: dict[int, list[Line]] = {}
    for line in page.lines:
        for band in range(int(line.box[1] // BAND), int(line.box[3] // BAND) + 1):
            bands.setdefault(band, []).append(line)
    words: list[Word] = []
    pieces: list[Piece] = []
    for word in page.words:
        centre = (word.box[1] + word.box[3]) / 2
        near = bands.get(int(centre // BAND), ())
        owner = next((ln for ln in near if centred_in(word.box, ln.box)), None)
        if owner is not None and not owner.vertical:
            words.append(word)
            pieces.append(Piece(word.text, word.box, owner.size))
    return [words[i] for i in line_numbers(pieces, places)]


def centred_in(box: Box, outer: Box) -> bool:
    """True when the centre of `box` lies inside `outer` (edges included)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]
