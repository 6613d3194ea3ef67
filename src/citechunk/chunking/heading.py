"""The heading-first chunker: one chunk per section that fits, size fallback inside sections.

Contract (tested with hypothesis in tests/test_chunking_properties.py):
- ``text`` = " > ".join(heading_path) + "\\n\\n" + body, or just ``body`` when the path is empty;
  ``token_count`` is the tokenizer's count of ``text`` and is <= ``max_tokens``.
- Offset invariant: ``strip_markers(markdown[char_start:char_end]).strip() == body``, except that
  a piece of a split table that does not start with the table's header gets the header row and
  separator prepended: ``body == header + "\\n" + that``. Spans are tight (they start and end on
  a non-space character outside marker lines), so ``first_page``/``last_page`` are the pages of
  the span's first and last characters and blank lines before a page marker claim no page.
- With ``overlap_tokens == 0`` and ``min_tokens == 0`` spans are disjoint and, in order, cover
  every non-space character outside heading lines and page markers exactly once.
- A heading with no body makes no chunk but stays in the path of what follows; no chunk is only
  a heading. Overlap only happens between fallback pieces of one section.
- Heading paths take at most half of ``max_tokens``: when longer, outer headings are dropped
  from the path (and a single over-long heading is shortened to its leading words).
- Deterministic: the same input and options give the same chunks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..config import ChunkOptions
from ..models import Chunk
from .base import Chunker
from .merge import SectionPieces, merge_siblings
from .pages import PageMap
from .sections import Section, parse_outline
from .split import Measure, Packer, Piece, Splitter

log = logging.getLogger(__name__)

PATH_SEPARATOR = " > "


@dataclass(frozen=True)
class Prefix:
    """The heading path as it appears in chunk text, and its token count."""

    path: tuple[str, ...]
    text: str
    tokens: int


class HeadingChunker(Chunker):
    """Heading-first chunking (see the module docstring for the contract)."""

    name = "heading"

    def __init__(self, options: ChunkOptions | None = None) -> None:
        super().__init__(options)
        self._prefixes: dict[tuple[str, ...], Prefix] = {}

    def chunk(self, markdown: str) -> list[Chunk]:
        pages = PageMap(markdown, self.options.start_page)
        outline = parse_outline(markdown, self.options.max_depth)
        splitter = Splitter(pages, outline.fences, self.counter)
        groups: list[SectionPieces] = []
        for section in outline.sections:
            prefix = self.prefix(section.path)
            pieces = self._section(splitter, section, prefix)
            if pieces:
                groups.append(SectionPieces(section, prefix.path, tuple(pieces)))
        if self.options.min_tokens > 0:
            groups = merge_siblings(
                groups, self.options.min_tokens, lambda run: self._join(pages, run)
            )
        return self._records(pages, groups)

    # -- sizes -----------------------------------------------------------------------------
    def prefix(self, path: tuple[str, ...]) -> Prefix:
        """The displayed path for ``path``, fitted into half of ``max_tokens`` (cached)."""
        cached = self._prefixes.get(path)
        if cached is None:
            cached = self._fit_prefix(path)
            self._prefixes[path] = cached
        return cached

    def _fit_prefix(self, path: tuple[str, ...]) -> Prefix:
        limit = self.options.max_tokens // 2
        while path:
            text = PATH_SEPARATOR.join(path) + "\n\n"
            tokens = self.counter.count(text)
            if tokens <= limit:
                return Prefix(path, text, tokens)
            if len(path) > 1:
                path = path[1:]
                continue
            words = path[0].split()
            lo, hi = 0, len(words) - 1  # longest leading run of words that fits
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self.counter.count(" ".join(words[:mid]) + "\n\n") <= limit:
                    lo = mid
                else:
                    hi = mid - 1
            path = (" ".join(words[:lo]),) if lo else ()
            log.debug("heading shortened to fit max_tokens: %r", path)
        return Prefix((), "", 0)

    def _measure(self, pages: PageMap, prefix: Prefix) -> Measure:
        counter = self.counter

        def measure(start: int, end: int, header: str) -> tuple[str, int]:
            body = pages.text(start, end)
            if header:
                body = header + "\n" + body
            if counter.approx:
                return body, (len(prefix.text) + len(body) + 3) // 4
            return body, counter.count(prefix.text + body)

        return measure

    # -- sections --------------------------------------------------------------------------
    def _section(self, splitter: Splitter, section: Section, prefix: Prefix) -> list[Piece]:
        span = splitter.pages.trim(section.body_start, section.body_end)
        if span is None:
            return []
        start, end = span
        max_tokens = self.options.max_tokens
        budget = max_tokens - prefix.tokens
        measure = self._measure(splitter.pages, prefix)
        if splitter.maybe_fits(start, end, budget):
            body, tokens = measure(start, end, "")
            if tokens <= max_tokens:
                return [Piece(start, end, "", body, tokens)]
        units = splitter.units(start, end, budget)
        packer = Packer(splitter, budget, max_tokens, self.options.overlap_tokens, measure)
        return packer.pack(units)

    def _join(self, pages: PageMap, run: list[SectionPieces]) -> SectionPieces | None:
        """One piece from the first sibling's heading line to the last sibling's end."""
        first = run[0].section
        prefix = self.prefix(first.parent)
        span = pages.trim(first.heading_start, run[-1].pieces[-1].end)
        if span is None:  # pragma: no cover - the run has bodies
            return None
        body, tokens = self._measure(pages, prefix)(span[0], span[1], "")
        if tokens > self.options.max_tokens:
            return None
        return SectionPieces(first, prefix.path, (Piece(span[0], span[1], "", body, tokens),))

    def _records(self, pages: PageMap, groups: list[SectionPieces]) -> list[Chunk]:
        chunks: list[Chunk] = []
        for group in groups:
            head = PATH_SEPARATOR.join(group.path) + "\n\n" if group.path else ""
            for piece in group.pieces:
                chunks.append(
                    Chunk(
                        chunk_index=len(chunks),
                        text=head + piece.body,
                        body=piece.body,
                        heading_path=group.path,
                        first_page=pages.page_at(piece.start),
                        last_page=pages.page_at(piece.end - 1),
                        char_start=piece.start,
                        char_end=piece.end,
                        token_count=piece.tokens,
                    )
                )
        return chunks
