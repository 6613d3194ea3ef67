"""`evaluation.headings.long_spans`: a heading that holds most of a long document."""

from __future__ import annotations

from citechunk.conversion.outline import OutlineEntry
from citechunk.evaluation.headings import long_spans, printed_entries
from citechunk.markers import render_pages


def _document(last: str, pages: int = 24) -> str:
    out = [(1, "# Field Guide to Rivers\n\nintro")]
    out += [(n, f"# Chapter theme {n}\n\ntext {n}") for n in range(2, 6)]
    out += [(6, f"# {last}\n\nwords")]
    out += [(n, f"## Topic {n}\n\nbody text {n}") for n in range(7, pages + 1)]
    return render_pages(out)


def test_a_heading_holding_most_of_a_long_document_is_counted() -> None:
    (span,) = long_spans(_document("Together with Stakeholders"), "Field Guide to Rivers")
    assert (span.title, span.page, span.pages, span.page_count) == (
        "Together with Stakeholders",
        6,
        19,
        24,
    )


def test_the_label_numbering_a_top_outline_entry_or_a_short_document_are_not() -> None:
    assert not long_spans(_document("Field Guide to Rivers"), "Field Guide to Rivers")
    assert not long_spans(_document("5 Results"), "Field Guide")
    top = [OutlineEntry(1, "Together with Stakeholders", 6)]
    assert not long_spans(_document("Together with Stakeholders"), "", top)
    assert not long_spans(_document("Together with Stakeholders", pages=12), "")
    numbered_on = _document("5 Results").replace("body text 9", "**6 Discussion.** text")
    assert long_spans(numbered_on, "Field Guide")


def test_printed_entries_are_those_a_page_prints_as_lines() -> None:
    """An entry counts where a run of the text layer's lines on its page (+-1) is its title,
    wrapped or followed by more words; a bookmark whose title no line prints does not."""
    lines = {
        4: ["Index", "abstract type 24", "address of local variable 32"],
        5: ["2.3 Fetching URLs", "Concurrently and Safely", "body text"],
    }
    outline = [
        OutlineEntry(1, "Index", 4),
        OutlineEntry(2, "A", 4),
        OutlineEntry(1, "2.3 Fetching URLs Concurrently", 6),
        OutlineEntry(1, "Fetching", 9),
    ]
    assert [e.title for e in printed_entries(outline, lines)] == [
        "Index",
        "2.3 Fetching URLs Concurrently",
    ]
