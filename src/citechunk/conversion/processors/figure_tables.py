"""Lines whose figures end at shared right edges are a table (block form of ``figure-tables``).

A statement set without rules (a cash-flow statement, a schedule of investments) reaches the
blocks as one text block per line, or as a text block of lines: a label, a gap, then figures
right-aligned in columns. Read as paragraphs, its rows lose their column headers and read as
one run of numbers. The rule, `figure_tables(pages)`, on each page:

* A *figure cell* is a span whose whole text is a figure (digits with group marks, a decimal
  part, a currency sign, a percent sign, brackets or a minus for negatives, or a lone dash)
  standing at least `GAP_EM` of its size right of the span before it. A span of several
  figures separated by blanks is one cell per figure, each placed by its share of the span's
  characters. A line's figure cells
  are its trailing figure spans; the spans before them are its label.
* A *column edge* is a right edge (within `EDGE_EM` of the type size) that the figure cells of
  `MIN_ROWS` or more lines of the page share.
* A *figure table* is a run of consecutive lines of text blocks (in reading order, no other
  block between them) of which at least `MIN_ROWS` are figure lines, each of whose cells ends
  at a column edge; between them stand at most `MAX_LABEL_LINES` label lines in a row
  (sub-totals' captions, a label wrapped onto the next line) that end left of the columns. The
  lines right above the first figure line that are only cells at column edges (years,
  "($)") are its header; a table needs one. The run takes whole blocks only.
* Its grid: the header row (an empty first cell, each column's header lines joined), then one
  row per line: the label, then each column's figure or an empty cell. A label line followed by
  a figure line whose label opens in lower case is one row (a wrapped label).

The run's blocks become one table block in the first one's place. Lines that are prose (no
gap before a trailing figure, a line running across the columns) never join a table.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..blocks import Block, Line, Span
from ..tables.grid import render
from .common import Pages

log = logging.getLogger(__name__)

#: Figure lines a table needs, and lines that must share a right edge for it to be a column.
MIN_ROWS = 3
#: Label lines without figures that may stand in a row between figure lines.
MAX_LABEL_LINES = 2
#: A figure cell stands at least this many of its type size right of the span before it.
GAP_EM = 1.0
#: Right edges within this many of the type size are one column edge.
EDGE_EM = 0.6
#: Header lines read above the first figure line, at most.
MAX_HEADER_LINES = 3

_FIGURE_RE = re.compile(
    r"[(\[]?[-–—+]?\s?[$€£¥]?\s?(?:\d{1,3}(?:[,.\u202f\u00a0]\d{3})+|\d+)(?:[.,]\d+)?\s?%?[)\]]?\*?"
    r"|[(\[][$€£¥%][)\]]|[-–—]"
)
_YEAR_RE = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d.,%])")


@dataclass(frozen=True)
class _Row:
    """One line of a candidate table: where it stands, its label and its figure cells."""

    block: int
    line: Line
    label: str
    cells: tuple[Span, ...]


def is_figure(text: str) -> bool:
    """Whether `text` (stripped) is only a figure, a currency or percent mark, or a dash."""
    text = text.strip()
    return bool(text) and bool(_FIGURE_RE.fullmatch(text))


def _pieces(span: Span) -> list[Span]:
    """`span`, or, when its text is several figures separated by blanks, one span per figure
    with its box estimated from its share of the characters (the last one ends where the span
    does)."""
    text = span.text.rstrip()
    words = text.split()
    if len(words) < 2 or not all(is_figure(w) for w in words):
        return [span]
    x0, y0, x1, y1 = span.bbox
    width = (x1 - x0) / max(1, len(span.text))
    pieces = []
    for match in re.finditer(r"\S+", text):
        end = x1 if match.end() == len(text) else x0 + width * match.end()
        box = (x0 + width * match.start(), y0, end, y1)
        pieces.append(replace(span, text=match.group(), bbox=box))
    return pieces


def _figures(span: Span) -> bool:
    """A figure, or figures separated by blanks."""
    return is_figure(span.text) or len(_pieces(span)) > 1


def _split(line: Line) -> tuple[str, tuple[Span, ...]]:
    """The line's label and its trailing figure cells (module docstring)."""
    spans = [s for s in line.spans if s.text.strip()]
    k = len(spans)
    while k > 0 and _figures(spans[k - 1]):
        gap = spans[k - 1].bbox[0] - spans[k - 2].bbox[2] if k > 1 else float("inf")
        if gap < GAP_EM * spans[k - 1].size:
            break
        k -= 1
    label = " ".join(s.text.strip() for s in spans[:k])
    return label, tuple(p for s in spans[k:] for p in _pieces(s))


def _edges(rows: Sequence[_Row]) -> list[float]:
    """The column edges: right edges that the figure cells of `MIN_ROWS` lines share."""
    ends = sorted((c.bbox[2], c.size) for r in rows for c in r.cells)
    edges: list[float] = []
    group: list[tuple[float, float]] = []
    for end in ends:
        if group and end[0] - group[0][0] > EDGE_EM * end[1]:
            edges += _edge(group)
            group = []
        group.append(end)
    return edges + _edge(group)


def _edge(group: list[tuple[float, float]]) -> list[float]:
    return [max(e for e, _ in group)] if len(group) >= MIN_ROWS else []


@dataclass(frozen=True)
class _Columns:
    """A page's column edges and the left end of the figures set at them."""

    edges: tuple[float, ...]
    left: float

    def of(self, cell: Span) -> int | None:
        """The column whose edge `cell` ends at, else None."""
        for j, edge in enumerate(self.edges):
            if abs(cell.bbox[2] - edge) <= EDGE_EM * cell.size:
                return j
        return None

    def fits(self, row: _Row) -> bool:
        """A figure line whose cells all end at column edges, or a label line ending left of
        the figures."""
        if row.cells:
            return all(self.of(c) is not None for c in row.cells)
        return bool(row.label) and row.line.bbox[2] < self.left

    def heads(self, row: _Row) -> bool:
        """An unlabelled line whose spans all end at column edges, one of them a figure."""
        spans = [s for s in row.line.spans if s.text.strip()]
        return (
            not row.label
            and bool(spans)
            and all(self.of(s) is not None for s in spans)
            and any(is_figure(s.text) or _YEAR_RE.search(s.text) for s in spans)
        )


def _columns(rows: Sequence[_Row]) -> _Columns | None:
    edges = _edges([r for r in rows if r.label])
    if not edges:
        return None
    lefts = [c.bbox[0] for r in rows for c in r.cells]
    return _Columns(tuple(edges), min(lefts))


def _runs(rows: Sequence[_Row], cols: _Columns) -> list[tuple[int, int]]:
    """[start, end) of each run of fitting rows (module docstring): from its header lines and
    the label lines before its first figure line to its last figure line, at most
    `MAX_LABEL_LINES` label lines in a row, at least `MIN_ROWS` labelled figure lines."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(rows):
        if not (rows[i].label and rows[i].cells and cols.fits(rows[i])):
            i += 1
            continue
        end, j, labels = i + 1, i + 1, 0
        while j < len(rows) and cols.fits(rows[j]) and labels < MAX_LABEL_LINES + 1:
            labels = 0 if rows[j].cells else labels + 1
            end = j + 1 if rows[j].cells else end
            j += 1
        start = i
        while start > 0 and i - start < MAX_LABEL_LINES and not rows[start - 1].cells:
            if not cols.fits(rows[start - 1]):
                break
            start -= 1
        head = start
        while head > 0 and start - head < MAX_HEADER_LINES and cols.heads(rows[head - 1]):
            head -= 1
        if head < start and sum(1 for r in rows[start:end] if r.label and r.cells) >= MIN_ROWS:
            runs.append((head, end))
        i = end
    return runs


def _grid(rows: Sequence[_Row], cols: _Columns) -> list[list[list[str]]]:
    """The table's grid (module docstring): header row, then one row per line."""
    width = len(cols.edges)
    head = 0
    while head < len(rows) and cols.heads(rows[head]):
        head += 1
    top: list[list[str]] = [[]]
    for j in range(width):
        at = [w for r in rows[:head] for c, w in _shown(r) if cols.of(c) == j]
        top.append([" ".join(at)] if at else [])
    body: list[list[list[str]]] = []
    pending = ""
    for row in rows[head:]:
        if not row.cells:
            if pending:
                body.append([[pending]] + [[] for _ in range(width)])
            pending = row.label
            continue
        label = row.label
        if pending and (not label or label[:1].islower()):
            label, pending = f"{pending} {label}".strip(), ""
        elif pending:
            body.append([[pending]] + [[] for _ in range(width)])
            pending = ""
        cells: list[list[str]] = [[] for _ in range(width)]
        for cell in row.cells:
            column = cols.of(cell)
            if column is not None:
                cells[column] = [cell.text.strip()]
        body.append([[label] if label else [], *cells])
    return [top, *body]


def _shown(row: _Row) -> list[tuple[Span, str]]:
    return [(s, s.text.strip()) for s in row.line.spans if s.text.strip()]


def _page_rows(blocks: Sequence[Block]) -> list[list[_Row]]:
    """The page's lines of consecutive text blocks, one list per stretch of text blocks."""
    stretches: list[list[_Row]] = [[]]
    for index, block in enumerate(blocks):
        if block.kind != "text":
            stretches.append([])
            continue
        for line in block.lines:
            label, cells = _split(line)
            stretches[-1].append(_Row(index, line, label, cells))
    return [s for s in stretches if s]


def _whole_blocks(rows: Sequence[_Row], start: int, end: int) -> tuple[int, int]:
    """The run narrowed to the blocks it holds whole."""
    while start < end and start > 0 and rows[start - 1].block == rows[start].block:
        start += 1
    while end > start and end < len(rows) and rows[end].block == rows[end - 1].block:
        end -= 1
    return start, end


def _table(rows: Sequence[_Row], blocks: Sequence[Block], cols: _Columns) -> Block:
    """The table block of a run of rows, in its first block's place."""
    boxes = [blocks[i].bbox for i in sorted({r.block for r in rows})]
    bbox = (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
    why = f"figures in {len(cols.edges)} columns ending at shared right edges"
    first = blocks[rows[0].block]
    markdown = render(_grid(rows, cols))
    return replace(first, kind="table", bbox=bbox, lines=(), table=markdown, evidence=(why,))


def _page_tables(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """The page's blocks with each figure table made one table block."""
    replaced: dict[int, Block] = {}
    dropped: set[int] = set()
    for rows in _page_rows(blocks):
        cols = _columns(rows)
        for start, end in _runs(rows, cols) if cols else ():
            s, e = _whole_blocks(rows, start, end)
            if cols is None or s == e or not cols.heads(rows[s]):
                continue
            held = sorted({r.block for r in rows[s:e]})
            replaced[held[0]] = _table(rows[s:e], blocks, cols)
            dropped.update(held[1:])
    if not replaced:
        return tuple(blocks)
    return tuple(replaced.get(i, b) for i, b in enumerate(blocks) if i not in dropped)


def figure_tables(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Each page's runs of lines whose figures end at shared right edges become table blocks
    (module docstring)."""
    out = {number: _page_tables(blocks) for number, blocks in pages.items()}
    made = sum(len(pages[n]) - len(out[n]) for n in pages)
    if made:
        log.debug("figure tables: %d blocks joined into tables", made)
    return out
