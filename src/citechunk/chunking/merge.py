"""Packing small sections together (no fragments): short sections always, ``min_tokens`` on request.

Rule: sections that made exactly one chunk each form runs of consecutive sections under one
parent heading occurrence (siblings: the same parent occurrence, not just the same title), or a
parent's body with its children when the parent's body alone started the run. A section joins
the run before it when the joined chunk fits ``max_tokens`` and either the section is *short*
(its body, the chunk text without its path line, is under ``short`` tokens) or the run's body
is still under ``max(short, min_tokens)`` or (with ``short``) ends with a lead-in line (its last line ends in a
colon: "as follows:", the list it introduces being the next section). So a run of two-line articles or fee lines becomes one
chunk up to the window, a short section after a long sibling joins it, and two long sections
never merge (unless ``min_tokens`` asks for it). The joined chunk starts at the first sibling's
heading line, so every merged heading stays in the body, and carries the shared parent path;
a parent's run carries the parent's own path with the children's headings in the body.
Navigation (`navigation.chunk_role`) and text never merge. Sections never merge across parents
otherwise; the preamble before the first heading (a cover's lines) merges only when it is short,
with the top-level sections after it under the document's path; a section split into several
pieces never merges.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from .navigation import chunk_role
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


_LEAD_END = re.compile(r"[^:]:[*_\s]*$")


def _role(g: SectionPieces) -> str:
    """The group's `navigation.chunk_role`: a contents list never joins the text after it."""
    return chunk_role(g.pieces[0].body)


def _leads(g: SectionPieces) -> bool:
    """Whether the group's text ends with a lead-in line (its last line ends in a colon)."""
    body = g.pieces[-1].body
    return not body.endswith("```") and bool(_LEAD_END.search(body[body.rfind("\n") + 1 :]))


# ``join(run, own)``: the run as one chunk (``own``: under the first section's own path, its
# children following; else under its parent's path), or None when it would not fit.
Join = Callable[[list[SectionPieces], bool], SectionPieces | None]


def merge_siblings(
    groups: Iterable[SectionPieces], min_tokens: int, join: Join, short: int = 0
) -> Iterator[SectionPieces]:
    """Apply the module's merge rule lazily (``short``: the short-section size in tokens)."""
    target = max(short, min_tokens)

    def small(g: SectionPieces) -> bool:
        return g.body_tokens() < short

    run: list[SectionPieces] = []
    merged: SectionPieces | None = None
    own = False  # the run is a parent's body with its children
    for g in groups:
        if run and len(g.pieces) == 1:
            first = run[0].section
            current = merged if merged is not None else run[0]
            child = g.section.parent_start == first.heading_start and (own or len(run) == 1)
            sibling = not own and g.section.parent_start == first.parent_start
            wanted = small(g) or current.body_tokens() < target or (short > 0 and _leads(current))
            wanted = wanted and _role(g) == _role(run[-1])
            candidate = join([*run, g], child) if (child or sibling) and wanted else None
            if candidate is not None:
                run.append(g)
                merged, own = candidate, child
                continue
        if run:
            yield merged if merged is not None else run[0]
            run, merged, own = [], None, False
        if len(g.pieces) == 1 and (g.section.level > 0 or small(g)):
            run = [g]
        else:
            yield g
    if run:
        yield merged if merged is not None else run[0]
