"""A small raised number or footnote symbol set after a word is a footnote mark (block rule
``raised-marks``).

A PDF may raise a footnote mark by moving its baseline up rather than by a superscript
font, so the text layer gives it as a plain span ("Engineering", "9") and the mark reads as
part of the word ("Engineering9"). `flag_raised_marks(pages)`: in a line of a body block, a
span whose text is a footnote mark (one to three digits, a list of them, or a footnote
symbol ∗ † ‡ § ¶), set at most `SMALLER` of the size of the span it stands against (the
visible span before it in the line, which it touches: no blank between them and
the gap is at most `TOUCH` of its size; else the one after it, a note's opening mark) and whose baseline stands at
least `RAISE` of that span's size above that span's baseline, is flagged superscript. The
renderer writes a superscript ``<sup>``, and `repairs.tidy` writes a superscript number after
a word as the text's footnote mark `` [N]``.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..blocks import SUPERSCRIPT, Block, Line
from ..spans import is_raised_mark
from .common import Pages

log = logging.getLogger(__name__)

_KINDS = frozenset({"text", "list-item", "footnote", "caption"})


def _flagged(line: Line, before: Line | None) -> Line:
    """The line with its raised marks flagged; `before`: the block's line before it (None in
    the block's first line), whose last span a mark opening this line may stand against."""
    head = tuple(s for s in before.spans if s.text.strip())[-1:] if before else ()
    spans = (*head, *line.spans)
    flags = [is_raised_mark(spans, i, before is None) for i in range(len(head), len(spans))]
    new = tuple(
        replace(s, flags=s.flags | SUPERSCRIPT) if mark else s
        for s, mark in zip(line.spans, flags, strict=True)
    )
    return line if new == line.spans else replace(line, spans=new)


def _marked(block: Block) -> Block:
    if block.kind not in _KINDS:
        return block
    previous = (None, *block.lines[:-1]) if block.lines else ()
    lines = tuple(
        _flagged(line, before) for line, before in zip(block.lines, previous, strict=True)
    )
    if lines == block.lines:
        return block
    return replace(block, lines=lines, evidence=(*block.evidence, "raised marks: superscript"))


def flag_raised_marks(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Small raised numbers and footnote symbols are flagged superscript (module docstring)."""
    out = {n: tuple(_marked(b) for b in blocks) for n, blocks in pages.items()}
    changed = sum(a is not b for n in out for a, b in zip(out[n], pages[n], strict=True))
    log.debug("raised marks flagged in %d blocks", changed)
    return out
