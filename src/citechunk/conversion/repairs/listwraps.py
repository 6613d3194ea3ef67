"""A wrapped line continues its list item (`join_list_wraps`, pass ``list-wraps``).

Extractors that see each printed line of a bulleted item as a new item write
"- Revising the existing manual to" / "- incorporate new procedures": the second "item" is the
first one's next line. A bullet item is such a continuation when it has the same marker and
indentation as the item before it (at most one blank line between), that item's text ends
inside a sentence (on a letter, a digit or a comma) and has at least `MIN_WORDS` words, and its
own text opens with a lower-case word followed by a space or a comma (a plain word: "name: Type" or
"camelCase" entries of a schema listing are items of their own). It is appended to that item
with a space. Lines inside code fences are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..mdlines import iter_unfenced

MIN_WORDS = 3
_BULLET_RE = re.compile(r"^([ \t]*)([-*+])[ \t]+(\S.*)$")
_OPEN_END_RE = re.compile(r"[^\W_],?$")
_PLAIN_START_RE = re.compile(r"^[a-z]+,?[ \t]")


def _continues(prev: re.Match[str], item: re.Match[str]) -> bool:
    text = prev.group(3).rstrip()
    return (
        prev.group(1) == item.group(1)
        and prev.group(2) == item.group(2)
        and bool(_OPEN_END_RE.search(text))
        and len(text.split()) >= MIN_WORDS
        and bool(_PLAIN_START_RE.match(item.group(3)))
    )


def join_list_wraps(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """Bullet items that are the wrapped lines of the item before join it (module docstring)."""
    return [(n, join_page_wraps(text)) for n, text in pages]


def join_page_wraps(page: str) -> str:
    """`join_list_wraps` on one page's Markdown."""
    if "- " not in page and "* " not in page and "+ " not in page:
        return page
    lines = page.split("\n")
    out: list[str] = []
    last: int | None = None  # index in `out` of the latest bullet item line
    for i, inside in iter_unfenced(lines):
        line = lines[i]
        item = None if inside else _BULLET_RE.match(line)
        if item and last is not None and len(out) - last <= 2:
            prev = _BULLET_RE.match(out[last])
            if prev and _continues(prev, item):
                del out[last + 1 :]
                out[last] = out[last].rstrip() + " " + item.group(3)
                continue
        if item:
            last = len(out)
        elif line.strip():
            last = None
        out.append(line)
    return "\n".join(out)
