"""The chunker keeps the author's units (issue 51), on built Markdown: a table whole with its
caption or in row groups under its real header, no row in two chunks, short sections packed,
no chunk ending on a lead-in line or made of a heading, the path line within a quarter of the
window, and each chunk's ``kind``."""

from __future__ import annotations

import pytest

from citechunk import ChunkOptions, chunk_markdown
from citechunk.chunking import resolve_embedder
from citechunk.chunking.pack import LEAD_IN
from citechunk.chunking.split import is_header_row
from citechunk.markers import strip_markers
from citechunk.models import Chunk

MINILM = ChunkOptions()  # the default embedder and window
LIMIT = resolve_embedder(MINILM.embedder).limit
COUNT = resolve_embedder(MINILM.embedder).counter.count


def chunks_of(markdown: str, options: ChunkOptions = MINILM) -> list[Chunk]:
    chunks = chunk_markdown(markdown, options)
    for c in chunks:
        assert c.token_count == COUNT(c.text) <= LIMIT
    return chunks


def price_table(rows: int, header: str = "| Item | Unit | Price |") -> str:
    lines = [header, "|---|---|---|"]
    lines += [
        f"| Part number {i} for the pump | box of {i % 7 + 2} | {10 + i}.50 |" for i in range(rows)
    ]
    return "\n".join(lines)


def row_lines(md: str) -> list[str]:
    return [ln for ln in md.split("\n") if ln.startswith("| Part number")]


def test_a_table_that_fits_is_one_chunk_with_its_caption() -> None:
    md = (
        "# Prices\n\n" + "The pump is serviced yearly by the supplier. " * 60 + "\n\n"
        "Table 3: Spare parts and prices\n\n" + price_table(6) + "\n"
    )
    chunks = chunks_of(md)
    table = [c for c in chunks if "| Part number" in c.body]
    assert len(table) == 1 and table[0].kind == "table"
    assert table[0].body.startswith("Table 3: Spare parts and prices\n\n| Item | Unit | Price |")


def test_a_long_table_is_cut_into_full_row_groups_under_its_header() -> None:
    md = "# Prices\n\nTable 3: Spare parts and prices\n\n" + price_table(70) + "\n"
    chunks = chunks_of(md)
    assert len(chunks) > 3 and {c.kind for c in chunks} == {"table-rows"}
    seen: list[str] = []
    for k, c in enumerate(chunks):
        assert "| Item | Unit | Price |\n|---|---|---|" in c.body
        assert c.body.startswith("Table 3: Spare parts and prices\n\n| Item |")
        rows = row_lines(c.body)
        assert len(rows) >= 3
        seen += rows
        if k + 1 < len(chunks):  # as large as the window allows: the next row would not fit
            nxt = row_lines(chunks[k + 1].body)[0]
            assert COUNT(c.text + "\n" + nxt) > LIMIT or len(row_lines(chunks[k + 1].body)) <= 3
    assert seen == row_lines(md)  # every row once, in order: no row in two chunks
    spans = [(c.char_start, c.char_end) for c in chunks]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    for c in chunks:  # the offset rule: the body is the repeated head, then the cited span
        span = strip_markers(md[c.char_start : c.char_end]).strip()
        assert c.body.endswith(span)


def test_a_first_row_that_is_data_is_not_repeated_as_a_header() -> None:
    """A menu-like table whose Markdown header row is a dish (figures in the same columns as
    the rows below): later pieces repeat no header row at all."""
    rows = [f"|Dish of the house number {i}|{100 + i}г | {200 + i}|" for i in range(90)]
    md = "# Menu\n\n" + "\n".join([rows[0], "|---|---|---|", *rows[1:]]) + "\n"
    chunks = chunks_of(md)
    assert len(chunks) > 2
    for c in chunks[1:]:
        assert rows[0] not in c.body and "|---|" not in c.body
        assert c.body.startswith("|Dish of the house number")
    assert not is_header_row(rows[0], rows[1])
    assert not is_header_row("|Col1|Col2|Col3|", rows[1])
    assert is_header_row("| Item | 2022 | 2021 |", "| Revenue | 1,234 | 999 |")


def test_years_with_their_units_head_the_columns_and_are_repeated() -> None:
    """A statement's header row of years with their units ("2022 $", "2022 No.") heads its
    columns: a piece that starts inside the table repeats it."""
    head = "|Movements in shares on issue|**2022** **$**|**2021** **$**|**2022** **No.**|"
    rows = ["|At 1 July|14,837,155|14,245,155|425,000,000|"]
    rows += [
        f"|Shares issued for placement {i}|{i},875,000|-|{390 + i},000,000|" for i in range(40)
    ]
    md = "# Report\n\n## Issued capital\n\n" + "\n".join([head, "|---|---|---|---|", *rows]) + "\n"
    chunks = chunks_of(md)
    assert len(chunks) > 1
    assert all(c.body.startswith(f"{head}\n|---|---|---|---|\n") for c in chunks)
    assert is_header_row(head, rows[0])
    # a date cut at a column line still names its column ("November" | "30 2018")
    assert is_header_row("||Year ended November 2019|30 2018|", "|Total revenue|0.83|0.82|")


def test_a_row_that_fits_alone_is_never_cut() -> None:
    """Rows too long to share a chunk with the header stay whole, without it."""
    cell = "The applicant shall provide the certificate within thirty days of the request. " * 8
    rows = [f"| Article {i} | {cell} |" for i in range(4)]
    md = "# Articles\n\n| Old text | New text |\n|---|---|\n" + "\n".join(rows) + "\n"
    chunks = chunks_of(md)
    for row in rows:
        assert sum(row in c.body for c in chunks) == 1


def test_short_sections_are_packed_under_their_parent() -> None:
    entries = "".join(f"## Term {i}\n\nThe meaning of term {i}.\n\n" for i in range(12))
    md = "# Glossary\n\n" + entries
    chunks = chunks_of(md)
    assert len(chunks) == 1
    (c,) = chunks
    assert c.heading_path == ("Glossary",)
    assert c.body.startswith("## Term 0\n\nThe meaning of term 0.\n\n## Term 1")
    unpacked = chunk_markdown(md, MINILM, pack_short=False)
    assert len(unpacked) == 12


def test_a_bold_label_section_is_never_a_chunk_alone() -> None:
    body = "The tenant pays the fee before the first day of each month. " * 3
    md = "# Fees\n\n## Article 1\n\n**Article 1712**\n\n## Article 2\n\n" + body + "\n"
    chunks = chunks_of(md)
    assert len(chunks) == 1 and "**Article 1712**" in chunks[0].body


def test_a_list_stays_with_its_lead_in_and_no_chunk_ends_on_one() -> None:
    para = "The committee reviewed the budget and the plan for the coming year in detail. " * 6
    items = "\n".join(
        f"- Item {i}: the school shall report the figure for area {i}." for i in range(40)
    )
    md = f"# Rules\n\n{para}\n\n{para}\n\nThe requirements are as follows:\n\n{items}\n"
    chunks = chunks_of(md)
    assert len(chunks) > 2
    for c in chunks:
        assert not c.body.rstrip().endswith(":"), c.body
    lead = next(c for c in chunks if "as follows:" in c.body)
    assert lead.body.startswith("The requirements are as follows:\n\n- Item 0")
    assert lead.kind == "list"


def test_a_loose_list_that_fits_a_chunk_opens_one_with_its_lead_in() -> None:
    """Items set apart by blank lines after a lead-in are one list: a chunk that would end
    after its first items ends before the lead-in, and the lead-in and every item share the
    next chunk (which they fit)."""
    para = "The committee reviewed the budget and the plan for the coming year in detail. " * 12
    items = "\n\n".join(
        f"- Item {i}: the school shall report the figure for area {i}." for i in range(8)
    )
    md = f"# Rules\n\n{para}\n\nThe requirements are as follows:\n\n{items}\n"
    chunks = chunks_of(md)
    assert len(chunks) == 2
    assert chunks[1].body.startswith("The requirements are as follows:\n\n- Item 0")
    assert chunks[1].body.rstrip().endswith("area 7.")


def test_a_long_path_line_takes_at_most_a_quarter_of_the_window() -> None:
    heads = "".join(
        f"{'#' * (k + 1)} Part {k} of the regulation on the safety of pressure equipment and vessels\n\n"
        for k in range(5)
    )
    md = heads + "The equipment shall be inspected every two years by a notified body.\n"
    (c,) = chunks_of(md)
    line = c.text.split("\n\n", 1)[0]
    assert COUNT(line + "\n\n") <= LIMIT // 4
    assert line.endswith("Part 4 of the regulation on the safety of pressure equipment and vessels")
    assert "…" in line  # outer headings shortened before any is dropped


def test_cjk_text_is_cut_at_sentence_ends_not_at_line_breaks() -> None:
    """A line break inside a CJK sentence (no case, no space) is no place to cut: every piece
    of a long section starts after a 。 (or at the section's start)."""
    sentence = "機械学習はデータの集合から傾向を学習してモデル化し、\n目的変数への適合可能性を評価する仕組みです。"
    md = "# 用語\n\n" + "".join(sentence for _ in range(40)) + "\n"
    chunks = chunks_of(md)
    assert len(chunks) > 1
    for c in chunks[1:]:
        assert md[: c.char_start].rstrip().endswith("。"), c.body[:20]


def test_a_sentence_set_in_bold_is_no_lead_in_and_the_next_sentence_stays_whole() -> None:
    bold = (
        "**The development of the application may be included, therefore, in the action plan for"
        " facing health emergencies and preventing and avoiding exceptional situations of special"
        " gravity, and so falls under this decree-law.**"
    )
    sentence = (
        "Therefore the controllers are the regions, the two cities and the ministry, "
        + "each within its powers, " * 38
        + "who apply the security measures that the risk analysis requires."
    )
    md = f"# Roles\n\n{bold}\n\n{sentence}\n\n" + "The controller is the directorate. " * 9 + "\n"
    assert COUNT(sentence) + COUNT("Roles") + 4 < LIMIT < COUNT(md)
    chunks = chunks_of(md)
    assert any(c.body.startswith("Therefore the controllers") for c in chunks)
    assert all(c.body.count("each within its powers") in (0, 38) for c in chunks)


def wide_table(rows: int, columns: int, label: str) -> tuple[str, list[str]]:
    """A table whose header row names many columns (a large share of the window) above short
    rows of codes, as in an inspection schedule."""
    header = "|" + "|".join(f"{label} {k}" for k in range(columns)) + "|"
    body = [f"|{i}|Cylinder part {i}|W(C+M)|W(UT+CD)|W||X|D > 300mm|SC|" for i in range(rows)]
    return "\n".join([header, "|" + "---|" * columns, *body]), body


@pytest.mark.parametrize(
    ("items", "columns", "label"),
    [
        (1, 9, "Non-destructive examination **(2)**"),
        (1, 7, "Material properties **(1)**"),
        (4, 9, "Material properties **(1)**"),
        (9, 7, "**Stage** check"),
    ],
)
def test_every_row_group_of_a_split_table_is_under_its_header_row(
    items: int, columns: int, label: str
) -> None:
    """A table after its caption whose header row takes a large share of the window (its
    markup far denser in tokens than the prose before it): the first piece holds the caption,
    header row and first rows (the head is never left alone, nor cut from its first row), and
    every later piece repeats the header row, which fits beside the rows."""
    prose = "- a) The crankshaft deflections are to be measured in the specified condition. "
    table, rows = wide_table(20, columns, label)
    caption = "**Table 8 : Summary of required documentation**"
    md = f"# Stage C\n\n{prose * items}\n\n{caption}\n\n{table}\n"
    header = table.split("\n", 1)[0]
    chunks = chunks_of(md)
    held = [c for c in chunks if any(r in c.body for r in rows)]
    assert len(held) > 3
    for c in chunks:
        if header in c.body or caption in c.body:
            assert any(r in c.body for r in rows), c.body  # no head without a row
    for c in held:
        assert header + "\n|---|" in c.body, c.body
    # the caption and header open the first row group, after the prose only when that is a
    # fragment (under `LEAD_IN` of the window) that fits beside them
    before, _, after = held[0].body.partition(f"{caption}\n\n{header}")
    assert after and before.strip() in ("", (prose * items).strip()), held[0].body
    if before:
        assert COUNT(before) < LEAD_IN * LIMIT
    assert [r for c in held for r in rows if r in c.body] == rows  # each row once, in order


def test_the_last_two_row_groups_share_their_rows_evenly() -> None:
    """Rows of one size, three to a piece under the header: seven rows are cut 3 + 2 + 2,
    not 3 + 3 + 1 (no last group of a single row after a full one)."""
    cell = "replacement of the worn bearing shell and its bolts " * 6
    rows = [f"| Step {i} | {cell}|" for i in range(7)]
    md = "# Steps\n\n| Step | Work |\n|---|---|\n" + "\n".join(rows) + "\n"
    chunks = chunks_of(md)
    groups = [sum(r in c.body for r in rows) for c in chunks]
    assert sum(groups) == 7 and len(groups) >= 3, groups
    assert min(groups) >= max(groups) - 1, groups
    assert all(c.body.startswith("| Step | Work |\n|---|---|\n") for c in chunks)


def test_a_display_equation_and_its_where_paragraph_stay_together() -> None:
    """A paragraph that opens in lower case after one that ends with no sentence end goes on
    with its sentence ("... is / Π = νMRT (1.1) / where ν is ..."): the cut falls before the
    equation, not between it and the paragraph naming its symbols."""
    prose = "Osmosis drives water across the membrane towards the salt side of the cell. " * 13
    md = (
        f"# Osmosis\n\n{prose}\n\nThe osmotic pressure of an ideal solution is\n\n"
        "Π = νMRT (1.1)\n\n"
        "where ν is the van’t Hoff factor, M the molar concentration, R the gas constant and "
        "T the temperature of the solution in kelvin.\n\n"
        + "The pressure grows with the concentration of the salt. " * 6
        + "\n"
    )
    chunks = chunks_of(md)
    assert len(chunks) > 1
    for c in chunks:
        assert not c.body.startswith("where"), c.body
        if "Π = νMRT (1.1)" in c.body:
            assert "where ν is the van’t Hoff factor" in c.body


def test_a_long_labelled_caption_stays_with_its_table() -> None:
    """A caption opening with its label and number ("TABLE VIII.") is the table's caption
    however many words it has: it stays in the piece holding the table's first rows, not
    alone."""
    caption = (
        "TABLE VIII. Geometries of the trimer at the global minima and saddle points as well"
        " as at the conical intersection of the distorted surface of its ground electronic"
        " state, compared with past theoretical studies in reverse chronological order."
    )
    rows = [f"|Ref. {i}|2.{600 + i}|{60 + i}.5|2.{800 + i}|55.{i}|2.{700 + i}|" for i in range(30)]
    head = "||Re 12 (Å)|e (deg)|Re 13 (Å)|e (deg)|Re (Å)|"
    table = "\n".join([head, "|---|---|---|---|---|---|", *rows])
    md = f"# Trimer\n\n## Discussion\n\nThe geometries agree well.\n\n{caption}\n\n{table}\n"
    chunks = chunks_of(md)
    opening = next(c for c in chunks if caption in c.body)
    assert f"{caption}\n\n{head}\n|---|---|---|---|---|---|\n|Ref. 0|" in opening.body
