"""Chroma store (``chroma:http://HOST:PORT`` for a ``chroma run`` server, ``chroma:PATH`` for an
embedded folder). One collection; the chunk text is the document, the other record fields are
metadata (lists and boxes as JSON strings: Chroma metadata holds scalars), the model is recorded
in the collection metadata with cosine distance. Writes are split at the server's maximum
batch size."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any
from urllib.parse import urlsplit

import pyarrow as pa

from ..errors import StoreError
from ..export.schema import ARROW_SCHEMA
from .base import DIMENSION_KEY, MODEL_KEY, VECTOR, Hit, ModelInfo, Store, pieces, rejected

JSON_FIELDS = ("heading_path", "boxes", "ocr_pages")
PAGE = 1000  # ids listed per request


def to_metadata(row: dict[str, Any]) -> dict[str, Any]:
    """A chunk record (a dict) as Chroma metadata: every field but text and vector."""
    meta = {k: v for k, v in row.items() if k not in ("text", VECTOR)}
    for k in JSON_FIELDS:
        meta[k] = json.dumps(meta[k], separators=(",", ":"))
    return meta


def from_metadata(meta: dict[str, Any], text: str) -> dict[str, Any]:
    """Inverse of `to_metadata` (fields in `ARROW_SCHEMA` order)."""
    row = {**meta, "text": text}
    for k in JSON_FIELDS:
        row[k] = json.loads(row[k]) if isinstance(row.get(k), str) else row.get(k)
    return {f: row.get(f) for f in ARROW_SCHEMA.names}


class ChromaStore(Store):
    scheme = "chroma"
    extra = "chroma"
    requires = ("chromadb",)

    def _client(self) -> Any:
        import chromadb

        settings = chromadb.Settings(anonymized_telemetry=False)
        with rejected(self.uri, "connect"):
            if self.location.startswith(("http://", "https://")):
                url = urlsplit(self.location)
                ssl = url.scheme == "https"
                port = url.port or (443 if ssl else 8000)
                return chromadb.HttpClient(
                    host=url.hostname or "localhost", port=port, ssl=ssl, settings=settings
                )
            return chromadb.PersistentClient(path=self.location, settings=settings)

    def _collection(self) -> Any | None:
        client = self._client()
        with rejected(self.uri, f"open collection {self.table!r}"):
            names = [c if isinstance(c, str) else c.name for c in client.list_collections()]
            if self.table not in names:
                return None
            return client.get_collection(self.table, embedding_function=None)

    def _required(self) -> Any:
        collection = self._collection()
        if collection is None:
            raise StoreError(
                f"{self.uri}: no collection {self.table!r} (run `citechunk sync` first)"
            )
        return collection

    def ids(self) -> dict[str, set[str]]:
        collection = self._collection()
        found: dict[str, set[str]] = {}
        if collection is None:
            return found
        offset = 0
        while True:
            with rejected(self.uri, "list ids"):
                page = collection.get(include=["metadatas"], limit=PAGE, offset=offset)
            for chunk, meta in zip(page["ids"], page["metadatas"] or [], strict=True):
                doc = (meta or {}).get("doc_id")
                if isinstance(doc, str):
                    found.setdefault(doc, set()).add(chunk)
            if len(page["ids"]) < PAGE:
                return found
            offset += PAGE

    def sources(self, doc_ids: Collection[str]) -> dict[str, str]:
        collection = self._collection()
        found: dict[str, str] = {}
        if collection is None:
            return found
        for doc in sorted(doc_ids):
            with rejected(self.uri, "list source files"):
                page = collection.get(where={"doc_id": doc}, include=["metadatas"], limit=1)
            for meta in page["metadatas"] or []:
                name = (meta or {}).get("source_file")
                if isinstance(name, str) and name:
                    found[doc] = name
        return found

    def model(self) -> ModelInfo | None:
        collection = self._collection()
        meta = (collection.metadata if collection is not None else None) or {}
        if MODEL_KEY not in meta:
            return None
        return ModelInfo(str(meta[MODEL_KEY]), int(meta.get(DIMENSION_KEY, 0)))

    def reset(self, model: ModelInfo) -> None:
        client = self._client()
        meta = {MODEL_KEY: model.name, DIMENSION_KEY: model.dimension, "hnsw:space": "cosine"}
        with rejected(self.uri, f"create collection {self.table!r}"):
            if self._collection() is not None:
                client.delete_collection(self.table)
            if model.dimension:
                client.create_collection(self.table, metadata=meta, embedding_function=None)
            else:  # the collection's own embedding function embeds the documents
                client.create_collection(self.table, metadata=meta)

    def upsert(self, rows: pa.Table) -> None:
        collection = self._required()
        records = rows.to_pylist()
        with rejected(self.uri, "write"):
            size = int(self._client().get_max_batch_size())
            for start in range(0, len(records), size):
                part = records[start : start + size]
                vectors = [r[VECTOR] for r in part] if VECTOR in rows.column_names else None
                collection.upsert(
                    ids=[r["chunk_id"] for r in part],
                    documents=[r["text"] for r in part],
                    metadatas=[to_metadata(r) for r in part],
                    embeddings=vectors,
                )

    def delete(self, ids: Sequence[str]) -> None:
        collection = self._required()
        with rejected(self.uri, "delete"):
            for part in pieces(ids, PAGE):
                collection.delete(ids=list(part))

    def search(self, vector: Sequence[float], k: int) -> list[Hit]:
        collection = self._required()
        with rejected(self.uri, "search"):
            found = collection.query(
                query_embeddings=[list(vector)],
                n_results=k,
                include=["metadatas", "documents", "distances"],
            )
        return [
            Hit(from_metadata(meta, text), float(dist))
            for meta, text, dist in zip(
                found["metadatas"][0], found["documents"][0], found["distances"][0], strict=True
            )
        ]
