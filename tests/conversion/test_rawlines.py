"""The layout path reads the text layer as PyMuPDF gives it (`conversion.rawlines`): replacement
text honoured, and a region read twice reads the same.

PDFs are built here with PyMuPDF (one span per word with touching boxes, as OCR layers write
them; a ligature glyph mapped to a wrong letter with its ``/ActualText``); the real documents
of the wide set are checked when ``../shared`` is present.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.pymupdf import layout_installed
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
    assert 1 <= len(phrase.findall(md)) <= len(phrase.findall(layer))


@pytest.mark.heavy
def test_ligatures_with_replacement_text(shared_dir: Path) -> None:
    pdf = shared_dir / "eval" / "wide" / "biz_llamaindex_hackathon_terms_of_service.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} not available")
    md = convert(pdf, ConvertOptions(pages="1")).markdown
    assert "Software" in md
    assert not re.search(r"SoHware|NoDce|InformaDon", md)


def _span(
    text: str, x0: float, x1: float, flags: int = 4, char_flags: int = 16
) -> dict[str, object]:
    return {
        "text": text,
        "bbox": (x0, 57.3, x1, 80.3),
        "size": 20.0,
        "flags": flags,
        "char_flags": char_flags,
        "font": "Arabic Typesetting",
        "alpha": 255,
    }


def _line_block(spans: list[dict[str, object]]) -> dict[str, object]:
    return {
        "type": 0,
        "bbox": (300, 57, 470, 81),
        "lines": [{"bbox": (300, 57.3, 470, 80.3), "dir": (1.0, 0.0), "spans": spans}],
    }


def test_right_to_left_line_keeps_the_layers_logical_order() -> None:
    """A right-to-left heading the layer splits into style pieces, some without width (the
    layer's order is logical): read in that order, not sorted by left edges."""
    pieces = [
        _span("ال", 459.2, 459.2),
        _span("انتخ", 431.2, 459.2, char_flags=1072),
        _span(" ", 427.4, 431.2),
        _span("ابت الت", 393.8, 427.4, char_flags=1072),
        _span("ر", 393.7, 393.7),
        _span("شيعية2014", 326.1, 393.7, char_flags=1072),
    ]
    lines = raw_lines([_line_block(pieces)], (0, 0, 600, 100))
    assert [s["text"] for s in lines[0][1]] == ["الانتخ", "ابت الترشيعية2014"]


def test_two_layer_lines_at_one_height_are_two_words() -> None:
    """Right to left: the right-hand layer line first, a space where they touch."""
    right = {
        "type": 0,
        "bbox": (561, 286, 846, 299),
        "lines": [
            {
                "bbox": (561, 286, 846, 299),
                "dir": (1.0, 0.0),
                "spans": [
                    {**_span("באמצעות תהליך", 561.2, 845.6), "bbox": (561.2, 286, 845.6, 299)}
                ],
            }
        ],
    }
    left = {
        "type": 0,
        "bbox": (423, 286, 561, 299),
        "lines": [
            {
                "bbox": (423, 286, 561, 299),
                "dir": (1.0, 0.0),
                "spans": [{**_span("יעודי המדלג", 423.0, 561.0), "bbox": (423, 286, 561.0, 299)}],
            }
        ],
    }
    lines = raw_lines([left, right], (0, 0, 900, 400))
    assert " ".join(s["text"] for s in lines[0][1]) == "באמצעות תהליך יעודי המדלג"


def test_a_word_split_by_style_is_one_word() -> None:
    """Left to right: two pieces of one layer line, no space and no gap between them, in two
    styles, are one span (pymupdf4llm writes a space between spans)."""
    block = _line_block([_span("indebte", 100, 140), _span("d", 140, 146, flags=20)])
    assert [s["text"] for s in raw_lines([block], (0, 0, 600, 100))[0][1]] == ["indebted"]
    spaced = _line_block([_span("indebte", 100, 140), _span("d", 150, 156, flags=20)])
    assert len(raw_lines([spaced], (0, 0, 600, 100))[0][1]) == 2  # a gap: two words
    index = _line_block([_span("2", 100, 104, flags=5), _span("E", 104, 110, flags=6)])
    assert len(raw_lines([index], (0, 0, 600, 100))[0][1]) == 2  # a superscript: its own


def _wide(shared_dir: Path, name: str) -> Path:
    pdf = shared_dir / "eval" / "wide" / name
    if not pdf.exists():
        pytest.skip(f"{pdf} not available")
    return pdf


@pytest.mark.heavy
def test_arabic_heading_in_logical_order(shared_dir: Path) -> None:
    pdf = _wide(shared_dir, "pub_tunisia_election_results_medenine.pdf")
    md = convert(pdf, ConvertOptions(pages="1")).markdown
    assert "ورقة كشف نتائج دائرة مدنين" in md
    assert "الترشيعية2014" in md


@pytest.mark.heavy
def test_hebrew_layer_lines_not_glued(shared_dir: Path) -> None:
    pdf = _wide(shared_dir, "pub_israel_moh_vaccination_certificate_faq.pdf")
    md = convert(pdf, ConvertOptions(pages="4")).markdown
    assert "תהליך יעודי" in md
    assert "תהליךיעודי" not in md


def test_table_cells_keep_the_spaces_between_styled_words(tmp_path: Path) -> None:
    """A cell whose words change style at the spaces: pymupdf4llm's styled cell text strips
    each span and glues the words; read through `_cell_reader` the spaces stay."""
    from pymupdf4llm.helpers import document_layout, utils

    from citechunk.conversion.rawlines import _cell_reader

    doc = pymupdf.open()
    page = doc.new_page()
    x = 72.0
    for word, font in [("Speed ", "helv"), ("Radar ", "hebo"), ("Guns ", "helv"), ("(20)", "hebo")]:
        page.insert_text((x, 100), word, fontname=font, fontsize=10)
        x += pymupdf.get_text_length(word, font, 10)
    textpage = page.get_textpage(flags=document_layout.FLAGS)
    blocks = [b for b in textpage.extractRAWDICT()["blocks"] if b["type"] == 0]
    cell = (60, 80, 400, 110)
    assert "SpeedRadar" in utils.extract_cells(blocks, cell, markdown=True).replace("*", "")
    text = _cell_reader(utils.extract_cells)(blocks, cell, markdown=True)
    assert text == "Speed **Radar** Guns **(20)**"


@pytest.mark.heavy
def test_table_cell_words_not_glued(shared_dir: Path) -> None:
    pdf = _wide(shared_dir, "biz_ghana_transport_sector_contract_awards_2016.pdf")
    md = convert(pdf, ConvertOptions(pages="1")).markdown
    assert re.search(r"Radar Guns \(20 No\.\)", md)
    assert "RadarGuns" not in md


def test_a_spacing_accent_follows_the_letter_it_sits_over() -> None:
    """A tilde over an italic X starts left of the X: it is the X's mark, not the end of the
    word before ("the X˜", never "the˜ X", which the glyph repair made "thẽ")."""
    block = _line_block(
        [
            _span("the", 100, 112),
            _span(" ", 112, 116),
            _span("˜", 115.5, 119),
            _span("X", 116, 122, flags=6),
        ]
    )
    texts = [s["text"] for s in raw_lines([block], (0, 0, 600, 100))[0][1]]
    assert texts == ["the", "X", "˜"]


def test_a_word_flagged_superscript_after_a_space_is_a_word() -> None:
    """OCR layers flag words whose baseline wanders as superscript: after a space such a word
    is no raised mark (pymupdf4llm glued it on: "informedhim"); a raised number stays one."""
    block = _line_block(
        [
            _span("informed ", 100, 140),
            _span("him ", 146, 160, flags=5),
            _span("note", 170, 190),
            _span("2", 190, 194, flags=5),
        ]
    )
    spans = raw_lines([block], (0, 0, 600, 100))[0][1]
    assert [(s["text"], s["flags"] & 1) for s in spans] == [
        ("informed ", 0),
        ("him ", 0),
        ("note", 0),
        ("2", 1),
    ]


def test_a_blank_span_before_a_word_flagged_superscript_is_its_space() -> None:
    block = _line_block(
        [_span(" heating", 100, 140), _span(" ", 140, 143), _span("of", 143, 152, flags=5)]
    )
    spans = raw_lines([block], (0, 0, 600, 100))[0][1]
    assert [s["flags"] & 1 for s in spans] == [0] * len(spans)


def test_a_joined_span_goes_on_from_the_layer_line_it_ends_in() -> None:
    """A line's end joined to the next layer line's first piece: the pieces after it are read
    as parts of that next line ("Abschnitt Datenquellen", not "Abschnitt D ate n")."""
    first = {
        "type": 0,
        "bbox": (40, 57, 388, 81),
        "lines": [
            {
                "bbox": (40, 57.3, 388, 80.3),
                "dir": (1.0, 0.0),
                "spans": [_span("im Abschnitt ", 40, 388)],
            }
        ],
    }
    pieces = [_span("D", 388, 394), _span("ate", 394, 405, char_flags=18), _span("n", 405, 410)]
    second = _line_block(pieces)
    texts = [s["text"] for s in raw_lines([first, second], (0, 0, 600, 100))[0][1]]
    assert texts == ["im Abschnitt Daten"]


@pytest.mark.parametrize("layout", ["never", "always"])
def test_a_raised_ordinal_suffix_set_as_a_line_of_its_own_stays_in_its_number(
    make_samples: ModuleType, tmp_path: Path, layout: str
) -> None:
    """`write_letter`: MuPDF reads each raised "th" and "st" as a line (and block) of its own
    after the number; both paths read "17th", never "17 th"."""
    pdf = make_samples.write_letter(tmp_path)
    if layout == "always" and not layout_installed():
        pytest.skip("no layout model")
    markdown = convert(pdf, ConvertOptions(backend="pymupdf", layout=layout)).markdown
    assert "on 17th July 2015" in markdown and "on the 1st of August" in markdown
