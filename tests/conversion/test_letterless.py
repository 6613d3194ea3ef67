"""Headings without a letter are text (layout pass `letterless-heads`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.letterless import letterless_heads
from conftest import wide_pdf


def _box(boxclass: str, text: str) -> Any:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    line = {"bbox": (50, 100, 300, 112), "spans": [{"text": text}]}
    return LayoutBox(50, 100, 300, 112, boxclass, textlines=[line])


@pytest.mark.parametrize("text", ["$9.24", "1.12", "07/61", "193", "＊", "6.2-9)", "= 0"])
def test_a_heading_without_a_letter_becomes_text(text: str) -> None:
    boxes = letterless_heads([_box("section-header", text), _box("text", "Body text follows.")])
    assert [b.boxclass for b in boxes] == ["text", "text"]


def test_headings_with_letters_and_chapter_labels_before_a_heading_stay() -> None:
    boxes = [
        _box("section-header", "2"),
        _box("title", "Methods"),
        _box("section-header", "3."),
        _box("section-header", "Results"),
        _box("section-header", "表1"),
        _box("text", "12"),
    ]
    assert [b.boxclass for b in letterless_heads(boxes)] == [
        "section-header",
        "title",
        "section-header",
        "section-header",
        "section-header",
        "text",
    ]


def _headings(markdown: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^#{1,6} (.+)$", markdown, re.M)]


@pytest.mark.corpus
def test_a_figure_set_as_a_heading_is_a_body_line() -> None:
    """An annual report's "1.12" (a distribution per share), classed a section header by the
    layout model, is a line of its section, not a section of its own."""
    path = wide_pdf("biz_canadian_banc_corp_annual_report_2022.pdf")
    page = "6"
    skipped = convert(path, ConvertOptions(pages=page, skip_passes=("letterless-heads",)))
    assert "1.12" in _headings(skipped.markdown)  # the layout model's reading
    markdown = convert(path, ConvertOptions(pages=page)).markdown
    assert "1.12" in markdown.split("\n")
    assert not any(not re.search(r"[^\W\d_]", h) for h in _headings(markdown))
