"""A title printed again on a later page is text, not a section (`processors.repeated_titles`)."""

from __future__ import annotations

from blockkit import one_line

from citechunk.conversion.processors.repeated_titles import demote_repeated_titles

TITLE = "Building a Pipeline with Docker"


def _kinds(pages: dict[int, tuple]) -> dict[int, list[str]]:
    return {n: [b.kind for b in blocks] for n, blocks in demote_repeated_titles(pages).items()}


def test_the_title_printed_on_a_later_page_becomes_text() -> None:
    pages = {
        1: (one_line("title", TITLE, 100, size=24),),
        3: (
            one_line("section-header", "Overview", 60, size=16, page=3),
            one_line("section-header", "BUILDING A PIPELINE WITH DOCKER:", 90, size=12, page=3),
            one_line("text", "The body.", 120, page=3),
        ),
    }
    assert _kinds(pages) == {1: ["title"], 3: ["section-header", "text", "text"]}


def test_a_heading_with_other_words_stays() -> None:
    pages = {
        1: (one_line("title", TITLE, 100, size=24),),
        2: (one_line("section-header", TITLE + " in practice", 60, page=2),),
    }
    assert _kinds(pages) == {1: ["title"], 2: ["section-header"]}


def test_a_one_word_first_heading_is_no_title() -> None:
    pages = {
        1: (one_line("section-header", "Introduction", 100),),
        2: (one_line("section-header", "Introduction", 60, page=2),),
    }
    assert _kinds(pages) == {1: ["section-header"], 2: ["section-header"]}


def test_a_first_heading_after_the_first_page_is_no_title() -> None:
    pages = {
        1: (one_line("text", "A cover line.", 100),),
        2: (one_line("section-header", TITLE, 60, page=2),),
        3: (one_line("section-header", TITLE, 60, page=3),),
    }
    assert _kinds(pages) == {1: ["text"], 2: ["section-header"], 3: ["section-header"]}


def test_a_repeated_opening_run_is_a_second_document_and_stays() -> None:
    run = (("title", TITLE, 100), ("section-header", "Notice of meeting", 140))
    pages = {
        1: tuple(one_line(k, t, top) for k, t, top in run),
        5: tuple(one_line(k, t, top, page=5) for k, t, top in run),
    }
    assert _kinds(pages) == {1: ["title", "section-header"], 5: ["title", "section-header"]}
