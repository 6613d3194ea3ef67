"""Subscript spans joined to their word (conversion/spans.py), rendered by pymupdf4llm's own
span renderer; the spans are laid out as pymupdf-layout gives them for TraceMonkey page 4."""

from __future__ import annotations

from typing import Any

from pymupdf4llm.helpers.document_layout import LayoutBox, get_styled_text

from citechunk.conversion.spans import join_subscripts

ITALIC, SUPERSCRIPT = 2, 1


def span(text: str, x0: float, x1: float, size: float = 9.0, flags: int = 4) -> dict[str, Any]:
    return {
        "text": text,
        "bbox": (x0, 73.8, x1, 81.9),
        "size": size,
        "flags": flags,
        "char_flags": 16,
        "block": 7,
        "line": 1,
    }


def render(spans: list[dict[str, Any]]) -> str:
    box = LayoutBox(
        60, 70, 400, 85, "text", textlines=[{"bbox": (60, 73.8, 400, 81.9), "spans": spans}]
    )
    (out,) = join_subscripts([box])
    return str(get_styled_text(out.textlines[0]["spans"])[0]).strip()


def test_a_subscript_touching_its_letter_joins_the_word() -> None:
    spans = [
        span("TraceMonkey calls", 80.3, 212.5),
        span(" T", 212.5, 219.9, flags=4 | ITALIC),
        span("16. Because", 219.87, 261.8, size=6.0),
        span("d", 415.9, 421.61, size=10.9),
        span("1", 421.6, 425.8, size=8.0),
    ]
    assert render([dict(s) for s in spans]) == "TraceMonkey calls _T16._ Because d1"
    # pymupdf4llm alone: a space before every span
    assert get_styled_text(spans)[0].strip() == "TraceMonkey calls _T_ 16. Because d 1"


def test_superscripts_gaps_and_same_size_spans_stay_apart() -> None:
    spans = [
        span("retrieval units", 307.3, 474.24),
        span("3", 474.23, 478.2, size=8.0, flags=4 | SUPERSCRIPT),  # a footnote mark
        span("and get", 480.9, 511.6),
        span("M", 514.0, 520.0, size=6.0),  # a small span after a blank: a word of its own
        span(".", 520.0, 522.0),  # touching but not smaller
    ]
    assert render(spans) == "retrieval units<sup>3</sup> and get M ."


def test_spans_too_small_to_read_are_dropped() -> None:
    from citechunk.conversion.spans import drop_unreadable

    tag = dict(span("_63ec26ac-c0c9", 500, 560, size=0.7), bbox=(500, 90, 560, 91.3))
    # a font size shrunk by the text matrix: small "size", readable box
    scaled = dict(span("Lift your shoulder", 60, 120, size=1.5), bbox=(60, 95, 120, 99.4))
    lines = [
        {"bbox": (60, 73.8, 400, 81.9), "spans": [span("Body text", 60, 120)]},
        {"bbox": (60, 95, 120, 99.4), "spans": [scaled]},
        {"bbox": (500, 90, 560, 91.3), "spans": [tag]},
    ]
    box = LayoutBox(60, 70, 560, 92, "text", textlines=lines)
    (out,) = drop_unreadable([box])
    texts = [s["text"] for line in out.textlines for s in line["spans"]]
    assert texts == ["Body text", "Lift your shoulder"]
