"""Text-flow repairs: text a reader takes as it is, where the page's line ends left marks.

Three page rules, none of them inside a code fence or a table row:

- `footnote_quotes`: a quote line that opens with a footnote number glued or spaced to a
  capital ("> 3The ideal size ...", "> 1 GAO, ...") or with a footnote symbol (∗ † ‡ §) is a
  footnote set in a smaller type, not a quotation: it becomes a plain paragraph, the number
  written as the text's footnote marks are (" [3]" in the body, so "[3] The ideal size ...").
- `join_wrapped_identifiers`: a line end inside a URL or a dashed identifier became a space:
  inside a URL (from "http://", "https://" or "www."), a space after "://", "/", ".", "=",
  "&", "?", "@", "-" or "_" is dropped when the word after it goes on with URL characters
  (it holds "." "/" "=" or "&"); after a letter or digit and a dash, a space before a digit
  is dropped ("pages 222– 228"); a dash with a space on both sides stays ("2010 – 2020").
- `join_soft_breaks`: a line break inside a paragraph between a line ending with a lower-case
  letter or a comma and a line opening with a lower-case letter is inside a sentence: the two
  lines become one, joined by a space (Markdown renders both alike). List items, quotes,
  headings, table rows and lines of code are never joined. Then, outside code, a space between two characters of the scripts
  written without spaces between words (Han, Hiragana, Katakana, their punctuation and
  full-width forms) goes: it is a line end joined as a space, and it cut a word ("ルー ル").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..mdlines import iter_unfenced, map_unfenced

_FOOTNOTE_QUOTE_RE = re.compile(
    r"^> ?(?:(?P<number>\d{1,3}) ?(?=[A-Z“\"(])|(?=_?[∗*†‡§]))(?P<rest>.*)$"
)
_URL_GAP_RE = re.compile(
    r"(?P<head>(?:https?://|www\.)(?:\S*?[/.=&?@_-])?)"
    r" (?P<tail>[\w%#~][\w%#~\-]*[./=&][^\s]*)"
)
_DASH_GAP_RE = re.compile(r"(?<=[0-9A-Za-z])(?P<dash>[–-]) (?=\d)")
#: Lines whose break is the author's: quotes, table rows, headings, fences, comments.
_BLOCK_START_RE = re.compile(r"^\s*(?:[>|#]|```|~~~|<!--)")


def footnote_quotes(page: str) -> str:
    """Quote lines that are footnotes become plain paragraphs (module docstring)."""
    if ">" not in page:
        return page
    lines = page.split("\n")
    for i, inside in iter_unfenced(lines):
        m = None if inside else _FOOTNOTE_QUOTE_RE.match(lines[i])
        if m:
            number, rest = m.group("number"), m.group("rest").strip()
            lines[i] = f"[{number}] {rest}" if number else rest
    return "\n".join(lines)


def _join_url(line: str) -> str:
    previous = None
    while previous != line:
        previous = line
        line = _URL_GAP_RE.sub(r"\g<head>\g<tail>", line, count=1)
    return line


def join_wrapped_identifiers(page: str) -> str:
    """Spaces a line end left inside URLs and dashed identifiers are dropped (module
    docstring)."""
    lines = page.split("\n")
    for i, inside in iter_unfenced(lines):
        line = lines[i]
        if inside or line.startswith("|"):
            continue
        if "://" in line or "www." in line:
            line = _join_url(line)
        lines[i] = _DASH_GAP_RE.sub(r"\g<dash>", line)
    return "\n".join(lines)


#: Characters of the scripts written without spaces between words (Korean and Thai are not).
_UNSPACED = (
    "\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
)
_UNSPACED_GAP_RE = re.compile(f"(?<=[{_UNSPACED}]) (?=[{_UNSPACED}])")


def join_soft_breaks(pages: Sequence[str]) -> list[str]:
    """Line breaks inside a sentence of a paragraph become spaces, and spaces inside text of
    scripts written without spaces go (module docstring)."""
    return [close_unspaced_gaps(join_page_soft_breaks(page)) for page in pages]


def close_unspaced_gaps(page: str) -> str:
    """A single space between two characters of scripts written without spaces (Han, Hiragana,
    Katakana, CJK punctuation, full-width forms) is dropped, outside code fences."""
    if not _UNSPACED_GAP_RE.search(page):
        return page
    return map_unfenced(page, lambda line: _UNSPACED_GAP_RE.sub("", line))


def join_page_soft_breaks(page: str) -> str:
    """Line breaks inside a sentence of a paragraph become spaces (module docstring)."""
    lines = page.split("\n")
    fenced = {i for i, inside in iter_unfenced(lines) if inside}
    out: list[str] = []
    for i, line in enumerate(lines):
        if out and i not in fenced and i - 1 not in fenced and _continues(out[-1], line):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def _continues(prev: str, line: str) -> bool:
    """True when `line` goes on with the sentence `prev` (a paragraph's or list item's text)
    broke off."""
    end = prev.rstrip()[-1:]
    return (
        line[:1].islower()
        and (end.islower() or end == ",")
        and not _BLOCK_START_RE.match(prev)
        and not prev.startswith("    ")
    )
