"""One heading stage over the whole document's blocks: a heading's level is the rank of its
size among all the document's heading sizes, whichever model read its page."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from blockkit import block, row, text_line

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import Block
from citechunk.conversion.headings import level_headings
from citechunk.conversion.mdlines import heading_level, heading_text
from citechunk.conversion.pymupdf import layout_installed
from citechunk.conversion.textlayer import TextLayer
from citechunk.conversion.triage import IMAGE_REASONS, model_reason


def _block(page: int, kind: str, size: float) -> Block:
    return _titled(page, "Heading", size, kind)


def test_levels_rank_sizes_over_all_pages_and_ignore_body_blocks() -> None:
    pages = {
        1: (_block(1, "title", 24), _block(1, "section-header", 16), _block(1, "text", 30)),
        2: (_block(2, "section-header", 12.4),),
        3: (_block(3, "section-header", 16.2),),
    }
    levels = {n: [b.level for b in blocks] for n, blocks in level_headings(pages).items()}
    assert levels == {1: [1, 2, None], 2: [3], 3: [2]}


def test_sizes_below_the_sixth_are_level_six() -> None:
    pages = {n: (_block(n, "section-header", 30 - 2 * n),) for n in range(1, 9)}
    levels = [blocks[0].level for blocks in level_headings(pages).values()]
    assert levels == [1, 2, 3, 4, 5, 6, 6, 6]


BODY = (
    "The survey teams walked each transect at first light and recorded every plot they "
    "crossed, with the soil, the cover and the weather noted on the same sheet so that "
    "later readers can compare the seasons without asking the teams again. "
)
#: Per page: (heading, size); pages 2 and 3 also carry a placed image.
PLAN = (
    (("Coastal Survey Report", 24), ("Methods", 16), ("Transects", 12)),
    (("Results", 16), ("Dune plots", 12)),
    (("Marsh plots", 12),),
    (("Discussion", 16), ("Limits", 12)),
)


def survey_pdf(path: Path) -> Path:
    """Headings of three sizes over four pages, two of them with a picture (so that
    ``layout_model = "auto"`` reads those with the image model and the others with the text
    model), the smaller sizes alone on the picture pages."""
    doc = pymupdf.open()
    for number, heads in enumerate(PLAN, 1):
        page = doc.new_page(width=595, height=842)
        y = 80.0
        for text, size in heads:
            page.insert_text((72, y), text, fontsize=size, fontname="hebo")
            y += size + 14
            page.insert_textbox((72, y, 523, y + 110), BODY * 2, fontsize=10, fontname="tiro")
            y += 130
        if number in (2, 3):
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
            pix.set_rect(pix.irect, (40, 120, 200))
            page.insert_image(pymupdf.Rect(72, y, 400, y + 200), pixmap=pix)
    doc.save(path)
    return path


def _levels(markdown: str) -> dict[str, int]:
    return {
        heading_text(line): heading_level(line)
        for line in markdown.splitlines()
        if heading_level(line)
    }


@pytest.mark.heavy
@pytest.mark.skipif(not layout_installed(), reason="pymupdf-layout not installed")
def test_heading_levels_do_not_depend_on_the_model_that_read_the_page(tmp_path: Path) -> None:
    pdf = survey_pdf(tmp_path / "survey.pdf")
    with pymupdf.open(pdf) as doc:
        layer = TextLayer.of_document(doc)
        reasons = [model_reason(doc[n - 1], layer.page(n), {}) for n in layer.numbers]
    assert [r in IMAGE_REASONS for r in reasons] == [False, True, True, False]
    by_model = {
        model: _levels(convert(pdf, ConvertOptions(layout_model=model)).markdown)
        for model in ("text", "text+image", "auto")
    }
    common = set.intersection(*(set(levels) for levels in by_model.values()))
    assert {"Methods", "Results", "Dune plots", "Marsh plots", "Limits"} <= common
    for heading in common:
        assert len({levels[heading] for levels in by_model.values()}) == 1, (heading, by_model)
    assert by_model["auto"]["Results"] < by_model["auto"]["Marsh plots"]


def _titled(page: int, text: str, size: float, kind: str = "section-header") -> Block:
    return block(kind, text_line(text, row(0, size, 0, 100), size, boxed=False), page=page)


def test_a_deeper_number_of_one_size_is_a_level_below() -> None:
    pages = {
        1: (_titled(1, "Findings", 16), _titled(1, "Guideline 1.1: Text", 12)),
        2: (_titled(2, "Criterion 1.1.1: Contrast", 12), _titled(2, "Scope:", 12)),
        3: (_titled(3, "Guideline 1.2: Media", 12),),
    }
    levels = {n: [b.level for b in blocks] for n, blocks in level_headings(pages).items()}
    assert levels == {1: [1, 2], 2: [3, 2], 3: [2]}


@pytest.mark.heavy
@pytest.mark.skipif(not layout_installed(), reason="pymupdf-layout not installed")
def test_plain_and_model_pages_share_one_heading_scale(tmp_path: Path) -> None:
    """With ``layout = "auto"`` pages 1 and 4 take the fast path (no model) and pages 2 and 3
    the layout model: headings of one size get one level on both kinds of page, read from the
    document's one scale (the fast path once ranked its sizes by itself, the model pages
    theirs: 16 pt was level 2 on a plain page and level 1 on a model page)."""
    pdf = survey_pdf(tmp_path / "survey.pdf")
    converted = convert(pdf, ConvertOptions(layout="auto"))
    assert converted.model_pages == 2
    levels = _levels(converted.markdown)
    for peers in (("Methods", "Results", "Discussion"), ("Transects", "Dune plots", "Marsh plots")):
        assert len({levels[h] for h in peers}) == 1, levels
    assert levels["Methods"] < levels["Transects"]
