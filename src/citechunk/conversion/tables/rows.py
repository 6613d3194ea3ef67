"""Rows a table grid holds stacked in one row (part of the table rule, `grid`).

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
"""

from __future__ import annotations

import logging

from .header import Cell, Grid, amount_shape

log = logging.getLogger(__name__)

#: Cells holding a figure on every line that a stacked row needs.
MIN_FIGURE_CELLS = 2


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
