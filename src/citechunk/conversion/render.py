"""A page's Markdown written from its blocks (`blocks.Block`), one block after another.

Each kind has one form: a title or section header is a heading of its block's ``level``
(6 when unset); a list item is a ``- `` item indented by its ``depth`` (a numbered item keeps
its number, a new item starts where a line begins left of the one before); a footnote block
is footnote paragraphs (`footnote_markdown`), never a quote; a table is its rendered grid;
a picture is a blank line, then its text lines between picture-text markers; a displayed
formula is one paragraph, a line per band (lines whose boxes overlap down the page: a main
line and its limits, numerators and denominators); in a band the widest line's spans and the
other lines whole are pieces, read in stacks left to right (pieces whose boxes overlap
across: a fraction's numerator and denominator, a sum's limits), each stack top to bottom,
so a fraction reads "1 ρ(z)" where it stands, not its denominator on a line of its own after
the formula; any
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

from .blocks import MONOSPACED, Block, Box, Layer, Line, Span
from .textlayer import union_box

#: A line Markdown reads as a heading: one to six "#" and a blank or the line's end.
_ATX_RE = re.compile(r"#{1,6}(?:[ \t]|$)")
#: A line Markdown reads as a heading, quote, list item or table row by its first character.
_SYNTAX_START_RE = re.compile(r"[#>|*+-]")
#: Points two spans' boxes may overlap across and still stand side by side (a glyph's box runs
#: a little into its neighbour's).
_TOUCH = 1.0
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
    if block.kind == "formula":
        return formula_markdown(block)
    if block.kind == "picture":
        return "\n\n" + (dl.picture_text_to_md(lines) if lines else "")
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


def formula_markdown(block: Block) -> str:
    """A displayed formula as one paragraph (module docstring): its lines in bands down the
    page (`_bands`), one line of text a band (`_band_text`)."""
    text = "\n".join(t for t in (_band_text(band) for band in _bands(block.lines)) if t)
    if not text:
        return "\n\n"
    return "\n\n" + ("\\" + text if _SYNTAX_START_RE.match(text) else text) + "\n\n"


def _bands(lines: Sequence[Line]) -> list[list[Line]]:
    """The lines in bands: a line whose box overlaps the band above it by more than `_TOUCH`
    points down the page is part of it (a raised limit, a denominator set against the main
    line); a line set below a gap starts a band (the next line of a system, a remark)."""
    bands: list[list[Line]] = []
    bottom = float("-inf")
    for line in sorted(lines, key=lambda ln: ln.bbox[1]):
        if not bands or line.bbox[1] >= bottom - _TOUCH:
            bands.append([])
            bottom = line.bbox[3]
        bands[-1].append(line)
        bottom = max(bottom, line.bbox[3])
    return bands


#: A piece of a formula's band: a box and the spans it writes, in order.
_Piece = tuple[Box, tuple[Span, ...]]


def _band_text(band: Sequence[Line]) -> str:
    """A band's text: its widest line is the main line, each of its spans a piece; each other
    line (a numerator, a denominator, a limit) is one piece. Pieces whose boxes overlap across
    stack (`_stacks`); the stacks are read left to right, each top to bottom (`_rows`), the
    main line's spans in a stack one piece in the line's order (a span may hold a whole
    fraction the PDF wrote in reading order)."""
    main = max(band, key=lambda ln: ln.bbox[2] - ln.bbox[0])
    own = [s for s in main.spans if s.text.strip()]
    pieces: list[_Piece] = [(s.bbox, (s,)) for s in own]
    pieces += [(ln.bbox, ln.spans) for ln in band if ln is not main and ln.shown]
    words = []
    for stack in _stacks(pieces):
        mains = [s for box, spans in stack if len(spans) == 1 and spans[0] in own for s in spans]
        rest = [p for p in stack if not (len(p[1]) == 1 and p[1][0] in own)]
        if mains:
            box = union_box(tuple(s.bbox for s in mains))
            rest.append((box, tuple(sorted(mains, key=own.index))))
        words += [s.text.strip() for row in _rows(rest) for _, spans in row for s in spans]
    return " ".join(w for w in words if w)


def _stacks(pieces: Sequence[_Piece]) -> list[list[_Piece]]:
    """`pieces` in runs whose boxes overlap across by more than `_TOUCH` points (a fraction's
    numerator over its denominator, a sum's limits over and under its sign), left to right."""
    stacks: list[list[_Piece]] = []
    right = float("-inf")
    for piece in sorted(pieces, key=lambda p: p[0][0]):
        if not stacks or piece[0][0] >= right - _TOUCH:
            stacks.append([])
            right = piece[0][2]
        stacks[-1].append(piece)
        right = max(right, piece[0][2])
    return stacks


def _rows(stack: Sequence[_Piece]) -> list[list[_Piece]]:
    """A stack's pieces in rows top to bottom (a piece whose middle lies above the row's
    bottom goes on that row: a raised or lowered index stays with its base), each row left to
    right."""
    rows: list[list[_Piece]] = []
    bottom = float("-inf")
    for piece in sorted(stack, key=lambda p: (p[0][1] + p[0][3]) / 2):
        if not rows or (piece[0][1] + piece[0][3]) / 2 > bottom:
            rows.append([])
            bottom = piece[0][3]
        rows[-1].append(piece)
        bottom = max(bottom, piece[0][3])
    return [sorted(row, key=lambda p: p[0][0]) for row in rows]


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
