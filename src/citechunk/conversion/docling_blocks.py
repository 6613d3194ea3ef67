"""Typed blocks (`blocks.Block`) read from a DoclingDocument: the docling backend's pages go
through the same heading stage (`headings.level_headings`) and renderer (`render.render_page`)
as the pymupdf layout path.

Each item docling placed (`iterate_items`: reading order, body and furniture, the items inside
a picture left to the picture) gives one block per page of its provenance:

* kind: the item's label ("section_header" -> "section-header"; "paragraph" and "reference"
  are "text", "chart" a "picture", "document_index" a "table"; an unknown label is "text");
* layer: furniture for docling's furniture layer and for page headers and footers (not
  rendered), else body;
* box: the provenance box, turned to the top-left origin blocks use;
* lines: the text lines docling's layout stage put in the item's cluster on that page (the
  page's cluster whose box is the provenance box), their text as docling-parse read the line,
  cut into spans of one style read from the font names of its words (bold, italic,
  monospaced; a code item's lines are monospaced and keep their spacing). An item whose cluster is not there (a
  document built elsewhere) has one line, its text part on that page (``prov.charspan``);
* depth: a list item's nesting, the list groups above it in the item tree; a list item's
  lines from the first that starts left of its bullet on are a paragraph after the list
  (`split_list_item`);
* table: the item's grid as a pipe table (`tables.grid.render`, as the table rule writes one),
  on the first page of its provenance.

Heading levels are left to `headings.level_headings` (docling's own hierarchy is not read), so
both backends level headings by one rule. This module does not import docling.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from .blocks import (
    BOLD,
    CHAR_FILLED,
    INDENT_SLACK,
    ITALIC,
    KINDS,
    MONOSPACED,
    Block,
    Box,
    Kind,
    Layer,
    Line,
    Span,
)
from .geometry import is_bold_font, is_italic_font, is_mono_font
from .layers import RUNNING_KINDS
from .tables.grid import Grid, render

_ALIASES = {"paragraph": "text", "reference": "text", "chart": "picture", "document_index": "table"}
_LISTS = frozenset({"list", "ordered_list"})
MIN_OVERLAP = 0.9  # share of the larger box two boxes must share to be one cluster's


@dataclass(frozen=True)
class Word:
    """A docling-parse word: top-left box, text, font name."""

    box: Box
    text: str
    font: str

    @property
    def flags(self) -> int:
        """The PyMuPDF span flags its font name implies."""
        return (
            BOLD * is_bold_font(self.font)
            | ITALIC * is_italic_font(self.font)
            | MONOSPACED * is_mono_font(self.font)
        )


@dataclass(frozen=True)
class ParsedPage:
    """What a docling run kept of one page: its clusters' boxes and text-line cells, its words
    sorted by the height of their centres."""

    clusters: tuple[tuple[Box, tuple[Any, ...]], ...]
    words: tuple[Word, ...]
    centres: tuple[float, ...]

    @classmethod
    def of(cls, page: Any) -> ParsedPage:
        """From a docling `Page` (assembled, its parsed page kept)."""
        height = page.size.height
        elements = page.assembled.elements if page.assembled else []
        clusters = tuple(
            (_top_left(e.cluster.bbox, height), tuple(e.cluster.cells)) for e in elements
        )
        parsed = page.parsed_page.word_cells if page.parsed_page else []
        words = sorted(
            (
                Word(_top_left(c.rect.to_bounding_box(), height), c.text, c.font_name)
                for c in parsed
            ),
            key=lambda w: (w.box[1] + w.box[3]) / 2,
        )
        return cls(clusters, tuple(words), tuple((w.box[1] + w.box[3]) / 2 for w in words))

    def cells(self, box: Box) -> tuple[Any, ...] | None:
        """The cells of the cluster whose box is `box` (None: no such cluster)."""
        for cluster, cells in self.clusters:
            if _overlap(cluster, box) >= MIN_OVERLAP:
                return cells
        return None

    def inside(self, box: Box) -> list[Word]:
        """The words whose centre lies in `box`, left to right."""
        lo, hi = bisect_left(self.centres, box[1]), bisect_right(self.centres, box[3])
        hits = [w for w in self.words[lo:hi] if box[0] <= (w.box[0] + w.box[2]) / 2 <= box[2]]
        return sorted(hits, key=lambda w: w.box[0])


def _top_left(bbox: Any, height: float) -> Box:
    b = bbox.to_top_left_origin(height)
    return (float(b.l), float(b.t), float(b.r), float(b.b))


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    area = max((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / area if area else 0.0


def _kind(label: str) -> Kind:
    name = _ALIASES.get(label, label.replace("_", "-"))
    return name if name in KINDS else "text"  # type: ignore[return-value]


def _span(text: str, font: str, flags: int, box: Box, line: int) -> Span:
    return Span(text, font, box[3] - box[1], flags, CHAR_FILLED, box, (box[0], box[3]), 0, line)


def _styled(tokens: Sequence[str], words: Sequence[Word], font: str) -> list[Word]:
    """Each token of a line's text with the font of the next word inside the line that reads
    the same (words of text set over the line are passed over), else of the token before."""
    out, at = [], 0
    for token in tokens:
        j = next((j for j in range(at, len(words)) if words[j].text == token), None)
        if j is not None:
            font, at = words[j].font, j + 1
        out.append(Word(words[j].box if j is not None else (0, 0, 0, 0), token, font))
    return out


def _text_line(cell: Any, height: float, page: ParsedPage, number: int) -> Line:
    """One text line: the cell's text, its spans the runs of its words in one style (style
    from docling-parse's words, `_styled`)."""
    box = _top_left(cell.rect.to_bounding_box(), height)
    words = _styled(cell.text.split(), page.inside(box), cell.font_name)
    spans = tuple(
        _span(" ".join(w.text for w in run), run[0].font, flags, box, number)
        for flags, group in groupby(words, key=lambda w: w.flags)
        for run in [list(group)]
    )
    return Line(box, spans)


def _code_lines(cells: Iterable[Any], height: float) -> tuple[Line, ...]:
    """A code item's lines, monospaced, each as printed (the layout stage gives a code block
    one cell whose text keeps its line breaks)."""
    out: list[Line] = []
    for cell in cells:
        box = _top_left(cell.rect.to_bounding_box(), height)
        for text in cell.text.split("\n"):
            out.append(Line(box, (_span(text, cell.font_name, MONOSPACED, box, len(out)),)))
    return tuple(out)


def _lines(
    item: Any, prov: Any, kind: Kind, height: float, page: ParsedPage | None
) -> tuple[Line, ...]:
    box = _top_left(prov.bbox, height)
    cells = page.cells(box) if page else None
    if cells is None:
        start, stop = prov.charspan
        text = str(getattr(item, "text", ""))[start:stop].strip()
        return (Line(box, (_span(text, "", 0, box, 0),)),) if text else ()
    if kind == "code":
        return _code_lines(cells, height)
    assert page is not None
    return tuple(_text_line(c, height, page, n) for n, c in enumerate(cells) if c.text.strip())


def _cell_text(text: str) -> list[str]:
    text = " ".join(text.split()).replace("|", "\\|")
    return [text] if text else []


def table_markdown(item: Any) -> str:
    """A table item's grid as a pipe table (empty when it has no rows)."""
    grid: Grid = [[_cell_text(c.text) for c in row] for row in item.data.grid]
    return render(grid) + "\n" if grid and any(grid) else ""


def _depth(item: Any, doc: Any) -> int:
    """The list groups above `item` in the document's tree."""
    depth, node = 0, item
    while getattr(node, "parent", None) is not None:
        node = node.parent.resolve(doc)
        depth += str(getattr(node.label, "value", node.label)) in _LISTS
    return depth


def document_blocks(doc: Any, parsed: Mapping[int, ParsedPage]) -> dict[int, tuple[Block, ...]]:
    """Page -> its blocks in reading order (module docstring); `parsed`: what the run kept of
    each page (`ParsedPage.of`), by page number."""
    from docling_core.types.doc import ContentLayer

    heights = {n: p.size.height for n, p in doc.pages.items()}
    out: dict[int, list[Block]] = {}
    layers = {ContentLayer.BODY, ContentLayer.FURNITURE}
    for item, _ in doc.iterate_items(included_content_layers=layers):
        kind = _kind(str(getattr(item.label, "value", item.label)))
        furniture = item.content_layer == ContentLayer.FURNITURE or kind in RUNNING_KINDS
        layer = Layer.FURNITURE if furniture else Layer.BODY
        depth = max(_depth(item, doc), 1) if kind == "list-item" else 0
        for n, prov in enumerate(getattr(item, "prov", None) or []):
            height = heights[prov.page_no]
            table = (table_markdown(item) if n == 0 else "") if kind == "table" else None
            lines = (
                ()
                if table is not None
                else _lines(item, prov, kind, height, parsed.get(prov.page_no))
            )
            bbox = _top_left(prov.bbox, height)
            block = Block(prov.page_no, bbox, kind, lines, table, depth=depth, layer=layer)
            out.setdefault(prov.page_no, []).extend(split_list_item(block))
    return {n: tuple(blocks) for n, blocks in out.items()}


def split_list_item(block: Block) -> tuple[Block, ...]:
    """A list item's lines from the first that starts left of its first line (its bullet or
    number) on are a paragraph after the list: a "text" block of their own."""
    lines = block.lines
    if block.kind != "list-item" or not lines:
        return (block,)
    left = lines[0].bbox[0] - INDENT_SLACK
    cut = next((i for i, line in enumerate(lines) if line.bbox[0] < left), None)
    if cut is None:
        return (block,)
    rest = lines[cut:]
    box = (
        min(ln.bbox[0] for ln in rest),
        rest[0].bbox[1],
        max(ln.bbox[2] for ln in rest),
        rest[-1].bbox[3],
    )
    head = replace(block, lines=lines[:cut], bbox=(*block.bbox[:3], lines[cut - 1].bbox[3]))
    return head, Block(block.page, box, "text", rest, layer=block.layer)


def parsed_pages(pages: Sequence[Any]) -> dict[int, ParsedPage]:
    """`ParsedPage.of` each docling `Page` that was assembled, by page number."""
    return {p.page_no: ParsedPage.of(p) for p in pages if p.size is not None}
