"""Running headers and footers: lines that repeat at the top or bottom of many pages.

`strip_running_lines` compares each page's first and last lines by a signature (plain text,
case-folded, digits collapsed, so page numbers count as repeats) and drops those repeated on at
least half of the pages (and at least 3).

`repeated_lines` is the text-layer side of the same idea: the signatures of the PDF's own text
lines that occur on at least `MIN_REPEAT_PAGES` pages (on every page of a 2-page document).
Only such lines (and bare page numbers,
`is_page_number`) may be removed as running headers/footers anywhere in conversion; a line that
appears on fewer pages is body text even when it sits in the top or bottom band.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ..mdlines import iter_unfenced, strip_inline_markup, tidy_blank_lines

log = logging.getLogger(__name__)

#: A text-layer line is a running line when it occurs (digits blurred) on this many pages.
MIN_REPEAT_PAGES = 3
_PAGE_NUMBER_RE = re.compile(r"^\s*(?:page\s*)?(?:\d+|[ivxlc]+)(?:\s*(?:of|/)\s*\d+)?\s*$", re.I)


def _signature(line: str) -> str:
    """Running-line identity: plain text, case-folded, digits collapsed (page numbers vary)."""
    text = unicodedata.normalize("NFKC", strip_inline_markup(line.lstrip("#> -"))).casefold()
    return re.sub(r"\d+", "#", text)


def line_signature(text: str) -> str:
    """A text-layer line's running-line identity: NFKC, case-folded, blanks collapsed, digit
    runs as ``#`` (so "Page 2 of 9" and "Page 3 of 9" are one line)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\d+", "#", " ".join(text.split()))


def is_page_number(text: str) -> bool:
    """A line that is only a page number ("7", "iv", "Page 3", "3 of 12", "3/12")."""
    return bool(_PAGE_NUMBER_RE.match(text))


def repeated_lines(page_texts: Sequence[str], min_pages: int = MIN_REPEAT_PAGES) -> frozenset[str]:
    """Signatures (`line_signature`) of the lines found on at least `min_pages` of the pages,
    or on every page of a shorter document of 2 or more pages (each page counted once per
    line); `page_texts` are plain texts, one line per text line."""
    min_pages = max(2, min(min_pages, len(page_texts)))
    counts: Counter[str] = Counter()
    for text in page_texts:
        counts.update({sig for sig in map(line_signature, text.split("\n")) if sig})
    return frozenset(sig for sig, n in counts.items() if n >= min_pages)


def _edge_lines(lines: list[str], depth: int) -> list[int]:
    """Indexes of the first and last `depth` non-blank, unfenced, non-table lines."""
    idx = [i for i, inside in iter_unfenced(lines) if not inside and lines[i].strip()]
    idx = [i for i in idx if not lines[i].lstrip().startswith("|") and len(lines[i]) <= 160]
    return sorted(set(idx[:depth] + idx[-depth:]))


def strip_running_lines(pages: Sequence[str], depth: int = 2, share: float = 0.5) -> list[str]:
    """Drop lines repeated at the top or bottom of at least `share` of the pages, and of 3.

    Only the first and last `depth` candidate lines of a page are examined; table rows, code
    and lines over 160 characters never count. A page counts towards a line only when it also
    holds other text: a running line accompanies a page's content, a line that is all of its
    page's text is that content. Documents under 4 pages are returned unchanged.
    """
    if len(pages) < 4:
        return list(pages)
    split = [p.split("\n") for p in pages]
    edges = [_edge_lines(lines, depth) for lines in split]
    counts: Counter[str] = Counter()
    for lines, idx in zip(split, edges, strict=True):
        texts = {_signature(line) for line in lines if line.strip()}
        counts.update({sig for sig in (_signature(lines[i]) for i in idx) if texts - {sig}})
    threshold = max(3.0, share * len(pages))
    running = {sig for sig, n in counts.items() if n >= threshold and sig.strip()}
    if not running:
        return list(pages)
    log.debug("running headers/footers removed: %s", sorted(running))
    result = []
    for lines, idx in zip(split, edges, strict=True):
        drop = {i for i in idx if _signature(lines[i]) in running}
        kept = [line for i, line in enumerate(lines) if i not in drop]
        result.append(tidy_blank_lines("\n".join(kept)))
    return result
