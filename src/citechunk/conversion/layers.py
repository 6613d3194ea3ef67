"""Content layers of a page's blocks: the running lines of page headers and footers are
furniture, out of the text (pymupdf layout path, with ``strip_headers_footers``).

The layout model calls any short line in the top or bottom band a page header or footer, so
a page-header/page-footer block goes to the furniture layer only when one of its text-layer
lines is a running line of its page (its `runninglines.line_signature`, blanks and unreadable
characters aside, among the page's running lines), or when it holds over `MAX_RUNNING_CHARS`
characters (body text the model misread). Its other lines stay in the body: one "text" block per text-layer block,
placed after the last body block above them that shares their column (else where the header
or footer stood). A short header or footer without a running line stays in the body as read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import groupby

from .blocks import Block, Layer, Line
from .render import block_markdown
from .runninglines import line_signature
from .textlayer import union_box

#: A page-header/-footer block longer than this is body text the layout model misclassified.
MAX_RUNNING_CHARS = 200
RUNNING_KINDS = frozenset({"page-header", "page-footer"})
_UNREAD = re.compile(r"[\s\x00-\x1f\ufffd]+")


def _key(text: str) -> str:
    """The line's signature without blanks, control characters and U+FFFD (the layout path
    reads a control character of the text layer as U+FFFD)."""
    return _UNREAD.sub("", line_signature(text))


def layer_lines(block: Block) -> list[Line]:
    """The block's lines cut into the text layer's own lines (spans of one layer block and
    line; a layout line joins layer lines at one height)."""
    out = []
    for line in block.lines:
        for _, group in groupby(line.spans, key=lambda s: (s.block, s.line)):
            spans = tuple(group)
            out.append(Line(union_box(s.bbox for s in spans), spans))
    return out


def furniture_layer(blocks: Sequence[Block], running: Mapping[str, int]) -> tuple[Block, ...]:
    """The page's `blocks` with its running headers and footers in the furniture layer and
    their other lines moved into the body (module docstring); `running` holds the signatures
    of the page's running lines."""
    keys = {_key(s) for s in running}
    out: list[Block] = []
    kept: list[tuple[Block, list[Block]]] = []
    for block in blocks:
        lines = layer_lines(block) if block.kind in RUNNING_KINDS else []
        runs = [ln for ln in lines if _key(ln.text) in keys]
        long = bool(lines) and len(block_markdown(block).strip()) > MAX_RUNNING_CHARS
        if not runs and not long:
            out.append(block)
            continue
        why = f"{len(runs)} running lines" if runs else f"over {MAX_RUNNING_CHARS} characters"
        out.append(replace(block, layer=Layer.FURNITURE, evidence=(*block.evidence, why)))
        body = [ln for ln in lines if _key(ln.text) not in keys and ln.text.strip()]
        kept.append((out[-1], _text_blocks(block, body)))
    for furniture, moved in kept:
        at = _after(out, furniture, min(ln.bbox[1] for ln in furniture.lines))
        out[at:at] = moved
    return tuple(out)


def _text_blocks(block: Block, lines: list[Line]) -> list[Block]:
    """One body "text" block per text-layer block of `lines`."""
    out = []
    for _, group in groupby(lines, key=lambda ln: ln.spans[0].block):
        part = tuple(group)
        bbox = union_box(s.bbox for ln in part for s in ln.spans)
        out.append(Block(block.page, bbox, "text", part, layer=Layer.BODY))
    return out


def _after(blocks: list[Block], furniture: Block, top: float) -> int:
    """The index after the last block of the body (not a header or footer) above `top` that
    shares `furniture`'s column; without one, the index after `furniture`."""
    x0, _, x1, _ = furniture.bbox
    at = next(i for i, b in enumerate(blocks) if b is furniture) + 1
    found = [
        i
        for i, b in enumerate(blocks)
        if b.kind not in RUNNING_KINDS
        and b.bbox[2] > x0
        and b.bbox[0] < x1
        and b.bbox[3] <= top + 2
        and b.layer is not Layer.FURNITURE
    ]
    return found[-1] + 1 if found else at
