"""`triage.model_reason` on pages made to show each signal, and the fast path (`layout =
"auto"`) against the layout model on the generated samples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.textlayer import TextLayer
from citechunk.conversion.triage import model_reason

PARAGRAPH = (
    "This paragraph is ordinary body text that runs across the whole width of the page and "
    "explains the section above in plain words, sentence after sentence. " * 3
)


def _plain(page: Any, top: float = 72) -> None:
    page.insert_textbox(pymupdf.Rect(72, top, 520, top + 120), PARAGRAPH, fontsize=10)


def _pages(path: Path) -> pymupdf.Document:
    doc = pymupdf.open()
    _plain(doc.new_page())  # 1: plain text
    page = doc.new_page()  # 2: an image
    _plain(page)
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(72, 300, 200, 428), pixmap=pix)
    page = doc.new_page()  # 3: a ruled grid
    _plain(page)
    for i in range(4):
        page.draw_line((72, 300 + 20 * i), (400, 300 + 20 * i))
    for x in (72, 236, 400):
        page.draw_line((x, 300), (x, 360))
    page = doc.new_page()  # 4: two columns
    page.insert_textbox(pymupdf.Rect(72, 72, 280, 400), PARAGRAPH, fontsize=10)
    page.insert_textbox(pymupdf.Rect(320, 72, 530, 400), PARAGRAPH, fontsize=10)
    page = doc.new_page()  # 5: figures aligned in columns inside one line
    _plain(page)
    page.insert_text((72, 300), "Revenue" + " " * 40 + "1,234" + " " * 30 + "5,678", fontsize=10)
    page = doc.new_page()  # 6: a table of contents
    for i, title in enumerate(("Scope", "Terms", "Methods", "Results")):
        page.insert_text((72, 100 + 16 * i), f"{title} " + "." * 40 + f" {i + 3}", fontsize=10)
    doc.save(path)
    return pymupdf.open(path)


def test_each_signal_sends_its_page_to_the_model(tmp_path: Path) -> None:
    doc = _pages(tmp_path / "signals.pdf")
    layer = TextLayer.of_document(doc)
    reasons = [model_reason(doc[n - 1], layer.page(n), {}) for n in range(1, 7)]
    assert reasons == [None, "image", "drawings", "side by side", "gap", "leaders"]


def test_auto_runs_the_model_only_on_pages_that_need_it(tmp_path: Path) -> None:
    _pages(tmp_path / "signals.pdf").close()
    doc = convert(tmp_path / "signals.pdf", ConvertOptions(layout="auto", layout_model="text"))
    assert doc.model_pages == 5  # every page but the plain one
    always = convert(tmp_path / "signals.pdf", ConvertOptions(layout_model="text"))
    assert always.model_pages == 6


@pytest.mark.parametrize(
    "name",
    [
        "incident_review.pdf",
        "refund_policy.pdf",
        "relocation_memo.pdf",
        "report_outline.pdf",
        "retry_settings.pdf",
    ],
)
def test_fast_path_keeps_the_headings_and_code_of_the_samples(sample_pdfs: Path, name: str) -> None:
    """The samples are mostly plain pages: with ``layout = "auto"`` they skip the model and
    still give the layout path's headings (text and level) and code fences."""
    always = convert(sample_pdfs / name, ConvertOptions())
    auto = convert(sample_pdfs / name, ConvertOptions(layout="auto"))
    assert auto.model_pages < len(auto.provenance.pages)

    def headings(markdown: str) -> list[str]:
        return [ln for ln in markdown.splitlines() if ln.startswith("#")]

    def items(markdown: str) -> int:
        return sum(1 for ln in markdown.splitlines() if ln.startswith("- "))

    assert headings(auto.markdown) == headings(always.markdown)
    assert items(auto.markdown) == items(always.markdown)
    assert ("```" in auto.markdown) == ("```" in always.markdown)


def test_auto_model_gives_the_image_model_to_pages_with_pictures_grids_or_columns(
    tmp_path: Path,
) -> None:
    from citechunk.conversion.pymupdf import page_model

    doc = _pages(tmp_path / "signals.pdf")
    layer = TextLayer.of_document(doc)
    reasons = {n: model_reason(doc[n - 1], layer.page(n), {}) for n in range(1, 7)}
    options = ConvertOptions(layout_model="auto")
    models = [page_model(n, reasons, options) for n in range(1, 7)]
    assert models == ["text", "text+image", "text+image", "text+image", "text", "text"]
    assert {page_model(n, reasons, ConvertOptions(layout_model="text")) for n in reasons} == {
        "text"
    }
    converted = convert(tmp_path / "signals.pdf", options)
    assert converted.model_pages == 6 and "Revenue" in converted.markdown


def test_auto_model_gives_the_image_model_to_pages_set_in_fixed_pitch(tmp_path: Path) -> None:
    """A plain page with a code listing (3+ lines in a fixed-pitch font) takes the image model
    under ``layout_model = "auto"``; the same words in a proportional font take the text
    model, and so does a page with two fixed-pitch lines (inline code in prose)."""
    from citechunk.conversion.pymupdf import page_model
    from citechunk.conversion.triage import fixed_pitch

    doc = pymupdf.open()
    for font, lines in (("cour", 4), ("helv", 4), ("cour", 2)):
        page = doc.new_page()
        page.insert_text((72, 72), "Retry settings", fontsize=14, fontname="helv")
        for i in range(lines):
            page.insert_text((90, 110 + 14 * i), f"max_attempts_{i}   = {i}", fontname=font)
    doc.save(tmp_path / "code.pdf")
    layer = TextLayer.of_document(doc)
    assert [fixed_pitch(layer.page(n)) for n in (1, 2, 3)] == [True, False, False]
    options = ConvertOptions(layout_model="auto")
    reasons = {n: model_reason(doc[n - 1], layer.page(n), {}) for n in (1, 2, 3)}
    assert reasons == {1: None, 2: None, 3: None}  # plain pages by the triage's reasons
    models = [page_model(n, reasons, options, layer) for n in (1, 2, 3)]
    assert models == ["text+image", "text", "text"]
    assert page_model(1, reasons, ConvertOptions(layout_model="text"), layer) == "text"
