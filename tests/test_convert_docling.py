"""The `docling` backend on real PDFs: the generated samples, a few corpus files, the bad inputs.

Skipped as a whole when the `docling` extra is absent (except the lazy-import check). Each PDF is
converted once per module (the converter is cached per process), to keep the run short.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import Layer
from citechunk.conversion.mdlines import heading_level, heading_text, iter_unfenced
from citechunk.conversion.outline import from_toc
from citechunk.errors import BackendError, ConversionError, EncryptedPDFError
from citechunk.evaluation.headings import heading_fidelity
from citechunk.markers import iter_markers, page_spans
from citechunk.models import ConvertedDocument
from conftest import SAMPLE_NAMES

pytestmark = pytest.mark.heavy


def test_module_imports_without_loading_docling() -> None:
    code = (
        "import sys, citechunk.conversion.docling as m; "
        "assert m.DoclingBackend.extra == 'docling'; "
        "assert not [n for n in sys.modules if n == 'docling' or n.startswith('docling.')], 'eager'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


docling = pytest.importorskip("docling")

OFFLINE = ConvertOptions(backend="docling", docling_layout="offline")
_cache: dict[tuple[Path, str], ConvertedDocument] = {}


def converted(path: Path, pages: str = "") -> ConvertedDocument:
    key = (path, pages)
    if key not in _cache:
        _cache[key] = convert(path, ConvertOptions(backend="docling", pages=pages))
    return _cache[key]


def headings(markdown: str) -> list[dict[str, Any]]:
    """(text, level, page) of every heading line outside code fences, pages from the markers."""
    spans = page_spans(markdown)
    lines = markdown.split("\n")
    starts = [sum(len(x) + 1 for x in lines[:i]) for i in range(len(lines))]
    out = []
    for i, inside in iter_unfenced(lines):
        level = 0 if inside else heading_level(lines[i])
        if level:
            page = [p for start, p in spans if start <= starts[i]][-1]
            out.append({"text": heading_text(lines[i]), "level": level, "page": page})
    return out


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_headings_levels_and_pages(
    name: str, sample_pdfs: Path, sample_expected: dict[str, Any]
) -> None:
    # relocation_memo.pdf has bold body-size headings only: the offline layout stage labels
    # short all-bold blocks as headings, so they come out as level 1 and the bold lead-in
    # ("Please note: ...", bold only in part) stays body text.
    got = headings(converted(sample_pdfs / name).markdown)
    want = [{k: h[k] for k in ("text", "level", "page")} for h in sample_expected[name]["headings"]]
    if "typewriter_prose" in sample_expected[name]["features"]:
        # the printed text's titles (and, with Docling, its contents entries) come after the
        # authored headings
        got = got[: len(want)]
    assert got == want


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_markers_for_every_page(
    name: str, sample_pdfs: Path, sample_expected: dict[str, Any]
) -> None:
    doc = converted(sample_pdfs / name)
    count = sample_expected[name]["page_count"]
    assert [m.page for m in iter_markers(doc.markdown)] == list(range(1, count + 1))
    assert doc.markdown.startswith("<!-- page 1 -->\n")
    prov = doc.provenance
    assert (prov.backend, prov.page_count, prov.pages) == (
        "docling",
        count,
        tuple(range(1, count + 1)),
    )
    assert "docling-slim==" in prov.backend_version and len(prov.source_sha256) == 64


def test_page_range_starts_at_its_first_page(sample_pdfs: Path) -> None:
    doc = converted(sample_pdfs / "report_outline.pdf", pages="2-3")
    assert doc.markdown.startswith("<!-- page 2 -->\n")
    assert [m.page for m in iter_markers(doc.markdown)] == [2, 3]
    assert doc.provenance.pages == (2, 3)
    assert {h["text"] for h in headings(doc.markdown)} >= {"Liquidity and Funding", "Outlook"}
    assert "Executive Summary" not in doc.markdown


def test_pages_written_out_of_order_convert_in_page_order(sample_pdfs: Path) -> None:
    doc = converted(sample_pdfs / "report_outline.pdf", pages="3,2")
    assert [m.page for m in iter_markers(doc.markdown)] == [2, 3]
    assert doc.provenance.pages == (2, 3)
    assert doc.markdown == converted(sample_pdfs / "report_outline.pdf", pages="2-3").markdown


def test_table_and_code_blocks(sample_pdfs: Path) -> None:
    report = converted(sample_pdfs / "report_outline.pdf").markdown
    assert "|Currency|" in report and "|USD|" in report and "|Total|" in report
    retry = converted(sample_pdfs / "retry_settings.pdf").markdown
    assert "```\n# client.toml: retry settings for the payments client\n" in retry


def test_running_footer_is_not_body_text(sample_pdfs: Path) -> None:
    md = converted(sample_pdfs / "report_outline.pdf").markdown
    assert "Page 1 of 3" not in md and "Page 2 of 3" not in md


def test_model_layout_without_weights_says_how_to_fetch(sample_pdfs: Path, tmp_path: Path) -> None:
    options = ConvertOptions(
        backend="docling", docling_layout="model", docling_artifacts_path=str(tmp_path)
    )
    with pytest.raises(BackendError, match="docling-tools models download"):
        convert(sample_pdfs / "refund_policy.pdf", options)


# ----------------------------------------------------------------------------- real corpus

SMOKE = [
    "bond_fund_financial_notes.pdf",
    "school_board_agenda.pdf",
    "product_dev_course_bold_headings.pdf",
]


@pytest.mark.corpus
@pytest.mark.parametrize("name", SMOKE)
def test_corpus_smoke(name: str, shared_dir: Path) -> None:
    path = shared_dir / "corpus" / "pdfs" / name
    doc = converted(path)
    pages = list(range(1, doc.provenance.page_count + 1))
    assert [m.page for m in iter_markers(doc.markdown)] == pages
    assert len(doc.markdown) > 500 * len(pages)
    assert headings(doc.markdown), "no heading found"


@pytest.mark.corpus
def test_corpus_outline_entries_become_headings(shared_dir: Path) -> None:
    import pymupdf

    path = shared_dir / "corpus" / "pdfs" / "creativity_ml_paper.pdf"
    with pymupdf.open(path) as pdf:
        outline = from_toc(pdf.get_toc(simple=True))
    fid = heading_fidelity(converted(path).markdown, outline)
    assert fid.found_share >= 0.95 and fid.order_share >= 0.9, fid


@pytest.mark.corpus
def test_three_prose_columns_are_text_not_a_table(shared_dir: Path) -> None:
    """The Federal Register sets its pages in three columns of running text; the offline layout
    stage used to read each page as one table whose cells were column lines, and broke every
    sentence at the cell edges."""
    path = shared_dir / "corpus" / "pdfs" / "federal_register_notice.pdf"
    doc = convert(path, ConvertOptions(backend="docling", pages="1-2"))
    text = " ".join(doc.markdown.split())
    assert "The FAA must receive comments on this proposed AD by September 21, 2020." in text
    table_lines = [ln for ln in doc.markdown.split("\n") if ln.startswith("|")]
    assert len(table_lines) < 10, table_lines[:5]


@pytest.mark.corpus
def test_output_is_reproducible(shared_dir: Path) -> None:
    path = shared_dir / "corpus" / "pdfs" / "creativity_ml_paper.pdf"
    again = convert(path, ConvertOptions(backend="docling"))
    assert again.markdown == converted(path).markdown


# ----------------------------------------------------------------------------- bad inputs


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "error", "cause"),
    [
        ("corrupted_not_pdf.pdf", ConversionError, "not a PDF"),
        ("empty_zero_bytes.pdf", ConversionError, "empty file"),
        ("encrypted_password_test.pdf", EncryptedPDFError, "give its password"),
    ],
)
def test_bad_files_raise_documented_errors(
    name: str, error: type[Exception], cause: str, corpus_bad: Path
) -> None:
    with pytest.raises(error, match=cause) as info:
        convert(corpus_bad / name, OFFLINE)
    assert name in str(info.value)


@pytest.mark.corpus
def test_encrypted_with_password(corpus_bad: Path) -> None:
    path = corpus_bad / "encrypted_password_test.pdf"
    with pytest.raises(EncryptedPDFError, match="wrong"):
        convert(path, ConvertOptions(backend="docling", password="nope"))
    doc = convert(path, ConvertOptions(backend="docling", password="test"))
    assert [m.page for m in iter_markers(doc.markdown)] == [1, 2, 3, 4]
    assert doc.provenance.options["password_given"] is True
    assert "password" not in doc.provenance.options
    assert len(doc.markdown) > 1000


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "empty"), [("blank_page_no_text.pdf", (1,)), ("scanned_image_only.pdf", (1, 2, 3, 4))]
)
def test_pages_without_text_are_warned(name: str, empty: tuple[int, ...], corpus_bad: Path) -> None:
    doc = convert(corpus_bad / name, dataclasses.replace(OFFLINE, ocr="off"))
    assert doc.provenance.pages_without_text == empty
    warned = any(
        "without a text layer" in w and str(empty[-1]) in w for w in doc.provenance.warnings
    )
    assert warned == (name != "blank_page_no_text.pdf")  # a blank page needs no look
    assert [m.page for m in iter_markers(doc.markdown)] == list(empty)


@pytest.mark.corpus
def test_scanned_pages_are_ocrd(corpus_bad: Path) -> None:
    """Same OCR as the pymupdf backend: the scan's four pages (turned 0/180/90/270) read."""
    from citechunk.conversion.ocr import unavailable

    if unavailable("tesseract", ["eng"]):
        pytest.skip("Tesseract with English data not installed")
    doc = convert(corpus_bad / "scanned_image_only.pdf", OFFLINE)
    assert doc.provenance.ocr_pages == (1, 2, 3, 4)
    assert not any("without a text layer" in w for w in doc.provenance.warnings)
    assert doc.markdown.count("Docling bundles PDF document conversion to JSON") == 4


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["garbled_font_encoding.pdf", "truncated_scan_no_xref.pdf"])
def test_damaged_but_openable_files_convert(name: str, corpus_bad: Path) -> None:
    doc = convert(corpus_bad / name, OFFLINE)
    assert [m.page for m in iter_markers(doc.markdown)] == list(
        range(1, doc.provenance.page_count + 1)
    )


# ----------------------------------------------------------------------------- CLI


def test_cli_convert_with_docling(sample_pdfs: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from citechunk.cli import main

    out = tmp_path / "refund.md"
    pdf = str(sample_pdfs / "refund_policy.pdf")
    args = ["convert", pdf, "--backend", "docling", "--docling-layout", "offline", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!-- page 1 -->\n\n# Refund Policy\n")
    assert '"backend": "docling"' in (tmp_path / "refund.md.json").read_text(encoding="utf-8")
    missing = CliRunner().invoke(
        main,
        [
            "convert",
            pdf,
            "--backend",
            "docling",
            "--docling-layout",
            "model",
            "--docling-artifacts-path",
            str(tmp_path),
        ],
    )
    assert missing.exit_code == 2 and "docling-tools models download" in missing.output


def test_a_paragraph_merged_across_a_page_break_is_cut_at_the_break() -> None:
    """docling joins a paragraph running over a page break into one item with one `prov` per
    page; each page's block holds its own part (here without clusters: the `charspan` part)."""
    from docling_core.types.doc import (
        BoundingBox,
        ContentLayer,
        CoordOrigin,
        DocItemLabel,
        DoclingDocument,
        Size,
    )
    from docling_core.types.doc.document import ProvenanceItem

    from citechunk.conversion.docling_blocks import document_blocks

    doc = DoclingDocument(name="t")
    for page in (1, 2, 3):
        doc.add_page(page_no=page, size=Size(width=600, height=800))
    box = BoundingBox(l=50, t=700, r=550, b=650, coord_origin=CoordOrigin.BOTTOMLEFT)
    first, rest = "Testing should use a core biopsy, else a whole sec", "tion is acceptable."
    item = doc.add_text(
        label=DocItemLabel.TEXT,
        text=f"{first}{rest}",
        prov=ProvenanceItem(page_no=1, bbox=box, charspan=(0, len(first))),
    )
    item.prov.append(ProvenanceItem(page_no=2, bbox=box, charspan=(len(first), len(item.text))))
    doc.add_text(
        label=DocItemLabel.PAGE_FOOTER,
        text="Page 2",
        content_layer=ContentLayer.FURNITURE,
        prov=ProvenanceItem(page_no=2, bbox=BoundingBox(l=50, t=40, r=90, b=30), charspan=(0, 6)),
    )
    pages = document_blocks(doc, {})
    assert [(b.page, b.kind, b.text, b.layer) for bs in pages.values() for b in bs] == [
        (1, "text", first, Layer.BODY),
        (2, "text", rest, Layer.BODY),
        (2, "page-footer", "Page 2", Layer.FURNITURE),
    ]
    assert pages[1][0].bbox == (50.0, 100.0, 550.0, 150.0)  # top-left origin


def test_headings_and_tables_come_from_blocks(sample_pdfs: Path) -> None:
    """Both backends level headings by the one heading stage and write tables by the one grid
    renderer: the same heading levels, the same table rows, on a report with three levels."""
    name = "report_outline.pdf"
    mine = converted(sample_pdfs / name).markdown
    theirs = convert(sample_pdfs / name, ConvertOptions(backend="pymupdf")).markdown
    assert [(h["text"], h["level"]) for h in headings(mine)] == [
        (h["text"], h["level"]) for h in headings(theirs)
    ]
    rows = [ln.replace("**", "") for ln in theirs.split("\n") if ln.startswith("|")]
    assert [ln for ln in mine.split("\n") if ln.startswith("|")] == rows


def test_corpus_page_continuation_lands_on_its_page(shared_dir: Path) -> None:
    path = shared_dir / "corpus" / "pdfs" / "mdpi_pathology_paper.pdf"
    markdown = converted(path).markdown
    starts = page_spans(markdown) + [(len(markdown), 0)]
    pages = {p: markdown[a:b] for (a, p), (b, _) in zip(starts, starts[1:], strict=False)}
    assert "whole well-fixed section from untreated breast tissue" in pages[4]
    assert "whole well-fixed section" not in pages[3]


def test_heading_paths_from_docling_are_plain_text(tmp_path: Path) -> None:
    """Headings are rendered from blocks, as the text layer has them: no `\\_` escape (docling's
    own Markdown export wrote `backoff\\_factor`); the heading path is plain text."""
    import pymupdf

    from citechunk import ChunkOptions, chunk_markdown

    pdf = pymupdf.open()
    page = pdf.new_page()
    body = "The base delay in seconds for exponential backoff between the attempts."
    page.insert_text((72, 80), "Retry settings", fontsize=22, fontname="hebo")
    for n in range(4):
        page.insert_text((72, 120 + 16 * n), body, fontsize=11)
    page.insert_text((72, 210), "backoff_factor", fontsize=16, fontname="hebo")
    for n in range(4):
        page.insert_text((72, 240 + 16 * n), body, fontsize=11)
    pdf.save(tmp_path / "escaped.pdf")
    doc = convert(tmp_path / "escaped.pdf", OFFLINE)
    assert "## backoff_factor\n" in doc.markdown and "\\_" not in doc.markdown
    chunks = chunk_markdown(doc.markdown, ChunkOptions(embedder="approx@512"))
    assert chunks[-1].heading_path == ("Retry settings", "backoff_factor")
    assert chunks[-1].text.startswith("Retry settings > backoff_factor\n\n")
