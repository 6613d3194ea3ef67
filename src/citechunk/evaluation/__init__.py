"""Evaluate stage: how well does a chunk set answer questions, and cite the right page?

`evaluate(questions, chunks, options)` retrieves over the whole chunk set with BM25 (plain or
stemmed), a local embedding model or their hybrid, top-k or within a token budget, and returns an `EvalReport` (found@k, page-correct, MRR, answer-intact, token
sizes, per-question results with the reason of each miss). `compare(...)` re-chunks the
Markdown of an ingest output with several configurations and evaluates each. Definitions are in
`metrics`; answer matching in `match` (identical to ``shared/eval/check_retrieval.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from ..config import EvalOptions
from ..errors import ConfigError
from .data import ChunkSet, EvalChunk, Question, load_chunk_set, load_questions
from .metrics import EvalReport, QuestionResult, score
from .retrieval import Retriever, make_retriever

__all__ = [
    "evaluate",
    "EvalReport",
    "QuestionResult",
    "Question",
    "ChunkSet",
    "EvalChunk",
    "load_questions",
    "load_chunk_set",
    "make_retriever",
]

QuestionsArg = str | os.PathLike[str] | Iterable[Mapping[str, Any]] | Iterable[Question]


def _questions(source: QuestionsArg) -> list[Question]:
    if isinstance(source, str | os.PathLike):
        qs = load_questions(source)
    else:
        items = list(source)
        qs = [q for q in items if isinstance(q, Question)]
        qs += load_questions(q for q in items if isinstance(q, Mapping))
    if not qs:
        raise ConfigError("no questions to evaluate")
    return qs


def evaluate(
    questions: QuestionsArg,
    chunks: str | os.PathLike[str] | ChunkSet,
    options: EvalOptions | None = None,
    *,
    retriever: Retriever | None = None,
    label: str = "",
) -> EvalReport:
    """Evaluate a chunk set against questions.

    `questions`: a JSONL path, or dicts / `Question`s. `chunks`: an ingest OUT folder, a folder
    or file of chunk records, or a `ChunkSet`. `options` picks the retriever ("bm25",
    "bm25-stem", "embedding" or "hybrid"), `k`, the token `budget` and the local model folder; pass `retriever` to reuse a loaded one.
    Raises ConfigError for unreadable inputs or a missing optional dependency.
    """
    options = options or EvalOptions()
    qs = _questions(questions)
    chunk_set = chunks if isinstance(chunks, ChunkSet) else load_chunk_set(chunks)
    r = retriever or make_retriever(options.retriever, options.model_path)
    index = r.index([c.text for c in chunk_set.chunks])
    return score(
        qs, chunk_set, index, k=options.k, retriever=r.name, label=label, budget=options.budget
    )
