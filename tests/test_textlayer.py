"""The text layer reader on the project's own sample PDFs."""

from pathlib import Path

import pymupdf

from citechunk.conversion.textlayer import PageText, TextLayer, Word

SAMPLES = Path(__file__).resolve().parents[1] / "sample_pdfs"


def test_reads_words_and_lines_with_boxes_inside_the_page():
    doc = pymupdf.open(SAMPLES / "report_outline.pdf")
    layer = TextLayer.of_document(doc)
    page = layer.page(1)
    assert page.number == 1
    assert page.words and page.lines
    width, height = doc[0].rect.width, doc[0].rect.height
    for w in page.words:
        x0, y0, x1, y1 = w.box
        assert 0 <= x0 <= x1 <= width and 0 <= y0 <= y1 <= height
    # every word of the page's plain text is among the words read
    plain = doc[0].get_text("text").split()
    assert [w.text for w in page.words] == plain
    assert layer.page(1) is page  # cached
    doc.close()


def test_from_pages_and_with_page_replace_a_page():
    ocr = PageText(2, (Word("scanned", (1, 2, 3, 4), 0, 0),), ())
    layer = TextLayer.from_pages([PageText(1, (), ()), ocr])
    assert layer.numbers == (1, 2)
    assert layer.page(2).words[0].text == "scanned"
    assert layer.page(3).words == ()
    other = PageText(1, (Word("new", (0, 0, 1, 1), 0, 0),), ())
    assert layer.with_page(other).page(1).words[0].text == "new"
    assert layer.page(1).words == ()


def test_text_too_small_to_read_is_left_out() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Readable words here", fontsize=10)
    page.insert_text((72, 140), "hidden-tag-0001", fontsize=0.7)
    layer = TextLayer.of_document(doc)
    assert [w.text for w in layer.page(1).words] == ["Readable", "words", "here"]
    assert [line.text for line in layer.page(1).lines] == ["Readable words here"]


def test_a_control_character_set_large_takes_no_part_in_the_line_size(tmp_path: Path) -> None:
    """A glyph the font maps to no character (read as U+0001) set larger than the words
    beside it leaves the line at its words' size and weight."""
    doc = pymupdf.open()
    page = doc.new_page()
    words = "for the X state"
    page.insert_text((72, 90), words, fontsize=14, fontname="hebo")
    end = 72 + pymupdf.get_text_length(words, fontname="hebo", fontsize=14)
    page.insert_text((end, 90), "\x01", fontsize=18, fontname="helv")
    doc.save(tmp_path / "bracket.pdf")
    with pymupdf.open(tmp_path / "bracket.pdf") as pdf:
        spans = [
            s for b in pdf[0].get_text("dict")["blocks"] for ln in b["lines"] for s in ln["spans"]
        ]
        assert [s["size"] for s in spans] == [14, 18]  # one line, the mark set large
        (line,) = TextLayer.of_document(pdf).page(1).lines
    assert (line.size, line.bold) == (14, True)
