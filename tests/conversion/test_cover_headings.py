"""A lone top heading on the first pages that the label does not hold is not the section
everything else sits in."""

from __future__ import annotations

from citechunk.conversion.repairs.cover import raise_cover_sections

LABEL = "Northwind Bank — Annual Report 2022"


def _headings(pages: list[tuple[int, str]]) -> list[str]:
    return [ln for _, text in pages for ln in text.splitlines() if ln.startswith("#")]


def test_sections_under_a_lone_first_pages_heading_become_its_siblings() -> None:
    pages = [
        (1, "Northwind Bank\n\nAnnual Report 2022"),
        (2, "# Key figures\n\n## Corporate responsibility\n\ntext"),
        (3, "## Notes to the financial statements\n\n### Note 1 Basis\n\ntext"),
    ]
    assert _headings(raise_cover_sections(pages, LABEL)) == [
        "# Key figures",
        "# Corporate responsibility",
        "# Notes to the financial statements",
        "## Note 1 Basis",
    ]


def test_a_banner_goes_and_the_form_name_the_label_holds_stays_the_root() -> None:
    pages = [
        (1, "# UNITED STATES SECURITIES AND EXCHANGE COMMISSION\n\n## FORM 10-K\n\ncover"),
        (2, "### PART I\n\n#### Item 1. Business\n\ntext"),
        (3, "### PART II\n\n#### Item 7. MD&A\n\ntext"),
    ]
    assert _headings(raise_cover_sections(pages, "Verizon Inc. — FORM 10-K — 2022")) == [
        "# UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        "# FORM 10-K",
        "## PART I",
        "### Item 1. Business",
        "## PART II",
        "### Item 7. MD&A",
    ]


def test_a_title_the_label_holds_keeps_its_sections() -> None:
    pages = [
        (1, "# Retry Settings Reference\n\n### Configuring retries\n\nx"),
        (2, "### Logs\n\ny"),
    ]
    assert raise_cover_sections(pages, "Retry Settings Reference") == pages


def test_several_top_headings_a_late_or_a_one_page_top_heading_are_left_alone() -> None:
    chapters = [(1, "# 1 Scope\n\ntext"), (2, "# 2 Terms\n\n## 2.1 Data\n\ntext")]
    assert raise_cover_sections(chapters, LABEL) == chapters
    one_page = [(1, "# Notice\n\n## Terms\n\ntext"), (2, "more text")]
    assert raise_cover_sections(one_page, LABEL) == one_page
    late = [(1, "a"), (2, "b"), (3, "# Report\n\n## Part\n\nc"), (4, "## Next\n\nd")]
    assert raise_cover_sections(late, LABEL) == late


def test_headings_in_code_fences_are_not_touched() -> None:
    pages = [(1, "# Guide\n\n```\n## not a heading\n```"), (2, "## Usage\n\ntext")]
    out = raise_cover_sections(pages, LABEL)
    assert "```\n## not a heading\n```" in out[0][1]
    assert out[1][1].startswith("# Usage")
