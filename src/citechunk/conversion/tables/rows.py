"""Printed rows a table grid holds in one grid row, and one printed row set as two grid
rows (part of the table rule, `grid`).

A table set without rules between its rows can reach the grid with two or more printed rows
in one grid row: each cell then holds the printed lines of every row it took, one a line
("5<br>6" | "1100<br>1110"). Read as one row, the values of different rows run together
("5 6 | 1100 1110"). The rule, `split_stacked_rows(grid, heads)`: a body row (below the
`heads` header rows) is `k` rows when every filled cell holds exactly `k` >= 2 printed lines
with text and two or more of its cells hold a figure on every line (`MIN_FIGURE_CELLS`); row
`i` takes line `i` of each filled cell, an empty cell stays empty in each. Blank printed lines
of body cells go (they carry nothing, and would render as trailing blanks). A wrapped label
beside one figure, or a figure with a note under it in one cell only, never matches (its cells
hold different numbers of lines); a row of wrapped text alone holds no figure cells.

A grid read line by line sets each printed line of a wrapped cell as a row of its own:

* Header lines, `join_header_lines(grid)`: under a header row holding no digit but in years,
  a row holding no digit, in the header's style (bold when it is), every filled cell under a
  filled header cell and one or more in a figure column (most of whose filled cells below,
  dashes aside, are amounts), is a further printed line of the header ("Fair" over "Value"
  over "($)"): joined into it per column (one text, bold when the header is) while
  `MIN_BODY_ROWS` rows stay below. A group label ("Canadian Common Equities") fills no
  figure column; a data row holds digits; a form's next label and value under a bold first
  pair are not bold.
* Wrapped labels, `join_wrapped_labels(grid, heads)`: a body row holding no amount but a
  year, whose last filled cell is followed by a row empty before that column, with text
  starting lower case in it and an amount after it, is the first printed line of that row's
  label ("Total Canadian Common Equities" over "in Core Holdings (79.8%) | 167,162,737"):
  the two are one row, cell by cell. A row whose label starts upper case is a row of its own
  (a group label over its first item).
"""

from __future__ import annotations

import logging
import re

from .header import Cell, Grid, amount_shape, holds_figures, is_styled, plain

log = logging.getLogger(__name__)

#: Cells holding a figure on every line that a stacked row needs.
MIN_FIGURE_CELLS = 2
#: Body rows a table keeps under its header when the header's printed lines are joined.
MIN_BODY_ROWS = 2
_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_DIGIT_RE = re.compile(r"\d")


def _lines(cell: Cell) -> list[str]:
    return [line for line in cell if line.strip()]


def _stacked(row: list[Cell]) -> int:
    """How many printed rows `row` holds (1 when it is not stacked)."""
    filled = [_lines(c) for c in row if _lines(c)]
    counts = {len(lines) for lines in filled}
    if len(counts) != 1 or (k := counts.pop()) < 2:
        return 1
    figures = sum(all(amount_shape(line) is not None for line in lines) for lines in filled)
    return k if figures >= MIN_FIGURE_CELLS else 1


def _unstack(row: list[Cell], k: int) -> list[list[Cell]]:
    cells = [_lines(c) for c in row]
    return [[[lines[i]] if lines else [] for lines in cells] for i in range(k)]


def split_stacked_rows(grid: Grid, heads: int) -> tuple[Grid, int]:
    """The grid with each stacked body row split into its printed rows (module docstring),
    and how many rows were split."""
    out: Grid = []
    split = 0
    for i, row in enumerate(grid):
        k = _stacked(row) if i >= heads else 1
        if k > 1:
            out.extend(_unstack(row, k))
            split += 1
        else:
            out.append(row if i < heads else [_lines(c) for c in row])
    if split:
        log.debug("stacked rows: %d grid rows split into their printed rows", split)
    return out, split


def _has_amount(row: list[Cell]) -> bool:
    """A cell of `row` is an amount other than a year."""
    texts = [plain(c) for c in row]
    return any(amount_shape(t) is not None and not _YEAR_RE.fullmatch(t) for t in texts if t)


def _figure_columns(body: Grid) -> set[int]:
    """Columns most of whose filled body cells (dashes aside) are amounts."""
    width = max((len(r) for r in body), default=0)
    return {j for j in range(width) if holds_figures([plain(_cell(r, j)) for r in body])}


def _header_line(row: list[Cell], top: list[Cell], figures: set[int]) -> bool:
    """`row` is a further printed line of the header row `top` (module docstring)."""
    filled = [j for j, c in enumerate(row) if plain(c)]
    return (
        bool(filled)
        and not _DIGIT_RE.search(" ".join(plain(c) for c in row))
        and (is_styled(row) or not is_styled(top))
        and all(j < len(top) and plain(top[j]) for j in filled)
        and any(j in figures for j in filled)
    )


def join_header_lines(grid: Grid) -> tuple[Grid, int]:
    """The grid with the printed lines of its header row set as rows below it joined into it
    per column (module docstring), and how many rows were joined."""
    labels = " ".join(plain(c) for c in grid[0]) if grid else ""
    if not grid or _DIGIT_RE.search(_YEAR_RE.sub("", labels)):
        return grid, 0
    n = 1
    while n < len(grid) - MIN_BODY_ROWS and _header_line(
        grid[n], grid[0], _figure_columns(grid[n + 1 :])
    ):
        n += 1
    if n == 1:
        return grid, 0
    width = max(len(r) for r in grid[:n])
    mark = "**" if is_styled(grid[0]) else ""
    texts = [
        " ".join(plain(r[j]) for r in grid[:n] if j < len(r) and plain(r[j])) for j in range(width)
    ]
    top = [[f"{mark}{t}{mark}"] if t else [] for t in texts]
    log.debug("header lines: %d rows joined into the header row", n - 1)
    return [top, *grid[n:]], n - 1


def _continues(row: list[Cell], below: list[Cell]) -> bool:
    """`below` continues the label that ends `row` (module docstring)."""
    filled = [j for j, c in enumerate(row) if plain(c)]
    if not filled or _has_amount(row) or len(below) <= filled[-1]:
        return False
    j = filled[-1]
    text = plain(below[j])
    return (
        text[:1].islower() and not any(plain(c) for c in below[:j]) and _has_amount(below[j + 1 :])
    )


def join_wrapped_labels(grid: Grid, heads: int) -> tuple[Grid, int]:
    """The grid with each body row whose label wraps onto the row below (module docstring)
    joined with it, cell by cell, and how many were joined."""
    out: Grid = list(grid[:heads])
    joined = 0
    i = heads
    while i < len(grid):
        row = grid[i]
        if i + 1 < len(grid) and _continues(row, grid[i + 1]):
            below = grid[i + 1]
            width = max(len(row), len(below))
            out.append([[*_cell(row, j), *_cell(below, j)] for j in range(width)])
            joined += 1
            i += 2
            continue
        out.append(row)
        i += 1
    if joined:
        log.debug("wrapped labels: %d rows joined with the row below", joined)
    return out, joined


def _cell(row: list[Cell], j: int) -> Cell:
    return row[j] if j < len(row) else []
