"""Text-flow repairs: footnote quotes, wrapped URLs and identifiers, soft breaks in sentences."""

from __future__ import annotations

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
