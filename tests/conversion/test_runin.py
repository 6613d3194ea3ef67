"""Run-in upper-case labels as headings (conversion/runin.py) on hand-made pages."""

from __future__ import annotations

from citechunk.conversion.repairs.runin import promote_run_in_labels


def test_caps_labels_become_sibling_headings_below_the_current_section() -> None:
    pages = [
        (1, "# Proposed Rules\n\n### Airworthiness Directives\n\n**AGENCY:** FAA, DOT."),
        (2, "**DATES:** The FAA must receive comments by May 1.\n\n### Background\n\ntext"),
    ]
    out = promote_run_in_labels(pages)
    assert out[0][1].endswith("### Airworthiness Directives\n\n#### AGENCY\n\nFAA, DOT.")
    assert out[1][1].startswith("#### DATES\n\nThe FAA must receive comments by May 1.\n\n")
    assert [p for p, _ in out] == [1, 2]


def test_other_bold_labels_stay_body_text() -> None:
    text = (
        "## save()\n\n**Return type:** int\n\n**Note 1 to paragraph (g):** Guidance.\n\n"
        "- **NOTE:** a list item\n\n|**TOTAL:** 3|x|\n\nText then\n**DATES:** mid-paragraph\n\n"
        "```\n**CODE:** kept\n```\n\n**FIGURE 1.** no colon"
    )
    assert promote_run_in_labels([(1, text)]) == [(1, text)]


def test_mixed_case_labels_datelines_and_sentences_are_no_titles() -> None:
    """`processors.label_headings.is_label_title` (the block rule: test_processors)."""
    from citechunk.conversion.processors.label_headings import is_label_title

    assert is_label_title("Parameters:") and not is_label_title("SUPPLEMENTARY INFORMATION:")
    for date in ("February 2024", "Thursday, August 6, 2020", "6 Aug. 2020", "June 2023"):
        assert is_label_title(date), date
    for kept in ("May 2024 results", "2024", "March of the penguins", "Class API"):
        assert not is_label_title(kept), kept
    sentence = "All comments are subject to release under the Freedom of Information Act (FOIA)."
    assert is_label_title(sentence)
    for kept in ("1. Introduction.", "Figure 3. The system.", "Dr. J. Smith"):
        assert not is_label_title(kept), kept
