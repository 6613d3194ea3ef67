"""`citechunk query`: the nearest chunks to a question, from a synced store, embedded with the
model the store records."""

from __future__ import annotations

from ..errors import StoreError
from .base import DEFAULT_TABLE, Hit
from .embed import Embedder
from .registry import open_store


def query(to: str, question: str, *, k: int = 5, table: str = DEFAULT_TABLE) -> list[Hit]:
    """The `k` stored chunks nearest to `question`, nearest first."""
    store = open_store(to, table)
    model = store.model()
    if model is None:
        raise StoreError(f"{store.uri}: no table {table!r} synced by citechunk")
    if not model.dimension:
        raise StoreError(
            f"{store.uri}: table {table!r} holds no vectors (synced with --embed none)"
        )
    vector = Embedder(model.name, "query", store.extra).embed([question], 1)[0]
    return store.search([float(x) for x in vector], k)
