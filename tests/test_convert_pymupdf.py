"""The pymupdf backend on the generated sample PDFs, plus its clean-up and outline-repair parts.

Sample ground truth comes from sample_pdfs/expected.json; outline behaviour is checked on PDFs
built here with PyMuPDF whose outline contradicts their font sizes.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from click.testing import CliRunner

from citechunk import ChunkOptions, chunk_markdown
from citechunk.cli import main
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.base import parse_pages
from citechunk.conversion.outline import OutlineEntry
from citechunk.errors import ConfigError
from citechunk.evaluation.headings import heading_fidelity
from citechunk.markers import iter_markers
from conftest import SAMPLE_NAMES

pytestmark = pytest.mark.heavy

HEADING = re.compile(r"^(#{1,6}) (.+)$")


def headings(markdown: str) -> list[dict[str, Any]]:
    """Headings outside code fences as {text, level, page}, pages from the markers."""
    out, page, fenced = [], 0, False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        marker = list(iter_markers(line))
        if marker:
            page = marker[0].page
            continue
        m = HEADING.match(line)
        if m and not fenced:
            out.append({"text": m.group(2), "level": len(m.group(1)), "page": page})
    return out


def marker_pages(markdown: str) -> list[int]:
    return [m.page for m in iter_markers(markdown)]


@pytest.fixture(scope="module")
def converted(sample_pdfs: Path) -> dict[str, Any]:
    return {name: convert(sample_pdfs / name) for name in SAMPLE_NAMES}


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_headings_levels_and_pages(
    name: str, converted: dict[str, Any], sample_expected: dict[str, Any]
) -> None:
    expected = [
        {k: h[k] for k in ("text", "level", "page")} for h in sample_expected[name]["headings"]
    ]
    got = headings(converted[name].markdown)
    if "typewriter_prose" in sample_expected[name]["features"]:
        # a plain text printed in a typewriter font: its numbered titles become headings after
        # the authored ones (tests/conversion/test_typewriter.py checks them)
        got = got[: len(expected)]
    assert got == expected


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_has_a_marker_per_page_first_included(
    name: str, converted: dict[str, Any], sample_expected: dict[str, Any]
) -> None:
    md = converted[name].markdown
    count = sample_expected[name]["page_count"]
    assert md.startswith("<!-- page 1 -->\n")
    assert marker_pages(md) == list(range(1, count + 1))
    assert "\r" not in md and md.endswith("\n")


def test_provenance(converted: dict[str, Any], sample_pdfs: Path) -> None:
    prov = converted["report_outline.pdf"].provenance
    path = sample_pdfs / "report_outline.pdf"
    assert prov.backend == "pymupdf"
    assert "pymupdf4llm 2.0" in prov.backend_version and "pymupdf 2.0" in prov.backend_version
    assert prov.source_sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert prov.page_count == 3 and prov.pages == (1, 2, 3)
    assert prov.pages_without_text == () and prov.warnings == ()
    assert prov.options["outline_repair"] is True and "password" not in prov.options


def test_page_range_starts_with_its_first_page(
    sample_pdfs: Path, sample_expected: dict[str, Any]
) -> None:
    doc = convert(sample_pdfs / "report_outline.pdf", ConvertOptions(pages="2-3"))
    assert doc.markdown.startswith("<!-- page 2 -->\n")
    assert marker_pages(doc.markdown) == [2, 3]
    assert doc.provenance.pages == (2, 3)
    expected = [
        {k: h[k] for k in ("text", "level", "page")}
        for h in sample_expected["report_outline.pdf"]["headings"]
        if h["page"] >= 2
    ]
    assert headings(doc.markdown) == expected


@pytest.mark.parametrize(
    "spec, pages", [("5-6,1", [1, 5, 6]), ("3,1-2,2", [1, 2, 3]), ("6-", [6, 7]), ("2,2", [2])]
)
def test_page_specs_are_sorted_merged_and_deduplicated(spec: str, pages: list[int]) -> None:
    assert parse_pages(spec, 7) == pages


@pytest.mark.parametrize("spec, part", [("1,x", "x"), ("3-2", "3-2"), ("0", "0"), ("1,9", "9")])
def test_bad_page_specs_name_the_part(spec: str, part: str) -> None:
    with pytest.raises(ConfigError, match=f"pages '{re.escape(spec)}': '{re.escape(part)}'"):
        parse_pages(spec, 7)


def test_pages_written_out_of_order_convert_in_page_order(sample_pdfs: Path) -> None:
    pdf = sample_pdfs / "report_outline.pdf"
    doc = convert(pdf, ConvertOptions(pages="3,1-2"))
    assert marker_pages(doc.markdown) == [1, 2, 3] and doc.provenance.pages == (1, 2, 3)
    assert doc.markdown == convert(pdf, ConvertOptions(pages="1-3")).markdown
    chunks = chunk_markdown(doc.markdown, ChunkOptions(embedder="approx@512"))
    assert all(c.first_page <= c.last_page for c in chunks)
    assert [c.first_page for c in chunks] == sorted(c.first_page for c in chunks)


def test_code_lines_starting_with_hash_stay_code(
    converted: dict[str, Any], sample_expected: dict[str, Any]
) -> None:
    md = converted["retry_settings.pdf"].markdown
    for line in sample_expected["retry_settings.pdf"]["features"]["hash_code_lines"]:
        assert f"\n{line}\n" in md
    assert md.count("```") % 2 == 0


def _footer_lines(path: Path) -> set[str]:
    """Text lines in the bottom 50 pt of any page (the running footer)."""
    found = set()
    with pymupdf.open(path) as doc:
        for page in doc:
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    text = "".join(s["text"] for s in line["spans"]).strip()
                    if text and line["bbox"][1] > page.rect.height - 50:
                        found.add(re.sub(r"\d+", "", text).strip())
    return found


@pytest.mark.parametrize("name", ["report_outline.pdf", "incident_review.pdf"])
def test_running_footer_removed_unless_disabled(
    name: str, sample_pdfs: Path, converted: dict[str, Any]
) -> None:
    footers = _footer_lines(sample_pdfs / name)
    assert footers, "sample should carry a running footer"
    stripped = re.sub(r"\d+", "", converted[name].markdown)
    kept = re.sub(
        r"\d+",
        "",
        convert(sample_pdfs / name, ConvertOptions(strip_headers_footers=False)).markdown,
    )
    for footer in footers:
        assert footer not in stripped
        assert footer in kept


def test_without_layout_model(sample_pdfs: Path) -> None:
    doc = convert(sample_pdfs / "refund_policy.pdf", ConvertOptions(use_layout=False))
    assert marker_pages(doc.markdown) == [1]
    assert doc.provenance.options["layout_active"] is False
    assert "Eligibility" in [h["text"] for h in headings(doc.markdown)]


def test_layout_conversion_leaves_pymupdf_layout_global_as_found(
    sample_pdfs: Path, converted: dict[str, Any]
) -> None:
    """A host that switched PyMuPDF's layout model off process-wide keeps it off after a
    layout conversion, and the conversion is the same as with the model left on."""
    pdf = sample_pdfs / "report_outline.pdf"
    code = (
        "import sys, pymupdf, pymupdf4llm\n"
        "from citechunk.conversion import convert\n"
        "pymupdf4llm.use_layout(False)\n"
        "doc = convert(sys.argv[1])\n"
        "assert doc.provenance.options['layout_active'] is True\n"
        "assert pymupdf._get_layout is None, 'layout switched back on for the whole process'\n"
        "sys.stdout.write(doc.markdown)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(pdf)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == converted["report_outline.pdf"].markdown


def test_cli_convert_writes_markdown_and_provenance(sample_pdfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    result = CliRunner().invoke(
        main, ["convert", str(sample_pdfs / "report_outline.pdf"), "-o", str(out), "--pages", "3"]
    )
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!-- page 3 -->\n")
    prov = json.loads(Path(str(out) + ".json").read_text(encoding="utf-8"))
    assert prov["pages"] == [3] and prov["backend"] == "pymupdf"


# --- outline repair on PDFs whose outline contradicts the fonts ---------------------------------

BODY = "This paragraph is ordinary body text that explains the section above in plain words. " * 3


def _make_pdf(path: Path, lines: list[tuple[int, str, float, bool]], toc: list[list[Any]]) -> Path:
    """Pages of (page, text, font size, bold) lines, each followed by a body paragraph."""
    doc = pymupdf.open()
    ys: dict[int, float] = {}
    for page_no, text, size, bold in lines:
        while doc.page_count < page_no:
            doc.new_page()
            ys[doc.page_count] = 72.0
        page = doc[page_no - 1]
        y = ys[page_no]
        page.insert_text((72, y), text, fontsize=size, fontname="hebo" if bold else "helv")
        rect = pymupdf.Rect(72, y + 8, 520, y + 70)
        page.insert_textbox(rect, BODY, fontsize=10, fontname="helv")
        ys[page_no] = y + 95
    doc.set_toc(toc)
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def outlined_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Fonts say: Gamma biggest, Alpha smallest; the outline says Alpha 1 > Beta 2 > Gamma 3.
    lines = [
        (1, "Alpha Overview", 13, True),
        (1, "Beta Details", 15, True),
        (1, "Gamma Specifics", 18, True),
        (2, "Delta Summary", 13, True),
        (2, "Epsilon Notes", 15, True),
    ]
    toc = [
        [1, "1 Alpha Overview", 1],
        [2, "1.1 Beta Details", 1],
        [3, "1.1.1 Gamma Specifics", 1],
        [1, "2 Delta Summary", 2],
    ]
    return _make_pdf(tmp_path_factory.mktemp("outline") / "outlined.pdf", lines, toc)


def test_outline_sets_levels_over_font_sizes(outlined_pdf: Path) -> None:
    found = {h["text"]: h for h in headings(convert(outlined_pdf).markdown)}
    assert found["Alpha Overview"]["level"] == 1
    assert found["Beta Details"]["level"] == 2
    assert found["Gamma Specifics"]["level"] == 3
    assert found["Delta Summary"]["level"] == 1 and found["Delta Summary"]["page"] == 2
    # not in the outline: nested below the enclosing entry (Delta, level 1)
    assert found["Epsilon Notes"]["level"] >= 2


def test_outline_repair_can_be_switched_off(outlined_pdf: Path) -> None:
    doc = convert(outlined_pdf, ConvertOptions(outline_repair=False))
    levels = {h["text"]: h["level"] for h in headings(doc.markdown)}
    assert levels.get("Gamma Specifics", 9) < levels.get("Alpha Overview", 0)  # font sizes rule
    toc = [OutlineEntry(1, "Alpha Overview", 1), OutlineEntry(2, "Beta Details", 1)]
    assert heading_fidelity(convert(outlined_pdf).markdown, toc).order_share == 1.0


def test_outline_entry_in_body_text_becomes_heading(tmp_path: Path) -> None:
    lines = [(1, "Scope of this note", 10, False), (1, "Main Results", 16, True)]
    toc = [[1, "Scope of this note", 1], [1, "Main Results", 1]]
    pdf = _make_pdf(tmp_path / "body.pdf", lines, toc)
    found = {h["text"]: h["level"] for h in headings(convert(pdf).markdown)}
    assert found == {"Scope of this note": 1, "Main Results": 1}


# --- clean-up and repair units on Markdown text ------------------------------------------------


def _line(*spans: tuple[float, str]) -> dict[str, Any]:
    """A pymupdf4llm text line: spans at x positions (width 6 pt per character), y = 100."""
    out = [{"bbox": (x, 100.0, x + 6 * len(t), 110.0), "text": t} for x, t in spans]
    return {"bbox": (out[0]["bbox"][0], 100.0, out[-1]["bbox"][2], 110.0), "spans": out}


def test_margin_notes_are_detached_from_body_lines() -> None:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    from citechunk.conversion.layoutpasses import detach_margin_notes

    body = [_line((135, "the usage of bibitem without an"), (327, "x" * 25)) for _ in range(3)]
    spliced = _line((40, "citeauthoryear"), (135, "optional parameter."), (249, "y" * 38))
    listed = _line((120, "1."), (135, "first item of a numbered list in the text"), (381, "z" * 16))
    box = LayoutBox(40, 100, 480, 160, "text", textlines=[*body, spliced, listed])
    out = detach_margin_notes([box], LayoutBox)
    assert [b.boxclass for b in out] == ["text", "text"]
    assert [s["text"] for s in out[1].textlines[0]["spans"]] == ["citeauthoryear"]
    assert [s["text"] for s in box.textlines[3]["spans"]][0] == "optional parameter."
    assert box.textlines[4]["spans"][0]["text"] == "1."  # numbering is not a margin note


def test_two_prose_columns_in_one_box_are_read_column_by_column() -> None:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    from citechunk.conversion.layoutpasses import split_columns

    left_text = [
        "Some women have abnormal",
        "cells that are contained",
        "within the lobules of the",
        "breast. This is not cancer.",
    ]
    right_text = [
        "This condition will not",
        "develop breast cancer in",
        "most women who have it,",
        "so they are monitored.",
    ]
    lines = [_line((54, a), (240, b)) for a, b in zip(left_text, right_text, strict=True)]
    box = LayoutBox(54, 100, 400, 160, "text", textlines=lines)
    out = split_columns([box], LayoutBox)
    assert len(out) == 2
    assert [ln["spans"][0]["text"] for ln in out[0].textlines] == left_text
    assert [ln["spans"][0]["text"] for ln in out[1].textlines] == right_text
    # one column of prose (no gutter crossing every line) stays one box
    prose = [_line((54, t + " " + u)) for t, u in zip(left_text, right_text, strict=True)]
    assert (
        split_columns([LayoutBox(54, 100, 400, 160, "text", textlines=prose)], LayoutBox)[
            0
        ].textlines
        == prose
    )
    # a two-column list of short values is not prose: left alone
    pairs = [_line((54, "Name"), (240, "Value")) for _ in range(4)]
    assert (
        len(split_columns([LayoutBox(54, 100, 400, 160, "text", textlines=pairs)], LayoutBox)) == 1
    )


def test_text_too_small_to_read_is_not_extracted(tmp_path: Path) -> None:
    """A hairline-size identifier (hidden tag) is no text of the document: neither the layout
    path nor the text-layer self-check (restore-text) brings it into the Markdown."""
    pdf = tmp_path / "tags.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    body = "Integrate threat information across the department to enable timely actions."
    page.insert_text((72, 100), "Enablement", fontsize=16)
    page.insert_text((72, 140), body, fontsize=10)
    page.insert_text((500, 160), "_63ec26ac-c0c9-11ec-a4ba-aeec1c83ea00", fontsize=0.7)
    doc.save(pdf)
    markdown = convert(pdf).markdown
    assert "timely actions" in markdown
    assert "11ec" not in markdown


# --- layout model choice, its timing and device -------------------------------------------------


def test_text_only_layout_model_converts_with_the_same_pages_and_headings(
    sample_pdfs: Path, converted: dict[str, Any]
) -> None:
    """The text-only model ("rf" feature set) gives Markdown for the same pages and the same
    headings on a plain report; the layout model's time is its own stage and ran on every
    page."""
    name = "report_outline.pdf"
    doc = convert(sample_pdfs / name, ConvertOptions(layout_model="text"))
    assert doc.provenance.options["layout_model"] == "text"
    assert doc.provenance.options["layout_device"] == "cpu"
    assert marker_pages(doc.markdown) == marker_pages(converted[name].markdown)
    assert [h["text"] for h in headings(doc.markdown)] == [
        h["text"] for h in headings(converted[name].markdown)
    ]
    assert doc.model_pages == len(doc.provenance.pages)
    stages = dict(doc.stages)
    assert list(stages)[:3] == ["text layer", "layout model", "extract"]
    assert stages["layout model"] > 0 and dict(doc.stage_cpu)["layout model"] > 0


def test_each_layout_model_is_loaded_once_per_process() -> None:
    from citechunk.conversion.pymupdf import FEATURE_SETS, _analyzer

    text, image = _analyzer("text", "cpu"), _analyzer("text+image", "cpu")
    assert _analyzer("text", "cpu") is text and text is not image
    assert set(FEATURE_SETS.values()) == {"rf", "imf+rf"}


def test_gpu_is_used_only_where_onnxruntime_offers_cuda() -> None:
    """Detection follows onnxruntime's providers: on a machine without CUDA (CI) the layout
    model stays on the CPU even when asked for the GPU, and `citechunk backends` says so."""
    import onnxruntime

    from citechunk.conversion.pymupdf import layout_device

    has_cuda = "CUDAExecutionProvider" in onnxruntime.get_available_providers()
    assert layout_device(False) == "cpu"
    assert layout_device(True) == ("cuda" if has_cuda else "cpu")
    result = CliRunner().invoke(main, ["backends"])
    assert result.exit_code == 0
    (line,) = [ln for ln in result.output.splitlines() if ln.startswith("pymupdf ")]
    assert f"with --layout-gpu on {'cuda' if has_cuda else 'cpu'}" in line
