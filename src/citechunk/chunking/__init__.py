"""Chunk stage: heading-first chunking of page-marked Markdown (being built: issue 3)."""

from __future__ import annotations

from ..config import ChunkOptions
from ..models import Chunk


def chunk_markdown(markdown: str, options: ChunkOptions | None = None) -> list[Chunk]:
    raise NotImplementedError("the chunker lands with issue 3")
