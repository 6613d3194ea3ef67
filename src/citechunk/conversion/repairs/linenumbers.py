"""Margin line numbers leave the text.

A manuscript or a court filing numbers its lines in the margin ("499", "500", ...); layout
steps read each number into the paragraph beside it ("499 We agree with these statements ...
500 perspective"), where it breaks phrase search and reads as part of the sentence. Which
numbers are line numbers is decided from the text layer (`runninglines.line_numbers`: bare
whole numbers beside the page's text counting up by one, five or more in a row).
`drop_line_numbers` removes them from the page's Markdown in their order: each value is the
first token of that number followed by the first word of the text line beside it (or alone on
its line) after the previous value's place, so a number of the text stays; table rows and code fences are
never touched (a table's index column counts down the page too). Pages without a text layer, or
without line numbers, are left alone.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from ..mdlines import iter_unfenced
from ..runninglines import line_numbers
from ..textlayer import Line, PageText

if TYPE_CHECKING:
    from ..passcontext import Pages, PassContext

log = logging.getLogger(__name__)


def remove_counted(text: str, numbers: list[tuple[int, str]]) -> tuple[str, int]:
    """`text` without the line numbers (value, first word of the text line beside it), each
    the first token of its value followed by its line's first word (or alone on its line)
    after the previous one's place, outside table rows and code fences; and how many went."""
    lines = text.split("\n")
    k = 0
    for i, inside in iter_unfenced(lines):
        if inside or lines[i].lstrip().startswith("|"):
            continue
        pos = 0
        while k < len(numbers):
            value, word = numbers[k]
            follow = rf"[ \t]+(?={re.escape(word)})" if word else r"[ \t]*$"
            m = re.compile(rf"(?<![\w.,\-]){value}{follow}").search(lines[i], pos)
            if m is None:
                break
            lines[i] = lines[i][: m.start()] + lines[i][m.end() :]
            pos = m.start()
            k += 1
    return "\n".join(lines), k


def _beside(page: PageText, number: Line) -> str:
    """The first word of the text line beside a margin number ("" when none)."""
    centre = (number.box[1] + number.box[3]) / 2
    lines = [
        ln
        for ln in page.lines
        if ln.box[1] <= centre <= ln.box[3] and ln.box[0] >= number.box[2] and ln is not number
    ]
    if not lines:
        return ""
    first = min(lines, key=lambda ln: ln.box[0]).text.split()
    return first[0] if first else ""


def drop_line_numbers(pages: Pages, ctx: PassContext) -> Pages:
    """Margin line numbers found in the text layer leave each page's Markdown (module
    docstring)."""
    if ctx.text_layer is None:
        return list(pages)
    out = []
    removed = 0
    for number, text in pages:
        page = ctx.text_layer.page(number)
        found = [(v, _beside(page, ln)) for ln, v in line_numbers(page)]
        if found:
            text, n = remove_counted(text, found)
            removed += n
        out.append((number, text))
    if removed:
        log.debug("margin line numbers removed: %d", removed)
    return out
