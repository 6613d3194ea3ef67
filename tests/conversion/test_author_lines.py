"""Author lines (bylines) read as headings become text (``author-lines``)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from blockkit import block, row, text_line

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import SUPERSCRIPT, Block, Span
from citechunk.conversion.mdlines import heading_level, heading_text
from citechunk.conversion.processors.author_lines import demote_author_lines, names
from citechunk.conversion.pymupdf import layout_installed


def _block(page: int, text: str, kind: str = "section-header", *marks: str) -> Block:
    raised = [Span(m, size=8, flags=SUPERSCRIPT) for m in marks]
    return block(kind, text_line(text, row(60, 14), 14, boxed=False, after=raised), page=page)


@pytest.mark.parametrize(
    "text, is_byline",
    [
        ("Woo-Pyo Hong and Young-Dae Jung''", True),
        ("Joseph H.J. Ostrowski", True),
        ("By Maggie Weitzman, M.Sc. (University of Oregon)", True),
        ("Ludwig van Beethoven, Clara O'Brien", True),
        ("Categories and Subject Descriptors", False),
        ("First Quarter 2024 Results", False),
        ("Andy Morrison, N1BHI, SK", False),
        ("INTRODUCTION", False),
        ("Introduction", False),
    ],
)
def test_names_reads_personal_names_only(text: str, is_byline: bool) -> None:
    assert (names(text) is not None) is is_byline


def test_a_first_page_byline_with_a_sign_of_authorship_is_text() -> None:
    """A name with a superscript mark, a name after a "by" heading and a name whose e-mail
    follows are text; a two-word title with no sign, and a name on a later page, stay."""
    pages = {
        1: (
            _block(1, "Shallow Water Waves", "title"),
            _block(1, "Mara Lindqvist", "section-header", "1"),
            _block(1, "by"),
            _block(1, "Tomas Berg"),
            _block(1, "Anna Holm"),
            _block(1, "Institute of Physics, anna.holm@example.org", "text"),
            _block(1, "General Terms"),
        ),
        2: (_block(2, "Gary Lyons", "section-header", "1"),),
    }
    cv = {
        1: (
            _block(1, "", "picture"),
            _block(1, "Anna Holm"),
            _block(1, "anna.holm@example.org", "text"),
        )
    }
    assert demote_author_lines(cv) == cv  # a name that opens the page is its title
    out = demote_author_lines(pages)
    assert [b.kind for b in out[1]] == ["title", "text", "text", "text", "text", "text"] + [
        "section-header"
    ]
    assert out[1][1].evidence[-1] == "an author line, not a section title"
    assert out[2] == pages[2]


def byline_pdf(path: Path) -> Path:
    """A paper: a 20 pt bold title, a 15 pt bold author line with a footnote mark, an
    affiliation, and 13 pt bold sections over two pages."""
    body = (
        "The channel experiments measured the speed of solitary waves over a sloping bed "
        "and compared it with the predictions of the shallow water equations. "
    ) * 4
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 70), "Solitary Waves in Narrow Channels", fontname="hebo", fontsize=20)
    page.insert_text((72, 110), "Mara Lindqvist and Tomas Berg *", fontname="hebo", fontsize=15)
    page.insert_text((72, 132), "Department of Physics, Lund University", fontsize=10)
    y = 170.0
    for section in ("Introduction", "Method"):
        page.insert_text((72, y), section, fontname="hebo", fontsize=13)
        page.insert_textbox((72, y + 10, 520, y + 150), body, fontsize=10)
        y += 180
    page = doc.new_page(width=595, height=842)
    for n, section in enumerate(("Results", "Discussion")):
        page.insert_text((72, 70 + 180 * n), section, fontname="hebo", fontsize=13)
        page.insert_textbox((72, 80 + 180 * n, 520, 230 + 180 * n), body, fontsize=10)
    doc.save(path)
    return path


@pytest.mark.heavy
@pytest.mark.skipif(not layout_installed(), reason="pymupdf-layout not installed")
def test_an_author_line_parents_no_section(tmp_path: Path) -> None:
    pdf = byline_pdf(tmp_path / "waves.pdf")
    author = "Mara Lindqvist and Tomas Berg *"

    def levels(skip: tuple[str, ...]) -> dict[str, int]:
        markdown = convert(pdf, ConvertOptions(layout="always", skip_passes=skip)).markdown
        return {heading_text(ln): heading_level(ln) for ln in markdown.splitlines()}

    assert author in levels(("author-lines",))  # read as a heading without the rule
    found = levels(())
    assert author not in found
    assert found["Introduction"] == found["Results"]
