"""Footnotes are footnote paragraphs after the paragraph citing them, never quotes or list
items, and a raised digit after a word is a footnote mark (block rules ``raised-marks`` and
``footnote-blocks``, the text layer's reading `rawlines`, the renderer): on blocks and on a
real PDF (`sample_pdfs/make_samples.py`, `write_ruling`: plain digits raised by their baseline
after a word, the notes at the page foot opening with the same raised numbers)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pymupdf
import pytest
from blockkit import block as _block
from blockkit import line as _line

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import SUPERSCRIPT, Block, Line, Span
from citechunk.conversion.processors import NAMES
from citechunk.conversion.processors.footnotes import footnote_blocks
from citechunk.conversion.processors.raised_marks import flag_raised_marks
from citechunk.conversion.pymupdf import layout_installed
from citechunk.conversion.rawlines import raw_lines
from citechunk.conversion.render import block_markdown, render_page
from citechunk.conversion.repairs.tidy import attach_footnotes, tidy_page


def _span(text: str, x0: float, size: float = 11.0, base: float = 100.0, flags: int = 4) -> Span:
    x1 = x0 + 5.0 * len(text) * size / 11.0
    return Span(text, size=size, flags=flags, bbox=(x0, base - size, x1, base), origin=(x0, base))


def _cited(word: str, mark: str, base: float = 100.0) -> Line:
    """A body line ending with `word` and the superscript `mark` after it."""
    head = _span(f"The rules of the {word}", 72.0, base=base)
    return _line(head, _span(mark, head.bbox[2], size=6.0, base=base - 4, flags=4 | SUPERSCRIPT))


def test_the_rules_are_named_processors_before_the_run_on_rule() -> None:
    assert {"raised-marks", "footnote-blocks", "footnotes-before-run-on"} <= NAMES


def test_a_small_digit_raised_against_the_word_it_touches_is_flagged_superscript() -> None:
    word = _span("Engineering", 72.0)
    mark = _span("9", word.bbox[2], size=6.0, base=95.5)
    prefix = _span("2", word.bbox[2] + 4.0, size=6.0, base=95.5)  # a gap: a prefix ("²A")
    low = _span("9", word.bbox[2], size=6.0, base=101.0)  # set lower: a subscript
    figure = _span("Ag3", 72.0)
    power = _span("37", figure.bbox[2], size=6.0, base=95.5)  # after a figure: no mark
    pages = {
        1: (
            _block("text", _line(word, mark, _span(" require", mark.bbox[2]))),
            _block("text", _line(word, prefix, _span("A", prefix.bbox[2]))),
            _block("text", _line(word, low)),
            _block("text", _line(figure, power)),
        )
    }
    out = flag_raised_marks(pages)[1]
    assert out[0].lines[0].spans[1].superscript
    assert not any(block.lines[0].spans[1].superscript for block in out[1:])
    assert "Engineering [9] require" in tidy_page(block_markdown(out[0]))


def test_a_list_item_opening_with_a_raised_mark_the_page_cites_is_a_footnote_paragraph() -> None:
    note = _line(
        _span("1", 57.0, size=8.0, base=726.0, flags=4 | 16),
        _span("Regulation (EU) No 536/2014 of the Parliament.", 64.0, size=12.0, base=732.0),
    )
    cited = _block("list-item", _cited("Council", "1"))
    pages = {1: (cited, _block("list-item", note))}
    out = footnote_blocks(pages)[1]
    assert out[1].kind == "footnote" and "mark 1" in out[1].evidence[-1]
    text = tidy_page(render_page(out).text)
    assert "\n\n[1] Regulation (EU) No 536/2014 of the Parliament." in text
    assert not re.search(r"^(?:> |- )\**1", text, re.M)
    uncited = {1: (_block("list-item", _cited("Council", "2")), _block("list-item", note))}
    assert footnote_blocks(uncited) == uncited  # no body mark cites it: a list item as read


def test_a_footnote_block_is_paragraphs_with_marks_never_a_quote() -> None:
    plain = _block(
        "footnote",
        _line(_span("5. Jeffrie G. Murphy, Mercy and Legal Justice (1988).", 72.0, 8.0, 600.0)),
        _line(_span("6. Paul H. Robinson, Mercy, Crime Control (2012).", 72.0, 8.0, 610.0)),
        _line(_span("7. Murphy, supra note 5, at 164.", 72.0, 8.0, 620.0)),
    )
    assert block_markdown(plain).split("\n\n")[:3] == [
        "[5] Jeffrie G. Murphy, Mercy and Legal Justice (1988).",
        "[6] Paul H. Robinson, Mercy, Crime Control (2012).",
        "[7] Murphy, supra note 5, at 164.",
    ]
    raised = _block(
        "footnote",
        _line(_span("22", 72.0, 6.0, 605.0), _span("See State Bank of India.", 80.0, 10.0, 609.0)),
        _line(_span("“A bank which gives a guarantee must honour it.”", 72.0, 10.0, 622.0)),
    )
    assert block_markdown(raised) == (
        "[22] See State Bank of India. “A bank which gives a guarantee must honour it.”\n\n"
    )


def test_a_text_block_opening_with_a_raised_mark_is_a_paragraph_not_a_quote() -> None:
    line = _line(_span("1", 72.0, 6.0, 96.0), _span("H NMR (300 MHz, CDCl3): 7.29", 76.0))
    assert not block_markdown(_block("text", line)).startswith(">")


def test_an_empty_block_is_left_as_it_is() -> None:
    pages = {1: (Block(1, (0.0, 0.0, 1.0, 1.0), "text"),)}
    assert flag_raised_marks(pages) == pages


def test_a_rendered_footnote_moves_after_the_paragraph_citing_it() -> None:
    page = "It cites [3] a note.\n\nThe next paragraph.\n\n[3] The note.\n\nThe page's last one."
    assert attach_footnotes(page).split("\n\n") == [
        "It cites [3] a note.",
        "[3] The note.",
        "The next paragraph.",
        "The page's last one.",
    ]


@pytest.fixture(scope="module")
def ruling(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = make_samples.write_ruling(tmp_path_factory.mktemp("ruling"))
    return path


def test_the_text_layer_reads_a_raised_digit_as_a_mark_of_its_own(ruling: Path) -> None:
    """The digit after "Engineering" is a line of its own in the text layer, set smaller and
    higher, without the superscript flag; read, it is a superscript span, not the word's."""
    with pymupdf.open(ruling) as doc:
        page = doc[0]
        blocks = [b for b in page.get_text("dict")["blocks"] if b["type"] == 0]
        raw = [s for b in blocks for ln in b["lines"] for s in ln["spans"] if s["text"] == "1"]
        assert raw and not any(s["flags"] & SUPERSCRIPT for s in raw)
        lines = raw_lines(blocks, page.rect)
    spans = next(ln[1] for ln in lines if any("Engineering" in s["text"] for s in ln[1]))
    texts = [s["text"] for s in spans]
    at = next(i for i, t in enumerate(texts) if t.endswith("Engineering"))
    assert texts[at + 1] == "1" and spans[at + 1]["flags"] & SUPERSCRIPT
    note = next(ln[1] for ln in lines if "Tender Rules" in "".join(s["text"] for s in ln[1]))
    assert note[0]["text"] == "1"  # the note's number is not joined to its text


def test_the_fast_path_reads_a_mark_the_text_layer_set_in_a_block_of_its_own(ruling: Path) -> None:
    """The text layer starts a new block at the raised "1" after "Engineering" (same row,
    meeting end to start): without the model the mark still marks the word and the note
    follows its paragraph (`plaintext.rejoined`)."""
    with pymupdf.open(ruling) as doc:
        blocks = doc[0].get_text("dict", sort=True)["blocks"]
    firsts = ["".join(s["text"] for s in b["lines"][0]["spans"]) for b in blocks]
    lasts = ["".join(s["text"] for s in b["lines"][-1]["spans"]) for b in blocks]
    assert "Engineering" in lasts and any(t.startswith("1 require") for t in firsts)
    markdown = convert(ruling, ConvertOptions(backend="pymupdf", layout="never")).markdown
    assert "Board of Engineering [1] require" in markdown and "Engineering\n" not in markdown
    paragraphs = [p.strip() for p in markdown.split("\n\n") if p.strip()]
    cites = next(i for i, p in enumerate(paragraphs) if "Engineering [1]" in p)
    assert paragraphs[cites + 1] == "[1] Board of Engineering, Tender Rules, rule 28.2 (bid bonds)."


@pytest.mark.slow
@pytest.mark.skipif(not layout_installed(), reason="no layout model")
def test_a_real_pdf_s_footnotes_follow_their_paragraphs_with_their_marks(ruling: Path) -> None:
    markdown = convert(ruling, ConvertOptions(backend="pymupdf", layout="always")).markdown
    assert "Board of Engineering [1] require" in markdown and "Engineering1" not in markdown
    paragraphs = [p.strip() for p in markdown.split("\n\n") if p.strip()]
    cites = next(i for i, p in enumerate(paragraphs) if "Engineering [1]" in p)
    assert paragraphs[cites + 1] == "[1] Board of Engineering, Tender Rules, rule 28.2 (bid bonds)."
    second = next(i for i, p in enumerate(paragraphs) if "guarantee. [2]" in p)
    assert paragraphs[second + 1].startswith("[2] Bid Bond No. 4471")
    assert not re.search(r"^(?:> ?|\s*- )\**\d", markdown, re.M)
