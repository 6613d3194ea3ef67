"""Text the backend lost comes back: the self-check of each page against its text layer.

`restore_dropped_lines` compares every page's Markdown with the page's own text lines
(`coverage.body_lines`: no running lines, no page numbers). A line more than half of whose
words the Markdown lacks (`coverage.dropped_lines`) was dropped by the backend, unless its
letters and digits stand in the page's Markdown in that order with nothing between (words a
table cell glued: the line is there); consecutive dropped lines with a real word
(`_worth_restoring`) come back as plain paragraphs (one per PDF text block), placed after the
Markdown block that holds the layer line read just before them (or before the block of the
line read just after them; else at the end of the page), so they keep the PDF's reading
order. A page with text never ends up empty: when its Markdown has no letter or digit left,
all its lines come back, running lines included; but a page whose only text is running lines
that other pages set around text of their own (a page of figures under the document's running
footer) stays empty, since a chunk of page furniture alone is no text of the document. The
count of restored lines per page is
recorded in `PassContext.restored` (the provenance's ``restored_lines``).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...textkeys import compact_key
from ..coverage import body_lines, dropped_lines, words
from ..mdlines import iter_unfenced, normalize_text, tidy_blank_lines
from ..textlayer import Line

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)

#: A dropped line comes back when it has a run of this many letters or digits (in any script,
#: so three ideographs in a row count as one run, though `coverage.words` splits them).
MIN_WORD_CHARS = 3
_LONG_RUN_RE = re.compile(rf"[^\W_]{{{MIN_WORD_CHARS},}}")
_SYNTAX_START_RE = re.compile(r"^(?=[#>|<`~=+*-]|\d+[.)]\s)")
_HYPHEN_END_RE = re.compile(r"[^\W\d_]-$")


def restore_dropped_lines(pages: Pages, ctx: PassContext) -> Pages:
    """Text-layer lines the Markdown lost come back as plain paragraphs in reading order."""
    if ctx.text_layer is None:
        return list(pages)
    out = []
    for number, text in pages:
        all_lines = list(ctx.text_layer.page(number).lines)
        if not any(ch.isalnum() for ch in text) and not _furniture_only(ctx, number):
            lines, lost = all_lines, list(range(len(all_lines)))
        else:
            lines = body_lines(all_lines, ctx.running.on_page(number))
            key = compact_key(text)
            lost = [
                i
                for i in dropped_lines(lines, text)
                if _worth_restoring(lines[i]) and compact_key(lines[i].text) not in key
            ]
        if lost:
            log.debug("page %d: %d lines restored from the text layer", number, len(lost))
            ctx.restored[number] = ctx.restored.get(number, 0) + len(lost)
            text = restore_lines(text, lines, lost)
        out.append((number, text))
    return out


def _has_body(ctx: PassContext, number: int) -> bool:
    """Page `number` holds a text line that is no running line."""
    assert ctx.text_layer is not None
    lines = ctx.text_layer.page(number).lines
    return any(ln.text.strip() for ln in body_lines(lines, ctx.running.on_page(number)))


def _furniture_only(ctx: PassContext, number: int) -> bool:
    """Every text line of page `number` is a running line, and another page holds one of
    them beside text of its own: the page's text is furniture the document sets around its
    body (a footer under a page of figures), not a page whose only text repeats."""
    assert ctx.text_layer is not None
    running = set(ctx.running.on_page(number))
    if not running or _has_body(ctx, number):
        return False
    return any(
        other != number and running & set(ctx.running.on_page(other)) and _has_body(ctx, other)
        for other in ctx.text_layer.numbers
    )


def _worth_restoring(line: Line) -> bool:
    """A line with a run of at least `MIN_WORD_CHARS` letters or digits: lone symbols, indices
    and equation fragments ("(1)", "i , p−") are how the Markdown wrote a formula, not text lost."""
    return _LONG_RUN_RE.search(unicodedata.normalize("NFKC", line.text)) is not None


def restore_lines(markdown: str, lines: Sequence[Line], lost: Sequence[int]) -> str:
    """`markdown` with `lines[i]` for each index in `lost` inserted (module docstring)."""
    md = markdown.split("\n")
    md_words = [set(words(line)) for line in md]
    lost_set = set(lost)
    inserts: dict[int, list[str]] = {}
    for run in _runs(sorted(lost)):
        at = _position(md, md_words, lines, run, lost_set)
        inserts.setdefault(at, []).append(_paragraphs([lines[i] for i in run]))
    for at in sorted(inserts, reverse=True):
        md[at:at] = ["", "\n\n".join(inserts[at]), ""]
    return tidy_blank_lines("\n".join(md))


def _runs(indexes: Sequence[int]) -> list[list[int]]:
    """[1, 2, 4] -> [[1, 2], [4]]."""
    runs: list[list[int]] = []
    for i in indexes:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _position(
    md: list[str], md_words: list[set[str]], lines: Sequence[Line], run: list[int], lost: set[int]
) -> int:
    """Markdown line index to insert `run` before (module docstring)."""
    before = [j for j in range(run[0] - 1, -1, -1) if j not in lost and words(lines[j].text)]
    after = [j for j in range(run[-1] + 1, len(lines)) if j not in lost and words(lines[j].text)]
    if before:
        k = _best_line(md_words, lines[before[0]])
        if k is not None:
            return _block_end(md, k)
    if after:
        k = _best_line(md_words, lines[after[0]])
        if k is not None:
            return _block_start(md, k)
    return len(md)


def _best_line(md_words: list[set[str]], line: Line) -> int | None:
    """The Markdown line sharing most distinct words with `line` (at least half of them)."""
    want = set(words(line.text))
    scores = [len(want & have) for have in md_words]
    best = max(range(len(scores)), key=lambda k: scores[k], default=None)
    if best is None or scores[best] * 2 < len(want):
        return None
    return best


def _block_end(md: list[str], k: int) -> int:
    """Index just after the block (paragraph, table, list, code fence) holding line `k`."""
    inside = dict(iter_unfenced(md))
    while inside.get(k) and k + 1 < len(md) and inside.get(k + 1):
        k += 1
    while k + 1 < len(md) and md[k + 1].strip():
        k += 1
    return k + 1


def _block_start(md: list[str], k: int) -> int:
    """Index of the first line of the block holding line `k`."""
    while k > 0 and md[k - 1].strip():
        k -= 1
    return k


def _paragraphs(lines: Sequence[Line]) -> str:
    """Plain paragraphs of `lines`, one per PDF text block; a line-end hyphen before a
    lower-case letter is joined; a leading Markdown syntax character is escaped."""
    paragraphs: list[str] = []
    last_block = None
    for line in lines:
        text = " ".join(normalize_text(line.text).split())
        if paragraphs and line.block == last_block:
            prev = paragraphs[-1]
            if _HYPHEN_END_RE.search(prev) and text[:1].islower():
                paragraphs[-1] = prev[:-1] + text
            else:
                paragraphs[-1] = prev + " " + text
        else:
            paragraphs.append(text)
        last_block = line.block
    return "\n\n".join(_SYNTAX_START_RE.sub("\\\\", p) for p in paragraphs)
