"""Line numbers are page furniture: they leave the text on every reading path, no digit is
fused into a word, the body text stays whole, and numbers of the text and of a table stay.

The PDFs are built here with PyMuPDF: a manuscript numbered in the left margin in small type,
counting on across pages; a bill whose every line opens with its number, restarting on each
page, in the same text-layer line as the text; a two-column page numbered every fifth line in
the gutter; and pages whose number columns are content (a numbered table, footnotes).
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.furniture import NumberPlaces, Piece, line_numbers, numbered_spans
from citechunk.conversion.plaintext import body_size, page_blocks
from citechunk.conversion.render import render_page
from citechunk.conversion.runninglines import find_running
from citechunk.conversion.textlayer import TextLayer
from conftest import wide_pdf

SENTENCE = (
    "The member shall be compensated for travel and subsistence at the rates set under "
    "section 12 of the act, and the commission shall publish each payment within 30 days. "
)
#: A word fused with a digit ("com5", "5pensated"); unit-like tokens of the text have none.
FUSED = re.compile(r"[^\W\d_]\d|\d[^\W\d_]")


def _lines(text: str, width: int) -> list[str]:
    """`text` wrapped at `width` characters, "compensated" hyphenated across a line end
    wherever it would end a line."""
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            if word.startswith("compensated"):
                lines.append(f"{line} com-")
                line = word[3:]
                continue
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _manuscript(path: Path, pages: int = 3) -> str:
    """Pages of prose numbered in the left margin in smaller type, counting on across pages;
    returns the text."""
    lines = _lines(SENTENCE * 12 * pages, 78)
    doc = pymupdf.open()
    per_page = len(lines) // pages + 1
    number = 1
    for start in range(0, len(lines), per_page):
        page = doc.new_page()
        for k, line in enumerate(lines[start : start + per_page]):
            y = 90 + 14 * k
            page.insert_text((90, y), line, fontsize=10, fontname="times-roman")
            width = pymupdf.get_text_length(str(number), fontname="helv", fontsize=7)
            page.insert_text((72 - width, y), str(number), fontsize=7, fontname="helv")
            number += 1
    doc.save(path)
    return " ".join(lines)


def _bill(path: Path, pages: int = 2) -> str:
    """Pages whose every line opens with its number (1 upwards on each page) a little left of
    the text, in a sans font beside the serif text, so the text layer reads number and text
    as one line; returns the text."""
    lines = _lines(SENTENCE * 9 * pages, 70)
    doc = pymupdf.open()
    per_page = 25
    for start in range(0, len(lines), per_page):
        page = doc.new_page()
        writer = pymupdf.TextWriter(page.rect)
        for k, line in enumerate(lines[start : start + per_page]):
            y = 90 + 26 * k
            number = str(k + 1)
            width = pymupdf.get_text_length(number, fontname="helv", fontsize=11)
            writer.append((100 - width, y), number, font=pymupdf.Font("helv"), fontsize=11)
            writer.append((108, y), line, font=pymupdf.Font("tiro"), fontsize=12)
        writer.write_text(page)
    doc.save(path)
    return " ".join(lines)


def _titled_bill(path: Path) -> str:
    """A bill's first page: a title block of 18 unnumbered lines, then 7 lines of prose
    numbered 1-7 in smaller type left of the text; returns the prose."""
    lines = _lines(SENTENCE * 3, 70)[:7]
    doc = pymupdf.open()
    page = doc.new_page()
    for k in range(18):
        page.insert_text((200, 60 + 20 * k), f"Title block line {chr(65 + k)}", fontsize=12)
    for k, line in enumerate(lines):
        y = 440 + 26 * k
        width = pymupdf.get_text_length(str(k + 1), fontname="helv", fontsize=9)
        page.insert_text((100 - width, y), str(k + 1), fontsize=9, fontname="helv")
        page.insert_text((112, y), line, fontsize=12, fontname="times-roman")
    doc.save(path)
    return " ".join(lines)


def _gutter(path: Path) -> str:
    """One page of two columns whose lines are numbered every fifth line in the gutter, in
    smaller type; returns the text of the left column then the right."""
    lines = _lines(SENTENCE * 14, 40)
    half = len(lines) // 2
    doc = pymupdf.open()
    page = doc.new_page()
    for k in range(half):
        y = 80 + 12 * k
        page.insert_text((50, y), lines[k], fontsize=9, fontname="times-roman")
        page.insert_text((320, y), lines[half + k], fontsize=9, fontname="times-roman")
        if (k + 1) % 5 == 0:
            page.insert_text((298, y), str(k + 1), fontsize=6, fontname="helv")
    doc.save(path)
    return " ".join(lines[: 2 * half])


def _text(markdown: str) -> str:
    """The Markdown's words: marker lines, list marks (a wrapped line opening with the text's
    "12" may read as a list item) and emphasis marks dropped, blanks collapsed, the
    hyphenated word joined (whether a path joins a word hyphenated at a line end is not
    at stake here)."""
    lines = [re.sub(r"^\s*- ", "", ln) for ln in markdown.splitlines()]
    body = "\n".join(ln for ln in lines if not ln.startswith("<!--"))
    body = re.sub(r"[#*_|]", " ", body)
    return _expected(body)


def _expected(text: str) -> str:
    return " ".join(text.split()).replace("com- pensated", "compensated")


OPTIONS = {
    "layout model": ConvertOptions(backend="pymupdf"),
    "text model": ConvertOptions(backend="pymupdf", layout_model="text"),
    "classic": ConvertOptions(backend="pymupdf", layout="never"),
}


@pytest.mark.parametrize("path", OPTIONS)
@pytest.mark.parametrize(
    "build", [_manuscript, _bill, _titled_bill], ids=["margin", "every line", "under a title"]
)
def test_line_numbers_leave_the_text_whole(tmp_path: Path, path: str, build: object) -> None:
    pdf = tmp_path / "numbered.pdf"
    source = build(pdf)  # type: ignore[operator]
    converted = convert(pdf, OPTIONS[path])
    text = _text(converted.markdown)
    assert not FUSED.findall(text)
    assert _expected(source) in text
    assert any("line numbers" in w for w in converted.provenance.warnings)


@pytest.mark.parametrize("build", [_manuscript, _bill], ids=["margin", "every line"])
def test_the_fast_path_reads_no_line_number(tmp_path: Path, build: object) -> None:
    pdf = tmp_path / "numbered.pdf"
    source = build(pdf)  # type: ignore[operator]
    with pymupdf.open(pdf) as doc:
        layer = TextLayer.of_document(doc)
        body = body_size(layer.page(n) for n in layer.numbers)
        md = "\n\n".join(render_page(page_blocks(page, {}, body)).text for page in doc)
    text = _text(md)
    assert not FUSED.findall(text)
    assert _expected(source) in text


def test_gutter_numbers_every_fifth_line_leave_both_columns(tmp_path: Path) -> None:
    pdf = tmp_path / "gutter.pdf"
    _gutter(pdf)
    with pymupdf.open(pdf) as doc:
        blocks = doc[0].get_text("dict")["blocks"]
    found = sorted(
        int(blocks[b]["lines"][ln]["spans"][s]["text"]) for b, ln, s in numbered_spans(blocks)
    )
    assert found == list(range(5, 5 * (len(found) + 1), 5)) and len(found) >= 6
    md = convert(pdf, ConvertOptions(backend="pymupdf")).markdown
    assert not FUSED.findall(_text(md))
    own = _text(md).replace("section 12", "").replace("30 days", "")
    assert not re.search(r"\b(?:5|10|15|20|25|30|35)\b", own)


def _numbered_table(path: Path) -> None:
    """A table of ten numbered items in the text's type, its index column under a "No."
    header, and footnotes numbered 1-8 in small type at the page's foot."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "No.", fontsize=10, fontname="helv")
    page.insert_text((110, 90), "Item", fontsize=10, fontname="helv")
    for k in range(10):
        y = 110 + 16 * k
        page.insert_text((76, y), str(k + 1), fontsize=10, fontname="helv")
        page.insert_text((110, y), f"Connecting rod assembly part {chr(65 + k)}", fontsize=10)
    for k in range(8):
        y = 700 + 9 * k
        page.insert_text((72, y), str(k + 1), fontsize=5, fontname="helv")
        page.insert_text((80, y), f"See the rules of part {chr(65 + k)}.", fontsize=7)
    doc.save(path)


def test_numbered_items_stay(tmp_path: Path) -> None:
    pdf = tmp_path / "table.pdf"
    _numbered_table(pdf)
    with pymupdf.open(pdf) as doc:
        assert not numbered_spans(doc[0].get_text("dict")["blocks"])


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("pages", "left_out"), [((6, 7, 8), 25), ((9, 10, 11), 11)], ids=["6-8", "9-11"]
)
def test_a_patent_s_gutter_numbers_leave_its_columns(pages: tuple[int, ...], left_out: int) -> None:
    """A patent scan's OCR layer numbers every fifth line in the gutter between its columns
    (5, 10, ... 65, in smaller type; on pages 8-11 the OCR missed most of them, and the rest
    stand where page 6 has the same numbers): none of them is read into the text, and
    provenance counts them."""
    path = wide_pdf("tech_us6285999_pagerank_patent.pdf")
    span = f"{pages[0]}-{pages[-1]}"
    doc = convert(path, ConvertOptions(backend="pymupdf", pages=span))
    assert f"line numbers left out of the text: {left_out} on pages {span}" in (
        doc.provenance.warnings
    )
    bodies = re.split(r"<!-- page \d+ -->", doc.markdown)
    with pymupdf.open(path) as pdf:
        places = find_running(TextLayer.of_document(pdf)).places
        for number, body in zip(pages, bodies[1:], strict=True):
            blocks = pdf[number - 1].get_text("dict")["blocks"]
            numbered = numbered_spans(blocks, places)
            gutter = {blocks[b]["lines"][ln]["spans"][s]["text"].strip() for b, ln, s in numbered}
            rest = " ".join(
                s["text"]
                for b, block in enumerate(blocks)
                for ln, line in enumerate(block.get("lines", ()))
                for k, s in enumerate(line["spans"])
                if (b, ln, k) not in numbered
            )
            assert gutter
            for value in gutter:
                own = len(re.findall(rf"(?<!\d){value}(?!\d)", rest))
                assert len(re.findall(rf"(?<!\d){value}(?!\d)", body)) <= own, (number, value)


def _sparse_scan(path: Path) -> str:
    """Three pages of prose, every line numbered left of the text (1 upwards on each page, in
    smaller type): page 1 holds every number, page 2 only three of them (a scan's text layer
    that missed the rest), page 3 a numbered table in the text's type, its index column
    inside the text frame under a "No." header, its rows at the places of page 1's line
    numbers; returns the text of pages 1 and 2."""
    lines = _lines(SENTENCE * 20, 70)[:50]
    doc = pymupdf.open()
    for first, kept in ((0, range(1, 26)), (25, (3, 9, 17))):
        page = doc.new_page()
        for k, line in enumerate(lines[first : first + 25]):
            y = 90 + 26 * k
            page.insert_text((112, y), line, fontsize=12, fontname="times-roman")
            if k + 1 in kept:
                width = pymupdf.get_text_length(str(k + 1), fontname="helv", fontsize=9)
                page.insert_text((100 - width, y), str(k + 1), fontsize=9, fontname="helv")
    page = doc.new_page()
    page.insert_text((112, 64), "No.", fontsize=12, fontname="helv")
    page.insert_text((150, 64), "Item", fontsize=12, fontname="helv")
    for k in range(10):
        y = 90 + 26 * k
        width = pymupdf.get_text_length(str(k + 1), fontname="helv", fontsize=12)
        page.insert_text((130 - width, y), str(k + 1), fontsize=12, fontname="helv")
        page.insert_text((150, y), f"Connecting rod assembly part {chr(65 + k)}", fontsize=12)
    doc.save(path)
    return " ".join(lines)


def test_a_number_where_another_page_has_that_line_number_is_one(tmp_path: Path) -> None:
    """Rule 9: page 2's three numbers are too few for a run, but stand where page 1's line
    numbers of the same values stand; page 3's table keeps its index column."""
    pdf = tmp_path / "sparse.pdf"
    source = _sparse_scan(pdf)
    with pymupdf.open(pdf) as doc:
        running = find_running(TextLayer.of_document(doc))
        assert dict(running.numbered) == {1: 25, 2: 3}
        blocks = [doc[n].get_text("dict")["blocks"] for n in range(3)]
    assert len(numbered_spans(blocks[1])) == 0
    assert len(numbered_spans(blocks[1], running.places)) == 3
    assert not numbered_spans(blocks[2], running.places)
    for path, options in OPTIONS.items():
        converted = convert(pdf, options)
        pages = re.split(r"<!-- page \d+ -->", converted.markdown)
        assert _expected(source) in _text(pages[1] + pages[2]), path
        assert not re.search(r"(?<![\w.])(?:3|9|17)(?![\w.])", _text(pages[2])), path
        table = _text(pages[3])
        assert re.findall(r"(?<![\w.])\d+(?![\w.])", table) == [str(k) for k in range(1, 11)]
        assert "line numbers left out of the text: 28 on pages 1-2" in converted.provenance.warnings


def test_a_place_takes_only_its_own_value_apart_from_the_text() -> None:
    """Rule 9 on pieces: where page one had line number 7 (right edge 100, row 300-309), a
    bare 7 there apart from its row's text is one; an 8 there, a 7 a line lower, a 7 whose
    row's text runs into it, and "7." are not."""
    places = NumberPlaces.of([("7", (94.0, 300.0, 100.0, 309.0))])
    text = Piece("the member shall be compensated", (112.0, 298.0, 400.0, 310.0), 12.0)

    def found(number: str, box: tuple[float, float, float, float], row: Piece = text) -> bool:
        return line_numbers([Piece(number, box, 9.0), row], places) == [0]

    assert found("7", (94.5, 300.5, 100.2, 309.5))
    assert not line_numbers([Piece("7", (94.5, 300.5, 100.2, 309.5), 9.0), text])
    assert not found("8", (94.5, 300.5, 100.2, 309.5))
    assert not found("7", (94.5, 314.0, 100.2, 323.0))
    assert not found("7.", (94.5, 300.5, 102.0, 309.5))
    assert not found("7", (94.5, 300.5, 100.2, 309.5), Piece("x", (101.0, 298.0, 400.0, 310.0), 12))
