"""docling stages without model weights, scoped to citechunk's own converter.

docling's standard PDF pipeline needs a layout stage that labels page regions (heading, text,
list item, table, ...) and a table-structure stage. Its own are neural models whose weights
come from the Hugging Face hub, and its default table plugin list imports torchvision at module
top. This module adapts the weight-free rules of `geometry` to docling:

* `OfflineLayoutModel` (a `BaseLayoutModel`) turns docling-parse's text lines and words into
  `geometry` types, groups them with `geometry.page_blocks` and hands the blocks back as
  clusters. Everything after it is docling's own pipeline (page assembly, reading order,
  heading hierarchy, provenance).
* `GridTableModel` (a `BaseTableStructureModel`) fills in table clusters from
  `geometry.grid_cells`.
* `CitechunkPdfPipeline` is docling's `StandardPdfPipeline` whose model set-up reads its layout
  and table-structure factories from this module (`layout_factory`, `table_factory`) instead
  of docling's process-wide ones. Only a converter given this class (``pipeline_cls``) uses
  the two stages; docling's factories and any other `DocumentConverter` in the process are
  left as they are.

Invariants of the clusters emitted by `OfflineLayoutModel`:
- every non-blank text cell of the page is in exactly one cluster;
- bounding boxes are top-left origin and enclose their cells;
- labels are SECTION_HEADER, LIST_ITEM, TEXT, CODE, TABLE, PAGE_HEADER or PAGE_FOOTER.

This module touches docling internals (factories, `StandardPdfPipeline._init_models`,
`Cluster`, `Table`): docling-slim is pinned.
"""

from __future__ import annotations

import logging
import threading
import types
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar, cast

from docling.datamodel.base_models import (
    Cluster,
    LayoutPrediction,
    Page,
    Table,
    TableStructurePrediction,
)
from docling.datamodel.document import ConversionResult
from docling.datamodel.pipeline_options import BaseLayoutOptions, BaseTableStructureOptions
from docling.models.base_layout_model import BaseLayoutModel
from docling.models.base_table_model import BaseTableStructureModel
from docling.models.factories.layout_factory import LayoutFactory
from docling.models.factories.table_factory import TableStructureFactory
from docling.pipeline.standard_pdf_pipeline import StandardPdfPipeline
from docling_core.types.doc import BoundingBox, CoordOrigin, DocItemLabel, TableCell
from docling_core.types.doc.page import BoundingRectangle, TextCell

from . import geometry
from .geometry import Block, GridCell, Kind, PageContext, Rect, TextPiece

log = logging.getLogger(__name__)

LAYOUT_KIND = "citechunk_offline_layout"
TABLE_KIND = "citechunk_grid_table"


# ----------------------------------------------------------------------------- docling <-> geometry


def cell_rect(cell: TextCell, page_height: float) -> Rect:
    """The cell's bounding box, top-left origin."""
    bb = cell.rect.to_bounding_box().to_top_left_origin(page_height)
    return Rect(bb.l, bb.t, bb.r, bb.b)


def to_words(cells: Sequence[TextCell], page_height: float) -> list[TextPiece]:
    """docling-parse cells (lines or words) as `geometry.TextPiece`s, in the same order."""
    return [
        TextPiece(
            rect=cell_rect(c, page_height),
            text=c.text,
            font=getattr(c, "font_name", ""),
            size=c.rect.to_bounding_box().height,
        )
        for c in cells
    ]


def _bbox(rect: Rect) -> BoundingBox:
    return BoundingBox(l=rect.l, t=rect.t, r=rect.r, b=rect.b, coord_origin=CoordOrigin.TOPLEFT)


def to_cluster(index: int, block: Block, cells: Sequence[TextCell]) -> Cluster:
    """A docling cluster holding the text cells of `block` (`cells` are the page's lines)."""
    bbox = _bbox(block.rect)
    members = [cells[i] for i in block.indices]
    if block.kind == Kind.CODE:
        members = [_code_cell(block, members[0], bbox)]
    return Cluster(
        id=index, label=DocItemLabel(block.kind.value), bbox=bbox, confidence=1.0, cells=members
    )


def _code_cell(block: Block, first: TextCell, bbox: BoundingBox) -> TextCell:
    """The lines of a code block as one cell whose text keeps the line breaks (docling joins a
    cluster's cells with spaces, which would flatten code)."""
    text = "\n".join(f.text for f in block.fragments)
    rect = BoundingRectangle.from_bounding_box(bbox)
    return first.model_copy(update={"text": text, "orig": text, "rect": rect})


def to_table_cell(cell: GridCell) -> TableCell:
    """A docling table cell; the first row is the column header."""
    return TableCell(
        bbox=_bbox(cell.rect),
        start_row_offset_idx=cell.row,
        end_row_offset_idx=cell.row + 1,
        start_col_offset_idx=cell.col,
        end_col_offset_idx=cell.col + 1,
        text=cell.text,
        column_header=cell.row == 0,
    )


# ----------------------------------------------------------------------------- layout stage


class OfflineLayoutOptions(BaseLayoutOptions):
    """Options of `OfflineLayoutModel` (kind ``citechunk_offline_layout``)."""

    kind: ClassVar[str] = LAYOUT_KIND
    strip_headers_footers: bool = True


class OfflineLayoutModel(BaseLayoutModel):
    """docling layout stage without weights: clusters from `geometry.page_blocks`.

    The body text size is a running character-weighted histogram over the pages of the current
    document seen so far, so a title page does not set the scale alone. Pages must arrive in
    page order for the output to be reproducible (the backend uses one parser thread).
    Clusters are final: docling's layout post-processor (tuned for model confidences) is skipped.
    """

    requires_layout_postprocessing = False

    def __init__(
        self,
        artifacts_path: Any,
        accelerator_options: Any,
        options: OfflineLayoutOptions,
        enable_remote_services: bool = False,
    ) -> None:
        self.options = options
        self._lock = threading.Lock()
        self._doc_key = ""
        self._sizes: Counter[float] = Counter()

    @classmethod
    def get_options_type(cls) -> type[OfflineLayoutOptions]:
        return OfflineLayoutOptions

    def _running_body_size(self, conv_res: ConversionResult, page_hist: Counter[float]) -> float:
        key = f"{id(conv_res)}:{conv_res.input.document_hash}"
        with self._lock:
            if key != self._doc_key:
                self._doc_key, self._sizes = key, Counter()
            self._sizes.update(page_hist)
            return geometry.body_size(self._sizes)

    def predict_layout(
        self, conv_res: ConversionResult, pages: Sequence[Page]
    ) -> Sequence[LayoutPrediction]:
        predictions: list[LayoutPrediction] = []
        for page in pages:
            if page.size is None or not page.cells:
                predictions.append(LayoutPrediction())
                continue
            height = page.size.height
            words = page.parsed_page.word_cells if page.parsed_page is not None else []
            lines = geometry.make_lines(to_words(page.cells, height), to_words(words, height))
            rows = geometry.fragment_rows(lines)
            page_hist = geometry.size_histogram([f for r in rows for f in r])
            ctx = PageContext(
                body_size=self._running_body_size(conv_res, page_hist),
                page_height=height,
                strip_headers_footers=self.options.strip_headers_footers,
            )
            blocks = geometry.page_blocks(rows, ctx)
            clusters = [to_cluster(i, b, page.cells) for i, b in enumerate(blocks)]
            predictions.append(LayoutPrediction(clusters=clusters))
        return predictions


# ----------------------------------------------------------------------------- table stage


class GridTableOptions(BaseTableStructureOptions):
    """Options of `GridTableModel` (kind ``citechunk_grid_table``)."""

    kind: ClassVar[str] = TABLE_KIND


def _otsl(cells: Sequence[TableCell], n_rows: int, n_cols: int) -> list[str]:
    filled = {(c.start_row_offset_idx, c.start_col_offset_idx) for c in cells}
    seq: list[str] = []
    for r in range(n_rows):
        seq.extend("fcel" if (r, c) in filled else "ecel" for c in range(n_cols))
        seq.append("nl")
    return seq


class GridTableModel(BaseTableStructureModel):
    """Table structure from cell geometry (`geometry.grid_cells`): rows by vertical overlap,
    columns by x-bands of the text lines or gutters between the words."""

    def __init__(
        self,
        enabled: bool,
        artifacts_path: Any,
        options: GridTableOptions,
        accelerator_options: Any,
        enable_remote_services: bool = False,
    ) -> None:
        self.enabled = enabled
        self.options = options

    @classmethod
    def get_options_type(cls) -> type[GridTableOptions]:
        return GridTableOptions

    def predict_tables(
        self, conv_res: ConversionResult, pages: Sequence[Page]
    ) -> Sequence[TableStructurePrediction]:
        out: list[TableStructurePrediction] = []
        for page in pages:
            pred = TableStructurePrediction()
            clusters = page.predictions.layout.clusters if page.predictions.layout else []
            for cluster in clusters:
                if cluster.label == DocItemLabel.TABLE and cluster.cells:
                    pred.table_map[cluster.id] = self._table(cluster, page)
            out.append(pred)
        return out

    @staticmethod
    def _table(cluster: Cluster, page: Page) -> Table:
        height = page.size.height if page.size is not None else 0.0
        box = cluster.bbox.to_top_left_origin(height)
        parsed = page.parsed_page.word_cells if page.parsed_page is not None else []
        words = [
            w for w in to_words(parsed, height) if w.text.strip() and _centre_inside(w.rect, box)
        ]
        rows = geometry.fragment_rows(geometry.make_lines(to_words(cluster.cells, height), []))
        word_rows = [
            [geometry.make_fragment([w]) for w in r]
            for r in geometry.group_rows(geometry.make_lines(words, []))
        ]
        cells = [to_table_cell(c) for c in geometry.grid_cells(rows, word_rows or rows)]
        n_rows = max(c.end_row_offset_idx for c in cells)
        n_cols = max(c.end_col_offset_idx for c in cells)
        return Table(
            label=cluster.label,
            id=cluster.id,
            page_no=page.page_no,
            cluster=cluster,
            text="",
            otsl_seq=_otsl(cells, n_rows, n_cols),
            num_rows=n_rows,
            num_cols=n_cols,
            table_cells=cells,
        )


def _centre_inside(rect: Rect, outer: BoundingBox) -> bool:
    x, y = (rect.l + rect.r) / 2, (rect.t + rect.b) / 2
    return outer.l <= x <= outer.r and outer.t <= y <= outer.b


# ----------------------------------------------------------------------------- pipeline


@cache
def layout_factory(allow_external_plugins: bool = False) -> LayoutFactory:
    """docling's layout engines (its plugins, as docling's own factory loads them) plus
    `OfflineLayoutModel`; a factory of citechunk's own, docling's stays unchanged."""
    factory = LayoutFactory()
    factory.load_from_plugins(allow_external_plugins=allow_external_plugins)
    factory.register(OfflineLayoutModel, "citechunk", __name__)
    return factory


@cache
def table_factory(allow_external_plugins: bool = False) -> TableStructureFactory:
    """A table-structure factory holding `GridTableModel` only (docling's default plugin list
    imports torchvision, and TableFormer's weights are not available offline either)."""
    factory = TableStructureFactory()
    factory.register(GridTableModel, "citechunk", __name__)
    return factory


def _with_globals(function: types.FunctionType, **names: Any) -> types.FunctionType:
    """A copy of `function` that reads `names` from a copy of its module's globals with those
    entries replaced: the module and the original function are left unchanged."""
    code = function.__code__
    missing = set(names) - set(code.co_names)
    if missing:
        raise RuntimeError(f"{function.__qualname__} no longer uses {sorted(missing)}")
    scope = {**function.__globals__, **names}
    copy = types.FunctionType(
        code, scope, function.__name__, function.__defaults__, function.__closure__
    )
    copy.__qualname__ = function.__qualname__
    return copy


class CitechunkPdfPipeline(StandardPdfPipeline):
    """docling's `StandardPdfPipeline` whose layout and table stages come from `layout_factory`
    and `table_factory`: docling's own model set-up (`_init_models`), run with those two
    factory getters in place of docling's module-level ones."""

    _init_models = _with_globals(
        cast(types.FunctionType, StandardPdfPipeline._init_models),
        get_layout_factory=layout_factory,
        get_table_structure_factory=table_factory,
    )
