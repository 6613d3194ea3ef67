"""Scoring retrieved chunks against questions with verbatim answers and gold pages.

Definitions (shared with ``shared/eval/check_retrieval.py``):

* found@k: some top-k chunk (over the whole chunk set) comes from the question's document and
  contains the whole answer (`match.contains`).
* page-correct: the first such chunk's ``[first_page, last_page]`` holds the gold page.
* MRR@k: mean of 1/rank of that first chunk (0 when not found in the top k).
* answer-intact: some chunk of the document contains the answer at all, whatever its rank:
  the ceiling the chunking allows.
* budget (instead of top-k, when `budget` > 0): a question's context is its ranked chunks taken
  while their tokens fit in `budget`, at least one (`within_budget`); tokens are len(text)/4 for
  every chunk set, so a chunk set does not win by sending more text. found / page-correct / MRR
  then count within that context; ranking goes max(k, `BUDGET_DEPTH`) deep.
* tokens: a chunk's ``token_count`` when every chunk has one, else len(text)/4 (always
  len(text)/4 under a budget); the context of a question is the sum over its retrieved chunks.
* answer-visible (dense retrievers only): some chunk holds the answer inside the part of its
  text the model reads (MiniLM truncates at 256 word pieces); the ceiling for that model.

A miss (not found, or found on a wrong page) gets a `MissCause`: the answer chunk ranked below
k (with its rank), the answer split by a chunk boundary (intact in the document text but in no
chunk), lost in extraction (not in the document text either), "not intact" when the document
text is unknown, no chunks for the document at all, or found on the wrong page. A dense
retriever's ranked-low miss whose answer chunk holds the answer only past the model's window
has `past_window` set. `QuestionResult.reason` is the human wording of both.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .data import ChunkSet, EvalChunk, Question
from .match import contains_normalized, normalized
from .retrieval import Index


class MissCause(enum.Enum):
    """Why a question missed; the value is the wording reports use."""

    RANKED_LOW = "ranked low"
    BOUNDARY = "split by chunk boundary"
    EXTRACTION = "lost in extraction"
    NOT_INTACT = "not intact"
    NO_DOCUMENT = "document has no chunks"
    WRONG_PAGE = "wrong page"


PAST_WINDOW = "answer past the model's input window"
BUDGET_DEPTH = 200  # ranked chunks considered for a budget (as the reference script)


@dataclass(frozen=True)
class QuestionResult:
    """The outcome for one question. Ranks and chunk positions are 1-based / chunk-set indices.

    `hit` is the first top-k chunk holding the answer (None when not found); `retrieved` the
    top-k chunk indices; `answer_chunk` / `answer_rank` the best-ranked chunk holding the answer
    and its rank over the whole set (only computed for misses whose answer is intact). `cause`
    is None exactly when the question was found on a right page.
    """

    question: Question
    retrieved: tuple[int, ...]
    hit: int | None
    rank: int | None
    page_correct: bool
    intact: bool
    cause: MissCause | None = None
    answer_chunk: int | None = None
    answer_rank: int | None = None
    visible: bool | None = None
    past_window: bool = False  # a ranked-low answer the dense model reads only past its window

    @property
    def found(self) -> bool:
        return self.hit is not None

    @property
    def reason(self) -> str:
        """ "ranked low (rank 7); answer past the model's input window", "" for no miss."""
        if self.cause is None:
            return ""
        text = self.cause.value
        if self.cause is MissCause.RANKED_LOW and self.answer_rank is not None:
            text += f" (rank {self.answer_rank})"
        return f"{text}; {PAST_WINDOW}" if self.past_window else text


@dataclass(frozen=True)
class GroupFigures:
    """The figures of one group of questions (see `EvalReport.breakdown`)."""

    group: str
    questions: int
    found: float
    page_correct: float
    mrr: float

    @classmethod
    def of(cls, group: str, results: Sequence[QuestionResult]) -> GroupFigures:
        n = len(results)
        return cls(
            group,
            n,
            sum(r.found for r in results) / n,
            sum(r.page_correct for r in results) / n,
            sum(1 / r.rank for r in results if r.rank) / n,
        )


@dataclass(frozen=True)
class EvalReport:
    """Aggregate figures for one chunk set and retriever; `results` in question order."""

    label: str
    retriever: str
    k: int
    chunk_set: ChunkSet
    results: tuple[QuestionResult, ...]
    found: float
    page_correct: float
    mrr: float
    answer_intact: float
    mean_chunk_tokens: float
    mean_context_tokens: float
    token_source: str
    documents_asked: int
    documents_covered: int
    answer_visible: float | None = None
    budget: int = 0
    #: Chunks longer than a dense model's window (it embeds only their start); None for a
    #: retriever that reads whole texts.
    over_window: int | None = None

    @property
    def questions(self) -> int:
        return len(self.results)

    @property
    def cutoff(self) -> str:
        """How the context was cut: "@5" (top-k) or "@1500 tok" (a token budget)."""
        return f"@{self.budget} tok" if self.budget else f"@{self.k}"

    @property
    def misses(self) -> list[QuestionResult]:
        return [r for r in self.results if not r.found]

    def breakdown(self, field_name: str) -> list[GroupFigures]:
        """found / page-correct / MRR per value of a question field ("pdf", or any extra field
        such as "kind"); questions without the field form the group "-". Sorted by value."""
        groups: dict[str, list[QuestionResult]] = {}
        for r in self.results:
            q = r.question
            value = q.pdf if field_name == "pdf" else q.extra.get(field_name, "-")
            groups.setdefault(str(value), []).append(r)
        return [GroupFigures.of(name, rs) for name, rs in sorted(groups.items())]

    def summary(self) -> dict[str, Any]:
        """A flat, JSON-ready dict of the aggregate figures (rounded to 4 decimals)."""
        return (
            {
                "label": self.label,
                "retriever": self.retriever,
                "k": self.k,
                "budget": self.budget,
                "questions": self.questions,
                "found": round(self.found, 4),
                "page_correct": round(self.page_correct, 4),
                "mrr": round(self.mrr, 4),
                "answer_intact": round(self.answer_intact, 4),
                "chunks": len(self.chunk_set.chunks),
                "documents_covered": self.documents_covered,
                "documents_asked": self.documents_asked,
                "mean_chunk_tokens": round(self.mean_chunk_tokens, 1),
                "mean_context_tokens": round(self.mean_context_tokens, 1),
                "token_source": self.token_source,
            }
            | (
                {}
                if self.answer_visible is None
                else {"answer_visible": round(self.answer_visible, 4)}
            )
            | ({} if self.over_window is None else {"over_window": self.over_window})
        )


def chunk_tokens(chunks: Sequence[EvalChunk], budget: int = 0) -> tuple[list[float], str]:
    """Per-chunk token counts and their source ("token_count" or "chars/4"); under a budget
    always chars/4, the budget's measure."""
    if not budget and chunks and all(c.token_count is not None for c in chunks):
        return [float(c.token_count or 0) for c in chunks], "token_count"
    return [len(c.text) / 4 for c in chunks], "chars/4"


def within_budget(ranked: Sequence[int], tokens: Sequence[float], budget: int) -> list[int]:
    """The longest prefix of `ranked` whose `tokens` sum fits in `budget`, but at least its first
    chunk (one chunk larger than the budget is still sent). Stops at the first chunk that would
    exceed the budget, even when a later, smaller one would fit."""
    kept: list[int] = []
    used = 0.0
    for i in ranked:
        if kept and used + tokens[i] > budget:
            break
        kept.append(i)
        used += tokens[i]
    return kept


class _Matcher:
    """Normalised chunk texts, grouped by document, computed once per chunk set."""

    def __init__(self, chunk_set: ChunkSet) -> None:
        self.chunks = chunk_set.chunks
        self.norm = [normalized(c.text) for c in self.chunks]
        self.by_doc: dict[str, list[int]] = {}
        for i, c in enumerate(self.chunks):
            self.by_doc.setdefault(c.document, []).append(i)
        self.doc_norm = {name: normalized(t) for name, t in chunk_set.documents.items()}

    def holds(self, i: int, q: Question, answer: str) -> bool:
        return self.chunks[i].document == q.pdf and contains_normalized(self.norm[i], answer)

    def holders(self, q: Question, answer: str) -> list[int]:
        return [i for i in self.by_doc.get(q.pdf, []) if contains_normalized(self.norm[i], answer)]

    def not_intact_cause(self, q: Question, answer: str) -> MissCause:
        if q.pdf not in self.by_doc:
            return MissCause.NO_DOCUMENT
        if q.pdf not in self.doc_norm:
            return MissCause.NOT_INTACT
        if contains_normalized(self.doc_norm[q.pdf], answer):
            return MissCause.BOUNDARY
        return MissCause.EXTRACTION


def _score(m: _Matcher, q: Question, top: Sequence[int]) -> QuestionResult:
    answer = normalized(q.answer)
    intact = bool(m.holders(q, answer))
    for rank, i in enumerate(top, 1):
        if m.holds(i, q, answer):
            c = m.chunks[i]
            ok = c.first_page <= q.page <= c.last_page
            cause = None if ok else MissCause.WRONG_PAGE
            return QuestionResult(q, tuple(top), i, rank, ok, intact, cause)
    cause = MissCause.RANKED_LOW if intact else m.not_intact_cause(q, answer)
    return QuestionResult(q, tuple(top), None, None, False, intact, cause)


def _rank_misses(m: _Matcher, index: Index, results: list[QuestionResult]) -> list[QuestionResult]:
    """Fill `answer_rank` for misses whose answer is intact somewhere (one full ranking)."""
    todo = [n for n, r in enumerate(results) if r.intact and not r.found]
    if not todo:
        return results
    full = index.search([results[n].question.question for n in todo], len(m.chunks))
    out = list(results)
    for n, order in zip(todo, full, strict=True):
        r = results[n]
        answer = normalized(r.question.answer)
        best = next(
            ((p, i) for p, i in enumerate(order, 1) if m.holds(i, r.question, answer)), None
        )
        out[n] = dataclasses.replace(
            r,
            answer_rank=best[0] if best else None,
            answer_chunk=best[1] if best else None,
        )
    return out


def _visibility(m: _Matcher, index: Index, results: list[QuestionResult]) -> list[QuestionResult]:
    """Fill `visible` (and flag ranked-low misses) for an index that truncates chunk texts."""
    window = getattr(index, "visible_text", None)
    if window is None:
        return results
    seen: dict[int, str] = {}

    def reads(i: int) -> str:
        if i not in seen:
            seen[i] = normalized(window(m.chunks[i].text))
        return seen[i]

    out = []
    for r in results:
        answer = normalized(r.question.answer)
        visible = any(contains_normalized(reads(i), answer) for i in m.holders(r.question, answer))
        past = r.answer_chunk is not None and not contains_normalized(reads(r.answer_chunk), answer)
        out.append(dataclasses.replace(r, visible=visible, past_window=past))
    return out


def score(
    questions: Sequence[Question],
    chunk_set: ChunkSet,
    index: Index,
    *,
    k: int,
    retriever: str,
    label: str = "",
    budget: int = 0,
) -> EvalReport:
    """Retrieve the top `k` chunks (or, with `budget` > 0, the ranked chunks that fit in
    `budget` tokens) for every question from `index` (built over `chunk_set` in the same order)
    and compute the figures above. Raises ValueError with no questions or a negative budget."""
    if not questions:
        raise ValueError("no questions to evaluate")
    if budget < 0:
        raise ValueError(f"budget must be 0 (top-k) or positive, got {budget}")
    m = _Matcher(chunk_set)
    tokens, token_source = chunk_tokens(chunk_set.chunks, budget)
    queries = [q.question for q in questions]
    if budget:
        ranked = index.search(queries, max(k, BUDGET_DEPTH))
        tops = [within_budget(top, tokens, budget) for top in ranked]
    else:
        tops = index.search(queries, k)
    scored = [_score(m, q, top) for q, top in zip(questions, tops, strict=True)]
    results = _visibility(m, index, _rank_misses(m, index, scored))
    visible = [r.visible for r in results if r.visible is not None]
    n = len(results)
    asked = {q.pdf for q in questions}
    overall = GroupFigures.of("all", results)
    return EvalReport(
        label=label,
        retriever=retriever,
        k=k,
        chunk_set=chunk_set,
        results=tuple(results),
        found=overall.found,
        page_correct=overall.page_correct,
        mrr=overall.mrr,
        answer_intact=sum(r.intact for r in results) / n,
        mean_chunk_tokens=sum(tokens) / len(tokens) if tokens else 0.0,
        mean_context_tokens=sum(sum(tokens[i] for i in r.retrieved) for r in results) / n,
        token_source=token_source,
        documents_asked=len(asked),
        documents_covered=len(asked & set(m.by_doc)),
        answer_visible=sum(visible) / n if visible else None,
        budget=budget,
        over_window=getattr(index, "over_window", None),
    )
