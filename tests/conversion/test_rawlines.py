"""The layout path reads the text layer as PyMuPDF gives it (`conversion.rawlines`): replacement
text honoured, and a region read twice reads the same.

PDFs are built here with PyMuPDF (one span per word with touching boxes, as OCR layers write
them; a ligature glyph mapped to a wrong letter with its ``/ActualText``); the real documents
of the wide set are checked when ``../shared`` is present.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.rawlines import layer_reading, raw_lines

LINE = "The method of claim 10 wherein there is a predetermined probability"


def _word_spans_pdf(path: Path) -> None:
    """One line whose words are separate spans (each a slightly different size, as an OCR layer
    sizes each word to its scanned box) that touch, written twice down the page."""
    doc = pymupdf.open()
    page = doc.new_page()
    for y in (100, 300):
        x = 72.0
        for i, word in enumerate(LINE.split()):
            size = 10 + (i % 3) * 0.25
            page.insert_text((x, y), word + " ", fontname="cour", fontsize=size)
            x += pymupdf.get_text_length(word + " ", "cour", size) - 1.0  # boxes overlap
    doc.save(path)


def _blocks(path: Path) -> list[dict[str, object]]:
    page = pymupdf.open(path)[0]
    return [b for b in page.get_text("dict")["blocks"] if b["type"] == 0]


def _text(lines: list[object]) -> str:
    return " ".join(s["text"] for _, spans in lines for s in spans)  # type: ignore[attr-defined]


def test_a_region_read_twice_reads_the_same(tmp_path: Path) -> None:
    pdf = tmp_path / "words.pdf"
    _word_spans_pdf(pdf)
    blocks = _blocks(pdf)
    assert len([s for b in blocks for ln in b["lines"] for s in ln["spans"]]) > 10  # type: ignore[index,union-attr]
    clip = (0, 80, 600, 110)
    first, second = raw_lines(blocks, clip), raw_lines(blocks, clip)
    assert _text(first) == _text(second)
    assert _text(second).split().count("method") == 1


def test_pymupdf4llm_reader_alone_repeats_suffixes(tmp_path: Path) -> None:
    """The defect the rule guards against: pymupdf4llm's own reader, twice over one list of
    blocks, makes the second reading repeat each span's suffix (if this starts failing,
    pymupdf4llm fixed it and `rawlines` may go)."""
    from pymupdf4llm.helpers.get_text_lines import get_raw_lines

    pdf = tmp_path / "words.pdf"
    _word_spans_pdf(pdf)
    blocks = _blocks(pdf)
    clip = (0, 80, 600, 110)
    get_raw_lines(textpage=None, blocks=blocks, clip=clip)
    again = get_raw_lines(textpage=None, blocks=blocks, clip=clip)
    assert _text(again).split().count("method") > 1


def test_layout_path_writes_each_word_once(tmp_path: Path) -> None:
    pdf = tmp_path / "words.pdf"
    _word_spans_pdf(pdf)
    md = convert(pdf, ConvertOptions(layout="always")).markdown
    assert md.count("method") == 2
    assert md.count("predetermined") == 2


def _actual_text_pdf(path: Path) -> None:
    """ "Software" whose "ft" is drawn as an "H" glyph carrying ``/ActualText (ft)``."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "x", fontname="helv", fontsize=12)  # the font resource
    stream = (
        b"BT /helv 12 Tf 72 700 Td (The So) Tj /Span <</ActualText (ft)>> BDC (H) Tj EMC "
        b"(ware is provided as is under these terms and conditions.) Tj ET"
    )
    doc.update_stream(page.get_contents()[0], stream)
    doc.save(path)


def test_replacement_text_is_the_glyphs_text(tmp_path: Path) -> None:
    pdf = tmp_path / "actual.pdf"
    _actual_text_pdf(pdf)
    assert "Software" in pymupdf.open(pdf)[0].get_text()  # the text layer says so
    md = convert(pdf, ConvertOptions(layout="always")).markdown
    assert "Software" in md
    assert "SoHware" not in md


def test_layer_reading_puts_pymupdf4llm_back() -> None:
    from pymupdf4llm.helpers import document_layout

    reader, flags = document_layout.get_raw_lines, document_layout.FLAGS
    with layer_reading():
        assert document_layout.get_raw_lines is not reader
        assert not document_layout.FLAGS & pymupdf.TEXT_IGNORE_ACTUALTEXT
    assert (document_layout.get_raw_lines, document_layout.FLAGS) == (reader, flags)


@pytest.mark.heavy
def test_ocr_layer_patent_has_no_repeated_suffixes(shared_dir: Path) -> None:
    """An OCR'd patent (one span per word): a claim's opening is written as often as the text
    layer holds it, never as a run of ever shorter suffixes."""
    pdf = shared_dir / "eval" / "wide" / "tech_us6285999_pagerank_patent.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} not available")
    md = convert(pdf, ConvertOptions(pages="10")).markdown
    layer = pymupdf.open(pdf)[9].get_text()
    phrase = re.compile(r"method\s+of\s+claim\s+10")
    assert 1 <= len(phrase.findall(md)) <= len(phrase.findall(layer)) + 1


@pytest.mark.heavy
def test_ligatures_with_replacement_text(shared_dir: Path) -> None:
    pdf = shared_dir / "eval" / "wide" / "biz_llamaindex_hackathon_terms_of_service.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} not available")
    md = convert(pdf, ConvertOptions(pages="1")).markdown
    assert "Software" in md
    assert not re.search(r"SoHware|NoDce|InformaDon", md)
