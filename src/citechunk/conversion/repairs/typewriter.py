"""Text set in a typewriter font is text: monospace is not code by itself.

A plain-text document printed to PDF (a specification, a mail, a report typed in a fixed-width
font) comes out of the layout step as code fences: its paragraphs in fences, its section titles
as inline code, and the plain-text pages' own header and footer lines inside the fences, where
the plain-text pages broke (not at the PDF page's edges, where the running-line rule looks).
`read_typewriter_text(texts)`, over the whole document's pages:

* *Page lines of the plain text*: a line inside a fence that holds three or more parts set
  apart by runs of three or more spaces (left, centre, right), whose signature (case-folded,
  digits as ``#``, blanks collapsed) is such a fenced line on three or more PDF pages, goes.
* *Prose fences*: a fence without an info string whose non-blank lines (after those page lines
  went) are at least `MIN_PROSE_SHARE` prose — five or more words, letters, spaces and sentence
  punctuation at least 90% of the characters — and none of which holds a code character
  (``{ } = < > \\ |``, a line ending with ``;`` or opening with ``#``, ``//`` or ``$``)
  becomes paragraphs: blank lines separate them, a paragraph's lines are joined by one space.
  A line of the block that is indented less than the block's prose, of at most 12 words, not
  ending with sentence punctuation and followed by a blank line or the end of the block is a
  heading.
* *Code-span titles*: a line that is only one inline code span, or a fence holding only one
  line, that is a numbered title (a section number, then a word, at most 12 words, no closing
  punctuation) is a heading.

A heading made here takes the level of its number's depth plus one ("3.1." -> ``###``; an
unnumbered one ``##``); the numbered-siblings pass then levels the numbered headings of the
document together. Fences that look like code (any code character) are never touched.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence

from ...mdsyntax import FENCE_RE
from ..mdlines import strip_inline_markup, tidy_blank_lines
from ..numbers import heading_number
from ..runninglines import line_signature

log = logging.getLogger(__name__)

MIN_PROSE_SHARE = 0.6
MIN_PAGE_LINE_PAGES = 3
MAX_HEADING_WORDS = 12

_COLUMNS_RE = re.compile(r"\S(?: {3,}\S.*?){2,}")
_GAP_RE = re.compile(r" {3,}")
_CODE_CHARS_RE = re.compile(r"[{}=<>\\|]|;\s*$|^\s*(?:#|//|\$)")
_PROSE_CHAR_RE = re.compile(r"[^\W\d_]|[\s.,;:'\"()\-–—?!]")
_SENTENCE_END_RE = re.compile(r"[.;:,!?]$")
_CODE_SPAN_LINE_RE = re.compile(r"^\s*`([^`]+)`\s*$")


def _is_page_line(line: str) -> bool:
    return len(_GAP_RE.findall(line.strip())) >= 2 and bool(_COLUMNS_RE.search(line.strip()))


def _fences(lines: Sequence[str]) -> list[tuple[int, int, str]]:
    """(opening index, closing index, info string) of each fenced block."""
    out, start, marks, info = [], -1, "", ""
    for i, line in enumerate(lines):
        m = FENCE_RE.match(line)
        if not m:
            continue
        if start < 0:
            start, marks, info = i, m.group(1), m.group(2).strip()
        elif m.group(1)[0] == marks[0] and len(m.group(1)) >= len(marks) and not m.group(2).strip():
            out.append((start, i, info))
            start = -1
    return out


def _page_line_signatures(pages: Sequence[list[str]]) -> set[str]:
    on_pages: Counter[str] = Counter()
    for lines in pages:
        found = set()
        for start, end, _ in _fences(lines):
            found |= {line_signature(ln) for ln in lines[start + 1 : end] if _is_page_line(ln)}
        on_pages.update(found)
    return {s for s, n in on_pages.items() if n >= MIN_PAGE_LINE_PAGES}


def _is_prose(line: str) -> bool:
    s = line.strip()
    return len(s.split()) >= 5 and len(_PROSE_CHAR_RE.findall(s)) >= 0.9 * len(s)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _heading(title: str) -> str:
    number = heading_number(title)
    level = min(6, 1 + (number.depth if number else 1))
    return "#" * level + " " + " ".join(title.split())


def _as_text(block: list[str]) -> list[str] | None:
    """The block's lines as paragraphs and headings, or None when it is not prose."""
    filled = [ln for ln in block if ln.strip()]
    if not filled or any(_CODE_CHARS_RE.search(ln) for ln in filled):
        return None
    if len(filled) == 1 and (title := _numbered_title(filled[0].strip())):
        return [title]
    if sum(map(_is_prose, filled)) < MIN_PROSE_SHARE * len(filled):
        return None
    body_indent = min((_indent(ln) for ln in filled if _is_prose(ln)), default=0)
    out: list[str] = []
    paragraph: list[str] = []
    for k, line in enumerate(block):
        if not line.strip():
            if paragraph:
                out += [" ".join(paragraph), ""]
                paragraph = []
            continue
        alone = k + 1 == len(block) or not block[k + 1].strip()
        text = line.strip()
        if (
            not paragraph
            and alone
            and _indent(line) < body_indent
            and len(text.split()) <= MAX_HEADING_WORDS
            and not _SENTENCE_END_RE.search(text)
        ):
            out += [_heading(text), ""]
            continue
        paragraph.append(text)
    if paragraph:
        out.append(" ".join(paragraph))
    return out


def _code_span_title(line: str) -> str | None:
    m = _CODE_SPAN_LINE_RE.match(line)
    return _numbered_title(m.group(1).strip()) if m else None


def _numbered_title(title: str) -> str | None:
    """`title` as a heading line when it is a numbered title (module docstring), else None."""
    number = heading_number(title)
    words = strip_inline_markup(title).split()
    if number is None or len(words) < 2 or len(words) > MAX_HEADING_WORDS:
        return None
    if not re.search(r"[^\W\d_]", " ".join(words[1:])) or _SENTENCE_END_RE.search(title):
        return None
    return _heading(title)


def _read_page(lines: list[str], page_lines: set[str]) -> list[str]:
    out: list[str] = []
    last = 0
    for start, end, info in _fences(lines):
        out += lines[last:start]
        inner = [ln for ln in lines[start + 1 : end] if line_signature(ln) not in page_lines]
        text = None if info else _as_text(inner)
        if text is not None:
            out += text
        elif any(ln.strip() for ln in inner):
            out += [lines[start], *inner, lines[end]]
        last = end + 1
    out += lines[last:]
    fenced = {i for s, e, _ in _fences(out) for i in range(s, e + 1)}
    return [line if i in fenced else (_code_span_title(line) or line) for i, line in enumerate(out)]


def read_typewriter_text(texts: Sequence[str]) -> list[str]:
    """Page lines of a printed plain text go, prose fences become paragraphs and headings,
    code-span section titles become headings (module docstring). Returns the new page texts."""
    pages = [text.split("\n") for text in texts]
    page_lines = _page_line_signatures(pages)
    out = []
    changed = 0
    for text, lines in zip(texts, pages, strict=True):
        if "`" not in text:
            out.append(text)
            continue
        new = tidy_blank_lines("\n".join(_read_page(lines, page_lines)))
        changed += new != text.strip("\n")
        out.append(new if new != text.strip("\n") else text)
    if changed:
        log.debug("typewriter text read as text on %d pages", changed)
    return out
