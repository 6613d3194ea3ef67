"""Page geometry rules shared by both backends: no PDF library, no docling, only boxes and text.

Coordinates are PDF points with a top-left origin (y grows downwards). The types are small and
frozen; the functions are pure, so each rule can be tested on hand-built geometry.

* Gutters: `free_runs` is the one gutter finder (x-runs that the spans of at most N rows cover);
  `gutters` and `columns` are its two readings (the gaps, the stretches between them).
  `prose_columns` is the one test of whether the text beside a gutter is running text; each
  caller states its `ProseRule`.
* Layout (docling backend): PDF text lines (`TextPiece`, style voted from the words inside them) ->
  visual rows -> `Fragment`s (lines of a row with no column gap between them) -> `Block`s
  labelled by `Kind` (`page_blocks`); tables are runs of grid rows (`find_tables`) and their
  cells come from column bands and gutters (`grid_cells`).

Invariants of `page_blocks`: every line of the page is in exactly one block; a block's `rect`
encloses its lines.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from statistics import median

from ..textkeys import LETTER_RE
from .numbers import bare_number, opens_with_number

# A line at least this much larger than the body text is a heading candidate.
HEADING_SIZE_RATIO = 1.15
# Longest text (characters) a heading may have; bold-only headings must be shorter still.
MAX_HEADING_CHARS = 200
MAX_BOLD_HEADING_CHARS = 120

_BOLD_RE = re.compile(
    r"bold|black|heavy|demi|semibold|medium|-medi|cmbx|cmb\d|-bd\b|\.b$|,b$", re.IGNORECASE
)
_MONO_RE = re.compile(
    r"mono|nimbusmon|courier|consola|menlo|typewriter|cmtt|sftt|inconsolata|(?<!uni)code",
    re.IGNORECASE,
)
_ITALIC_RE = re.compile(r"italic|ital\b|oblique|-it\b|-obl|cmti|cmsl", re.IGNORECASE)
_BULLET_RE = re.compile(
    r"^\s*[\u2022\u25aa\u25e6\u25cf\u25cb\u25a0\u25a1\u2023\u2043\u2219\u00b7\u27a2\u25ba\u2013\u2014*-]\s"
)
_ENUM_RE = re.compile(r"^\s*(\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\))\s")
LEADER_RE = re.compile(r"(\.\s?){4,}")  # dot leaders of a table of contents line

Span = tuple[float, float]


# ----------------------------------------------------------------------------- types


@dataclass(frozen=True)
class Rect:
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

    def union(self, other: Rect) -> Rect:
        return Rect(
            min(self.l, other.l), min(self.t, other.t), max(self.r, other.r), max(self.b, other.b)
        )

    def x_overlap(self, other: Rect) -> float:
        return max(0.0, min(self.r, other.r) - max(self.l, other.l))

    def y_overlap(self, other: Rect) -> float:
        return max(0.0, min(self.b, other.b) - max(self.t, other.t))


def enclosing(rects: Sequence[Rect]) -> Rect:
    """The smallest `Rect` holding all of `rects` (at least one)."""
    out = rects[0]
    for rect in rects[1:]:
        out = out.union(rect)
    return out


@dataclass(frozen=True)
class TextPiece:
    """A piece of text as the PDF parser gives it (a word, or a whole text line): its box, raw
    text, font name and glyph height (the parser's box height, a font-size proxy)."""

    rect: Rect
    text: str
    font: str = ""
    size: float = 0.0


@dataclass(frozen=True)
class StyledLine:
    """One text line with its style, voted by characters over the words inside it (a parser
    may give a line the font of its first character only). `index` is the line's position in
    the sequence given to `make_lines`."""

    index: int
    rect: Rect
    text: str
    size: float  # character-weighted median height of its words: a font-size proxy
    chars: int
    bold_chars: int
    mono_chars: int
    italic_chars: int

    @property
    def vertical(self) -> bool:
        """Rotated text (a margin stamp, a table's side label): taller than wide."""
        return self.rect.height > 1.5 * self.rect.width and len(self.text) > 2


@dataclass(frozen=True)
class Fragment:
    """Lines that sit side by side on one visual row with no column gap between them."""

    lines: tuple[StyledLine, ...]
    rect: Rect
    text: str
    size: float  # size of the line with the most characters: a font-size proxy
    bold: bool
    mono: bool
    italic: bool

    @property
    def style(self) -> tuple[bool, bool, bool]:
        return (self.bold, self.mono, self.italic)

    @property
    def indices(self) -> list[int]:
        return [line.index for line in self.lines]


class Kind(Enum):
    """What a block is; the values are docling's label names."""

    TEXT = "text"
    SECTION_HEADER = "section_header"
    LIST_ITEM = "list_item"
    CODE = "code"
    TABLE = "table"
    PAGE_HEADER = "page_header"
    PAGE_FOOTER = "page_footer"


@dataclass(frozen=True)
class Block:
    """Consecutive fragments forming a paragraph, heading, list item, code block or table."""

    fragments: tuple[Fragment, ...]
    kind: Kind = Kind.TEXT

    @property
    def rect(self) -> Rect:
        return enclosing([f.rect for f in self.fragments])

    @property
    def indices(self) -> list[int]:
        return [i for f in self.fragments for i in f.indices]


@dataclass(frozen=True)
class GridCell:
    """One occupied cell of a table grid (0-based row and column)."""

    row: int
    col: int
    rect: Rect
    text: str


@dataclass(frozen=True)
class PageContext:
    """What block classification needs to know beyond the block itself."""

    body_size: float
    page_height: float
    strip_headers_footers: bool


# ----------------------------------------------------------------------------- style votes


def is_bold_font(font_name: str) -> bool:
    """True when a PDF font name says the font is bold (or heavier)."""
    return bool(_BOLD_RE.search(font_name.split("+", 1)[-1]))


def is_mono_font(font_name: str) -> bool:
    """True when a PDF font name says the font is monospaced."""
    return bool(_MONO_RE.search(font_name.split("+", 1)[-1]))


def is_italic_font(font_name: str) -> bool:
    """True when a PDF font name says the font is italic or oblique."""
    return bool(_ITALIC_RE.search(font_name.split("+", 1)[-1]))


def make_lines(cells: Sequence[TextPiece], words: Sequence[TextPiece]) -> list[StyledLine]:
    """A `StyledLine` per non-blank text line of `cells`; its style from the `words` whose centre lies
    inside the line (from the line's own font when no word does)."""
    placed = sorted(
        (
            ((w.rect.t + w.rect.b) / 2, (w.rect.l + w.rect.r) / 2, w)
            for w in words
            if w.text.strip()
        ),
        key=lambda p: (p[0], p[1]),
    )
    centres = [p[0] for p in placed]
    out: list[StyledLine] = []
    for index, cell in enumerate(cells):
        if not cell.text.strip():
            continue
        box = cell.rect
        inside = [
            w
            for _, x, w in placed[bisect_left(centres, box.t) : bisect_right(centres, box.b)]
            if box.l <= x <= box.r
        ]
        out.append(_line(index, cell, inside or [cell]))
    return out


def _line(index: int, cell: TextPiece, parts: Sequence[TextPiece]) -> StyledLine:
    chars = bold = mono = italic = 0
    heights: list[tuple[float, int]] = []
    for part in parts:
        n = len(part.text.strip())
        chars += n
        bold += n if is_bold_font(part.font) else 0
        mono += n if is_mono_font(part.font) else 0
        italic += n if is_italic_font(part.font) else 0
        heights.append((part.size, n))
    size = round(weighted_median(heights), 1)
    return StyledLine(index, cell.rect, cell.text.strip(), size, chars, bold, mono, italic)


def weighted_median(values: Sequence[tuple[float, int]]) -> float:
    """Lower weighted median of (value, weight) pairs: a superscript or a formula glyph does not
    move it. 0.0 for no values."""
    ordered = sorted(values)
    total, acc = sum(w for _, w in ordered), 0
    for value, weight in ordered:
        acc += weight
        if acc * 2 >= total:
            return value
    return ordered[-1][0] if ordered else 0.0


def make_fragment(lines: Sequence[StyledLine]) -> Fragment:
    """One fragment from lines in left-to-right order; its size is that of the line with the
    most characters; bold and italic need 75% of the characters, monospace 80%."""
    chars = max(1, sum(x.chars for x in lines))
    return Fragment(
        lines=tuple(lines),
        rect=enclosing([x.rect for x in lines]),
        text=" ".join(x.text for x in lines),
        size=max(lines, key=lambda x: x.chars).size,
        bold=sum(x.bold_chars for x in lines) >= 0.75 * chars,
        mono=sum(x.mono_chars for x in lines) >= 0.8 * chars,
        italic=sum(x.italic_chars for x in lines) >= 0.75 * chars,
    )


# ----------------------------------------------------------------------------- rows


def group_rows(lines: Sequence[StyledLine]) -> list[list[StyledLine]]:
    """Lines grouped into visual rows (vertical overlap with the row's first line >= half the
    smaller height), top to bottom, each row sorted left to right; vertical text stays alone."""
    rows: list[tuple[Rect, list[StyledLine]]] = []
    for line in sorted(lines, key=lambda x: (x.rect.t, x.rect.l)):
        for anchor, members in rows:
            if line.vertical or members[0].vertical:
                continue
            if anchor.y_overlap(line.rect) >= 0.5 * min(anchor.height, line.rect.height):
                members.append(line)
                break
        else:
            rows.append((line.rect, [line]))
    return [sorted(m, key=lambda x: x.rect.l) for _, m in rows]


def split_row(row: Sequence[StyledLine]) -> list[Fragment]:
    """A row's lines merged into fragments: a gap under 0.3 line heights joins two lines, and so
    does a wider gap (up to 4 line heights) after a bare section number ("1.2   Scope")."""
    groups: list[list[StyledLine]] = [[row[0]]]
    for line in row[1:]:
        prev = groups[-1][-1]
        gap = line.rect.l - prev.rect.r
        size = max(prev.rect.height, line.rect.height)
        numbered = len(groups[-1]) == 1 and bare_number(prev.text) and line.text[:1].isalpha()
        if gap <= 0.3 * size or (numbered and gap <= 4 * size):
            groups[-1].append(line)
        else:
            groups.append([line])
    return [make_fragment(g) for g in groups]


def fragment_rows(lines: Sequence[StyledLine]) -> list[list[Fragment]]:
    """The lines as visual rows of fragments, top to bottom."""
    return [split_row(r) for r in group_rows(lines)]


# ----------------------------------------------------------------------------- gutters, prose


def free_runs(
    rows: Sequence[Sequence[Span]], max_cross: int = 0, start: float | None = None
) -> list[Span]:
    """The gutter finder: maximal x-runs, from `start` (default: the leftmost span start) to the
    rightmost span end, that the spans of at most `max_cross` rows cover; left to right.

    A span ``(x0, x1)`` covers ``x0 <= x < x1`` (an empty span covers nothing); a row covers x
    once however many of its spans do. Runs left of `start` are cut off; no run is empty.
    """
    events: Counter[float] = Counter()
    for row in rows:
        for x0, x1 in _union(row):
            events[x0] += 1
            events[x1] -= 1
    if not events:
        return []
    xs = sorted(events)
    lo = xs[0] if start is None else min(start, xs[0])
    runs: list[Span] = []
    cover, open_at = 0, lo if lo < xs[0] else None
    for x in xs:
        cover += events[x]
        if cover <= max_cross and open_at is None:
            open_at = x
        elif cover > max_cross and open_at is not None:
            runs.append((open_at, x))
            open_at = None
    if open_at is not None and open_at < xs[-1]:
        runs.append((open_at, xs[-1]))
    if start is not None:
        runs = [(max(a, start), b) for a, b in runs if b > start]
    return [(a, b) for a, b in runs if b > a]


def _union(spans: Sequence[Span]) -> list[Span]:
    """The non-empty spans merged where they overlap or touch, left to right."""
    out: list[Span] = []
    for x0, x1 in sorted(s for s in spans if s[1] > s[0]):
        if out and x0 <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], x1))
        else:
            out.append((x0, x1))
    return out


def gutters(rows: Sequence[Sequence[Span]], min_width: float, max_cross: int = 0) -> list[Span]:
    """`free_runs` at least `min_width` wide with spans on both sides, left to right."""
    runs = free_runs(rows, max_cross)
    covered = columns(rows, 0.0, max_cross)
    if not covered:
        return []
    lo, hi = covered[0][0], covered[-1][1]
    return [(a, b) for a, b in runs if b - a >= min_width and lo < a and b < hi]


def columns(rows: Sequence[Sequence[Span]], min_width: float, max_cross: int = 0) -> list[Span]:
    """The x-stretches between gutters: maximal runs that more than `max_cross` rows cover,
    joined across `free_runs` narrower than `min_width`; left to right."""
    spans = [s for row in rows for s in row if s[1] > s[0]]
    if not spans:
        return []
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    covered: list[Span] = []
    pos = lo
    for a, b in [*free_runs(rows, max_cross), (hi, hi)]:
        if a > pos:
            covered.append((pos, a))
        pos = b
    out: list[Span] = []
    for a, b in covered:
        if out and a - out[-1][1] < min_width:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


@dataclass(frozen=True)
class ProseRule:
    """When the text of one column is running text rather than short cells: at least
    `min_pieces` pieces (lines, boxes or fragments) and `min_chars` characters, a mean of at
    least `min_mean_chars` characters and a median of at least `min_median_words` words per
    piece, and at most `max_short_share` of the pieces under `short_words` words."""

    min_pieces: float = 1
    min_chars: int = 0
    min_mean_chars: float = 0.0
    min_median_words: int = 0
    short_words: int = 3
    max_short_share: float = 1.0


def is_prose(pieces: Sequence[Sequence[str]], rule: ProseRule) -> bool:
    """Whether `pieces`, each given as its text runs (spans, lines), pass `rule`; characters
    are counted without surrounding blanks, the median is the upper one. Never for no pieces."""
    if len(pieces) < max(rule.min_pieces, 1):
        return False
    chars = [sum(len(run.strip()) for run in piece) for piece in pieces]
    words = sorted(sum(len(run.split()) for run in piece) for piece in pieces)
    short = sum(1 for w in words if w < rule.short_words)
    return (
        sum(chars) >= rule.min_chars
        and sum(chars) / len(pieces) >= rule.min_mean_chars
        and words[len(words) // 2] >= rule.min_median_words
        and short <= len(words) * rule.max_short_share
    )


def prose_columns(sides: Sequence[Sequence[Sequence[str]]], rule: ProseRule) -> bool:
    """The prose-column test: every side of a gutter (or all columns pooled, as one side) is
    running text by `rule` (`is_prose`); False without sides."""
    return bool(sides) and all(is_prose(side, rule) for side in sides)


# ----------------------------------------------------------------------------- tables

# A grid whose fragments are lines of running text is a page set in two or three columns, not a
# table: a table has short cells (numbers, names, codes) in at least some of its columns.
GRID_PROSE = ProseRule(min_median_words=5, short_words=3, max_short_share=0.2)


def grid_is_prose(rows: Sequence[Sequence[Fragment]]) -> bool:
    """`prose_columns` of all the rows' fragments pooled, by `GRID_PROSE`."""
    return prose_columns([[[f.text] for row in rows for f in row]], GRID_PROSE)


def find_tables(rows: list[list[Fragment]], min_rows: int = 3) -> list[tuple[int, int]]:
    """Index ranges [start, end) of text set in a grid: a run of at least `min_rows` consecutive
    rows holding three or more fragments each (and not `grid_is_prose`), widened by adjacent
    rows of two or more fragments (a header row whose cells merged, a sparse total row) that sit
    close above or below, and by a `_header_row` above."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, row in enumerate([*rows, []]):
        if len(row) >= 3:
            start = i if start is None else start
            continue
        if start is not None and i - start >= min_rows and not grid_is_prose(rows[start:i]):
            runs.append(_widen(rows, start, i, runs[-1][1] if runs else 0))
        start = None
    return runs


def _row_rect(row: Sequence[Fragment]) -> Rect:
    return enclosing([f.rect for f in row])


def _close(upper: Sequence[Fragment], lower: Sequence[Fragment]) -> bool:
    a, b = _row_rect(upper), _row_rect(lower)
    return len(upper) >= 2 and len(lower) >= 2 and b.t - a.b <= max(a.height, b.height)


def _header_row(row: Sequence[Fragment], table: Rect) -> bool:
    """A single-fragment row right above a table, as wide as half of it and inside its span:
    a header row whose cells the parser joined into one text line."""
    box = _row_rect(row)
    near = 0 <= table.t - box.b <= 0.8 * box.height
    inside = box.l >= table.l - 3 * box.height and box.r <= table.r + 3 * box.height
    return len(row) == 1 and near and inside and box.width >= 0.5 * table.width


def _widen(rows: list[list[Fragment]], start: int, end: int, floor: int) -> tuple[int, int]:
    while start > floor and _close(rows[start - 1], rows[start]):
        start -= 1
    table = enclosing([f.rect for row in rows[start:end] for f in row])
    if start > floor and _header_row(rows[start - 1], table):
        start -= 1
    while end < len(rows) and len(rows[end]) < 3 and _close(rows[end - 1], rows[end]):
        end += 1
    return start, end


def column_bands(rows: Sequence[Sequence[Fragment]]) -> list[Span]:
    """Column x-ranges taken from the rows with the most fragments, left to right."""
    widest = max(len(r) for r in rows)
    bands: list[Span] = []
    for row in rows:
        if len(row) != widest:
            continue
        for i, f in enumerate(row):
            if i == len(bands):
                bands.append((f.rect.l, f.rect.r))
            else:
                bands[i] = (min(bands[i][0], f.rect.l), max(bands[i][1], f.rect.r))
    return bands


def gutter_bands(word_rows: Sequence[Sequence[Fragment]]) -> list[Span]:
    """Column x-ranges separated by gutters: `columns` on whole points (a word covers the points
    from its left edge's to its right edge's, both included), gutters at least 0.6 median word
    heights wide that the words of at most a tenth of the rows cover (a spanning title or header
    row may cross)."""
    rows = [[f.rect for f in row] for row in word_rows if row]
    if not rows:
        return []
    spans = [[(float(int(b.l)), float(int(b.r) + 1)) for b in row] for row in rows]
    min_gap = 0.6 * median(b.height for row in rows for b in row)
    return columns(spans, min_gap, max_cross=len(rows) // 10)


def _band_of(frag: Fragment, bands: Sequence[Span]) -> int:
    """The band the fragment overlaps most; without overlap, the last band starting left of it."""
    overlaps = [max(0.0, min(r, frag.rect.r) - max(lo, frag.rect.l)) for lo, r in bands]
    if max(overlaps) > 0:
        return overlaps.index(max(overlaps))
    return max([i for i, (lo, _) in enumerate(bands) if lo <= frag.rect.l], default=0)


def grid_cells(
    rows: Sequence[Sequence[Fragment]], word_rows: Sequence[Sequence[Fragment]]
) -> list[GridCell]:
    """One `GridCell` per occupied (row, column), row by row, left to right.

    Columns are the x-bands of the widest `rows` (text lines) or the gutters between the words
    of the body rows (all but the first), whichever finds more; the text is placed word by word
    (`word_rows`), so a line that joins several columns is split along the bands.
    """
    bands = max(column_bands(rows), gutter_bands(word_rows[1:] or word_rows), key=len)
    out: list[GridCell] = []
    for r, row in enumerate(word_rows):
        slots: dict[int, list[Fragment]] = {}
        for f in row:
            slots.setdefault(_band_of(f, bands), []).append(f)
        for c, frags in sorted(slots.items()):
            rect = enclosing([f.rect for f in frags])
            out.append(GridCell(r, c, rect, " ".join(f.text for f in frags)))
    return out


# ----------------------------------------------------------------------------- blocks


def starts_list_item(text: str) -> bool:
    """Text opening with a bullet glyph or an enumerator ("1.", "a)", "(iv)") and a blank."""
    return bool(_BULLET_RE.match(text) or _ENUM_RE.match(text))


def _continues(block: list[Fragment], frag: Fragment) -> bool:
    """Whether `frag` is the next line of the paragraph whose fragments are `block`: close
    below its last line (-0.3 to 0.6 line heights), same size (within 12%) and style as its
    first line, not a list item, and left-aligned with or half under the last line."""
    last = block[-1]
    if last.lines[0].vertical or frag.lines[0].vertical:
        return False
    size = max(last.size, 1.0)
    gap = frag.rect.t - last.rect.b
    if gap < -0.3 * size or gap > 0.6 * size:
        return False
    if abs(frag.size - block[0].size) > 0.12 * size or frag.style != block[0].style:
        return False
    if starts_list_item(frag.text):
        return False
    aligned = abs(frag.rect.l - last.rect.l) <= 1.5 * size
    return aligned or last.rect.x_overlap(frag.rect) >= 0.5 * min(last.rect.width, frag.rect.width)


def build_blocks(fragments: Sequence[Fragment]) -> list[list[Fragment]]:
    """Fragments (any order) grouped into paragraphs, top to bottom: each joins the block it
    continues (`_continues`) whose last line is lowest, else starts a new block."""
    blocks: list[list[Fragment]] = []
    for frag in sorted(fragments, key=lambda f: (f.rect.t, f.rect.l)):
        fitting = [b for b in blocks if _continues(b, frag)]
        if fitting:
            max(fitting, key=lambda b: b[-1].rect.b).append(frag)
        else:
            blocks.append([frag])
    return blocks


def classify(block: list[Fragment], ctx: PageContext) -> Kind:
    """Kind of a text block (tables are found before, by `find_tables`): with
    `strip_headers_footers`, vertical text is a page header (a margin stamp); then code (all
    monospace), heading (`is_heading`), list item, text. Which horizontal lines are running
    headers and footers is decided from the whole document by `runninglines` (the
    ``running-lines`` pass removes them), not from one page's band."""
    text = " ".join(f.text for f in block)
    if any(line.vertical for f in block for line in f.lines):
        return Kind.PAGE_HEADER if ctx.strip_headers_footers else Kind.TEXT
    heading = is_heading(block, text, ctx.body_size)
    if all(f.mono for f in block):
        return Kind.CODE
    if heading:
        return Kind.SECTION_HEADER
    if starts_list_item(text):
        return Kind.LIST_ITEM
    return Kind.TEXT


def is_heading(block: list[Fragment], text: str, body_size: float) -> bool:
    """Short blocks with three letters or more that are set larger than the body text, or bold
    at body size, or are one numbered line in capitals or italics ("IV. TEXT DATA"); never a
    sentence of 8+ words ending in a period, a line with "=" (a displayed formula), nor a line
    with dot leaders (a contents entry)."""
    letters = LETTER_RE.findall(text)
    if len(letters) < 3 or len(block) > 3 or len(text) > MAX_HEADING_CHARS:
        return False
    if text.rstrip().endswith(".") and len(text.split()) >= 8:
        return False  # a sentence set in large or bold type
    if "=" in text or LEADER_RE.search(text):
        return False  # a displayed formula (its glyphs make the line look large), contents
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
    caps), "A. Learned Features" (italic)."""
    caps = len(letters) >= 4 and all(c.isupper() for c in letters)
    short = len(block) == 1 and len(text) <= 80 and opens_with_number(text)
    return short and (caps or block[0].italic)


def body_size(sizes: Counter[float]) -> float:
    """The most common line height weighted by characters (ties: the smaller); 10 without any."""
    if not sizes:
        return 10.0
    top = max(sizes.values())
    return min(s for s, n in sizes.items() if n == top)


def size_histogram(fragments: Sequence[Fragment]) -> Counter[float]:
    """Characters per fragment size, sizes rounded to half points."""
    hist: Counter[float] = Counter()
    for f in fragments:
        hist[round(f.size * 2) / 2] += len(f.text)
    return hist


def page_blocks(rows: list[list[Fragment]], ctx: PageContext) -> list[Block]:
    """The page's fragment rows (`fragment_rows`) as blocks: the tables first (`find_tables`),
    then the other fragments as paragraphs (`build_blocks`) labelled by `classify`."""
    blocks: list[Block] = []
    in_table: set[int] = set()
    for start, end in find_tables(rows):
        blocks.append(Block(tuple(f for row in rows[start:end] for f in row), Kind.TABLE))
        in_table.update(range(start, end))
    loose = [f for i, row in enumerate(rows) if i not in in_table for f in row]
    for frags in build_blocks(loose):
        blocks.append(Block(tuple(frags), classify(frags, ctx)))
    return blocks
