"""Contents headings never parent the headings after them (conversion/contents.py)."""

from __future__ import annotations

import pytest

from citechunk.chunking import chunk_markdown
from citechunk.conversion.repairs.contents import (
    is_back_matter,
    is_list_title,
    level_back_matter,
    level_contents_headings,
)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Contents", True),
        ("TABLE OF CONTENTS", True),
        ("**Contents:**", True),
        ("List of Figures", True),
        ("Contents of the kit", False),
        ("Table of results", False),
    ],
)
def test_list_titles(title: str, expected: bool) -> None:
    assert is_list_title(title) is expected


def test_contents_takes_the_level_of_a_deeper_next_heading_across_pages() -> None:
    pages = [
        (1, "# Guide\n\ntext\n\n# Contents\n\nWhat is cancer? 6\nTreatment 29"),
        (2, "## What is cancer?\n\nbody\n\n## Treatment\n\nbody"),
    ]
    out = level_contents_headings(pages)
    assert out[0][1] == "# Guide\n\ntext\n\n## Contents\n\nWhat is cancer? 6\nTreatment 29"
    assert out[1] == pages[1]
    paths = {
        c.heading_path for c in chunk_markdown("\n\n".join(t for _, t in out), pack_short=False)
    }
    assert ("Guide", "What is cancer?") in paths
    assert ("Guide", "Contents") in paths
    # without the rule the same Markdown nests the document under "Contents"
    before = {
        c.heading_path for c in chunk_markdown("\n\n".join(t for _, t in pages), pack_short=False)
    }
    assert ("Contents", "What is cancer?") in before


def test_other_headings_and_fenced_lines_stay() -> None:
    text = "## Contents\n\n### Part A\n\nx\n\n```\n# Contents\n```\n\n# Results\n\n## Table 1"
    out = level_contents_headings([(1, text)])[0][1]
    assert out.startswith("### Contents\n\n### Part A")
    assert out.endswith("```\n# Contents\n```\n\n# Results\n\n## Table 1")
    shallower = "### Table of Contents\n\n## Abbreviations\n\ntext"
    assert level_contents_headings([(1, shallower)]) == [(1, shallower)]


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("References", True),
        ("**Appendix B: Data sources**", True),
        ("APPENDICES", True),
        ("Authors’ contributions", True),
        ("Index:", True),
        ("References to the Act", False),
        ("Index of funds", False),
        ("Appendix fees", False),
    ],
)
def test_back_matter_titles(title: str, expected: bool) -> None:
    assert is_back_matter(title) is expected


def _levels(pages: list[tuple[int, str]]) -> list[str]:
    return [ln for _, text in pages for ln in text.splitlines() if ln.startswith("#")]


def test_back_matter_under_the_last_chapter_goes_up_to_the_section_level() -> None:
    pages = [
        (1, "# Manual\n\n## 1 Start\n\ntext"),
        (2, "## 2 Use\n\ntext\n\n### 2.1 Daily\n\ntext"),
        (3, "### Appendix A: Codes\n\n#### Error codes\n\ntext\n\n### Index\n\nterms"),
    ]
    assert _levels(level_back_matter(pages)) == [
        "# Manual",
        "## 1 Start",
        "## 2 Use",
        "### 2.1 Daily",
        "## Appendix A: Codes",
        "### Error codes",
        "## Index",
    ]


def test_per_chapter_references_and_front_matter_stay() -> None:
    pages = [
        (1, "# Book\n\n## One\n\ntext\n\n### References\n\na"),
        (2, "## Two\n\ntext\n\n### References\n\nb"),
    ]
    assert level_back_matter(pages) == pages  # a References in every chapter is the chapter's
    front = [(1, "## A\n\n### Glossary\n\nx"), (2, "## B\n\nx"), (3, "## C\n\nx"), (4, "## D")]
    assert level_back_matter(front) == front  # on the first half of the pages


def test_back_matter_the_outline_lists_keeps_its_place() -> None:
    """With an outline, only back matter it does not list goes up: the outline placed the rest."""
    pages = [
        (1, "# Report\n\n## 1 Start\n\ntext"),
        (2, "## 2 Results\n\ntext\n\n### References\n\na"),
        (3, "### Glossary\n\nterms"),
    ]
    raised = _levels(level_back_matter(pages, frozenset({"references"})))
    assert raised == ["# Report", "## 1 Start", "## 2 Results", "### References", "## Glossary"]
