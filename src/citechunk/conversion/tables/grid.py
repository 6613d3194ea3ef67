"""The table rule: a table the layout found stays a table; its grid is mended where a column
line cuts a word the text layer has whole, and it becomes lines only where its grid contradicts
the text layer. Stacked header rows are joined per column.

A grid is a list of rows of cells; a cell is a list of its printed lines (Markdown, maybe with
``**`` markup). `check_grid(grid, layer)` (``layer``: the text layer's words, `words`) returns a
`Checked`:

* A cut: two horizontally neighbouring cells whose touching pieces on one printed line make a
  word of the text layer while the two pieces are not both words of it, and the joined word
  has a letter (figures are never joined). "Three Mo" | "nths Ended".
* Mending, in a header row (`header_rows`): the cells joined by cuts are one spanning cell
  whose text, each printed line joined across the cut without a space, is written into every
  column it spans. In any other row the cut word moves whole into the cell that held its
  longer piece.
* Flattened (``Checked.reason`` says why), the table reads as lines, only when the grid
  contradicts the text layer: after mending, `MAX_CUT_WORDS` or more cell words are still
  pieces of a longer text-layer word and no cell word is missing from it for another reason
  (`cut_words`; emphasis marks inside a word, "2_B_2", cut no word), or body rows have a cut
  joining cells of several printed lines (wrapped text
  running across column lines) but for one note. A table of one column stays a table.
* Spanning cells: one body row (`MAX_SPANNING`, and fewer than half the body rows) whose cut
  joins cells of several printed lines, each line with a letter, holds one cell spanning the
  cut columns (a note across the table): its text, line by line, in the first of them. Joined
  cells with a line without a letter (figures a stray line crossed) flatten the table.
* Stacked rows: a body row each of whose filled cells holds the same number of printed lines,
  figures on every line in two or more of them, is that many rows (`rows`); a row label
  wrapped onto the next grid row and a header's further printed lines set as rows are joined
  (`rows`).
* Stacked header rows (two or more header rows whose first cell is empty) are joined per
  column into one header row (`join_headers`), a spanning label repeated over each column the
  row below fills.
* Header labels that are a caption leave the grid (`take_captions`) and are printed as bold
  lines right above the table, where the chunker takes a table's caption, unless the line
  right above already reads the same (`new_captions`).
* Whether the first row is a header at all is decided from evidence (`header`).

A table that needs none of this comes back unchanged (``Checked.changed`` False), so its
rendering stays as the backend wrote it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...mdsyntax import TABLE_SEPARATOR_RE
from ...textkeys import LETTER_RE, compact_key
from ..mdlines import strip_inline_markup
from .header import Cell, Grid, head, plain, take_title
from .labels import is_table_label, is_unit_line
from .rows import join_header_lines, join_wrapped_labels, split_stacked_rows

MAX_CUT_WORDS = 2
#: Body rows running across column lines a table may hold as spanning cells (notes).
MAX_SPANNING = 1
_WORD_RE = re.compile(r"[^\W_]+")
_FIGURE_RE = re.compile(r"(?<![\w.,])\(?[$€£]?\d[\d,]*(?:\.\d+)?\)?%?(?!\w)")
_YEAR_RE = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d.,%])")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_INWORD_MARK_RE = re.compile(r"(?<=[^\W_])(?<!\\)(?:\*{1,2}|_{1,2})(?=[^\W_])")


@dataclass(frozen=True)
class Checked:
    """The outcome for one table: its grid (mended when ``changed``), or ``reason`` (not "")
    when it is to be read as lines; ``mended``: cut words mended; ``caption``: label lines
    taken out of the header, to print above the table (top first)."""

    grid: Grid
    changed: bool = False
    reason: str = ""
    mended: int = 0
    caption: tuple[str, ...] = ()


def words(texts: Iterable[str]) -> Counter[str]:
    """Lower-cased runs of letters and digits of `texts`, counted."""
    return Counter(w for t in texts for w in _WORD_RE.findall(t.lower()))


def _is_cut(left: str, right: str, layer: Counter[str]) -> bool:
    a, b = compact_key(left), compact_key(right)
    whole = a + b
    if not a or not b or not LETTER_RE.search(whole) or not layer[whole]:
        return False
    return not (layer[a] and layer[b])


def _cuts(row: list[Cell], layer: Counter[str]) -> list[tuple[int, int]]:
    """(column, line) of each cut between column and column + 1 of `row`."""
    out = []
    for j in range(len(row) - 1):
        for k, (left, right) in enumerate(zip(row[j], row[j + 1], strict=False)):
            lw, rw = strip_inline_markup(left).split(), strip_inline_markup(right).split()
            if lw and rw and _is_cut(lw[-1], rw[0], layer):
                out.append((j, k))
    return out


def _is_label(figure: str) -> bool:
    """A year or a day of the month: a figure that names a column, not an amount."""
    figure = figure.rstrip(",")
    return bool(_YEAR_RE.fullmatch(figure)) or (figure.isdigit() and 1 <= int(figure) <= 31)


def _is_header_row(row: list[Cell], first: bool) -> bool:
    texts = [plain(c) for c in row[1:]]
    if not any(texts) or not (first or not plain(row[0]) if row else False):
        return False
    return all(_is_label(f) for t in texts for f in _FIGURE_RE.findall(t))


def header_rows(grid: Grid) -> int:
    """How many rows at the top are header rows: the first row and the rows after it whose
    first cell is empty, while their other cells hold no figure but years and days of the
    month."""
    n = 0
    while n < len(grid) and _is_header_row(grid[n], n == 0):
        n += 1
    return n


def _span_text(row: list[Cell], lo: int, hi: int, cut: set[tuple[int, int]]) -> str:
    """The text of cells lo..hi of `row` as one cell: line by line, joined without a space
    across a cut."""
    depth = max(len(row[j]) for j in range(lo, hi + 1))
    lines = []
    for k in range(depth):
        text = ""
        for j in range(lo, hi + 1):
            piece = strip_inline_markup(row[j][k]) if k < len(row[j]) else ""
            glue = "" if (j - 1, k) in cut else " "
            text = (text + glue + piece) if text and piece else (text or piece)
        lines.append(text.strip())
    return " ".join(t for t in lines if t)


def _joined_runs(row: list[Cell], cuts: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """(first, last) column of each run of two or more cells that `cuts` join."""
    joined = {j for j, _ in cuts}
    j = 0
    while j < len(row):
        hi = j
        while hi in joined:
            hi += 1
        if hi > j:
            yield j, hi
        j = hi + 1


def _mend_header(row: list[Cell], cuts: list[tuple[int, int]]) -> list[Cell]:
    out = [list(c) for c in row]
    for lo, hi in _joined_runs(row, cuts):
        text = _span_text(row, lo, hi, set(cuts))
        for col in range(lo, hi + 1):
            out[col] = [text]
    return out


def _mend_row(row: list[Cell], cuts: list[tuple[int, int]]) -> list[Cell]:
    out = [[strip_inline_markup(line) for line in c] for c in row]
    for j, k in reversed(cuts):
        left, right = out[j][k].split(), out[j + 1][k].split()
        if not left or not right:
            continue
        if len(left[-1]) >= len(right[0]):
            left[-1] += right.pop(0)
        else:
            right[0] = left.pop() + right[0]
        out[j][k], out[j + 1][k] = " ".join(left), " ".join(right)
    return [c if any(c) else [] for c in out]


def _runs_across(row: list[Cell], cuts: list[tuple[int, int]]) -> bool:
    """A body row's cut between cells of several lines: wrapped text runs across the column
    line (one cell spanning those columns, or a paragraph under a grid)."""
    return any(max(len(row[j]), len(row[j + 1])) > 1 for j, _ in cuts)


def _is_note(row: list[Cell], cuts: list[tuple[int, int]]) -> bool:
    """Every line of the cells a cut joins has a letter: running text (a note across the
    table), not figures a stray line crossed."""
    cells = {c for j, _ in cuts for c in (j, j + 1)}
    lines = [strip_inline_markup(line) for c in cells for line in row[c]]
    return all(LETTER_RE.search(line) for line in lines if line.strip())


def _span_row(row: list[Cell], cuts: list[tuple[int, int]]) -> list[Cell]:
    """A body row whose text runs across column lines: each run of cells joined by cuts is
    one cell spanning them, its text (`_span_text`) in the run's first cell, the others
    empty."""
    out = [list(c) for c in row]
    for lo, hi in _joined_runs(row, cuts):
        out[lo] = [_span_text(row, lo, hi, set(cuts))]
        for col in range(lo + 1, hi + 1):
            out[col] = []
    return out


def _mend(grid: Grid, layer: Counter[str]) -> tuple[Grid, int, str]:
    """(mended grid, cut words mended, reason the grid contradicts the text layer or ""):
    header rows are mended (`_mend_header`), a body row whose text runs across a column line
    becomes a spanning cell (`_span_row`) when it is a note (`_is_note`), the only such row
    (`MAX_SPANNING`) and fewer than half the body rows (else text runs under the grid, not
    cells), other body rows move cut words whole (`_mend_row`)."""
    heads = header_rows(grid)
    out: Grid = []
    mended = across = 0
    for i, row in enumerate(grid):
        cuts = _cuts(row, layer)
        mended += len(cuts)
        if not cuts:
            out.append(row)
        elif i < heads:
            out.append(_mend_header(row, cuts))
        elif _runs_across(row, cuts) and not _is_note(row, cuts):
            return grid, 0, "text runs across a column line"
        elif _runs_across(row, cuts):
            across += 1
            out.append(_span_row(row, cuts))
        else:
            out.append(_mend_row(row, cuts))
    if across > MAX_SPANNING or (across and 2 * across >= len(grid) - heads):
        return grid, 0, "text runs across a column line"
    return out, mended, ""


def _fill_spans(row: list[Cell], below: list[list[Cell]]) -> list[Cell]:
    """Empty cells (after the first) under which a lower header row has text take the text of
    the nearest filled cell of `row` (the left one on a tie); a lower row without that
    column (a ragged row) has no text under it."""
    filled = [j for j in range(1, len(row)) if plain(row[j])]
    out = list(row)
    for j in range(1, len(row)):
        if plain(row[j]) or not filled or not any(j < len(r) and plain(r[j]) for r in below):
            continue
        nearest = min(filled, key=lambda f: (abs(f - j), f))
        out[j] = row[nearest]
    return out


def join_headers(grid: Grid) -> tuple[Grid, bool]:
    """Stacked header rows joined per column into one (module docstring); (grid, changed).
    Ragged header rows count as wide as the widest of them (missing cells are empty)."""
    heads = header_rows(grid)
    if heads < 2 or any(plain(grid[i][0]) for i in range(heads)):
        return grid, False
    width = max(len(r) for r in grid[:heads])
    padded = [[*r, *([] for _ in range(width - len(r)))] for r in grid[:heads]]
    rows = [_fill_spans(padded[i], padded[i + 1 :]) for i in range(heads)]
    joined: list[Cell] = []
    for j in range(width):
        parts = [plain(r[j]) for r in rows if plain(r[j])]
        joined.append([" ".join(parts)] if parts else [])
    return [joined, *grid[heads:]], True


def _unmarked(cell: Cell) -> str:
    """A cell's text without markup, emphasis marks inside a word too ("2_B_2", an italic
    letter, is the word "2B2"; an escaped underscore is a character of the text)."""
    return _INWORD_MARK_RE.sub("", plain(cell))


def cut_words(grid: Grid, layer: Counter[str], sideways: Iterable[str] = ()) -> tuple[int, int]:
    """(cut, lost): cell words (with repeats) the text layer lacks, split into those that are
    part of a longer text-layer word (cut by a column line) and the others; a piece of a word
    in `sideways` (words printed sideways, which the row lines of any grid cut) is neither.
    Emphasis marks inside a word cut nothing (`_unmarked`)."""
    have = words(_unmarked(c) for row in grid for c in row)
    turned = [w for w in sideways if w]
    cut = lost = 0
    for w, n in have.items():
        extra = n - layer[w]
        if extra > 0 and any(w in longer for longer in turned):
            continue
        if extra > 0:
            if any(w in longer and w != longer for longer in layer):
                cut += extra
            else:
                lost += extra
    return cut, lost


def check_grid(grid: Grid, layer: Counter[str], sideways: Iterable[str] = ()) -> Checked:
    """The table rule (module docstring) for one grid and its text layer's words (`sideways`:
    the words the layer prints sideways, whose pieces are no cut words)."""
    mended_grid, mended, reason = _mend(grid, layer)
    if reason:
        return Checked(grid, reason=reason)
    left, lost = cut_words(mended_grid, layer, sideways)
    if left >= MAX_CUT_WORDS and not lost:
        return Checked(grid, reason=f"{left} cut words left after mending")
    heads = header_rows(mended_grid)
    unstacked, split = split_stacked_rows(mended_grid, heads)
    unwrapped, wrapped = join_wrapped_labels(unstacked, heads)
    caption, labelled = take_captions(unwrapped)
    title, untitled = take_title(labelled)
    stacked_grid, stacked = join_headers(untitled)
    joined, lines = join_header_lines(stacked_grid)
    headed = head(joined, titled=bool(title))
    captions = (*caption, *title)
    changed = bool(mended or split or wrapped or lines or captions) or stacked or headed.changed
    return Checked(headed.grid, changed=changed, mended=mended, caption=captions)


def take_captions(grid: Grid) -> tuple[tuple[str, ...], Grid]:
    """Header labels that are the table's caption, taken out: a first row whose only text is
    a unit or period line in its first cell, over the row labels ("March 31, 2021"), and, in
    the header row then first, a first cell that is a unit line ("(in millions)"). A label
    over the figures' columns stays: it joins the header below it per column."""
    width = max((len(r) for r in grid), default=0)
    caption: list[str] = []
    rows = list(grid)
    filled = [plain(c) for c in rows[0] if plain(c)] if rows else []
    first = plain(rows[0][0]) if rows and rows[0] else ""
    first_only = width >= 2 and filled == [first] and is_table_label(first)
    if len(rows) > 2 and (first_only or _spans_a_unit(rows[0])):
        caption.append(filled[0])
        rows = rows[1:]
    if rows and rows[0] and is_unit_line(plain(rows[0][0])) and header_rows(rows):
        caption.append(plain(rows[0][0]))
        rows[0] = [[], *rows[0][1:]]
    return tuple(caption), rows


def _spans_a_unit(row: list[Cell]) -> bool:
    """An empty first cell, then one unit line repeated in two or more filled cells."""
    filled = [plain(c) for c in row[1:] if plain(c)]
    return (
        len(row) > 2
        and not plain(row[0])
        and len(filled) >= 2
        and len(set(filled)) == 1
        and is_unit_line(filled[0])
    )


def new_captions(caption: Iterable[str], above: str) -> list[str]:
    """The caption lines to print over a table: those that do not repeat `above`, the text
    of the line right above the table (markup ignored)."""
    seen = compact_key(strip_inline_markup(above))
    return [line for line in caption if compact_key(line) != seen]


def render(grid: Grid, line_break: str = " ") -> str:
    """`grid` as a pipe table (`parse` undone): the first row is the header, then the
    separator; a cell's lines are joined by `line_break`."""
    width = max(len(r) for r in grid)

    def line(row: list[Cell]) -> str:
        cells = [line_break.join(row[j]) if j < len(row) else "" for j in range(width)]
        return "|" + "|".join(cells) + "|"

    rule = "|" + "|".join("---" for _ in range(width)) + "|"
    return "\n".join([line(grid[0]), rule, *map(line, grid[1:])])


def parse(rows: Iterable[str]) -> Grid:
    """Pipe-table lines as a grid: the separator row dropped, cells split at unescaped pipes,
    a cell's lines at ``<br>``."""
    grid: Grid = []
    for row in rows:
        if TABLE_SEPARATOR_RE.fullmatch(row.strip()):
            continue
        cells = _PIPE_RE.split(row.strip().removeprefix("|").removesuffix("|"))
        grid.append([[p.strip() for p in c.split("<br>")] if c.strip() else [] for c in cells])
    return grid
