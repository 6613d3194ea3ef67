"""Punctuation set against a word in another style stays against it (block rule
``glued-punctuation``): on a real PDF (`sample_pdfs/make_samples.py`, `write_punctuation`:
bold phrases followed by a comma, a full stop and a semicolon, brackets around an italic
symbol) and on blocks."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import CHAR_FILLED, SUPERSCRIPT, Block, Line, Span
from citechunk.conversion.processors.glued_punctuation import glued_punctuation


@pytest.fixture(scope="module")
def summary(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = make_samples.write_punctuation(tmp_path_factory.mktemp("punctuation"))
    return path


def test_a_real_pdf_s_punctuation_stays_against_its_styled_word(summary: Path) -> None:
    def markdown(skip: tuple[str, ...]) -> str:
        options = ConvertOptions(backend="pymupdf", layout="never", skip_passes=skip)
        return convert(summary, options).markdown

    assert "**144 cases** , with" in markdown(("glued-punctuation",))  # the defect mended
    text = markdown(())
    assert "was **144 cases,** with a **stable national trend.** The" in text
    assert "number _(Rt)_ was **under 1;** the" in text and text.rstrip().endswith("**0.19.**")


def _spans(*parts: tuple[str, int]) -> Line:
    spans, x = [], 72.0
    for text, flags in parts:
        box = (x, 90.0, x + 5 * len(text), 100.0)
        spans.append(Span(text, size=10.0, flags=flags, char_flags=CHAR_FILLED, bbox=box))
        x += 5 * len(text)
    return Line((72.0, 90.0, x, 100.0), tuple(spans))


def test_only_punctuation_at_a_glued_edge_moves() -> None:
    bold, plain = 16, 4
    lines = (
        _spans(("was ", plain), ("144", bold), (", with", plain)),
        _spans(("was ", plain), ("3", bold), (".5 per", plain)),  # a decimal: no punctuation
        _spans(("word", plain), ("1", plain | SUPERSCRIPT), (", and", plain)),  # a mark
        _spans(("set (", plain), ("Rt", 2), (")", plain)),
        _spans(("in ", plain), ("client.toml", 8), ("; the", plain)),  # code stays code
    )
    block = Block(1, (72.0, 90.0, 300.0, 130.0), "text", lines)
    out = glued_punctuation({1: (block,)})[1][0]
    texts = [[s.text for s in line.spans] for line in out.lines]
    assert texts == [
        ["was ", "144,", " with"],
        ["was ", "3", ".5 per"],
        ["word", "1", ", and"],
        ["set ", "(Rt)"],
        ["in ", "client.toml", "; the"],
    ]
