"""Running headers, footers and margin stamps leave the Markdown.

Which lines run is decided once, from the PDF's text layer, by `runninglines.find_running`
(position among the page's own lines, repetition across pages, the outline). This pass only
finds those lines in each page's Markdown: a Markdown line (outside code fences, not a table
row) whose signature, markup and heading marks stripped, is one of the page's running lines
goes, as many times as the page holds that running line and never so often that fewer
occurrences remain than the page's body has (a chapter heading "Diagnosis" stays when the
layout step already cut the footer "Diagnosis"); plain lines go before heading lines, those
nearest the start or end of the page's Markdown first. Without a text layer nothing is
removed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..mdlines import iter_unfenced, strip_inline_markup, tidy_blank_lines
from ..runninglines import line_signature

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)


def markdown_signature(line: str) -> str:
    """`runninglines.line_signature` of a Markdown line's plain text (heading marks, quote
    marks, bullets and inline markup removed)."""
    return line_signature(strip_inline_markup(line.lstrip("#> -*").replace("\\", "")))


def strip_running_lines(pages: Pages, ctx: PassContext) -> Pages:
    """Drop the Markdown lines that are the page's running lines (`runninglines`)."""
    out = []
    removed: set[str] = set()
    for number, text in pages:
        running = ctx.running.on_page(number)
        body = ctx.running.in_body(number)
        drop = _running_indexes(text.split("\n"), running, body) if running else set()
        if drop:
            lines = text.split("\n")
            removed.update(markdown_signature(lines[i]) for i in drop)
            text = tidy_blank_lines("\n".join(ln for i, ln in enumerate(lines) if i not in drop))
        out.append((number, text))
    if removed:
        log.debug("running headers/footers removed: %s", sorted(removed))
    return out


def _running_indexes(
    lines: list[str], counts: Mapping[str, int], body: Mapping[str, int]
) -> set[int]:
    """Indexes of the lines to drop (module docstring)."""
    found: dict[str, list[int]] = {}
    for i, inside in iter_unfenced(lines):
        line = lines[i].strip()
        if inside or not line or line.startswith("|"):
            continue
        sig = markdown_signature(line)
        if sig in counts:
            found.setdefault(sig, []).append(i)
    drop: set[int] = set()
    last = len(lines) - 1
    for sig, indexes in found.items():
        order = sorted(indexes, key=lambda i: (lines[i].startswith("#"), min(i, last - i)))
        drop.update(order[: min(counts[sig], len(indexes) - body.get(sig, 0))])
    return drop
