"""No document is lost to a rule (`conversion.passguard`): a pass that raises is skipped for
the page (page and layout passes) or the document (document and structure passes) it raised
on, the document converts without it, a warning names the pass, the page and the exception,
and the run report counts it. Real PDFs built here, real passes that really raise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from citechunk import ConvertOptions, convert
from citechunk.config import load_config
from citechunk.conversion import layoutpasses, pipeline
from citechunk.conversion.layoutpasses import LayoutPage, LayoutPass
from citechunk.conversion.passcontext import PassContext
from citechunk.conversion.pipeline import Pass, run_passes
from citechunk.conversion.textlayer import TextLayer
from citechunk.export import config_fingerprint, markdown_relpath, run_metadata
from citechunk.markers import page_bodies
from citechunk.models import PassFailure
from citechunk.runner.ingest import output_config
from citechunk.runner.manifest import Entry
from citechunk.runner.plan import entry_for
from citechunk.runner.report import RunReport
from citechunk.runner.work import Job, run_job

RAGGED_TABLE = ["| | Field layout | |", "| | 2020 |", "| Version | 1 | 2 |"]
PAGES = [
    ["Section 1. Scope", "", "This memo describes the message format used between peers."],
    [
        "Section 2. Message format",
        "",
        "The fields of the header are laid out as follows and each is described below.",
        "",
        *RAGGED_TABLE,
        "",
        "The version field is one octet long and names the revision of this protocol.",
    ],
    ["Section 3. Security", "", "Peers authenticate each message with a shared key."],
]


def _pdf(path: Path) -> Path:
    """Three pages of prose; page 2 prints a pipe table whose second row is ragged (one cell
    fewer than the header), as plain text lines."""
    import pymupdf

    doc = pymupdf.open()
    for lines in PAGES:
        page = doc.new_page()
        for i, line in enumerate(lines):
            if line:
                page.insert_text((72, 72 + 16 * i), line, fontsize=11, fontname="helv")
    doc.save(path)
    return path


def _pages(markdown: str) -> dict[int, str]:
    return {n: markdown[a:b].strip() for a, b, n in page_bodies(markdown)}


def _printed(pdf: Path, pages: list[list[str]]) -> tuple[dict[int, str], PassContext]:
    """The passes over the Markdown that prints `pages` as lines (a pipe table stays one), with
    the text layer of `pdf` (which prints the same lines) for the table rule."""
    import pymupdf

    with pymupdf.open(pdf) as doc:
        layer = TextLayer.of_document(doc)
        layer.preload(range(1, doc.page_count + 1))
    ctx = PassContext(ConvertOptions(), text_layer=layer)
    markdown = [(n, "\n".join(lines) + "\n") for n, lines in enumerate(pages, 1)]
    return dict(run_passes(markdown, ctx)), ctx


def _raise_on_tables(text: str) -> str:
    """A page rule: upper-cases a page, and raises IndexError on a page with a pipe table."""
    if "|" in text:
        return text.split("\n")[99]
    return text.upper()


def _clear_then_raise(pages: list[tuple[int, str]], ctx: Any) -> list[tuple[int, str]]:
    """A structure rule that empties the list it was given, then raises."""
    pages.clear()
    raise KeyError("no such heading")


def test_a_ragged_pipe_table_converts_with_its_table_rule(tmp_path: Path) -> None:
    """The ragged stacked header made `_fill_spans` raise IndexError (the table-words pass);
    it now joins the header rows and the table keeps every cell."""
    pages, ctx = _printed(_pdf(tmp_path / "ragged.pdf"), PAGES)
    assert ctx.failures == []
    assert "Field layout 2020" in pages[2] and "Version" in pages[2]


def test_a_page_pass_that_raises_leaves_only_that_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = _pdf(tmp_path / "ragged.pdf")
    options = ConvertOptions(layout="never")
    before = _pages(convert(pdf, options).markdown)
    extra = Pass("upper-case", "page", _raise_on_tables)
    monkeypatch.setattr(pipeline, "PASSES", (*pipeline.PASSES, extra))
    doc = convert(pdf, options)
    after = _pages(doc.markdown)
    assert after[2] == before[2]
    assert after[1] == before[1].upper() and after[3] == before[3].upper()
    assert doc.provenance.pass_failures == (
        PassFailure("upper-case", 2, "IndexError: list index out of range"),
    )
    warning = "pass upper-case failed on page 2 (IndexError: list index out of range)"
    assert any(w.startswith(warning) for w in doc.provenance.warnings)


def test_a_structure_pass_that_raises_leaves_every_page_as_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = _pdf(tmp_path / "ragged.pdf")
    options = ConvertOptions(layout="never")
    before = convert(pdf, options).markdown
    middle = pipeline.PASSES.index(next(p for p in pipeline.PASSES if p.name == "outline"))
    extra = Pass("clear-pages", "structure", _clear_then_raise)
    passes = (*pipeline.PASSES[:middle], extra, *pipeline.PASSES[middle:])
    monkeypatch.setattr(pipeline, "PASSES", passes)
    doc = convert(pdf, options)
    assert doc.markdown == before
    assert doc.provenance.pass_failures == (
        PassFailure("clear-pages", 0, "KeyError: 'no such heading'"),
    )
    assert "pass clear-pages failed on the document" in " ".join(doc.provenance.warnings)


def _drop_text_then_raise(boxes: list[Any], page: LayoutPage) -> list[Any]:
    """A layout rule that empties every box's lines in place, then raises on page 2."""
    for box in boxes:
        box.textlines = []
    if page.parsed.page_number == 2:
        raise ZeroDivisionError("division by zero")
    return boxes


def test_a_layout_pass_that_raises_leaves_that_pages_boxes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = _pdf(tmp_path / "ragged.pdf")
    options = ConvertOptions(layout="always", skip_passes=("restore-text",))
    before = _pages(convert(pdf, options).markdown)
    extra = LayoutPass("drop-text", _drop_text_then_raise)
    monkeypatch.setattr(layoutpasses, "LAYOUT_PASSES", (*layoutpasses.LAYOUT_PASSES, extra))
    doc = convert(pdf, options)
    after = _pages(doc.markdown)
    assert after[2] == before[2] and "Version" in after[2]
    assert "Scope" not in after[1] and "Security" not in after[3]
    assert doc.provenance.pass_failures == (
        PassFailure("drop-text", 2, "ZeroDivisionError: division by zero"),
    )


def test_the_run_report_counts_pass_failures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = _pdf(tmp_path / "ragged.pdf")
    monkeypatch.setattr(
        pipeline, "PASSES", (*pipeline.PASSES, Pass("upper-case", "page", _raise_on_tables))
    )
    config = load_config(None, {"convert": {"layout": "never"}, "export": {"format": "jsonl"}})
    produced = output_config(config)
    out = tmp_path / "out"
    job = Job(
        source=str(pdf),
        source_file=pdf.name,
        out=str(out),
        convert=config.convert,
        chunk=config.chunk,
        fmt="jsonl",
        fingerprint=config_fingerprint(produced),
        metadata=tuple(sorted(run_metadata(produced).items())),
    )
    result = run_job(job)
    assert result.status == "converted"
    assert [(f.name, f.page) for f in result.pass_failures] == [("upper-case", 2)]
    assert re.search(r"pass upper-case failed on page 2 \(IndexError", " ".join(result.warnings))
    saved = json.loads((out / (markdown_relpath(pdf.name) + ".json")).read_text(encoding="utf-8"))
    assert saved["pass_failures"] == [
        {"pass": "upper-case", "page": 2, "error": "IndexError: list index out of range"}
    ]
    report = RunReport("in", str(out), "finished", "", "", 1.0, 1, "fp", {}, files=(result,))
    data = report.to_dict()
    assert data["pass_failures"] == 1
    assert data["files"][0]["pass_failures"] == saved["pass_failures"]
    assert "passes skipped where they raised" in report.render()
    entry = entry_for(result, "fp", "jsonl")
    assert Entry.from_dict(json.loads(json.dumps(entry.to_dict()))) == entry


def test_table_words_that_raises_on_a_page_leaves_only_that_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table rule runs page by page: a page whose tables it cannot read keeps them."""
    from citechunk.conversion.tables import table_words

    pdf = tmp_path / "tables.pdf"
    import pymupdf

    printed = [["Totals by year", "", *RAGGED_TABLE]] * 2  # the same ragged header on two pages
    doc = pymupdf.open()
    for lines in printed:
        page = doc.new_page()
        for i, line in enumerate(lines):
            if line:
                page.insert_text((72, 72 + 16 * i), line, fontsize=11, fontname="helv")
    doc.save(pdf)
    before, _ = _printed(pdf, printed)
    real = table_words._page

    def fails_on_page_2(number: int, text: str, *layers: Any) -> str:
        return real(number, text, *layers) if number != 2 else text.split("\n")[99]

    monkeypatch.setattr(table_words, "_page", fails_on_page_2)
    pages, ctx = _printed(pdf, printed)
    assert pages[1] == before[1] and "Field layout 2020" in pages[1]
    assert "| | 2020 |" in pages[2] and "Field layout 2020" not in pages[2]
    assert [(f.name, f.page) for f in ctx.failures] == [("table-words", 2)]


def _drop_last_page(pages: list[tuple[int, str]], ctx: Any) -> list[tuple[int, str]]:
    """A structure rule that loses a page without raising."""
    return pages[:-1]


def test_a_structure_pass_that_loses_a_page_is_a_failed_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = _pdf(tmp_path / "ragged.pdf")
    options = ConvertOptions(layout="never")
    before = convert(pdf, options).markdown
    extra = Pass("drop-last-page", "structure", _drop_last_page)
    monkeypatch.setattr(pipeline, "PASSES", (*pipeline.PASSES, extra))
    doc = convert(pdf, options)
    assert doc.markdown == before
    assert [(f.name, f.page, f.error.split(":")[0]) for f in doc.provenance.pass_failures] == [
        ("drop-last-page", 0, "ValueError")
    ]
