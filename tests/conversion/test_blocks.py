"""Typed blocks: read once from the layout boxes, and the Markdown written from them is
pymupdf4llm's own rendering of the same boxes, byte for byte, page for page (given the same
reading of which spans are fixed-pitch: ours also reads the font's name)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest
from pymupdf4llm.helpers import document_layout as dl

from citechunk.config import ConvertOptions
from citechunk.conversion.blocks import Block, Layer, Line, Span
from citechunk.conversion.glyphgaps import is_code_box
from citechunk.conversion.layers import furniture_layer
from citechunk.conversion.pymupdf import (
    FEATURE_SETS,
    LayoutMeter,
    Model,
    _parse,
    _read_blocks,
    layout_installed,
)
from citechunk.conversion.render import RenderedPage, _textlines, block_markdown, render_page

needs_layout = pytest.mark.skipif(not layout_installed(), reason="pymupdf-layout not installed")

MONO, BOLD, FILLED = 8, 16, 16


def _line(*spans: Span) -> Line:
    return Line((0.0, 0.0, 100.0, 10.0), spans)


def test_span_styles_come_from_flags_and_char_flags() -> None:
    span = Span("x", flags=BOLD | MONO, char_flags=FILLED | 2)
    assert span.bold and span.monospace and span.underline and not span.italic
    assert not Span("x", flags=MONO).monospace  # neither filled nor stroked: an OCR layer


def test_monospaced_text_is_code_and_furniture_is_not_rendered() -> None:
    code = _line(Span("x = 1", flags=MONO, char_flags=FILLED))
    page = Block(1, (0, 0, 100, 10), "code", (code,))
    assert render_page([page]).text == "```\nx = 1\n```\n\n"
    head = Block(1, (0, 0, 100, 10), "section-header", (_line(Span("Scope")),), level=2)
    shown = render_page([head, Block(1, (0, 0, 1, 1), "page-footer", (_line(Span("3")),))])
    assert shown.text == "## Scope \n\n3 \n\n"  # a footer not yet put in a layer is text
    hidden = render_page([head, Block(1, (0, 0, 1, 1), "text", (code,), layer=Layer.FURNITURE)])
    assert hidden.text == "## Scope \n\n" and hidden.spans[1] == (11, 11)


def _flag_fixed_pitch(pages: list[Any]) -> None:
    """Set the fixed-pitch flag on every span of a text box whose spans our blocks read as
    monospaced (`is_code_box`: `Span.monospace` also reads the font's name), so pymupdf4llm
    renders the same code blocks."""
    for page in pages:
        for box in page.boxes:
            if not is_code_box(box):
                continue
            for line in box.textlines:
                for span in line.get("spans", ()):
                    span["flags"] = int(span.get("flags", 0)) | MONO


#: The kinds pymupdf4llm writes in a form of their own, never as quotes.
_OWN_FORM = frozenset({"title", "section-header", "list-item", "code"})


def _quoted(block: Block) -> bool:
    """pymupdf4llm writes the block as ``> `` quotes: a footnote, or a block of another kind
    than `_OWN_FORM` opening with a raised mark."""
    raised = block.kind not in _OWN_FORM and bool(block.lines) and block.lines[0].raised_start
    return block.kind == "footnote" or raised


def _as_pymupdf4llm(blocks: tuple[Block, ...]) -> RenderedPage:
    """`render_page`, but blocks pymupdf4llm quotes in its quote form (our renderer writes them
    as footnote paragraphs, `render.footnote_markdown`) and formulas in its picture-text form
    (ours: one line a band, `render.formula_markdown`), everything else as pymupdf4llm does."""
    text, spans = "", []
    for block in blocks:
        start = len(text)
        if block.layer is not Layer.FURNITURE:
            quoted = _quoted(block)
            if quoted:
                text += str(dl.footnote_to_md(_textlines(block)))
            elif block.kind == "formula":
                text += "\n\n" + (dl.picture_text_to_md(_textlines(block)) if block.lines else "")
            else:
                text += block_markdown(block)
        spans.append((start, len(text)))
    return RenderedPage(text, tuple(spans))


def test_footnotes_and_text_opening_raised_are_no_quotes() -> None:
    """The one departure from pymupdf4llm's forms: notes are paragraphs opening ``[N]``."""
    raised = _line(
        Span("3", size=6.0, origin=(0.0, 96.0)), Span("Ideal size", size=11.0, origin=(5.0, 100.0))
    )
    for kind in ("footnote", "text", "page-footer"):
        block = Block(1, (0, 0, 100, 10), kind, (raised,))  # type: ignore[arg-type]
        assert _quoted(block) and _as_pymupdf4llm((block,)).text.startswith("> ")
        assert not render_page([block]).text.startswith(">")


def _rendered_both_ways(pdf: Path, model: Model) -> list[tuple[int, str, str]]:
    """(page, Markdown from blocks, pymupdf4llm's Markdown) of every page of `pdf`."""
    with pymupdf.open(pdf) as doc:
        pages = list(range(1, doc.page_count + 1))
        parsed = _parse(doc, pages, model, ConvertOptions(), LayoutMeter(), [])
        _flag_fixed_pitch(parsed.pages)
        ours = [_as_pymupdf4llm(blocks) for blocks in _read_blocks(parsed)]
        theirs = parsed.to_markdown(header=True, footer=True, page_chunks=True)
    out = []
    for number, mine, chunk in zip(pages, ours, theirs, strict=True):
        assert [b["pos"] for b in chunk["page_boxes"]] == list(mine.spans), (pdf.name, number)
        out.append((number, mine.text, chunk["text"]))
    return out


@needs_layout
@pytest.mark.heavy
@pytest.mark.parametrize("model", list(FEATURE_SETS))
def test_sample_pages_render_from_blocks_as_pymupdf4llm_renders_them(
    sample_pdfs: Path, model: Model
) -> None:
    for pdf in sorted(sample_pdfs.glob("*.pdf")):
        for number, ours, theirs in _rendered_both_ways(pdf, model):
            assert ours == theirs, (pdf.name, number)


@needs_layout
@pytest.mark.corpus
@pytest.mark.heavy
def test_corpus_pages_render_from_blocks_as_pymupdf4llm_renders_them(
    corpus_pdfs: list[Path],
) -> None:
    for pdf in corpus_pdfs:
        for model in FEATURE_SETS:
            for number, ours, theirs in _rendered_both_ways(pdf, model):
                assert ours == theirs, (pdf.name, model, number)


def _header(page: int, *lines: tuple[str, int, float]) -> Block:
    """A page-header block of (text, layer block number, top) lines."""
    read = tuple(
        Line((72.0, top, 300.0, top + 9), (Span(text, bbox=(72.0, top, 300.0, top + 9), block=b),))
        for text, b, top in lines
    )
    return Block(page, (72.0, 30.0, 300.0, 60.0), "page-header", read)


def test_running_headers_are_furniture_and_their_other_lines_stay_in_the_body() -> None:
    body = Block(1, (72.0, 100.0, 500.0, 300.0), "text", (_line(Span("Body text.")),))
    one_off = _header(1, ("Part 3: Ethics", 0, 30.0))
    assert furniture_layer([one_off, body], {"annual report #": 2}) == (one_off, body)
    mixed = _header(1, ("Annual Report 2024", 0, 30.0), ("Draft for the board", 1, 45.0))
    out = furniture_layer([mixed, body], {"annual report #": 2})
    assert [b.layer for b in out] == [Layer.FURNITURE, Layer.BODY, None]
    assert render_page(out).text == "Draft for the board \n\nBody text. \n\n"
    # the layout path reads the text layer's control characters as U+FFFD
    cited = _header(2, ("J. Phys. 126, \ufffd2007\ufffd", 0, 30.0))
    assert furniture_layer([cited], {"j. phys. #, \x01#\x02": 1})[0].layer is Layer.FURNITURE


def test_a_font_named_fixed_pitch_is_monospaced_without_the_flag() -> None:
    """Embedded fixed-pitch fonts often leave the flag unset; the font's name says it."""
    assert Span("x = 1", font="ABCDEF+Consolas", char_flags=FILLED).monospace
    assert Span("x = 1", font="NimbusMonL-Regu", char_flags=FILLED).monospace
    assert not Span("text", font="ArialUnicodeMS", char_flags=FILLED).monospace
    code = _line(Span("x = 1", font="Consolas", char_flags=FILLED))
    assert render_page([Block(1, (0, 0, 100, 10), "code", (code,))]).text == "```\nx = 1\n```\n\n"
