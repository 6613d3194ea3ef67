"""The layout model's fixed-shape sessions with the memory arena (conversion/layoutsessions.py),
on pymupdf-layout's own analyzer and a real sample page with a table: the arena is on where
the input shape is fixed, off for the graph network, and the layout read is the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

pytestmark = pytest.mark.heavy

pytest.importorskip("pymupdf.layout")


def _arena(session: Any) -> bool:
    return bool(session.get_session_options().enable_cpu_mem_arena)


def _layout(analyzer: Any, page: Any) -> list[tuple[Any, ...]]:
    groups = analyzer.predict(page, return_raw=True)
    return [
        (g["class_name"], tuple(g["group_bbox"][:4]), repr(g.get("table_cells"))) for g in groups
    ]


def test_fixed_shape_sessions_get_the_arena_and_read_the_same_layout(sample_pdfs: Path) -> None:
    from pymupdf.layout import DocumentLayoutAnalyzer

    from citechunk.conversion.layoutsessions import fixed_shape_slots, with_arena

    library = DocumentLayoutAnalyzer.get_model(feature_set_name="imf+rf")
    tuned = with_arena(DocumentLayoutAnalyzer.get_model(feature_set_name="imf+rf"))
    slots = {slot.name: slot for slot in fixed_shape_slots(tuned)}
    assert set(slots) == {"image CNN", "table grid"}  # the adapter still finds both
    assert all(_arena(getattr(s.owner, s.attribute)) for s in slots.values())
    assert not _arena(tuned._model.session)  # the graph network: input grows with the page
    assert not any(_arena(getattr(s.owner, s.attribute)) for s in fixed_shape_slots(library))
    with pymupdf.open(sample_pdfs / "report_outline.pdf") as doc:
        read = [(_layout(library, page), _layout(tuned, page)) for page in doc]
    assert any("table" in str(before) for before, _ in read)  # the table-grid CNN ran
    assert all(before == after for before, after in read)


def test_text_model_keeps_its_unused_image_cnn_as_built() -> None:
    """The text model loads the image CNN but never runs it: only its table grid is rebuilt."""
    from pymupdf.layout import DocumentLayoutAnalyzer

    from citechunk.conversion.layoutsessions import fixed_shape_slots, with_arena

    tuned = with_arena(DocumentLayoutAnalyzer.get_model(feature_set_name="rf"))
    assert [slot.name for slot in fixed_shape_slots(tuned)] == ["table grid"]
    assert not _arena(tuned._model.feature_extractor._session)
