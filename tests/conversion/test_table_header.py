"""Whether a table has a header row (`tables.header`, inside the table rule `tables.grid`):
rules on grids, then on a real PDF with a headerless table, a title row and a table that runs
across a page break (`sample_pdfs/make_samples.py`, `canteen_prices`)."""

from __future__ import annotations

from types import ModuleType

import pytest

from citechunk import ChunkOptions, chunk_markdown
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.repairs.pagebreaks import join_page_tables
from citechunk.conversion.tables.grid import check_grid, parse, render, words
from citechunk.conversion.tables.header import data_evidence, head, take_title
from conftest import wide_pdf


def checked(rows: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """(caption, rendered lines) after the table rule, with every word in the text layer."""
    result = check_grid(parse(rows), words(rows))
    assert not result.reason
    return result.caption, render(result.grid).split("\n")


MENU = [
    "|Chicken skewers|100г|230|",
    "|---|---|---|",
    "|Pork skewers|150г|310|",
    "|Lamb kebab|120г|290|",
]


def test_a_first_row_of_amounts_over_amounts_is_data_under_an_empty_header() -> None:
    caption, lines = checked(MENU)
    assert caption == ()
    assert lines[:3] == ["| | | |", "|---|---|---|", "|Chicken skewers|100г|230|"]
    assert lines[3:] == ["|Pork skewers|150г|310|", "|Lamb kebab|120г|290|"]
    assert data_evidence(parse(MENU)) == "amount over amounts in column 2"


def test_each_kind_of_evidence_makes_the_first_row_data() -> None:
    long = "the party shall give notice in writing within thirty days of the event"
    cases = {
        "long text": [f"|Clause 1|{long}|", "|---|---|", f"|Clause 2|{long} again|"],
        "repeated": ["|Director|Ann Lee|", "|---|---|", "|Treasurer|Bo Ek|", "|Director|Cy Do|"],
        "contents": ["|Overview ... 3|", "|---|", "|Install ... 5|", "|Usage ... 9|"],
        "numbered": ["|Week 1|Ann|", "|---|---|", "|Week 2|Bo|", "|Week 3|Cy|"],
    }
    for name, rows in cases.items():
        assert data_evidence(parse(rows)), name
        assert checked(rows)[1][0].replace(" ", "").strip("|") == "", name


def test_a_header_of_labels_over_values_is_kept() -> None:
    kept = [
        [
            "| Item | 2022 | 2021 |",
            "|---|---|---|",
            "| Revenue | 1,234 | 999 |",
            "| Cost | 5 | 7 |",
        ],
        ["|Name|1|2|3|", "|---|---|---|---|", "|Ann|12|13|14|", "|Bo|13|15|16|"],  # numbering
        ["|Dose|10 mg|20 mg|", "|---|---|---|", "|Day 1|4.5|6.1|", "|Day 2|4.8|6.0|"],  # shapes
        ["|**Name**|**Amount**|", "|---|---|", "|Ann|12|", "|Bo|13|"],
        ["|Name|Town|", "|---|---|", "|Ann|Ghent|", "|Name|Town|", "|Bo|Ghent|"],  # repeated head
    ]
    for rows in kept:
        assert head(parse(rows)).headed, rows
        assert not data_evidence(parse(rows)) or rows[0].startswith("|**"), rows


def test_a_styled_first_row_holding_amounts_is_no_header_by_style() -> None:
    rows = ["|**Introduction**|**3**|", "|---|---|", "|**Methods**|**5**|", "|Results|9|"]
    assert not head(parse(rows)).headed


def test_a_title_row_leaves_the_table_as_its_caption() -> None:
    rows = ["|Table 2. Sites|||", "|---|---|---|", "|Site|Opens|Closes|", "|Ghent|8|17|"]
    caption, lines = checked([*rows, "|Lier|9|16|"])
    assert caption == ("Table 2. Sites",)
    assert lines[0] == "|Site|Opens|Closes|"
    # A label of the rows below, like other rows of the table, is no title.
    grouped = ["|Assets||", "|---|---|", "|Cash|5|", "|Liabilities||", "|Debt|3|"]
    assert take_title(parse(grouped)) == ((), parse(grouped))


def test_a_title_spanning_the_table_written_in_every_column_is_its_caption() -> None:
    title = "Repeater Trustees, Appointed"
    rows = [f"|{title}|{title}|{title}|", "|---|---|---|", "|Belmont 145.430|Larry Arone|WA1RTT|"]
    caption, lines = checked([*rows, "|Boston 927.775|Rick Zack|K1RJZ|"])
    assert caption == (title,)
    assert lines[:3] == ["| | | |", "|---|---|---|", "|Belmont 145.430|Larry Arone|WA1RTT|"]
    labelled = ["|Table 4|Binding constants|Binding constants|", "|---|---|---|"]
    header = "||Inhibitor A (nM)|Inhibitor B (nM)|"
    caption, lines = checked([*labelled, header, "|N-domain|21.03|11.21|", "|C-domain|60|10|"])
    assert caption == ("Table 4 Binding constants",)
    assert lines[0] == header
    # A label repeated over the figure columns only is a header (joined per column), no title.
    spanned = ["|Item|Years ended|Years ended|", "|---|---|---|", "||2022|2021|", "|Cash|5|4|"]
    assert take_title(parse([*spanned, "|Debt|3|2|"]))[0] == ()


@pytest.mark.corpus
def test_a_roster_title_written_in_every_column_reads_as_a_caption() -> None:
    markdown = convert(
        wide_pdf("pub_minuteman_repeater_newsletter_2009_09.pdf"), ConvertOptions(pages="8")
    ).markdown
    assert "\n**Repeater Trustees, Appointed**\n\n| | | |\n|---|---|---|\n|Belmont" in markdown


def test_a_title_cut_at_the_column_lines_over_a_styled_header_is_the_caption() -> None:
    rows = [
        "|Opening hours|by site||",
        "|---|---|---|",
        "|**Site**|**Weekdays**|**Weekends**|",
        "|Main building|7:30 to 18:00|closed|",
        "|North campus|8:00 to 16:30|10:00 to 14:00|",
    ]
    caption, lines = checked(rows)
    assert caption == ("Opening hours by site",)
    assert lines[:2] == ["|**Site**|**Weekdays**|**Weekends**|", "|---|---|---|"]


def test_a_row_under_a_title_is_a_header_only_on_evidence() -> None:
    rows = ["|Features||", "|---|---|", "|Speed|fast|", "|Weight|light|", "|Noise|low|"]
    caption, lines = checked(rows)
    assert caption == ("Features",) and lines[0] == "| | |" and lines[2] == "|Speed|fast|"


def test_a_styled_header_printed_on_two_lines_is_one_row() -> None:
    rows = [
        "|**Name of**|**Date of**|",
        "|---|---|",
        "|**employee**|**birth**|",
        "|Ann Lee|2001|",
        "|Bo Ek|2002|",
    ]
    assert checked(rows)[1][:3] == [
        "|**Name of employee**|**Date of birth**|",
        "|---|---|",
        "|Ann Lee|2001|",
    ]


def test_the_rule_is_idempotent_and_keeps_an_empty_header() -> None:
    for rows in (MENU, ["|Col1|Col2|", "|---|---|", "|a|1|", "|b|2|"]):
        _, once = checked(rows)
        assert set(once[0]) == {"|", " "}
        assert not check_grid(parse(once), words(once)).changed  # its bytes stay


def test_a_continued_table_without_a_header_takes_the_previous_pages_header() -> None:
    end = "Prices:\n\n|**Product**|**Price**|\n|---|---|\n|Carrots|1.50|"
    cont = "| | |\n|---|---|\n|Leeks|4.83|\n|Cabbage|5.94|"
    assert join_page_tables([end, cont])[1] == (
        "|**Product**|**Price**|\n|---|---|\n|Leeks|4.83|\n|Cabbage|5.94|"
    )
    headerless = "| | |\n|---|---|\n|Carrots|1.50|"
    assert join_page_tables([headerless, cont]) == [headerless, cont]


def test_row_groups_of_a_headerless_table_repeat_no_row() -> None:
    rows = [f"|Dish of the house number {i}|{100 + i}г|{200 + i}|" for i in range(90)]
    grid = check_grid(parse([rows[0], "|---|---|---|", *rows[1:]]), words(rows)).grid
    md = "# Menu\n\n" + render(grid) + "\n"
    chunks = chunk_markdown(md, ChunkOptions())
    assert len(chunks) > 2
    seen = [ln for c in chunks for ln in c.body.split("\n") if ln.startswith("|Dish")]
    assert seen == rows  # every row once: none repeated as a header
    for c in chunks[1:]:
        assert c.body.startswith("|Dish of the house number")


@pytest.fixture(scope="module")
def canteen(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("tables")
    make_samples.generate(out, make_samples.TABLE_SAMPLES)
    return convert(out / "canteen_prices.pdf", ConvertOptions(backend="pymupdf")).markdown


def _table_after(markdown: str, line: str) -> list[str]:
    lines = markdown.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("|") and i > lines.index(line))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    return lines[start:end]


@pytest.mark.slow
def test_a_real_pdf_table_without_a_header_gets_an_empty_header_row(canteen: str) -> None:
    table = _table_after(canteen, "# Canteen Prices and Hours")
    assert table[0].replace(" ", "") == "||||" and table[1] == "|---|---|---|"
    assert table[2] == "|Chicken skewers|100 g|4.20|" and len(table) == 10


@pytest.mark.slow
def test_a_real_pdf_title_row_is_a_caption_above_its_table(canteen: str) -> None:
    table = _table_after(canteen, "## Opening hours")
    assert "\n**Opening hours by site**\n\n|**Site**|**Weekdays**|**Weekends**|\n" in canteen
    assert table[0] == "|**Site**|**Weekdays**|**Weekends**|" and len(table) == 6


@pytest.mark.slow
def test_a_real_pdf_table_continued_on_the_next_page_has_its_header(canteen: str) -> None:
    page_two = canteen.split("<!-- page 2 -->")[1]
    assert page_two.lstrip().startswith("|**Product**|**Supplier town**|**Price per kg**|\n|---|")
    assert "|Leeks grade A|Ghent|4.83|" in page_two


def test_group_labels_over_a_styled_header_join_it_per_column() -> None:
    rows = [
        "||Board meetings|Board meetings|Audit meetings|Audit meetings|",
        "|---|---|---|---|---|",
        "|**Director**|**Eligible**|**Attended**|**Eligible**|**Attended**|",
        "|Ann Lee|2|2|-|-|",
        "|Bo Ek|2|1|1|1|",
    ]
    caption, lines = checked(rows)
    assert caption == () and lines[0] == (
        "|**Director**|**Board meetings Eligible**|**Board meetings Attended**"
        "|**Audit meetings Eligible**|**Audit meetings Attended**|"
    )
    assert not check_grid(parse(lines), words(rows)).changed  # a header the rule keeps


def test_a_contents_table_under_an_empty_header_is_navigation() -> None:
    from citechunk.chunking.navigation import chunk_role

    rows = ["|Overview ... 3|", "|---|", "|Install ... 5|", "|Usage ... 9|"]
    _, lines = checked(rows)
    assert lines[0] == "| |" and chunk_role("\n".join(lines)) == "navigation"
