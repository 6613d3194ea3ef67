"""The running-title signature rules (`processors.running_titles`; the block rule itself:
test_processors)."""

from __future__ import annotations

from citechunk.conversion.processors.running_titles import (
    exact_title,
    running_signatures,
    signature,
)


def test_signature_ignores_digits_case_parentheticals_and_punctuation() -> None:
    assert signature("ACME Corp — Notes (Continued)") == signature("acme corp: notes")
    assert signature("Page 3 of 9") == signature("page 12 of 9")
    assert signature("2024") == ""


def _opening(*titles: str) -> set[tuple[str, str]]:
    return {(signature(t), exact_title(t)) for t in titles}


def test_numbered_labels_each_opening_one_page_are_sections_in_sequence() -> None:
    openers = [_opening(f"Article {p}") for p in (1, 2, 3, 4)]
    assert running_signatures(openers) == set()


def test_a_numbered_label_that_repeats_on_pages_is_a_running_title() -> None:
    openers = [_opening(f"PART {'I' if p < 3 else 'II'}", f"Item {p}") for p in (1, 2, 3, 4)]
    assert running_signatures(openers) == {signature("PART I")}  # each Item opens one page


def test_a_title_opening_two_pages_is_no_running_title() -> None:
    assert running_signatures([_opening("Annual Report")] * 2) == set()
    assert running_signatures([_opening("Annual Report")] * 3) == {"annual report"}
