"""citechunk eval on a hand-made chunk set whose figures are worked out by hand below."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import citechunk
from citechunk.cli import main
from citechunk.config import EvalOptions
from citechunk.errors import ConfigError
from citechunk.evaluation import load_chunk_set
from citechunk.evaluation.data import ChunkSet
from citechunk.evaluation.metrics import MissCause
from citechunk.evaluation.misses import cause_counts, misses

pytest.importorskip("bm25s")

SHARED = Path(__file__).resolve().parents[2] / "shared"

# (document, text, first_page, last_page); token_count = 10 * (index + 1)
CHUNKS = [
    ("a.pdf", "Zebra migration\n\nThe **zebra** herd crosses the river<br>every spring.", 1, 1),
    (
        "a.pdf",
        "Lagoon survey\n\nNitrogen sampling in the lagoon began last year near the lagoon.",
        2,
        3,
    ),
    ("a.pdf", "Water quality\n\nThe lagoon stays at 2 metres deep.", 4, 4),
    ("a.pdf", "Staff\n\nThe team has four people.", 5, 5),
    ("b.pdf", "Rangers\n\nRangers patrol the station grounds.", 1, 1),
    ("b.pdf", "Dogs\n\nStation rangers employ dogs.", 1, 2),
    ("b.pdf", "Budget\n\nThe budget for 2020 was approved", 2, 2),
    ("b.pdf", "Budget\n\nin March by the council.", 3, 3),
    ("b.pdf", "River trips\n\nBoats leave from the river bank.", 3, 3),
]

# Every question's query words occur in exactly the chunks noted, so BM25's top 2 is fixed.
QUESTIONS = [
    # top {0, 8}: chunk 0 holds the answer at rank 1 (markup ignored), page 1 in [1, 1]
    {
        "id": "q1",
        "pdf": "a.pdf",
        "question": "When does the zebra herd cross the river?",
        "answer": "zebra herd crosses the river every spring",
        "page": 1,
    },
    # top {1, 2}: chunk 1 has nitrogen + lagoon x2, chunk 2 (the answer) lagoon: rank 2, page 5
    # not in [4, 4]
    {
        "id": "q2",
        "pdf": "a.pdf",
        "question": "What is the nitrogen level of the lagoon?",
        "answer": "The lagoon stays at 2 metres deep.",
        "page": 5,
        "kind": "deep",
    },
    # top {4, 5}; the answer chunk 3 shares no query word: intact but ranked low
    {
        "id": "q3",
        "pdf": "a.pdf",
        "question": "How many rangers does the station employ?",
        "answer": "The team has four people",
        "page": 5,
    },
    # top {6, 7}; the answer is split between chunks 6 and 7 (heading line in between)
    {
        "id": "q4",
        "pdf": "b.pdf",
        "question": "When was the 2020 budget approved?",
        "answer": "The budget for 2020 was approved in March",
        "page": 2,
    },
    # top {4, 5}; chunk 4 holds the answer but belongs to b.pdf, not a.pdf
    {
        "id": "q5",
        "pdf": "a.pdf",
        "question": "Who patrols the station grounds?",
        "answer": "Rangers patrol the station grounds",
        "page": 1,
    },
    # top {0, 8}; no chunk comes from missing.pdf
    {
        "id": "q6",
        "pdf": "missing.pdf",
        "question": "What about the river zebra herd?",
        "answer": "zebra herd",
        "page": 1,
    },
]
TOP2 = {"q1": {0, 8}, "q2": {1, 2}, "q3": {4, 5}, "q4": {6, 7}, "q5": {4, 5}, "q6": {0, 8}}


def records() -> list[dict[str, object]]:
    return [
        {
            "chunk_id": f"c{i}",
            "source_file": f"docs/{doc}",
            "text": text,
            "first_page": fp,
            "last_page": lp,
            "heading_path": [text.split("\n")[0]],
            "token_count": 10 * (i + 1),
            "chunk_index": i,
        }
        for i, (doc, text, fp, lp) in enumerate(CHUNKS)
    ]


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def questions_file(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "questions.jsonl", QUESTIONS)


@pytest.fixture(params=["jsonl", "parquet"])
def chunk_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param == "jsonl":
        return write_jsonl(tmp_path / "chunks.jsonl", records())
    path = tmp_path / "chunks.parquet"
    pq.write_table(pa.Table.from_pylist(records()), path)
    return path


def test_figures_match_hand_computation(questions_file: Path, chunk_file: Path) -> None:
    report = citechunk.evaluate(questions_file, chunk_file, EvalOptions(retriever="bm25", k=2))
    by_id = {r.question.id: r for r in report.results}
    assert {q: set(r.retrieved) for q, r in by_id.items()} == TOP2
    assert [r.rank for r in report.results] == [1, 2, None, None, None, None]
    assert [r.hit for r in report.results] == [0, 2, None, None, None, None]
    assert [r.page_correct for r in report.results] == [True, False, False, False, False, False]
    assert [r.intact for r in report.results] == [True, True, True, False, False, False]
    assert report.found == pytest.approx(2 / 6)
    assert report.page_correct == pytest.approx(1 / 6)
    assert report.mrr == pytest.approx((1 + 1 / 2) / 6)
    assert report.answer_intact == pytest.approx(3 / 6)
    assert report.mean_chunk_tokens == pytest.approx(sum(10 * (i + 1) for i in range(9)) / 9)
    context = sum(sum(10 * (i + 1) for i in top) for top in TOP2.values())
    assert report.mean_context_tokens == pytest.approx(context / 6)
    assert (report.documents_asked, report.documents_covered) == (3, 2)
    assert by_id["q2"].question.extra == {"id": "q2", "kind": "deep"}


def test_miss_reasons(questions_file: Path, chunk_file: Path) -> None:
    report = citechunk.evaluate(questions_file, chunk_file, EvalOptions(k=2))
    reasons = {r.question.id: r.reason for r in report.results}
    causes = {r.question.id: r.cause for r in report.results}
    assert causes["q1"] is None and reasons["q1"] == ""
    assert causes["q2"] is MissCause.WRONG_PAGE and reasons["q2"] == "wrong page"
    assert causes["q3"] is MissCause.RANKED_LOW and reasons["q3"].startswith("ranked low (rank ")
    q3 = next(r for r in report.results if r.question.id == "q3")
    assert q3.answer_rank is not None and q3.answer_rank > 2
    assert (causes["q4"], causes["q5"], causes["q6"]) == (
        MissCause.NOT_INTACT,
        MissCause.NOT_INTACT,
        MissCause.NO_DOCUMENT,
    )
    assert [r.question.id for r in misses(report)] == ["q2", "q3", "q4", "q5", "q6"]
    counts = cause_counts(misses(report))
    assert dict(counts.counts) == {
        MissCause.WRONG_PAGE: 1,
        MissCause.RANKED_LOW: 1,
        MissCause.NOT_INTACT: 2,
        MissCause.NO_DOCUMENT: 1,
    }
    assert str(counts) == "not intact 2, wrong page 1, ranked low 1, document has no chunks 1"


def test_miss_reasons_with_document_texts(chunk_file: Path) -> None:
    base = load_chunk_set(chunk_file)
    texts = {
        "a.pdf": "\n\n".join(t for d, t, _, _ in CHUNKS if d == "a.pdf"),
        "b.pdf": "Budget\n\nThe budget for 2020 was approved\nin March by the council.",
    }
    chunk_set = ChunkSet(base.chunks, texts)
    report = citechunk.evaluate(QUESTIONS, chunk_set, EvalOptions(k=2))
    causes = {r.question.id: r.cause for r in report.results}
    assert (causes["q4"], causes["q5"]) == (MissCause.BOUNDARY, MissCause.EXTRACTION)


def test_k_larger_than_chunk_set(questions_file: Path, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "one.jsonl", records()[:1])
    report = citechunk.evaluate(questions_file, path, EvalOptions(k=5))
    assert all(r.retrieved == (0,) for r in report.results)
    assert report.found == pytest.approx(1 / 6)


def test_bad_inputs_raise_config_error(tmp_path: Path, chunk_file: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"pdf": "a.pdf", "question": "q"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="lacks answer, page"):
        citechunk.evaluate(bad, chunk_file)
    with pytest.raises(ConfigError, match="no questions"):
        citechunk.evaluate([], chunk_file)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="no chunk records"):
        citechunk.evaluate(QUESTIONS, tmp_path / "empty")


@pytest.mark.corpus
def test_agrees_with_reference_script(questions_file: Path, tmp_path: Path) -> None:
    script = SHARED / "eval" / "check_retrieval.py"
    if not script.is_file():
        pytest.skip("shared/eval/check_retrieval.py not available")
    path = write_jsonl(tmp_path / "chunks.jsonl", records())
    proc = subprocess.run(
        [
            sys.executable,
            str(script),
            "--questions",
            str(questions_file),
            "--chunks",
            str(path),
            "--k",
            "2",
            "--retriever",
            "bm25",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    ref = json.loads(proc.stdout.strip().splitlines()[-1])
    ours = citechunk.evaluate(questions_file, path, EvalOptions(k=2)).summary()
    assert (ours["found"], ours["page_correct"], ours["answer_intact"]) == (
        ref["recall"],
        ref["page_correct"],
        ref["answer_intact"],
    )


def test_cli_summary_and_misses(questions_file: Path, chunk_file: Path) -> None:
    result = CliRunner().invoke(
        main, ["eval", str(questions_file), "--chunks", str(chunk_file), "--k", "2", "--misses"]
    )
    assert result.exit_code == 0, result.output
    assert "0.333" in result.output and "0.250" in result.output  # found@2, MRR
    assert "q3" in result.output and "ranked low" in result.output
    assert "retrieved #1" in result.output
    assert "causes: not intact 2, wrong page 1, ranked low 1, document has no chunks 1" in (
        result.output
    )


def test_cli_json(questions_file: Path, chunk_file: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "eval",
            str(questions_file),
            "--chunks",
            str(chunk_file),
            "--k",
            "2",
            "--json",
            "--misses",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["found"] == round(2 / 6, 4) and lines[0]["mrr"] == 0.25
    misses = {m["id"]: m for m in lines[1:]}
    assert set(misses) == {"q2", "q3", "q4", "q5", "q6"}  # q2: found, wrong page
    assert misses["q5"]["chunk"]["document"] == "b.pdf"


def test_cli_bad_questions_exit_2(tmp_path: Path, chunk_file: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["eval", str(bad), "--chunks", str(chunk_file)])
    assert result.exit_code == 2
    assert "not JSON" in result.output


def test_breakdown_by_question_field(questions_file: Path, chunk_file: Path) -> None:
    report = citechunk.evaluate(questions_file, chunk_file, EvalOptions(k=2))
    kinds = {g.group: g for g in report.breakdown("kind")}
    assert set(kinds) == {"-", "deep"}
    assert (kinds["deep"].questions, kinds["deep"].found, kinds["deep"].page_correct) == (1, 1, 0)
    assert kinds["deep"].mrr == pytest.approx(1 / 2)
    assert (kinds["-"].questions, kinds["-"].found, kinds["-"].mrr) == (
        5,
        pytest.approx(1 / 5),
        1 / 5,
    )
    pdfs = {g.group: (g.questions, g.found) for g in report.breakdown("pdf")}
    assert pdfs == {"a.pdf": (4, 0.5), "b.pdf": (1, 0), "missing.pdf": (1, 0)}
    args = ["eval", str(questions_file), "--chunks", str(chunk_file), "--k", "2", "--by", "kind"]
    table = CliRunner().invoke(main, args)
    assert table.exit_code == 0 and "By kind" in table.output and "deep" in table.output
    lines = CliRunner().invoke(main, [*args, "--json"]).stdout.splitlines()
    groups = [json.loads(line) for line in lines[1:]]
    assert [(g["group"], g["questions"]) for g in groups] == [("-", 5), ("deep", 1)]


@pytest.mark.heavy
def test_chunk_command_output_feeds_eval(tmp_path: Path, sample_pdfs: Path) -> None:
    """`convert -o` then `chunk -o` give records `eval` reads: the provenance names the PDF."""
    md = tmp_path / "report_outline.md"
    chunks = tmp_path / "chunks.jsonl"
    runner = CliRunner()
    pdf = str(sample_pdfs / "report_outline.pdf")
    assert runner.invoke(main, ["convert", pdf, "-o", str(md)]).exit_code == 0
    result = runner.invoke(main, ["chunk", str(md), "-o", str(chunks)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in chunks.read_text(encoding="utf-8").splitlines()]
    assert {(r["source_file"], r["markdown_file"], r["backend"]) for r in records} == {
        ("report_outline.pdf", "report_outline.md", "pymupdf")
    }
    assert all(len(r["source_sha256"]) == 64 and r["chunk_id"] for r in records)
    question = {
        "pdf": "report_outline.pdf",
        "question": "How many banks held the cash and cash equivalents?",
        "answer": "Cash and cash equivalents of EUR 412 million were held with eleven banks",
        "page": 2,
    }
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps(question) + "\n", encoding="utf-8")
    result = runner.invoke(main, ["eval", str(questions), "--chunks", str(chunks), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.splitlines()[0])
    assert summary["found"] == 1.0 and summary["page_correct"] == 1.0
