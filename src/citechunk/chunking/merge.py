"""Optional merging of small sections (``min_tokens``).

Rule: a section that made exactly one chunk whose body (the chunk text without its path line)
is smaller than ``min_tokens`` starts a run, and the sections after it join the run while the
run's body is still under ``min_tokens``, each joined section made exactly one chunk, and the
joined chunk fits ``max_tokens``:
- a sibling (the same parent heading occurrence, not just the same title) joins; the chunk
  starts at the first sibling's heading line, so every merged heading stays in the body, and
  carries the shared parent path;
- a child of a run's only section (a parent's short lead text before its first subsection)
  joins it; the chunk starts at the parent's body and carries the parent's path, the children's
  headings in the body; later children of that parent may join in turn.
Sections never merge across parents otherwise, and the preamble before the first heading never
merges. A lone small section that nothing may join stays as it is.
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


# ``join(run, own)``: the run as one chunk (``own``: under the first section's own path, its
# children following; else under its parent's path), or None when it would not fit.
Join = Callable[[list[SectionPieces], bool], SectionPieces | None]


def merge_siblings(
    groups: Iterable[SectionPieces], min_tokens: int, join: Join
) -> Iterator[SectionPieces]:
    """Apply the module's merge rule lazily."""

    def small(g: SectionPieces) -> bool:
        return g.section.level > 0 and len(g.pieces) == 1 and g.body_tokens() < min_tokens

    run: list[SectionPieces] = []
    merged: SectionPieces | None = None
    own = False  # the run is a parent's lead with its children
    for g in groups:
        if run and len(g.pieces) == 1:
            first = run[0].section
            child = g.section.parent_start == first.heading_start and (own or len(run) == 1)
            sibling = not own and g.section.parent_start == first.parent_start
            candidate = join([*run, g], child) if child or sibling else None
            if candidate is not None:
                run.append(g)
                merged, own = candidate, child
                if candidate.body_tokens() >= min_tokens:
                    yield merged
                    run, merged, own = [], None, False
                continue
        if run:
            yield merged if merged is not None else run[0]
            run, merged, own = [], None, False
        if small(g):
            run = [g]
        else:
            yield g
    if run:
        yield merged if merged is not None else run[0]
