"""Numbered siblings share a level; children never outrank parents."""

from __future__ import annotations

from citechunk.conversion.numbers import HeadingNumber, heading_number
from citechunk.conversion.repairs.siblings import level_numbered_siblings
from citechunk.evaluation.headings import numbered_siblings
from citechunk.markers import render_pages


def levels(pages: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [
        (len(line) - len(line.lstrip("#")), line.lstrip("# "))
        for _, text in pages
        for line in text.split("\n")
        if line.startswith("#")
    ]


def test_heading_number_schemes() -> None:
    assert heading_number("Note 5 : Other Financial Statement Details") == HeadingNumber(
        "note", ("5",)
    )
    assert heading_number("Item 1A. Risk Factors") == HeadingNumber("item", ("1A",))
    assert heading_number("PART II. OTHER INFORMATION") == HeadingNumber("part", ("II",))
    assert heading_number("Objective 1.2: Secure") == HeadingNumber("objective", ("1", "2"))
    assert heading_number("A.1 GNU Free Documentation License") == HeadingNumber(
        "letter", ("A", "1")
    )
    assert heading_number("2.1. Data") == HeadingNumber("decimal", ("2", "1"))
    assert heading_number("IV. Results") == HeadingNumber("roman", ("IV",))
    for title in ("2023 Annual Report", "Table 3 Costs", "Notes to statements", "5 %"):
        assert heading_number(title) is None, title


def test_siblings_take_the_level_most_of_them_have() -> None:
    pages = [
        (1, "## Notes\n\n### Note 5 : Other\n\nx\n\n#### Detail\n\ny"),
        (2, "##### Note 6 : Restructuring\n\nz\n\n### Note 7 : Leases\n\nw"),
    ]
    out = levels(level_numbered_siblings(pages))
    assert (3, "Note 6 : Restructuring") in out
    assert numbered_siblings(render_pages(level_numbered_siblings(pages))).share == 1.0
    assert numbered_siblings(render_pages(pages)).share == 0.0


def test_children_below_parents_and_contained_schemes_below_containers() -> None:
    pages = [
        (1, "## PART I\n\n## Item 1. Statements\n\nx\n\n## Item 2. MD&A\n\ny"),
        (2, "## PART II\n\n## Item 1. Legal\n\nz\n\n## Item 1A. Risks\n\nw"),
        (3, "# Goal 1 Secure\n\n# Objective 1.1 A\n\n# Objective 1.2 B\n\n# Goal 2 Grow"),
        (4, "# Objective 2.1 C\n\nt"),
    ]
    out = dict((title, level) for level, title in levels(level_numbered_siblings(pages)))
    assert out["PART I"] == out["PART II"] == 2
    assert out["Item 1. Statements"] == out["Item 1A. Risks"] == 3
    assert out["Goal 1 Secure"] == out["Goal 2 Grow"] == 1
    assert out["Objective 1.1 A"] == out["Objective 2.1 C"] == 2  # numbers extend the goals


def test_an_unnumbered_heading_inside_the_numbering_nests_in_its_section() -> None:
    pages = [
        (1, "# Report title\n\n## Item 1. Statements\n\nx\n\n# Forward-Looking Statements\n\ny"),
        (2, "## Item 2. MD&A\n\nz\n\n# Appendix\n\nw"),
    ]
    out = levels(level_numbered_siblings(pages))
    assert out == [
        (1, "Report title"),  # before the numbering: untouched
        (2, "Item 1. Statements"),
        (3, "Forward-Looking Statements"),
        (2, "Item 2. MD&A"),
        (1, "Appendix"),  # after the numbering: untouched
    ]


def test_single_numbered_headings_change_nothing() -> None:
    pages = [(1, "# Title\n\n### 1 Only\n\n## Other\n\ntext")]
    assert level_numbered_siblings(pages) == pages
