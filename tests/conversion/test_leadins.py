"""Pass `numbered-leadins`: a bold numbered clause title opening a paragraph is a heading."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.conversion import convert
from citechunk.conversion.numbers import heading_number, next_in_pattern
from citechunk.conversion.repairs.leadins import promote_numbered_leadins

TERMS = [
    (
        1,
        "# Terms of Service\n\n## 5. Accounts\n\nKeep your password safe.\n\n"
        "## 6. Fees and Taxes\n\nYou pay the fees.\n\n"
        "**7. App Stores.** You may get the app from a store.\n\n"
        "**8. Indemnification.** You will defend us.",
    ),
    (2, "**9. Changes** We may change these terms.\n\n**1.** Preheat the oven."),
]


def test_leadins_in_a_document_numbered_that_way_become_headings() -> None:
    out = promote_numbered_leadins(TERMS)
    assert out[0][1].endswith(
        "## 7. App Stores\n\nYou may get the app from a store.\n\n"
        "## 8. Indemnification\n\nYou will defend us."
    )
    assert out[1][1] == "## 9. Changes\n\nWe may change these terms.\n\n**1.** Preheat the oven."


def test_subclauses_go_below_the_heading_whose_number_prefixes_theirs() -> None:
    pages = [
        (
            1,
            "# Version 3.2\n\n## 1. Scope\n\n**1.1 Purpose.** This covers.\n\n**1.2 Terms:** These.",
        )
    ]
    (out,) = promote_numbered_leadins(pages)
    assert "### 1.1 Purpose\n\nThis covers.\n\n### 1.2 Terms\n\nThese." in out[1]


def test_a_run_of_leadins_without_numbered_headings_nests_under_the_heading_before() -> None:
    body = "\n\n".join(f"**{i}. Clause {i}.** Text {i}." for i in range(1, 4))
    (out,) = promote_numbered_leadins([(1, f"# Agreement\n\n{body}")])
    assert out[1].count("\n## ") == 3 and "## 3. Clause 3\n\nText 3." in out[1]
    (few,) = promote_numbered_leadins([(1, "# Agreement\n\n**1. Clause one.** Text.")])
    assert few[1] == "# Agreement\n\n**1. Clause one.** Text."  # one is no numbering


@pytest.mark.parametrize(
    "line",
    [
        "**7. App Stores.** text",  # out of sequence after 5.
        "**5. Accounts** text",  # repeats a heading: a running title
        "**6 Contents entry 12**",  # a contents line with its page
        "- **6. Listed.** item",  # a list item
        "| **6. Cell.** | x |",
    ],
)
def test_not_leadins(line: str) -> None:
    pages = [(1, f"## 4. Start\n\nx\n\n## 5. Accounts\n\nx\n\n{line}")]
    assert promote_numbered_leadins(pages) == pages


def test_a_bold_line_alone_is_a_leadin_when_numbered_in_sequence() -> None:
    pages = [(1, "## Item 1. Legal\n\nx\n\n**Item 2. Unregistered Sales**\n\nNone.")]
    assert promote_numbered_leadins(pages)[0][1].endswith("## Item 2. Unregistered Sales\n\nNone.")
    repeated = [(1, "## 1 Intro\n\nx\n\n**2 Running Title**\n\ny"), (2, "**2 Running Title**\n\nz")]
    assert promote_numbered_leadins(repeated) == repeated


@pytest.mark.parametrize(
    ("prev", "title", "ok"),
    [
        (None, "1 A", True),
        (None, "2 A", False),
        ("6 A", "7 A", True),
        ("6 A", "8 A", False),
        ("1.4 A", "1.5 A", True),
        ("1.4 A", "2.1 A", True),  # a new parent opens at 1
        ("Item 1 A", "Item 1A B", True),
        ("Item 1A A", "Item 2 B", True),
        ("A.1 X", "B.1 Y", True),
    ],
)
def test_next_in_pattern(prev: str | None, title: str, ok: bool) -> None:
    before = heading_number(prev) if prev else None
    number = heading_number(title)
    assert number is not None
    assert next_in_pattern(before, number) is ok


def test_a_plain_number_with_a_bold_title_continues_the_numbered_headings() -> None:
    pages = [
        (
            1,
            "# Services Agreement\n\n## 2. Services\n\nx\n\n## 3. Ownership Of Work\n\ny\n\n"
            "4. **Payment.** The Client pays.\n\n5. **Term.** One year.",
        )
    ]
    (out,) = promote_numbered_leadins(pages)
    assert out[1].endswith("## 4. Payment\n\nThe Client pays.\n\n## 5. Term\n\nOne year.")


def test_a_numbered_list_with_bold_terms_stays_a_list() -> None:
    body = "1. **Cost** is low.\n\n2. **Speed** is high.\n\n3. **Scale** is wide."
    pages = [(1, f"## 1 Scope\n\nx\n\n## 2 Methods\n\n{body}")]
    assert promote_numbered_leadins(pages) == pages  # 3. follows "2 Methods" but 2. was a list
    alone = [(1, "# Notes\n\n1. **Cost** is low.\n\n2. **Speed** is high.\n\n3. **Scale** is.")]
    assert promote_numbered_leadins(alone) == alone  # no numbered heading gives the level


def test_a_services_agreement_pdf_keeps_every_clause_a_section(tmp_path: Path) -> None:
    """Clauses 1-3 set as headings, 4-6 as a plain number and a bold run-in title."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "SERVICES AGREEMENT", fontsize=18, fontname="hebo")
    y = 110
    text = "The parties agree that this clause applies to all services under this agreement. "
    for n, title in enumerate(["Definitions", "Services", "Ownership", "Payment", "Term"], 1):
        if n <= 3:
            page.insert_text((72, y), f"{n}. {title}", fontsize=13, fontname="hebo")
            page.insert_textbox(pymupdf.Rect(72, y + 8, 540, y + 60), text * 2, fontsize=10)
        else:
            page.insert_text((72, y + 10), f"{n}.", fontsize=10, fontname="helv")
            page.insert_text((90, y + 10), f"{title}.", fontsize=10, fontname="hebo")
            page.insert_text((140, y + 10), text[:60], fontsize=10, fontname="helv")
            page.insert_text((72, y + 23), text[60:], fontsize=10, fontname="helv")
        y += 80
    path = tmp_path / "agreement.pdf"
    doc.save(path)
    markdown = convert(path).markdown
    heads = [ln for ln in markdown.splitlines() if ln.startswith("## ")]
    assert heads == [
        f"## {n}. {t}"
        for n, t in enumerate(["Definitions", "Services", "Ownership", "Payment", "Term"], 1)
    ]
