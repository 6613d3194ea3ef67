"""The docling adapter of the layout rules (conversion/docling_layout.py): cells in and clusters
out, and stages known to citechunk's converter only, never to docling's process-wide factories.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.geometry import Block, GridCell, Kind, Rect, make_fragment, make_lines

pytest.importorskip("docling")

from docling.datamodel.base_models import InputFormat  # noqa: E402
from docling.datamodel.pipeline_options import ThreadedPdfPipelineOptions  # noqa: E402
from docling.document_converter import DocumentConverter, PdfFormatOption  # noqa: E402
from docling.models import factories  # noqa: E402
from docling.pipeline.standard_pdf_pipeline import StandardPdfPipeline  # noqa: E402
from docling_core.types.doc import BoundingBox, CoordOrigin, DocItemLabel  # noqa: E402
from docling_core.types.doc.page import BoundingRectangle, TextCell  # noqa: E402

from citechunk.conversion import docling_layout  # noqa: E402
from citechunk.conversion.docling import build_converter  # noqa: E402

pytestmark = pytest.mark.heavy

HEIGHT = 800.0


def cell(l: float, t: float, r: float, b: float, text: str) -> TextCell:  # noqa: E741
    """A docling text cell given in top-left coordinates, stored bottom-left as docling-parse
    stores them."""
    box = BoundingBox(l=l, t=HEIGHT - t, r=r, b=HEIGHT - b, coord_origin=CoordOrigin.BOTTOMLEFT)
    rect = BoundingRectangle.from_bounding_box(box)
    return TextCell(rect=rect, text=text, orig=text, from_ocr=False)


def test_docling_cells_become_words_with_top_left_boxes() -> None:
    (word,) = docling_layout.to_words([cell(50, 100, 90, 112, " Scope ")], HEIGHT)
    assert word.rect == Rect(50, 100, 90, 112)
    assert (word.text, word.font, word.size) == (" Scope ", "", 12.0)


def test_a_block_becomes_a_cluster_of_its_cells_and_code_keeps_its_lines() -> None:
    cells = [cell(50, 100, 150, 110, "x = 1"), cell(50, 112, 150, 122, "y = 2")]
    lines = make_lines(docling_layout.to_words(cells, HEIGHT), [])
    block = Block(tuple(make_fragment([ln]) for ln in lines), Kind.TEXT)
    text = docling_layout.to_cluster(3, block, cells)
    assert (text.id, text.label, text.cells) == (3, DocItemLabel.TEXT, cells)
    assert (text.bbox.l, text.bbox.t, text.bbox.r, text.bbox.b) == (50, 100, 150, 122)
    code = docling_layout.to_cluster(0, Block(block.fragments, Kind.CODE), cells)
    assert code.label == DocItemLabel.CODE and [c.text for c in code.cells] == ["x = 1\ny = 2"]
    assert {k.value for k in Kind} <= {label.value for label in DocItemLabel}


def test_grid_cells_become_table_cells_with_a_header_row() -> None:
    head = docling_layout.to_table_cell(GridCell(0, 2, Rect(1, 2, 3, 4), "Price"))
    body = docling_layout.to_table_cell(GridCell(1, 0, Rect(1, 2, 3, 4), "Apple"))
    assert (head.start_row_offset_idx, head.end_col_offset_idx, head.column_header) == (0, 3, True)
    assert (body.end_row_offset_idx, body.text, body.column_header) == (2, "Apple", False)


def test_the_copied_model_set_up_names_the_factory_getters_it_replaces() -> None:
    def uses_nothing() -> int:
        return 1

    with pytest.raises(RuntimeError, match="no longer uses"):
        docling_layout._with_globals(uses_nothing, get_layout_factory=object())  # type: ignore[arg-type]


def test_citechunks_converter_runs_its_own_stages(sample_pdfs: Path) -> None:
    converter = build_converter(ConvertOptions(backend="docling"))
    pipeline = converter._get_pipeline(InputFormat.PDF)
    assert isinstance(pipeline, docling_layout.CitechunkPdfPipeline)
    assert isinstance(pipeline.layout_model, docling_layout.OfflineLayoutModel)
    assert isinstance(pipeline.table_model, docling_layout.GridTableModel)


def test_a_plain_docling_converter_after_ours_keeps_doclings_own_stages(
    sample_pdfs: Path,
) -> None:
    """A host application's own converters, made after citechunk's, see docling's factories:
    docling's default TableFormer options and plugin list, and no citechunk layout kind."""
    doc = convert(sample_pdfs / "report_outline.pdf", ConvertOptions(backend="docling"))
    assert "|Currency|Forecast exposure|" in doc.markdown  # citechunk's table stage ran here
    option = DocumentConverter().format_to_options[InputFormat.PDF]
    assert option.pipeline_cls is StandardPdfPipeline
    assert option.pipeline_options is not None
    assert option.pipeline_options.table_structure_options.kind == "docling_tableformer"
    scope = StandardPdfPipeline._init_models.__globals__
    assert scope["get_table_structure_factory"] is factories.get_table_structure_factory
    assert scope["get_layout_factory"] is factories.get_layout_factory
    for external in (False, True):
        layouts = factories.get_layout_factory(allow_external_plugins=external).classes
        assert docling_layout.OfflineLayoutModel not in layouts.values()
    try:
        tables = factories.get_table_structure_factory().classes
    except ModuleNotFoundError as exc:  # docling's own plugin list imports torchvision
        assert exc.name == "torchvision"
    else:
        assert type(option.pipeline_options.table_structure_options) in tables
        assert docling_layout.GridTableModel not in tables.values()
    ours = ThreadedPdfPipelineOptions(
        do_ocr=False, layout_options=docling_layout.OfflineLayoutOptions()
    )
    plain = DocumentConverter(
        format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=ours)}
    )
    with pytest.raises(
        RuntimeError, match="No class found with the name 'citechunk_offline_layout'"
    ):
        plain.initialize_pipeline(InputFormat.PDF)
