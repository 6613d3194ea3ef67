"""OCR with real engines on scans made here from sample_pdfs/ (grey JPEG pages, no text layer).

Text read back is checked against the source PDF's own words; `auto` must leave born-digital
pages alone; a language Tesseract has no data for gives the documented warning or error.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pymupdf
import pytest
from click.testing import CliRunner

from citechunk import ingest
from citechunk.cli import main
from citechunk.config import ConvertOptions, load_config
from citechunk.conversion import convert
from citechunk.conversion.ocr import (
    OcrWord,
    legible_text,
    page_blocks,
    page_text,
    recognise,
    unavailable,
)
from citechunk.errors import ConversionError
from citechunk.evaluation.scans import make_scan, page_words, word_error_rate, word_recall, words
from citechunk.export import read_chunks

pytestmark = pytest.mark.heavy

needs_tesseract = pytest.mark.skipif(
    bool(unavailable("tesseract", ["eng"])), reason="Tesseract with English data not installed"
)
needs_rapidocr = pytest.mark.skipif(
    bool(unavailable("rapidocr", ["eng"])), reason="rapidocr_onnxruntime not installed"
)
MISSING_LANGUAGE = "deu"


def page_texts(markdown: str) -> dict[int, str]:
    parts = re.split(r"<!-- page (\d+) -->", markdown)
    return {int(n): text for n, text in zip(parts[1::2], parts[2::2], strict=True)}


@pytest.fixture(scope="module")
def scan(sample_pdfs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """report_outline.pdf as a 200 dpi grey scan, half a degree of skew, page 2 fed sideways."""
    target = tmp_path_factory.mktemp("scan") / "report_scan.pdf"
    return make_scan(sample_pdfs / "report_outline.pdf", target, skew=0.5, turns={2: 90})


def test_scan_has_no_text_layer(scan: Path) -> None:
    with pymupdf.open(scan) as doc:
        assert [page.get_text("text").strip() for page in doc] == ["", "", ""]
        assert doc[1].rect.width > doc[1].rect.height  # the sideways page


@needs_tesseract
def test_tesseract_reads_the_scan_right_side_up(scan: Path, sample_pdfs: Path) -> None:
    doc = convert(scan)
    assert doc.provenance.ocr_pages == (1, 2, 3)
    assert doc.ocr_seconds > 0
    assert not any("without a text layer" in w for w in doc.provenance.warnings)
    reference = page_words(sample_pdfs / "report_outline.pdf")
    texts = page_texts(doc.markdown)
    for page, ref in reference.items():
        found = words(texts[page])
        assert word_recall(ref, found) >= 0.95, page
        assert word_error_rate(ref, found) <= 0.1, page
    # larger type became headings, which the chunker then follows
    assert "# Executive Summary" in texts[1]
    assert re.search(r"^#+ Liquidity and Funding$", texts[2], re.M), texts[2][:400]


@needs_tesseract
def test_ocr_words_sit_where_the_source_words_are(sample_pdfs: Path, tmp_path: Path) -> None:
    """Words come back in the scanned page's coordinates: each recognised word that occurs
    once on the source page lies within a few points (a third of its height) of it; on the page fed sideways (turned
    a quarter clockwise), of its turned position (x, y) -> (height - y, x)."""
    source_pdf = sample_pdfs / "report_outline.pdf"
    straight = make_scan(source_pdf, tmp_path / "straight.pdf", pages=[1, 2], turns={2: 90})
    with pymupdf.open(straight) as doc, pymupdf.open(source_pdf) as src:
        outcome = recognise(straight, doc, [1, 2], ConvertOptions())
        height = src[1].rect.height
        source = [{}, {}]
        for i in (0, 1):
            for w in src[i].get_text("words"):
                source[i].setdefault(w[4], []).append(w[:4])
    assert [p.turned for p in outcome.pages] == [0, 0]  # --psm 1 found the orientation itself
    for page, words_at in zip(outcome.pages, source, strict=True):
        matched = 0
        for word in page.words.words:
            if len(words_at.get(word.text, [])) != 1:
                continue
            x0, y0, x1, y1 = words_at[word.text][0]
            want = ((x0 + x1) / 2, (y0 + y1) / 2)
            if page.number == 2:
                want = (height - want[1], want[0])
            got = ((word.box[0] + word.box[2]) / 2, (word.box[1] + word.box[3]) / 2)
            # the PDF's word box spans the font's full height, OCR's only the ink
            slack = max(4.0, 0.3 * (y1 - y0))
            assert abs(got[0] - want[0]) < slack and abs(got[1] - want[1]) < slack, word
            matched += 1
        assert matched >= 50, page.number


@needs_rapidocr
def test_rapidocr_reads_an_upright_and_a_sideways_page(scan: Path, sample_pdfs: Path) -> None:
    """RapidOCR's English drops many spaces (measured in bench/ocr_quality.py), so the check
    is on characters: the source words' letters appear in order in the page's text."""
    doc = convert(scan, ConvertOptions(ocr_engine="rapidocr", pages="1-2"))
    assert doc.provenance.ocr_pages == (1, 2)
    reference = page_words(sample_pdfs / "report_outline.pdf")
    texts = page_texts(doc.markdown)
    for page in (1, 2):
        found = "".join(words(texts[page]))
        ref = "".join(reference[page])
        assert len(found) >= 0.85 * len(ref), page
        # sideways text read the wrong way round would not give these long runs
        assert "liquidity" in found and "funding" in "".join(words(texts[2]))


def test_auto_leaves_born_digital_pages_alone(sample_pdfs: Path) -> None:
    for pdf in sorted(sample_pdfs.glob("*.pdf")):
        auto = convert(pdf)
        off = convert(pdf, ConvertOptions(ocr="off"))
        assert auto.provenance.ocr_pages == ()
        assert auto.markdown == off.markdown, pdf.name


@needs_tesseract
def test_only_the_scanned_page_of_a_mixed_pdf_is_ocrd(
    scan: Path, sample_pdfs: Path, tmp_path: Path
) -> None:
    mixed = tmp_path / "mixed.pdf"
    with pymupdf.open(sample_pdfs / "refund_policy.pdf") as doc, pymupdf.open(scan) as scanned:
        doc.insert_pdf(scanned, from_page=2, to_page=2)
        doc.save(mixed)
    auto = convert(mixed)
    off = convert(mixed, ConvertOptions(ocr="off"))
    assert auto.provenance.ocr_pages == (2,)
    assert page_texts(auto.markdown)[1] == page_texts(off.markdown)[1]
    assert "Credit facilities" in page_texts(auto.markdown)[2]
    forced = convert(mixed, ConvertOptions(ocr="force"))
    assert forced.provenance.ocr_pages == (1, 2)
    ref = page_words(sample_pdfs / "refund_policy.pdf")[1]
    assert word_recall(ref, words(page_texts(forced.markdown)[1])) >= 0.95


@needs_tesseract
def test_missing_language_data_warns_under_auto_and_fails_under_force(scan: Path) -> None:
    if not unavailable("tesseract", [MISSING_LANGUAGE]):
        pytest.skip(f"tesseract-ocr-{MISSING_LANGUAGE} is installed here")
    options = ConvertOptions(ocr_languages=("eng", MISSING_LANGUAGE))
    doc = convert(scan, options)
    assert doc.provenance.ocr_pages == ()
    (warning,) = [w for w in doc.provenance.warnings if "OCR" in w]
    assert "pages without a text layer, not OCR'd: 1-3" in warning
    assert f"apt-get install tesseract-ocr-{MISSING_LANGUAGE}" in warning
    with pytest.raises(ConversionError, match="apt-get install tesseract-ocr-deu") as info:
        convert(scan, ConvertOptions(ocr="force", ocr_languages=(MISSING_LANGUAGE,)))
    assert str(scan) in str(info.value)
    result = CliRunner().invoke(
        main, ["convert", str(scan), "--ocr", "force", "--ocr-language", MISSING_LANGUAGE]
    )
    assert result.exit_code == 1 and "tesseract-ocr-deu" in result.output


@needs_tesseract
def test_ingest_records_ocr_pages_in_chunks_and_run_report(
    scan: Path, sample_pdfs: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy2(scan, folder / "scan.pdf")
    shutil.copy2(sample_pdfs / "refund_policy.pdf", folder / "refund_policy.pdf")
    cfg = load_config(None, {"run": {"workers": 1, "timeout": 300}})
    report = ingest(folder, tmp_path / "out", cfg)
    assert report.ok
    assert report.ocr_pages == 3 and report.ocr_seconds > 0
    run = json.loads((tmp_path / "out" / "run.json").read_text(encoding="utf-8"))
    assert run["ocr"]["pages"] == 3
    rows = {r["source_file"]: r for r in run["files"]}
    assert rows["scan.pdf"]["ocr_pages"] == 3 and rows["refund_policy.pdf"]["ocr_pages"] == 0
    table = read_chunks(tmp_path / "out").to_pylist()
    scanned = [r for r in table if r["source_file"] == "scan.pdf"]
    assert scanned and all(
        r["ocr_pages"] == list(range(r["first_page"], r["last_page"] + 1)) for r in scanned
    )
    assert all(r["ocr_pages"] == [] for r in table if r["source_file"] == "refund_policy.pdf")
    assert any("Executive Summary" in r["text"] for r in scanned)
    # OCR'd pages are mapped to the words the engine read: their chunks have boxes too
    assert all(
        r["boxes"] and {b["page"] for b in r["boxes"]} <= set(r["ocr_pages"]) for r in scanned
    )


def test_dot_leaders_in_a_broken_font_do_not_make_a_page_garbled() -> None:
    from citechunk.conversion.ocr import is_garbled

    leaders = "Useful websites\nThe internet has many useful resources and more words here.\n"
    leaders += "".join(f"Council {i}\t{chr(0xFFFD) * 40}site{i}.org\n" for i in range(3))
    assert not is_garbled(leaders)
    garbled = " ".join("\x03\x04\x05" + w for w in "the cash flow of the year was good".split() * 3)
    assert is_garbled(garbled)


def _words(text: str, top: float, height: float, conf: float, par: int) -> list[OcrWord]:
    out, x = [], 10.0
    for w in text.split():
        out.append(OcrWord(w, (x, top, x + 10 * len(w), top + height), conf, par, par))
        x += 10 * len(w) + 8
    return out


@pytest.mark.parametrize("conf, heading", [(96, True), (55, False)])
def test_large_ocr_text_is_a_heading_only_when_read_with_confidence(
    conf: float, heading: bool
) -> None:
    body = "These are ordinary body words of the page set at the common size of its text"
    words = _words("Terms and Conditions", 0, 40, conf, 0) + _words(body, 60, 20, 95, 1)
    first = page_blocks(1, words, pymupdf.Identity)[0]
    assert first.is_heading is heading
    assert first.text == "Terms and Conditions"  # the text stays either way


def _scanned_cover(tmp_path: Path, name: str) -> Path:
    """A one-page PDF with no text layer: a picture of a cover page (a display title over
    body text) rendered here, in a file whose name says nothing of the title."""
    cover = tmp_path / "cover.pdf"
    with pymupdf.open() as doc:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 120), "Harbour Dredging Review", fontsize=28)
        body = "The dredging programme kept the channel open to deep-draught vessels all year."
        for i in range(12):
            page.insert_text((72, 200 + 16 * i), body, fontsize=11)
        doc.save(cover)
    return make_scan(cover, tmp_path / name)


@needs_tesseract
def test_a_scanned_cover_is_labelled_from_its_ocr_text(tmp_path: Path) -> None:
    scan = _scanned_cover(tmp_path, "img_0042.pdf")
    with pymupdf.open(scan) as doc:
        assert doc[0].get_text("text").strip() == "" and not doc.metadata.get("title")
    doc = convert(scan)
    assert doc.provenance.ocr_pages == (1,)
    assert doc.provenance.title == "Harbour Dredging Review"
    assert doc.provenance.title_source == "display title (ocr)"
    off = convert(scan, ConvertOptions(ocr="off"))  # no OCR: the file name is all there is
    assert (off.provenance.title, off.provenance.title_source) == ("img 0042", "file name")


@needs_tesseract
def test_a_born_digital_first_page_keeps_its_label_over_a_scanned_second(
    tmp_path: Path, sample_pdfs: Path
) -> None:
    mixed = tmp_path / "mixed.pdf"
    scan = _scanned_cover(tmp_path, "cover_scan.pdf")
    with pymupdf.open(sample_pdfs / "refund_policy.pdf") as doc, pymupdf.open(scan) as scanned:
        doc.insert_pdf(scanned)
        doc.save(mixed)
    auto = convert(mixed)
    off = convert(mixed, ConvertOptions(ocr="off"))
    pages = auto.provenance.page_count
    assert pages > 1 and auto.provenance.ocr_pages == (pages,)
    assert (auto.provenance.title, auto.provenance.title_source) == (
        off.provenance.title,
        off.provenance.title_source,
    )


@needs_tesseract
def test_a_scanned_cover_in_front_of_a_born_digital_page_is_read_for_the_label(
    tmp_path: Path, sample_pdfs: Path
) -> None:
    # the text layer's label comes from page 2 (the cover has no text layer); OCR reads the
    # cover, and its display title has more evidence than page 2's cover facts
    mixed = tmp_path / "mixed.pdf"
    scan = _scanned_cover(tmp_path, "cover_scan.pdf")
    with pymupdf.open(scan) as doc, pymupdf.open(sample_pdfs / "refund_policy.pdf") as policy:
        doc.insert_pdf(policy)
        doc.save(mixed)
    off = convert(mixed, ConvertOptions(ocr="off"))
    assert (off.provenance.title, off.provenance.title_source) == ("Refund Policy", "cover facts")
    auto = convert(mixed)
    assert auto.provenance.ocr_pages == (1,)
    assert (auto.provenance.title, auto.provenance.title_source) == (
        "Harbour Dredging Review",
        "display title (ocr)",
    )


@needs_tesseract
def test_a_stamp_along_the_margin_is_no_title_and_a_broken_subject_runs_on(
    tmp_path: Path,
) -> None:
    # a scanned letter: a receipt stamp set large along the left margin, read sideways by the
    # engine, and a subject broken over two lines with a hanging indent
    letter = tmp_path / "letter.pdf"
    with pymupdf.open() as doc:
        page = doc.new_page(width=595, height=842)
        page.insert_text((40, 700), "Received by Certified Mail", fontsize=22, rotate=90)
        page.insert_text((72, 120), "Subject: Dredging order for the", fontsize=11)
        page.insert_text((130, 136), "north basin moorings in winter.", fontsize=11)
        body = "The dredging programme kept the channel open to deep-draught vessels all year."
        for i in range(12):
            page.insert_text((72, 180 + 16 * i), body, fontsize=11)
        doc.save(letter)
    doc = convert(make_scan(letter, tmp_path / "img_0042.pdf"))
    assert doc.provenance.ocr_pages == (1,)
    assert doc.provenance.title == "Dredging order for the north basin moorings in winter."
    assert doc.provenance.title_source == "cover facts (ocr)"


def test_an_ocr_line_set_sideways_is_vertical_and_sized_by_its_width() -> None:
    across = _words("Received by Certified Mail", 300, 20, 95, 0)
    sideways = [  # the same words stacked down the margin, each 12 wide and 10 per letter tall
        OcrWord(w.text, (20, w.box[0], 32, w.box[2]), 95, 1, 1) for w in across
    ]
    lines = page_text(1, across + sideways, pymupdf.Identity).lines
    assert [(ln.vertical, ln.size) for ln in lines] == [(False, 20), (True, 12)]
    short = page_text(1, [OcrWord("Il", (20, 0, 32, 30), 95, 0, 0)], pymupdf.Identity).lines
    assert not short[0].vertical  # two letters in a tall box: a short word set across


def test_only_lines_read_with_confidence_are_legible() -> None:
    """The label is read from the legible lines only: a line in a script the engine has no
    data for comes back as Latin letters read with low confidence."""
    body = "These are ordinary body words of the page set at the common size of its text"
    words = _words("SULUBUTESUNELY frees eMSLURLE", 0, 40, 20, 0) + _words(body, 60, 20, 95, 1)
    legible = legible_text(1, words, pymupdf.Identity)
    assert [line.text for line in legible.lines] == [body]
    assert {w.text for w in legible.words} == set(body.split())
