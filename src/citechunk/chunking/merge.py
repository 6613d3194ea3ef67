"""Optional merging of small sibling sections (``min_tokens``).

Rule: a run of consecutive sections that each made exactly one chunk whose body (the chunk
text without its path line) is smaller than ``min_tokens`` and share the same parent heading (the same heading occurrence, not just the same
title) is joined into one chunk, starting at the first sibling's heading line so the siblings'
own headings stay in the body, and carrying the shared parent path. A run stops once the merged
chunk's body reaches ``min_tokens`` or when the next sibling would push it over ``max_tokens``.
Sections never merge across parents, and the preamble before the first heading never merges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from .sections import Section
from .split import Piece


class SectionPieces(NamedTuple):
    """The pieces made from one section (or a merged run) and the heading path they carry.
    (An immutable NamedTuple rather than a dataclass: one is made per section, hot path.)"""

    section: Section
    path: tuple[str, ...]
    head: str  # the path as chunk text starts with it ("" or path + blank line)
    pieces: tuple[Piece, ...]
    head_tokens: int = 0  # tokens of ``head`` (a piece's body is its tokens less these)

    def body_tokens(self) -> int:
        """Tokens of the first piece's text less its path line."""
        return self.pieces[0].tokens - self.head_tokens


Join = Callable[[list[SectionPieces]], SectionPieces | None]


def merge_siblings(
    groups: Iterable[SectionPieces], min_tokens: int, join: Join
) -> Iterator[SectionPieces]:
    """Apply the module's merge rule lazily; ``join`` returns None when a run would not fit."""

    def small(g: SectionPieces) -> bool:
        return g.section.level > 0 and len(g.pieces) == 1 and g.body_tokens() < min_tokens

    run: list[SectionPieces] = []
    merged: SectionPieces | None = None
    for g in groups:
        if run and small(g) and g.section.parent_start == run[0].section.parent_start:
            candidate = join([*run, g])
            if candidate is not None:
                run.append(g)
                merged = candidate
                if candidate.body_tokens() >= min_tokens:
                    yield merged
                    run, merged = [], None
                continue
        if run:
            yield merged if merged is not None else run[0]
            run, merged = [], None
        if small(g):
            run = [g]
        else:
            yield g
    if run:
        yield merged if merged is not None else run[0]
