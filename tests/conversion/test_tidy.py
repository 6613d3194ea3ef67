"""tidy_page and the heading-line clean-up it applies."""

from __future__ import annotations

import pytest

from citechunk.conversion.mdlines import clean_heading_line
from citechunk.conversion.repairs.tidy import attach_footnotes, tidy_page


@pytest.mark.parametrize(
    ("line", "clean"),
    [
        ("# **Title**", "# Title"),
        ("## _x_", "## x"),
        ("### **2.1** **Main** `code_name` ", "### 2.1 Main code_name"),
        ("## ****", ""),
        ("#include <stdio.h>", "#include <stdio.h>"),
        ("plain **bold** text", "plain **bold** text"),
        ("## ESTIMATED COSTS—Continued", "**ESTIMATED COSTS—Continued**"),
        ("### Table 2 (cont.)", "**Table 2 (cont.)**"),
        ("## **Figure 4.** _Cont_ .", "**Figure 4. Cont .**"),
        ("## Continued Education", "## Continued Education"),
        ("# Cont. Integration", "# Cont. Integration"),
    ],
)
def test_clean_heading_line(line: str, clean: str) -> None:
    assert clean_heading_line(line) == clean


def test_tidy_page_fixes_retrieval_noise() -> None:
    page = (
        "cancer<sup>1</sup> , women.<sup>2,3</sup> 10<sup>2</sup> m Herceptin<sup>®</sup>\r\n"
        "an I<sup>2</sup>C bus, cited<sup>3</sup>.\n"
        "a superﬁcial ﬂow, eﬀort; "
        "by L<sup>A</sup> TEX, BibTEX, L<sup>A</sup>TEX2e; AL<sup>A</sup> TEX and L<sup>A</sup> Tex\n"
        "|a<br>b|c|\n<!-- Start of picture text -->\nAxis<br>Value<br><!-- End of picture text -->\n"
        "## I. INTRODUCTIONNTRODUCTION\n\n\n\nbad\x0bchar\n```\n## kept   \n```\n"
        "**<mark>`Document.save()`</mark>** now, see <u>GAO-20-629</u>.\n\n"
        "- ● Which products?\n  - _•_ Testing first\n- ●\n- •bold•"
    )
    out = tidy_page(page)
    assert "- Which products?\n  - Testing first\n- ●\n- •bold•" in out
    assert "**`Document.save()`** now, see GAO-20-629." in out
    assert "cancer [1] , women. [2,3] 10^2 m Herceptin®" in out
    assert "an I²C bus, cited [3]." in out
    assert "a superficial flow, effort; by LATEX, BibTEX, LATEX2e; ALA TEX and LA Tex\n" in out
    assert "|a b|c|" in out and "Axis\nValue" in out and "<br>" not in out
    assert "## I. INTRODUCTION\n" in out
    assert "\n\n\n" not in out and "\r" not in out and "bad\ufffdchar" in out
    assert "```\n## kept\n```" in out


def test_attach_footnotes_moves_a_cited_footnote_after_its_paragraph() -> None:
    page = (
        "### 5.4 Run-time\n\nWith FAISS [10] , DPR is fast.\n\nMore text.\n\n"
        "## 6 QA\n\nQA text, and\n\n10FAISS configuration: HNSW.\n\n> 11 Not cited here."
    )
    assert attach_footnotes(page) == (
        "### 5.4 Run-time\n\nWith FAISS [10] , DPR is fast.\n\n10FAISS configuration: HNSW."
        "\n\nMore text.\n\n## 6 QA\n\nQA text, and\n\n> 11 Not cited here."
    )
    for untouched in (
        "Cites [3] here.\n\n3 The note right after it.",  # already in place
        "No citation.\n\n3 The note.",  # number never cited as [3] on this page
        "Cites [3].\n\n```\ncode\n```\n\n3 The note.",  # pages with code are left alone
        "Cites [3].\n\nx\n\n3. Item of a numbered list",  # "3." is a list item, no note
    ):
        assert attach_footnotes(untouched) == untouched


def test_a_raised_digit_after_a_one_letter_symbol_is_a_power() -> None:
    out = tidy_page(
        "in R<sup>3</sup> and on S<sup>1</sup>, vitamin A<sup>2</sup>; seen<sup>2</sup>"
    )
    assert out == "in R³ and on S¹, vitamin A²; seen [2]"


def test_a_heading_loses_its_footnote_mark() -> None:
    """A mark ending a heading is the page's footnote, not the title: the heading is searched
    and matched against outlines by its words; a raised digit after one letter is an exponent."""
    page = "## BACKGROUND<sup>1</sup>\n\nText [1].\n\n### The Model [2,3]\n\n#### X = R<sup>2</sup>"
    assert tidy_page(page) == ("## BACKGROUND\n\nText [1].\n\n### The Model\n\n#### X = R²")
