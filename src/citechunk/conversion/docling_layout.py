"""Offline layout stage for docling: clusters from text-line geometry and fonts, no model weights.

docling's standard PDF pipeline needs a layout stage that labels page regions (heading, text, list
item, table, ...). Its own stage is a neural model whose weights come from the Hugging Face hub,
which this machine cannot reach. `OfflineLayoutModel` is a drop-in `BaseLayoutModel` registered in
docling's layout factory: it reads the text lines docling-parse extracted and groups them into
clusters by font size, weight and position. Everything after it is docling's own pipeline (page
assembly, reading order, heading hierarchy, provenance).

`GridTableModel` fills in the structure of table clusters (rows and columns from cell geometry);
it replaces TableFormer, whose weights are equally unavailable, and whose v2 plugin module imports
torchvision at top level (torchvision does not import under the pinned torch).

Invariants of the clusters emitted by `page_clusters`:
- every non-blank text cell of the page is in exactly one cluster;
- bounding boxes are top-left origin and enclose their cells;
- labels are SECTION_HEADER, LIST_ITEM, TEXT, CODE, TABLE, PAGE_HEADER or PAGE_FOOTER.

This module touches docling internals (factories, `Cluster`, `Table`): docling-slim is pinned.
"""

from __future__ import annotations

import logging
import re
import threading
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any, ClassVar

from docling.datamodel.base_models import (
    Cluster,
    LayoutPrediction,
    Page,
    Table,
    TableStructurePrediction,
)
from docling.datamodel.document import ConversionResult
from docling.datamodel.pipeline_options import BaseLayoutOptions, BaseTableStructureOptions
from docling.models.base_layout_model import BaseLayoutModel
from docling.models.base_table_model import BaseTableStructureModel
from docling_core.types.doc import BoundingBox, CoordOrigin, DocItemLabel, TableCell
from docling_core.types.doc.page import BoundingRectangle, TextCell

log = logging.getLogger(__name__)

LAYOUT_KIND = "citechunk_offline_layout"
TABLE_KIND = "citechunk_grid_table"

# A line at least this much larger than the body text is a heading candidate.
HEADING_SIZE_RATIO = 1.15
# Share of the page height at the top/bottom where running headers and footers live.
MARGIN_BAND = 0.08
# Longest text (characters) a heading may have; bold-only headings must be shorter still.
MAX_HEADING_CHARS = 200
MAX_BOLD_HEADING_CHARS = 120
# Median words per fragment from which a grid of rows is columns of running text, not a table.
PROSE_WORDS = 5

_BOLD_RE = re.compile(
    r"bold|black|heavy|demi|semibold|medium|-medi|cmbx|cmb\d|-bd\b|\.b$|,b$", re.IGNORECASE
)
_MONO_RE = re.compile(
    r"mono|nimbusmon|courier|consola|menlo|typewriter|cmtt|sftt|inconsolata|code", re.IGNORECASE
)
_ITALIC_RE = re.compile(r"italic|ital\b|oblique|-it\b|-obl|cmti|cmsl", re.IGNORECASE)
_BULLET_RE = re.compile(
    r"^\s*[\u2022\u25aa\u25e6\u25cf\u25cb\u25a0\u25a1\u2023\u2043\u2219\u00b7\u27a2\u25ba\u2013\u2014*-]\s"
)
_ENUM_RE = re.compile(r"^\s*(\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\))\s")
_NUMBER_ONLY_RE = re.compile(r"^\s*(?:[0-9]{1,2}(?:\.[0-9]{1,2})*\.?|[IVXLC]{1,5}\.?|[A-Z]\.?)\s*$")
_NUMBERED_RE = re.compile(r"^(?:[IVXLC]{1,5}|[A-Z]|[0-9]{1,2}(?:\.[0-9]{1,2})*)\.?\s+\S")
_LETTER_RE = re.compile(r"[^\W\d_]")


# ----------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Box:
    """Axis-aligned box, top-left origin (t < b)."""

    l: float  # noqa: E741
    t: float
    r: float
    b: float

    @property
    def height(self) -> float:
        return self.b - self.t

    @property
    def width(self) -> float:
        return self.r - self.l

    def union(self, other: Box) -> Box:
        return Box(
            min(self.l, other.l), min(self.t, other.t), max(self.r, other.r), max(self.b, other.b)
        )

    def x_overlap(self, other: Box) -> float:
        return max(0.0, min(self.r, other.r) - max(self.l, other.l))

    def y_overlap(self, other: Box) -> float:
        return max(0.0, min(self.b, other.b) - max(self.t, other.t))


@dataclass(frozen=True)
class Line:
    """One text-line cell with its style, voted by characters over the words inside it
    (docling-parse gives a line the font of its first character only)."""

    cell: TextCell
    box: Box
    text: str
    size: float  # character-weighted median height of its words: a font-size proxy
    chars: int
    bold_chars: int
    mono_chars: int
    italic_chars: int

    @property
    def vertical(self) -> bool:
        """Rotated text (a margin stamp, a table's side label): taller than wide."""
        return self.box.height > 1.5 * self.box.width and len(self.text) > 2


@dataclass(frozen=True)
class Fragment:
    """Lines that sit side by side on one visual row with no column gap between them."""

    lines: tuple[Line, ...]
    box: Box
    text: str
    size: float  # height of the longest line: a font-size proxy
    bold: bool
    mono: bool
    italic: bool

    @property
    def style(self) -> tuple[bool, bool, bool]:
        return (self.bold, self.mono, self.italic)

    @property
    def cells(self) -> list[TextCell]:
        return [line.cell for line in self.lines]


@dataclass(frozen=True)
class Block:
    """Consecutive fragments of one style forming a paragraph, heading, list item or table."""

    fragments: tuple[Fragment, ...]
    label: DocItemLabel = DocItemLabel.TEXT

    @property
    def box(self) -> Box:
        box = self.fragments[0].box
        for f in self.fragments[1:]:
            box = box.union(f.box)
        return box

    @property
    def cells(self) -> list[TextCell]:
        return [c for f in self.fragments for c in f.cells]


def is_bold_font(font_name: str) -> bool:
    """True when a PDF font name says the font is bold (or heavier)."""
    return bool(_BOLD_RE.search(font_name.split("+", 1)[-1]))


def is_mono_font(font_name: str) -> bool:
    """True when a PDF font name says the font is monospaced."""
    return bool(_MONO_RE.search(font_name.split("+", 1)[-1]))


def is_italic_font(font_name: str) -> bool:
    """True when a PDF font name says the font is italic or oblique."""
    return bool(_ITALIC_RE.search(font_name.split("+", 1)[-1]))


def _cell_box(cell: TextCell, page_height: float) -> Box:
    bb = cell.rect.to_bounding_box().to_top_left_origin(page_height)
    return Box(bb.l, bb.t, bb.r, bb.b)


def make_lines(
    cells: Sequence[TextCell], words: Sequence[TextCell], page_height: float
) -> list[Line]:
    """A `Line` per non-blank cell; style from the words whose centre lies inside the line
    (from the line's own font when no word does)."""
    placed = sorted(
        (
            ((b.t + b.b) / 2, (b.l + b.r) / 2, w)
            for w in words
            if w.text.strip()
            for b in [_cell_box(w, page_height)]
        ),
        key=lambda p: (p[0], p[1]),
    )
    centres = [p[0] for p in placed]
    out: list[Line] = []
    for cell in cells:
        if not cell.text.strip():
            continue
        box = _cell_box(cell, page_height)
        inside = [
            w
            for _, x, w in placed[bisect_left(centres, box.t) : bisect_right(centres, box.b)]
            if box.l <= x <= box.r
        ]
        out.append(_line(cell, box, inside or [cell]))
    return out


def _line(cell: TextCell, box: Box, parts: Sequence[TextCell]) -> Line:
    chars = bold = mono = italic = 0
    heights: list[tuple[float, int]] = []
    for part in parts:
        n = len(part.text.strip())
        font = getattr(part, "font_name", "")
        chars += n
        bold += n if is_bold_font(font) else 0
        mono += n if is_mono_font(font) else 0
        italic += n if is_italic_font(font) else 0
        rect = part.rect.to_bounding_box()
        heights.append((rect.height, n))
    size = round(_weighted_median(heights), 1)
    return Line(cell, box, cell.text.strip(), size, chars, bold, mono, italic)


def _weighted_median(values: Sequence[tuple[float, int]]) -> float:
    """Median of (value, weight) pairs; a superscript or a formula glyph does not move it."""
    ordered = sorted(values)
    total, acc = sum(w for _, w in ordered), 0
    for value, weight in ordered:
        acc += weight
        if acc * 2 >= total:
            return value
    return ordered[-1][0] if ordered else 0.0


def make_fragment(lines: Sequence[Line]) -> Fragment:
    """One fragment from lines in left-to-right order; style is the character-weighted vote."""
    box = lines[0].box
    for line in lines[1:]:
        box = box.union(line.box)
    chars = max(1, sum(x.chars for x in lines))
    return Fragment(
        lines=tuple(lines),
        box=box,
        text=" ".join(x.text for x in lines),
        size=max(lines, key=lambda x: x.chars).size,
        bold=sum(x.bold_chars for x in lines) >= 0.75 * chars,
        mono=sum(x.mono_chars for x in lines) >= 0.8 * chars,
        italic=sum(x.italic_chars for x in lines) >= 0.75 * chars,
    )


def group_rows(lines: Sequence[Line]) -> list[list[Line]]:
    """Lines grouped into visual rows (vertical overlap with the row's first line >= half the
    smaller height), top to bottom, each row sorted left to right; vertical text stays alone."""
    rows: list[tuple[Box, list[Line]]] = []
    for line in sorted(lines, key=lambda x: (x.box.t, x.box.l)):
        for anchor, members in rows:
            if line.vertical or members[0].vertical:
                continue
            if anchor.y_overlap(line.box) >= 0.5 * min(anchor.height, line.box.height):
                members.append(line)
                break
        else:
            rows.append((line.box, [line]))
    return [sorted(m, key=lambda x: x.box.l) for _, m in rows]


def split_row(row: Sequence[Line]) -> list[Fragment]:
    """A row's lines merged into fragments: a gap under 0.3 line heights joins two lines, and so
    does a wider gap after a bare section number ("1.2   Scope")."""
    groups: list[list[Line]] = [[row[0]]]
    for line in row[1:]:
        prev = groups[-1][-1]
        gap = line.box.l - prev.box.r
        size = max(prev.box.height, line.box.height)
        numbered = (
            len(groups[-1]) == 1
            and _NUMBER_ONLY_RE.match(prev.text) is not None
            and line.text[:1].isalpha()
        )
        if gap <= 0.3 * size or (numbered and gap <= 4 * size):
            groups[-1].append(line)
        else:
            groups.append([line])
    return [make_fragment(g) for g in groups]


def fragment_rows(lines: Sequence[Line]) -> list[list[Fragment]]:
    return [split_row(r) for r in group_rows(lines)]


# ----------------------------------------------------------------------------- blocks


def find_tables(rows: list[list[Fragment]], min_rows: int = 3) -> list[tuple[int, int]]:
    """Index ranges [start, end) of text set in a grid: a run of at least `min_rows` consecutive
    rows holding three or more fragments each (and not `prose_columns`), widened by adjacent
    rows of two or more fragments (a header row whose cells merged, a sparse total row) that sit
    close above or below."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, row in enumerate([*rows, []]):
        if len(row) >= 3:
            start = i if start is None else start
            continue
        if start is not None and i - start >= min_rows and not prose_columns(rows[start:i]):
            runs.append(_widen(rows, start, i, runs[-1][1] if runs else 0))
        start = None
    return runs


def prose_columns(rows: Sequence[Sequence[Fragment]]) -> bool:
    """Rows whose fragments are lines of running text (median >= `PROSE_WORDS` words, and at
    most a fifth under 3 words): a page set in two or three columns, not a table. A table has
    short cells (numbers, names, codes) in at least some of its columns."""
    words = sorted(len(f.text.split()) for row in rows for f in row)
    if not words:
        return False
    short = sum(1 for w in words if w < 3)
    return words[len(words) // 2] >= PROSE_WORDS and short <= len(words) / 5


def _row_box(row: Sequence[Fragment]) -> Box:
    return Block(tuple(row)).box


def _close(upper: Sequence[Fragment], lower: Sequence[Fragment]) -> bool:
    a, b = _row_box(upper), _row_box(lower)
    return len(upper) >= 2 and len(lower) >= 2 and b.t - a.b <= max(a.height, b.height)


def _header_row(row: Sequence[Fragment], table: Box) -> bool:
    """A single-fragment row right above a table, as wide as half of it and inside its span:
    a header row whose cells docling-parse joined into one text line."""
    box = _row_box(row)
    near = 0 <= table.t - box.b <= 0.8 * box.height
    inside = box.l >= table.l - 3 * box.height and box.r <= table.r + 3 * box.height
    return len(row) == 1 and near and inside and box.width >= 0.5 * table.width


def _widen(rows: list[list[Fragment]], start: int, end: int, floor: int) -> tuple[int, int]:
    while start > floor and _close(rows[start - 1], rows[start]):
        start -= 1
    table = Block(tuple(f for row in rows[start:end] for f in row)).box
    if start > floor and _header_row(rows[start - 1], table):
        start -= 1
    while end < len(rows) and len(rows[end]) < 3 and _close(rows[end - 1], rows[end]):
        end += 1
    return start, end


def _continues(block: list[Fragment], frag: Fragment) -> bool:
    """Whether `frag` is the next line of the paragraph whose fragments are `block`."""
    last = block[-1]
    if last.lines[0].vertical or frag.lines[0].vertical:
        return False
    size = max(last.size, 1.0)
    gap = frag.box.t - last.box.b
    if gap < -0.3 * size or gap > 0.6 * size:
        return False
    if abs(frag.size - block[0].size) > 0.12 * size or frag.style != block[0].style:
        return False
    if starts_list_item(frag.text):
        return False
    aligned = abs(frag.box.l - last.box.l) <= 1.5 * size
    return aligned or last.box.x_overlap(frag.box) >= 0.5 * min(last.box.width, frag.box.width)


def starts_list_item(text: str) -> bool:
    return bool(_BULLET_RE.match(text) or _ENUM_RE.match(text))


def build_blocks(fragments: Sequence[Fragment]) -> list[list[Fragment]]:
    """Fragments (any order) grouped into paragraphs: each joins the nearest block above that it
    continues, else starts a new block."""
    blocks: list[list[Fragment]] = []
    for frag in sorted(fragments, key=lambda f: (f.box.t, f.box.l)):
        fitting = [b for b in blocks if _continues(b, frag)]
        if fitting:
            max(fitting, key=lambda b: b[-1].box.b).append(frag)
        else:
            blocks.append([frag])
    return blocks


@dataclass(frozen=True)
class PageContext:
    """What classification needs to know beyond the block itself."""

    body_size: float
    page_height: float
    strip_headers_footers: bool


def classify(block: list[Fragment], ctx: PageContext) -> DocItemLabel:
    """Label of a text block (tables are found before, by `find_tables`)."""
    text = " ".join(f.text for f in block)
    box = Block(tuple(block)).box
    if any(line.vertical for f in block for line in f.lines):
        return DocItemLabel.PAGE_HEADER if ctx.strip_headers_footers else DocItemLabel.TEXT
    heading = is_heading(block, text, ctx.body_size)
    if ctx.strip_headers_footers and not heading and len(block) <= 2 and len(text) <= 160:
        if (
            box.b <= ctx.page_height * MARGIN_BAND
            and block[0].size <= ctx.body_size * HEADING_SIZE_RATIO
        ):
            return DocItemLabel.PAGE_HEADER
        if box.t >= ctx.page_height * (1 - MARGIN_BAND):
            return DocItemLabel.PAGE_FOOTER
    if all(f.mono for f in block):
        return DocItemLabel.CODE
    if heading:
        return DocItemLabel.SECTION_HEADER
    if starts_list_item(text):
        return DocItemLabel.LIST_ITEM
    return DocItemLabel.TEXT


def is_heading(block: list[Fragment], text: str, body_size: float) -> bool:
    """Short blocks with three letters or more that are set larger than the body text, or bold
    at body size, or are one numbered line in capitals ("IV. TEXT DATA", small caps)."""
    letters = _LETTER_RE.findall(text)
    if len(letters) < 3 or len(block) > 3 or len(text) > MAX_HEADING_CHARS:
        return False
    if text.rstrip().endswith(".") and len(text.split()) >= 8:
        return False  # a sentence set in large or bold type
    if "=" in text:
        return False  # a displayed formula (its glyphs make the line look large)
    size = block[0].size
    if size >= body_size * HEADING_SIZE_RATIO:
        # several lines of slightly larger text are a paragraph unless short (a wrapped title)
        return len(block) == 1 or len(text) <= 100 or size >= body_size * 1.3
    if _numbered_line(block, text, letters) and size >= body_size * 0.85:
        return True
    bold_heading = block[0].bold and len(block) <= 2 and len(text) <= MAX_BOLD_HEADING_CHARS
    return bold_heading and size >= body_size * 0.9 and not text.rstrip().endswith((",", ";"))


def _numbered_line(block: list[Fragment], text: str, letters: list[str]) -> bool:
    """One short numbered line in capitals or italics, at body size: "IV. TEXT DATA" (small
    caps), "A. Google DeepDream" (italic)."""
    caps = len(letters) >= 4 and all(c.isupper() for c in letters)
    short = len(block) == 1 and len(text) <= 80 and _NUMBERED_RE.match(text) is not None
    return short and (caps or block[0].italic)


def body_size(sizes: Counter[float]) -> float:
    """The most common line height weighted by characters (ties: the smaller)."""
    if not sizes:
        return 10.0
    top = max(sizes.values())
    return min(s for s, n in sizes.items() if n == top)


def size_histogram(fragments: Sequence[Fragment]) -> Counter[float]:
    hist: Counter[float] = Counter()
    for f in fragments:
        hist[round(f.size * 2) / 2] += len(f.text)
    return hist


def page_clusters(rows: list[list[Fragment]], ctx: PageContext) -> list[Cluster]:
    """The page's fragment rows (`fragment_rows`) grouped and labelled (see module invariants)."""
    blocks: list[Block] = []
    in_table: set[int] = set()
    for start, end in find_tables(rows):
        blocks.append(Block(tuple(f for row in rows[start:end] for f in row), DocItemLabel.TABLE))
        in_table.update(range(start, end))
    loose = [f for i, row in enumerate(rows) if i not in in_table for f in row]
    for frags in build_blocks(loose):
        blocks.append(Block(tuple(frags), classify(frags, ctx)))
    return [_cluster(i, b) for i, b in enumerate(blocks)]


def _cluster(index: int, block: Block) -> Cluster:
    box = block.box
    bbox = BoundingBox(l=box.l, t=box.t, r=box.r, b=box.b, coord_origin=CoordOrigin.TOPLEFT)
    cells = [_code_cell(block, bbox)] if block.label == DocItemLabel.CODE else block.cells
    return Cluster(id=index, label=block.label, bbox=bbox, confidence=1.0, cells=cells)


def _code_cell(block: Block, bbox: BoundingBox) -> TextCell:
    """The lines of a code block as one cell whose text keeps the line breaks (docling joins a
    cluster's cells with spaces, which would flatten code)."""
    text = "\n".join(f.text for f in block.fragments)
    rect = BoundingRectangle.from_bounding_box(bbox)
    return block.cells[0].model_copy(update={"text": text, "orig": text, "rect": rect})


# ----------------------------------------------------------------------------- docling stages


class OfflineLayoutOptions(BaseLayoutOptions):
    """Options of `OfflineLayoutModel` (kind ``citechunk_offline_layout``)."""

    kind: ClassVar[str] = LAYOUT_KIND
    strip_headers_footers: bool = True


class OfflineLayoutModel(BaseLayoutModel):
    """docling layout stage without weights: clusters from `page_clusters`.

    The body text size is a running character-weighted histogram over the pages of the current
    document seen so far, so a title page does not set the scale alone. Pages must arrive in
    page order for the output to be reproducible (the backend uses one parser thread).
    Clusters are final: docling's layout post-processor (tuned for model confidences) is skipped.
    """

    requires_layout_postprocessing = False

    def __init__(
        self,
        artifacts_path: Any,
        accelerator_options: Any,
        options: OfflineLayoutOptions,
        enable_remote_services: bool = False,
    ) -> None:
        self.options = options
        self._lock = threading.Lock()
        self._doc_key = ""
        self._sizes: Counter[float] = Counter()

    @classmethod
    def get_options_type(cls) -> type[OfflineLayoutOptions]:
        return OfflineLayoutOptions

    def _running_body_size(self, conv_res: ConversionResult, page_hist: Counter[float]) -> float:
        key = f"{id(conv_res)}:{conv_res.input.document_hash}"
        with self._lock:
            if key != self._doc_key:
                self._doc_key, self._sizes = key, Counter()
            self._sizes.update(page_hist)
            return body_size(self._sizes)

    def predict_layout(
        self, conv_res: ConversionResult, pages: Sequence[Page]
    ) -> Sequence[LayoutPrediction]:
        predictions: list[LayoutPrediction] = []
        for page in pages:
            if page.size is None or not page.cells:
                predictions.append(LayoutPrediction())
                continue
            words = page.parsed_page.word_cells if page.parsed_page is not None else []
            rows = fragment_rows(make_lines(page.cells, words, page.size.height))
            ctx = PageContext(
                body_size=self._running_body_size(
                    conv_res, size_histogram([f for r in rows for f in r])
                ),
                page_height=page.size.height,
                strip_headers_footers=self.options.strip_headers_footers,
            )
            predictions.append(LayoutPrediction(clusters=page_clusters(rows, ctx)))
        return predictions


class GridTableOptions(BaseTableStructureOptions):
    """Options of `GridTableModel` (kind ``citechunk_grid_table``)."""

    kind: ClassVar[str] = TABLE_KIND


def column_bands(rows: Sequence[Sequence[Fragment]]) -> list[tuple[float, float]]:
    """Column x-ranges taken from the rows with the most fragments, left to right."""
    widest = max(len(r) for r in rows)
    bands: list[tuple[float, float]] = []
    for row in rows:
        if len(row) != widest:
            continue
        for i, f in enumerate(row):
            if i == len(bands):
                bands.append((f.box.l, f.box.r))
            else:
                bands[i] = (min(bands[i][0], f.box.l), max(bands[i][1], f.box.r))
    return bands


def gutter_bands(word_rows: Sequence[Sequence[Fragment]]) -> list[tuple[float, float]]:
    """Column x-ranges separated by gutters: x-runs at least 0.6 line heights wide that the
    words of at most a tenth of the rows cover (a spanning title or header row may cross)."""
    boxes = [[f.box for f in row] for row in word_rows if row]
    if not boxes:
        return []
    left = int(min(b.l for row in boxes for b in row))
    right = int(max(b.r for row in boxes for b in row)) + 1
    cover = [0] * (right - left + 1)
    for row in boxes:
        hit: set[int] = set()
        for b in row:
            hit.update(range(int(b.l) - left, int(b.r) - left + 1))
        for x in hit:
            cover[x] += 1
    limit = len(boxes) // 10
    min_gap = 0.6 * median(b.height for row in boxes for b in row)
    bands: list[tuple[float, float]] = []
    start: int | None = None
    gap = 0
    for x, n in enumerate([*cover, 0]):
        if n > limit:
            start, gap = (x if start is None else start), 0
            continue
        gap += 1
        if start is not None and (gap >= min_gap or x == len(cover)):
            bands.append((left + start, left + x - gap + 1))
            start = None
    return bands


def _band_of(frag: Fragment, bands: Sequence[tuple[float, float]]) -> int:
    """The band the fragment overlaps most; without overlap, the last band starting left of it."""
    overlaps = [max(0.0, min(r, frag.box.r) - max(lo, frag.box.l)) for lo, r in bands]
    if max(overlaps) > 0:
        return overlaps.index(max(overlaps))
    return max([i for i, (lo, _) in enumerate(bands) if lo <= frag.box.l], default=0)


def grid_cells(
    rows: Sequence[Sequence[Fragment]], word_rows: Sequence[Sequence[Fragment]]
) -> list[TableCell]:
    """One `TableCell` per occupied (row, column); the first row is the column header.

    Columns are the x-bands of the widest `rows` (text lines) or the gutters between the words
    of the body rows, whichever finds more; the text is placed word by word (`word_rows`), so a
    line that joins several columns is split along the bands.
    """
    bands = max(column_bands(rows), gutter_bands(word_rows[1:] or word_rows), key=len)
    out: list[TableCell] = []
    for r, row in enumerate(word_rows):
        slots: dict[int, list[Fragment]] = {}
        for f in row:
            slots.setdefault(_band_of(f, bands), []).append(f)
        for c, frags in sorted(slots.items()):
            box = Block(tuple(frags)).box
            out.append(
                TableCell(
                    bbox=BoundingBox(
                        l=box.l, t=box.t, r=box.r, b=box.b, coord_origin=CoordOrigin.TOPLEFT
                    ),
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + 1,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + 1,
                    text=" ".join(f.text for f in frags),
                    column_header=r == 0,
                )
            )
    return out


def _otsl(cells: Sequence[TableCell], n_rows: int, n_cols: int) -> list[str]:
    filled = {(c.start_row_offset_idx, c.start_col_offset_idx) for c in cells}
    seq: list[str] = []
    for r in range(n_rows):
        seq.extend("fcel" if (r, c) in filled else "ecel" for c in range(n_cols))
        seq.append("nl")
    return seq


class GridTableModel(BaseTableStructureModel):
    """Table structure from cell geometry: rows by vertical overlap, columns by x-bands."""

    def __init__(
        self,
        enabled: bool,
        artifacts_path: Any,
        options: GridTableOptions,
        accelerator_options: Any,
        enable_remote_services: bool = False,
    ) -> None:
        self.enabled = enabled
        self.options = options

    @classmethod
    def get_options_type(cls) -> type[GridTableOptions]:
        return GridTableOptions

    def predict_tables(
        self, conv_res: ConversionResult, pages: Sequence[Page]
    ) -> Sequence[TableStructurePrediction]:
        out: list[TableStructurePrediction] = []
        for page in pages:
            pred = TableStructurePrediction()
            clusters = page.predictions.layout.clusters if page.predictions.layout else []
            for cluster in clusters:
                if cluster.label == DocItemLabel.TABLE and cluster.cells:
                    pred.table_map[cluster.id] = self._table(cluster, page)
            out.append(pred)
        return out

    @staticmethod
    def _table(cluster: Cluster, page: Page) -> Table:
        height = page.size.height if page.size is not None else 0.0
        box = cluster.bbox.to_top_left_origin(height)
        words = [
            w
            for w in (page.parsed_page.word_cells if page.parsed_page is not None else [])
            if w.text.strip() and _centre_inside(_cell_box(w, height), box)
        ]
        rows = fragment_rows(make_lines(cluster.cells, [], height))
        word_rows = [
            [make_fragment([w]) for w in r] for r in group_rows(make_lines(words, [], height))
        ]
        cells = grid_cells(rows, word_rows or rows)
        n_rows = max(c.end_row_offset_idx for c in cells)
        n_cols = max(c.end_col_offset_idx for c in cells)
        return Table(
            label=cluster.label,
            id=cluster.id,
            page_no=page.page_no,
            cluster=cluster,
            text="",
            otsl_seq=_otsl(cells, n_rows, n_cols),
            num_rows=n_rows,
            num_cols=n_cols,
            table_cells=cells,
        )


def _centre_inside(box: Box, outer: BoundingBox) -> bool:
    x, y = (box.l + box.r) / 2, (box.t + box.b) / 2
    return outer.l <= x <= outer.r and outer.t <= y <= outer.b


# ----------------------------------------------------------------------------- registration

_registered = False
_register_lock = threading.Lock()


def register() -> None:
    """Make both stages known to docling (idempotent).

    The layout stage joins docling's own (cached) layout factories. The table-structure factory
    cannot be built the normal way here (its default plugin list imports torchvision), so the
    pipeline module's factory getter is pointed at a factory holding `GridTableModel` only.
    """
    global _registered
    with _register_lock:
        if _registered:
            return
        from docling.models.factories import get_layout_factory
        from docling.models.factories.table_factory import TableStructureFactory
        from docling.pipeline import standard_pdf_pipeline

        for external in (False, True):
            factory = get_layout_factory(allow_external_plugins=external)
            if OfflineLayoutOptions not in factory.classes:
                factory.register(OfflineLayoutModel, "citechunk", __name__)
        tables = TableStructureFactory()
        tables.register(GridTableModel, "citechunk", __name__)

        def table_factory(allow_external_plugins: bool = False) -> TableStructureFactory:
            return tables

        standard_pdf_pipeline.get_table_structure_factory = table_factory  # type: ignore[assignment]
        _registered = True
