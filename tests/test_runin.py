"""Run-in upper-case labels as headings (conversion/runin.py) on hand-made pages."""

from __future__ import annotations

from citechunk.conversion.runin import promote_run_in_labels


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
