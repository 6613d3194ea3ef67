"""`docling_blocks` rules on hand-built blocks (no docling needed)."""

from __future__ import annotations

from blockkit import row, text_line

from citechunk.conversion.blocks import Block, Line
from citechunk.conversion.docling_blocks import split_list_item


def _line(x0: float, y0: float, text: str) -> Line:
    return text_line(text, row(y0, 12, x0, 500), 12)


def test_lines_left_of_the_bullet_are_a_paragraph_after_the_item() -> None:
    item = Block(
        1,
        (90.0, 100.0, 500.0, 148.0),
        "list-item",
        (
            _line(90, 100, "- personal care products whose seal"),
            _line(100, 112, "has been broken."),
            _line(72, 124, "Faulty items can be returned at any time"),
            _line(72, 136, "within the warranty period."),
        ),
        depth=1,
    )
    head, rest = split_list_item(item)
    assert (head.kind, head.text) == (
        "list-item",
        "- personal care products whose seal has been broken.",
    )
    assert (rest.kind, rest.text) == (
        "text",
        "Faulty items can be returned at any time within the warranty period.",
    )
    assert rest.bbox == (72.0, 124.0, 500.0, 148.0) and head.bbox[3] == 124.0


def test_an_item_whose_lines_stay_under_its_bullet_is_kept_whole() -> None:
    item = Block(
        1, (90.0, 100.0, 500.0, 124.0), "list-item", (_line(90, 100, "- a"), _line(100, 112, "b"))
    )
    assert split_list_item(item) == (item,)
    text = Block(1, (72.0, 100.0, 500.0, 124.0), "text", (_line(90, 100, "a"), _line(72, 112, "b")))
    assert split_list_item(text) == (text,)
