"""A second document inside one PDF starts its own top-level section.

A PDF can hold two documents one after the other (two notices of one gazette issue, a second
form), whose cover blocks open with the same run of headings. Without a repair the second
document's sections nest under the first one's open headings.

Rule (`split_second_documents`): a *cover run* is a run of two or more headings with nothing
but blank lines between them that a title line follows before any body text: within
`TITLE_WINDOW` lines, only headings and bold lines, the first of them that is not in capitals
only, not bracketed ("[Docket No. ...]") and of two or more words being the title (with the
bold lines that directly follow it: a title set over two lines). A cover run on a page after
the first whose first two headings (texts and levels) repeat those of a cover run of the
first page starts a new document. A level-1 heading with that title goes before the repeated
run, and the title's bold lines leave the body; the repeated headings stay as they were, now
under the new title. Without a title line after the run nothing changes. Lines inside code
fences are never read.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ...textkeys import compact_key
from ..mdlines import heading_lines, join_pages, make_heading, split_pages, strip_inline_markup

log = logging.getLogger(__name__)

#: Lines after a repeated heading run searched for the second document's title.
TITLE_WINDOW = 12
_BOLD_RE = re.compile(r"^\*\*(?P<text>[^*]+)\*\*$")

Heading = tuple[int, int, int, str]  # page index, line index, level, key


def _runs(split: list[list[str]]) -> list[list[Heading]]:
    """Runs of consecutive headings (only blank lines between them), in document order."""
    runs: list[list[Heading]] = []
    last: tuple[int, int] | None = None
    for p, i, m in heading_lines(split):
        entry = (p, i, len(m.group(1)), compact_key(strip_inline_markup(m.group(2))))
        if last is not None and last[0] == p and _blank_between(split[p], last[1], i):
            runs[-1].append(entry)
        else:
            runs.append([entry])
        last = (p, i)
    return [run for run in runs if len(run) >= 2]


def _blank_between(lines: list[str], start: int, end: int) -> bool:
    return all(not line.strip() for line in lines[start + 1 : end])


def _opens_like(run: list[Heading], openings: list[list[Heading]]) -> bool:
    """True when `run`'s first two headings (text and level) open a run of `openings`."""
    head = [(level, key) for _, _, level, key in run[:2]]
    return any([(level, key) for _, _, level, key in first[:2]] == head for first in openings)


def _title_line(line: str) -> str:
    """The title text of a heading or bold line, "" when the line is no title line."""
    text = line.strip()
    if text.startswith("#"):
        text = text.lstrip("#").strip()
    else:
        m = _BOLD_RE.match(text)
        if not m:
            return ""
        text = m.group("text")
    text = strip_inline_markup(text).strip()
    if text.isupper() or text.startswith("[") or len(text.split()) < 2:
        return ""
    return text


def _second_title(lines: list[str], start: int) -> tuple[str, list[int]]:
    """The title after a repeated run ending at `start` and the bold lines it was read from."""
    seen = 0
    for i in range(start + 1, len(lines)):
        if not lines[i].strip():
            continue
        seen += 1
        if seen > TITLE_WINDOW:
            break
        if not lines[i].lstrip().startswith("#") and not _BOLD_RE.match(lines[i].strip()):
            break  # body text: the run opened a section, not a document
        text = _title_line(lines[i])
        if not text:
            continue
        used = [i]
        for j in range(i + 1, min(len(lines), i + 6)):
            m = _BOLD_RE.match(lines[j].strip())
            if m and not lines[i].lstrip().startswith("#"):
                text += " " + strip_inline_markup(m.group("text")).strip()
                used.append(j)
            elif lines[j].strip():
                break
        return text, used
    return "", []


def split_second_documents(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A later run of headings repeating the first page's opening run starts a new document
    under a level-1 heading with its title (module docstring)."""
    split = split_pages(pages)
    runs = _runs(split)
    openings = [run for run in runs if run[0][0] == 0 and _second_title(split[0], run[-1][1])[0]]
    found = 0
    for run in reversed(runs):  # later runs first: line numbers of earlier runs stay right
        page = run[0][0]
        if page == 0 or not _opens_like(run, openings):
            continue
        lines = split[page]
        title, used = _second_title(lines, run[-1][1])
        if not title:
            continue
        for i in reversed(used):
            del lines[i : i + 2 if i + 1 < len(lines) and not lines[i + 1].strip() else i + 1]
        lines[run[0][1] : run[0][1]] = [make_heading(1, title), ""]
        found += 1
    if found:
        log.debug("second documents started: %d", found)
    return join_pages(pages, split)
