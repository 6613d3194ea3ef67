"""Word coverage: how much of a page's text layer its Markdown holds, and which lines it lost.

The reference is the PDF's own text (`textlayer.PageText` lines) without its running lines
(`runninglines`: headers, footers, page numbers, margin stamps), which conversion removes on
purpose. Words are runs of letters and digits after NFKC and
case folding (so a ligature glyph and its spelled-out letters are one word); inline HTML tags
of the Markdown are not words. A word hyphenated at a line end counts once, whole, when the
Markdown joined it.

Invariants: counts are multisets (a word found twice in the layer needs two in the Markdown);
`Coverage.found <= Coverage.words`; a page without layer words has coverage 1.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .. import textkeys
from .runninglines import line_signature
from .textlayer import Line

_TAG_RE = re.compile(r"</?(?:sup|sub|br|b|i|em|strong|span|u|mark)\b[^>]*>", re.I)
_HYPHEN_END_RE = re.compile(r"[^\W\d_][-\u00ad\u2010]$")


def words(text: str) -> list[str]:
    """The words of `text` (module docstring): NFKC, case-folded, soft hyphens dropped."""
    text = _TAG_RE.sub(" ", text).replace("\u00ad", "")
    return textkeys.words(text)


@dataclass(frozen=True)
class Coverage:
    """Layer words of a page (or document) and how many of them the Markdown holds."""

    words: int
    found: int

    @property
    def share(self) -> float:
        return self.found / self.words if self.words else 1.0

    def __add__(self, other: Coverage) -> Coverage:
        return Coverage(self.words + other.words, self.found + other.found)


def body_lines(lines: Iterable[Line], running: Mapping[str, int]) -> list[Line]:
    """The layer lines of a page that should reach the Markdown: those whose signature is not
    one of the page's running lines (`runninglines.RunningLines.on_page`)."""
    return [line for line in lines if line_signature(line.text) not in running]


def line_words(lines: Sequence[Line], markdown: Counter[str]) -> list[list[str]]:
    """Each line's words; a word broken by a line-end hyphen is counted whole on its first
    line when `markdown` holds the whole word (the second line then starts after it)."""
    out = [words(line.text) for line in lines]
    for i in range(len(lines) - 1):
        if not _HYPHEN_END_RE.search(lines[i].text) or not out[i] or not out[i + 1]:
            continue
        joined = out[i][-1] + out[i + 1][0]
        if markdown[joined] > 0:
            out[i][-1] = joined
            del out[i + 1][0]
    return out


def page_coverage(lines: Sequence[Line], markdown: str) -> Coverage:
    """Coverage of one page's body `lines` (`body_lines`) by its `markdown`."""
    have = Counter(words(markdown))
    want = Counter(w for ws in line_words(lines, have) for w in ws)
    return Coverage(sum(want.values()), sum(min(n, have[w]) for w, n in want.items()))


def dropped_lines(lines: Sequence[Line], markdown: str, share: float = 0.5) -> list[int]:
    """Indexes of the `lines` the Markdown lost: more than `share` of their words are missing.

    A word is missing when the layer has it more often than the Markdown (a deficit). Lines
    are judged most-missing first, each taking deficits for its words, so a common word the
    Markdown lacks once is blamed on one line, not on every line that has it.
    """
    have = Counter(words(markdown))
    per_line = line_words(lines, have)
    want = Counter(w for ws in per_line for w in ws)
    deficit = Counter({w: n - have[w] for w, n in want.items() if n > have[w]})
    if not deficit:
        return []

    def missing_share(ws: list[str]) -> float:
        return sum(1 for w in ws if deficit[w] > 0) / len(ws) if ws else 0.0

    order = sorted(range(len(lines)), key=lambda i: -missing_share(per_line[i]))
    dropped = []
    for i in order:
        ws = per_line[i]
        if not ws or missing_share(ws) <= share:
            continue
        dropped.append(i)
        deficit.subtract(Counter(ws))
    return sorted(dropped)
