"""Heading levels from section numbers (conversion/headings/numbering.py) on hand-made pages."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
from blockkit import headings, marked_pages

from citechunk.config import ConvertOptions
from citechunk.conversion.blocks import Block
from citechunk.conversion.headings import settle_levels
from citechunk.conversion.headings.numbering import repair_numbering
from citechunk.conversion.headings.siblings import level_numbered_siblings
from citechunk.conversion.numbers import decimal_parts, unnumbered_level


def numbered(pages: list[tuple[int, str]]) -> dict[int, tuple[Block, ...]]:
    """The rule over the blocks of `pages` (written as Markdown: `blockkit.marked_page`)."""
    return repair_numbering(marked_pages(pages))


def levels(pages: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(level, title) of the headings after the rule, blanks in a title collapsed."""
    return [(level, " ".join(text.split())) for level, text in headings(numbered(pages))]


def unchanged(pages: list[tuple[int, str]]) -> bool:
    return numbered(pages) == marked_pages(pages)


def test_decimal_parts() -> None:
    assert decimal_parts("2.1. Main Components") == (2, 1)
    assert decimal_parts("3.1.4 Hydrographic") == (3, 1, 4)
    assert decimal_parts("1 Introduction") == (1,)
    assert decimal_parts("2023 Annual Report") is None  # a year, not a section
    assert decimal_parts("Train: all (59k)") is None
    assert decimal_parts("5 %") is None


def test_levels_follow_numbers_and_labels_nest_inside_sections() -> None:
    pages = [
        (1, "# A Paper Title\n\n## Abstract\n\ntext\n\n## 1 Introduction\n\ntext"),
        (2, "## 2 Method\n\n### 2.1 Data\n\nrows\n\n# Train: 1k\n# Train: 10k\n\nmore"),
        (3, "### 2.1.1 Cleaning\n\ntext\n\n## 3 Results\n\ntext\n\n## References\n\n[1] x"),
    ]
    assert levels(pages) == [
        (1, "A Paper Title"),
        (2, "Abstract"),  # before the first numbered heading: untouched
        (2, "1 Introduction"),
        (2, "2 Method"),
        (3, "2.1 Data"),
        (4, "Train: 1k"),  # a figure label: now inside 2.1, no longer a top-level heading
        (4, "Train: 10k"),
        (4, "2.1.1 Cleaning"),  # was level 3 like its parent
        (2, "3 Results"),
        (2, "References"),  # after the last numbered heading: untouched
    ]


def test_unnumbered_documents_and_code_fences_are_untouched() -> None:
    plain = [(1, "# Title\n\n### Deep\n\n# Other\n\ntext")]
    assert unchanged(plain)
    one_top = [(1, "## 1 A\n\n# 1.1 B\n\n# 1.2 C\n\n# x")]  # one top-level number only
    assert unchanged(one_top)
    fenced = [(1, "## 1 A\n\n```# 9 not a heading```\n\n## 2 B\n\n# 2.1 C\n\n## 3 D")]
    out = numbered(fenced)[1]
    assert (out[1].kind, out[1].shown) == ("code", "# 9 not a heading")  # code: unchanged
    assert (3, "2.1 C") in levels(fenced)


def test_bold_numbered_lines_that_continue_the_numbering_become_headings() -> None:
    pages = [
        (1, "# Agenda\n\n## 1. CALL TO ORDER\n\ntext\n\n## 2. PUBLIC COMMENT\n\ntext"),
        (2, "**3.      CLOSED SESSION**\n\ntext\n\n**7. Not next in sequence**\n\n**4. REPORT**"),
    ]
    got = levels(pages)
    assert got == [
        (1, "Agenda"),
        (2, "1. CALL TO ORDER"),
        (2, "2. PUBLIC COMMENT"),
        (2, "3. CLOSED SESSION"),
        (2, "4. REPORT"),
    ]
    not_next = numbered(pages)[2][2]
    assert (not_next.kind, not_next.shown) == ("text", "7. Not next in sequence")
    only_bold = [(1, "**1. A**\n\n**2. B**\n\n**3. C**")]  # no numbered heading to continue
    assert unchanged(only_bold)


def test_a_heading_whose_parent_number_is_missing_does_not_nest_under_another_section() -> None:
    """An excerpt (or a heading the layout model missed) skips "2" and "2.1": "2.1.6" must not
    become a child of "1.2"; "1.3.1" without "1.3" stays inside "1"."""
    pages = [
        (1, "# 1 Security\n\ntext\n\n## 1.2 Current state\n\ntext\n\n### 1.3.1 Existing control"),
        (2, "x\n\n### 2.1.6 Change command\n\ny\n\n### 2.1.7 Verifying IDs\n\nz\n\n## 2.2 Duties"),
    ]
    assert levels(pages) == [
        (1, "1 Security"),
        (2, "1.2 Current state"),
        (2, "1.3.1 Existing control"),
        (1, "2.1.6 Change command"),
        (1, "2.1.7 Verifying IDs"),
        (1, "2.2 Duties"),
    ]


def test_a_chapter_number_heading_joins_the_chapter_title_after_it() -> None:
    pages = [
        (4, "# Row and Column Access Control\n\ntext"),
        (5, "## 1\n\n**Chapter 1.**\n\n##### Securing data\n\nRecent news\n\n### 1.1 Basics\n\nx"),
        (
            6,
            "### 1.2 State\n\ny\n\n## 2\n\n## Next chapter\n\nz\n\n## 3\n\nThree reasons:\n\n## Why",
        ),
    ]
    assert levels(pages) == [
        (1, "Row and Column Access Control"),
        (2, "1 Securing data"),
        (3, "1.1 Basics"),
        (3, "1.2 State"),
        (2, "2 Next chapter"),
        (2, "3"),  # its body is text, not the label again: not a chapter label
        (2, "Why"),
    ]
    chapter = [b.shown for b in numbered(pages)[5]][:3]
    assert chapter == ["1 Securing data", "Chapter 1.", "Recent news"]  # the title's block gone
    labels_only = [(1, "## 1\n\n## 2\n\n## 2.1 Scope\n\nx\n\n## 3 End\n\ny")]
    assert [t for _, t in levels(labels_only)][:2] == ["1", "2"]


def test_chapter_label_joins_are_logged_only_when_kept(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="citechunk.conversion.headings.numbering")
    too_few = [(1, "## 1\n\n## Introduction\n\ntext\n\n## 2 Scope\n\nmore")]
    assert unchanged(too_few)  # fewer than 3 numbered headings: unchanged
    assert "joined" not in caplog.text
    kept = [(1, "## 1\n\n## Introduction\n\ntext\n\n## 2 Scope\n\nmore\n\n## 3 End\n\nx")]
    assert levels(kept)[0] == (2, "1 Introduction")
    assert "1 chapter label(s) joined" in caplog.text


def test_decimal_parts_is_the_decimal_scheme_of_heading_number() -> None:
    assert decimal_parts("**2.1** Data") == (2, 1)  # markup ignored, as every number reader does
    assert decimal_parts("A.1 Licence") is None  # letter-led: another scheme
    assert decimal_parts("Note 5 Leases") is None  # labelled: another scheme


def test_unnumbered_level_nests_inside_the_numbered_section() -> None:
    assert unnumbered_level(2, 2) == 3  # as deep as its section: one below it
    assert unnumbered_level(1, 2) == 3  # shallower: one below it too
    assert unnumbered_level(4, 2) == 4  # already deeper: kept


def test_number_and_emphasised_title_lines_continue_the_heading_numbering() -> None:
    pages = [
        (1, "# Recommendation\n\n- **1 General**\n\ntext\n\n- 1.1 _Scope_\n\ntext"),
        (2, "- 1.2 _Principles_\n\ntext\n\n## 2 Coding\n\ntext\n\n### 2.1 Modes\n\ntext"),
        (3, "2.2 _Procedure_\n\ntext\n\n## 3 Control\n\ntext"),
    ]
    assert levels(pages) == [
        (1, "Recommendation"),
        (2, "1 General"),
        (3, "1.1 Scope"),
        (3, "1.2 Principles"),
        (2, "2 Coding"),
        (3, "2.1 Modes"),
        (3, "2.2 Procedure"),
        (2, "3 Control"),
    ]


@pytest.mark.parametrize(
    "body", ["1. _Apples_\n2. _Pears_\n3. _Plums_", "1. **Apples**\n2. **Pears**\n3. **Plums**"]
)
def test_a_numbered_list_with_emphasised_items_stays_a_list(body: str) -> None:
    pages = [(1, f"# Doc\n\n## 1 Intro\n\n{body}\n\n## 2 Methods\n\nx\n\n## 3 End\n\ny")]
    assert unchanged(pages)


def test_the_heading_stage_follows_the_numbering_only_without_an_outline() -> None:
    pages = marked_pages([(1, "## 1 A\n\n## 2 B\n\n## 2.1 C\n\n## 3 D")])
    siblings = level_numbered_siblings(pages)
    with_outline = settle_levels(pages, ConvertOptions(), outline=True, failures=[])
    without = settle_levels(pages, ConvertOptions(), outline=False, failures=[])
    assert with_outline == siblings  # the outline pass sets levels later
    assert without == repair_numbering(siblings) != siblings
    assert headings(without)[2] == (3, "2.1 C")
    off = ConvertOptions(outline_repair=False)
    assert settle_levels(pages, off, outline=False, failures=[]) == siblings
    skip = ConvertOptions(skip_passes=("numbered-siblings", "numbering"))
    assert settle_levels(pages, skip, outline=False, failures=[]) == pages


def test_a_page_header_kept_in_the_body_is_a_line_the_numbering_reads() -> None:
    pages = marked_pages([(1, "## 1 Scope\n\n## 2 Coding\n\n### 2.1 Modes\n\n2.2 _Procedure_")])
    pages[1] = (*pages[1][:3], replace(pages[1][3], kind="page-header"))
    assert headings(repair_numbering(pages))[-1] == (3, "2.2 Procedure")
