"""Typed blocks: what a page shows, read once from the layout model's boxes (pymupdf layout path).

A `Block` is one region of a page: its 1-based page number, its box (PDF points, origin top
left, as the page was parsed: upright), its `Kind` (the layout model's class; a text
box whose lines are all monospaced, and whose first line is not a raised footnote mark, is "code"),
its `Line`s of `Span`s (font, size, PyMuPDF's flags and character flags, read as bold, italic,
underline, monospace, superscript), a table's rendered grid, and what later stages decide:
its heading `level`, its list nesting `depth`, its `Layer` and the `evidence` for them.

`page_blocks` builds a page's blocks once, after the layout passes (`layoutpasses`), from
pymupdf4llm's parsed boxes; `render` writes Markdown from blocks only. Blocks are frozen: a
stage returns new blocks (`dataclasses.replace`), never edits them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, get_args

from .geometry import is_mono_font

Box = tuple[float, float, float, float]

Kind = Literal[
    "title",
    "section-header",
    "text",
    "list-item",
    "footnote",
    "caption",
    "table",
    "picture",
    "formula",
    "page-header",
    "page-footer",
    "code",
]
KINDS: frozenset[str] = frozenset(get_args(Kind))
HEADING_KINDS: frozenset[str] = frozenset({"title", "section-header"})

# PyMuPDF span flags and character flags (pymupdf.TEXT_FONT_*, mupdf FZ_STEXT_*).
SUPERSCRIPT = 1
ITALIC = 2
MONOSPACED = 8
BOLD = 16
CHAR_STRIKEOUT = 1
CHAR_UNDERLINE = 2
CHAR_BOLD = 8
CHAR_FILLED = 16
CHAR_STROKED = 32
OCR_FONT = "GlyphLessFont"  # the font of Tesseract's invisible text layer
#: Points a line may start left of a list item's line before and still go on with its item.
INDENT_SLACK = 2.0


class Layer(Enum):
    """Which part of the document a block belongs to (docling-core's content layers)."""

    BODY = "body"
    FURNITURE = "furniture"  # running headers and footers, page numbers, stamps
    NAVIGATION = "navigation"  # contents, index, lists of figures


@dataclass(frozen=True)
class Span:
    """A run of text in one font and style, as the PDF's text layer gives it (``block`` and
    ``line`` number the layer's block and line it came from)."""

    text: str
    font: str = ""
    size: float = 0.0
    flags: int = 0
    char_flags: int = 0
    bbox: Box = (0.0, 0.0, 0.0, 0.0)
    origin: tuple[float, float] = (0.0, 0.0)
    block: int = 0
    line: int = 0

    @property
    def bold(self) -> bool:
        return bool(self.flags & BOLD or self.char_flags & CHAR_BOLD)

    @property
    def italic(self) -> bool:
        return bool(self.flags & ITALIC)

    @property
    def underline(self) -> bool:
        return bool(self.char_flags & CHAR_UNDERLINE)

    @property
    def superscript(self) -> bool:
        return bool(self.flags & SUPERSCRIPT)

    @property
    def invisible(self) -> bool:
        """Neither stroked nor filled (an OCR layer's text), or Tesseract's font."""
        return self.font == OCR_FONT or not self.char_flags & (CHAR_FILLED | CHAR_STROKED)

    @property
    def monospace(self) -> bool:
        """In a fixed-pitch font that is shown: its flags or its font's name say so
        (`geometry.is_mono_font`: many embedded fixed-pitch fonts do not set the flag); an OCR
        layer's font says nothing of the page."""
        fixed = self.flags & MONOSPACED or is_mono_font(self.font)
        return bool(fixed) and not self.invisible

    @classmethod
    def of(cls, span: Mapping[str, Any]) -> Span:
        """From a PyMuPDF ``dict`` span (missing keys take the defaults)."""
        return cls(
            str(span.get("text", "")),
            str(span.get("font", "")),
            float(span.get("size", 0.0)),
            int(span.get("flags", 0)),
            int(span.get("char_flags", 0)),
            as_box(span.get("bbox", (0, 0, 0, 0))),
            (float(span.get("origin", (0, 0))[0]), float(span.get("origin", (0, 0))[1])),
            int(span.get("block", 0)),
            int(span.get("line", 0)),
        )


@dataclass(frozen=True)
class Line:
    """One line of a block: its box and its spans in reading order."""

    bbox: Box
    spans: tuple[Span, ...]

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.spans)

    @property
    def shown(self) -> str:
        """The line's text as rendered: each span's text stripped, joined by one blank
        (`Block.shown`)."""
        return " ".join(s.text.strip() for s in self.spans if s.text.strip())

    @property
    def monospace(self) -> bool:
        """Every span with visible text is monospaced (a line of blanks counts as monospaced)."""
        return all(s.monospace for s in self.spans if not s.text.isspace())

    @property
    def raised_start(self) -> bool:
        """The line opens with a footnote mark: a superscript span, or a first span set higher
        and at most 0.8 of the size of the second."""
        if not self.spans:
            return False
        first = self.spans[0]
        if first.superscript:
            return True
        return (
            len(self.spans) > 1
            and first.origin[1] < self.spans[1].origin[1]
            and first.size <= self.spans[1].size * 0.8
        )


@dataclass(frozen=True)
class Block:
    """One region of a page (module docstring). ``level``: heading level 1-6 (title and
    section-header blocks), None until decided; ``settled``: a processor set ``level`` from
    the levels of the document's other headings, and the heading stage keeps it; ``depth``: a
    list item's nesting (1 = top); ``layer``: None until decided; ``evidence``: why a stage
    decided what it did."""

    page: int
    bbox: Box
    kind: Kind
    lines: tuple[Line, ...] = ()
    table: str | None = None
    level: int | None = None
    depth: int = 0
    layer: Layer | None = None
    evidence: tuple[str, ...] = ()
    settled: bool = False

    @property
    def text(self) -> str:
        return " ".join(line.text.strip() for line in self.lines).strip()

    @property
    def shown(self) -> str:
        """The block's text as a heading or paragraph renders it (`render`): the text of each
        span, stripped, joined by one blank. A PDF may space words by position alone, its spans
        holding no blank ("For", "the", "years"), where `text` glues them ("Fortheyears")."""
        return " ".join(shown for shown in (line.shown for line in self.lines) if shown)

    @property
    def size(self) -> int:
        """The largest span size, rounded to whole points (the heading size scale)."""
        return max((round(s.size) for line in self.lines for s in line.spans), default=0)

    @property
    def is_heading(self) -> bool:
        return self.kind in HEADING_KINDS


def as_box(value: Sequence[Any]) -> Box:
    """The first four numbers of `value` (a PyMuPDF rect or bbox) as a `Box`."""
    x0, y0, x1, y1 = (float(v) for v in tuple(value)[:4])
    return (x0, y0, x1, y1)


def layout_box(box: Any) -> Box:
    """A layout box's rectangle (pymupdf4llm's ``LayoutBox``: ``x0``, ``y0``, ``x1``, ``y1``) as
    a `Box`."""
    return as_box((box.x0, box.y0, box.x1, box.y1))


def box_area(box: Box) -> float:
    """The area of `box` (0.0 for an empty or inverted box)."""
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _lines(textlines: Sequence[Mapping[str, Any]] | None) -> tuple[Line, ...]:
    return tuple(
        Line(as_box(line["bbox"]), tuple(Span.of(s) for s in line.get("spans", ())))
        for line in textlines or ()
    )


def _kind(boxclass: str, lines: tuple[Line, ...], ocr: bool) -> Kind:
    """The model's class; a text-like box of monospaced lines not opening with a footnote mark
    is code (not on an OCR page); an unknown class is text (it renders as text)."""
    if boxclass not in KINDS or boxclass == "code":
        boxclass = "text"
    if boxclass == "text" and lines and not ocr and not lines[0].raised_start:
        if all(line.monospace for line in lines):
            return "code"
    return boxclass  # type: ignore[return-value]


def _table(box: Any, ocr: bool) -> str:
    """The table's rendered grid: its HTML when the parser made one, else its Markdown
    (backticks dropped on an OCR page)."""
    table = getattr(box, "table", None) or {}
    if table.get("html"):
        return str(table["html"])
    markdown = str(table.get("markdown") or "")
    return markdown.replace("`", "") if ocr else markdown


def page_blocks(page: Any, depths: Mapping[int, int]) -> tuple[Block, ...]:
    """The blocks of pymupdf4llm's parsed page `page` (``PageLayout``: 1-based ``page_number``,
    ``boxes`` after the layout passes, ``full_ocred``), in the boxes' order; `depths` maps a
    list-item box's index to its nesting (pymupdf4llm's ``create_list_item_levels``)."""
    blocks = []
    for index, box in enumerate(page.boxes):
        lines = _lines(getattr(box, "textlines", None))
        ocr = bool(page.full_ocred)
        kind: Kind = "table" if box.boxclass == "table" else _kind(str(box.boxclass), lines, ocr)
        blocks.append(
            Block(
                page=int(page.page_number),
                bbox=layout_box(box),
                kind=kind,
                lines=() if kind == "table" else lines,
                table=_table(box, ocr) if kind == "table" else None,
                level=int(box.header_level or 0) or None if kind in HEADING_KINDS else None,
                depth=depths.get(index, 0),
            )
        )
    return tuple(blocks)
