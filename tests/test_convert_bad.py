"""Bad input: every file of ../shared/corpus/bad gives its documented error or warning.

Documented behaviour (pymupdf backend):
  empty / non-PDF / unrepairable   ConversionError naming the file and the cause
  encrypted                        EncryptedPDFError without or with a wrong password;
                                   converts with the right one
  no text layer, blank             converts, a marker per page, ``pages_without_text``, no
                                   warning (nothing drawn: nothing to OCR, nothing to look at)
  no text layer, scanned           OCR'd (``ocr_pages``), right side up whatever the /Rotate;
                                   with ``ocr = "off"`` as a blank page
  damaged but repairable           converts, warning that MuPDF repaired it
  garbled font encoding            converts, warning naming the garbled pages
Bad files made here (truncated, garbage after a PDF header) cover what the corpus lacks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk.chunking import chunk_markdown
from citechunk.cli import main
from citechunk.config import ChunkOptions, ConvertOptions
from citechunk.conversion import convert
from citechunk.errors import ConversionError, EncryptedPDFError
from citechunk.markers import iter_markers

pytestmark = pytest.mark.corpus


def page_texts(markdown: str) -> list[tuple[int, str]]:
    parts = re.split(r"<!-- page (\d+) -->", markdown)
    return [(int(n), text) for n, text in zip(parts[1::2], parts[2::2], strict=True)]


def pages_of(markdown: str) -> list[int]:
    return [m.page for m in iter_markers(markdown)]


@pytest.mark.parametrize(
    ("name", "cause"),
    [("empty_zero_bytes.pdf", "empty file"), ("corrupted_not_pdf.pdf", "not a PDF")],
)
def test_unreadable_files_raise_conversion_error(corpus_bad: Path, name: str, cause: str) -> None:
    path = corpus_bad / name
    with pytest.raises(ConversionError) as info:
        convert(path)
    assert not isinstance(info.value, EncryptedPDFError)
    assert str(path) in str(info.value) and cause in info.value.cause


def test_encrypted_needs_the_right_password(corpus_bad: Path) -> None:
    path = corpus_bad / "encrypted_password_test.pdf"
    with pytest.raises(EncryptedPDFError, match="give its password") as info:
        convert(path)
    assert str(path) in str(info.value)
    with pytest.raises(EncryptedPDFError, match="password given is wrong"):
        convert(path, ConvertOptions(password="not-it"))
    doc = convert(path, ConvertOptions(password="test"))
    assert pages_of(doc.markdown) == [1, 2, 3, 4]
    assert "Backup4all" in doc.markdown
    assert doc.provenance.options["password_given"] is True
    assert "test" not in doc.provenance.options.values()


@pytest.mark.parametrize(
    ("name", "pages", "named", "ocr"),
    [
        ("blank_page_no_text.pdf", (1,), "", "auto"),
        ("blank_page_no_text.pdf", (1,), "", "off"),
        ("scanned_image_only.pdf", (1, 2, 3, 4), ": 1-4", "off"),
    ],
)
def test_pages_without_text_layer_warn(
    corpus_bad: Path, name: str, pages: tuple[int, ...], named: str, ocr: str
) -> None:
    """A blank page has nothing to recognise and nothing to look at (no warning); a scan with
    OCR off keeps its empty pages, named in a warning."""
    doc = convert(corpus_bad / name, ConvertOptions(ocr=ocr))  # type: ignore[arg-type]
    assert pages_of(doc.markdown) == list(pages)
    assert doc.provenance.pages_without_text == pages
    assert doc.provenance.ocr_pages == ()
    warned = [w for w in doc.provenance.warnings if "without a text layer" in w]
    assert [w[w.rindex(":") :] for w in warned] == ([named] if named else [])


def test_scanned_pages_are_ocrd_right_side_up(corpus_bad: Path) -> None:
    """Each page holds the same scanned paragraph, turned 0/180/90/270 by the page's /Rotate."""
    doc = convert(corpus_bad / "scanned_image_only.pdf")
    assert doc.provenance.ocr_pages == (1, 2, 3, 4)
    assert doc.provenance.pages_without_text == (1, 2, 3, 4)
    assert not any("without a text layer" in w for w in doc.provenance.warnings)
    sentence = "Docling bundles PDF document conversion to JSON and Markdown"
    for page, text in page_texts(doc.markdown):
        assert sentence in text, (page, text)
    chunks = chunk_markdown(doc.markdown, ChunkOptions())
    assert chunks and all("Docling" in c.body for c in chunks)


def test_repaired_pdf_converts_with_warning(corpus_bad: Path) -> None:
    doc = convert(corpus_bad / "truncated_scan_no_xref.pdf")
    assert pages_of(doc.markdown) == [1]
    assert any("repaired" in w for w in doc.provenance.warnings)


def test_garbled_font_encoding_warns_naming_pages(corpus_bad: Path) -> None:
    doc = convert(corpus_bad / "garbled_font_encoding.pdf", ConvertOptions(ocr="off"))
    assert pages_of(doc.markdown) == list(range(1, 24))
    garbled = [w for w in doc.provenance.warnings if "garbled" in w]
    assert garbled == ["pages with garbled text (broken font encoding?): 2-22"]
    assert "Technology Acceptance Model" in doc.markdown  # page 1 is readable


@pytest.mark.heavy
def test_garbled_pages_are_read_by_ocr_under_auto(corpus_bad: Path) -> None:
    doc = convert(corpus_bad / "garbled_font_encoding.pdf", ConvertOptions(pages="1-3"))
    assert doc.provenance.ocr_pages == (2, 3)
    garbled = [w for w in doc.provenance.warnings if "garbled" in w]
    assert garbled == ["pages with garbled text, read by OCR instead: 2-3"]
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]", doc.markdown)
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\ufffd]", doc.provenance.title)
    assert len(re.findall(r"\b(?:the|and|of)\b", page_texts(doc.markdown)[1][1])) >= 5


def test_cli_reports_bad_file_and_exit_code(corpus_bad: Path) -> None:
    path = corpus_bad / "encrypted_password_test.pdf"
    result = CliRunner().invoke(main, ["convert", str(path)])
    assert result.exit_code == 1
    assert str(path) in result.output and "password" in result.output


def test_cli_warns_about_pages_without_text(corpus_bad: Path) -> None:
    path = str(corpus_bad / "scanned_image_only.pdf")
    result = CliRunner().invoke(main, ["convert", path, "--ocr", "off"])
    assert result.exit_code == 0
    assert "<!-- page 4 -->" in result.stdout
    assert "without a text layer (no OCR done): 1-4" in result.stderr


def test_garbage_after_pdf_header_is_a_conversion_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(b"%PDF-1.4\n1 0 obj garbage \x00\x01 endobj trailer")
    with pytest.raises(ConversionError, match="junk.pdf: damaged PDF"):
        convert(path)


def test_truncated_pdf_is_a_conversion_error(corpus_bad: Path, tmp_path: Path) -> None:
    source = (corpus_bad / "encrypted_password_test.pdf").read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(source[:200])
    with pytest.raises(ConversionError) as info:
        convert(path)
    assert str(path) in str(info.value)
