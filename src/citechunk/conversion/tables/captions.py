"""Table titles are not sections.

A table that runs over a page break repeats its title on the next page with "—Continued"
("ESTIMATED COSTS—Continued", "Table 2 (cont.)"); layout models set such titles as headings.
`mdlines.clean_heading_line` already turns the repeat into a bold line; the first occurrence,
left a heading, would open a section that swallows every later heading of a lower rank.

`demote_table_titles(pages)` ((page number, Markdown) pairs, like the other structure passes of
`conversion.pipeline`): a heading whose title is repeated later in the document by a
continuation line and whose next non-blank line is a table row becomes a bold line, so the
table stays in the section it belongs to. Headings whose title is never "continued", or that do
not open a table, are left alone; so are lines inside code fences.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ...textkeys import words_key
from ..mdlines import (
    HEADING_RE,
    bold_line,
    continued_title,
    heading_lines,
    iter_unfenced,
    join_pages,
    split_pages,
    strip_inline_markup,
)

log = logging.getLogger(__name__)

MAX_TITLE = 200  # characters: a longer line is no table title


def _key(title: str) -> str:
    return words_key(strip_inline_markup(title))


def _continued_keys(split: list[list[str]]) -> set[str]:
    keys = set()
    for lines in split:
        for i, inside in iter_unfenced(lines):
            line = lines[i].strip()
            if (
                inside
                or len(line) > MAX_TITLE
                or line.startswith("|")
                or "cont" not in line.lower()
            ):
                continue  # only short lines can be titles; the regex is slow on paragraphs
            heading = HEADING_RE.match(line)
            title = continued_title(heading.group(2) if heading else line)
            if title:
                keys.add(_key(title))
    return keys


def _opens_table(split: list[list[str]], page: int, line: int) -> bool:
    for lines in split[page:]:
        for text in lines[line + 1 :]:
            if text.strip():
                return text.lstrip().startswith("|")
        line = -1
    return False


def demote_table_titles(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A heading that a later continuation line repeats and that opens a table is the table's
    title: it becomes a bold line (module docstring). Returns new (page, Markdown) pairs."""
    split = split_pages(pages)
    keys = _continued_keys(split)
    if not keys:
        return list(pages)
    demoted = 0
    for p, i, heading in heading_lines(split):
        if _key(heading.group(2)) in keys and _opens_table(split, p, i):
            split[p][i] = bold_line(heading.group(2))
            demoted += 1
    if demoted:
        log.debug("table titles demoted from headings to bold lines: %d", demoted)
    return join_pages(pages, split)
