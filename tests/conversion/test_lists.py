"""Processor `list-heads`: the first item of a bold-numbered list read as a heading
(conversion/processors/list_heads.py)."""

from __future__ import annotations

from citechunk.conversion.blocks import BOLD, Block, Line, Span
from citechunk.conversion.headings import level_headings
from citechunk.conversion.processors.list_heads import demote_list_heads
from citechunk.conversion.render import render_page


def _line(text: str, top: float, bold: bool = False, left: float = 60) -> Line:
    span = Span(text, size=10, flags=BOLD if bold else 0, bbox=(left, top, 400, top + 10))
    return Line((left, top, 400.0, top + 10), (span,))


def _block(kind: str, *lines: Line, page: int = 1) -> Block:
    top, bottom = lines[0].bbox[1], lines[-1].bbox[3]
    return Block(page, (50.0, top, 400.0, bottom), kind, lines, depth=1)  # type: ignore[arg-type]


def _figure(heading: str, items: tuple[Line, ...]) -> dict[int, tuple[Block, ...]]:
    return {
        1: (
            _block("section-header", _line("Strategy", 40, True)),
            _block("text", _line("Figure 1. Five Pillars of the Strategy", 60)),
            _block("section-header", _line(heading, 80, True)),
            _block("list-item", *items),
        ),
        2: (_block("section-header", _line("Opportunities", 40, True), page=2),),
    }


ITEMS = (
    _line("1.1: Establish requirements", 100, left=70),
    _line("2 Disrupt threat actors", 112, True, left=60),  # left of the line before: an item
    _line("2.1: Integrate activities", 124, left=70),
)


def test_first_item_of_a_bold_numbered_list_becomes_an_item_like_its_siblings() -> None:
    pages = _figure("1 Defend critical infrastructure", ITEMS)
    out = demote_list_heads(pages)
    item = out[1][2]
    assert (item.kind, item.depth, item.level) == ("list-item", 1, None)
    assert all(s.bold for line in item.lines for s in line.spans)
    assert out[1][:2] == pages[1][:2] and out[2] == pages[2]
    page = render_page(level_headings(out)[1]).text
    assert "- **1 Defend critical infrastructure**" in page
    assert page.count("\n#") == 0 and page.startswith("#")  # Strategy goes on over the figure


def test_numbered_sections_and_other_successors_stay_headings() -> None:
    kept = [
        _figure("1. Background", ITEMS),  # "2 " is not "2."
        _figure("1 Scope", tuple(_line(ln.text, ln.bbox[1], False, ln.bbox[0]) for ln in ITEMS)),
        _figure("2 Methods", ITEMS),  # not the next number
        _figure("1 Scope", ITEMS[1:2] + ITEMS[:1]),  # "2" opens the block, no item after
    ]
    for pages in kept[:3]:
        assert demote_list_heads(pages) == pages
    assert demote_list_heads(kept[3])[1][2].kind == "list-item"
    same_line = (_line("1.1: Establish requirements", 100), _line("2 Disrupt", 112, True))
    inside = _figure("1 Scope", same_line)  # "2" goes on the item, no item of its own
    assert demote_list_heads(inside) == inside
    apart = _figure("1 Scope", ITEMS)
    apart[1] = (*apart[1][:3], _block("section-header", _line("Next", 95, True)), apart[1][3])
    assert demote_list_heads(apart) == apart  # a heading before the successor
