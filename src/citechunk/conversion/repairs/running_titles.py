"""Running titles are not sections.

Long documents reprint a title at the top of page after page (a company's name and "Notes to
the financial statements (Continued)", a report's title, a chapter name). Layout models set it
in large bold type, so it comes out as a heading, and as a heading it would become the parent of
whatever follows it on every page.

`demote_running_titles(pages)`: a heading whose signature (plain text, case-folded, digits and
a label's number blurred — "Part II" like "Part I" —, short parentheticals such as "(Continued)"
or "(Unaudited)" and punctuation ignored) opens at least `MIN_PAGES` different pages (it is
among their first `TOP_LINES` non-blank lines, as a heading or a whole-line bold line, alone or
joined with the heading lines around it) is a running title: every heading line with that
signature becomes a bold line, so it stays in the text and parents nothing. A signature of
labels and their numbers alone ("Article 5", "PART II Item 7") counts only when one title of
it, numbers included, opens two pages or more: "Article 4", "Article 5", "Article 6" each
opening one page are sections in sequence, while a running "PART II" repeats. Layout models take
a running header for a heading on some pages only, so the pages need not follow each other;
the cost is that a section title that opens three pages by itself (a "Key points" box starting
each chapter) is read as a running title too. Lines inside code fences are never touched.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ..mdlines import (
    bold_line,
    heading_lines,
    iter_unfenced,
    join_pages,
    split_pages,
    strip_inline_markup,
)
from ..numbers import LABELS

log = logging.getLogger(__name__)

MIN_PAGES = 3
TOP_LINES = 3
_BOLD_LINE_RE = re.compile(r"^\*\*([^*]{1,300}?)\*\*[ \t]*$")
_HEADING_OR_BOLD_RE = re.compile(r"^(?:#{1,6}[ \t]+(.*?)|\*\*([^*]{1,300}?)\*\*)[ \t]*$")
_PARENTHETICAL_RE = re.compile(r"\((?:[^()\s]+(?:\s[^()\s]+)?)\)")
_NON_WORD_RE = re.compile(r"[\W_]+")
_LABELS = "|".join(LABELS)
# a label's number, roman or a letter included ("part ii", "appendix b"), blurred like digits
_LABEL_NUMBER_RE = re.compile(rf"\b({_LABELS})\s+(?:[ivxlc]+|[a-z]|\d+[a-z]?)\b")
# the signature of labels with their numbers alone: "Article 5", "Part II Item 7"
_LABEL_ALONE_RE = re.compile(rf"^(?:{_LABELS})(?: (?:{_LABELS}))*$")


def _folded(title: str) -> str:
    """The title's text without markup, NFKC-normalised and case-folded."""
    return unicodedata.normalize("NFKC", strip_inline_markup(title)).casefold()


def signature(title: str) -> str:
    """The identity of a running title (module docstring); "" for a title without letters."""
    plain = _PARENTHETICAL_RE.sub(" ", _folded(title))
    plain = _LABEL_NUMBER_RE.sub(r"\1 #", plain)
    plain = re.sub(r"\d+", "#", plain)
    return _NON_WORD_RE.sub(" ", plain).strip() if re.search(r"[^\W\d_]", plain) else ""


def exact_title(title: str) -> str:
    """A title's plain words, numbers kept: two pages opened by the same title match."""
    return _NON_WORD_RE.sub(" ", _folded(title)).strip()


def _top_run(lines: list[str]) -> list[tuple[int, str]]:
    """(line index, title) of the heading or bold lines among the page's first `TOP_LINES`
    non-blank lines (a page number or date line between them does not end the run)."""
    top = [i for i, inside in iter_unfenced(lines) if not inside and lines[i].strip()]
    run = []
    for i in top[:TOP_LINES]:
        m = _HEADING_OR_BOLD_RE.match(lines[i])
        if m:
            run.append((i, m.group(1) or m.group(2) or ""))
    return run


def _openers(run: list[tuple[int, str]]) -> set[tuple[str, str]]:
    """(signature, exact title) of the titles a page's top run opens it with: each line's, and,
    when a title is broken over several lines ("PART I" / "Item 2"), the joined lines'."""
    titles = [title for _, title in run]
    if len(run) > 1:
        titles.append(" ".join(titles))
    return {(signature(t), exact_title(t)) for t in titles if signature(t)}


def running_signatures(openers: list[set[tuple[str, str]]]) -> set[str]:
    """The signatures that open `MIN_PAGES` pages, a bare label's only when one of its titles
    repeats (module docstring)."""
    exact: Counter[tuple[str, str]] = Counter(pair for found in openers for pair in found)
    pages: Counter[str] = Counter(sig for found in openers for sig in {s for s, _ in found})
    repeats = {sig for (sig, _), n in exact.items() if n >= 2}
    return {
        sig
        for sig, n in pages.items()
        if n >= MIN_PAGES and (sig in repeats or not _LABEL_ALONE_RE.match(sig))
    }


def demote_running_titles(pages: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """A heading that opens three or more pages is a running title: each heading line with its
    signature becomes a bold line (module docstring). Returns new (page, Markdown) pairs."""
    split = split_pages(pages)
    runs = [_top_run(lines) for lines in split]
    running = running_signatures([_openers(run) for run in runs])
    if not running:
        return list(pages)
    joined = {
        (k, i)
        for k, run in enumerate(runs)
        if len(run) > 1 and signature(" ".join(t for _, t in run)) in running
        for i, _ in run
    }
    demoted = 0
    for k, i, m in list(heading_lines(split)):
        if signature(m.group(2)) in running or (k, i) in joined:
            split[k][i] = bold_line(m.group(2))
            demoted += 1
    if demoted:
        log.debug("running titles demoted (%d lines): %s", demoted, sorted(running))
    return join_pages(pages, split)
