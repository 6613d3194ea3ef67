"""What a piece of a sentence is (`processors.sentence_headings.is_sentence_piece`; the block
rule itself: test_processors)."""

from __future__ import annotations

from citechunk.conversion.processors.sentence_headings import is_sentence_piece


def test_lower_case_headings_after_finished_sentences_stay() -> None:
    assert not is_sentence_piece("iPhone setup", "The text goes on")
    assert not is_sentence_piece("iv. Results", "The text goes on")
    assert not is_sentence_piece("colorspace", "`__init__` (self, colorspace) Constructor")
    assert not is_sentence_piece("continued here and on", "The sentence ended.")


def test_headings_opening_with_a_bracket_or_ending_with_a_comma_are_pieces() -> None:
    assert is_sentence_piece(") and the rest of it")
    assert is_sentence_piece("**Whereas the parties agree,**")
    assert is_sentence_piece("continued here and on", "the sentence runs on into")
    assert not is_sentence_piece("2 Methods") and not is_sentence_piece("Results")


def test_a_heading_ending_with_an_opening_bracket_goes_on() -> None:
    assert is_sentence_piece("import (") and is_sentence_piece("func main() {")
    assert not is_sentence_piece("Appendix (A)") and not is_sentence_piece("Results [2]")
