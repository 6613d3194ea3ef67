"""What a vector store plugin implements for `citechunk sync` and `citechunk query`, and nothing
else: list the chunk ids it holds per document, upsert rows, delete ids, read and record the
embedding model, search (and, optionally, name the source file of documents it holds).

A row is a chunk record (every field of `ARROW_SCHEMA`) plus, unless the store embeds by itself
(`--embed none`), a ``vector`` column. Plugins register in the entry-point group
``citechunk.stores`` under the URI scheme they serve (``lancedb:PATH`` -> ``lancedb``).
"""

from __future__ import annotations

import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pyarrow as pa

from ..errors import StoreError
from ..nativelog import native_stderr_to_log

log = logging.getLogger("citechunk.stores")

DEFAULT_TABLE = "citechunk"
VECTOR = "vector"
MODEL_KEY = "citechunk.model"
DIMENSION_KEY = "citechunk.dimension"


@dataclass(frozen=True)
class ModelInfo:
    """The embedding model a store's vectors come from; ``none``/0 for a store that embeds by
    itself."""

    name: str
    dimension: int

    def __str__(self) -> str:
        return f"{self.name} ({self.dimension} dimensions)" if self.dimension else self.name


@dataclass(frozen=True)
class Hit:
    """One search result: the stored chunk record (a dict of its fields) and its distance."""

    record: Mapping[str, Any]
    distance: float


def pieces(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    """`items` in consecutive slices of at most `size`."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


@contextlib.contextmanager
def rejected(uri: str, what: str) -> Iterator[None]:
    """Turn whatever a store library raises into a `StoreError` naming the store and the step.

    The libraries raise their own classes (and ValueError, OSError, HTTP errors) with no common
    base below Exception, hence the broad catch; the original is chained. What their native code
    writes to stderr meanwhile is logged at DEBUG (`nativelog`)."""
    try:
        with native_stderr_to_log(log):
            yield
    except StoreError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise StoreError(f"{uri}: {what}: {exc}") from exc


class Store(ABC):
    """One table (LanceDB) or collection (Chroma) of a store. `location` is the URI without its
    scheme. Every library error leaves a method as `StoreError`."""

    scheme: ClassVar[str] = ""
    extra: ClassVar[str] = ""  # pip extra that installs the library
    requires: ClassVar[tuple[str, ...]] = ()  # modules the store imports

    def __init__(self, location: str, table: str = DEFAULT_TABLE) -> None:
        self.location = location
        self.table = table

    @property
    def uri(self) -> str:
        return f"{self.scheme}:{self.location}"

    @abstractmethod
    def ids(self) -> dict[str, set[str]]:
        """Chunk ids per ``doc_id`` of every row that carries one; {} when there is no table."""

    def sources(self, doc_ids: Collection[str]) -> dict[str, str]:
        """The ``source_file`` of each of `doc_ids` the store holds rows of (to name a document
        OUT no longer has); a store that cannot tell returns {} and the id stands alone."""
        return {}

    @abstractmethod
    def model(self) -> ModelInfo | None:
        """The recorded model, None when the table does not exist or records none."""

    @abstractmethod
    def reset(self, model: ModelInfo) -> None:
        """Drop the table if it exists and create it empty, recording `model`."""

    @abstractmethod
    def upsert(self, rows: pa.Table) -> None:
        """Insert `rows`, replacing rows with the same ``chunk_id``; all or nothing per call."""

    @abstractmethod
    def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows with these chunk ids (ids not present are ignored)."""

    @abstractmethod
    def search(self, vector: Sequence[float], k: int) -> list[Hit]:
        """The `k` rows nearest to `vector`, nearest first."""
