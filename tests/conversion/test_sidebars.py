"""Boxes (`conversion.sidebars`): a heading inside a drawn rectangle scopes the box only. On a
real PDF (`sample_pdfs/make_samples.py`, `boxed_sidebar`: a sidebar with its own heading beside
a section's body, the body going on below it) and on blocks."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pymupdf
import pytest
from blockkit import block, text_line

from citechunk import ChunkOptions, chunk_markdown
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import Block
from citechunk.conversion.sidebars import BOX_LEVEL, page_rects, scope_boxes


@pytest.fixture(scope="module")
def sidebar(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = make_samples.boxed_sidebar(tmp_path_factory.mktemp("boxes"))
    return path


@pytest.mark.slow
def test_a_real_pdf_body_after_a_boxed_sidebar_is_not_under_its_heading(sidebar: Path) -> None:
    markdown = convert(sidebar, ConvertOptions(backend="pymupdf")).markdown
    chunks = chunk_markdown(markdown, ChunkOptions(max_tokens=60), pack_short=False)
    paths = {c.body.split()[0]: c.heading_path for c in chunks if c.body}
    after = next(c for c in chunks if c.body.startswith("Results of every heat"))
    assert after.heading_path == ("Rowing Club News", "Spring regatta")
    assert paths["Every"] == ("Rowing Club News", "Boat maintenance")
    boxed = next(c for c in chunks if c.body.startswith("The Harbour Rowing Club"))
    assert boxed.heading_path[-1] == "About the club"
    assert boxed.first_page == 1


def _page_with(fill: tuple[float, float, float], stroke: bool) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(300, 100, 500, 300), color=(0, 0, 0) if stroke else None, fill=fill)
    return page


def test_a_white_frame_is_no_box_but_a_coloured_or_stroked_one_is() -> None:
    assert page_rects(_page_with((1, 1, 1), stroke=False)) == ()
    assert page_rects(_page_with((0.9, 0.9, 1.0), stroke=False)) == ((300, 100, 500, 300),)
    assert page_rects(_page_with((1, 1, 1), stroke=True)) == ((300, 100, 500, 300),)


def _block(kind: str, bbox: tuple[float, float, float, float], text: str) -> Block:
    heading = kind == "section-header"
    return block(kind, text_line(text, bbox, 14 if heading else 10), level=2 if heading else None)


PAGE = (
    _block("section-header", (72, 60, 500, 80), "Section"),
    _block("text", (72, 90, 280, 400), "body before " * 40),
    _block("section-header", (310, 110, 490, 130), "Sidebar"),
    _block("text", (310, 140, 490, 280), "boxed text " * 10),
    _block("text", (72, 420, 500, 600), "body after " * 40),
)
RECT = (300.0, 100.0, 500.0, 300.0)


def test_a_box_moves_before_the_next_body_heading_and_its_heading_goes_deepest() -> None:
    page = (*PAGE, _block("section-header", (72, 620, 500, 640), "Next"))
    out = scope_boxes(page, [RECT], None)
    assert [b.text.split()[0] for b in out] == [
        "Section", "body", "body", "Sidebar", "boxed", "Next",
    ]  # fmt: skip
    assert out[3].level == BOX_LEVEL and out[5].level == 2


def test_a_box_heading_nothing_closes_becomes_text_where_it_stands() -> None:
    runs_on = (_block("text", (72, 60, 500, 300), "continued body " * 30),)
    out = scope_boxes(PAGE, [RECT], runs_on)
    assert [b.text.split()[0] for b in out] == [b.text.split()[0] for b in PAGE]
    assert out[2].kind == "text" and out[2].level is None


def test_a_box_moves_to_the_page_end_when_the_next_page_opens_with_a_heading() -> None:
    opens = (_block("section-header", (72, 60, 500, 80), "Next"),)
    out = scope_boxes(PAGE, [RECT], opens)
    assert [b.text.split()[0] for b in out][-2:] == ["Sidebar", "boxed"]
    assert out[-2].level == BOX_LEVEL


def test_a_rectangle_holding_the_whole_body_or_no_heading_is_no_box() -> None:
    whole = (0.0, 0.0, 600.0, 800.0)
    assert scope_boxes(PAGE, [whole], None) == PAGE
    no_heading = (305.0, 135.0, 495.0, 290.0)
    assert scope_boxes(PAGE, [no_heading], None) == PAGE


def test_a_banner_across_the_text_is_no_box() -> None:
    banner = (
        _block("section-header", (72, 60, 500, 80), "Title"),
        _block("text", (72, 82, 500, 100), "subtitle " * 5),
        *PAGE[1:],
    )
    assert scope_boxes(banner, [(70.0, 55.0, 505.0, 105.0)], None) == banner
