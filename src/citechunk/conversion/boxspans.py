"""Each text-layer span is read in one layout box (`read_once`, layout pass ``read-once``).

The layout model's boxes may overlap: a box spanning two columns around a smaller box inside
one of them, both holding the smaller box's lines. pymupdf4llm reads every box's lines from
the whole page, so those lines were written twice. The rule: a span whose centre lies inside a
smaller overlapping box also holds is that box's, and the larger box loses it (a line left
without spans goes, and a box left without lines). Boxes without lines of text (tables,
pictures without text) neither give nor take spans.
"""

from __future__ import annotations

from typing import Any

from .blocks import box_area, layout_box


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _centre_in(span: dict[str, Any], other: dict[str, Any]) -> bool:
    x0, y0, x1, y1 = tuple(span["bbox"])
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ox0, oy0, ox1, oy1 = tuple(other["bbox"])
    return ox0 <= cx <= ox1 and oy0 <= cy <= oy1


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two spans of two boxes are one text-layer span: one's centre inside the other and one's
    text inside the other's (the boxes may have joined different neighbours to it)."""
    ta, tb = a["text"].strip(), b["text"].strip()
    if not ta or not tb or (ta not in tb and tb not in ta):
        return False
    return _centre_in(a, b) or _centre_in(b, a)


def _spans(box: Any) -> list[dict[str, Any]]:
    return [s for line in box.textlines for s in line["spans"]]


def read_once(boxes: list[Any]) -> list[Any]:
    """A text-layer span that a smaller overlapping box also holds is read in that box only; a
    box left without lines goes (module docstring; boxes are edited in place)."""
    texts = [b for b in boxes if getattr(b, "textlines", None)]
    emptied: set[int] = set()
    for box in texts:
        rect = layout_box(box)
        held = [
            s
            for o in texts
            if o is not box
            and box_area(layout_box(o)) < box_area(rect)
            and _overlap(layout_box(o), rect)
            for s in _spans(o)
        ]
        if not held:
            continue
        lines = []
        for line in box.textlines:
            spans = [s for s in line["spans"] if not any(_same(s, t) for t in held)]
            if len(spans) == len(line["spans"]):
                lines.append(line)
            elif spans:
                lines.append({**line, "spans": spans})
        if not lines:
            emptied.add(id(box))
        box.textlines = lines
    return [b for b in boxes if id(b) not in emptied]
