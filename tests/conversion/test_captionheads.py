"""Captions the layout model set as headings are caption blocks (layout pass `caption-heads`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from citechunk import ChunkOptions, chunk_markdown
from citechunk.captionlabels import is_caption
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.captionheads import caption_heads
from conftest import wide_pdf

CAPTIONS = (
    "Table 3 Exposure limits",
    "TABLE IV. SUMMARY",
    "Figure 2.1 Site layout",
    "Fig. 4",
    "Fig.4: Output",
    "Chart 2",
    "Table A.1 Raw data",
    "Table S2",
    "Figure 4a",
    "Tabelle 2 Werte",
    "Abb. 3",
    "Tab. 2",
    "Tableau 3 Coûts",
    "Cuadro 2. Datos",
    "Gráfico 1",
    "表1 概要",
    "表１",
    "図2",
    "図表 3-1 構成",
    "第1表",
)
NOT_CAPTIONS = (
    "Table of Contents",
    "Figures",
    "List of Tables",
    "Exhibit A",
    "EXHIBIT 31.1 Certification",
    "Tab 1 Policies",
    "Table Ix",
    "Tablets 3",
    "Chartered accountants",
    "Figures 1 and 2",
    "表示",
    "1 Introduction",
    "Appendix 2 Tables",
)


@pytest.mark.parametrize("text", CAPTIONS)
def test_a_caption_label_and_number_is_a_caption(text: str) -> None:
    assert is_caption(text)


@pytest.mark.parametrize("text", NOT_CAPTIONS)
def test_other_titles_are_no_captions(text: str) -> None:
    assert not is_caption(text)


def _box(boxclass: str, text: str) -> Any:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    line = {"bbox": (50, 100, 300, 112), "spans": [{"text": text}]}
    return LayoutBox(50, 100, 300, 112, boxclass, textlines=[line])


def test_only_heading_boxes_opening_with_a_caption_become_captions() -> None:
    boxes = [
        _box("section-header", "Table 3 Exposure limits"),
        _box("title", "Figure 1"),
        _box("section-header", "Table of Contents"),
        _box("text", "Table 3 lists the limits."),
    ]
    assert [b.boxclass for b in caption_heads(boxes)] == [
        "caption",
        "caption",
        "section-header",
        "text",
    ]


def _headings(markdown: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^#{1,6} (.+)$", markdown, re.M)]


@pytest.mark.corpus
def test_a_datasheet_table_caption_set_as_a_heading_is_a_line_before_its_table() -> None:
    """A datasheet's "Table 2." above its ratings table, classed a section header by the
    layout model, is a body line: the table stays in "ABSOLUTE MAXIMUM RATINGS" and the
    chunk holding the table keeps its caption."""
    path = wide_pdf("tech_adp1606_boost_converter_datasheet.pdf")
    skipped = convert(path, ConvertOptions(pages="4", skip_passes=("caption-heads",)))
    assert "Table 2." in _headings(skipped.markdown)  # the layout model's reading
    markdown = convert(path, ConvertOptions(pages="4")).markdown
    assert not any(is_caption(h) for h in _headings(markdown))
    assert "ABSOLUTE MAXIMUM RATINGS" in _headings(markdown)
    chunks = chunk_markdown(markdown, ChunkOptions())
    table = next(c for c in chunks if "|VIN, VOUT to GND|" in c.body)
    assert table.heading_path[-1] == "ABSOLUTE MAXIMUM RATINGS"
    assert "Table 2." in table.body


@pytest.mark.corpus
def test_a_paper_table_caption_opens_no_section() -> None:
    """A paper's "Table 1 Name and Description of Bins", set as a heading by the layout
    model, is a body line, and the text after it stays in the section before."""
    path = wide_pdf("tech_ieee_requirement_prioritization_ahp.pdf")
    markdown = convert(path, ConvertOptions(pages="3")).markdown
    assert "Table 1 Name and Description of Bins" in markdown
    assert not any(is_caption(h) for h in _headings(markdown))
    paths = [c.heading_path for c in chunk_markdown(markdown, ChunkOptions())]
    assert not any(p and is_caption(p[-1]) for p in paths)
