"""A list item that opens with a quotation mark is a quotation, not a list item (block rule
``quoted-items``): on a real PDF (`sample_pdfs/make_samples.py`, `write_quoting`: a quotation
set in with its opening mark hung left, which the layout model reads as a list item, and a
bulleted item opening with a quotation) and on blocks."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import Block, Line, Span
from citechunk.conversion.processors.quoted_items import quoted_items
from citechunk.conversion.pymupdf import layout_installed


@pytest.fixture(scope="module")
def quoting(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = make_samples.write_quoting(tmp_path_factory.mktemp("quoting"))
    return path


def _markdown(pdf: Path, skip: tuple[str, ...] = ()) -> str:
    options = ConvertOptions(backend="pymupdf", layout="always", skip_passes=skip)
    return convert(pdf, options).markdown


@pytest.mark.slow
@pytest.mark.skipif(not layout_installed(), reason="no layout model")
def test_a_real_pdf_s_quotation_is_a_paragraph_and_its_bulleted_item_stays(quoting: Path) -> None:
    quote = "“The meaning of that phrase is well known."
    assert f"- {quote}" in _markdown(quoting, ("quoted-items",))  # the defect the rule mends
    paragraphs = [p.strip() for p in _markdown(quoting).split("\n\n")]
    assert any(p.startswith(quote) for p in paragraphs)
    assert "- “Subject to contract” is written on every letter." in paragraphs
    assert "- The deposit was never paid." in paragraphs


def _item(text: str) -> Block:
    span = Span(text, size=10.0, bbox=(90.0, 100.0, 400.0, 110.0), origin=(90.0, 108.0))
    return Block(1, span.bbox, "list-item", (Line(span.bbox, (span,)),), depth=2)


def test_only_a_list_item_opening_with_a_quotation_mark_becomes_text() -> None:
    quoted, bulleted, plain = _item("“ The meaning"), _item("• “Restrict” is checked"), _item("a.")
    out = quoted_items({1: (quoted, bulleted, plain)})[1]
    assert out[0].kind == "text" and out[0].level is None and out[0].evidence
    assert out[1:] == (bulleted, plain)
