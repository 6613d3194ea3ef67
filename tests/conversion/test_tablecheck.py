"""The table rule on the layout path: a form whose text runs across its column lines reads as
printed; a grid whose column line cuts words is read again from the words' middles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.tables.cellwords import read_cells
from citechunk.conversion.tables.tablecheck import check_table_boxes
from conftest import wide_pdf


@pytest.mark.corpus
def test_a_form_table_cut_through_words_reads_as_printed(shared_dir: Path) -> None:
    pdf = shared_dir / "eval" / "dev2" / "pdfs" / "20071229X02007.pdf"
    markdown = convert(pdf, ConvertOptions(pages="2")).markdown
    assert "2319 hours (Total, all aircraft), 2313 hours (Total, this make and model)" in markdown
    assert "aircr |" not in markdown and "aircr|" not in markdown


def holdings_page(tmp_path: Path) -> Any:
    doc = pymupdf.open()
    page = doc.new_page()
    for y, left, right in (
        (100, "Description", "Average Cost"),
        (116, "Bank", "25"),
        (132, "Trust", "30"),
    ):
        page.insert_text((72, y), left, fontsize=11)
        page.insert_text((200 if y == 100 else 260, y), right, fontsize=11)
    doc.save(tmp_path / "holdings.pdf")
    return pymupdf.open(tmp_path / "holdings.pdf")[0]


def test_a_grid_whose_column_line_cuts_words_is_read_again_by_word_middles(
    tmp_path: Path,
) -> None:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    page = holdings_page(tmp_path)
    rows = [(88, 104), (104, 120), (120, 136)]
    cells = [[(70, y0, 210, y1), (210, y0, 320, y1)] for y0, y1 in rows]
    markdown = "|Description<br>Av|erage Cost|\n|---|---|\n|Bank|25|\n|Trust|30|"
    box = LayoutBox(70, 88, 320, 136, "table")
    box.table = {"bbox": [70, 88, 320, 136], "cells": cells, "markdown": markdown}
    fulltext = [b for b in page.get_text("dict")["blocks"] if b["type"] == 0]
    [kept] = check_table_boxes([box], fulltext, 1, page)
    assert kept.table["markdown"].strip().split("\n") == [
        "|Description|Average Cost|",
        "|---|---|",
        "|Bank|25|",
        "|Trust|30|",
    ]


@pytest.mark.corpus
def test_a_continued_holdings_table_keeps_its_header_row_over_its_figures() -> None:
    pdf = wide_pdf("biz_canadian_banc_corp_annual_report_2022.pdf")
    markdown = convert(pdf, ConvertOptions(pages="21")).markdown
    header = "|No. of shares (contracts)|Description|Average Cost ($) (Premiums received)|Fair Value ($)|"
    assert f"{header}\n|---|---|---|---|\n||U.S. call options written|||" in markdown


def test_a_phrase_across_a_column_line_stays_whole_in_one_cell(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Cost (Premiums received)", fontsize=11)
    page.insert_text((300, 100), "Value", fontsize=11)
    doc.save(tmp_path / "phrase.pdf")
    words = pymupdf.open(tmp_path / "phrase.pdf")[0].get_text("words", sort=False)
    cells = [[(70.0, 88.0, 150.0, 104.0), (150.0, 88.0, 290.0, 104.0), (290.0, 88.0, 400.0, 104.0)]]
    assert read_cells(cells, words) == [["Cost (Premiums received)", "", "Value"]]
