"""Per-page clean-up of one page's Markdown: what every extractor leaves behind.

`tidy_page` (contract): only ``\n`` line breaks, other control characters U+FFFD
(`mdlines.normalize_text`); heading lines plain (``# **T**`` -> ``# T``, empty headings dropped,
a continuation title such as "COSTS—Continued" a bold line; a footnote mark ending a heading
after a word of two or more letters dropped: "BACKGROUND [1]" -> "BACKGROUND", "R [2]" stays);
``<sup>`` footnote marks glued to a word -> `` [N]`` (raised digits inside a word stay in it: "I²C"), other superscripts unwrapped, a raised capital inside a logo joined
("L<sup>A</sup> TEX" -> "LATEX"); ``<br>`` in table rows -> space; ``<mark>``/``<u>`` tags
dropped, text kept; a bullet glyph repeating the list marker dropped; picture-text blocks ->
lines; small-caps doubling fixed; private-use glyphs dropped; ligature characters spelled out;
at most one blank line in a row; footnotes moved after the paragraph citing them
(`attach_footnotes`). Text inside fenced code is left alone except for line breaks.
"""

from __future__ import annotations

import logging
import re
import unicodedata

from ..mdlines import clean_heading_line, iter_unfenced, normalize_text, strip_inline_markup

log = logging.getLogger(__name__)

_PUA_RE = re.compile(r"[\ue000-\uf8ff]")  # private-use glyphs (symbol-font bullets): unreadable
# Latin ligature characters (U+FB00-FB06) -> their letters: "superﬁcial" is no word to search
_LIGATURES = {c: unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
_PIC_START = "<!-- Start of picture text -->"
_PIC_END = "<!-- End of picture text -->"
_FOOTNOTE_BLOCK_RE = re.compile(r"^(?:\[(\d{1,3})\] |(?:> ?)?(\d{1,3}) ?(?=[A-Z“\"(]))")
_PRESENTATION_TAG_RE = re.compile(r"</?(?:mark|u)>")  # highlight/underline: the text stays
_PRESENTATION_TAG_RE = re.compile(r"</?(?:mark|u)>")  # highlight/underline: the text stays
# <sup>x</sup>: footnote marks / ordinals that layout engines glue into words.
_SUP_RE = re.compile(r"([ \t]*)<sup>(.*?)</sup>")
# a raised capital inside a capitalised logo ("L<sup>A</sup> TEX" = LaTeX): one word, no space
_LOGO_SUP_RE = re.compile(r"(?<![^\W\d_])([A-Z])<sup>([A-Z])</sup>[ \t]?(?=[A-Z]{2})")
# "INTRODUCTIONNTRODUCTION": small-caps words that layout engines emit twice, minus the capital.
_SMALL_CAPS_DUP_RE = re.compile(r"\b([A-Z])([A-Z]{3,})\2\b")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_FOOTNOTE_MARK_RE = re.compile(r"^[\d,;\-–*†‡§¶ ]+$")
# " [1]" / " [2,3]" ending a heading after a word: the heading's footnote mark, not its title
_HEADING_MARK_RE = re.compile(r"(?<=[^\W\d_]{2})[ \t]*\[\d{1,3}(?:[,;\-–]\d{1,3})*\]$")
# "- ● item", "- _•_ item": the PDF's own bullet glyph kept after the Markdown list marker.
_DOUBLE_BULLET_RE = re.compile(r"^([ \t]*[-*+] )(?:_?[●•◦▪■◆►‣∙]_?[ \t]+)+(?=\S)")


def _fix_sup(line: str) -> str:
    """``cancer<sup>1</sup>`` -> ``cancer [1]``; ``10<sup>2</sup>`` -> ``10^2``; raised digits
    inside a word or after a one-letter symbol stay there as superscript digits (``I<sup>2</sup>C``
    -> ``I²C``, ``R<sup>3</sup>`` -> ``R³``: a power); else unwrapped.

    A footnote number glued to a word hides the word from keyword search ("cancer1"); marks
    and ordinals ("Herceptin<sup>®</sup>", "10<sup>th</sup>") read best unwrapped. A raised
    capital between capitals is part of a logo and joins both sides ("L<sup>A</sup> TEX" ->
    "LATEX", which pymupdf4llm writes with a space because the letters' boxes overlap).
    """
    line = _LOGO_SUP_RE.sub(r"\1\2", line)

    def repl(m: re.Match[str]) -> str:
        space, inner = m.group(1), strip_inline_markup(m.group(2))
        before = line[m.start() - 1] if m.start() > 0 else " "
        after = line[m.end()] if m.end() < len(line) else " "
        if not inner:
            return space
        if space or not _FOOTNOTE_MARK_RE.match(inner) or before.isspace():
            return space + inner
        ahead = line[m.start() - 2] if m.start() > 1 else " "
        if before.isalpha() and (after.isalnum() or not ahead.isalpha()) and inner.isdigit():
            return inner.translate(_SUPERSCRIPTS)  # inside a word ("I²C"), a power ("R³")
        return f"^{inner}" if before.isdigit() else f" [{inner}]"

    return _SUP_RE.sub(repl, line)


def _tidy_line(line: str) -> str:
    line = _SMALL_CAPS_DUP_RE.sub(r"\1\2", _PUA_RE.sub("", line).rstrip()).translate(_LIGATURES)
    if "<sup>" in line:
        line = _fix_sup(line)
    if line.startswith("#"):
        return _HEADING_MARK_RE.sub("", clean_heading_line(line))
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
    """Clean one page's Markdown: plain headings, footnote marks, tags, glyphs, blank lines
    (module docstring). Returns text with only ``\\n`` line breaks."""
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

    A footnote is a paragraph opening with its number as the renderer writes a footnote
    block's (``[N] `` then its text: `render.footnote_markdown`), or a paragraph (or ``> ``
    quote) opening with its number, glued or spaced, then a capital ("10FAISS configuration:
    ...", "> 3 The White House ..."); it moves only when a
    paragraph of the same page cites that number as `` [N]`` (superscripts become that in
    `_fix_sup`). Footnotes set at the page foot otherwise split the paragraph running on to the
    next page and land in whatever section is open at the foot. No footnote moves after the
    page's last other paragraph: that paragraph may run on to the next page (the block rule
    ``footnotes-before-run-on`` set the notes before it). Pages with code fences are left
    alone; nothing moves to another page.
    """
    if "```" in page or "[" not in page:
        return page
    blocks = page.split("\n\n")
    notes: dict[int, int] = {}  # footnote number -> its block
    for i, block in enumerate(blocks):
        m = _FOOTNOTE_BLOCK_RE.match(block)
        if m and "\n\n" not in block:
            notes.setdefault(int(m.group(1) or m.group(2)), i)
    if not notes:
        return page
    note_blocks = set(notes.values())
    last = max((j for j in range(len(blocks)) if j not in note_blocks), default=-1)
    moves: dict[int, list[int]] = {}  # citing block -> footnote blocks, in number order
    for number, i in sorted(notes.items()):
        cite = f" [{number}]"
        j = next((j for j, b in enumerate(blocks) if cite in b and j not in note_blocks), None)
        if j is not None and j != i - 1 and j != last:
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
