"""LanceDB store (``lancedb:PATH``, a local folder or an object-store URI; embedded, nothing to
start). One table; every chunk record field is a column, plus ``vector`` (fixed-size float32
list) unless the store embeds by itself. The model is recorded in the table schema's metadata.
Upserts are LanceDB merge-inserts on ``chunk_id``; each call is one atomic table version."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import pyarrow as pa

from ..errors import StoreError
from ..export.schema import ARROW_SCHEMA
from .base import DIMENSION_KEY, MODEL_KEY, VECTOR, Hit, ModelInfo, Store, pieces, rejected

DELETE_BATCH = 500


def table_schema(model: ModelInfo) -> pa.Schema:
    """The chunk record columns (nullable, so rows written by others fit) with ``chunk_id``
    required, then ``vector`` when `model` has a dimension; `model` in the metadata."""
    fields = [f.with_nullable(f.name != "chunk_id") for f in ARROW_SCHEMA]
    if model.dimension:
        fields.append(pa.field(VECTOR, pa.list_(pa.float32(), model.dimension)))
    meta = {MODEL_KEY: model.name, DIMENSION_KEY: str(model.dimension)}
    return pa.schema(fields, metadata=meta)


def _quoted(ids: Sequence[str]) -> str:
    return ", ".join("'" + i.replace("'", "''") + "'" for i in ids)


class LanceDBStore(Store):
    scheme = "lancedb"
    extra = "lancedb"
    requires = ("lancedb",)

    def _db(self) -> Any:
        import lancedb

        with rejected(self.uri, "connect"):
            return lancedb.connect(self.location)

    def _names(self, db: Any) -> list[str]:
        names: list[str] = []
        token = None
        while True:
            page = db.list_tables(page_token=token)
            names.extend(page.tables)
            token = page.page_token
            if not token:
                return names

    def _table(self) -> Any | None:
        db = self._db()
        with rejected(self.uri, f"open table {self.table!r}"):
            return db.open_table(self.table) if self.table in self._names(db) else None

    def _required(self) -> Any:
        table = self._table()
        if table is None:
            raise StoreError(f"{self.uri}: no table {self.table!r} (run `citechunk sync` first)")
        return table

    def ids(self) -> dict[str, set[str]]:
        table = self._table()
        if table is None:
            return {}
        with rejected(self.uri, "list ids"):
            rows = (
                table.search()
                .where("doc_id IS NOT NULL")
                .select(["doc_id", "chunk_id"])
                .limit(None)
                .to_arrow()
            )
        found: dict[str, set[str]] = {}
        for doc, chunk in zip(
            rows["doc_id"].to_pylist(), rows["chunk_id"].to_pylist(), strict=True
        ):
            found.setdefault(doc, set()).add(chunk)
        return found

    def sources(self, doc_ids: Collection[str]) -> dict[str, str]:
        table = self._table()
        if table is None or not doc_ids:
            return {}
        with rejected(self.uri, "list source files"):
            rows = (
                table.search()
                .where(f"doc_id IN ({_quoted(sorted(doc_ids))})")
                .select(["doc_id", "source_file"])
                .limit(None)
                .to_arrow()
            )
        docs, names = rows["doc_id"].to_pylist(), rows["source_file"].to_pylist()
        return {d: n for d, n in zip(docs, names, strict=True) if d and n}

    def model(self) -> ModelInfo | None:
        table = self._table()
        if table is None:
            return None
        meta = table.schema.metadata or {}
        name = meta.get(MODEL_KEY.encode())
        if name is None:
            return None
        return ModelInfo(name.decode(), int(meta.get(DIMENSION_KEY.encode(), b"0")))

    def reset(self, model: ModelInfo) -> None:
        db = self._db()
        with rejected(self.uri, f"create table {self.table!r}"):
            db.create_table(self.table, schema=table_schema(model), mode="overwrite")

    def upsert(self, rows: pa.Table) -> None:
        table = self._required()
        with rejected(self.uri, "write"):
            data = rows.select(table.schema.names).cast(table.schema)
            (
                table.merge_insert("chunk_id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(data)
            )

    def delete(self, ids: Sequence[str]) -> None:
        table = self._required()
        with rejected(self.uri, "delete"):
            for part in pieces(ids, DELETE_BATCH):
                table.delete(f"chunk_id IN ({_quoted(part)})")

    def search(self, vector: Sequence[float], k: int) -> list[Hit]:
        table = self._required()
        with rejected(self.uri, "search"):
            rows = table.search(list(vector)).distance_type("cosine").limit(k).to_list()
        return [Hit({f: r[f] for f in ARROW_SCHEMA.names}, float(r["_distance"])) for r in rows]
