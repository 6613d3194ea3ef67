"""Heading levels from section numbers (conversion/numbering.py) on hand-made pages."""

from __future__ import annotations

import logging
import re

import pytest

from citechunk.conversion.numbers import decimal_parts, unnumbered_level
from citechunk.conversion.repairs.numbering import repair_numbering


def levels(pages: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [
        (len(m.group(1)), m.group(2))
        for _, text in pages
        for m in re.finditer(r"^(#{1,6}) (.*)$", text, re.M)
    ]


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
    assert levels(repair_numbering(pages)) == [
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
    assert repair_numbering(plain) == plain
    one_top = [(1, "## 1 A\n\n# 1.1 B\n\n# 1.2 C\n\n# x")]  # one top-level number only
    assert repair_numbering(one_top) == one_top
    fenced = [(1, "## 1 A\n\n```\n# 9 not a heading\n```\n\n## 2 B\n\n# 2.1 C\n\n## 3 D")]
    out = repair_numbering(fenced)[0][1]
    assert "# 9 not a heading" in out.split("\n")  # inside the fence: unchanged
    assert "### 2.1 C" in out.split("\n")


def test_bold_numbered_lines_that_continue_the_numbering_become_headings() -> None:
    pages = [
        (1, "# Agenda\n\n## 1. CALL TO ORDER\n\ntext\n\n## 2. PUBLIC COMMENT\n\ntext"),
        (2, "**3.      CLOSED SESSION**\n\ntext\n\n**7. Not next in sequence**\n\n**4. REPORT**"),
    ]
    got = levels(repair_numbering(pages))
    assert got == [
        (1, "Agenda"),
        (2, "1. CALL TO ORDER"),
        (2, "2. PUBLIC COMMENT"),
        (2, "3. CLOSED SESSION"),
        (2, "4. REPORT"),
    ]
    assert "**7. Not next in sequence**" in repair_numbering(pages)[1][1]
    only_bold = [(1, "**1. A**\n\n**2. B**\n\n**3. C**")]  # no numbered heading to continue
    assert repair_numbering(only_bold) == only_bold


def test_a_heading_whose_parent_number_is_missing_does_not_nest_under_another_section() -> None:
    """An excerpt (or a heading the layout model missed) skips "2" and "2.1": "2.1.6" must not
    become a child of "1.2"; "1.3.1" without "1.3" stays inside "1"."""
    pages = [
        (1, "# 1 Security\n\ntext\n\n## 1.2 Current state\n\ntext\n\n### 1.3.1 Existing control"),
        (2, "x\n\n### 2.1.6 Change command\n\ny\n\n### 2.1.7 Verifying IDs\n\nz\n\n## 2.2 Duties"),
    ]
    assert levels(repair_numbering(pages)) == [
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
    out = repair_numbering(pages)
    assert levels(out) == [
        (1, "Row and Column Access Control"),
        (2, "1 Securing data"),
        (3, "1.1 Basics"),
        (3, "1.2 State"),
        (2, "2 Next chapter"),
        (2, "3"),  # its body is text, not the label again: not a chapter label
        (2, "Why"),
    ]
    assert out[1][1].startswith("## 1 Securing data\n\n**Chapter 1.**\n\nRecent news\n\n")
    labels_only = [(1, "## 1\n\n## 2\n\n## 2.1 Scope\n\nx\n\n## 3 End\n\ny")]
    assert [t for _, t in levels(repair_numbering(labels_only))][:2] == ["1", "2"]


def test_chapter_label_joins_are_logged_only_when_kept(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="citechunk.conversion.repairs.numbering")
    too_few = [(1, "## 1\n\n## Introduction\n\ntext\n\n## 2 Scope\n\nmore")]
    assert repair_numbering(too_few) == too_few  # fewer than 3 numbered headings: unchanged
    assert "joined" not in caplog.text
    kept = [(1, "## 1\n\n## Introduction\n\ntext\n\n## 2 Scope\n\nmore\n\n## 3 End\n\nx")]
    assert levels(repair_numbering(kept))[0] == (2, "1 Introduction")
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
    heads = [ln for _, t in repair_numbering(pages) for ln in t.splitlines() if ln[:1] == "#"]
    assert heads == [
        "# Recommendation",
        "## 1 General",
        "### 1.1 Scope",
        "### 1.2 Principles",
        "## 2 Coding",
        "### 2.1 Modes",
        "### 2.2 Procedure",
        "## 3 Control",
    ]


@pytest.mark.parametrize(
    "body", ["1. _Apples_\n2. _Pears_\n3. _Plums_", "1. **Apples**\n2. **Pears**\n3. **Plums**"]
)
def test_a_numbered_list_with_emphasised_items_stays_a_list(body: str) -> None:
    pages = [(1, f"# Doc\n\n## 1 Intro\n\n{body}\n\n## 2 Methods\n\nx\n\n## 3 End\n\ny")]
    assert repair_numbering(pages) == pages
