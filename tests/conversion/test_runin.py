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


def test_mixed_case_label_headings_become_bold_lines() -> None:
    from citechunk.chunking import chunk_markdown
    from citechunk.conversion.repairs.runin import demote_label_headings

    text = (
        "### Document\n\n**save(outfile, garbage=0)**\n\n##### Parameters:\n\n- **garbage** -- "
        "3 = merge duplicate objects\n\n##### SUPPLEMENTARY INFORMATION:\n\nx\n\n"
        "```\n# do this instead:\n```\n\n##### Class API\n\ny"
    )
    out = demote_label_headings([(4, text)])
    assert out == [(4, text.replace("##### Parameters:", "**Parameters:**"))]
    paths = [
        c.heading_path for c in chunk_markdown(out[0][1], pack_short=False) if "garbage" in c.body
    ]
    assert paths == [("Document",)]
    before = [
        c.heading_path
        for c in chunk_markdown(text, pack_short=False)
        if "merge duplicate" in c.body
    ]
    assert before == [("Document", "Parameters:")]


def test_a_dateline_heading_is_not_a_section() -> None:
    from citechunk.conversion.repairs.runin import demote_label_headings

    for date in ("February 2024", "Thursday, August 6, 2020", "6 Aug. 2020", "June 2023"):
        text = f"# Report\n\n### {date}\n\n### Authority\n\nx"
        assert demote_label_headings([(1, text)]) == [
            (1, text.replace(f"### {date}", f"**{date}**"))
        ]
    kept = "# Report\n\n## May 2024 results\n\n## 2024\n\n## March of the penguins\n\nx"
    assert demote_label_headings([(1, kept)]) == [(1, kept)]


def test_a_sentence_heading_is_body_text_of_its_section() -> None:
    from citechunk.chunking import chunk_markdown
    from citechunk.conversion.repairs.runin import demote_label_headings

    sentence = "All comments are subject to release under the Freedom of Information Act (FOIA)."
    text = f"#### Additional Information\n\nSee the site.\n\n#### {sentence}\n\n### Abstract\n\nx"

    def holder(markdown: str) -> tuple[str, ...]:
        return next(
            c.heading_path for c in chunk_markdown(markdown, pack_short=False) if sentence in c.body
        )

    assert holder(text) == ("Abstract",)  # a bodiless heading opens the next chunk
    (out,) = demote_label_headings([(4, text)])
    assert out == (4, text.replace(f"#### {sentence}", f"**{sentence}**"))
    assert holder(out[1]) == ("Additional Information",)
    kept = "## 1. Introduction.\n\nx\n\n## Figure 3. The system.\n\ny\n\n## Dr. J. Smith\n\nz"
    assert demote_label_headings([(1, kept)]) == [(1, kept)]
