"""Fixes across page breaks."""

from __future__ import annotations

from citechunk.conversion.repairs.pagebreaks import join_page_hyphens, join_page_tables


def test_join_page_tables_restores_the_header_of_a_continued_table() -> None:
    end = "Options:\n\n|**Option**|**Effect**|\n|---|---|"
    cont = "|garbage = 1|collect|\n|---|---|\n|garbage = 2|compact|\n\nAfter."
    assert join_page_tables([end, cont])[1] == (
        "|**Option**|**Effect**|\n|---|---|\n|garbage = 1|collect|\n|garbage = 2|compact|\n\nAfter."
    )
    repeated = "|**Country**|**Capital**|\n|---|---|\n|A|B|"  # the PDF repeats the header
    other = "|**Name**|**Value**|\n|---|---|\n|x|1|"  # a new table with its own header
    three = "|a|b|c|\n|---|---|---|\n|1|2|3|"  # different column count
    for nxt in (repeated, other, three):
        assert join_page_tables([repeated, nxt]) == [repeated, nxt]
    assert join_page_tables(["text", cont]) == ["text", cont]  # page 1 ends with no table


def test_join_page_hyphens_completes_the_word_on_its_first_page() -> None:
    pages = [
        "**Objects.** In TraceMonkey, objects’ rep-\n",
        "resentations are assigned a key.",
        "Next",
    ]
    assert join_page_hyphens(pages) == [
        "**Objects.** In TraceMonkey, objects’ representations",
        "are assigned a key.",
        "Next",
    ]
    for untouched in (
        ["state-", "Of the art"],  # next page starts a sentence
        ["- item rep-", "resent"],  # list item
        ["|a|rep-|", "resent"],  # table row
        ["```\ncode -", "x\n```"],  # inside a fence
        ["ends with a dash 2020-", "continued"],  # not a word before the hyphen
    ):
        assert join_page_hyphens(untouched) == untouched
