"""What a new user meets on PDFs from elsewhere (Arabic, Chinese, a word processor's bookmarks):
each test runs the real CLI (in a subprocess, or click's runner) on real PDFs and states what
the user is told.

The input: the three Arabic PDFs of ``shared/corpus/odd``, a born-digital Chinese exam of
``shared/eval/wide`` and a PDF built here whose outline holds a word processor's hidden
bookmarks. ``tests/data/nonlatin_questions.jsonl`` asks for Arabic and Chinese answers.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from citechunk.cli import main
from citechunk.export import doc_id
from citechunk.textkeys import compact_key
from conftest import REPO, SHARED_DIR
from test_new_user import cli

QUESTIONS = REPO / "tests" / "data" / "nonlatin_questions.jsonl"
ARABIC = (
    "015-arabic_habibi.pdf",
    "015-arabic_habibi-oneline-cmap.pdf",
    "015-arabic_habibi-rotated.pdf",
)
CHINESE = "pub_sysu_exam_numerical_methods_2011_born_digital.pdf"
BOOKMARKED = "hidden_bookmarks.pdf"
HIDDEN = ("_Toc482011", "_Ref1234", "_GoBack", "OLE_LINK5")


def hidden_bookmarks_pdf(path: Path) -> None:
    """Two pages of text whose outline holds two real headings and a word processor's hidden
    bookmarks (`HIDDEN`), none of which is a heading on its page."""
    import pymupdf

    doc = pymupdf.open()
    for title, text in (("Terms of Service", "You agree to these terms."), ("Fees", "None.")):
        page = doc.new_page()
        page.insert_text((72, 72), title, fontsize=20)
        page.insert_text((72, 110), text, fontsize=11)
    doc.set_toc(
        [[1, "Terms of Service", 1], [1, HIDDEN[0], 1], [1, HIDDEN[1], 1], [1, HIDDEN[2], 2]]
        + [[1, "Fees", 2], [1, HIDDEN[3], 2]]
    )
    doc.save(path)
    doc.close()


@dataclass(frozen=True)
class Run:
    """An ingest of the input folder: where, and what it printed (stdout, stderr)."""

    src: Path
    out: Path
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> Run:
    odd, wide = SHARED_DIR / "corpus" / "odd", SHARED_DIR / "eval" / "wide"
    if not (odd / ARABIC[0]).is_file() or not (wide / CHINESE).is_file():
        pytest.skip("shared/corpus/odd or shared/eval/wide not available")
    base = tmp_path_factory.mktemp("elsewhere")
    src, out = base / "in", base / "out"
    src.mkdir()
    for name in ARABIC:
        shutil.copy(odd / name, src / name)
    shutil.copy(wide / CHINESE, src / CHINESE)
    hidden_bookmarks_pdf(src / BOOKMARKED)
    run = cli("ingest", str(src), "--out", str(out), "--workers", "1")  # default verbosity
    assert run.returncode == 0, run.stderr
    return Run(src, out, run.stdout, run.stderr)


def rows(out: Path) -> dict[str, dict[str, object]]:
    report = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return {row["source_file"]: row for row in report["files"]}


# -- 1: eval scores Arabic and Chinese answers -------------------------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_eval_finds_the_arabic_and_chinese_answers(first: Run) -> None:
    run = cli("eval", str(QUESTIONS), "--chunks", str(first.out), "--json", "--by", "lang")
    assert run.returncode == 0, run.stderr
    summary, *groups = (json.loads(line) for line in run.stdout.splitlines())
    assert summary["questions"] == 7
    assert summary["answer_intact"] == 1.0  # every answer is whole in a chunk
    assert summary["found"] == 1.0 and summary["page_correct"] == 1.0
    assert {g["group"]: g["found"] for g in groups} == {"ar": 1.0, "zh": 1.0}


# -- 2: a warning printed once ----------------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_each_warning_is_printed_once_in_the_summary(first: Run) -> None:
    printed = first.stdout + first.stderr
    assert not [line for line in first.stderr.splitlines() if line.startswith("WARNING")]
    warned = {name for name, row in rows(first.out).items() if row["warnings"]}
    assert warned >= set(ARABIC)
    for name in warned:
        text = "; ".join(rows(first.out)[name]["warnings"])  # type: ignore[arg-type]
        said = [line for line in printed.splitlines() if f"{name}: " in line and text in line]
        assert said == [f"warning {name}: {text}"]  # once, in the summary on stdout
        (progress,) = [line for line in first.stderr.splitlines() if f"{name}: converted" in line]
        assert progress.endswith(", with warnings")


# -- 3: a rerun that changes nothing says so ---------------------------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_a_rerun_that_changes_nothing_says_so(first: Run) -> None:
    again = cli("ingest", str(first.src), "--out", str(first.out), "--workers", "1")
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    assert lines[0] == "citechunk ingest: nothing changed, 5 documents up to date"
    report = json.loads((first.out / "run.json").read_text(encoding="utf-8"))
    pages, chunks = report["pages"], report["chunks"]
    assert lines[1] == f"output as it stands: 5 documents, {pages} pages, {chunks} chunks"
    assert "0.00" not in again.stdout and "0 of 0" not in again.stdout


# -- 4: hidden bookmarks are not the author's outline ------------------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_hidden_bookmarks_are_neither_headings_nor_warnings(first: Run) -> None:
    assert not rows(first.out)[BOOKMARKED]["warnings"]
    (markdown,) = (first.out / "markdown").glob(f"{BOOKMARKED}-*.md")
    text = markdown.read_text(encoding="utf-8")
    assert "Terms of Service" in text and not any(name in text for name in HIDDEN)
    assert not any(name in first.stdout + first.stderr for name in HIDDEN)


# -- 6: a sample of one document ---------------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_inspect_samples_within_one_document(first: Run) -> None:
    args = ["inspect", str(first.out), "--doc", CHINESE, "--sample", "3", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    drawn = json.loads(result.output)
    assert len(drawn) == 3 and {c["source_file"] for c in drawn} == {CHINESE}
    refused = CliRunner().invoke(main, [*args[:5], "--chunk", "0"])
    assert refused.exit_code == 2


# -- 7 and 8: sync names its documents, query prints a path line once --------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_sync_dry_run_names_files_and_query_prints_each_path_once(
    first: Run, tmp_path: Path
) -> None:
    pytest.importorskip("lancedb")
    src, out = tmp_path / "in", tmp_path / "out"
    shutil.copytree(first.src, src)
    shutil.copytree(first.out, out)
    uri = f"lancedb:{tmp_path / 'lance'}"
    assert cli("sync", str(out), "--to", uri).returncode == 0
    query = cli("query", uri, "考试作弊不授予学士学位", "-k", "3")
    assert query.returncode == 0, query.stderr
    hits = re.split(r"^\d+\. ", query.stdout, flags=re.M)[1:]
    assert len(hits) == 3
    for hit in hits:  # "file, pages [distance]", "   § path line" (when any), "   body"
        lines = hit.splitlines()
        path = [compact_key(line[5:]) for line in lines if line.startswith("   § ")]
        body = compact_key(lines[-1])
        assert len(lines) == 2 + len(path) and not (path and body.startswith(path[0]))
    assert any("§" in hit for hit in hits)  # the exam's chunks have a heading path

    (src / ARABIC[0]).unlink()
    cli("ingest", str(src), "--out", str(out), "--workers", "1")
    dry = cli("sync", str(out), "--to", uri, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    gone = doc_id(ARABIC[0])
    (line,) = [line for line in dry.stdout.splitlines() if gone in line]
    assert re.fullmatch(rf"\+0 -1 {re.escape(ARABIC[0])}  {gone}", line)


# -- 9: the progress lines and the summary read well in a pipe -------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_progress_says_1_page_and_the_summary_is_narrow(first: Run, tmp_path: Path) -> None:
    assert re.search(rf"{re.escape(ARABIC[0])}: converted \(1 page, 1 chunk, ", first.stderr)
    assert "(1 pages" not in first.stderr and " 1 chunks" not in first.stderr
    pdf = first.src / ARABIC[0]
    verbose = cli("-v", "ingest", str(pdf), "--out", str(tmp_path / "out"))  # as `make demo`
    assert verbose.returncode == 0, verbose.stderr
    assert re.search(r"INFO \S+: \S+: converted \(1 page, 1 chunk, [\d.]+ s\)", verbose.stderr)
    assert not [line for line in verbose.stderr.splitlines() if line.startswith("WARNING")]
    table = [line for line in first.stdout.splitlines() if line[:1] in "┌│└"]
    assert table and max(map(len, table)) <= 90
    assert any(line.startswith("│ time by stage") for line in table)


# -- 10: review pages are light ----------------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.corpus
def test_review_pages_are_webp_under_40_kb_each(first: Run, tmp_path: Path) -> None:
    page = tmp_path / "review.html"
    run = cli("review", str(first.out), "--doc", CHINESE, "-o", str(page))
    assert run.returncode == 0, run.stderr
    html = page.read_text(encoding="utf-8")
    images = re.findall(r'src="data:image/(\w+);base64,([^"]+)"', html)
    assert [kind for kind, _ in images] == ["webp", "webp"]
    assert all(len(data) <= 40_000 for _, data in images)
