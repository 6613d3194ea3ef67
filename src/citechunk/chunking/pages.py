"""Page lookup and marker-aware trimming over one Markdown document.

`PageMap` answers "which page is this offset on" and turns a raw span into the tight span and
text a chunk cites: leading/trailing whitespace and page-marker lines are skipped, so a span
never starts or ends inside a marker line or on whitespace, and ``text(s, e)`` equals
``strip_markers(markdown[s:e]).strip()``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from ..markers import marker_spans, strip_markers

_NON_SPACE = re.compile(r"\S")
_CLOSING = frozenset(".!?:;)]}\"'”’*_|`>-")  # a line ending so is complete (or not prose)
_NOT_PROSE = ("#", "|", "```", "~~~", "<!--", ">")


class PageMap:
    """Markers of one document, indexed for offset lookups (built once per document)."""

    def __init__(self, markdown: str, start_page: int = 1) -> None:
        self.markdown = markdown
        self.start_page = start_page
        markers = marker_spans(markdown)
        self.starts = [m[0] for m in markers]
        self.ends = [m[1] for m in markers]
        self.pages = [m[2] for m in markers]
        self._count = len(markers)

    def page_at(self, pos: int) -> int:
        """Page of the character at ``pos`` (the page of the last marker at or before it)."""
        i = bisect_right(self.starts, pos) - 1
        return self.pages[i] if i >= 0 else self.start_page

    def marker_at(self, pos: int) -> int | None:
        """Index of the marker line containing offset ``pos``, if any."""
        i = bisect_right(self.starts, pos) - 1
        return i if i >= 0 and pos < self.ends[i] else None

    def joins(self, a: int, b: int) -> bool:
        """True when the blank-line run [a, b) touches a marker line that falls inside a
        sentence: the text before it ends without closing punctuation and the text after it
        starts with a lower-case letter (a paragraph running on to the next page)."""
        k = self.marker_at(b)
        if k is None and a > 0:
            k = self.marker_at(a - 1)
        return k is not None and self._runs_on(k)

    def _runs_on(self, k: int) -> bool:
        md = self.markdown
        before = md[max(0, self.starts[k] - 400) : self.starts[k]].rstrip()
        after = md[self.ends[k] : self.ends[k] + 400].lstrip()
        if not before or not after or not after[0].islower():
            return False
        last_line = before[before.rfind("\n") + 1 :].lstrip()
        return before[-1] not in _CLOSING and not last_line.startswith(_NOT_PROSE)

    def has_marker(self, start: int, end: int) -> bool:
        """True when a marker line starts inside [start, end)."""
        i = bisect_left(self.starts, start)
        return i < len(self.starts) and self.starts[i] < end

    def trim(self, start: int, end: int) -> tuple[int, int] | None:
        """The tight span of [start, end): first/last non-space character outside marker lines.

        None when the span holds only whitespace and markers.
        """
        md, starts, ends = self.markdown, self.starts, self.ends
        while True:
            m = _NON_SPACE.search(md, start, end)
            if m is None:
                return None
            start = m.start()
            i = bisect_right(starts, start) - 1
            if i < 0 or start >= ends[i]:
                break
            start = ends[i]  # skip the marker line
        while True:  # strip trailing space 32 characters at a time; md[start] is not space
            cut = end - 32 if end - 32 > start else start
            while not (stripped := md[cut:end].rstrip()):
                end = cut
                cut = end - 32 if end - 32 > start else start
            end = cut + len(stripped)
            i = bisect_right(starts, end - 1) - 1
            if i < 0 or end - 1 >= ends[i]:
                return start, end
            end = starts[i]  # a marker line ends the span: it starts after `start`

    def text(self, start: int, end: int) -> str:
        """``strip_markers(markdown[start:end]).strip()`` for a tight span (see `trim`).

        Marker lines inside the span are cut out by their known offsets; a span that starts or
        ends on marker-like text that is not a whole line (where slicing would change what
        `strip_markers` sees) is handed to `strip_markers` itself.
        """
        md, starts = self.markdown, self.starts
        i = bisect_left(starts, start)
        if i == self._count or starts[i] >= end:
            return md[start:end].strip()
        if md.startswith("<!--", start) or md.endswith("-->", start, end):
            return strip_markers(md[start:end]).strip()
        parts = []
        pos = start
        while i < self._count and starts[i] < end:
            parts.append(md[pos : starts[i]])
            pos = self.ends[i] + 1  # the marker line and its newline
            i += 1
        parts.append(md[pos:end])
        return "".join(parts).strip()
