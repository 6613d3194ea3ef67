"""The page-geometry rules (conversion/geometry.py) on small hand-built layouts.

Coordinates are PDF points, top-left origin; a text line 10 pt high is body text of size 10.
Each expected value follows from the rule stated in the function's docstring.
"""

from __future__ import annotations

from collections import Counter

from citechunk.conversion.geometry import (
    GRID_PROSE,
    Block,
    Fragment,
    GridCell,
    Kind,
    PageContext,
    ProseRule,
    Rect,
    StyledLine,
    TextPiece,
    body_size,
    build_blocks,
    classify,
    column_bands,
    columns,
    enclosing,
    find_tables,
    fragment_rows,
    free_runs,
    grid_cells,
    grid_is_prose,
    group_rows,
    gutter_bands,
    gutters,
    is_bold_font,
    is_heading,
    is_italic_font,
    is_mono_font,
    is_prose,
    make_fragment,
    make_lines,
    page_blocks,
    prose_columns,
    size_histogram,
    split_row,
    starts_list_item,
    weighted_median,
)

BODY = PageContext(body_size=10.0, page_height=800.0, strip_headers_footers=True)


def word(
    x0: float, y0: float, x1: float, text: str, font: str = "Helvetica", h: float = 10
) -> TextPiece:
    """A word (or text line) `h` points high whose glyph height is `h`."""
    return TextPiece(Rect(x0, y0, x1, y0 + h), text, font, h)


def line(
    x0: float, y0: float, x1: float, text: str, font: str = "Helvetica", h: float = 10
) -> StyledLine:
    (out,) = make_lines([word(x0, y0, x1, text, font, h)], [])
    return out


def frag(
    x0: float, y0: float, x1: float, text: str, font: str = "Helvetica", h: float = 10
) -> Fragment:
    return make_fragment([line(x0, y0, x1, text, font, h)])


def texts(rows: list[list[Fragment]]) -> list[list[str]]:
    return [[f.text for f in row] for row in rows]


# ----------------------------------------------------------------------------- types, style


def test_rect_measures_union_and_overlaps() -> None:
    a, b = Rect(0, 0, 10, 4), Rect(6, 2, 20, 8)
    assert (a.width, a.height) == (10, 4)
    assert a.union(b) == Rect(0, 0, 20, 8) == enclosing([a, b])
    assert (a.x_overlap(b), a.y_overlap(b)) == (4, 2)
    assert Rect(0, 0, 1, 1).x_overlap(Rect(5, 0, 6, 1)) == 0.0


def test_font_names_say_bold_mono_and_italic_after_the_subset_prefix() -> None:
    assert is_bold_font("ABCDEF+Helvetica-Bold") and is_bold_font("CMBX10")
    assert not is_bold_font("BOLDXX+Times-Roman")  # the subset tag is not the name
    assert is_mono_font("Courier") and is_mono_font("XYZ+DejaVuSansMono")
    assert not is_mono_font("Helvetica")
    assert is_italic_font("Times-Italic") and is_italic_font("CMTI10")
    assert not is_italic_font("Times-Roman")


def test_weighted_median_is_the_lower_median_by_weight() -> None:
    assert weighted_median([(8.0, 1), (10.0, 20)]) == 10.0  # a superscript does not move it
    assert weighted_median([(10.0, 3), (12.0, 3)]) == 10.0
    assert weighted_median([]) == 0.0


def test_a_line_takes_its_style_from_the_characters_of_the_words_inside_it() -> None:
    cells = [word(0, 0, 50, "   "), word(0, 100, 200, "Results and x", "Helvetica")]
    words = [
        word(0, 100, 80, "Results", "Helvetica-Bold", 12.0),
        word(85, 100, 110, "and", "Helvetica-Bold", 12.0),
        word(115, 100, 125, "x", "Helvetica", 6.0),
        word(300, 100, 340, "outside", "Helvetica", 6.0),  # centre outside the line
    ]
    (out,) = make_lines(cells, words)
    assert out.index == 1  # the blank cell is skipped, positions are kept
    assert (out.chars, out.bold_chars, out.mono_chars, out.italic_chars) == (11, 10, 0, 0)
    assert out.size == 12.0 and out.text == "Results and x"
    (alone,) = make_lines([word(0, 0, 80, "Plain", "Courier", 9.04)], [])
    assert (alone.mono_chars, alone.size) == (5, 9.0)  # no words: the line's own font


def test_vertical_text_is_taller_than_wide() -> None:
    assert line(0, 0, 10, "arXiv:2101", h=100).vertical
    assert not line(0, 0, 100, "arXiv:2101").vertical
    assert not line(0, 0, 5, "ab", h=30).vertical  # too short to be text


def test_a_fragment_is_bold_or_italic_from_75_percent_of_its_characters() -> None:
    bold, plain = line(0, 0, 30, "abc", "Arial-Bold"), line(35, 0, 45, "d")
    two = make_fragment([bold, plain])
    assert two.bold and two.text == "abc d" and two.rect == Rect(0, 0, 45, 10)
    assert not make_fragment([bold, line(35, 0, 60, "defg")]).bold
    big = make_fragment([line(0, 0, 10, "A", h=20), line(12, 0, 60, "longer words")])
    assert big.size == 10.0  # the size of the line with most characters
    mono = make_fragment([line(0, 0, 40, "code", "Courier"), line(45, 0, 50, "x")])
    assert mono.mono and mono.style == (False, True, False)


# ----------------------------------------------------------------------------- rows


def test_lines_overlapping_half_their_height_share_a_row_sorted_left_to_right() -> None:
    right, left = line(300, 102, 400, "right"), line(50, 100, 200, "left")
    below = line(50, 120, 200, "below")
    stamp = line(0, 95, 10, "vertical", h=200)
    rows = group_rows([right, below, left, stamp])
    assert [[x.text for x in r] for r in rows] == [["vertical"], ["left", "right"], ["below"]]
    assert [
        [x.text for x in r] for r in group_rows([line(0, 0, 9, "a"), line(20, 6, 30, "b")])
    ] == [
        ["a"],
        ["b"],
    ]  # 4 pt of 10 overlap: not the same row


def test_a_row_is_cut_into_fragments_at_column_gaps() -> None:
    row = [line(50, 0, 100, "left"), line(102, 0, 150, "joined"), line(300, 0, 350, "apart")]
    assert [f.text for f in split_row(row)] == ["left joined", "apart"]
    numbered = [line(50, 0, 70, "1.2"), line(100, 0, 150, "Scope")]  # 3 line heights apart
    assert [f.text for f in split_row(numbered)] == ["1.2 Scope"]
    far = [line(50, 0, 70, "1.2"), line(120, 0, 150, "Scope")]  # 5 line heights apart
    assert [f.text for f in split_row(far)] == ["1.2", "Scope"]
    assert texts(fragment_rows([row[2], row[0], row[1]])) == [["left joined", "apart"]]


# ----------------------------------------------------------------------------- gutters


def test_free_runs_are_the_x_runs_few_enough_rows_cover() -> None:
    rows = [[(0.0, 10.0), (20.0, 30.0)], [(5.0, 12.0)]]
    assert free_runs(rows) == [(12.0, 20.0)]
    assert free_runs(rows, start=-5.0) == [(-5.0, 0.0), (12.0, 20.0)]
    assert free_runs(rows, start=15.0) == [(15.0, 20.0)]
    assert free_runs(rows, max_cross=1) == [(0.0, 5.0), (10.0, 30.0)]
    # a row counts once, however many of its spans overlap; empty spans cover nothing
    assert free_runs([[(0.0, 10.0), (2.0, 8.0)], [(20.0, 20.0), (30.0, 40.0)]], max_cross=0) == [
        (10.0, 30.0)
    ]
    assert free_runs([]) == [] and free_runs([[(3.0, 3.0)]]) == []


def test_gutters_have_text_on_both_sides_and_a_minimum_width() -> None:
    rows = [[(0.0, 40.0), (50.0, 90.0), (92.0, 100.0)]] * 3 + [[(0.0, 95.0)]]
    assert gutters(rows, 5.0) == []  # the last row crosses every gap
    assert gutters(rows, 5.0, max_cross=1) == [(40.0, 50.0)]  # the 2 pt gap is too narrow
    assert gutters(rows, 1.0, max_cross=1) == [(40.0, 50.0), (90.0, 92.0)]
    # the stretch 95-100 that only the first rows cover is text, so 90-92 is between text
    assert gutters([[(0.0, 10.0)], [(20.0, 30.0)]], 50.0) == []


def test_columns_are_the_stretches_between_gutters() -> None:
    rows = [[(0.0, 40.0), (50.0, 90.0), (92.0, 100.0)]] * 3
    assert columns(rows, 5.0) == [(0.0, 40.0), (50.0, 100.0)]  # joined across the 2 pt gap
    assert columns(rows, 1.0) == [(0.0, 40.0), (50.0, 90.0), (92.0, 100.0)]
    title = [[(0.0, 100.0)]]
    assert columns(title + rows, 5.0, max_cross=1) == [(0.0, 40.0), (50.0, 100.0)]
    assert columns([], 5.0) == []


def test_a_prose_rule_checks_count_characters_and_words_of_the_pieces() -> None:
    lines = [["a line of running text here"], ["another line", " of text"]]
    assert is_prose(lines, ProseRule(min_pieces=2, min_chars=40))
    assert not is_prose(lines, ProseRule(min_pieces=3))
    assert not is_prose(lines, ProseRule(min_chars=47))  # 27 + 19 characters, blanks trimmed
    assert is_prose(lines, ProseRule(min_mean_chars=23.0))
    assert not is_prose(lines, ProseRule(min_mean_chars=23.5))
    assert is_prose(lines, ProseRule(min_median_words=6))  # 6 and 4 words: the upper median
    assert not is_prose(lines, ProseRule(min_median_words=7))
    cells = [["12"], ["Total"], ["a line of running text"], ["more text of a line"]]
    assert is_prose(cells, ProseRule(max_short_share=0.5))
    assert not is_prose(cells, ProseRule(max_short_share=0.25))
    assert not is_prose([], ProseRule(min_pieces=0))


def test_prose_columns_needs_every_side_to_be_prose() -> None:
    rule = ProseRule(min_pieces=2, min_mean_chars=10)
    prose = [["first line of text"], ["second line of it"]]
    assert prose_columns([prose, prose], rule)
    assert not prose_columns([prose, [["Name"], ["Value"]]], rule)
    assert not prose_columns([], rule)


# ----------------------------------------------------------------------------- tables

TABLE = [
    ["Name", "Qty", "Price"],
    ["Apple", "3", "1.20"],
    ["Pear", "12", "0.80"],
    ["Plum", "7", "2.10"],
]
XS = [(50, 100), (200, 230), (300, 340)]


def grid(cells: list[list[str]], top: float = 100.0, step: float = 15.0) -> list[list[Fragment]]:
    return [
        [frag(x0, top + i * step, x1, text) for (x0, x1), text in zip(XS, row, strict=True)]
        for i, row in enumerate(cells)
    ]


def test_a_grid_of_running_text_is_prose_and_one_of_short_cells_is_not() -> None:
    sentence = "words of a sentence running on"
    assert grid_is_prose(grid([[sentence] * 3] * 3))
    assert not grid_is_prose(grid(TABLE))
    assert GRID_PROSE.min_median_words == 5


def test_three_rows_of_three_fragments_are_a_table() -> None:
    assert find_tables(grid(TABLE)) == [(0, 4)]
    assert find_tables(grid(TABLE[:2])) == []  # two rows are not enough
    assert find_tables(grid([["words of a sentence running on"] * 3] * 3)) == []
    intro = [frag(50, 40, 400, "A paragraph above the table")]
    assert find_tables([intro, *grid(TABLE)]) == [(1, 5)]


def test_a_table_is_widened_by_close_sparse_rows_and_a_joined_header_line() -> None:
    sparse = [frag(50, 85, 100, "Fruit"), frag(300, 85, 340, "EUR")]
    total = [frag(50, 150, 100, "Total"), frag(300, 150, 340, "4.10")]
    rows = [sparse, *grid(TABLE[1:]), total]
    assert find_tables(rows) == [(0, 5)]
    header = [frag(50, 88, 340, "Name Qty Price")]  # one line, right above, table-wide
    assert find_tables([header, *grid(TABLE[1:])]) == [(0, 4)]
    narrow = [frag(50, 88, 120, "Fruits:")]  # less than half the table's width
    assert find_tables([narrow, *grid(TABLE[1:])]) == [(1, 4)]


def test_column_bands_come_from_the_rows_with_most_fragments() -> None:
    rows = grid(TABLE)
    rows[2] = [frag(40, 130, 90, "Pear"), frag(200, 130, 240, "12"), frag(300, 130, 330, "x")]
    rows.append([frag(50, 160, 340, "a note across the columns")])
    assert column_bands(rows) == [(40, 100), (200, 240), (300, 340)]


def test_gutter_bands_find_columns_a_spanning_row_may_cross() -> None:
    body = [[frag(50, y, 90.5, "a"), frag(200, y, 230, "b")] for y in range(100, 200, 10)]
    assert gutter_bands(body) == [(50, 91), (200, 231)]  # whole points, right edge included
    title = [frag(50, 90, 230, "a title across both columns")]
    assert gutter_bands([title, *body]) == [(50, 91), (200, 231)]  # 1 of 11 rows crosses
    assert gutter_bands([title, *body[:5]]) == [(50, 231)]  # 1 of 6 rows is too many
    assert gutter_bands([]) == []


def test_grid_cells_place_words_in_the_columns_first_row_included() -> None:
    lines = [[frag(50, 100, 340, "Name Qty Price")], *grid(TABLE[1:], top=115)]
    words = [[frag(x0, 100, x1, t) for (x0, x1), t in zip(XS, TABLE[0], strict=True)]]
    words += grid(TABLE[1:], top=115)
    cells = grid_cells(lines, words)
    assert [(c.row, c.col, c.text) for c in cells] == [
        (r, c, TABLE[r][c]) for r in range(4) for c in range(3)
    ]
    assert cells[0] == GridCell(0, 0, Rect(50, 100, 100, 110), "Name")
    gap = [[frag(50, 130, 100, "Pear"), frag(300, 130, 340, "0.80")]]
    sparse = grid_cells(grid(TABLE[:2]) + gap, grid(TABLE[:2]) + gap)
    assert [(c.row, c.col) for c in sparse if c.row == 2] == [(2, 0), (2, 2)]


# ----------------------------------------------------------------------------- blocks


def test_list_items_start_with_a_bullet_or_an_enumerator() -> None:
    assert all(starts_list_item(t) for t in ("• item", "- item", "1. item", "b) item", "(iv) x"))
    assert not any(starts_list_item(t) for t in ("1.5 million", "Item", "-x"))


def test_lines_continue_a_paragraph_when_close_aligned_and_alike() -> None:
    first, second = frag(50, 100, 400, "A paragraph"), frag(50, 112, 380, "goes on")
    far = frag(50, 140, 400, "after a blank line")
    bold = frag(50, 152, 200, "Bold line", "Arial-Bold")
    item = frag(50, 164, 200, "- an item")
    shifted = frag(250, 176, 400, "another column")
    blocks = build_blocks([second, far, first, bold, item, shifted])
    assert [[f.text for f in b] for b in blocks] == [
        ["A paragraph", "goes on"],
        ["after a blank line"],
        ["Bold line"],
        ["- an item"],
        ["another column"],
    ]


def test_headings_are_short_and_larger_or_bold_or_numbered_capitals() -> None:
    def heading(text: str, size: float = 10.0, font: str = "Helvetica", n: int = 1) -> bool:
        block = [frag(50, 100 + 12 * i, 400, text, font, size) for i in range(n)]
        return is_heading(block, " ".join(f.text for f in block), 10.0)

    assert heading("Introduction", 12.0)
    assert heading("Method", font="Arial-Bold")
    assert heading("IV. TEXT DATA") and heading("A. Learned Features", font="Times-Italic")
    assert not heading("Introduction")  # body size, regular
    assert not heading("IV. Text data")  # numbered, but neither capitals nor italic
    assert not heading("This sentence is set in large type for emphasis only.", 14.0)
    assert not heading("E = mc + ab", 14.0)  # a displayed formula
    assert not heading("a, b", 14.0)  # fewer than three letters
    assert not heading("Bold, but a clause,", font="Arial-Bold")
    assert not heading("Some larger words " * 4, 11.6, n=2)  # 2 lines, > 100 chars, < 1.3x
    assert heading("Some larger words " * 4, 13.0, n=2)


def test_blocks_are_classified_by_position_style_and_text() -> None:
    def kind(f: Fragment, ctx: PageContext = BODY) -> Kind:
        return classify([f], ctx)

    # running headers and footers are the running-lines pass's to decide, not one page's band
    assert kind(frag(50, 20, 300, "Journal of Things, vol. 3")) == Kind.TEXT
    assert kind(frag(300, 770, 310, "7")) == Kind.TEXT
    keep = PageContext(10.0, 800.0, strip_headers_footers=False)
    assert kind(frag(50, 20, 300, "Big Title", h=20)) == Kind.SECTION_HEADER
    assert kind(frag(50, 300, 300, "print(x)", "Courier")) == Kind.CODE
    assert kind(frag(50, 300, 300, "Results", "Arial-Bold")) == Kind.SECTION_HEADER
    assert kind(frag(50, 300, 300, "• an item of a list")) == Kind.LIST_ITEM
    assert kind(frag(50, 300, 300, "plain text of the body")) == Kind.TEXT
    assert kind(frag(10, 300, 20, "arXiv:2101.00001", h=200)) == Kind.PAGE_HEADER
    assert kind(frag(10, 300, 20, "arXiv:2101.00001", h=200), keep) == Kind.TEXT


def test_body_size_is_the_size_with_most_characters() -> None:
    frags = [frag(0, 0, 9, "Title", h=20), frag(0, 30, 9, "body text here"), frag(0, 50, 9, "x")]
    hist = size_histogram(frags)
    assert hist == Counter({20.0: 5, 10.0: 15})
    assert body_size(hist) == 10.0
    assert body_size(Counter({9.0: 4, 11.0: 4})) == 9.0  # a tie: the smaller
    assert body_size(Counter()) == 10.0
    assert size_histogram([frag(0, 0, 9, "ab", h=10.3)]) == Counter({10.5: 2})


def test_page_blocks_put_every_line_in_one_block_tables_first() -> None:
    title = [frag(50, 40, 300, "Fruit prices", h=16)]
    para = [frag(50, 70, 400, "Prices of the fruit we sell.")]
    rows = [title, para, *grid(TABLE)]
    blocks = page_blocks(rows, BODY)
    assert [b.kind for b in blocks] == [Kind.TABLE, Kind.SECTION_HEADER, Kind.TEXT]
    assert blocks[0] == Block(tuple(f for row in rows[2:] for f in row), Kind.TABLE)
    lines = [id(x) for row in rows for f in row for x in f.lines]
    placed = [id(x) for b in blocks for f in b.fragments for x in f.lines]
    assert sorted(placed) == sorted(lines)  # every line in exactly one block
    assert blocks[0].rect == Rect(50, 100, 340, 155)
