"""Chunk stage: heading-first chunking of page-marked Markdown with exact citations.

``chunk_markdown(markdown, options)`` is the public entry point (the `citechunk chunk` command
calls it). `HeadingChunker` documents the chunk contract; `FixedChunker` is a fixed-size
baseline with the same offset/page contract; `get_counter` resolves tokenizer specs and
`resolve_embedder` an embedder's tokenizer and window (`chunk.embedder`).
"""

from __future__ import annotations

from ..config import ChunkOptions
from ..errors import ConfigError
from ..models import Chunk
from .base import Chunker
from .embedder import DEFAULT_EMBEDDER, EmbedderSpec, options_limit, resolve_embedder
from .fixed import FixedChunker
from .heading import HeadingChunker
from .tokens import TokenCounter, get_counter

STRATEGIES: dict[str, type[Chunker]] = {"heading": HeadingChunker, "fixed": FixedChunker}

__all__ = [
    "DEFAULT_EMBEDDER",
    "Chunker",
    "EmbedderSpec",
    "FixedChunker",
    "HeadingChunker",
    "STRATEGIES",
    "TokenCounter",
    "chunk_markdown",
    "get_counter",
    "make_chunker",
    "options_limit",
    "resolve_embedder",
]


def make_chunker(strategy: str = "heading", options: ChunkOptions | None = None) -> Chunker:
    """A chunker by strategy name: "heading" (the default) or "fixed" (baseline)."""
    try:
        cls = STRATEGIES[strategy]
    except KeyError:
        raise ConfigError(
            f"unknown chunking strategy '{strategy}' (known: {', '.join(STRATEGIES)})"
        ) from None
    return cls(options)


def chunk_markdown(
    markdown: str, options: ChunkOptions | None = None, title: str = "", pack_short: bool = True
) -> list[Chunk]:
    """Heading-first chunks of page-marked Markdown (contract: `citechunk.chunking.heading`);
    `title` (the document's, `Provenance.title`) leads every chunk's path line; `pack_short`
    packs short sections with their neighbours (`chunking.merge`)."""
    return HeadingChunker(options, title, pack_short).chunk(markdown)
