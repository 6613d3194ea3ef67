"""The ordered pass list: documented as it runs, switchable by name, logged per pass."""

from __future__ import annotations

import dataclasses
import logging
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.outline import OutlineEntry
from citechunk.conversion.passcontext import PassContext
from citechunk.conversion.pipeline import PASSES, pass_table, run_passes
from citechunk.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def test_architecture_doc_shows_the_pass_list_as_it_runs() -> None:
    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- passes -->\n(.*?)\n<!-- /passes -->", doc, re.S)
    assert m, "docs/architecture.md lacks the <!-- passes --> block"
    assert m.group(1) == pass_table(), "regenerate the block with `citechunk passes`"


def test_pass_names_are_unique_and_options_are_boolean_convert_options() -> None:
    names = [p.name for p in PASSES]
    assert len(names) == len(set(names))
    fields = {f.name: f.type for f in dataclasses.fields(ConvertOptions)}
    for p in PASSES:
        assert not p.option or fields[p.option] in (bool, "bool"), p
    phases = [p.phase for p in PASSES]
    assert phases == sorted(phases, key=["page", "document", "structure"].index)


def test_outline_decides_between_outline_and_numbering_passes() -> None:
    pages = [(1, "## 1 Intro\n\nt\n\n## 1.1 Scope\n\nt\n\n## 1.2 Terms\n\nt\n\n## 2 Use\n\nt")]
    opts = ConvertOptions()
    by_numbers = run_passes(pages, PassContext(opts))
    assert "# 1 Intro" in by_numbers[0][1] and "## 1.1 Scope" in by_numbers[0][1]
    outline = (OutlineEntry(1, "Intro", 1), OutlineEntry(1, "Scope", 1))
    ctx = PassContext(opts, outline=outline)
    by_outline = run_passes(pages, ctx)
    assert "# 1 Intro" in by_outline[0][1] and "# 1.1 Scope" in by_outline[0][1]
    assert ctx.warnings == []
    ctx = PassContext(opts, outline=(*outline, OutlineEntry(1, "Nowhere", 1)))
    run_passes(pages, ctx)
    assert ctx.warnings == ["outline entries not found on their pages: 1 ('Nowhere')"]


def test_skip_passes_leaves_that_rule_out() -> None:
    pages = [(1, "# **Bold title**\n\ntext")]
    assert run_passes(pages, PassContext(ConvertOptions()))[0][1].startswith("# Bold title")
    kept = run_passes(pages, PassContext(ConvertOptions(skip_passes=("tidy",))))
    assert kept[0][1].startswith("# **Bold title**")
    with pytest.raises(ConfigError, match="unknown pass nope"):
        run_passes(pages, PassContext(ConvertOptions(skip_passes=("nope",))))


def test_each_pass_that_changes_pages_logs_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    pages = [(1, "# **Bold title**\n\nfirst"), (2, "second")]
    with caplog.at_level(logging.DEBUG, logger="citechunk.conversion.pipeline"):
        run_passes(pages, PassContext(ConvertOptions(), source="x.pdf"))
    messages = [r.getMessage() for r in caplog.records]
    assert "x.pdf: pass tidy changed 1 pages, 1 lines" in messages
    assert not any("pass page-hyphens" in m for m in messages)


@pytest.mark.heavy
def test_cli_no_pass_and_passes_command(sample_pdfs: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["passes"])
    assert listed.exit_code == 0 and all(f"`{p.name}`" in listed.output for p in PASSES)
    pdf = str(sample_pdfs / "report_outline.pdf")
    bad = runner.invoke(main, ["convert", pdf, "--no-pass", "nope"])
    assert bad.exit_code == 2 and "unknown pass nope" in bad.output
    full = runner.invoke(main, ["convert", pdf])
    raw = runner.invoke(main, ["convert", pdf, "--no-pass", "tidy", "--no-pass", "outline"])
    assert full.exit_code == raw.exit_code == 0
    assert raw.output != full.output


@pytest.mark.heavy
def test_both_backends_record_the_same_provenance_fields(sample_pdfs: Path) -> None:
    pytest.importorskip("docling")
    pdf = sample_pdfs / "report_outline.pdf"
    a = convert(pdf, ConvertOptions(password="x", pages="1")).provenance
    b = convert(pdf, ConvertOptions(backend="docling", password="x", pages="1")).provenance
    assert set(a.options) - {"layout_active", "layout_device"} == set(b.options)
    assert a.options["password_given"] is b.options["password_given"] is True
    assert "password" not in a.options and "password" not in b.options
