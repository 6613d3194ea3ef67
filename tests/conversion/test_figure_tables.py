"""figure-tables: lines whose figures end at shared right edges are read as one table."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pymupdf
from blockkit import block, line

from citechunk.conversion.blocks import Block, Span
from citechunk.conversion.processors.figure_tables import figure_tables, is_figure
from citechunk.conversion.render import render_page
from citechunk.conversion.textlayer import union_box

COLUMNS = (420.0, 500.0)


def _right(page: pymupdf.Page, text: str, x: float, y: float, font: str = "helv") -> None:
    width = pymupdf.get_text_length(text, fontname=font, fontsize=9)
    page.insert_text((x - width, y), text, fontsize=9, fontname=font)


def _statement(path: Path, header: bool = True) -> Path:
    """A page of label lines with two right-aligned figure columns, the way an unruled
    statement is set: each figure its own span, far right of the label."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 100.0
    if header:
        for pair in (("2022", "2021"), ("($)", "($)")):
            for text, x in zip(pair, COLUMNS, strict=True):
                _right(page, text, x, y, "hebo")
            y += 12
    rows: Sequence[tuple[str, tuple[str, ...]]] = (
        ("Cash flows from operating activities", ()),
        ("Distributions on preferred shares", ("7,816,730", "5,256,524")),
        ("Premium on issuance of preferred shares", ("(912,422)", "(29,901)")),
        ("Net change in unrealized appreciation", ()),
        ("  of investments and derivatives", ("5,734,274", "(53,116,707)")),
        ("Proceeds from sale of investments", ("9,795,559", "32,683,719")),
        ("Cash at end of the year", ("60,390,826", "5,272,515")),
    )
    for label, figures in rows:
        page.insert_text((72, y), label, fontsize=9, fontname="helv")
        for text, x in zip(figures, COLUMNS[: len(figures)], strict=True):
            _right(page, text, x, y)
        y += 12
    doc.save(path)
    return path


def _line_blocks(path: Path) -> dict[int, tuple[Block, ...]]:
    """The page's text layer read as the layout path gives such a page: one text block per
    printed line (the spans on one baseline, left to right), its spans as PyMuPDF reads them."""
    with pymupdf.open(path) as doc:
        data = doc[0].get_text("dict")
    rows: dict[int, list[Span]] = {}
    for raw in data["blocks"]:
        for read in raw.get("lines", []):
            for span in read["spans"]:
                rows.setdefault(round(span["origin"][1]), []).append(Span.of(span))
    blocks = []
    for _, spans in sorted(rows.items()):
        spans.sort(key=lambda s: s.bbox[0])
        blocks.append(block("text", line(*spans, bbox=union_box(s.bbox for s in spans))))
    return {1: tuple(blocks)}


def test_figures_ending_at_shared_edges_are_one_table_under_their_header(tmp_path: Path) -> None:
    pages = figure_tables(_line_blocks(_statement(tmp_path / "statement.pdf")))
    assert [b.kind for b in pages[1]] == ["table"]
    markdown = render_page(pages[1]).text
    assert "||2022 ($)|2021 ($)|\n|---|---|---|" in markdown
    assert "|Proceeds from sale of investments|9,795,559|32,683,719|" in markdown
    assert "|Net change in unrealized appreciation of investments and derivatives|" in markdown
    assert "|Cash at end of the year|60,390,826|5,272,515|" in markdown


def test_without_a_header_of_figures_the_lines_stay_text(tmp_path: Path) -> None:
    pages = _line_blocks(_statement(tmp_path / "statement.pdf", header=False))
    assert figure_tables(pages) == pages


def test_a_contents_list_with_right_aligned_page_numbers_stays_text(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    _right(page, "Page", COLUMNS[1], 88, "hebo")
    for i, title in enumerate(("Introduction", "Scope", "Methods", "Results", "Discussion")):
        page.insert_text((72, 100 + 12 * i), title, fontsize=9, fontname="helv")
        _right(page, str(3 + 4 * i), COLUMNS[1], 100 + 12 * i)
    doc.save(tmp_path / "contents.pdf")
    pages = _line_blocks(tmp_path / "contents.pdf")
    assert figure_tables(pages) == pages


def test_a_figure_is_digits_with_marks_not_a_word_with_digits() -> None:
    for text in ("1,234", "(5,219,594)", "-", "—", "12.5%", "$ 1,000", "2022", "($)", "3.14"):
        assert is_figure(text), text
    for text in ("Q1", "2022 2021", "note 6", "1,234 shares", "", "(a)"):
        assert not is_figure(text), text
