"""Backend-independent clean-up of one page's Markdown, shared by every conversion backend.

Contracts:

* `normalize_text` leaves only ``\\n`` as line break: CR/CRLF, NEL, LS and PS become ``\\n``;
  other C0/C1 control characters (form feed, vertical tab, the garbage of broken font encodings)
  become U+FFFD, so ``str.splitlines`` and ``\\n``-splitting agree and offsets stay stable.
* `clean_heading_line` turns ``# **Title**`` / ``## _x_`` / ``### `code` `` into plain
  ``# Title``; it never changes the level and drops headings that are empty once cleaned. A
  heading that only repeats an earlier one to mark a continuation ("ESTIMATED COSTS—Continued",
  "Table 2 (cont.)") is a running title, not a new section: it becomes a bold line.
* `tidy_page` applies the above plus fixes that help retrieval (trailing blanks, ``<br>`` inside
  table cells, picture-text blocks, ``<sup>`` tags inside words, ``<mark>``/``<u>`` tags
  dropped with their text kept, a bullet glyph repeating the list marker dropped ("- ● item" ->
  "- item"), footnotes moved after the paragraph citing them by
  `attach_footnotes`); text inside fenced code blocks is left alone except for
  newline/control-character normalisation.
* `join_page_hyphens` re-joins a word hyphenated across a page break.
* `join_page_tables` gives a table continued from the previous page its header row back.
* `strip_running_lines` removes running headers/footers: short lines repeated at the top or
  bottom of many pages (digits ignored, so page numbers count as repeats).
* `tidy_pages` is what the backends call: `tidy_page` per page, then the three above.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence

from ..mdsyntax import TABLE_SEPARATOR_RE

log = logging.getLogger(__name__)

HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
_FENCE_RE = re.compile(r"^[ \t]*(```|~~~)")
_NEWLINES_RE = re.compile(r"\r\n?|[\x85\u2028\u2029]")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f]")
_PUA_RE = re.compile(r"[\ue000-\uf8ff]")  # private-use glyphs (symbol-font bullets): unreadable
# Latin ligature characters (U+FB00-FB06) -> their letters: "superﬁcial" is no word to search
_LIGATURES = {c: unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
_EMPHASIS_RE = re.compile(r"\*\*|__|~~|`|</?(?:u|mark|b|i|em|strong|sup|sub)>")
_UNDERSCORE_RE = re.compile(r"(?<![\w\\])_(?=\S)|(?<=\S)_(?![\w])")
_SPACES_RE = re.compile(r"[ \t]+")
_PIC_START = "<!-- Start of picture text -->"
_PIC_END = "<!-- End of picture text -->"
_FOOTNOTE_BLOCK_RE = re.compile(r"^(?:> ?)?(\d{1,3}) ?(?=[A-Z“\"(])")
_PRESENTATION_TAG_RE = re.compile(r"</?(?:mark|u)>")  # highlight/underline: the text stays
# <sup>x</sup>: footnote marks / ordinals that layout engines glue into words.
_SUP_RE = re.compile(r"([ \t]*)<sup>(.*?)</sup>")
# a raised capital inside a capitalised logo ("L<sup>A</sup> TEX" = LaTeX): one word, no space
_LOGO_SUP_RE = re.compile(r"(?<![^\W\d_])([A-Z])<sup>([A-Z])</sup>[ \t]?(?=[A-Z]{2})")
# "INTRODUCTIONNTRODUCTION": small-caps words that layout engines emit twice, minus the capital.
_SMALL_CAPS_DUP_RE = re.compile(r"\b([A-Z])([A-Z]{3,})\2\b")
_CONTINUED_RE = re.compile(
    r"(\S.*?)(?:[\s—–-]+|\s*\()(?:continued|cont'd|cont’d|cont)\.?\)?\s*\.?$", re.IGNORECASE
)
_FOOTNOTE_MARK_RE = re.compile(r"^[\d,\-–*†‡§¶ ]+$")
# "- ● item", "- _•_ item": the PDF's own bullet glyph kept after the Markdown list marker.
_DOUBLE_BULLET_RE = re.compile(r"^([ \t]*[-*+] )(?:_?[●•◦▪■◆►‣∙]_?[ \t]+)+(?=\S)")


def normalize_text(text: str) -> str:
    """Only ``\\n`` line breaks; control characters other than tab/newline become U+FFFD."""
    return _CONTROL_RE.sub("\ufffd", _NEWLINES_RE.sub("\n", text))


def strip_inline_markup(text: str) -> str:
    """Plain text of a Markdown fragment: emphasis, code ticks and inline HTML tags removed."""
    text = _EMPHASIS_RE.sub("", text)
    text = _UNDERSCORE_RE.sub("", text)
    return _SPACES_RE.sub(" ", text).strip()


def heading_level(line: str) -> int:
    """The ATX heading level of `line` (1-6), 0 when it is not a heading line."""
    m = HEADING_RE.match(line)
    return len(m.group(1)) if m else 0


def heading_text(line: str) -> str:
    """The cleaned text of a heading line ("" when `line` is no heading)."""
    m = HEADING_RE.match(line)
    return strip_inline_markup(m.group(2)) if m else ""


def make_heading(level: int, text: str) -> str:
    """A heading line of `level` (clamped to 1-6) with plain `text`."""
    return "#" * min(max(level, 1), 6) + " " + strip_inline_markup(text)


def bold_line(title: str) -> str:
    """A heading title demoted to a body line: ``**Title**`` (inline markup stripped)."""
    return f"**{strip_inline_markup(title)}**"


def clean_heading_line(line: str) -> str:
    """``# **Title**`` -> ``# Title``; non-heading lines unchanged; empty headings become "";
    continuation titles become bold lines (module docstring)."""
    m = HEADING_RE.match(line)
    if not m:
        return line
    text = strip_inline_markup(m.group(2))
    if _continued(text):
        return f"**{text}**"
    return f"{m.group(1)} {text}" if text else ""


def _continued(plain: str) -> re.Match[str] | None:
    # the cheap substring test first: the pattern is slow on long lines without a match
    return _CONTINUED_RE.match(plain) if "cont" in plain.lower() else None


def continued_title(text: str) -> str | None:
    """The title a continuation line repeats ("ESTIMATED COSTS—Continued" -> "ESTIMATED
    COSTS"), or None when `text` (markup ignored) is not a continuation title."""
    m = _continued(strip_inline_markup(text))
    return m.group(1).strip() if m else None


def iter_unfenced(lines: Sequence[str]) -> Iterator[tuple[int, bool]]:
    """(index, inside_fence) for each line; fence delimiter lines count as inside."""
    inside = False
    for i, line in enumerate(lines):
        if _FENCE_RE.match(line):
            yield i, True
            inside = not inside
            continue
        yield i, inside


def split_pages(pages: Sequence[tuple[int, str]]) -> list[list[str]]:
    """The lines of each (page number, Markdown) pair, for the structure repairs to edit."""
    return [text.split("\n") for _, text in pages]


def join_pages(
    pages: Sequence[tuple[int, str]], split: Sequence[list[str]]
) -> list[tuple[int, str]]:
    """`split_pages` undone: (page number, Markdown) pairs from the (edited) lines."""
    return [(number, "\n".join(lines)) for (number, _), lines in zip(pages, split, strict=True)]


def heading_lines(split: Sequence[list[str]]) -> Iterator[tuple[int, int, re.Match[str]]]:
    """(page index, line index, `HEADING_RE` match) of every heading line outside code fences,
    in document order. Each line is read when it is reached, so the caller may rewrite the
    current line and the lines before it while iterating."""
    for k, lines in enumerate(split):
        for i, inside in iter_unfenced(lines):
            m = None if inside else HEADING_RE.match(lines[i])
            if m:
                yield k, i, m


def _fix_sup(line: str) -> str:
    """``cancer<sup>1</sup>`` -> ``cancer [1]``; ``10<sup>2</sup>`` -> ``10^2``; else unwrapped.

    A footnote number glued to a word hides the word from keyword search ("cancer1"); marks
    and ordinals ("Herceptin<sup>®</sup>", "10<sup>th</sup>") read best unwrapped. A raised
    capital between capitals is part of a logo and joins both sides ("L<sup>A</sup> TEX" ->
    "LATEX", which pymupdf4llm writes with a space because the letters' boxes overlap).
    """
    line = _LOGO_SUP_RE.sub(r"\1\2", line)

    def repl(m: re.Match[str]) -> str:
        space, inner = m.group(1), strip_inline_markup(m.group(2))
        before = line[m.start() - 1] if m.start() > 0 else " "
        if not inner:
            return space
        if space or not _FOOTNOTE_MARK_RE.match(inner) or before.isspace():
            return space + inner
        return f"^{inner}" if before.isdigit() else f" [{inner}]"

    return _SUP_RE.sub(repl, line)


def _tidy_line(line: str) -> str:
    line = _SMALL_CAPS_DUP_RE.sub(r"\1\2", _PUA_RE.sub("", line).rstrip()).translate(_LIGATURES)
    if "<sup>" in line:
        line = _fix_sup(line)
    if line.startswith("#"):
        return clean_heading_line(line)
    if "<mark>" in line or "<u>" in line:
        line = _PRESENTATION_TAG_RE.sub("", line)
    if line.startswith("|") and "<br>" in line:
        return line.replace("<br>", " ")
    return _DOUBLE_BULLET_RE.sub(r"\1", line)


def _split_picture_text(lines: list[str]) -> list[str]:
    """``<!-- Start of picture text -->`` / ``a<br>b<br><!-- End ... -->`` -> lines a, b."""
    out: list[str] = []
    for line in lines:
        if line.strip() == _PIC_START:
            continue
        if _PIC_END in line:
            parts = line.replace(_PIC_END, "").split("<br>")
            out.extend(part.strip() for part in parts if part.strip())
            out.append("")
            continue
        out.append(line)
    return out


def tidy_page(markdown: str) -> str:
    """Clean one page's Markdown (see module docstring); returns text with only ``\\n`` breaks."""
    lines = normalize_text(markdown).split("\n")
    if _PIC_START in markdown:
        lines = _split_picture_text(lines)
    out: list[str] = []
    for i, inside in iter_unfenced(lines):
        line = lines[i].rstrip() if inside else _tidy_line(lines[i])
        if not line.strip() and out and not out[-1].strip():
            continue  # at most one blank line in a row
        out.append(line)
    return attach_footnotes("\n".join(out).strip("\n"))


def attach_footnotes(page: str) -> str:
    """Move each footnote of a page to just after the paragraph that cites it.

    A footnote is a paragraph (or ``> `` quote) opening with its number, glued or spaced, then
    a capital ("10FAISS configuration: ...", "> 3 The White House ..."); it moves only when a
    paragraph of the same page cites that number as `` [N]`` (superscripts become that in
    `_fix_sup`). Footnotes set at the page foot otherwise split the paragraph running on to the
    next page and land in whatever section is open at the foot. Pages with code fences are
    left alone; nothing moves to another page.
    """
    if "```" in page or "[" not in page:
        return page
    blocks = page.split("\n\n")
    notes: dict[int, int] = {}  # footnote number -> its block
    for i, block in enumerate(blocks):
        m = _FOOTNOTE_BLOCK_RE.match(block)
        if m and "\n\n" not in block:
            notes.setdefault(int(m.group(1)), i)
    if not notes:
        return page
    note_blocks = set(notes.values())
    moves: dict[int, list[int]] = {}  # citing block -> footnote blocks, in number order
    for number, i in sorted(notes.items()):
        cite = f" [{number}]"
        j = next((j for j, b in enumerate(blocks) if cite in b and j not in note_blocks), None)
        if j is not None and j != i - 1:
            moves.setdefault(j, []).append(i)
    if not moves:
        return page
    moved = {i for ids in moves.values() for i in ids}
    out = []
    for j, block in enumerate(blocks):
        if j not in moved:
            out.append(block)
        out += [blocks[i] for i in moves.get(j, [])]
    return "\n\n".join(out)


def _signature(line: str) -> str:
    """Running-line identity: plain text, case-folded, digits collapsed (page numbers vary)."""
    text = unicodedata.normalize("NFKC", strip_inline_markup(line.lstrip("#> -"))).casefold()
    return re.sub(r"\d+", "#", text)


def _edge_lines(lines: list[str], depth: int) -> list[int]:
    """Indexes of the first and last `depth` non-blank, unfenced, non-table lines."""
    idx = [i for i, inside in iter_unfenced(lines) if not inside and lines[i].strip()]
    idx = [i for i in idx if not lines[i].lstrip().startswith("|") and len(lines[i]) <= 160]
    return sorted(set(idx[:depth] + idx[-depth:]))


def strip_running_lines(pages: Sequence[str], depth: int = 2, share: float = 0.5) -> list[str]:
    """Drop lines repeated at the top/bottom of at least `share` of the pages (min. 3 pages).

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


def tidy_pages(texts: Sequence[str], strip_running: bool) -> list[str]:
    """`tidy_page` on each page, then the fixes that need the neighbouring pages: running
    headers/footers (only when `strip_running`), `join_page_hyphens`, `join_page_tables`."""
    pages = [tidy_page(t) for t in texts]
    if strip_running:
        pages = strip_running_lines(pages)
    return join_page_tables(join_page_hyphens(pages))


def tidy_blank_lines(text: str) -> str:
    """Collapse runs of blank lines to one and trim outer blank lines."""
    return re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", text).strip("\n")


def _cells(row: str) -> list[str]:
    return row.strip().strip("|").split("|")


def _table_at(lines: list[str], from_end: bool) -> list[int]:
    """Indexes of the table rows that end (or open) the page, in order; [] when the page's
    last (first) non-blank line is not a table row."""
    order = range(len(lines) - 1, -1, -1) if from_end else range(len(lines))
    rows: list[int] = []
    for i in order:
        line = lines[i].strip()
        if not line and not rows:
            continue
        if not line.startswith("|"):
            break
        rows.append(i)
    return sorted(rows)


def _bold_row(row: str) -> bool:
    cells = [c.strip() for c in _cells(row)]
    return all(c.startswith("**") and c.endswith("**") for c in cells if c)


def join_page_tables(pages: Sequence[str]) -> list[str]:
    """Give a table that continues from the previous page its real header row back.

    Extractors render each page's part of a table as its own table, so a continuation without a
    repeated header comes out with its first data row as the header. When page N ends with a
    table whose header row is bold and page N+1 opens with a table of the same number of columns
    whose first row is not bold and differs from that header, page N+1's table gets page N's
    header and separator, and its first row becomes a data row again. A header-only table at
    the end of page N (no rows) moves to page N+1 instead of appearing twice.
    """
    out = [p.split("\n") for p in pages]
    for n in range(len(out) - 1):
        prev, cur = _table_at(out[n], True), _table_at(out[n + 1], False)
        if len(prev) < 2 or len(cur) < 2:
            continue
        lines = out[n + 1]
        header, sep = out[n][prev[0]], out[n][prev[1]]
        first = lines[cur[0]]
        if not (TABLE_SEPARATOR_RE.fullmatch(sep) and TABLE_SEPARATOR_RE.fullmatch(lines[cur[1]])):
            continue
        if len(_cells(header)) != len(_cells(first)) or first.strip() == header.strip():
            continue
        if _bold_row(header) and not _bold_row(first):
            lines[cur[0] : cur[0] + 2] = [header, sep, first]
            if len(prev) == 2:  # page N held only the header: it moves to its rows
                del out[n][prev[0] : prev[1] + 1]
    return ["\n".join(lines) for lines in out]


_NOT_PROSE_LINE_RE = re.compile(r"(?:[-*+]\s|\d{1,3}[.)]\s|#|\||>|```)")
_PAGE_END_HYPHEN_RE = re.compile(r"([^\W\d_]+)-$")
_PAGE_START_WORD_RE = re.compile(r"^([^\W\d_A-Z]+)([^\s]*)[ \t]*")


def join_page_hyphens(pages: Sequence[str]) -> list[str]:
    """Re-join a word hyphenated across a page break ("rep-" | "resentations are ...").

    When a page's text ends with letters and a hyphen on a prose line, and the next page's
    text starts with a lower-case word, the hyphen goes and the word is completed on the
    first page (where it starts); the next page starts at the word after it. Headings, table
    rows, list items, quotes and code are never touched.
    """
    out = list(pages)
    for n in range(len(out) - 1):
        head, tail = out[n].rstrip(), out[n + 1].lstrip()
        last = head[head.rfind("\n") + 1 :]
        m = _PAGE_END_HYPHEN_RE.search(head)
        w = _PAGE_START_WORD_RE.match(tail)
        if not m or not w or _NOT_PROSE_LINE_RE.match(last.lstrip()):
            continue
        if out[n].count("```") % 2 or tail.startswith(("```", "|")):
            continue
        out[n] = head[:-1] + w.group(1) + w.group(2)
        out[n + 1] = tail[w.end() :]
    return out
