"""Column-by-column reading order of two-column pages (conversion/reading_order.py), on
pymupdf4llm's own LayoutBox records laid out like real pages (612 pt wide)."""

from __future__ import annotations

from typing import Any

from pymupdf4llm.helpers.document_layout import LayoutBox

from citechunk.conversion.reading_order import find_gutter, read_columns

WIDTH = 612.0


def box(x0: float, y0: float, x1: float, y1: float, text: str, cls: str = "text") -> Any:
    """A box whose text is one line per 10 pt of height, each line holding ``text``."""
    lines = [
        {"bbox": (x0, y, x1, y + 9), "spans": [{"text": text}]}
        for y in range(int(y0), int(y1) - 8, 10)
    ]
    return LayoutBox(x0, y0, x1, y1, cls, textlines=lines)


def names(boxes: list[Any]) -> list[str]:
    return [
        b.textlines[0]["spans"][0]["text"].split()[0] if b.textlines else b.boxclass for b in boxes
    ]


PROSE = "words of a paragraph that runs across the column width"


def test_paragraphs_interleaved_by_height_are_read_left_column_first() -> None:
    l1, l2, l3 = (box(54, y, 290, y + 80, f"L{i} {PROSE}") for i, y in enumerate((100, 200, 300)))
    r1, r2, r3 = (box(320, y, 558, y + 80, f"R{i} {PROSE}") for i, y in enumerate((110, 210, 310)))
    header = box(54, 40, 200, 49, "header", "page-header")
    footer = box(300, 760, 320, 769, "7", "page-footer")
    page = [header, l1, r1, l2, r2, l3, r3, footer]
    assert names(read_columns(page, WIDTH)) == [
        "header", "L0", "L1", "L2", "R0", "R1", "R2", "7",
    ]  # fmt: skip


def test_a_wide_figure_separates_bands_and_a_masthead_stays_on_top() -> None:
    title = box(54, 40, 200, 60, "Title", "section-header")
    masthead = box(400, 40, 500, 70, "Masthead")
    top_l, top_r = box(54, 100, 290, 200, f"a {PROSE}"), box(320, 100, 558, 200, f"b {PROSE}")
    figure = box(54, 210, 558, 400, "figure", "picture")
    low_l, low_r = box(54, 410, 290, 600, f"c {PROSE}"), box(320, 410, 558, 600, f"d {PROSE}")
    page = [title, masthead, top_r, top_l, figure, low_r, low_l]
    out = names(read_columns(page, WIDTH))
    assert out == ["Title", "Masthead", "a", "b", "figure", "c", "d"]


def test_pages_already_in_column_order_or_without_columns_are_returned_as_is() -> None:
    left = [box(54, y, 290, y + 80, f"L {PROSE}") for y in (100, 200)]
    right = [box(320, y, 558, y + 80, f"R {PROSE}") for y in (100, 200)]
    ordered = [*left, *right]
    assert read_columns(ordered, WIDTH) is ordered
    single = [box(54, y, 558, y + 80, f"S {PROSE}") for y in (100, 200, 300)]
    assert read_columns(single, WIDTH) is single
    # a label/value layout: short labels on the left are not a column of prose
    form = [
        b
        for y in (100, 130, 160)
        for b in (box(54, y, 150, y + 9, "Name:"), box(320, y, 558, y + 9, PROSE))
    ]
    assert find_gutter(form, WIDTH) is None
    assert read_columns(form, WIDTH) is form
