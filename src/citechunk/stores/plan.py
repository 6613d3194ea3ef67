"""What a sync changes, per document, from two id listings: OUT's and the store's.

A document's rows to insert are OUT's ids the store lacks; its rows to delete are the store's
ids OUT does not hold for any document (an id OUT holds under another document is rewritten
there by the upsert, not deleted). Documents in `keep` that OUT no longer holds are left as
they are (a file whose conversion failed keeps its last good rows)."""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

import pyarrow as pa


@dataclass(frozen=True)
class DocPlan:
    doc_id: str
    name: str  # source file, or the doc_id when neither OUT nor the store names it
    insert: tuple[str, ...]
    delete: tuple[str, ...]

    @property
    def label(self) -> str:
        """ "source_file  doc_id" (the id alone when no source file is known)."""
        return self.doc_id if self.name == self.doc_id else f"{self.name}  {self.doc_id}"


def ids_by_doc(table: pa.Table) -> tuple[dict[str, set[str]], dict[str, str]]:
    """OUT's chunk ids per doc_id, and each doc_id's source file."""
    ids: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    cols = (table[c].to_pylist() for c in ("doc_id", "chunk_id", "source_file"))
    for doc, chunk, source in zip(*cols, strict=True):
        ids.setdefault(doc, set()).add(chunk)
        names[doc] = source
    return ids, names


def plan_changes(
    out: Mapping[str, Set[str]],
    stored: Mapping[str, Set[str]],
    names: Mapping[str, str],
    keep: Set[str] = frozenset(),
) -> list[DocPlan]:
    """One `DocPlan` per document with something to insert or delete, in name order; `names`
    gives each doc_id's source file (OUT's, or what the store's rows carry)."""
    everywhere = set().union(*out.values()) if out else set()
    plans = []
    for doc in set(out) | set(stored):
        if doc in keep and doc not in out:
            continue
        want, have = out.get(doc, set()), stored.get(doc, set())
        insert = sorted(want - have)
        delete = sorted(have - want - everywhere)
        if insert or delete:
            plans.append(DocPlan(doc, names.get(doc, doc), tuple(insert), tuple(delete)))
    return sorted(plans, key=lambda p: (p.name, p.doc_id))
