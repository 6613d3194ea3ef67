"""The chunker interface shared by the heading-first strategy and the fixed-size baseline."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import ClassVar

from ..config import ChunkOptions, check_sizes
from ..models import Chunk
from .embedder import EmbedderSpec, chunk_limit, resolve_embedder
from .tokens import TokenCounter


class Chunker(ABC):
    """Turns one page-marked Markdown document into chunks.

    Contract for every implementation: deterministic; chunks in document order with
    ``chunk_index`` 0, 1, ...; ``token_count`` is the embedder's tokenizer's count of ``text`` and
    never exceeds ``max_tokens``, which never exceeds the embedder's window less its special
    tokens (``self.options.max_tokens`` is that resolved limit, never 0); ``strip_markers(markdown[char_start:char_end]).strip()`` equals
    ``body`` (after any repeated table header rows); pages are those of the span's characters.
    """

    name: ClassVar[str]

    def __init__(self, options: ChunkOptions | None = None) -> None:
        options = options or ChunkOptions()
        self.embedder: EmbedderSpec = resolve_embedder(options.embedder)
        limit = chunk_limit(self.embedder, options.max_tokens)
        check_sizes(options, limit, "chunk options")
        self.options = dataclasses.replace(options, max_tokens=limit)
        self.counter: TokenCounter = self.embedder.counter

    @abstractmethod
    def chunk(self, markdown: str) -> list[Chunk]:
        """All chunks of ``markdown``."""
