"""The table rule for every Markdown table, whatever made it (`tables.grid.check_grid`).

The pymupdf layout path applies the rule to its table boxes before rendering (`tablecheck`);
tables from other paths (Docling, pymupdf4llm's own table finder, a table continued across
pages) get it here, against the words of the page's text layer; the row lines of any grid
cut a word printed sideways, so its pieces are no evidence of a column line cutting words
(`grid.cut_words`). A pipe table whose grid the
rule mends is rewritten mended (one line per cell: the lines of a cell are joined by a space);
a pipe table whose grid contradicts the text layer is read as text instead, each printed line
of a row (a cell's lines are split at ``<br>``) one line of its cells' text, two neighbouring pieces that make a word of the page's text layer, one of
them not a word there, joined into that word; each is logged at debug level with its page and
reason ("table flattened: page N: REASON"). A table the rule leaves alone keeps its bytes.
Without a text layer nothing changes. The rule runs page by page: where it raises, that page
alone keeps its tables as they were (`passguard`).
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from typing import TYPE_CHECKING

from ...textkeys import compact_key
from ..mdlines import iter_unfenced
from ..passguard import guarded
from .grid import Grid, check_grid, new_captions, parse, plain, render, words

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)

#: The pass's name in `pipeline.PASSES` (its failures are recorded per page under it).
PASS_NAME = "table-words"


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


def _as_text(grid: Grid, layer: Counter[str]) -> list[str]:
    """Each printed line of each row: the row's cells' lines of that height, left to right."""
    lines = []
    for row in grid:
        for k in range(max((len(c) for c in row), default=0)):
            parts = [plain([cell[k]]) for cell in row if k < len(cell)]
            tokens = [t for part in parts for t in part.split()]
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


def _page(number: int, text: str, layer: Counter[str], sideways: Counter[str]) -> str:
    lines = text.split("\n")
    for start, end in reversed(_tables(lines)):
        grid = parse(lines[start:end])
        if not grid:
            continue
        checked = check_grid(grid, layer, sideways)
        if checked.reason:
            log.debug("table flattened: page %d: %s", number, checked.reason)
            lines[start:end] = _as_text(grid, layer)
        elif checked.changed:
            log.debug("table mended: page %d: %d cut words", number, checked.mended)
            above = next((ln for ln in reversed(lines[:start]) if ln.strip()), "")
            caption = [f"**{line}**\n" for line in new_captions(checked.caption, above)]
            lines[start:end] = [*caption, *render(checked.grid).split("\n")]
    return "\n".join(lines)


def check_table_words(pages: Pages, ctx: PassContext) -> Pages:
    """Every pipe table is checked against the page's text layer: cut words are mended and
    stacked headers joined, and only a grid that contradicts the text layer becomes lines of
    text (module docstring)."""
    if ctx.text_layer is None:
        return list(pages)
    out = []
    for number, text in pages:
        if "|" in text:
            lines = ctx.text_layer.page(number).lines
            layer = words(line.text for line in lines)
            sideways = words(line.text for line in lines if line.vertical)
            run = functools.partial(_page, number, text, layer, sideways)
            text = guarded(PASS_NAME, number, run, text, ctx.failures, ctx.source)
        out.append((number, text))
    return out
