"""Sections named by running headers (`conversion.runningsections`): the rule on page lines, and
end to end on PDFs whose only section names are their page headers."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.base import read_facts
from citechunk.conversion.runningsections import Section, sections

TOPICS = ["revenue", "staff", "outlook", "assets", "leases", "taxes", "equity", "risk"]


def test_a_header_changing_between_runs_of_pages_names_sections() -> None:
    lines = {2: "Directors' report", 3: "Directors' report", 5: "Notes", 6: "Notes", 7: "Notes"}
    assert sections(lines) == [Section(2, "Directors' report", 3), Section(5, "Notes", 7)]


def test_a_header_on_one_page_names_no_section() -> None:
    assert sections({2: "Directors' report", 3: "Notes", 4: "Notes"}) == [Section(3, "Notes", 4)]


def test_a_header_set_once_in_the_section_lines_place_names_a_one_page_section() -> None:
    lines = {
        2: "Directors' report",
        3: "Directors' report",
        4: "Cash flows",
        5: "Notes",
        6: "Notes",
    }
    assert sections(lines, once={4}) == [
        Section(2, "Directors' report", 3),
        Section(4, "Cash flows", 4, once=True),
        Section(5, "Notes", 6),
    ]
    assert sections(lines) == [Section(2, "Directors' report", 3), Section(5, "Notes", 6)]


def test_alternating_headers_name_no_section() -> None:
    lines = {n: "Chapter One" if n % 2 else "A Short History" for n in range(2, 12)}
    assert sections(lines) == []


def report_pdf(
    path: Path, header: Callable[[int], str], sheets: frozenset[int] = frozenset()
) -> Path:
    """Eight pages of body text, no headings: page 1 a cover line, pages 2-8 a constant header
    line above `header(page)` and a page number; the pages in `sheets` hold a drawing (a box
    and three labels) instead of body text."""
    doc = pymupdf.open()
    for number, topic in enumerate(TOPICS, 1):
        page = doc.new_page(width=595, height=842)
        if number > 1:
            page.insert_text((72, 36), "Harbor Trust Annual Report 2024", fontsize=8)
            page.insert_text((72, 50), header(number), fontsize=9, fontname="hebo")
        if number in sheets:
            page.draw_rect(pymupdf.Rect(150, 200, 450, 500))
            for k, label in enumerate(("FIG. 2", "102", "SELECT A NODE")):
                page.insert_text((170, 240 + 90 * k), label, fontsize=11, fontname="tiro")
        else:
            body = (
                f"The board reviewed the {topic} of the trust during the year in enough words "
                f"to be a real paragraph of body text, so that the page reads as prose about "
                f"{topic}. "
            ) * 3
            page.insert_textbox((72, 120, 523, 500), body, fontsize=11, fontname="tiro")
        page.insert_text((290, 810), str(number), fontsize=9)
    doc.save(path)
    return path


def test_a_header_seen_only_over_drawings_names_no_section(tmp_path: Path) -> None:
    def header(page: int) -> str:
        return "Directors' report" if page <= 4 else "Drawing sheet" if page <= 7 else "Notes"

    pdf = report_pdf(tmp_path / "trust.pdf", header, frozenset({5, 6, 7}))
    with pymupdf.open(pdf) as doc:
        found = read_facts(pdf, doc, ConvertOptions()).sections
    # page 8's "Notes" is set once where the running headers stand: a one-page section
    assert found == (Section(2, "Directors' report", 4), Section(8, "Notes", 8, once=True))


def _headings(markdown: str) -> list[str]:
    return re.findall(r"^#+ .*$", markdown, flags=re.M)


@pytest.mark.heavy
def test_each_run_of_a_page_header_opens_one_section_at_one_level(tmp_path: Path) -> None:
    def header(page: int) -> str:
        return "Directors' report" if page <= 4 else "Notes to the financial statements"

    markdown = convert(report_pdf(tmp_path / "trust.pdf", header)).markdown
    headings = _headings(markdown)
    levels = {h.split()[0] for h in headings}
    assert [h.lstrip("# ") for h in headings] == [
        "Directors' report",
        "Notes to the financial statements",
    ]
    assert len(levels) == 1
    assert markdown.count("Notes to the financial statements") == 1
    notes = markdown.index("Notes to the financial statements")
    assert markdown.index("<!-- page 5 -->") < notes < markdown.index("about leases")


def _statements(page: int) -> str:
    named = {5: "Statement of cash flows", 6: "Statement of financial position"}
    return "Directors' report" if page <= 4 else named.get(page, "Notes to the accounts")


def test_a_page_header_set_once_where_the_running_ones_stand_names_its_page(
    tmp_path: Path,
) -> None:
    pdf = report_pdf(tmp_path / "trust.pdf", _statements)
    with pymupdf.open(pdf) as doc:
        found = read_facts(pdf, doc, ConvertOptions()).sections
    assert found == (
        Section(2, "Directors' report", 4),
        Section(5, "Statement of cash flows", 5, once=True),
        Section(6, "Statement of financial position", 6, once=True),
        Section(7, "Notes to the accounts", 8, once=True),
    )


@pytest.mark.heavy
def test_one_page_sections_in_a_row_each_open_at_the_top_level(tmp_path: Path) -> None:
    markdown = convert(report_pdf(tmp_path / "trust.pdf", _statements)).markdown
    headings = _headings(markdown)
    assert [h.lstrip("# ") for h in headings] == [
        "Directors' report",
        "Statement of cash flows",
        "Statement of financial position",
        "Notes to the accounts",
    ]
    assert len({h.split()[0] for h in headings}) == 1


@pytest.mark.heavy
def test_alternating_page_headers_open_no_section(tmp_path: Path) -> None:
    def header(page: int) -> str:
        return "Directors' report" if page % 2 else "Notes to the financial statements"

    markdown = convert(report_pdf(tmp_path / "trust.pdf", header)).markdown
    assert _headings(markdown) == []
