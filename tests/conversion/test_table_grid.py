"""The table rule on grids (`tables.grid`): mend cut words, join stacked headers, flatten only
a grid that contradicts the text layer."""

from __future__ import annotations

from pathlib import Path

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.tables.grid import (
    check_grid,
    cut_words,
    new_captions,
    parse,
    render,
    words,
)
from conftest import wide_pdf

STATEMENT = [
    "||**Three Mo**<br>**Septem**|**nths Ended**<br>**ber 30,**|",
    "|---|---|---|",
    "||**2022**|**2023**|",
    "|Net sales|$ 59,340|$ 63,171|",
]
LAYER = words(["Three Months Ended", "September 30,", "2022 2023", "Net sales $ 59,340 $ 63,171"])


def test_a_header_cut_over_two_columns_spans_both_and_joins_the_year_below() -> None:
    checked = check_grid(parse(STATEMENT), LAYER)
    assert checked.changed and not checked.reason and checked.mended == 2
    assert render(checked.grid).split("\n") == [
        "||Three Months Ended September 30, 2022|Three Months Ended September 30, 2023|",
        "|---|---|---|",
        "|Net sales|$ 59,340|$ 63,171|",
    ]


def test_a_spanning_label_over_empty_cells_repeats_over_each_column() -> None:
    rows = ["||Year Ended December 31,||", "|---|---|---|", "||2017|2016|", "|Cash|5|7|"]
    layer = words(["Year Ended December 31,", "2017 2016", "Cash 5 7"])
    checked = check_grid(parse(rows), layer)
    assert render(checked.grid).split("\n")[0] == (
        "||Year Ended December 31, 2017|Year Ended December 31, 2016|"
    )


def test_a_body_cut_moves_to_the_word_boundary_and_figures_are_never_joined() -> None:
    rows = ["|Item|Amount|", "|---|---|", "|Accounts recei|vable 848|", "|Total 1|23|"]
    layer = words(["Item Amount", "Accounts receivable 848", "Total 1 23 123"])
    checked = check_grid(parse(rows), layer)
    assert render(checked.grid).split("\n")[2:] == ["|Accounts receivable|848|", "|Total 1|23|"]


def test_an_agreeing_table_is_unchanged_and_cut_words_are_counted() -> None:
    rows = ["|Item|Amount|", "|---|---|", "|Cash|5|"]
    assert not check_grid(parse(rows), words(["Item Amount Cash 5"])).changed
    layer = words(["11000 hours (Total, all aircraft)", "L A TEX"])
    assert cut_words([[["11000 hours (Total, all aircr"], ["aft)"]]], layer) == (2, 0)
    assert cut_words([[["LATEX"], ["JOBCTL"]]], layer) == (0, 2)


REQUIREMENTS = [
    "|Requirement|Testing|Guidance|",
    "|---|---|---|",
    "|1.1 Keep a list|1.1 Examine the list|A list shows<br>what runs|",
    "|Note: rules 1.2 to 1.3 apply to web app<br>interfaces only|lications and their|Web apps face<br>more attacks|",
    "|1.2 Escape output|1.2 Examine the code|Escaping stops<br>injection|",
]
REQUIREMENT_LAYER = words(
    [
        "Requirement Testing Guidance",
        "1.1 Keep a list 1.1 Examine the list A list shows what runs",
        "Note: rules 1.2 to 1.3 apply to web applications and their interfaces only",
        "Web apps face more attacks",
        "1.2 Escape output 1.2 Examine the code Escaping stops injection",
    ]
)


def test_a_note_running_across_two_columns_is_one_spanning_cell_of_the_table() -> None:
    checked = check_grid(parse(REQUIREMENTS), REQUIREMENT_LAYER)
    assert not checked.reason and checked.changed
    assert render(checked.grid).split("\n")[3] == (
        "|Note: rules 1.2 to 1.3 apply to web applications and their interfaces only||"
        "Web apps face more attacks|"
    )


def test_a_stray_line_across_figure_cells_reads_the_table_as_lines() -> None:
    rows = [*REQUIREMENTS[:3], "|1.3 Log access|100<br>web app|100<br>lications|", REQUIREMENTS[4]]
    assert check_grid(parse(rows), REQUIREMENT_LAYER).reason == "text runs across a column line"


def test_text_running_across_column_lines_in_half_the_rows_reads_as_lines() -> None:
    rows = [*REQUIREMENTS[:2], REQUIREMENTS[3], REQUIREMENTS[3], REQUIREMENTS[4]]
    assert check_grid(parse(rows), REQUIREMENT_LAYER).reason == "text runs across a column line"


@pytest.mark.corpus
def test_a_statement_header_cut_through_words_stays_a_table(shared_dir: Path) -> None:
    pdf = shared_dir / "eval" / "dev2" / "pdfs" / "2023_Q3_AMZN.pdf"
    if not pdf.is_file():
        pytest.skip("shared eval set absent")
    markdown = convert(pdf, ConvertOptions(pages="4")).markdown
    assert "|Three Months Ended September 30, 2022|" in markdown
    assert "|Net product sales|$ 59,340|$ 63,171|$ 172,370|$ 179,184|" in markdown
    assert "\n**(in millions, except per share data) (unaudited)**\n" in markdown


def test_a_period_row_and_a_unit_cell_of_the_header_go_to_the_caption() -> None:
    rows = [
        "|March 31, 2021|||",
        "|---|---|---|",
        "|(in millions)|Actual|Minimum|",
        "|Net Capital|25,908|4,966|",
    ]
    layer = words(["March 31, 2021", "(in millions) Actual Minimum", "Net Capital 25,908 4,966"])
    checked = check_grid(parse(rows), layer)
    assert checked.caption == ("March 31, 2021", "(in millions)")
    assert render(checked.grid).split("\n")[0] == "||Actual|Minimum|"


def test_a_unit_line_spanning_the_figure_columns_is_the_caption_not_a_header() -> None:
    unit = "(dollars in millions, except per share amounts)"
    rows = [
        f"||{unit}|{unit}|",
        "|---|---|---|",
        "|At December 31,|**2022**|2021|",
        "|Cash and cash equivalents|$ 2,605|$ 2,921|",
    ]
    layer = words([unit, "At December 31, 2022 2021", "Cash and cash equivalents $ 2,605 $ 2,921"])
    checked = check_grid(parse(rows), layer)
    assert checked.caption == (unit,)
    assert render(checked.grid).split("\n")[0] == "|At December 31,|**2022**|2021|"
    assert new_captions(checked.caption, f"**{unit}**") == []  # printed right above already
    assert new_captions(checked.caption, "Consolidated Balance Sheets") == [unit]


def test_a_period_spanning_the_figure_columns_stays_a_header() -> None:
    rows = [
        "||Three Months Ended|Three Months Ended|",
        "|---|---|---|",
        "||2022|2023|",
        "|Net sales|59,340|63,171|",
    ]
    layer = words(["Three Months Ended", "2022 2023", "Net sales 59,340 63,171"])
    checked = check_grid(parse(rows), layer)
    assert checked.caption == ()
    assert (
        render(checked.grid).split("\n")[0] == "||Three Months Ended 2022|Three Months Ended 2023|"
    )


CODES = [
    "|White run length|Code word|Black run length|Code word|",
    "|---|---|---|---|",
    "|4<br>|1011<br>|4<br>|011<br>|",
    "|5<br>6|1100<br>1110|5<br>6|0011<br>0010|",
    "|7|1111|7|00011|",
]


def test_printed_rows_stacked_in_one_grid_row_become_rows() -> None:
    checked = check_grid(parse(CODES), words(c for row in parse(CODES) for c in row[0]))
    assert checked.changed and not checked.reason
    assert render(checked.grid).split("\n")[2:] == [
        "|4|1011|4|011|",
        "|5|1100|5|0011|",
        "|6|1110|6|0010|",
        "|7|1111|7|00011|",
    ]


def test_a_wrapped_label_beside_one_figure_or_a_note_under_a_figure_stays_one_row() -> None:
    grid = parse(
        [
            "|Item|2022|2021|",
            "|---|---|---|",
            "|Net change in unrealized<br>appreciation|5,734|(53,116)|",
            "|Revenue|1,234<br>(12%)|1,100<br>(11%)|",
            "|Costs|900|850|",
        ]
    )
    checked = check_grid(grid, words(plain for row in grid for c in row for plain in c))
    assert len(checked.grid) == len(grid)


SCHEDULE = [
    "|No. of shares|Description|Average Cost ($)|Fair|",
    "|---|---|---|---|",
    "|(contracts)||(Premiums received)|Value|",
    "||||($)|",
    "||Canadian Common Equities|||",
    "|269,300|Bank of Montreal|25,250,753|35,380,634|",
    "|370,800|Bank of Nova Scotia|24,981,104|26,022,744|",
    "||Total Canadian Common Equities|||",
    "||in Core Holdings (79.8%)|50,231,857|61,403,378|",
    "||Other Equities|||",
    "|368,790|Bank of America|16,717,955|18,923,717|",
]


def test_a_header_set_over_several_rows_is_one_header_row_and_a_wrapped_label_one_row() -> None:
    """The header's further printed lines (no digit, text over figure columns) join it per
    column; a label row without figures whose next row goes on in lower case beside the
    figures is one row with it; group labels (upper case, no figure column) stay rows."""
    grid = parse(SCHEDULE)
    checked = check_grid(grid, words(line for row in grid for c in row for line in c))
    assert checked.changed and not checked.reason
    assert render(checked.grid).split("\n") == [
        "|No. of shares (contracts)|Description|Average Cost ($) (Premiums received)|Fair Value ($)|",
        "|---|---|---|---|",
        "||Canadian Common Equities|||",
        "|269,300|Bank of Montreal|25,250,753|35,380,634|",
        "|370,800|Bank of Nova Scotia|24,981,104|26,022,744|",
        "||Total Canadian Common Equities in Core Holdings (79.8%)|50,231,857|61,403,378|",
        "||Other Equities|||",
        "|368,790|Bank of America|16,717,955|18,923,717|",
    ]


def test_a_label_row_over_a_row_opening_upper_case_or_a_row_of_its_own_stays_two_rows() -> None:
    grid = parse(
        [
            "|Item|2022|2021|",
            "|---|---|---|",
            "|Operating expenses|||",
            "|Salaries|1,200|1,100|",
            "|27 High pressure fuel|W|D > 300mm|",
            "|injection pump body|TR|D ≤ 300mm|",
            "|Net change|5,734|(53,116)|",
        ]
    )
    checked = check_grid(grid, words(line for row in grid for c in row for line in c))
    assert len(checked.grid) == len(grid)


@pytest.mark.corpus
def test_a_schedule_header_over_three_printed_lines_reads_as_one_row() -> None:
    markdown = convert(
        wide_pdf("biz_canadian_banc_corp_annual_report_2022.pdf"), ConvertOptions(pages="20")
    ).markdown
    assert "Fair Value ($)|" in markdown and "|Fair|" not in markdown
    assert "|Total Canadian Common Equities in Core Holdings (79.8%)|" in markdown


@pytest.mark.corpus
def test_a_code_table_ruled_by_groups_reads_one_row_a_code() -> None:
    markdown = convert(
        wide_pdf("tech_itu_t6_group4_fax_standard.pdf"), ConvertOptions(pages="7")
    ).markdown
    assert "|5|1100|5|0011|\n|6|1110|6|0010|" in markdown
    assert "|5 6|" not in markdown


def test_an_italic_letter_inside_a_word_cuts_no_word() -> None:
    """Emphasis marks inside a word ("2_B_2": an italic B in the state "2B2") are markup, not
    a column line: the table stays a table; an escaped underscore stays a character."""
    rows = [
        "||2_B_2 Re|2_B_2 deg|2_A_1 Re|",
        "|---|---|---|---|",
        "|Present work|2.8161|69|2.9779|",
        "|Ref. 1|2.593|70.45|2.758|",
    ]
    layer = words(
        ["2B2 Re 2B2 deg 2A1 Re", "Present work 2.8161 69 2.9779", "Ref. 1 2.593 70.45 2.758"]
    )
    assert not check_grid(parse(rows), layer).reason
    assert cut_words(parse(["|max\\_value|3|"]), words(["max_value 3"])) == (0, 0)


@pytest.mark.corpus
def test_a_results_table_with_italic_letters_in_its_header_stays_a_table() -> None:
    markdown = convert(
        wide_pdf("tech_jcp_silver_trimer_jahn_teller.pdf"), ConvertOptions(pages="15")
    ).markdown
    assert "|Present work|2.8161|69|2.9779|55|2.7509|" in markdown
