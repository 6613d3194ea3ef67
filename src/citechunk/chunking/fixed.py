"""A plain fixed-size baseline: token windows over the words of the whole document.

Headings are ordinary text here (no sections, empty ``heading_path``); windows hold at most
``max_tokens`` tokens and consecutive windows share up to ``overlap_tokens``. Offsets and pages
follow the same contract as the heading chunker (`Chunker`), so retrieval evaluations can
compare the two strategies on equal terms.
"""

from __future__ import annotations

from ..config import ChunkOptions
from ..models import Chunk
from .base import Chunker
from .pack import Packer
from .pages import PageMap
from .split import Splitter


class FixedChunker(Chunker):
    """Fixed-size token windows on word boundaries (see the module docstring)."""

    name = "fixed"

    def __init__(self, options: ChunkOptions | None = None) -> None:
        super().__init__(options)

    def chunk(self, markdown: str) -> list[Chunk]:
        pages = PageMap(markdown, self.options.start_page)
        splitter = Splitter(pages, (), self.counter)
        limit = self.options.max_tokens
        count = self.counter.count

        def measure(start: int, end: int, header: str) -> tuple[str, int]:
            body = pages.text(start, end)
            return body, count(body)

        units = splitter.words(0, len(markdown), limit)
        pieces = Packer(splitter, limit, limit, self.options.overlap_tokens, measure).pack(units)
        return [
            Chunk(
                chunk_index=i,
                text=p.body,
                body=p.body,
                heading_path=(),
                first_page=pages.page_at(p.start),
                last_page=pages.page_at(p.end - 1),
                char_start=p.start,
                char_end=p.end,
                token_count=p.tokens,
            )
            for i, p in enumerate(pieces)
        ]
