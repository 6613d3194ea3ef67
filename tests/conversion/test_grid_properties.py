"""Property tests of the table grid functions (`tables.grid`, `tables.table_words`) over the
grids real pages give: ragged rows (a row with fewer or more cells than the header), empty
cells, one column, a header row alone, cells of several lines, stacked header rows, cut words.

Checked for every grid: no function raises; nothing is lost (every letter and digit of the
cells is still in the result: the grid, its caption, or the lines a flattened table becomes;
a text the first row repeats in several cells, a cell spanning them, counts once);
a rendered table has the header's number of cells on every line; a table the rule leaves
alone keeps its bytes.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from citechunk.conversion.tables.grid import (
    Grid,
    check_grid,
    header_rows,
    join_headers,
    parse,
    plain,
    render,
    take_captions,
    words,
)
from citechunk.conversion.tables.table_words import _as_text, _page

# Cell lines as tables print them: labels, years, days, amounts, unit lines, word pieces a
# column line cut ("Mo" | "nths"), markup.
LINES = ["Revenue", "Three Mo", "nths Ended", "Months", "2020", "2021", "30", "1,234", "(5.6)"]
LINES += ["(in millions)", "**Total**", "Year Ended December 31,", "n/a", "12%", "Field", "x"]

cells = st.lists(st.sampled_from(LINES), min_size=0, max_size=2)
rows = st.lists(cells, min_size=1, max_size=5)
grids = st.lists(rows, min_size=1, max_size=6)
# The text layer: the grid's own words, words of the uncut forms, or nothing of it.
layers = st.sampled_from(["own", "whole", "empty"])


def _layer(grid: Grid, kind: str) -> Counter[str]:
    own = words(plain(c) for row in grid for c in row)
    if kind == "own":
        return own
    if kind == "whole":
        return own + words(["Three Months Ended", "Revenue Months"])
    return Counter()


def _chars(texts: list[str]) -> Counter[str]:
    """Letters and digits, counted (markup, spaces and punctuation aside)."""
    return Counter(ch for t in texts for ch in t.lower() if ch.isalnum())


def _grid_chars(grid: Grid) -> Counter[str]:
    return _chars([plain(c) for row in grid for c in row])


def _once(grid: Grid) -> Grid:
    """The grid with a text its first row repeats in several cells kept in the first of them
    only (a cell spanning those columns, printed once on the page)."""
    if not grid:
        return grid
    seen: set[str] = set()
    first = []
    for cell in grid[0]:
        text = plain(cell)
        first.append([] if text in seen else cell)
        seen.add(text)
    return [first, *grid[1:]]


def _lost(before: Counter[str], after: Counter[str]) -> Counter[str]:
    return before - after


@settings(max_examples=400, deadline=None)
@given(grids, layers)
def test_check_grid_never_raises_and_loses_no_text(grid: Grid, kind: str) -> None:
    before = _grid_chars(_once(grid))
    checked = check_grid(grid, _layer(grid, kind))
    if checked.reason:
        after = _chars(_as_text(checked.grid, _layer(grid, kind)))
    else:
        after = _grid_chars(checked.grid) + _chars(list(checked.caption))
    assert not _lost(before, after), (grid, checked)


@settings(max_examples=400, deadline=None)
@given(grids, layers)
def test_a_rendered_table_has_the_header_width_on_every_line(grid: Grid, kind: str) -> None:
    checked = check_grid(grid, _layer(grid, kind))
    lines = render(checked.grid).split("\n")
    reparsed = parse(lines)
    widths = {len(row) for row in reparsed}
    assert len(widths) == 1 and len(lines) == len(checked.grid) + 1
    assert widths == {max(len(r) for r in checked.grid)}


@settings(max_examples=300, deadline=None)
@given(grids)
def test_join_headers_keeps_every_header_cell(grid: Grid) -> None:
    heads = header_rows(grid)
    joined, changed = join_headers(grid)
    if not changed:
        assert joined == grid
        return
    assert joined[1:] == grid[heads:]
    assert not _lost(_grid_chars(grid[:heads]), _grid_chars(joined[:1]))
    assert len(joined[0]) == max(len(r) for r in grid[:heads])


@settings(max_examples=300, deadline=None)
@given(grids)
def test_take_captions_moves_text_and_never_drops_it(grid: Grid) -> None:
    caption, rest = take_captions(grid)  # a unit printed once over several columns: once
    assert not _lost(_grid_chars(_once(grid)), _grid_chars(rest) + _chars(list(caption)))
    assert len(rest) >= len(grid) - 1


@settings(max_examples=300, deadline=None)
@given(grids, layers, st.booleans())
def test_a_page_table_is_checked_without_raising_or_losing_text(
    grid: Grid, kind: str, ragged: bool
) -> None:
    table = render(grid).split("\n")
    if ragged:  # a row as a page prints it: trailing empty cells left out
        table = [line.rstrip("|").rstrip() + "|" if line.count("|") > 2 else line for line in table]
    text = "Above the table.\n\n" + "\n".join(table) + "\n\nBelow it."
    out = _page(3, text, _layer(grid, kind), Counter())
    assert not _lost(_grid_chars(_once(grid)), _chars([out]))
    if out != text:
        assert out.startswith("Above the table.") and out.endswith("Below it.")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "", " ", "2020", "x<br>y"]), max_size=4)))
def test_parse_reads_any_pipe_lines(cells: list[list[str]]) -> None:
    lines = ["|" + "|".join(row) + "|" for row in cells]
    grid = parse(lines)
    assert len(grid) == sum(1 for row in cells if row != ["---"])
    assert not _lost(_chars([line.replace("<br>", " ") for line in lines]), _grid_chars(grid))


def test_a_ragged_stacked_header_is_joined_not_raised_on() -> None:
    """A header row wider than the one below it (the row below printed without its
    trailing empty cells): the IndexError this raised in `_fill_spans` is gone, and the
    wider row's cells stay."""
    grid: Grid = [[[], ["Field layout"], []], [[], ["2020"]], [["Version"], ["1"], ["2"]]]
    joined, changed = join_headers(grid)
    assert changed and joined[0] == [[], ["Field layout 2020"], []]
    grid = [[[], ["2020"]], [[], ["Field"], ["Value"]], [["Version"], ["1"], ["2"]]]
    joined, changed = join_headers(grid)
    assert changed and joined[0] == [[], ["2020 Field"], ["2020 Value"]]
