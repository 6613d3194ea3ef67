"""The misses of an evaluation: which questions, why (`MissCause` counts), and a JSON-ready
record of each with the chunk retrieved instead. The CLI renders these; they hold no output.

A miss is a question not found in the top k, or found on a wrong page (``cause`` not None).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .metrics import PAST_WINDOW, EvalReport, MissCause, QuestionResult


def misses(report: EvalReport) -> list[QuestionResult]:
    """The report's misses and wrong pages, in question order."""
    return [r for r in report.results if r.cause is not None]


@dataclass(frozen=True)
class CauseCounts:
    """How many misses each cause has (most common first), and how many ranked-low ones had
    the answer only past a dense model's input window."""

    counts: tuple[tuple[MissCause, int], ...]
    past_window: int

    def __str__(self) -> str:
        """ "ranked low 7, not intact 2 (of which answer past the model's input window: 5)"."""
        text = ", ".join(f"{cause.value} {n}" for cause, n in self.counts)
        return text + (f" (of which {PAST_WINDOW}: {self.past_window})" if self.past_window else "")


def cause_counts(results: Sequence[QuestionResult]) -> CauseCounts:
    counts = Counter(r.cause for r in results if r.cause is not None)
    past = sum(1 for r in results if r.past_window)
    return CauseCounts(tuple(counts.most_common()), past)


def miss_record(report: EvalReport, r: QuestionResult) -> dict[str, object]:
    """A JSON-ready description of one miss (or wrong page) and the chunk retrieved instead."""
    shown = r.hit if r.hit is not None else (r.retrieved[0] if r.retrieved else None)
    chunks = report.chunk_set.chunks
    chunk = chunks[shown] if shown is not None else None
    return {
        "retriever": report.retriever,
        **r.question.to_dict(),
        "found": r.found,
        "page_correct": r.page_correct,
        "reason": r.reason,
        "cause": None if r.cause is None else r.cause.name.lower(),
        "answer_rank": r.answer_rank,
        "answer_chunk_id": None if r.answer_chunk is None else chunks[r.answer_chunk].chunk_id,
        "chunk": None
        if chunk is None
        else {
            "document": chunk.document,
            "first_page": chunk.first_page,
            "last_page": chunk.last_page,
            "heading_path": list(chunk.heading_path),
            "chunk_id": chunk.chunk_id,
            "text": chunk.text,
        },
    }
