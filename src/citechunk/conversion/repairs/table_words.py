"""Every Markdown table gets the cut-word check, whatever made it.

The pymupdf layout path checks its table boxes against the text layer before rendering
(`tablecheck`); tables from other paths (Docling, pymupdf4llm's own table finder, a table
continued across pages) are checked here, by the same measure (`tablecheck.cut_words`): cell
words the page's text layer lacks but holds inside a longer word were cut by a column line.
A pipe table with at least `tablecheck.MAX_CUT_WORDS` cut words and no other lost word
("|Eur|ope|") is read as text instead: each row becomes one line of its cells' text, and two
neighbouring pieces that make a word of the page's text layer, one of them not a word there,
are joined into that word. Without a text layer nothing changes.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import TYPE_CHECKING

from ...mdsyntax import TABLE_SEPARATOR_RE
from ...textkeys import compact_key
from ..mdlines import iter_unfenced, strip_inline_markup
from ..tablecheck import MAX_CUT_WORDS, cut_words, words

if TYPE_CHECKING:
    from ..pipeline import Pages, PassContext

log = logging.getLogger(__name__)


def _cells(row: str) -> list[str]:
    return [strip_inline_markup(c).strip() for c in row.strip().strip("|").split("|")]


def _joined(tokens: list[str], layer: Counter[str]) -> str:
    """`tokens` as text, neighbours joined where together they are a layer word and one of
    them is not."""
    out: list[str] = []
    for token in tokens:
        if out:
            whole = compact_key(out[-1] + token)
            pieces = (compact_key(out[-1]), compact_key(token))
            if layer[whole] and whole not in pieces and not all(layer[p] for p in pieces):
                out[-1] += token
                continue
        out.append(token)
    return " ".join(out)


def _as_text(rows: list[str], layer: Counter[str]) -> list[str]:
    lines = []
    for row in rows:
        tokens = [t for cell in _cells(row) for t in cell.split()]
        if tokens:
            lines.append(_joined(tokens, layer))
    return lines


def _tables(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line ranges of the pipe tables outside code fences."""
    spans: list[tuple[int, int]] = []
    start = None
    for i, inside in iter_unfenced(lines):
        row = not inside and lines[i].lstrip().startswith("|")
        if row and start is None:
            start = i
        if not row and start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, len(lines)))
    return spans


def _page(text: str, layer: Counter[str]) -> tuple[str, int]:
    lines = text.split("\n")
    replaced = 0
    for start, end in reversed(_tables(lines)):
        rows = [r for r in lines[start:end] if not TABLE_SEPARATOR_RE.fullmatch(r)]
        cut, lost = cut_words([_cells(r) for r in rows], layer)
        if cut >= MAX_CUT_WORDS and not lost:
            lines[start:end] = _as_text(rows, layer)
            replaced += 1
    return "\n".join(lines), replaced


def check_table_words(pages: Pages, ctx: PassContext) -> Pages:
    """Pipe tables whose cells cut words the page's text layer has whole become lines of text
    (module docstring)."""
    if ctx.text_layer is None:
        return list(pages)
    out = []
    for number, text in pages:
        if "|" in text:
            layer = words(line.text for line in ctx.text_layer.page(number).lines)
            text, replaced = _page(text, layer)
            if replaced:
                log.debug("page %d: %d tables cutting words read as text", number, replaced)
        out.append((number, text))
    return out
