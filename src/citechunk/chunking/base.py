"""The chunker interface shared by the heading-first strategy and the fixed-size baseline."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from ..config import ChunkOptions
from ..models import Chunk
from .tokens import TokenCounter, get_counter


class Chunker(ABC):
    """Turns one page-marked Markdown document into chunks.

    Contract for every implementation: deterministic; chunks in document order with
    ``chunk_index`` 0, 1, ...; ``token_count`` is the configured tokenizer's count of ``text`` and
    never exceeds ``max_tokens``; ``strip_markers(markdown[char_start:char_end]).strip()`` equals
    ``body`` (after any repeated table header rows); pages are those of the span's characters.
    """

    name: ClassVar[str]

    def __init__(self, options: ChunkOptions | None = None) -> None:
        self.options = options or ChunkOptions()
        self.counter: TokenCounter = get_counter(self.options.tokenizer)

    @abstractmethod
    def chunk(self, markdown: str) -> list[Chunk]:
        """All chunks of ``markdown``."""
