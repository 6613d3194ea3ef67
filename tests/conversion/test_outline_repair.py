"""Heading repair from the PDF outline."""

from __future__ import annotations

import pytest

from citechunk.conversion.outline import OutlineEntry, is_sentence, lists_sections, title_key
from citechunk.conversion.repairs.outline import names_a_heading, repair_headings


def test_title_key_ignores_numbering_case_and_markup() -> None:
    assert title_key("III-A Google DeepDream") == title_key("**A. Google  DEEPDREAM**")
    assert title_key("2.1.3. Parallel File System") == title_key("Parallel file system")
    assert title_key("IV") == "iv"


def test_repair_headings_relevel_promote_join_run_in_and_demote() -> None:
    pages = [
        (4, "### 1 Intro\n\ntext\n\n## Stray Heading\n\nMethods Used\n\n```\n# Methods Used\n```"),
        (5, "APPENDIX A\n\nGENERATED TEXTS\n\nII. BASICS OF LEARNING The traditional approach is"),
    ]
    outline = [
        OutlineEntry(1, "1 Intro", 4),
        OutlineEntry(2, "Methods Used", 4),
        OutlineEntry(1, "Appendix A: Generated Texts", 5),
        OutlineEntry(2, "II Basics of Learning", 5),
    ]
    (p4, md4), (p5, md5) = repair_headings(pages, outline)[0]
    assert (p4, p5) == (4, 5)
    assert md4.split("\n\n")[:4] == ["# 1 Intro", "text", "## Stray Heading", "## Methods Used"]
    assert "```\n# Methods Used\n```" in md4
    assert md5.startswith(
        "# APPENDIX A GENERATED TEXTS\n\n## II. BASICS OF LEARNING\n\nThe traditional"
    )


def test_repair_demotes_stray_heading_below_enclosing_entry() -> None:
    pages = [(1, "# Chapter One\n\n# Loose Part\n\nbody")]
    out, stats = repair_headings(pages, [OutlineEntry(1, "Chapter One", 1)])
    assert out[0][1].startswith("# Chapter One\n\n## Loose Part")
    assert stats.demoted == 1 and stats.missing == ()


def test_an_entry_that_opens_a_longer_bold_run_is_split_off_as_a_heading() -> None:
    pages = [(2, "text\n\n**Administrative Information Start Date:** 2021-10-01 **End Date:** x")]
    out, stats = repair_headings(pages, [OutlineEntry(1, "Administrative Information", 2)])
    assert out[0][1] == (
        "text\n\n# Administrative Information\n\n**Start Date:** 2021-10-01 **End Date:** x"
    )
    assert stats.missing == ()
    plain = [(2, "text\n\nAdministrative Information is kept by the office.")]
    assert repair_headings(plain, [OutlineEntry(1, "Administrative Information", 2)])[0] == plain


@pytest.mark.parametrize(
    "title, heading",
    [
        ("Financial Review", True),
        ("1.2 Scope", True),
        ("Slide 12", False),
        ("Page 3", False),
        ("p. 4", False),
        ("12", False),
        ("Recommendation 1.1.1", False),
        ("1.1.1 Offer people with a suspected fracture an X-ray within one hour.", False),
        ("One two three four five six seven eight nine ten eleven twelve thirteen", False),
    ],
)
def test_only_entries_naming_a_heading_are_worth_a_warning(title: str, heading: bool) -> None:
    assert names_a_heading(title) is heading


def test_an_outline_of_paragraph_sentences_lists_no_sections() -> None:
    paragraphs = [
        OutlineEntry(
            1, "1. This Regulation lays down rules relating to the protection of data.", 9
        ),
        OutlineEntry(1, "(a) in the course of an activity which falls outside Union law;", 9),
        OutlineEntry(1, "(b) Union law; or", 9),
    ]
    sections = [
        OutlineEntry(1, "1 Introduction", 1),
        OutlineEntry(2, "1.1 Scope", 2),
        *paragraphs[:1],
    ]
    assert not lists_sections(paragraphs)
    assert lists_sections(sections)
    assert is_sentence(paragraphs[1].title) and not is_sentence("Appendix A The Evolution of awk")


def test_an_entry_leaves_the_next_page_to_a_later_entry_of_its_title() -> None:
    """A structured abstract's "Methods" entry (page 1, its label run into the paragraph) does
    not take the "Methods" section heading of page 2, which a later entry names."""
    pages = [
        (1, "# Abstract\n\nMethods: we asked nurses.\n\nResults: most answered."),
        (2, "## Methods\n\ntext\n\n## Setting\n\ntext"),
        (3, "## Results\n\ntext"),
    ]
    outline = [
        OutlineEntry(1, "Abstract", 1),
        OutlineEntry(2, "Methods", 1),
        OutlineEntry(2, "Results", 1),
        OutlineEntry(1, "Methods", 2),
        OutlineEntry(2, "Setting", 2),
        OutlineEntry(1, "Results", 3),
    ]
    out, _ = repair_headings(pages, outline)
    heads = [ln for _, text in out for ln in text.splitlines() if ln.startswith("#")]
    assert heads[-3:] == ["# Methods", "## Setting", "# Results"]


def test_an_entry_matches_a_heading_whose_words_the_text_layer_spells_apart() -> None:
    """A text layer that sets a gap inside a word ("Fet ching") still names the entry's heading:
    it takes the entry's depth instead of nesting under the entry before it."""
    pages = [
        (
            1,
            "## 1.4. Animated GIFs\n\ntext\n\n#### 1.5. Fet ching a URL\n\ntext\n\nOr ganization\n\nx",
        )
    ]
    outline = [
        OutlineEntry(1, "1.4. Animated GIFs", 1),
        OutlineEntry(1, "1.5. Fetching a URL", 1),
        OutlineEntry(1, "Organization", 1),
    ]
    out, stats = repair_headings(pages, outline)
    heads = [ln for ln in out[0][1].splitlines() if ln.startswith("#")]
    assert heads == ["# 1.4. Animated GIFs", "# 1.5. Fet ching a URL", "# Or ganization"]
    assert stats.missing == ()
    # a short title is not matched by its letters alone
    out, stats = repair_headings([(1, "# A\n\nt\n\n## b c\n\nt")], [OutlineEntry(1, "BC", 1)])
    assert stats.missing == ("BC",)


def test_an_entry_whose_destination_lies_before_the_previous_entry_takes_its_one_heading() -> None:
    """An entry a producer pointed at page 1 after entries on pages 2-3 is the heading of its
    title between its neighbours (page 4, not the contents row on page 1); a title printed as
    a heading on two pages of the window, or on none, stays not found."""
    pages = [
        (1, "# Contents\n\nAuditor's Report 4"),
        (2, "# Directors' Report\n\ntext"),
        (3, "# Directors' Declaration\n\ntext"),
        (4, "###### Auditor's Report\n\n###### Opinion\n\ntext"),
        (5, "# Shareholder Information\n\ntext"),
    ]
    outline = [
        OutlineEntry(1, "Directors' Report", 2),
        OutlineEntry(1, "Directors' Declaration", 3),
        OutlineEntry(1, "Auditor's Report", 1),
        OutlineEntry(1, "Shareholder Information", 5),
    ]
    out, stats = repair_headings(pages, outline)
    assert out[3][1].split("\n\n")[:2] == ["# Auditor's Report", "###### Opinion"]
    assert out[0] == pages[0] and stats.missing == ()
    declaration = "# Directors' Declaration\n\n###### Auditor's Report\n\ntext"
    twice = [*pages[:2], (3, declaration), *pages[3:]]
    out, stats = repair_headings(twice, outline)
    assert stats.missing == ("Auditor's Report",)
    assert "###### Auditor's Report" in out[3][1]
