"""Markdown of a plain one-column page straight from its text layer (the fast path, no model).

`triage` sends here only pages that are one column of running text (no image, no drawn grid,
no lines side by side, no column gaps), so reading order is the text blocks' top-to-bottom
order and every block is a heading, a list or a paragraph. The Markdown is of the kind the
layout path writes, so the passes after it treat both alike:

- a block is a heading when it is short (at most `HEADING_MAX_CHARS`, `HEADING_MAX_LINES`
  lines), does not end like a sentence, and is set larger than the body font (the most
  common size of the document's text, `BodyFont`) or all bold; its level is the rank of its
  size among the document's larger sizes (largest = 1), bold body-size headings one below
  them; the outline repair pass fixes levels afterwards where the PDF has an outline;
- a line starting with a bullet glyph starts a list item (``- ``); the lines after it until
  the next bullet continue that item;
- a block with dot leaders ("Scope ........ 4": a table of contents) or with fewer than two
  letters is never a heading;
- a block set wholly in a monospaced font is a fenced code block, its lines kept;
- a block whose first lines are bold and whose later lines are not starts with those lines
  as a heading when they qualify as one (a run-in heading block: "Contact" over an address);
- any other block is one paragraph: its lines joined by single spaces, a word broken by a
  hyphen at a line's end joined again (as the layout path does), monospaced runs inside it
  marked as code, bold runs ``**...**`` and italic runs ``_..._``;
- running lines (`runninglines`) and sideways text are left out, as the layout path cuts
  page-header/-footer boxes, and so are the spans of line numbers (`furniture`), as the
  layout path's reader leaves them out (`rawlines`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .furniture import NumberPlaces, numbered_spans, without_numbers
from .geometry import LEADER_RE
from .runninglines import line_signature
from .spans import readable
from .textlayer import BOLD_FLAG, PageText

ITALIC_FLAG = 2  # PyMuPDF span flag bit for italic text
MONO_FLAG = 8  # PyMuPDF span flag bit for a monospaced font

HEADING_MAX_CHARS = 150
HEADING_MAX_LINES = 3
#: A size at least this many points over the body size is a heading size.
LARGER = 0.9
BULLETS = ("•", "◦", "▪", "■", "●", "○", "·", "\uf0b7", "\uf0a7")  # glyphs starting list items
_SENTENCE_ENDS = (".", ",", ";")
_RUN_BREAK = re.compile(r"(?<=\S)(\*\*|_|`) \1(?=\S)")  # a bold/italic run broken at a line end
_MARKED_BULLET = re.compile(r"^(\*\*|_)?[" + "".join(BULLETS) + r"](\*\*|_)?\s*")


@dataclass(frozen=True)
class BodyFont:
    """The document's body font size and its larger (heading) sizes, largest first."""

    size: float
    larger: tuple[float, ...]

    @classmethod
    def of(cls, pages: Iterable[PageText]) -> BodyFont:
        """Body size = the size carrying most characters; larger = rounded sizes above it."""
        chars: Counter[float] = Counter()
        for page in pages:
            for line in page.lines:
                chars[round(line.size, 1)] += len(line.text)
        if not chars:
            return cls(0.0, ())
        body = chars.most_common(1)[0][0]
        larger = sorted({s for s in chars if s >= body + LARGER}, reverse=True)
        return cls(body, tuple(larger))

    def level(self, size: float, bold: bool) -> int:
        """Heading level of a block of `size` (0: not a heading size; bold body text is the
        level after the larger sizes')."""
        rounded = round(size, 1)
        for rank, big in enumerate(self.larger, start=1):
            if rounded >= big - 0.05:
                return min(rank, 6)
        return min(len(self.larger) + 1, 4) if bold else 0


@dataclass(frozen=True)
class _Line:
    text: str  # with bold runs marked
    plain: str
    size: float
    bold: bool
    mono: bool = False


def page_markdown(
    page: Any, running: Mapping[str, int], font: BodyFont, places: NumberPlaces | None = None
) -> str:
    """Markdown of PyMuPDF page `page` (module docstring); `running` holds the signatures of
    the page's running lines, `places` where the document prints its line numbers."""
    blocks = []
    found = page.get_text("dict", sort=True)["blocks"]
    for block in without_numbers(found, numbered_spans(found, places)):
        lines = [ln for ln in (_line(raw) for raw in block.get("lines", ())) if ln is not None]
        lines = [ln for ln in lines if line_signature(ln.plain) not in running]
        if lines:
            blocks.append(_block(lines, font))
    return "\n\n".join(b for b in blocks if b) + ("\n" if blocks else "")


def _line(raw: Mapping[str, Any]) -> _Line | None:
    if abs(float(raw.get("dir", (1.0, 0.0))[1])) > 0.01:
        return None  # sideways text: margin stamps
    spans = [s for s in raw.get("spans", ()) if readable(tuple(s["bbox"]))]
    shown = [s for s in spans if str(s.get("text", "")).strip()]
    if not shown:
        return None
    bold = all(int(s.get("flags", 0)) & BOLD_FLAG for s in shown)
    plain = "".join(str(s["text"]) for s in spans).strip()
    mono = all(int(s.get("flags", 0)) & MONO_FLAG for s in shown)
    size = max(float(s.get("size", 0.0)) for s in shown)
    return _Line(_marked(spans), plain, size, bold, mono)


def _marked(spans: list[Mapping[str, Any]]) -> str:
    """The spans' text with each run of monospaced spans between backticks, of bold spans
    between ``**`` and of italic spans between ``_`` (in that order of precedence)."""
    out: list[str] = []
    run: list[str] = []
    style = ""
    for span in spans:
        text = str(span["text"])
        flags = int(span.get("flags", 0))
        mark = (
            "`"
            if flags & MONO_FLAG
            else "**"
            if flags & BOLD_FLAG
            else "_"
            if flags & ITALIC_FLAG
            else ""
        )
        if not text.strip():
            mark = style  # a blank span continues the run it sits in
        if mark != style and run:
            out.append(_wrap("".join(run), style))
            run = []
        style = mark
        run.append(text)
    if run:
        out.append(_wrap("".join(run), style))
    return "".join(out).strip()


def _wrap(text: str, mark: str) -> str:
    """`text` between `mark`s, its outer blanks kept outside."""
    if not mark or not text.strip():
        return text
    lead = text[: len(text) - len(text.lstrip())]
    tail = text[len(text.rstrip()) :]
    return f"{lead}{mark}{text.strip()}{mark}{tail}"


def _join(parts: Iterable[str]) -> str:
    """Lines joined by spaces; a line ending in a letter and a hyphen joins the next line's
    word without hyphen and space."""
    out = ""
    for part in parts:
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha() and part[:1].islower():
            out = out[:-1] + part
        else:
            out = f"{out} {part}" if out else part
    return _RUN_BREAK.sub(" ", out)


def _is_heading(lines: list[_Line], font: BodyFont) -> int:
    """The heading level of block `lines`, 0 when it is no heading (module docstring)."""
    plain = " ".join(ln.plain for ln in lines)
    level = font.level(max(ln.size for ln in lines), all(ln.bold for ln in lines))
    if (
        level
        and len(lines) <= HEADING_MAX_LINES
        and len(plain) <= HEADING_MAX_CHARS
        and not plain.endswith(_SENTENCE_ENDS)
        and not plain.startswith(BULLETS)
        and sum(ch.isalpha() for ch in plain) >= 2
        and not LEADER_RE.search(plain)
    ):
        return level
    return 0


def _block(lines: list[_Line], font: BodyFont) -> str:
    if all(ln.mono for ln in lines):
        return "```\n" + "\n".join(ln.plain for ln in lines) + "\n```"
    level = _is_heading(lines, font)
    if level:
        return "#" * level + " " + " ".join(ln.plain for ln in lines)
    lead = next((i for i, ln in enumerate(lines) if not ln.bold), len(lines))
    if 0 < lead < len(lines):
        level = _is_heading(lines[:lead], font)
        if level:
            heading = "#" * level + " " + " ".join(ln.plain for ln in lines[:lead])
            return heading + "\n\n" + _block(lines[lead:], font)
    items: list[list[str]] = [[]]
    for ln in lines:
        if ln.plain.startswith(BULLETS) and items[-1]:
            items.append([])
        items[-1].append(ln.text)
    return "\n\n".join(_item(_join(item)) for item in items if item)


def _item(text: str) -> str:
    """A list item ``- text`` when `text` starts with a bullet glyph (bold or not), else
    `text`."""
    bare = _MARKED_BULLET.sub("", text, count=1)
    return "- " + bare if bare != text else text
