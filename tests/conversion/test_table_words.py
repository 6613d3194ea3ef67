"""Every pipe table gets the table rule against the page's text layer, whatever path made it:
cut words are mended, only a grid contradicting the text layer reads as text."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion.pipeline import PassContext
from citechunk.conversion.tables.table_words import check_table_words
from citechunk.conversion.textlayer import TextLayer


def layer_of(tmp_path: Path, lines: list[str]) -> TextLayer:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(lines):
        page.insert_text((72, 100 + 16 * i), line, fontsize=11)
    doc.save(tmp_path / "regions.pdf")
    return TextLayer.of_document(pymupdf.open(tmp_path / "regions.pdf")).preload([1])


def test_a_table_cutting_words_is_mended_with_the_words_whole(tmp_path: Path) -> None:
    layer = layer_of(tmp_path, ["Region Sales", "Europe 120", "Oceania 45"])
    table = "| Region | Sales |\n|---|---|\n| Eur | ope 120 |\n| Ocea | nia 45 |"
    ctx = PassContext(ConvertOptions(), text_layer=layer)
    mended = "|Region|Sales|\n|---|---|\n|Europe|120|\n|Oceania|45|"
    assert check_table_words([(1, f"Intro.\n\n{table}\n\nAfter.")], ctx) == [
        (1, f"Intro.\n\n{mended}\n\nAfter.")
    ]


def test_a_table_whose_text_runs_across_its_column_lines_becomes_lines(
    tmp_path: Path,
) -> None:
    layer = layer_of(tmp_path, ["Flight Time: 2319 hours (Total, all aircraft), 2313 hours"])
    table = "| Flight Time: | 2319 hours (Total, all aircr<br>2313 | aft)<br>hours |\n|---|---|---|"
    ctx = PassContext(ConvertOptions(), text_layer=layer)
    [(_, text)] = check_table_words([(1, table)], ctx)
    assert "|" not in text and "all aircraft)" in text


def test_a_table_agreeing_with_the_text_layer_stays(tmp_path: Path) -> None:
    layer = layer_of(tmp_path, ["Region Sales", "Europe 120", "Oceania 45"])
    table = "| Region | Sales |\n|---|---|\n| Europe | 120 |\n| Oceania | 45 |"
    ctx = PassContext(ConvertOptions(), text_layer=layer)
    assert check_table_words([(1, table)], ctx) == [(1, table)]
    assert check_table_words([(1, table)], PassContext(ConvertOptions())) == [(1, table)]


def test_pieces_of_a_word_printed_sideways_leave_the_table_a_table(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Element Stored", fontsize=11)
    page.insert_text((72, 116), "Account Name Yes", fontsize=11)
    page.insert_text((72, 132), "Code No", fontsize=11)
    page.insert_text((50, 140), "Account", fontsize=11, rotate=90)
    doc.save(tmp_path / "sideways.pdf")
    layer = TextLayer.of_document(pymupdf.open(tmp_path / "sideways.pdf")).preload([1])
    table = "||Element|Stored|\n|---|---|---|\n|Acc|Account Name|Yes|\n|ount|Code|No|"
    [(_, text)] = check_table_words([(1, table)], PassContext(ConvertOptions(), text_layer=layer))
    assert text == table
