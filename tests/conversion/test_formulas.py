"""A displayed formula renders as one paragraph, a line per band down the page; in a band its
stacks (a fraction, a sum's limits) left to right, each stack top to bottom."""

from __future__ import annotations

from blockkit import block, line

from citechunk.conversion.blocks import Span
from citechunk.conversion.render import block_markdown


def span(text: str, x0: float, y0: float, x1: float, y1: float) -> Span:
    return Span(text, size=10.0, bbox=(x0, y0, x1, y1))


def test_a_fraction_reads_where_it_stands_not_after_the_formula() -> None:
    main = line(span("P(z) =", 100, 100, 130, 112), span("1", 134, 100, 140, 112))
    main = line(*main.spans, span("⟨δ u⟩", 150, 104, 200, 116), span("(2.14)", 400, 104, 430, 116))
    under = line(span("ρ(z)", 130, 110, 146, 122))  # the denominator, set against the main line
    out = block_markdown(block("formula", main, under))
    assert out.strip() == "P(z) = 1 ρ(z) ⟨δ u⟩ (2.14)"


def test_a_stack_set_before_the_main_line_in_reading_order_goes_back_in_place() -> None:
    tail = line(span("2 r23 − r12", 120, 219, 190, 228), span("(3)", 283, 219, 295, 228))
    head = line(span("Qey =", 67, 212, 104, 232), span("1", 110, 212, 115, 222))
    head = line(*head.spans, span("6", 110, 226, 116, 235))
    out = block_markdown(block("formula", tail, head))
    assert out.strip() == "Qey = 1 6 2 r23 − r12 (3)"


def test_lines_below_a_gap_follow_in_order_and_markdown_syntax_is_escaped() -> None:
    first = line(span("- x ≤ 1", 50, 100, 150, 110), span("(4)", 280, 100, 295, 110))
    second = line(span("(see also Fig. 1.)", 50, 118, 120, 128))
    out = block_markdown(block("formula", first, second))
    assert out == "\n\n\\- x ≤ 1 (4)\n(see also Fig. 1.)\n\n"


def test_a_fraction_of_several_spans_keeps_its_numerator_and_denominator_whole() -> None:
    main = line(
        span("∆ I L =", 330, 270, 360, 282),
        span("V IN", 364, 270, 380, 282),
        span("×", 382, 270, 388, 282),
        span("D", 390, 270, 396, 282),
        span("(2)", 540, 276, 552, 288),
    )
    under = line(span("L", 362, 284, 366, 296), span("×", 368, 284, 374, 296))
    under = line(*under.spans, span("f SW", 376, 284, 398, 296))
    out = block_markdown(block("formula", main, under))
    assert out.strip() == "∆ I L = V IN × D L × f SW (2)"
