"""A lone top heading on the first pages that the label does not hold is not the section
everything else sits in."""

from __future__ import annotations

from citechunk.conversion.repairs.cover import raise_below_long_sections, raise_cover_sections

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


def _long_document(last: str, pages: int = 24) -> list[tuple[int, str]]:
    """Four one-page chapters at level 1, then `last` whose level-2 sections fill the rest."""
    out = [(1, "# Field Guide to Rivers\n\nintro")]
    out += [(n, f"# Chapter theme {n}\n\n## Part of theme {n}\n\ntext {n}") for n in range(2, 6)]
    out += [(6, f"# {last}\n\n## Opening\n\nwords")]
    out += [(n, f"## Topic {n}\n\n### Detail {n}\n\nbody text {n}") for n in range(7, pages + 1)]
    return out


def test_a_heading_whose_level_never_recurs_does_not_parent_the_rest() -> None:
    out = raise_below_long_sections(_long_document("Together with Stakeholders"), "Field Guide")
    heads = _headings(out)
    assert "# Together with Stakeholders" in heads and "## Opening" in heads  # its own page
    assert "# Topic 7" in heads and "## Detail 7" in heads and "# Topic 24" in heads


def test_numbering_or_the_label_or_a_short_document_keep_a_long_section() -> None:
    numbered = _long_document("5 Results")
    assert raise_below_long_sections(numbered, "Field Guide") == numbered
    held = _long_document("Field Guide to Rivers, Second Part")
    assert raise_below_long_sections(held, "Field Guide to Rivers, Second Part") == held
    short = _long_document("Together with Stakeholders", pages=12)
    assert raise_below_long_sections(short, "Field Guide") == short


def test_a_numbered_heading_whose_next_number_opens_inside_it_is_raised_past() -> None:
    pages = _long_document("5 Results")
    pages[8] = (9, "**6 Discussion.** We discuss.\n\n## Topic 9\n\nbody")
    assert "# Topic 10" in _headings(raise_below_long_sections(pages, "Field Guide"))
