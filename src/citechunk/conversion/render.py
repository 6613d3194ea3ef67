"""A page's Markdown written from its blocks (`blocks.Block`), one block after another.

Each kind has one form: a title or section header is a heading of its block's ``level``
(6 when unset); a list item is a ``- `` item indented by its ``depth`` (a numbered item keeps
its number, a new item starts where a line begins left of the one before); a footnote block
is footnote paragraphs (`footnote_markdown`), never a quote; a table is its rendered grid;
a picture or formula is a blank line, then its text lines between picture-text markers (a
line Markdown would read as a heading escaped); any
other block is one paragraph of styled runs (``**bold**``, ``_italic_``, ``~~struck~~``,
`` `code` ``, a line-end hyphen joined; a ``#`` it opens with escaped where Markdown would read a
heading), or a code fence when all its lines are monospaced (a text block whose first line
opens with a raised mark is a paragraph too: `processors.footnotes` made the notes of the page
footnote blocks; a block of another kind opening so, a page footer kept in the body, is
footnote paragraphs). Blocks in the furniture layer are
not written. The per-kind formatting is pymupdf4llm's (its helper functions, over copies of
the spans, since they edit their input), so the pages read as the layout path always wrote
them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .blocks import MONOSPACED, Block, Layer, Line

#: A line Markdown reads as a heading: one to six "#" and a blank or the line's end.
_ATX_RE = re.compile(r"#{1,6}(?:[ \t]|$)")
#: A note's number or symbol opening its text: "5. Jeffrie", "12 See", "3The", "† University".
_OPENING_RE = re.compile(r"^\s*(\d{1,3}|[*∗†‡§¶]{1,3})(?:[.)]?(?:\s+|$)|(?=[A-Z“\"‘(\[_]))")


@dataclass(frozen=True)
class RenderedPage:
    """A page's Markdown and, per block, the [start, stop) of its text in it."""

    text: str
    spans: tuple[tuple[int, int], ...]


def _span_dicts(line: Line, code: bool) -> list[dict[str, Any]]:
    """The line's spans as pymupdf4llm reads them; in a code block every span is flagged
    fixed-pitch (`blocks.Span.monospace` also reads the font's name), elsewhere the flags are
    the PDF's, so inline runs read as before."""
    return [
        {
            "text": s.text,
            "font": s.font,
            "size": s.size,
            "flags": s.flags | (MONOSPACED if code else 0),
            "char_flags": s.char_flags,
            "bbox": s.bbox,
            "origin": s.origin,
            "block": s.block,
            "line": s.line,
        }
        for s in line.spans
    ]


def _textlines(block: Block) -> list[dict[str, Any]]:
    """The block's lines in pymupdf4llm's form, fresh copies."""
    code = block.kind == "code"
    return [{"bbox": line.bbox, "spans": _span_dicts(line, code)} for line in block.lines]


def block_markdown(block: Block) -> str:
    """The Markdown of one block (module docstring)."""
    from pymupdf4llm.helpers import document_layout as dl

    lines = _textlines(block)
    if block.kind == "table":
        return (block.table or "") + "\n\n"
    if block.kind in ("picture", "formula"):
        return "\n\n" + (dl.picture_text_to_md(_escaped(lines)) if lines else "")
    if block.is_heading:
        return dl.section_hdr_to_md(block.level or 6, lines)
    if block.kind == "list-item":
        return str(dl.list_item_to_md(lines, block.depth))
    if block.kind == "footnote":
        return footnote_markdown(block)
    if block.lines and block.lines[0].raised_start and block.kind != "code":
        # pymupdf4llm quotes any such block as footnotes: a text block is a paragraph (its
        # page's notes are footnote blocks by now), another kind (a page footer kept in the
        # body) is footnotes
        return _paragraph(lines) if block.kind == "text" else footnote_markdown(block)
    # A text block is code exactly when its kind says so; other kinds check their lines.
    text = str(dl.text_to_md(lines, ignore_code=block.kind == "text"))
    return "\\" + text if _ATX_RE.match(text) else text


def _escaped(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`lines` with a backslash before a line's first span where the line opens with a
    heading mark (`_ATX_RE`), in place: a picture's text is no heading."""
    for line in lines:
        spans = line["spans"]
        text = " ".join(s["text"] for s in spans).lstrip()
        if spans and _ATX_RE.match(text):
            spans[0]["text"] = "\\" + spans[0]["text"].lstrip()
    return lines


def _paragraph(lines: list[dict[str, Any]]) -> str:
    from pymupdf4llm.helpers.document_layout import get_styled_text

    text = str(get_styled_text([s for line in lines for s in line["spans"]])[0]).strip()
    return text + "\n\n" if text else ""


def _notes(block: Block) -> list[tuple[str, list[Line]]]:
    """The block's notes: (mark, lines). A note opens at the first line, at a line opening
    with a raised mark, and at a line opening with the number after the open note's number."""
    notes: list[tuple[str, list[Line]]] = []
    for line in block.lines:
        mark = note_mark(line)
        following = bool(notes) and notes[-1][0].isdigit() and mark == str(int(notes[-1][0]) + 1)
        if not notes or line.raised_start or following:
            notes.append((mark, [line]))
        else:
            notes[-1][1].append(line)
    return notes


def note_mark(line: Line) -> str:
    """The number or footnote symbol opening the line, raised or not ("" without one)."""
    m = _OPENING_RE.match(line.shown)
    return m.group(1) if m else ""


def _note_markdown(mark: str, lines: list[Line]) -> str:
    """One note: its mark written as the text's footnote marks are (``[N]``), then its text
    (the mark taken off the note's first span, or that span dropped when it is the mark)."""
    spans = [_span_dicts(ln, False) for ln in lines]
    at = next((i for i, s in enumerate(spans[0]) if s["text"].strip()), None)
    if mark and at is not None:
        if spans[0][at]["text"].strip().rstrip(".)") == mark:
            del spans[0][at]  # the mark is a span of its own
        else:
            spans[0][at]["text"] = _OPENING_RE.sub("", spans[0][at]["text"], count=1)
    text = _paragraph([{"bbox": ln.bbox, "spans": s} for ln, s in zip(lines, spans, strict=True)])
    return f"[{mark}] {text}" if mark and text else text


def footnote_markdown(block: Block) -> str:
    """A footnote block as footnote paragraphs: each note (`_notes`) one paragraph opening
    with its mark as ``[N]`` (the number or footnote symbol opening it, raised or not),
    a note without a mark (the end of one the page before began) a plain paragraph."""
    return "".join(_note_markdown(mark, lines) for mark, lines in _notes(block))


def render_page(blocks: Sequence[Block]) -> RenderedPage:
    """The page's Markdown from `blocks` in order; a furniture block takes no text."""
    text = ""
    spans = []
    for block in blocks:
        start = len(text)
        if block.layer is not Layer.FURNITURE:
            text += block_markdown(block)
        spans.append((start, len(text)))
    return RenderedPage(text, tuple(spans))
