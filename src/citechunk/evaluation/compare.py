"""`--compare`: re-chunk an ingest output's Markdown with several configurations, side by side.

Rows: the chunk set as ingested (``OUT/chunks``), a plain fixed-size baseline (token windows
with overlap, no headings), the heading-first chunker at a quarter, a half and all of the
configured size limit (``max_tokens``, or the embedder's limit when it is 0: a chunk never
exceeds the embedder's window, so no row is larger), and at the configured size with small
sibling sections merged up to half the limit (when the configuration does not merge already).
Every row is evaluated with the same questions and retrievers, over the same Markdown files
(``OUT/markdown/*.md``), so differences come from chunking alone.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..chunking.embedder import options_limit
from ..chunking.navigation import chunk_role
from ..config import ChunkOptions, Config
from ..errors import ConfigError
from ..markers import strip_markers
from ..models import Chunk
from .data import ChunkSet, EvalChunk, Question, load_chunk_set, read_records
from .metrics import EvalReport, score
from .retrieval import Retriever, make_retrievers

ChunkFn = Callable[["SavedDocument"], list[Chunk]]
SIZE_SHARES = (4, 2, 1)  # heading rows at limit // share


@dataclass(frozen=True)
class SavedDocument:
    """One document of an ingest output: its page-marked Markdown and its title (provenance)."""

    markdown: str
    title: str = ""


@dataclass(frozen=True)
class Variant:
    """A named way to chunk one document's page-marked Markdown."""

    name: str
    chunker: ChunkFn


@dataclass(frozen=True)
class CompareRow:
    name: str
    reports: tuple[EvalReport, ...]  # one per retriever, in `CompareReport.retrievers` order


@dataclass(frozen=True)
class CompareReport:
    k: int
    retrievers: tuple[str, ...]
    rows: tuple[CompareRow, ...]
    budget: int = 0  # token budget of every row (0 = top-k)

    @property
    def cutoff(self) -> str:
        """Top-k ("@5") or token budget ("@1500 tok"), as `EvalReport.cutoff`."""
        return f"@{self.budget} tok" if self.budget else f"@{self.k}"


def heading_variant(options: ChunkOptions, label: str = "") -> Variant:
    from ..chunking import HeadingChunker

    name = f"heading {options.max_tokens}" + (f" {label}" if label else "")

    def chunker(doc: SavedDocument) -> list[Chunk]:
        return HeadingChunker(options, doc.title).chunk(doc.markdown)

    return Variant(name, chunker)


def fixed_variant(options: ChunkOptions) -> Variant:
    """Token windows of `max_tokens` with `max_tokens // 8` overlap, headings ignored."""
    from ..chunking import FixedChunker

    opts = dataclasses.replace(options, overlap_tokens=options.max_tokens // 8)
    name = f"fixed {opts.max_tokens} (overlap {opts.overlap_tokens})"
    fixed = FixedChunker(opts)
    return Variant(name, lambda doc: fixed.chunk(doc.markdown))


def default_variants(options: ChunkOptions) -> list[Variant]:
    """The fixed baseline at the configured limit, then heading-first at a quarter and a half of
    it and at the limit itself (marked "(config)"), then the limit with small siblings merged up
    to half of it (unless the configuration merges already). Sizes are the embedder's tokens."""
    limit = options_limit(options.embedder, options.max_tokens)
    at_limit = dataclasses.replace(options, max_tokens=limit)
    variants = [fixed_variant(at_limit)]
    for size in sorted({max(1, limit // share) for share in SIZE_SHARES}):
        label = "(config)" if size == limit else ""
        sized = dataclasses.replace(
            options,
            max_tokens=size,
            min_tokens=min(options.min_tokens, size),
            overlap_tokens=min(options.overlap_tokens, (size - 1) // 2),
        )
        variants.append(heading_variant(sized, label))
    if options.min_tokens == 0:
        merged = dataclasses.replace(at_limit, min_tokens=limit // 2)
        variants.append(heading_variant(merged, f"merged {limit // 2}"))
    return variants


def markdown_documents(out_dir: str | os.PathLike[str]) -> dict[str, SavedDocument]:
    """Document name (the source PDF's file name) -> page-marked Markdown and title (from its
    provenance file, "" when absent), for every document of an ingest output. Names come from
    the chunk records' ``markdown_file``/``source_file``."""
    from ..conversion import read_markdown, saved_title

    out = Path(out_dir)
    docs: dict[str, SavedDocument] = {}
    for row in read_records(out / "chunks"):
        name = PurePosixPath(str(row["source_file"])).name
        md = out / str(row.get("markdown_file") or "")
        if name not in docs and md.is_file():
            docs[name] = SavedDocument(read_markdown(md), saved_title(md))
    if not docs:
        raise ConfigError(f"{out}: no Markdown files found under {out / 'markdown'}")
    return docs


def chunk_documents(
    documents: dict[str, SavedDocument], chunker: ChunkFn, *, with_navigation: bool = False
) -> ChunkSet:
    """Chunk every document (in name order) into one chunk set with the documents' texts;
    navigation chunks (`chunking.navigation.chunk_role`) are left out unless
    `with_navigation`, as `load_chunk_set` leaves out records marked so."""
    chunks: list[EvalChunk] = []
    for name in sorted(documents):
        for c in chunker(documents[name]):
            if not with_navigation and chunk_role(c.body) == "navigation":
                continue
            chunks.append(
                EvalChunk(
                    document=name,
                    text=c.text,
                    first_page=c.first_page,
                    last_page=c.last_page,
                    heading_path=tuple(c.heading_path),
                    token_count=c.token_count,
                    chunk_index=c.chunk_index,
                )
            )
    texts = {name: strip_markers(doc.markdown) for name, doc in documents.items()}
    return ChunkSet(tuple(chunks), texts)


def _evaluate_all(
    questions: Sequence[Question],
    chunk_set: ChunkSet,
    retrievers: Sequence[Retriever],
    k: int,
    budget: int,
) -> tuple[EvalReport, ...]:
    texts = [c.text for c in chunk_set.chunks]
    return tuple(
        score(questions, chunk_set, r.index(texts), k=k, retriever=r.name, budget=budget)
        for r in retrievers
    )


def compare(
    questions: Sequence[Question],
    out_dir: str | os.PathLike[str],
    config: Config | None = None,
    retrievers: Sequence[str] = ("bm25",),
    variants: Sequence[Variant] | None = None,
    *,
    with_navigation: bool = False,
) -> CompareReport:
    """Evaluate the ingested chunk set and each variant (default: `default_variants` of the
    configured chunk options) with every retriever, top-k or within ``config.eval.budget``;
    navigation chunks only `with_navigation`. Raises ConfigError when OUT lacks chunks or
    Markdown."""
    config = config or Config()
    models = make_retrievers(retrievers, config.eval.model_path)
    k, budget = config.eval.k, config.eval.budget
    chunk_set = load_chunk_set(out_dir, with_navigation=with_navigation)
    ingested = _evaluate_all(questions, chunk_set, models, k, budget)
    rows = [CompareRow("as ingested (OUT/chunks)", ingested)]
    documents = markdown_documents(out_dir)
    for v in variants if variants is not None else default_variants(config.chunk):
        chunk_set = chunk_documents(documents, v.chunker, with_navigation=with_navigation)
        rows.append(CompareRow(v.name, _evaluate_all(questions, chunk_set, models, k, budget)))
    return CompareReport(k, tuple(m.name for m in models), tuple(rows), budget)
