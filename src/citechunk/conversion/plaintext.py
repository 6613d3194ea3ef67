"""Typed blocks of a page straight from its text layer (the fast path, no model).

With the layout model in use, `triage` sends here only pages that are one column of running
text (no image, no drawn grid, no lines side by side, no column gaps); without the model every
page is read here. Reading order is the text blocks' top-to-bottom order, a page of two prose
columns read column by column (`in_columns`), and every text-layer block is a heading, list
items, code or a paragraph; with ``tables`` (every page, without the model), a table PyMuPDF's
finder sees drawn with rules (`ruled_tables`) is a "table" block whose cells hold the
text-layer words inside them, and its lines are no text. The blocks
are the layout path's (`blocks.Block`), so the same heading stage levels them
(`headings.level_headings`, over the whole document) and the same renderer writes them
(`render.render_page`):

- a block is a "section-header" when it is short (at most `HEADING_MAX_CHARS`,
  `HEADING_MAX_LINES` lines), does not end like a sentence, does not start with a bullet, has
  at least two letters and no dot leaders ("Scope ........ 4": a table of contents), and is
  set larger than the body font (`body_size`: the size carrying most of the document's
  characters) or all bold; its level is left to the heading stage;
- a block whose first lines are bold and whose later lines are not starts with those lines
  as a heading when they qualify as one (a run-in heading block: "Contact" over an address);
- a block set wholly in a monospaced font (its first line not opening with a raised mark) is
  "code";
- otherwise a line starting with a bullet glyph starts a "list-item" (depth 1), the lines
  after it until the next bullet continuing it; lines before the first bullet are "text";
- a text-layer block whose first line goes on the last line of the block before it (one
  row, meeting end to start) and opens with a raised span (a PDF may start a block at a
  raised footnote mark or ordinal suffix) is joined to that block (`rejoined`), so the mark
  marks the word it follows;
- running lines (`runninglines`) are left out, as the layout path cuts page-header/-footer
  boxes, and so are the spans of line numbers (`furniture`); each block's lines are read as
  the layout path reads a box's (`rawlines.raw_lines`: sideways, invisible and blank spans
  left out, the pieces of one word joined, "e" + "ff" + "ect" one word).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .blocks import Block, Kind, Line, Span, as_box
from .furniture import NumberPlaces, centred_in, numbered_spans, without_numbers
from .geometry import LEADER_RE
from .rawlines import raw_lines
from .reading_order import read_columns
from .runninglines import line_signature
from .spans import MARK_SMALLER, RAISED, readable
from .tables.grid import render as render_grid
from .textlayer import PageText

HEADING_MAX_CHARS = 150
HEADING_MAX_LINES = 3
#: A size at least this many points over the body size is a heading size.
LARGER = 0.9
BULLETS = ("•", "◦", "▪", "■", "●", "○", "·", "\uf0b7", "\uf0a7")  # glyphs starting list items
_SENTENCE_ENDS = (".", ",", ";")
#: A line starting at most this share of its size after the end of a line in the same row
#: goes on that line.
MEET = 0.3


def body_size(pages: Iterable[PageText]) -> float:
    """The document's body font size: the size (to 0.1 pt) carrying most characters."""
    chars: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            chars[round(line.size, 1)] += len(line.text)
    return chars.most_common(1)[0][0] if chars else 0.0


def page_blocks(
    page: Any,
    running: Mapping[str, int],
    body: float,
    places: NumberPlaces | None = None,
    tables: bool = False,
) -> tuple[Block, ...]:
    """The blocks of PyMuPDF page `page` (module docstring); `running` holds the signatures of
    the page's running lines, `body` is the document's body size, `places` where the document
    prints its line numbers; with `tables`, its ruled tables (`ruled_tables`) are "table"
    blocks, placed by their top edge, and the lines inside them no text."""
    number = int(page.number) + 1
    grids = ruled_tables(page, number) if tables else []
    raw_blocks = page.get_text("dict", sort=True)["blocks"]
    found = rejoined(without_numbers(raw_blocks, numbered_spans(raw_blocks, places)))
    edge = running_places(found, running, float(page.rect.height))
    out: list[Block] = []
    for index, raw in enumerate(found):
        read = _lines(_kept(raw, index, edge))
        lines = [ln for ln in read if not any(centred_in(ln.bbox, g.bbox) for g in grids)]
        if lines:
            out.extend(_blocks(number, lines, body))
    for grid in grids:
        at = next((i for i, b in enumerate(out) if b.bbox[1] >= grid.bbox[1]), len(out))
        out.insert(at, grid)
    return in_columns(out, float(page.rect.width))


#: PyMuPDF's table finder strategy for tables drawn with rules (pymupdf4llm's classic default).
TABLE_STRATEGY = "lines_strict"

Word = tuple[float, float, float, float, str]


def ruled_tables(page: Any, number: int) -> list[Block]:
    """The tables PyMuPDF finds on the page's drawn rules, as "table" blocks holding their
    Markdown grid: each cell the text-layer words whose middle lies inside it (`cell_text`),
    rows without any text left out; a table needs two rows with text and two columns."""
    found = page.find_tables(strategy=TABLE_STRATEGY)
    words: list[Word] = [tuple(w[:5]) for w in page.get_text("words", sort=False)]
    out = []
    for table in found.tables:
        rows = [cell_texts(row.cells, words) for row in table.rows]
        rows = [r for r in rows if any(r)]
        if len(rows) >= 2 and table.col_count >= 2:
            out.append(Block(number, as_box(table.bbox), "table", table=grid(rows)))
    return out


def cell_texts(cells: Sequence[Any], words: Sequence[Word]) -> list[str]:
    """The text of each cell box of a table row (`cell_text`; a merged-away cell is blank)."""
    return [cell_text(as_box(c), words) if c is not None else "" for c in cells]


def cell_text(box: tuple[float, float, float, float], words: Sequence[Word]) -> str:
    """The words whose middle lies inside `box`, in the text layer's order, joined by spaces."""
    return " ".join(w[4] for w in words if centred_in(as_box(w), box))


def grid(rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table of `rows` (the first is the header), a cell's pipes escaped."""
    return render_grid([[[cell.replace("|", "\\|")] for cell in row] for row in rows]) + "\n\n"


@dataclass(frozen=True)
class _Box:
    """A block in the form `reading_order` reads: a layout box's edges, class and lines."""

    block: Block
    x0: float
    y0: float
    x1: float
    y1: float
    boxclass: str
    textlines: list[dict[str, Any]]

    @classmethod
    def of(cls, block: Block) -> _Box:
        lines = [
            {"bbox": ln.bbox, "spans": [{"text": s.text} for s in ln.spans]} for ln in block.lines
        ]
        return cls(block, *block.bbox, block.kind, lines)


def in_columns(blocks: Sequence[Block], width: float) -> tuple[Block, ...]:
    """`blocks` of a page `width` wide in column order (`reading_order.read_columns`: a page
    of two prose columns reads its left column, then its right, band by band)."""
    return tuple(box.block for box in read_columns([_Box.of(b) for b in blocks], width))


def _text_of(line: Mapping[str, Any]) -> str:
    return "".join(str(s["text"]) for s in line["spans"] if readable(tuple(s["bbox"]))).strip()


def running_places(
    found: Sequence[Mapping[str, Any]], running: Mapping[str, int], height: float
) -> frozenset[tuple[int, int]]:
    """The (block, line) indexes of the page's running lines: for each running signature the
    page holds `n` times (`running`), the `n` lines of that signature nearest the top or
    bottom edge of a page `height` high whose row (the lines beside them) holds running lines
    only; a table's row number beside its row's text stays text."""
    lines = [
        ((b, i), line_signature(_text_of(line)), line["bbox"])
        for b, raw in enumerate(found)
        for i, line in enumerate(raw.get("lines", ()))
    ]
    spots: dict[str, list[tuple[float, tuple[int, int]]]] = {}
    for place, sig, box in lines:
        if sig not in running:
            continue
        row = [s for _, s, other in lines if _same_row(box, other)]
        if all(s in running or not s for s in row):
            spots.setdefault(sig, []).append((min(box[1], height - box[3]), place))
    return frozenset(
        place for sig, found_at in spots.items() for _, place in sorted(found_at)[: running[sig]]
    )


def _goes_on(last: Mapping[str, Any], first: Mapping[str, Any]) -> bool:
    """Line `first` goes on line `last` of the block before: the same row, starting where
    `last` ends (within `MEET` of its size, or overlapping it by at most a point), with a
    raised span (at most `spans.MARK_SMALLER` of the size of `last`'s last span, its baseline
    at least `spans.RAISED` of that size higher: a footnote mark, an ordinal's "th")."""
    if not last.get("spans") or not first.get("spans"):
        return False
    word, mark = last["spans"][-1], first["spans"][0]
    size = float(word["size"])
    smaller = float(mark["size"]) <= MARK_SMALLER * size
    raised = float(word["origin"][1]) - float(mark["origin"][1]) >= RAISED * size
    gap = first["bbox"][0] - last["bbox"][2]
    meets = _same_row(last["bbox"], first["bbox"]) and -1.0 <= gap <= MEET * size
    return meets and smaller and raised


def rejoined(found: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The page's text-layer blocks with each block whose first line goes on the last line of
    the block before it (`_goes_on`: one row, meeting end to start, opening raised) joined to
    that block: a
    PDF may start a new block at a raised footnote mark, which then opens a paragraph of its
    own ("Engineering" | "1 require.") instead of marking the word it follows."""
    out: list[dict[str, Any]] = []
    for raw in found:
        lines = raw.get("lines") or []
        before = out[-1].get("lines") if out else None
        if before and lines and _goes_on(before[-1], lines[0]):
            bbox = tuple(as_box(out[-1]["bbox"]))
            box = as_box(raw["bbox"])
            union = (min(bbox[0], box[0]), min(bbox[1], box[1]), max(bbox[2], box[2]))
            out[-1] = dict(out[-1], lines=[*before, *lines], bbox=(*union, max(bbox[3], box[3])))
            continue
        out.append(raw)
    return out


def _same_row(a: Sequence[float], b: Sequence[float]) -> bool:
    """The vertical middle of either line lies within the other's height."""
    return a[1] <= (b[1] + b[3]) / 2 <= a[3] or b[1] <= (a[1] + a[3]) / 2 <= b[3]


def _kept(
    raw: Mapping[str, Any], index: int, running: frozenset[tuple[int, int]]
) -> dict[str, Any]:
    """A copy of text-layer block `raw` (the page's `index`-th) with its readable spans only
    and without its `running` lines ((block, line) indexes: `running_places`)."""
    lines = []
    for i, line in enumerate(raw.get("lines", ())):
        spans = [s for s in line["spans"] if readable(tuple(s["bbox"]))]
        if _text_of(line) and (index, i) not in running:
            lines.append(dict(line, spans=spans))
    return dict(raw, lines=lines)


def _lines(raw: dict[str, Any]) -> list[Line]:
    """The block's lines as the layout path reads a box's (`rawlines.raw_lines`: horizontal,
    visible, non-blank spans, pieces of one word joined); none for a block without lines."""
    if not raw["lines"]:
        return []
    read = raw_lines([raw], raw["bbox"], numbered=frozenset())
    return [Line(tuple(rect), tuple(Span.of(s) for s in spans)) for rect, spans in read]


def _block(page: int, kind: Kind, lines: list[Line]) -> Block:
    box = (
        min(ln.bbox[0] for ln in lines),
        min(ln.bbox[1] for ln in lines),
        max(ln.bbox[2] for ln in lines),
        max(ln.bbox[3] for ln in lines),
    )
    return Block(page, box, kind, tuple(lines), depth=1 if kind == "list-item" else 0)


def _text(lines: Iterable[Line]) -> str:
    return " ".join(ln.text.strip() for ln in lines)


def is_heading(lines: list[Line], body: float) -> bool:
    """Whether block `lines` reads as a heading (module docstring)."""
    text = _text(lines)
    size = max(s.size for ln in lines for s in ln.spans)
    bold = all(s.bold for ln in lines for s in ln.spans)
    return (
        (round(size, 1) >= body + LARGER - 0.05 or bold)
        and len(lines) <= HEADING_MAX_LINES
        and len(text) <= HEADING_MAX_CHARS
        and not text.endswith(_SENTENCE_ENDS)
        and not text.startswith(BULLETS)
        and sum(ch.isalpha() for ch in text) >= 2
        and not LEADER_RE.search(text)
    )


def _blocks(page: int, lines: list[Line], body: float) -> list[Block]:
    """One text-layer block's lines as typed blocks (module docstring)."""
    if all(ln.monospace for ln in lines) and not lines[0].raised_start:
        return [_block(page, "code", lines)]
    if is_heading(lines, body):
        return [_block(page, "section-header", lines)]
    lead = next((i for i, ln in enumerate(lines) if not all(s.bold for s in ln.spans)), 0)
    if lead and is_heading(lines[:lead], body):
        return [_block(page, "section-header", lines[:lead]), *_blocks(page, lines[lead:], body)]
    items: list[list[Line]] = [[]]
    for ln in lines:
        if ln.text.lstrip().startswith(BULLETS) and items[-1]:
            items.append([])
        items[-1].append(ln)
    return [
        _block(page, "list-item" if item[0].text.lstrip().startswith(BULLETS) else "text", item)
        for item in items
        if item
    ]
