"""Leaders: the dots that carry the eye from an entry to its page number are layout, not text.

The rule (page pass `leaders`, outside code fences): a leader is a run of four or more dots or
middle dots, each followed by at most one space (".......", ". . . . .", "·····"), or of two or
more ellipsis characters. It becomes " ... " (three dots between single spaces; at a line's
start or end, or beside a table cell's bar, without the space on that side). Three dots still
mark a contents entry (`chunking.navigation`), and no word is touched: the text layer's words
and the source map are unchanged. A leader costs an embedder one token per dot (a contents
line of 150 dots fills half of a small model's window), and a reader reads nothing in it.
"""

from __future__ import annotations

import re

from ..mdlines import map_unfenced

_LEADER_RE = re.compile(r"[ \t]*(?:(?:[.·] ?){3}[.·]|…(?: ?…)+)[.· …\t]*")
_SHORT = "..."


def _replace(m: re.Match[str]) -> str:
    line, start, end = m.string, m.start(), m.end()
    before = "" if start == 0 or line[start - 1] == "|" else " "
    after = "" if end == len(line) or line[end] == "|" else " "
    return f"{before}{_SHORT}{after}"


def shorten_leaders(page: str) -> str:
    """Every leader outside code fences becomes " ... " (module docstring)."""
    if "...." not in page and ". . . ." not in page and "·" not in page and "…" not in page:
        return page
    return map_unfenced(page, lambda line: _LEADER_RE.sub(_replace, line))
