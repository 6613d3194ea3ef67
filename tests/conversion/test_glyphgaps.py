"""Monospace code blocks get their spaces back from glyph positions (`conversion.glyphgaps`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from citechunk.conversion import convert
from citechunk.conversion.glyphgaps import rebuild_line, spaced_span_text

SIZE = 9.0
ADVANCE = SIZE * 0.6  # Courier advances every glyph by 0.6 em

# (column, text, font) per code line; no token carries a space: spaces are glyph positions,
# or (last line) a separate whitespace span in another font, as some manuals set keywords.
CODE = [
    [(0, "Usage:", "cobo"), (7, "asn1Parser", "cour"), (18, "[OPTION]", "cour"), (27, "FILE", "cour")],
    [(2, "-o,", "cour"), (6, "--output=FILE", "cour"), (24, "output", "cour"), (31, "file", "cour")],
    [(2, "-v,", "cour"), (6, "--verbose", "cour"), (24, "print", "cour"), (30, "more", "cour")],
    [(2, "import", "cobo"), (8, " ", "cour"), (9, "fitz", "cobo")],
]  # fmt: skip


def code_pdf(path: Path) -> Path:
    """A manual page: a heading, a paragraph, an option list in Courier, a closing paragraph."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), "Command line reference", fontsize=16, fontname="hebo")
    intro = "The tool reads one file and writes its summary. Its options are listed below."
    page.insert_text((72, 120), intro, fontsize=10.5, fontname="helv")
    y = 150.0
    for row in CODE:
        for column, text, font in row:
            page.insert_text((72 + column * ADVANCE, y), text, fontsize=SIZE, fontname=font)
        y += 12
    outro = "Exit status is zero on success and one when the file cannot be read."
    page.insert_text((72, y + 20), outro, fontsize=10.5, fontname="helv")
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def markdown(tmp_path_factory: pytest.TempPathFactory) -> str:
    return convert(code_pdf(tmp_path_factory.mktemp("code") / "manual.pdf")).markdown


def test_code_lines_read_as_printed(markdown: str) -> None:
    lines = markdown.split("\n")
    assert "Usage: asn1Parser [OPTION] FILE" in lines
    assert any(line.strip() == "-o, --output=FILE     output file" for line in lines)
    assert any(line.strip() == "-v, --verbose         print more" for line in lines)
    assert any(line.strip() == "import fitz" for line in lines)
    assert "FILEoutputfile" not in markdown and "importfitz" not in markdown


def test_prose_around_the_code_is_untouched(markdown: str) -> None:
    assert "The tool reads one file and writes its summary." in markdown
    assert "Exit status is zero on success and one when the file cannot be read." in markdown


def _span(x0: float, text: str) -> dict[str, Any]:
    return {"text": text, "bbox": (x0, 0.0, x0 + len(text) * 6.0, 9.0), "flags": 8}


def test_spaces_between_spans_and_indentation_follow_the_gaps() -> None:
    # "if" at columns 2-3, "return" at 6-11, "x" at 13: spans given out of order
    line = {"spans": [_span(36.0, "return"), _span(78.0, "x"), _span(12.0, "if")]}
    rebuild_line(line, left=0.0, width=6.0, chars=None)
    assert "".join(s["text"] for s in line["spans"]) == "  if  return x"


def test_glyph_gaps_inside_a_span_become_spaces() -> None:
    glyphs = [(0.0, 6.0, "a"), (6.0, 12.0, "="), (24.0, 30.0, "b")]
    assert spaced_span_text(glyphs, 6.0) == "a=  b"
    assert spaced_span_text([(0.0, 6.0, "a"), (8.0, 14.0, "b")], 6.0) == "ab"


# Lines set with TJ: a space whose advance the number after it takes back (278/1000 em is
# Helvetica's space) sits between two letters of one word, as some typesetters leave it.
KERNED = [
    (90, 20, "F2", "[(Pref) ( ) 278 (ace)] TJ"),
    (130, 11, "F1", "[(Yo) ( ) 278 (u might want to read the Or) ( ) 278 (ganization of a book.)] TJ"),
    (150, 11, "F1", "[(Its words keep their spaces, ) ( ) 0 (even when set apart.)] TJ"),
    (170, 11, "F3", "[(The Blue Book names a real space in an italic line.)] TJ"),
]  # fmt: skip


def kerned_pdf(path: Path) -> Path:
    """A page whose text holds space glyphs that take no room (module docstring, `KERNED`)."""
    fonts = {"F1": "Helvetica", "F2": "Helvetica-Bold", "F3": "Helvetica-Oblique"}
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    refs = []
    for name, base in fonts.items():
        xref = doc.get_new_xref()
        doc.update_object(xref, f"<</Type/Font/Subtype/Type1/BaseFont/{base}>>")
        refs.append(f"/{name} {xref} 0 R")
    doc.xref_set_key(page.xref, "Resources", f"<</Font<<{' '.join(refs)}>>>>")
    stream = "".join(
        f"BT /{font} {size} Tf 72 {842 - y} Td {show} ET\n" for y, size, font, show in KERNED
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, stream.encode())
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def kerned(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    pdf = kerned_pdf(tmp_path_factory.mktemp("kerned") / "kerned.pdf")
    return convert(pdf).markdown, pdf


def test_the_layer_holds_the_kerned_spaces(kerned: tuple[str, Path]) -> None:
    text = pymupdf.open(kerned[1])[0].get_text()
    assert "Pref ace" in text and "Yo u" in text and "Or ganization" in text


def test_a_space_that_takes_no_room_is_no_word_break(kerned: tuple[str, Path]) -> None:
    markdown = kerned[0]
    assert "Preface" in markdown
    assert "You might want to read the Organization of a book." in markdown
    assert "Pref ace" not in markdown and "Or ganization" not in markdown


def test_spaces_with_room_stay(kerned: tuple[str, Path]) -> None:
    markdown = kerned[0]
    assert "The Blue Book names a real space in an italic line." in markdown
    assert "spaces,  even" in markdown or "spaces, even" in markdown
