"""`citechunk eval --compare` on the real ingest output of sample_pdfs/."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import citechunk
from citechunk.cli import main
from citechunk.config import ChunkOptions, Config, EvalOptions
from citechunk.evaluation import load_questions
from citechunk.evaluation.compare import compare

pytestmark = pytest.mark.heavy

pytest.importorskip("bm25s")

# Verbatim sentences of the sample PDFs (see sample_pdfs/make_samples.py) and their pages.
QUESTIONS = [
    {
        "id": "refund",
        "pdf": "refund_policy.pdf",
        "page": 1,
        "question": "How long until a card refund shows up on my statement?",
        "answer": "card refunds take three to five working days to appear on your statement",
    },
    {
        "id": "lift",
        "pdf": "relocation_memo.pdf",
        "page": 1,
        "question": "When are the crates of the first wave collected?",
        "answer": "crates for the first wave will be collected on 9 January",
    },
    {
        "id": "hedged",
        "pdf": "report_outline.pdf",
        "page": 1,
        "question": "What share of forecast currency exposures was hedged?",
        "answer": "Forecast exposures for the next twelve months were 78% hedged",
    },
    {
        "id": "counterparty",
        "pdf": "report_outline.pdf",
        "page": 2,
        "question": "How much of the notional did the largest single bank hold?",
        "answer": "The largest single counterparty held 21% of the outstanding notional",
    },
    {
        "id": "author",
        "pdf": "incident_review.pdf",
        "page": 1,
        "question": "Who writes the postmortem?",
        "answer": "It is written by the incident commander or by an engineer they nominate",
    },
]


@pytest.fixture(scope="module")
def sample_out(sample_pdfs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("eval") / "out"
    report = citechunk.ingest(sample_pdfs, out)
    assert report.state == "finished"
    return out


@pytest.fixture(scope="module")
def questions_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("q") / "questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


def test_compare_rows(sample_out: Path, questions_file: Path) -> None:
    report = compare(load_questions(questions_file), sample_out, Config(), ["bm25"])
    names = [row.name for row in report.rows]
    assert names == [
        "as ingested (OUT/chunks)",
        "fixed 254 (overlap 31)",
        "heading 63",
        "heading 127",
        "heading 254 (config)",
        "heading 254 merged 127",
    ]
    by_name = {row.name: row.reports[0] for row in report.rows}
    ingested, same = by_name["as ingested (OUT/chunks)"], by_name["heading 254 (config)"]
    # re-chunking OUT/markdown with the configuration used at ingest gives the ingested chunks
    assert [c.text for c in same.chunk_set.chunks] == [c.text for c in ingested.chunk_set.chunks]
    assert same.summary() | {"label": ""} == ingested.summary() | {"label": ""}
    assert all(c.heading_path == () for c in by_name["fixed 254 (overlap 31)"].chunk_set.chunks)
    for name in ("heading 63", "heading 127", "heading 254 (config)", "heading 254 merged 127"):
        assert by_name[name].answer_intact == 1.0, name
        assert by_name[name].found >= (0.8 if name == "heading 63" else 1.0), name
    sizes = [by_name[n].mean_chunk_tokens for n in names[2:5]]
    assert sizes == sorted(sizes)
    merged = by_name["heading 254 merged 127"]
    assert len(merged.chunk_set.chunks) < len(same.chunk_set.chunks)  # small siblings joined
    merged_config = dataclasses.replace(Config(), chunk=ChunkOptions(min_tokens=100))
    report = compare(load_questions(questions_file), sample_out, merged_config, ["bm25"])
    assert not any("merged" in row.name for row in report.rows)  # the config row merges


def test_cli_compare_table(sample_out: Path, questions_file: Path) -> None:
    args = ["eval", str(questions_file), "--chunks", str(sample_out), "--compare"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    for row in (
        "as ingested",
        "fixed 254 (overlap 31)",
        "heading 63",
        "heading 254 (config)",
        "merged 127",
    ):
        assert row in result.stdout
    assert "bm25 found@5" in result.stdout


def test_eval_ingest_output_finds_sample_answers(sample_out: Path) -> None:
    report = citechunk.evaluate(QUESTIONS, sample_out, EvalOptions(k=3))
    assert report.found == 1.0 and report.page_correct == 1.0
    assert report.token_source == "token_count"
    assert set(report.chunk_set.documents) == {q["pdf"] for q in QUESTIONS} | {
        "retry_settings.pdf",
        "printed_spec.pdf",
    }


def test_compare_at_a_token_budget(sample_out: Path, questions_file: Path) -> None:
    """Every row is cut by the same budget in characters/4, and the table says so."""
    config = dataclasses.replace(Config(), eval=EvalOptions(budget=200))
    report = compare(load_questions(questions_file), sample_out, config, ["bm25", "bm25-stem"])
    assert report.budget == 200 and report.retrievers == ("bm25", "bm25-stem")
    for row in report.rows:
        for rep in row.reports:
            assert rep.budget == 200 and rep.token_source == "chars/4"
            tokens = [len(c.text) / 4 for c in rep.chunk_set.chunks]
            for r in rep.results:
                sent = [tokens[i] for i in r.retrieved]
                assert sent and (len(sent) == 1 or sum(sent) <= 200)
    args = ["eval", str(questions_file), "--chunks", str(sample_out), "--compare"]
    result = CliRunner().invoke(main, [*args, "--budget", "200", "--retriever", "bm25-stem"])
    assert result.exit_code == 0, result.output
    assert "bm25-stem found@200 tok" in result.stdout and "found@5" not in result.stdout
