"""The stacked-headings processor: a heading block holding a second heading, or the first words
of its text, in a style of its own is cut in two."""

from __future__ import annotations

from blockkit import block, row, text_line

from citechunk.conversion.blocks import BOLD, Block, Line, Span
from citechunk.conversion.headings import level_headings
from citechunk.conversion.processors.stacked_headings import line_style, split_stacked_headings

BODY = "The survey recorded the staff on duty and the patients seen on every ward."


def _block(kind: str, top: float, *lines: tuple[str, float, bool]) -> Block:
    """A block of (text, size, bold) lines, one every 16 points from `top`."""
    return block(
        kind,
        *(
            text_line(text, row(top + 16 * i, size), size, BOLD if bold else 0)
            for i, (text, size, bold) in enumerate(lines)
        ),
    )


def _page(stacked: Block) -> dict[int, tuple[Block, ...]]:
    """One page: a 14 pt bold section, the stacked block, body text and a 12 pt bold heading
    standing alone (the style a second heading takes)."""
    return {
        1: (
            _block("section-header", 40, ("1 Introduction", 14, True)),
            _block("text", 70, (BODY, 10, False), (BODY, 10, False)),
            stacked,
            _block("text", 160, (BODY, 10, False)),
            _block("section-header", 200, ("2.2 Data collection", 12, True)),
            _block("text", 230, (BODY, 10, False)),
        )
    }


def _texts(pages: dict[int, tuple[Block, ...]]) -> list[tuple[str, str, int | None]]:
    return [(b.kind, b.text, b.level) for b in level_headings(pages)[1]]


def test_a_second_heading_in_a_heading_style_is_a_heading_of_its_own() -> None:
    stacked = _block("section-header", 120, ("2 Methods", 14, True), ("2.1 Setting", 12, True))
    out = _texts(split_stacked_headings(_page(stacked)))
    assert out[2:4] == [("section-header", "2 Methods", 1), ("section-header", "2.1 Setting", 2)]
    assert out[5] == ("section-header", "2.2 Data collection", 2)


def test_a_later_run_in_the_body_style_is_text() -> None:
    stacked = _block("section-header", 120, ("Class A shares", 10, True), ("Authorized", 10, False))
    out = split_stacked_headings(_page(stacked))[1]
    assert [(b.kind, b.text) for b in out[2:4]] == [
        ("section-header", "Class A shares"),
        ("text", "Authorized"),
    ]
    assert out[3].bbox[1] > out[2].bbox[3] - 1  # each part has its own lines' box
    assert "body style" in out[3].evidence[-1]


def test_other_heading_blocks_stay_whole() -> None:
    cases = (
        (("Annual Report", 14, True), ("Prepared for the members", 13, False)),  # no such style
        (("Results", 12, True), ("Chapter 3", 14, True)),  # the later run is larger
        (("4.", 14, True), ("Findings", 12, True)),  # a number set apart from its words
        (("Scope", 14, True), ("2.1 Setting", 12, True), ("Authorized", 10, False)),  # 3 runs
        (("Findings of the survey", 12, True), ("and what they mean", 12, True)),  # one style
        (("METHOD FOR NODE RANKING IN A", 14, True), ("LINKED DATABASE", 12, True)),  # goes on
    )
    for lines in cases:
        stacked = _block("section-header", 120, *lines)
        pages = _page(stacked)
        assert split_stacked_headings(pages) == pages, lines


def test_a_text_block_is_never_cut() -> None:
    block = _block("text", 120, ("Scope", 14, True), ("Authorized", 10, False))
    pages = _page(block)
    assert split_stacked_headings(pages) == pages


def test_line_style_reads_size_and_weight_of_the_shown_spans() -> None:
    line = Line((0, 0, 1, 1), (Span(" ", size=20), Span("Setting", size=11.6, flags=BOLD)))
    assert line_style(line) == (12, True)
    assert line_style(Line((0, 0, 1, 1), (Span("  ", size=9),))) is None
