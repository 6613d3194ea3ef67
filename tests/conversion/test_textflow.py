"""Text-flow repairs: footnote quotes, wrapped URLs and identifiers, soft breaks in sentences."""

from __future__ import annotations

from pathlib import Path

from citechunk.conversion.repairs.textflow import (
    footnote_quotes,
    join_soft_breaks,
    join_wrapped_identifiers,
)


def test_a_footnote_set_as_a_quote_becomes_a_paragraph_and_a_quotation_stays():
    page = "> 3The ideal size of a passage.\n\n> 1 GAO, Cybersecurity.\n\n> (4) In the chapter"
    assert footnote_quotes(page) == (
        "[3] The ideal size of a passage.\n\n[1] GAO, Cybersecurity.\n\n> (4) In the chapter"
    )
    assert footnote_quotes("> _†_ University of Washington") == "_†_ University of Washington"
    assert footnote_quotes("```\n> 3The shell prompt\n```") == "```\n> 3The shell prompt\n```"


def test_spaces_a_line_end_left_in_urls_and_dashed_numbers_go():
    line = "see _https:// www.regulations.gov_ for Docket No. FAA–2020– 0686 (737– 9 airplanes)"
    assert join_wrapped_identifiers(line) == (
        "see _https://www.regulations.gov_ for Docket No. FAA–2020–0686 (737–9 airplanes)"
    )
    licence = "(https:// creativecommons.org/licenses/by/ 4.0/)."
    assert join_wrapped_identifiers(licence) == "(https://creativecommons.org/licenses/by/4.0/)."


def test_a_url_before_a_word_a_spaced_dash_and_tables_stay():
    for text in (
        "see https://example.org/ for details",
        "from 2010 – 2020",
        "| FAA–2020– 0686 | x |",
        "```\nrange 1- 2\n```",
    ):
        assert join_wrapped_identifiers(text) == text


def test_a_line_break_inside_a_sentence_becomes_a_space():
    page = (
        "BM25 and TF-IDF have\nbeen used widely,\nand remain strong.\nNext line.\n# Heading\nlower"
    )
    assert join_soft_breaks([page]) == [
        "BM25 and TF-IDF have been used widely, and remain strong.\nNext line.\n# Heading\nlower"
    ]
    code = "```\nfor x in\nrange(3)\n```"
    assert join_soft_breaks([code, "| a |\nb"]) == [code, "| a |\nb"]


def test_no_space_inside_text_of_scripts_written_without_spaces() -> None:
    from citechunk.conversion.repairs.textflow import close_unspaced_gaps

    page = "方で従来のルー ル、ロジックを\n\nAI の研究 が進む\n\n```\nコード の 空白\n```\n한국어 문장 그대로"
    assert close_unspaced_gaps(page) == (
        "方で従来のルール、ロジックを\n\nAI の研究が進む\n\n```\nコード の 空白\n```\n한국어 문장 그대로"
    )


def test_japanese_lines_joined_without_spaces(tmp_path: Path) -> None:
    """A Japanese paragraph wrapped over three lines reads as one run of text."""
    import pymupdf

    from citechunk.config import ConvertOptions
    from citechunk.conversion import convert

    doc = pymupdf.open()
    page = doc.new_page()
    lines = [
        "従来のルールやロジックを用いた",
        "システムとは異なり、学習に用いた",
        "データの品質が重要となる。",
    ]
    for i, text in enumerate(lines):
        page.insert_text((72, 100 + 16 * i), text, fontname="japan", fontsize=12)
    pdf = tmp_path / "ja.pdf"
    doc.save(pdf)
    md = convert(pdf, ConvertOptions(layout="always")).markdown
    assert "".join(lines) in md
