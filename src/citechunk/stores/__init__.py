"""Vector stores kept equal to an ingest's output: `sync`, `query`, the `Store` plugin interface
(entry-point group ``citechunk.stores``) and its LanceDB and Chroma plugins."""

from __future__ import annotations

from .base import DEFAULT_TABLE, Hit, ModelInfo, Store
from .embed import DEFAULT_MODEL, Embedder
from .query import query
from .registry import open_store
from .sync import DocFailure, SyncReport, sync

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_TABLE",
    "DocFailure",
    "Embedder",
    "Hit",
    "ModelInfo",
    "Store",
    "SyncReport",
    "open_store",
    "query",
    "sync",
]
