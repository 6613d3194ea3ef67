"""Ruled grids the layout model did not call a table become tables (layout pass
`ruled-tables`), on a real PDF (`sample_pdfs/make_samples.py`, `ruled_checklist`: a two-column
checklist drawn with thin filled rules, and a form grid whose fields are empty) and on a
published audit whose ruled table the model reads as a picture."""

from __future__ import annotations

from typing import Any

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.tables.ruled import ruled_table_boxes
from conftest import load_make_samples, wide_pdf

samples = load_make_samples()

LEFT, RIGHT, _, TOP, HEIGHT = samples.CHECKLIST_GRID
BOTTOM = TOP + HEIGHT * len(samples.CHECKLIST_ROWS)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = samples.ruled_checklist(tmp_path_factory.mktemp("ruled"))
    return pymupdf.open(path)[0]


def box(x0: float, y0: float, x1: float, y1: float, kind: str, text: str = "") -> Any:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    lines = [{"bbox": (x0, y0, x1, y1), "spans": [{"text": text}]}] if text else None
    return LayoutBox(x0, y0, x1, y1, kind, textlines=lines)


def boxes_with(grid_box: Any) -> list[Any]:
    from_form = box(LEFT, samples.FORM_TOP, RIGHT, samples.FORM_TOP + 104, "text", "Name")
    return [box(72, 75, 192, 94, "section-header", "Audit findings"), grid_box, from_form]


def test_a_ruled_grid_read_as_a_picture_becomes_a_table_of_its_cells(page: Any) -> None:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    out = ruled_table_boxes(boxes_with(box(LEFT, TOP, RIGHT, BOTTOM, "picture")), page, LayoutBox)
    assert [b.boxclass for b in out] == ["section-header", "table", "text"]
    rows = out[1].table["markdown"].strip().split("\n")
    assert rows[:3] == [
        "|Criterion|Result|",
        "|---|---|",
        "|1.1 Text alternatives for images|No failure found|",
    ]
    assert len(rows) == len(samples.CHECKLIST_ROWS) + 1


def test_a_box_reaching_out_of_the_grid_or_a_form_of_empty_fields_stays(page: Any) -> None:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    reaching = box(LEFT, 100, RIGHT, BOTTOM, "text", "The findings per success criterion")
    kept = boxes_with(reaching)
    assert [b.boxclass for b in ruled_table_boxes(list(kept), page, LayoutBox)] == [
        "section-header",
        "text",
        "text",
    ]


def test_a_grid_the_model_called_a_table_is_left_to_the_table_rule(page: Any) -> None:
    from pymupdf4llm.helpers.document_layout import LayoutBox

    table = box(LEFT + 5, TOP + 9, RIGHT - 100, BOTTOM - 7, "table")
    table.table = {"markdown": "|Criterion|Result|\n|---|---|"}
    inner = box(LEFT + 5, TOP + 30, 300, TOP + 40, "text", "1.1 Text alternatives for images")
    out = ruled_table_boxes([table, inner], page, LayoutBox)
    assert out[0] is table and [b.boxclass for b in out] == ["table", "text"]


@pytest.mark.corpus
def test_an_audit_table_with_result_icons_is_a_table() -> None:
    pdf = wide_pdf("pub_nl_coronamelder_accessibility_audit.pdf")
    markdown = convert(pdf, ConvertOptions(pages="11")).markdown
    assert "|Succescriterium|Resultaat|" in markdown
    assert "|1.1.1: Niet-tekstuele content|Geen fout gevonden|" in markdown
