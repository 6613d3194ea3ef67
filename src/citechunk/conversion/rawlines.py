"""How the pymupdf layout path reads the text layer: its own words, in its own order.

`layer_reading` puts `raw_lines` (for ``get_raw_lines``) and a cell reader (for
``extract_cells``) in pymupdf4llm's layout path, and sets its text flags, for one parse.
The rules, each where pymupdf4llm's own reading departs from the text layer:

- Marked-content replacement text (``/ActualText``) is the text of its glyphs, as in
  PyMuPDF's plain text, which every other stage reads.
- Reading never changes the page's text blocks: ``get_raw_lines`` appends a joined span's
  text to the blocks' own span dictionary, so a line read a second time (two boxes sharing
  it) repeats ever shorter suffixes. `raw_lines` reads copies.
- A word flagged superscript after a space is a word of the line (OCR layers flag words whose
  baseline wanders).
- A span that is only a spacing accent follows the span it sits over, as a span of its own,
  wherever its left edge falls.
- Pieces of one text-layer line meeting letter to letter with (almost) no gap are one word,
  and so is a number and the raised suffix after it set as a line of its own ("29" + "th")
  (pymupdf4llm writes a space between spans that differ in style); touching spans of two
  text-layer lines that meet letter to letter get a space between them.
- A right-to-left line (most letters of right-to-left scripts) keeps each text-layer line's
  spans in the layer's (logical) order and puts the text-layer lines sharing a height from
  right to left.
- A raised footnote mark (`spans.is_raised_mark`: a small number or footnote symbol set
  higher than the span it touches) is never joined to the span before it, and is flagged
  superscript: the PDF raised it by its baseline, not by a superscript font. A line's first
  span raised that way against the span after it (a note's number) is not joined to it.
- Line numbers are no text (`furniture`): the spans of a column of line numbers are not
  read.
- A styled table cell keeps the layer's spaces: the spaces at a span's edges are read as
  spans of their own, which pymupdf4llm's cell text (stripping every span) keeps.
- A table cell is read without the space glyphs that take no room between two letters
  (`glyphgaps.is_kerned_space`; text boxes lose them in the ``kerned-spaces`` layout pass).
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

from .blocks import SUPERSCRIPT, Span
from .furniture import NumberPlaces, numbered_spans, without_numbers
from .glyphgaps import unkerned_blocks
from .spans import MARK_SMALLER, RAISED, is_mark_text, is_raised_mark
from .textlayer import union_box

#: Pieces of one text-layer line this close (in font sizes) with no space between them are one
#: word; a wider gap is a word break the text layer left unmarked.
WORD_GAP = 0.25


def raw_lines(
    blocks: Sequence[dict[str, Any]],
    clip: Any,
    tolerance: float = 3,
    ignore_invisible: bool = True,
    only_horizontal: bool = True,
    numbered: frozenset[tuple[int, int, int]] | None = None,
) -> list[list[Any]]:
    """The lines of `blocks` (``extractDICT`` format) inside `clip`, in pymupdf4llm's
    ``get_raw_lines`` form ([line rect, spans] top to bottom), read from copies of the spans
    by the module rules: spans at one height form a line; the spans at the `numbered`
    (block, line, span) indexes (default: `furniture.numbered_spans`) are left out."""
    import pymupdf

    spans = _spans(blocks, pymupdf.Rect(clip), ignore_invisible, only_horizontal)
    numbered = numbered_spans(blocks) if numbered is None else numbered
    spans = [s for s in spans if (s["block"], s["line"], s["span"]) not in numbered]
    spans.sort(key=lambda s: (-s["dir"][0], s["bbox"].y1))
    lines: list[list[Any]] = []
    for span in spans:
        if lines and _same_height(span["bbox"], lines[-1][1][-1]["bbox"], tolerance):
            lines[-1][0] |= span["bbox"]
            lines[-1][1].append(span)
        else:
            lines.append([pymupdf.Rect(span["bbox"]), [span]])
    return [[rect, _joined(_unraised_words(_ordered(line)))] for rect, line in lines]


def _spaced(s0: dict[str, Any], s1: dict[str, Any]) -> bool:
    """A space stands between the two spans: at an edge of either, or as a span of the layer
    line between them (blank spans are not read)."""
    between = (s0["block"], s0["line"]) == (s1["block"], s1["line"]) and s1["span"] > s0["span"] + 1
    return between or s0["text"][-1:].isspace() or s1["text"][:1].isspace()


def _unraised_words(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A span flagged superscript that is a word (two letters or more) after a space loses
    the flag: it is a word of the line, not a raised mark."""
    for before, span in zip(line, line[1:], strict=False):
        raised = span["flags"] & SUPERSCRIPT
        word = sum(ch.isalpha() for ch in span["text"]) >= 2
        if raised and word and _spaced(before, span):
            span["flags"] &= ~SUPERSCRIPT
    return line


def _spans(
    blocks: Sequence[dict[str, Any]], clip: Any, ignore_invisible: bool, only_horizontal: bool
) -> list[dict[str, Any]]:
    """Copies of the visible, non-blank spans mostly inside `clip`, each with its line's
    height, direction and block, line and span numbers (pymupdf4llm's selection)."""
    import pymupdf
    from pymupdf4llm.helpers.utils import TYPE3_FONT_NAME, almost_in_bbox, are_disjoint, is_white

    out: list[dict[str, Any]] = []
    for bno, block in enumerate(blocks):
        if are_disjoint(block["bbox"], clip):
            continue
        for lno, line in enumerate(block.get("lines", ())):
            if are_disjoint(line["bbox"], clip):
                continue
            if only_horizontal and abs(1 - line["dir"][0]) > 1e-3:
                continue
            for sno, span in enumerate(line["spans"]):
                invisible = span["alpha"] == 0 and not span["font"].startswith(TYPE3_FONT_NAME)
                if is_white(span["text"]) or (invisible and ignore_invisible):
                    continue
                x0, _, x1, _ = span["bbox"]
                rect = pymupdf.Rect(x0, line["bbox"][1], x1, line["bbox"][3])
                if not almost_in_bbox(rect, clip, portion=0.51):
                    continue
                copy = dict(span, bbox=rect, line=lno, block=bno, dir=line["dir"])
                copy["span"] = sno
                out.append(copy)
    return out


def _same_height(a: Any, b: Any, tolerance: float) -> bool:
    return abs(a.y1 - b.y1) <= tolerance or abs(a.y0 - b.y0) <= tolerance


def right_to_left(text: str) -> bool:
    """True when most of `text`'s letters are of right-to-left scripts (Unicode bidirectional
    class R or AL, against L)."""
    rtl = ltr = 0
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        rtl += kind in ("R", "AL")
        ltr += kind == "L"
    return rtl > ltr


def _ordered(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A line's spans in reading order: left to right by their left edges, or for a
    right-to-left line each text-layer line's spans in the layer's order (logical: their boxes
    may overlap or have no width) and those lines from right to left."""
    if not right_to_left("".join(s["text"] for s in line)):
        return _accents_after_base(sorted(line, key=lambda s: s["bbox"].x0))
    groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for span in sorted(line, key=lambda s: s["span"]):
        groups.setdefault((span["block"], span["line"]), []).append(span)
    ordered = sorted(groups.values(), key=lambda g: -max(s["bbox"].x1 for s in g))
    return [span for group in ordered for span in group]


#: Spacing accents a producer may set as glyphs of their own above a letter.
SPACING_ACCENTS = frozenset(
    "\u00a8\u00af\u00b4\u00b8\u02c6\u02c7\u02d8\u02d9\u02da\u02db\u02dc\u02dd"
)


def _is_accent(span: dict[str, Any]) -> bool:
    text = span["text"].strip()
    return bool(text) and all(ch in SPACING_ACCENTS for ch in text)


def _accents_after_base(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each span that is only a spacing accent placed over another span (its centre inside
    that span's width) follows that span; it stays a span of its own (`_joined` never joins
    an accent)."""
    out = [s for s in line if not _is_accent(s)]
    for accent in (s for s in line if _is_accent(s)):
        centre = (accent["bbox"].x0 + accent["bbox"].x1) / 2
        base = next(
            (i for i, s in enumerate(out) if s["bbox"].x0 <= centre <= s["bbox"].x1),
            None,
        )
        if base is None:
            base = next((i for i, s in enumerate(out) if s["bbox"].x0 > centre), len(out)) - 1
        out.insert(base + 1, accent)
    return out


def _same_size(s0: dict[str, Any], s1: dict[str, Any]) -> bool:
    return abs(s0["size"] - s1["size"]) <= 0.1 * max(s0["size"], s1["size"])


def _one_word(s0: dict[str, Any], s1: dict[str, Any]) -> bool:
    """`s1` goes on `s0`'s word: the next span of the same text-layer line, meeting it letter
    to letter, in one size, both or neither superscript, within `WORD_GAP` font sizes."""
    if (s0["block"], s0["line"], s0["span"] + 1) != (s1["block"], s1["line"], s1["span"]):
        return False
    if (s0["flags"] ^ s1["flags"]) & SUPERSCRIPT or not _same_size(s0, s1):
        return False  # an index is its own token ("2E", "4d 10": not letters of the word)
    if not (s0["text"][-1:].isalpha() and s1["text"][:1].isalpha()):
        return False  # a word goes on letter to letter; digits, punctuation keep their style
    a, b = s0["bbox"], s1["bbox"]
    gap = max(b.x0 - a.x1, a.x0 - b.x1)
    return gap <= WORD_GAP * max(s0["size"], s1["size"])


def _touching_same_style(s0: dict[str, Any], s1: dict[str, Any], rtl: bool) -> bool:
    """pymupdf4llm's join: `s1` starts within a tenth of its size after `s0` ends, in the
    reading direction, and both have the same font flags (underline aside)."""
    a, b = s0["bbox"], s1["bbox"]
    gap = a.x0 - b.x1 if rtl else b.x0 - a.x1
    style = (s0["flags"], s0["char_flags"] & ~2) == (s1["flags"], s1["char_flags"] & ~2)
    return gap <= s1["size"] * 0.1 and style


def _joined(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive spans that are one word or touch in one style become one span (never a
    spacing accent, never a raised mark: it is flagged superscript), with a space where they
    come from two text-layer lines (a span repeated at the same place is kept once)."""
    rtl = right_to_left("".join(s["text"] for s in line))
    out: list[dict[str, Any]] = []
    for span in line:
        last = out[-1] if out else None
        joins = last is not None and (
            _one_word(last, span) or _touching_same_style(last, span, rtl)
        )
        pair = _mark_pair(last, span)
        if pair is not None and is_raised_mark(pair, 1):
            span["flags"] |= SUPERSCRIPT
            out.append(span)
            continue
        if len(out) == 1 and pair is not None and is_raised_mark(pair, 0, True):
            out.append(span)  # the line opens with a raised mark: a note's number
            continue
        if last is None or _is_accent(span) or _is_accent(last) or not joins:
            out.append(span)
            continue
        if last["text"] != span["text"] or last["bbox"] != span["bbox"]:
            last["text"] += _separator(last, span) + span["text"]
        last["bbox"] = last["bbox"] | span["bbox"]
        last.update(block=span["block"], line=span["line"], span=span["span"])  # where it ends
    return out


def _mark_pair(last: dict[str, Any] | None, span: dict[str, Any]) -> tuple[Span, Span] | None:
    """`last` and `span` as `Span`s when either could be a raised mark (`spans.is_mark_text`),
    else None: most pairs of a line hold no mark, and are not converted."""
    if last is None or not (is_mark_text(span["text"]) or is_mark_text(last["text"])):
        return None
    return Span.of(last), Span.of(span)


def _separator(s0: dict[str, Any], s1: dict[str, Any]) -> str:
    """A space between spans of two text-layer lines that meet letter to letter (two lines
    are never one word); nothing inside one line, beside punctuation ("blog" + ".") or before
    a raised suffix of a number (`_raised_suffix`: "29" + "th" is "29th")."""
    other_line = (s0["block"], s0["line"]) != (s1["block"], s1["line"])
    meet = other_line and s0["text"][-1:].isalnum() and s1["text"][:1].isalnum()
    return " " if meet and not _raised_suffix(s0, s1) else ""


def _raised_suffix(s0: dict[str, Any], s1: dict[str, Any]) -> bool:
    """`s1` opens with letters set after the number ending `s0`, smaller (at most
    `spans.MARK_SMALLER` of its size) and raised (its baseline at least `spans.RAISED` of that
    size higher): an ordinal's suffix ("29" + "th", "1" + "er")."""
    size = float(s0["size"])
    if not (s0["text"][-1:].isdigit() and s1["text"][:1].isalpha()) or size <= 0:
        return False
    raised = float(s0["origin"][1]) - float(s1["origin"][1]) >= RAISED * size
    return raised and float(s1["size"]) <= MARK_SMALLER * size


def _page_reader(places: NumberPlaces | None = None) -> Any:
    """`raw_lines` with pymupdf4llm's ``get_raw_lines`` signature; the line numbers of the last
    list of blocks read are kept (the layout path reads a page's one list once per box);
    `places`: where the document prints its line numbers (`furniture.NumberPlaces`)."""
    last: list[Any] = [None, frozenset()]

    def read(textpage: Any = None, blocks: Any = None, clip: Any = None, **options: Any) -> Any:
        if blocks is None:
            blocks = _text_blocks(textpage)
        if clip is None:
            clip = textpage.rect
        if last[0] is not blocks:
            last[:] = [blocks, numbered_spans(blocks, places)]
        return raw_lines(blocks, clip, numbered=last[1], **options)

    return read


def _text_blocks(textpage: Any) -> list[dict[str, Any]]:
    """The text blocks of `textpage` with a box (pymupdf4llm's selection)."""
    from pymupdf4llm.helpers.utils import bbox_is_empty

    found = textpage.extractDICT()["blocks"]
    return [b for b in found if b["type"] == 0 and not bbox_is_empty(b["bbox"])]


def _white(ch: str) -> bool:
    return ch.isspace() or ord(ch) < 33


def _piece(span: dict[str, Any], chars: list[dict[str, Any]]) -> dict[str, Any]:
    return dict(span, chars=chars, bbox=union_box(c["bbox"] for c in chars))


def _split_edges(span: dict[str, Any]) -> list[dict[str, Any]]:
    """A ``rawdict`` span as its leading spaces, its text and its trailing spaces, the spaces
    unstyled spans (one span when it has no space at its edges)."""
    chars = span.get("chars") or []
    start = 0
    while start < len(chars) and _white(chars[start]["c"]):
        start += 1
    end = len(chars)
    while end > start and _white(chars[end - 1]["c"]):
        end -= 1
    if start == 0 and end == len(chars) or start == len(chars):
        return [span]
    parts = (chars[:start], chars[start:end], chars[end:])
    pieces = [_piece(span, part) for part in parts if part]
    for piece in pieces:
        if all(_white(c["c"]) for c in piece["chars"]):
            piece.update(flags=0, char_flags=0)  # a space has no style: "**Radar** Guns"
    return pieces


def spaced_blocks(blocks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rawdict`` text blocks with the spaces at the edges of each span split off as spans of
    their own (`_split_edges`)."""
    out: list[dict[str, Any]] = []
    for block in blocks:
        lines = [
            {**line, "spans": [p for s in line["spans"] for p in _split_edges(s)]}
            for line in block.get("lines", ())
        ]
        out.append({**block, "lines": lines})
    return out


def _cell_reader(original: Any, places: NumberPlaces | None = None) -> Any:
    """pymupdf4llm's ``extract_cells`` reading blocks without their line numbers and, for
    styled cells, with the spans' edge spaces apart (`spaced_blocks`); made once per page's
    list of blocks."""
    last: list[Any] = [None, None, None]

    def read(table_blocks: Any, cell: Any, markdown: bool = False, ocrpage: bool = False) -> Any:
        if not ocrpage:
            if last[0] is not table_blocks:
                numbered = numbered_spans(table_blocks, places)
                plain = unkerned_blocks(without_numbers(table_blocks, numbered))
                last[:] = [table_blocks, plain, spaced_blocks(plain)]
            table_blocks = last[2] if markdown else last[1]
        return original(table_blocks, cell, markdown=markdown, ocrpage=ocrpage)

    return read


@contextlib.contextmanager
def layer_reading(places: NumberPlaces | None = None) -> Iterator[None]:
    """Within the block, pymupdf4llm's layout path reads by the module rules (line numbers
    found with the document's `places`); its own readers and flags are put back afterwards.
    The caller serialises parses (they are module globals of pymupdf4llm)."""
    import pymupdf
    from pymupdf4llm.helpers import document_layout, utils

    reader, flags, cells = document_layout.get_raw_lines, document_layout.FLAGS, utils.extract_cells
    document_layout.get_raw_lines = _page_reader(places)
    document_layout.FLAGS = flags & ~pymupdf.TEXT_IGNORE_ACTUALTEXT
    utils.extract_cells = _cell_reader(cells, places)
    try:
        yield
    finally:
        document_layout.get_raw_lines, document_layout.FLAGS = reader, flags
        utils.extract_cells = cells
