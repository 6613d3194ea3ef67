"""Whether a table has a header row, decided from evidence (part of the table rule, `grid`).

A grid's first row is its header only when it reads like one. The rules, in order:

* A first row that is empty, or only a converter's placeholders ("Col1", "Column 2"), says
  the table has no header: it is kept as an empty header row (placeholders blanked).
* A title spanning the table leaves it and becomes its caption (`take_title`): every cell of
  the first row holds one text with a letter (a spanning cell written into each column), or
  its first cell is a caption label alone ("Table 4") and each of the two or more others holds
  one text (then the caption is the label and that text).
* A title row leaves the table and becomes its caption (`take_title`): the first row holds
  text in its first cell only, in a table of two or more columns and two or more rows below
  it, no other row has that shape (then it is a group label, like the others), and the text
  is no figure. So is a first row that is not styled and holds no figure over a styled row
  of two or more filled cells and no amount, over rows none of which is styled (a title line
  the layout cut at the column lines: its pieces, joined by a space), when the row's first
  cell is filled and no piece repeats; when its first cell is empty and two or more cells are
  filled, they are group labels and join the styled row per column (the next rule's join).
  The row below a title is a header only on evidence for one: styled (next rule), or labels
  over values (`_labels_over_values`); else the table has no header.
* A styled first row (every filled cell bold) holding no amount, over rows none of which is
  styled, is a header. When its second row is styled too, holds no amount, is no label in its
  first cell only, and two or more unstyled rows follow, the two rows are the printed lines
  of one header: they are joined into one styled row per column.
* Otherwise the first row is data when it looks like the rows under it (`data_evidence`), in
  any column:

  - an amount over amounts: the first row's cell is an amount (a figure, not a year nor one
    of column numbers counting up by one across the row) of the same shape (currency sign,
    unit, decimals) as most of the amounts below it, and most filled cells below it in that
    column are amounts;
  - a long text over long texts: the cell has `LONG_WORDS` or more words and the cells
    below it have as many at the median;
  - a value that repeats: the cell's text (two or more characters, a letter) is also the text
    of a cell below it in that column, while no row below repeats every filled cell of the
    first row (a repeated header row: then the first row is the header);
  - a contents entry over contents entries: the cell ends in a leader and a page number
    ("Overview ... 3"), and so do most cells below it (a page number in a cell of its own
    is an amount over amounts);
  - an enumeration: the cell holds a number, and most cells below it hold the same words
    with other numbers ("Week 1" over "Week 2", "Week 3").
* A first row that is data gets an empty header row above it (``| | |`` then ``|---|---|``), so
  the Markdown stays a pipe table and no data row is read as the header; a table whose first
  row reads as labels over values keeps it.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

from ...captionlabels import is_caption
from ...textkeys import LETTER_RE, compact_key
from ..mdlines import strip_inline_markup

Cell = list[str]
Grid = list[list[Cell]]

LONG_WORDS = 8
#: Words a caption label standing alone in a title row's first cell has at most ("Table 4").
CAPTION_LABEL_WORDS = 3
_PLACEHOLDER_RE = re.compile(r"(?:Col(?:umn)?)\s*\d+", re.IGNORECASE)
_AMOUNT_RE = re.compile(
    r"(?P<neg>[-−–(+]?)\s*(?P<cur>[$€£¥₹]?)\s*(?P<num>\d[\d,.\s]*?\d|\d)"
    r"\s*\)?\s*(?P<unit>%|[^\W\d_]{1,3}\.?)?",
)
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_DASH_RE = re.compile(r"[-−–—]+|n/?a|nil", re.IGNORECASE)
_PAGE_END_RE = re.compile(r"(?:\.\s*){2,}\s*\d{1,4}$|…\s*\d{1,4}$")
_DIGITS_RE = re.compile(r"\d+")
_FIGURE_RE = re.compile(r"\d")


@dataclass(frozen=True)
class Header:
    """The outcome for one grid: the grid with its header decided, ``caption`` (a title row
    taken out, to print above the table), ``changed``, and ``headed``: the first row is a
    header (False: an empty header row stands above the data)."""

    grid: Grid
    changed: bool = False
    caption: tuple[str, ...] = ()
    headed: bool = True


def plain(cell: Cell) -> str:
    """A cell's text without markup, its lines joined by a space."""
    return " ".join(strip_inline_markup(line) for line in cell).strip()


def _width(grid: Grid) -> int:
    return max((len(r) for r in grid), default=0)


def _texts(row: list[Cell], width: int) -> list[str]:
    return [plain(row[j]) if j < len(row) else "" for j in range(width)]


def _empty_row(width: int) -> list[Cell]:
    return [[" "] for _ in range(width)]


def is_empty_row(row: list[Cell]) -> bool:
    """No cell holds text but a converter's placeholder ("Col1")."""
    return all(not t or _PLACEHOLDER_RE.fullmatch(t) for t in (plain(c) for c in row))


def _is_bold(cell: Cell) -> bool:
    lines = [line.strip() for line in cell if line.strip()]
    return bool(lines) and all(
        (line.startswith("**") and line.endswith("**"))
        or (line.startswith("__") and line.endswith("__"))
        for line in lines
    )


def is_styled(row: list[Cell]) -> bool:
    """Every filled cell of the row is bold (and one is filled)."""
    filled = [c for c in row if plain(c)]
    return bool(filled) and all(_is_bold(c) for c in filled)


def amount_shape(text: str) -> tuple[str, str, bool] | None:
    """(currency sign, unit, has decimals) of a cell that is one figure with an optional
    currency sign, sign or parentheses and a unit of up to three letters or "%" ("100г",
    "(1,234.5)", "$12", "45%"); None for any other cell."""
    m = _AMOUNT_RE.fullmatch(text.strip())
    if not m:
        return None
    unit = (m["unit"] or "").lower().rstrip(".")
    return (m["cur"], unit, _has_decimals(m["num"]))


def _has_decimals(figure: str) -> bool:
    """The digits after the figure's last "." or "," are not a group of three (thousands)."""
    last = max(figure.rfind("."), figure.rfind(","))
    return last >= 0 and len(figure) - last - 1 != 3


def _is_year(text: str) -> bool:
    return bool(_YEAR_RE.fullmatch(text.strip()))


def _counts_up(texts: list[str]) -> set[int]:
    """Columns of bare whole numbers that count up by one from the column before (1 | 2 | 3:
    column numbers, which label columns)."""
    out: set[int] = set()
    for j in range(1, len(texts)):
        a, b = texts[j - 1].strip(), texts[j].strip()
        if a.isdigit() and b.isdigit() and int(b) == int(a) + 1:
            out.update((j - 1, j))
    return out


def _amount_over_amounts(text: str, column: list[str]) -> bool:
    shape = amount_shape(text)
    below = [t for t in column if t and not _DASH_RE.fullmatch(t)]
    if shape is None or _is_year(text) or not below:
        return False
    shapes = [amount_shape(t) for t in below]
    amounts = [s for s in shapes if s is not None]
    if len(amounts) * 2 <= len(below):
        return False
    return sum(s == shape for s in amounts) * 2 > len(amounts)


def _long_over_long(text: str, column: list[str]) -> bool:
    below = [len(t.split()) for t in column if t]
    if len(text.split()) < LONG_WORDS or not below:
        return False
    return statistics.median(below) >= LONG_WORDS


def _repeats(text: str, column: list[str]) -> bool:
    key = compact_key(text)
    if len(text) < 2 or not LETTER_RE.search(text) or not key:
        return False
    return any(compact_key(t) == key for t in column if t)


def _repeated_header(first: list[str], body: list[list[str]]) -> bool:
    """A row below repeats every filled cell of the first row."""
    filled = [j for j, t in enumerate(first) if t]
    return bool(filled) and any(
        all(compact_key(row[j]) == compact_key(first[j]) for j in filled) for row in body
    )


def _contents_entry(text: str) -> bool:
    return bool(_PAGE_END_RE.search(text)) and bool(LETTER_RE.search(text))


def _contents_over_contents(text: str, column: list[str]) -> bool:
    """An entry "title ... page" over cells most of which are such entries."""
    below = [t for t in column if t]
    entries = sum(_contents_entry(t) for t in below)
    return _contents_entry(text) and entries * 2 > len(below)


def _stem(text: str) -> str:
    return compact_key(_DIGITS_RE.sub(" ", text))


def _enumerated(text: str, column: list[str]) -> bool:
    """A number with words that most cells below repeat with other numbers ("Week 1" over
    "Week 2", "Week 3")."""
    below = [t for t in column if t]
    stem = _stem(text)
    if not _DIGITS_RE.search(text) or not LETTER_RE.search(stem) or len(below) < 2:
        return False
    same = sum(_stem(t) == stem and t != text and bool(_DIGITS_RE.search(t)) for t in below)
    return same * 2 > len(below)


def data_evidence(grid: Grid) -> str:
    """Why the grid's first row is data and not a header ("" when nothing says so): the first
    rule (module docstring) that holds in some column, with that column."""
    width = _width(grid)
    first = _texts(grid[0], width)
    body = [_texts(r, width) for r in grid[1:]]
    labels = _counts_up(first)
    repeated = _repeated_header(first, body)
    for j, text in enumerate(first):
        column = [r[j] for r in body]
        if not text:
            continue
        if j not in labels and _amount_over_amounts(text, column):
            return f"amount over amounts in column {j + 1}"
        if _long_over_long(text, column):
            return f"long text over long texts in column {j + 1}"
        if _contents_over_contents(text, column):
            return f"contents entry over contents entries in column {j + 1}"
        if _enumerated(text, column):
            return f"numbered like the cells below in column {j + 1}"
        if not repeated and len(body) >= 2 and _repeats(text, column):
            return f"value repeated below in column {j + 1}"
    return ""


def _first_cell_only(row: list[Cell], width: int) -> bool:
    texts = _texts(row, width)
    return bool(texts[0]) and not any(texts[1:])


def _over_styled_header(grid: Grid, width: int) -> bool:
    """An unstyled first row without a figure over a styled row of two or more filled cells
    and no amount, over two or more rows none of which is styled."""
    second = grid[1]
    return (
        len(grid) > 3
        and not is_styled(grid[0])
        and not _FIGURE_RE.search(" ".join(_texts(grid[0], width)))
        and is_styled(second)
        and sum(1 for t in _texts(second, width) if t) >= 2
        and not _has_amount(second, width)
        and not any(is_styled(r) for r in grid[2:])
    )


def _spanning_title(row: list[Cell], width: int) -> str:
    """The title of a first row that is one cell spanning the table (module docstring), else
    "": every cell holds one text with a letter, or the first cell is a caption label alone
    ("Table 4") and every other cell, two or more, holds one text."""
    texts = _texts(row, width)
    rest = {compact_key(t) for t in texts[1:]}
    if len(rest) != 1 or not texts[1] or not LETTER_RE.search(texts[1]):
        return ""
    if compact_key(texts[0]) in rest:
        return texts[1]
    label = texts[0]
    if width >= 3 and is_caption(label) and len(label.split()) <= CAPTION_LABEL_WORDS:
        return f"{label} {texts[1]}"
    return ""


def take_title(grid: Grid) -> tuple[tuple[str, ...], Grid]:
    """A title row taken out of the grid (module docstring): (caption lines, grid)."""
    width = _width(grid)
    if width < 2 or len(grid) < 3:
        return (), grid
    spanning = _spanning_title(grid[0], width)
    if spanning:
        return (spanning,), grid[1:]
    pieces = [t for t in _texts(grid[0], width) if t]
    first_filled = bool(_texts(grid[0], width)[0])
    if _over_styled_header(grid, width) and first_filled and len(set(pieces)) == len(pieces):
        return (" ".join(pieces),), grid[1:]
    title = plain(grid[0][0]) if grid[0] else ""
    if not _first_cell_only(grid[0], width) or amount_shape(title) is not None:
        return (), grid
    if _is_year(title) or any(_first_cell_only(r, width) for r in grid[1:]):
        return (), grid
    return (title,), grid[1:]


def _has_amount(row: list[Cell], width: int) -> bool:
    texts = _texts(row, width)
    labels = _counts_up(texts)
    return any(
        amount_shape(t) is not None and not _is_year(t)
        for j, t in enumerate(texts)
        if j not in labels and t
    )


def _two_line_header(grid: Grid, width: int) -> bool:
    """The first two rows are styled, hold no amount, and two or more unstyled rows follow."""
    return (
        len(grid) > 3
        and is_styled(grid[1])
        and not _first_cell_only(grid[1], width)
        and not _has_amount(grid[1], width)
        and not any(is_styled(r) for r in grid[2:])
    )


def _join_two(grid: Grid, width: int) -> Grid:
    top, low = _texts(grid[0], width), _texts(grid[1], width)
    joined = [
        [f"**{' '.join(p for p in (a, b) if p)}**"] if a or b else []
        for a, b in zip(top, low, strict=True)
    ]
    return [joined, *grid[2:]]


def _group_labels(grid: Grid, width: int) -> bool:
    """An empty first cell and two or more filled cells over a styled header (group labels
    over the column labels)."""
    texts = _texts(grid[0], width)
    return not texts[0] and sum(1 for t in texts if t) >= 2 and _over_styled_header(grid, width)


def _labels_over_values(grid: Grid, width: int) -> bool:
    """The first row holds no amount and, in some column, a label over cells most of which
    are amounts."""
    if _has_amount(grid[0], width):
        return False
    first = _texts(grid[0], width)
    body = [_texts(r, width) for r in grid[1:]]
    return any(text and holds_figures([r[j] for r in body]) for j, text in enumerate(first))


def holds_figures(column: list[str]) -> bool:
    """Most of the filled cells of `column` (dashes aside) are amounts."""
    below = [t for t in column if t and not _DASH_RE.fullmatch(t)]
    return bool(below) and sum(amount_shape(t) is not None for t in below) * 2 > len(below)


def head(grid: Grid, titled: bool = False) -> Header:
    """The grid with its header row decided (module docstring, after the title rule);
    `titled`: a title row was taken out above it, so its first row is a header only on
    evidence for one (styled, or labels over values)."""
    width = _width(grid)
    if len(grid) < 2:
        return Header(grid)
    if is_empty_row(grid[0]):
        if all(not plain(c) for c in grid[0]):
            return Header(grid, headed=False)
        return Header([_empty_row(width), *grid[1:]], changed=True, headed=False)
    if _group_labels(grid, width):
        return Header(_join_two(grid, width), changed=True)
    if is_styled(grid[0]) and not _has_amount(grid[0], width):
        if _two_line_header(grid, width):
            return Header(_join_two(grid, width), changed=True)
        if not any(is_styled(r) for r in grid[1:]):
            return Header(grid)
    if data_evidence(grid) or (titled and not _labels_over_values(grid, width)):
        return Header([_empty_row(width), *grid], changed=True, headed=False)
    return Header(grid)
