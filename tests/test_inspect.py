"""`inspect` / `show_chunk` and the `citechunk inspect` command on an OUT folder built in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.conversion import save
from citechunk.errors import ConfigError
from citechunk.export import (
    chunks_path,
    make_records,
    markdown_path,
    markdown_relpath,
    write_chunks,
)
from citechunk.export.inspect import (
    document_chunks,
    inspect,
    nearest_rank,
    sample_chunks,
    show_chunk,
)
from citechunk.markers import render_pages
from citechunk.models import Chunk, ConvertedDocument, Provenance

pytestmark = pytest.mark.heavy

# (page, heading path, body, token_count) per section; page 3 of "guide.pdf" has no chunk.
GUIDE = [
    (1, ("Guide",), "# Guide\n\nHow to cite pages.", 7),
    (2, ("Guide", "Setup"), "## Setup\n\nInstall it first, then run it.", 40),
    (4, (), "An appendix paragraph without any heading.", 3),
]
NOTES = [
    (1, ("Notes",), "# Notes\n\nShort.", 12),
    (2, ("Notes",), "More notes on the `[retry]` table.", 25),
]


def write_document(out: Path, source_file: str, sections, page_count: int, fmt: str) -> str:
    """Save page-marked Markdown + provenance + chunk file the way `ingest` lays them out."""
    pages: dict[int, list[str]] = {p: [] for p in range(1, page_count + 1)}
    for page, _, body, _ in sections:
        pages[page].append(body)
    markdown = render_pages((p, "\n\n".join(parts)) for p, parts in sorted(pages.items()))
    chunks, cursor = [], 0
    for i, (page, path, body, tokens) in enumerate(sections):
        start = markdown.index(body, cursor)
        cursor = start + len(body)
        text = " > ".join(path) + "\n\n" + body if path else body
        chunks.append(Chunk(i, text, body, path, page, page, start, cursor, tokens))
    no_text = tuple(p for p, parts in pages.items() if not parts)
    prov = Provenance(
        source_file,
        "0" * 64,
        "pymupdf",
        "2.0",
        page_count,
        tuple(pages),
        pages_without_text=no_text,
    )
    save(ConvertedDocument(markdown, prov), markdown_path(out, source_file))
    records = make_records(
        chunks,
        source_file=source_file,
        source_sha256="0" * 64,
        markdown_file=markdown_relpath(source_file),
        tokenizer="approx",
        backend="pymupdf",
        config_fingerprint="f" * 16,
    )
    write_chunks(records, chunks_path(out, source_file, fmt), fmt, {})  # type: ignore[arg-type]
    return markdown


@pytest.fixture(params=["parquet", "jsonl"])
def out(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    root = tmp_path / "out"
    write_document(root, "manuals/guide.pdf", GUIDE, 4, request.param)
    write_document(root, "notes.pdf", NOTES, 2, request.param)
    return root


def test_inspect_summarises_the_dataset(out: Path) -> None:
    report = inspect(out, top=2)
    assert [d.source_file for d in report.documents] == ["manuals/guide.pdf", "notes.pdf"]
    assert report.chunks == 5
    assert report.tokens is not None
    assert (report.tokens.min, report.tokens.median, report.tokens.p90, report.tokens.max) == (
        3,
        12,
        40,
        40,
    )
    assert [(c.source_file, c.token_count) for c in report.smallest] == [
        ("manuals/guide.pdf", 3),
        ("manuals/guide.pdf", 7),
    ]
    assert [c.token_count for c in report.largest] == [40, 25]
    assert report.empty_heading_count == 1 and report.empty_heading[0].chunk_index == 2
    guide = report.documents[0]
    assert (guide.page_count, guide.pages_without_chunk, guide.pages_without_text) == (
        4,
        (3,),
        (3,),
    )
    assert report.documents[1].pages_without_chunk == ()


def test_show_chunk_returns_the_cited_markdown_span(out: Path) -> None:
    view = show_chunk(out, "guide.pdf", 1)
    assert view.record.heading_path == ("Guide", "Setup")
    assert view.markdown_span is not None
    assert view.markdown_span.strip() == "## Setup\n\nInstall it first, then run it."
    assert view.problems == ()
    assert view.record.citation == "manuals/guide.pdf, p. 2, § Guide > Setup"
    assert show_chunk(out, view.record.doc_id, 0).record.chunk_index == 0


def test_show_chunk_reports_a_broken_citation(out: Path) -> None:
    md = markdown_path(out, "notes.pdf")
    md.write_text(md.read_text(encoding="utf-8").replace("Short.", "Long!!"), encoding="utf-8")
    assert show_chunk(out, "notes.pdf", 0).problems


def test_document_lookup_errors(out: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no document 'missing.pdf'"):
        show_chunk(out, "missing.pdf", 0)
    with pytest.raises(ConfigError, match="ambiguous"):
        document_chunks(out, ".pdf")
    with pytest.raises(ConfigError, match="has 2 chunks"):
        show_chunk(out, "notes", 2)
    with pytest.raises(ConfigError, match="no such output folder"):
        inspect(tmp_path / "nope")
    with pytest.raises(ConfigError, match="not a citechunk output folder"):
        inspect(tmp_path)


def test_cli_inspect_overview_and_chunk(out: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["inspect", str(out)])
    assert result.exit_code == 0, result.output
    for expected in ("manuals/guide.pdf", "Largest chunks", "3 / 12 / 40 / 40", "3*"):
        assert expected in result.output
    result = runner.invoke(main, ["inspect", str(out), "--doc", "guide.pdf", "--chunk", "1"])
    assert result.exit_code == 0, result.output
    assert "Install it first" in result.output and "Guide > Setup" in result.output
    result = runner.invoke(main, ["inspect", str(out), "--doc", "notes.pdf"])
    assert result.exit_code == 0 and "`[retry]`" in result.output  # not eaten as rich markup


def test_cli_inspect_to_a_pipe_cuts_nothing(tmp_path: Path) -> None:
    """Not a terminal (CliRunner): file names, heading paths and text print whole, one row a
    line, however wide."""
    name = "regional_transport_authority/annual_reports/" + "fiscal_year_2024_" * 5 + "final.pdf"
    heading = ("Appendix C: Detailed statement of capital expenditure by programme and region",)
    sentence = "Capital expenditure rose in every region except the north. " * 4
    out = tmp_path / "out"
    write_document(out, name, [(1, heading, sentence.strip(), 9), (2, (), "Short.", 2)], 2, "jsonl")
    runner = CliRunner()
    overview = runner.invoke(main, ["inspect", str(out)])
    listing = runner.invoke(main, ["inspect", str(out), "--doc", "final.pdf"])
    chunk = runner.invoke(main, ["inspect", str(out), "--doc", "final.pdf", "--chunk", "0"])
    for result in (overview, listing, chunk):
        assert result.exit_code == 0, result.output
        assert any(name in line for line in result.output.splitlines()), result.output
    assert any(heading[0] in line for line in listing.output.splitlines())
    assert any(sentence.strip() in line for line in chunk.output.splitlines())
    assert max(len(line) for line in chunk.output.splitlines()) > 200


def test_cli_inspect_json(out: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["inspect", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [d["chunks"] for d in report["documents"]] == [3, 2]
    assert report["tokens"]["max"] == 40
    result = runner.invoke(main, ["inspect", str(out), "--json", "--doc", "notes", "--chunk", "1"])
    view = json.loads(result.output)
    assert view["citation"] == "notes.pdf, p. 2, § Notes"
    assert view["record"]["heading_path"] == ["Notes"] and view["problems"] == []
    assert view["markdown_span"].strip() == "More notes on the `[retry]` table."


def test_cli_inspect_exit_codes(out: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["inspect", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such output folder" in missing.output
    unknown = runner.invoke(main, ["inspect", str(out), "--doc", "zzz.pdf", "--chunk", "0"])
    assert unknown.exit_code == 2 and "no document 'zzz.pdf'" in unknown.output
    no_doc = runner.invoke(main, ["inspect", str(out), "--chunk", "0"])
    assert no_doc.exit_code == 2 and "--chunk needs --doc" in no_doc.output
    broken = next((out / "chunks").glob("notes*"))
    broken.write_bytes(b"\xff\xfe not a chunk file")
    corrupt = runner.invoke(main, ["inspect", str(out)])
    assert corrupt.exit_code == 1, corrupt.output
    assert "Error:" in corrupt.output and broken.name in corrupt.output


def test_document_without_chunks_is_listed_with_its_pages(out: Path) -> None:
    fmt = next((out / "chunks").iterdir()).suffix.lstrip(".")
    write_document(out, "scans/blank.pdf", [], 2, fmt)
    report = inspect(out)
    blank = next(d for d in report.documents if d.source_file == "scans/blank.pdf")
    assert (blank.chunks, blank.page_count, blank.pages_without_chunk) == (0, 2, (1, 2))
    assert blank.pages_without_text == (1, 2)
    assert report.pages_without_chunk == 3
    assert document_chunks(out, "blank.pdf") == ("scans/blank.pdf", ())
    with pytest.raises(ConfigError, match="has 0 chunks"):
        show_chunk(out, "scans/blank.pdf", 0)


def test_nearest_rank_percentiles() -> None:
    values = list(range(1, 11))
    assert [nearest_rank(values, q) for q in (0.1, 0.5, 0.9, 1.0)] == [1, 5, 9, 10]
    assert nearest_rank([7], 0.9) == 7


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory, sample_pdfs: Path) -> Path:
    """The sample PDFs through the real pipeline (converter, chunker, runner, export)."""
    from citechunk import ingest, load_config

    out = tmp_path_factory.mktemp("ingested") / "out"
    report = ingest(sample_pdfs, out, load_config(None, {"run": {"workers": 2}}))
    assert report.ok
    return out


def test_inspect_on_ingested_samples(ingested: Path, sample_expected: dict) -> None:
    report = inspect(ingested)
    pages = {d.source_file: d.page_count for d in report.documents}
    assert pages == {name: entry["page_count"] for name, entry in sample_expected.items()}
    assert report.pages_without_chunk == 0
    assert report.tokens is not None and report.tokens.max <= 512
    for d in report.documents:
        for n in range(d.chunks):
            view = show_chunk(ingested, d.source_file, n)
            assert view.problems == (), (d.source_file, n, view.problems)


def test_demo_command_shows_a_cited_chunk(ingested: Path) -> None:
    result = CliRunner().invoke(
        main, ["inspect", str(ingested), "--doc", "report_outline.pdf", "--chunk", "1"]
    )  # the Makefile's `make demo` command
    assert result.exit_code == 0, result.output
    assert "Currency Exposure Review > Hedging policy" in result.output
    assert "report_outline.pdf, p." in result.output and "Markdown span" in result.output
    assert "Citation problem" not in result.output


def test_word_coverage_is_shown_per_document_and_recorded_in_the_run_report(
    ingested: Path,
) -> None:
    report = inspect(ingested)
    coverage = {d.source_file: d.word_coverage for d in report.documents}
    assert all(c is not None and 0.99 <= c <= 1.0 for c in coverage.values()), coverage
    result = CliRunner().invoke(main, ["inspect", str(ingested)])
    assert result.exit_code == 0, result.output
    assert "coverage" in result.output and "restored" in result.output
    assert f"{coverage['report_outline.pdf']:.3f}" in result.output
    run = json.loads((ingested / "run.json").read_text(encoding="utf-8"))
    assert {f["source_file"]: f["word_coverage"] for f in run["files"]} == coverage


def test_sample_draws_whole_chunks_across_documents(out: Path) -> None:
    everything = sample_chunks(out, 100)
    assert [(c.source_file, c.chunk_index) for c in everything] == [
        ("manuals/guide.pdf", 0), ("manuals/guide.pdf", 1), ("manuals/guide.pdf", 2),
        ("notes.pdf", 0), ("notes.pdf", 1),
    ]  # fmt: skip
    setup = everything[1]
    assert (setup.path_line, setup.body) == ("Guide > Setup", GUIDE[1][2])
    assert (setup.pages, setup.document_chunks, setup.token_count) == ("p. 2", 3, 40)
    assert (everything[2].path_line, everything[2].body) == ("", GUIDE[2][2])
    two = sample_chunks(out, 2, seed=7)
    assert len(two) == 2 and two == sample_chunks(out, 2, seed=7)
    seeds = {
        tuple((c.source_file, c.chunk_index) for c in sample_chunks(out, 2, s)) for s in range(8)
    }
    assert len(seeds) > 1  # the seed chooses


def test_cli_inspect_sample_prints_path_line_pages_and_body(out: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["inspect", str(out), "--sample", "5", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "== manuals/guide.pdf #1 (0-2), p. 2, 40 tokens\npath: Guide > Setup\n" in result.output
    assert "## Setup\n\nInstall it first, then run it.\n" in result.output
    as_json = runner.invoke(main, ["inspect", str(out), "--sample", "1", "--json"])
    assert len(json.loads(as_json.output)) == 1
    mixed = runner.invoke(main, ["inspect", str(out), "--sample", "1", "--chunk", "0"])
    assert mixed.exit_code == 2
