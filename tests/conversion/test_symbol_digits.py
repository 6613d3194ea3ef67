"""A raised number that is part of a symbol is written in the symbol, never as a footnote mark
(block rule ``symbol-digits``): on a real PDF (`sample_pdfs/make_samples.py`,
`write_symbols`: numbers set with HTML ``<sup>``, which the text layer flags superscript) and
on blocks."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import SUPERSCRIPT, Block, Line, Span
from citechunk.conversion.processors.symbol_digits import symbol_digits


@pytest.fixture(scope="module")
def symbols(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = make_samples.write_symbols(tmp_path_factory.mktemp("symbols"))
    return path


def _markdown(pdf: Path, skip: tuple[str, ...] = ()) -> str:
    options = ConvertOptions(backend="pymupdf", layout="never", skip_passes=skip)
    return convert(pdf, options).markdown


def test_a_real_pdf_s_symbols_keep_their_raised_numbers(symbols: Path) -> None:
    markdown = _markdown(symbols)
    assert "The higher _²E_ states" in markdown  # a term symbol
    assert "the ¹³C shift" in markdown  # an isotope
    assert "4 _d¹⁰_ 5 _s¹_ shells" in markdown  # powers of a one-letter symbol
    assert "as the survey found. [3] So" in markdown  # a footnote mark stays one
    assert "in sensors [5;12] and in lenses. [7-9] It" in markdown  # lists of marks too
    assert "[2]" not in markdown and "[13]" not in markdown and "[10]" not in markdown


def test_without_the_rule_the_symbols_read_as_footnote_marks(symbols: Path) -> None:
    """The defect the rule mends: the renderer glues a superscript to the word before."""
    markdown = _markdown(symbols, ("symbol-digits",))
    assert "The higher [2] _E_ states" in markdown and "4 _d_ [10]" in markdown


def _span(text: str, x0: float, size: float = 11.0, flags: int = 4) -> Span:
    x1 = x0 + 5.0 * len(text) * size / 11.0
    base = 100.0 if size == 11.0 else 96.0
    return Span(text, size=size, flags=flags, bbox=(x0, base - size, x1, base), origin=(x0, base))


def _block(*spans: Span, kind: str = "text") -> Block:
    line = Line((spans[0].bbox[0], 89.0, spans[-1].bbox[2], 100.0), spans)
    return Block(1, line.bbox, kind, (line,))  # type: ignore[arg-type]


def _after(word: Span, mark: str, gap: float = 0.0) -> Span:
    return _span(mark, word.bbox[2] + gap, size=7.0, flags=4 | SUPERSCRIPT)


def test_a_mark_glued_to_its_word_or_apart_from_a_word_after_stays_a_mark() -> None:
    word = _span("found.", 72.0)
    mark = _after(word, "3")
    spaced = _span(" More", mark.bbox[2])
    long_word = _span("The", mark.bbox[2])  # glued, but a word: a run-in note's number
    start = _span("rules ", 72.0)
    opening = _after(start, "2", 0.0)
    pages = {
        1: (
            _block(word, mark, spaced),
            _block(start, opening, _span("The", opening.bbox[2])),
            _block(start, _after(start, "2"), long_word, kind="footnote"),
        )
    }
    out = symbol_digits(pages)[1]
    assert out == pages[1]


def test_a_raised_number_apart_from_the_word_before_heads_the_letter_after() -> None:
    word = _span("the", 72.0)
    digits = _after(word, "2", 3.0)
    symbol = _span("E", digits.bbox[2], flags=6)
    out = symbol_digits({1: (_block(word, digits, symbol, _span(" state", symbol.bbox[2])),)})
    spans = out[1][0].lines[0].spans
    assert [s.text for s in spans] == ["the", "²E", " state"] and spans[1].italic
    assert "symbol digits joined" in out[1][0].evidence
