"""A piece of a sentence read as a heading becomes a body line."""

from __future__ import annotations

from citechunk.conversion.repairs.sentence_headings import (
    demote_sentence_headings,
    is_sentence_piece,
)


def test_a_continuation_across_a_page_break_is_body_text() -> None:
    pages = [
        (1, "# Search\n\nThe search program reads the sequences from a"),
        (2, "### flatfile) with the database name.\n\nMore text.\n\n## Options\n\nSome."),
    ]
    out = demote_sentence_headings(pages)
    assert out[1][1].startswith("flatfile) with the database name.\n")
    assert "## Options" in out[1][1] and out[0] == pages[0]


def test_lower_case_headings_after_finished_sentences_stay() -> None:
    pages = [(1, "# getting started\n\nInstall it.\n\n## running the tool\n\nRun it.")]
    assert demote_sentence_headings(pages) == pages
    assert not is_sentence_piece("iPhone setup", "The text goes on")
    assert not is_sentence_piece("iv. Results", "The text goes on")
    assert not is_sentence_piece("colorspace", "`__init__` (self, colorspace) Constructor")


def test_headings_opening_with_a_bracket_or_ending_with_a_comma_are_pieces() -> None:
    assert is_sentence_piece(") and the rest of it")
    assert is_sentence_piece("**Whereas the parties agree,**")
    assert is_sentence_piece("continued here and on", "the sentence runs on into")
    assert not is_sentence_piece("continued here and on", "The sentence ended.")
    assert not is_sentence_piece("2 Methods") and not is_sentence_piece("Results")
    fenced = [(1, "```\n# ) not a heading\n```")]
    assert demote_sentence_headings(fenced) == fenced
