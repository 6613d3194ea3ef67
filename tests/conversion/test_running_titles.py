"""Running titles: a heading that opens page after page is not a section."""

from __future__ import annotations

from citechunk.conversion.repairs.running_titles import demote_running_titles, signature

RUNNING = "# ACME CORP NOTES TO FINANCIAL STATEMENTS (Continued) (Unaudited)"


def test_signature_ignores_digits_case_parentheticals_and_punctuation() -> None:
    assert signature("ACME Corp — Notes (Continued)") == signature("acme corp: notes")
    assert signature("Page 3 of 9") == signature("page 12 of 9")
    assert signature("2024") == ""


def test_a_heading_opening_three_pages_becomes_bold_everywhere() -> None:
    pages = [
        (1, "# ACME CORP NOTES TO FINANCIAL STATEMENTS\n\n## Note 1 Basis\n\ntext"),
        (2, f"{RUNNING}\n\n## Note 2 Revenue\n\ntext"),
        (3, f"Page 3\n\n{RUNNING}\n\ntext continues"),
        (4, f"{RUNNING}\n\n## Note 3 Leases\n\ntext"),
    ]
    out = demote_running_titles(pages)
    texts = [t for _, t in out]
    assert all("# ACME" not in t for t in texts)
    assert texts[0].startswith("**ACME CORP NOTES TO FINANCIAL STATEMENTS**")
    assert texts[1].startswith("**ACME CORP NOTES TO FINANCIAL STATEMENTS (Continued)")
    assert "## Note 2 Revenue" in texts[1]  # real sections stay


def test_a_title_repeated_mid_page_or_on_two_pages_stays_a_heading() -> None:
    mid = [(p, "intro text\n\nmore text\n\nthird para\n\n## Summary\n\nx") for p in (1, 2, 3)]
    assert demote_running_titles(mid) == mid
    two = [(1, "# Report\n\nx"), (2, "# Report\n\ny"), (3, "other\n\nz")]
    assert demote_running_titles(two) == two


def test_code_fences_are_left_alone() -> None:
    pages = [(p, "```\n# build\n```\n\n# build\n\nx") for p in (1, 2, 3)]
    out = demote_running_titles(pages)
    assert all(t.startswith("```\n# build\n```\n\n**build**") for _, t in out)


def test_numbered_labels_each_opening_one_page_are_sections_in_sequence() -> None:
    titles = ["Scope", "Definitions", "Principles", "Consent"]
    pages = [(p, f"## Article {p}\n\n### {titles[p - 1]}\n\ntext") for p in (1, 2, 3, 4)]
    assert demote_running_titles(pages) == pages


def test_a_numbered_label_that_repeats_on_pages_is_a_running_title() -> None:
    pages = [(p, f"# PART {'I' if p < 3 else 'II'}\n\n## Item {p}\n\ntext") for p in (1, 2, 3, 4)]
    texts = [t for _, t in demote_running_titles(pages)]
    assert [t.splitlines()[0] for t in texts] == ["**PART I**", "**PART I**"] + ["**PART II**"] * 2
    assert all("## Item" in t for t in texts)  # each Item opens one page: they stay sections
