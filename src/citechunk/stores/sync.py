"""`citechunk sync`: make a vector store hold exactly OUT's chunk records, whatever it held.

The store is the truth, read at every sync (no side file): its chunk ids per ``doc_id`` are
compared with OUT's (`plan.plan_changes`); missing rows are embedded and upserted, rows OUT no
longer holds are deleted, the rest is not touched or re-embedded. Per document, the new rows are
written before the old ones are deleted. A write the store rejects fails that document only
(its old rows stay; the next sync retries it). After writing, the ids are read back: a
document counts as synced only when the store holds exactly OUT's ids for it. OUT's records
marked navigation (``role``: contents pages, indexes) are not OUT's chunks for the store unless
asked for (`with_navigation`): a store synced without them deletes the ones it holds.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import ModelMismatchError, StoreError
from ..export import read_chunks
from .base import DEFAULT_TABLE, VECTOR, ModelInfo, Store
from .embed import DEFAULT_MODEL, NO_MODEL, Embedder
from .fit import check_fit
from .plan import DocPlan, ids_by_doc, plan_changes
from .registry import open_store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DocFailure:
    doc_id: str
    name: str
    error: str


@dataclass(frozen=True)
class SyncReport:
    store: str
    table: str
    model: str
    dry_run: bool
    documents: int  # in OUT
    rows: int  # in OUT
    plans: tuple[DocPlan, ...]
    inserted: int
    deleted: int
    embedded: int
    verified: int  # OUT rows the store was read back to hold
    failed: tuple[DocFailure, ...]
    kept: int  # documents left alone (failed in the ingest)
    seconds: float
    embed_seconds: float

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0

    def render(self) -> str:
        """What `citechunk sync` prints: with `dry_run` each document's ``+inserted -deleted
        source_file  doc_id`` first (a document only the store holds is named by the source file
        its rows carry), then `summary()` (`str()` too)."""
        plan = [f"+{len(p.insert)} -{len(p.delete)} {p.label}" for p in self.plans]
        return "\n".join([*(plan if self.dry_run else []), self.summary()])

    __str__ = render

    def summary(self) -> str:
        verb = "would change" if self.dry_run else "changed"
        lines = [
            f"{self.store} (table {self.table}, model {self.model}): OUT holds "
            f"{self.documents} documents, {self.rows} chunks",
            f"{verb} {len(self.plans)} documents: +{sum(len(p.insert) for p in self.plans)} "
            f"-{sum(len(p.delete) for p in self.plans)} rows",
        ]
        if not self.dry_run:
            lines.append(
                f"inserted {self.inserted}, deleted {self.deleted}, embedded {self.embedded}, "
                f"verified {self.verified}/{self.rows} in {self.seconds:.1f} s "
                f"(embedding {self.embed_seconds:.1f} s)"
            )
        if self.kept:
            lines.append(f"kept the last rows of {self.kept} documents that failed to convert")
        lines += [f"FAILED {f.name}: {f.error}" for f in self.failed]
        return "\n".join(lines)


class SyncProgress(Protocol):
    def planned(self, rows: int) -> None:
        """Called once with the number of rows to insert."""

    def written(self, plan: DocPlan) -> None:
        """Called after each document's write (or failure)."""


def _vector_column(vectors: Any) -> pa.FixedSizeListArray:
    flat = pa.array(vectors.reshape(-1), pa.float32())
    return pa.FixedSizeListArray.from_arrays(flat, vectors.shape[1])


@dataclass
class _Run:
    store: Store
    rows: pa.Table
    embedder: Embedder
    model: ModelInfo
    batch: int
    progress: SyncProgress | None
    index: dict[str, int] = field(default_factory=dict)
    failed: list[DocFailure] = field(default_factory=list)
    embed_seconds: float = 0.0
    inserted: int = 0
    deleted: int = 0

    def windows(self, plans: Sequence[DocPlan]) -> Iterator[list[DocPlan]]:
        """Consecutive documents holding at least `batch` rows to insert (embedded together)."""
        window: list[DocPlan] = []
        size = 0
        for p in plans:
            window.append(p)
            size += len(p.insert)
            if size >= self.batch:
                yield window
                window, size = [], 0
        if window:
            yield window

    def rows_of(self, plan: DocPlan) -> pa.Table:
        return self.rows.take(pa.array([self.index[i] for i in plan.insert], type=pa.int64()))

    def with_vectors(self, window: list[DocPlan]) -> list[pa.Table]:
        """Each document's rows to insert, with a ``vector`` column when the model embeds
        (the window's texts are encoded together)."""
        tables = [self.rows_of(p) for p in window]
        texts = [t for table in tables for t in table["text"].to_pylist()]
        if not self.model.dimension or not texts:
            return tables
        started = time.perf_counter()
        vectors = self.embedder.embed(texts, self.batch)
        self.embed_seconds += time.perf_counter() - started
        done, out = 0, []
        for table in tables:
            if table.num_rows:
                column = _vector_column(vectors[done : done + table.num_rows])
                table = table.append_column(VECTOR, column)
                done += table.num_rows
            out.append(table)
        return out

    def write(self, plan: DocPlan, rows: pa.Table) -> None:
        try:
            if rows.num_rows:
                self.store.upsert(rows)
            self.inserted += rows.num_rows
            if plan.delete:
                self.store.delete(plan.delete)
            self.deleted += len(plan.delete)
            log.info("%s: +%d -%d", plan.name, len(plan.insert), len(plan.delete))
        except StoreError as exc:
            log.error("%s: not synced: %s", plan.name, exc)
            self.failed.append(DocFailure(plan.doc_id, plan.name, str(exc)))
        if self.progress:
            self.progress.written(plan)

    def apply(self, plans: Sequence[DocPlan]) -> None:
        self.index = {c: i for i, c in enumerate(self.rows["chunk_id"].to_pylist())}
        for window in self.windows(plans):
            for plan, rows in zip(window, self.with_vectors(window), strict=True):
                self.write(plan, rows)


def check_model(store: Store, recorded: ModelInfo | None, model: ModelInfo, rows: int) -> None:
    """Raise `ModelMismatchError` when the store's vectors come from another model."""
    if recorded is None and rows:
        raise ModelMismatchError(
            f"{store.uri}: table {store.table!r} holds {rows} rows but records no embedding "
            "model: sync with --rebuild to re-embed everything"
        )
    if recorded is not None and recorded != model:
        raise ModelMismatchError(
            f"{store.uri}: table {store.table!r} holds vectors of {recorded}, not {model}: "
            f"sync with --embed {recorded.name} or with --rebuild to re-embed everything"
        )


def _unverified(
    plans: Sequence[DocPlan], out: dict[str, set[str]], final: dict[str, set[str]]
) -> list[DocFailure]:
    bad = []
    for p in plans:
        want, have = out.get(p.doc_id, set()), final.get(p.doc_id, set())
        if want != have:
            error = (
                f"read back {len(have & want)} of {len(want)} rows and {len(have - want)} others"
            )
            log.error("%s: not synced: %s", p.name, error)
            bad.append(DocFailure(p.doc_id, p.name, error))
    return bad


def _read_back(store: Store, plans: Sequence[DocPlan], out: dict[str, set[str]], run: _Run) -> int:
    """List the store again; a written document whose ids differ from OUT's, or every written
    document when the listing fails, becomes a failure. Returns the OUT rows verified."""
    failed = {f.doc_id for f in run.failed}
    written = [p for p in plans if p.doc_id not in failed]
    try:
        final = store.ids()
    except StoreError as exc:
        log.error("could not read the store back: %s", exc)
        run.failed += [DocFailure(p.doc_id, p.name, f"not read back: {exc}") for p in written]
        return 0
    run.failed += _unverified(written, out, final)
    return sum(len(final.get(d, set()) & ids) for d, ids in out.items())


def sync(
    out: str | os.PathLike[str],
    to: str,
    *,
    table: str = DEFAULT_TABLE,
    embed: str = DEFAULT_MODEL,
    batch: int = 64,
    dry_run: bool = False,
    rebuild: bool = False,
    keep: Collection[str] = (),
    progress: SyncProgress | None = None,
    embedder: Embedder | None = None,
    with_navigation: bool = False,
) -> SyncReport:
    """Make the store at `to` (``lancedb:PATH``, ``chroma:URL|PATH``) hold exactly OUT's chunk
    records in `table`, embedded with `embed`. `keep`: doc_ids whose stored rows stay when OUT
    lacks them. `dry_run` plans and writes nothing; `rebuild` empties the table first;
    navigation records go in only `with_navigation`. Raises `ChunkFitError` before anything is
    written when the chunks do not fit `embed` (`fit`)."""
    started = time.perf_counter()
    records = read_chunks(out)
    if not with_navigation:
        records = records.filter(pc.not_equal(records["role"], "navigation"))
    spec = embedder.spec if embedder else embed
    if spec != NO_MODEL:
        check_fit(records, spec, str(out))
    out_ids, names = ids_by_doc(records)
    store = open_store(to, table)
    embedder = embedder or Embedder(embed, extra=store.extra)
    stored = store.ids()
    recorded = store.model()
    if recorded is not None and not rebuild and recorded.name == embedder.name:
        model = recorded  # not loaded unless something needs embedding; the store checks sizes
    else:
        model = embedder.info
    if not rebuild:
        check_model(store, recorded, model, sum(map(len, stored.values())))
    if rebuild:
        stored = {}
    gone = set(stored) - set(out_ids)
    names = {**store.sources(gone), **names} if gone else names
    plans = plan_changes(out_ids, stored, names, frozenset(keep))
    kept = len(set(keep) & (set(stored) - set(out_ids)))
    run = _Run(store, records, embedder, model, batch, progress)
    if not dry_run:
        if rebuild or recorded is None:
            store.reset(model)
        if progress:
            progress.planned(sum(len(p.insert) for p in plans))
        run.apply(plans)
        verified = _read_back(store, plans, out_ids, run)
    else:
        verified = 0
    return SyncReport(
        store=store.uri,
        table=table,
        model=str(model),
        dry_run=dry_run,
        documents=len(out_ids),
        rows=records.num_rows,
        plans=tuple(plans),
        inserted=run.inserted,
        deleted=run.deleted,
        embedded=embedder.embedded,
        verified=verified,
        failed=tuple(run.failed),
        kept=kept,
        seconds=time.perf_counter() - started,
        embed_seconds=run.embed_seconds,
    )
