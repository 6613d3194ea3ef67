"""Layout pass `read-once`: a text-layer span two overlapping boxes hold is read in the smaller."""

from __future__ import annotations

from typing import Any

from pymupdf4llm.helpers.document_layout import LayoutBox

from citechunk.conversion.boxspans import read_once


def _line(*spans: tuple[str, float, float, float]) -> dict[str, Any]:
    out = [{"text": t, "bbox": (x0, y, x1, y + 10)} for t, x0, x1, y in spans]
    return {
        "bbox": (min(s[1] for s in spans), spans[0][3], max(s[2] for s in spans), spans[0][3] + 10),
        "spans": out,
    }


def _box(cls: str, rect: tuple[float, float, float, float], *lines: dict[str, Any]) -> Any:
    return LayoutBox(*rect, cls, textlines=list(lines))


def test_the_smaller_box_keeps_the_spans_both_hold() -> None:
    """A box across two columns holds the right column's lines that a smaller box holds too."""
    wide = _box(
        "list-item",
        (60, 200, 513, 300),
        _line(
            ("documents based on the factor.", 60, 280, 210),
            ("11. The method of claim 10,", 300, 510, 210),
        ),
        _line(("4. The method of claim 1,", 60, 280, 225)),
        _line(("mined probability that the next", 300, 510, 240)),
    )
    right = _box(
        "text",
        (294, 205, 513, 255),
        _line(("11. The method of claim 10,", 300, 510, 210)),
        _line(("mined probability that the next", 300, 510, 240)),
    )
    out = read_once([wide, right])
    assert out == [wide, right]
    assert [[s["text"] for s in ln["spans"]] for ln in wide.textlines] == [
        ["documents based on the factor."],
        ["4. The method of claim 1,"],
    ]
    assert len(right.textlines) == 2


def test_a_box_emptied_goes_and_separate_boxes_stay() -> None:
    inner = _box("text", (100, 100, 200, 120), _line(("Results", 100, 180, 105)))
    outer = _box("section-header", (90, 95, 210, 125), _line(("Results", 100, 180, 105)))
    other = _box("text", (300, 100, 400, 120), _line(("Results", 300, 380, 105)))  # elsewhere
    out = read_once([outer, inner, other])
    assert out == [inner, other]
    assert other.textlines[0]["spans"][0]["text"] == "Results"


def test_spans_the_smaller_box_does_not_hold_stay() -> None:
    """A smaller box overlapping the larger one takes only the spans it holds itself."""
    big = _box(
        "text", (0, 0, 500, 100), _line(("alpha beta", 10, 200, 10)), _line(("gamma", 10, 80, 50))
    )
    small = _box("picture", (0, 40, 100, 60), _line(("delta", 150, 190, 45)))
    read_once([big, small])
    assert [s["text"] for ln in big.textlines for s in ln["spans"]] == ["alpha beta", "gamma"]
