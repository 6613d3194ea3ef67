"""The running-line policy: position among the page's own lines, repetition, the outline."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.outline import OutlineEntry, from_toc
from citechunk.conversion.pipeline import PassContext
from citechunk.conversion.repairs.running import strip_running_lines
from citechunk.conversion.runninglines import (
    RunningLines,
    find_running,
    is_page_number,
    line_signature,
)
from citechunk.conversion.textlayer import TextLayer
from conftest import wide_pdf

TOPICS = ["budgets", "staffing", "ethics", "schedules"]
FOOTER = "Northwind Quarterly Review - Confidential"
STAMP = "arXiv:2401.01234v2 [cs.CL] 3 Jan 2024"


def paragraph(topic: str, n: int) -> str:
    return (
        f"This part of chapter {n} explains the {topic} of the project in enough words to fill "
        f"several lines of body text, so that the page reads like prose about {topic} and the "
        f"labels between paragraphs sit well inside the page, far from its edges."
    )


def report(path: Path) -> Path:
    """Four pages: a chapter heading at the top, the labels "Summary" and "Example N" in the
    middle of every page, a footer and a page number on every page, and a sideways stamp in
    the left margin of page 1."""
    doc = pymupdf.open()
    for n, topic in enumerate(TOPICS, 1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), f"Chapter {n}: The {topic.title()}", fontsize=18)
        page.insert_textbox((72, 110, 523, 260), paragraph(topic, n), fontsize=11)
        page.insert_text((72, 300), "Summary", fontsize=13, fontname="hebo")
        page.insert_textbox((72, 320, 523, 470), paragraph(topic, n), fontsize=11)
        page.insert_text((72, 510), f"Example {n}", fontsize=13, fontname="hebo")
        page.insert_textbox((72, 530, 523, 680), paragraph(topic, n), fontsize=11)
        page.insert_text((72, 800), FOOTER, fontsize=8)
        page.insert_text((500, 800), str(n), fontsize=8)
        if n == 1:
            page.insert_text((30, 600), STAMP, fontsize=9, rotate=90)
    doc.set_toc([[1, f"Chapter {n}: The {t.title()}", n] for n, t in enumerate(TOPICS, 1)])
    doc.save(path)
    return path


def repeated_titles(path: Path) -> Path:
    """Sections "2 Bar", "3 Baz", "5 Bar" (titles repeated) at the top of pages, in the outline."""
    doc = pymupdf.open()
    titles = ["1 Foo", "2 Bar", "3 Baz", "4 Qux", "5 Bar", "6 Baz"]
    for n in range(1, 7):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 72), titles[n - 1], fontsize=14, fontname="hebo")
        page.insert_textbox((72, 100, 523, 300), paragraph("sections", n), fontsize=11)
    doc.set_toc([[1, t, n] for n, t in enumerate(titles, 1)])
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def report_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return report(tmp_path_factory.mktemp("running") / "report.pdf")


def running_of(path: Path) -> RunningLines:
    doc = pymupdf.open(path)
    return find_running(TextLayer.of_document(doc), from_toc(doc.get_toc(simple=True)))


def test_footer_page_numbers_and_margin_stamp_run_mid_page_labels_do_not(
    report_pdf: Path,
) -> None:
    running = running_of(report_pdf)
    assert running.signatures == {line_signature(FOOTER), "#", line_signature(STAMP)}
    assert running.is_running(1, STAMP) and not running.is_running(2, STAMP)
    assert not running.is_running(1, "Summary") and not running.is_running(3, "Example 3")
    assert not running.is_running(1, "Chapter 1: The Budgets")


def test_the_pass_removes_the_running_lines_from_the_markdown_only(report_pdf: Path) -> None:
    ctx = PassContext(ConvertOptions(), running=running_of(report_pdf))
    page = "\n\n".join(
        [
            "# Chapter 2: The Staffing",
            "body",
            "## Summary",
            "body",
            "## Example 2",
            "body",
            f"{FOOTER} 2",
            "2",
        ]
    )
    page = page.replace(f"{FOOTER} 2", FOOTER)
    (_, out), (_, second) = strip_running_lines([(2, page), (3, page)], ctx)
    assert FOOTER not in out and "\n2\n" not in f"\n{out}\n"
    assert "## Summary" in out and "## Example 2" in out and "# Chapter 2" in out
    assert second == out  # page 3 has the same running lines


def test_a_heading_the_outline_names_on_its_page_is_not_running(tmp_path: Path) -> None:
    running = running_of(repeated_titles(tmp_path / "titles.pdf"))
    assert running.signatures == frozenset()


def test_display_type_on_a_few_page_tops_is_a_heading_not_a_running_line(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n in range(1, 9):
        page = doc.new_page(width=595, height=842)
        if n % 3 == 1:
            page.insert_text((72, 60), f"CHAPTER {n // 3 + 1}", fontsize=20)
        page.insert_textbox((72, 120, 523, 400), paragraph("chapters", n), fontsize=11)
        page.insert_text((72, 800), "Acme handbook", fontsize=8)
    doc.save(tmp_path / "book.pdf")
    assert running_of(tmp_path / "book.pdf").signatures == {"acme handbook"}


def test_display_type_topping_pages_in_a_row_runs_after_its_first_page(tmp_path: Path) -> None:
    """A 20-page report: a large title tops pages 4-10 (the notes), a large footer stands on
    every second page, and a large chapter label opens pages 2, 12 and 16: the title runs on
    pages 5-10 but heads page 4, the footer runs everywhere, the chapter labels are headings."""
    doc = pymupdf.open()
    for n in range(1, 21):
        page = doc.new_page(width=595, height=842)
        if 4 <= n <= 10:
            page.insert_text((72, 60), "NOTES TO THE ACCOUNTS", fontsize=16)
        if n in (2, 12, 16):
            page.insert_text((72, 60), "CHAPTER", fontsize=20)
        page.insert_textbox((72, 120, 523, 700), paragraph("notes", n) * 3, fontsize=10)
        if n % 2:
            page.insert_text((72, 800), f"Acme annual review {n}", fontsize=13)
    doc.save(tmp_path / "report.pdf")
    running = running_of(tmp_path / "report.pdf")
    title, footer = "notes to the accounts", "acme annual review #"
    assert [n for n in range(1, 21) if title in running.on_page(n)] == list(range(5, 11))
    assert [n for n in range(1, 21) if footer in running.on_page(n)] == list(range(1, 21, 2))
    assert "chapter" not in running.signatures


def test_without_running_lines_the_pass_changes_nothing() -> None:
    ctx = PassContext(ConvertOptions(), outline=(OutlineEntry(1, "A", 1),))
    pages = [(1, "Northwind\n\ntext"), (2, "Northwind\n\nmore")]
    assert strip_running_lines(pages, ctx) == pages


def test_signatures_blur_digits_and_page_numbers_are_recognised() -> None:
    assert line_signature("Page 2 of  9") == line_signature("page 3 of 9") == "page # of #"
    assert is_page_number("iv") and is_page_number("Page 3 of 12") and not is_page_number("3 cats")


def test_a_heading_with_the_footer_s_words_stays_when_the_footer_is_gone(tmp_path: Path) -> None:
    """A chapter heading "Diagnosis" on a page whose running footer also reads "Diagnosis":
    the Markdown keeps as many occurrences as the page's body has."""
    doc = pymupdf.open()
    for n in range(1, 5):
        page = doc.new_page(width=595, height=842)
        if n == 2:
            page.insert_text((72, 200), "Diagnosis", fontsize=24)
        page.insert_textbox((72, 240, 523, 500), paragraph("tests", n), fontsize=11)
        page.insert_text((72, 810), "Diagnosis", fontsize=7)
    doc.save(tmp_path / "guide.pdf")
    running = running_of(tmp_path / "guide.pdf")
    assert running.on_page(2) == {"diagnosis": 1} and running.in_body(2) == {"diagnosis": 1}
    ctx = PassContext(ConvertOptions(), running=running)
    cut_by_layout = [(2, "## Diagnosis\n\nbody")]
    assert strip_running_lines(cut_by_layout, ctx) == cut_by_layout
    both = [(2, "## Diagnosis\n\nbody\n\nDiagnosis")]
    assert strip_running_lines(both, ctx) == cut_by_layout


@pytest.mark.heavy
def test_conversion_keeps_mid_page_labels_and_drops_footer_and_stamp(report_pdf: Path) -> None:
    from citechunk.conversion import convert

    markdown = convert(report_pdf).markdown
    assert markdown.count("Summary") == 4
    assert all(f"Example {n}" in markdown for n in range(1, 5))
    assert all(f"Chapter {n}" in markdown for n in range(1, 5))
    assert FOOTER not in markdown and "arXiv" not in markdown


def test_a_heading_set_on_two_lines_counts_as_the_footer_s_text(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n in range(1, 5):
        page = doc.new_page(width=595, height=842)
        if n == 3:
            page.insert_textbox((72, 180, 300, 260), "Living with\nbreast cancer", fontsize=24)
        page.insert_textbox((72, 280, 523, 500), paragraph("care", n), fontsize=11)
        page.insert_text((72, 810), "Living with breast cancer", fontsize=7)
    doc.save(tmp_path / "guide.pdf")
    running = running_of(tmp_path / "guide.pdf")
    assert running.in_body(3) == {"living with breast cancer": 1}
    ctx = PassContext(ConvertOptions(), running=running)
    heading = [(3, "## Living with breast cancer\n\nbody")]
    assert strip_running_lines(heading, ctx) == heading


def test_numbered_labels_at_page_tops_are_headings_page_numbers_in_a_footer_run(
    tmp_path: Path,
) -> None:
    doc = pymupdf.open()
    for n in range(1, 6):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 60), f"Definition {3 * n + 7}", fontsize=11, fontname="hebo")
        page.insert_textbox((72, 120, 523, 400), paragraph("terms", n), fontsize=11)
        page.insert_text((72, 810), f"Acme Manual - Page {n} of 5", fontsize=8)
    doc.save(tmp_path / "defs.pdf")
    assert running_of(tmp_path / "defs.pdf").signatures == {"acme manual - page # of #"}


def test_a_folio_in_a_wide_margin_runs_a_section_number_beside_its_title_does_not(
    tmp_path: Path,
) -> None:
    """A page number alone in its row 15% from the top (a book's wide margin), following the
    page numbers, is running; the section numbers set beside their titles in the row below
    (1 on page 1, 2 on page 2...) are not."""
    doc = pymupdf.open()
    for n in range(1, 6):
        page = doc.new_page(width=612, height=792)
        page.insert_text((480, 110), str(n + 1), fontsize=9)
        page.insert_text((135, 140), str(n), fontsize=12, fontname="hebo")
        page.insert_text((160, 140), f"Section about {TOPICS[n % 4]}", fontsize=12, fontname="hebo")
        page.insert_textbox((135, 160, 480, 400), paragraph(TOPICS[n % 4], n), fontsize=10)
    doc.save(tmp_path / "book.pdf")
    running = running_of(tmp_path / "book.pdf")
    assert all(running.on_page(n) == {"#": 1} for n in range(1, 6)), running.pages
    assert running.in_body(2) == {"#": 1}  # the section number, kept by the pass


def test_lone_numbers_that_do_not_follow_the_pages_are_not_folios(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n, value in enumerate([7, 3, 12, 5], 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((480, 110), str(value), fontsize=9)
        page.insert_textbox((135, 160, 480, 400), paragraph(TOPICS[n % 4], n), fontsize=10)
    doc.save(tmp_path / "numbers.pdf")
    assert running_of(tmp_path / "numbers.pdf").signatures == frozenset()


def test_a_large_sideways_stamp_reaching_into_the_text_column_runs_on_every_page(
    tmp_path: Path,
) -> None:
    """A 40 pt stamp run up the left margin of each page reaches past the left edge of a few
    horizontal lines (a page number set far left); its centre is left of most lines' left
    edge and it repeats: running. A sideways label once, inside a table, is not."""
    doc = pymupdf.open()
    for n, topic in enumerate(TOPICS, 1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((20, 60), str(n), fontsize=8)  # the leftmost horizontal line
        page.insert_textbox((72, 110, 523, 400), paragraph(topic, n), fontsize=11)
        page.insert_textbox((72, 420, 523, 700), paragraph(topic, n + 4), fontsize=11)
        page.insert_text((50, 640), "For personal use only", fontsize=40, rotate=90)
        if n == 2:
            page.insert_text((300, 780), "Quarter totals", fontsize=9, rotate=90)
    doc.save(tmp_path / "stamped.pdf")
    running = running_of(tmp_path / "stamped.pdf")
    assert all("for personal use only" in running.on_page(n) for n in range(1, 5))
    assert "quarter totals" not in running.on_page(2)


@pytest.mark.corpus
def test_a_large_running_title_heads_its_first_page_only() -> None:
    """An annual report's notes repeat their title, set large, at the top of pages 21-46: it
    heads page 21 and is gone from the pages after."""
    path = wide_pdf("biz_emetals_annual_financial_report_fy2022.pdf")
    markdown = convert(path, ConvertOptions(pages="21-24")).markdown
    first, *later = markdown.split("<!-- page ")[1:]
    title = "NOTES TO THE CONSOLIDATED FINANCIAL STATEMENTS"
    assert title in first
    assert not any(title in page or "FOR THE YEAR ENDED 30 JUNE" in page for page in later)


@pytest.mark.corpus
def test_a_large_footer_on_every_second_page_runs() -> None:
    """A report's footer "NTT DATA CSR Report 2014 02", set larger than its body text, stands
    at the foot of every second page: it leaves them all."""
    path = wide_pdf("biz_ntt_data_csr_report_2014_highlights.pdf")
    assert "CSR Report 2014" not in convert(path, ConvertOptions(pages="3-8")).markdown
