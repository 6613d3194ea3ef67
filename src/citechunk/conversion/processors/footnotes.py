"""Footnotes are footnote blocks (block rule ``footnote-blocks``), and a page's footnotes do not
stand inside a paragraph running on to the next page (block rule ``footnotes-before-run-on``).

`footnote_blocks(pages)`: a layout model may call a footnote a list item or text, and the fast
path has no footnote kind, so the note renders as a list item or a paragraph glued to its
number. A "text" or "list-item" block becomes a "footnote" block when the mark it opens with
is cited on its page: its first line opens with a raised mark (`blocks.Line.raised_start`),
or it is one of the page's trailing note blocks (below) and opens with a number or a
footnote symbol; and that mark is the text of a superscript span inside another body block of
the page (not a footnote block, not the span opening a block). `render` writes a footnote
block as footnote paragraphs, never as a quote or a list item.

Footnotes are set at the foot of their page, so read in order they come between the two
halves of the page's last paragraph when that paragraph goes on over the page break; the
paragraph is then cut in two and the next page's half opens a chunk mid-sentence.

`footnotes_before_run_on(pages)`: the page's notes are its trailing run of note blocks in
reading order (page headers, footers and pictures passed over and left in place). A note
block is a "footnote" block, or (a layout model may call a footnote a list item or text, and
the fast path has no footnote kind) a "text" or "list-item" block set smaller than the body
(its largest size at most `SMALLER` of `body_size`, the size carrying most of the
document's text) whose top lies below the bottom of the body block before the run; a block
of the run opens with a number or a footnote mark (`opens_with_mark`; the first may be the
end of a note the page before began). When the body block before the notes is prose that
the next page's first body block goes on with (`repairs.sentences.runs_on`: it ends without
a sentence end, the other opens lower-case), both judged as rendered and tidied
(`render.block_markdown`, `repairs.tidy.tidy_page`), as the ``broken-sentences`` pass reads
them (a paragraph set in italics ends with an emphasis mark, where that pass finds no
run-on), the notes move to just before that block. They stay on their own page, so page numbers stay true, and the
paragraph ends the page, where ``broken-sentences`` finds it continued and
`markers.render_pages` sets the next page's marker inside it.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..blocks import Block
from ..render import block_markdown, note_mark
from ..repairs.sentences import runs_on
from ..repairs.tidy import tidy_page
from .common import MARGIN_KINDS, Pages

log = logging.getLogger(__name__)

#: A text block set at most this share of the body size is small type (a footnote's).
SMALLER = 0.92
#: Points: a note's top may stand this much above the bottom of the body block before it.
OVERLAP = 2.0
_PASSED = MARGIN_KINDS | {"picture"}
_BODY_KINDS = frozenset({"text", "list-item"})
_MARK_RE = re.compile(r"^\s*(?:\[?\d{1,3}\]?|[*∗†‡§¶]+)")
_CITED_SPLIT_RE = re.compile(r"[,\s–-]+")


def body_size(pages: Pages) -> float:
    """The document's body size: the span size (to 0.1 pt) carrying most characters of its
    text and list-item blocks (0 without any)."""
    chars: Counter[float] = Counter()
    for blocks in pages.values():
        for block in blocks:
            if block.kind in _BODY_KINDS:
                for line in block.lines:
                    for span in line.spans:
                        chars[round(span.size, 1)] += len(span.text.strip())
    return max(chars, key=lambda size: (chars[size], size), default=0.0)


def _largest(block: Block) -> float:
    return max((s.size for ln in block.lines for s in ln.spans if s.text.strip()), default=0.0)


def opens_with_mark(block: Block) -> bool:
    """The block's first line opens with a raised mark, a number or a footnote symbol."""
    if not block.lines:
        return False
    return block.lines[0].raised_start or bool(_MARK_RE.match(block.lines[0].shown))


def _small(block: Block, body: float) -> bool:
    return block.kind in _BODY_KINDS and 0 < _largest(block) <= body * SMALLER


def trailing_notes(blocks: Sequence[Block], body: float) -> tuple[list[int], int | None]:
    """Indexes of the page's trailing note blocks (in order) and of the body block before them
    (module docstring); ([], None) when the page does not end with notes."""
    notes: list[int] = []
    for i in range(len(blocks) - 1, -1, -1):
        block = blocks[i]
        if block.kind in _PASSED or not block.text:
            continue
        if block.kind == "footnote" or _small(block, body):
            notes.insert(0, i)
            continue
        before = block
        ruled = [j for j in notes if blocks[j].kind != "footnote"]
        below = all(blocks[j].bbox[1] >= before.bbox[3] - OVERLAP for j in ruled)
        marked = any(blocks[j].kind == "footnote" or opens_with_mark(blocks[j]) for j in notes)
        return (notes, i) if notes and below and marked else ([], None)
    return [], None


def _as_read(block: Block) -> str:
    """The block's Markdown as the Markdown passes read it: rendered, then tidied (tags such as
    ``<mark>`` dropped, raised marks written `` [N]``)."""
    return tidy_page(block_markdown(block))


def _first_body(blocks: Sequence[Block]) -> Block | None:
    return next((b for b in blocks if b.kind not in _PASSED and b.text), None)


def footnotes_before_run_on(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """A page's footnotes go before its last paragraph when that paragraph runs on to the
    next page (module docstring)."""
    body = body_size(pages)
    numbers = sorted(pages)
    out = {n: tuple(blocks) for n, blocks in pages.items()}
    for number, following in zip(numbers, numbers[1:], strict=False):
        blocks = out[number]
        notes, at = trailing_notes(blocks, body)
        first = _first_body(pages[following])
        if at is None or first is None or first.kind not in _BODY_KINDS:
            continue
        last = blocks[at]
        if last.kind not in _BODY_KINDS or not runs_on(_as_read(last), _as_read(first)):
            continue
        why = f"footnote: set before the paragraph running on to page {following}"
        moved = [replace(blocks[i], evidence=(*blocks[i].evidence, why)) for i in notes]
        rest = [b for i, b in enumerate(blocks) if i not in notes]
        out[number] = (*rest[:at], *moved, *rest[at:])
        log.debug("page %d: %d footnotes before the paragraph running on", number, len(moved))
    return out


def opening_mark(block: Block) -> str:
    """The mark `block` opens with: the number or footnote symbol opening its text, raised or
    not ("" without one: `render.note_mark`)."""
    return note_mark(block.lines[0]) if block.lines else ""


def cited_marks(blocks: Sequence[Block]) -> set[str]:
    """The marks the page's body blocks cite: the texts of their superscript spans, a span
    opening a block aside (that is the block's own mark), footnote blocks and page furniture
    aside."""
    marks: set[str] = set()
    for block in blocks:
        if block.kind == "footnote" or block.kind in _PASSED:
            continue
        spans = [s for line in block.lines for s in line.spans if s.text.strip()]
        for span in spans[1:]:
            if span.superscript:
                marks.update(m for m in _CITED_SPLIT_RE.split(span.text.strip()) if m)
    return marks


def _page_notes(blocks: Sequence[Block], body: float) -> list[int]:
    """Indexes of the page's text and list-item blocks that are footnotes (module docstring)."""
    cited = cited_marks(blocks)
    if not cited:
        return []
    trailing = set(trailing_notes(blocks, body)[0])
    out = []
    for i, block in enumerate(blocks):
        if block.kind not in _BODY_KINDS or not block.lines:
            continue
        raised = block.lines[0].raised_start
        if (raised or i in trailing) and opening_mark(block) in cited:
            out.append(i)
    return out


def footnote_blocks(pages: Pages) -> dict[int, tuple[Block, ...]]:
    """Text and list-item blocks opening with a mark their page cites become footnote blocks
    (module docstring)."""
    body = body_size(pages)
    out = {n: tuple(blocks) for n, blocks in pages.items()}
    for number, blocks in out.items():
        notes = _page_notes(blocks, body)
        if notes:
            why = f"footnote: opens with mark {{}} cited on page {number}"
            out[number] = tuple(
                replace(
                    b, kind="footnote", depth=0, evidence=(*b.evidence, why.format(opening_mark(b)))
                )
                if i in notes
                else b
                for i, b in enumerate(blocks)
            )
            log.debug("page %d: %d blocks are footnotes", number, len(notes))
    return out
