"""Processor `run-in-labels`: a paragraph opening with a bold upper-case label and a colon is a
section (conversion/processors/run_in_labels.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import BOLD, Block, Line, Span
from citechunk.conversion.processors.label_headings import is_label_title
from citechunk.conversion.processors.run_in_labels import promote_run_in_labels

TEXT = "The FAA must receive comments on this proposed airworthiness directive by May 1, 2025."


def _paragraph(*runs: tuple[str, bool], kind: str = "text") -> Block:
    spans = tuple(
        Span(text, size=10, flags=BOLD if bold else 0, bbox=(50 + 60 * i, 100, 110 + 60 * i, 110))
        for i, (text, bold) in enumerate(runs)
    )
    return Block(1, (50, 100, 400, 110), kind, (Line((50, 100, 400, 110), spans),))  # type: ignore[arg-type]


def test_a_caps_label_opening_a_paragraph_is_cut_off_as_a_heading_block() -> None:
    out = promote_run_in_labels({1: (_paragraph(("DATES:", True), (TEXT, False)),)})
    head, body = out[1]
    assert (head.kind, head.shown, head.level) == ("section-header", "DATES", None)
    assert (body.kind, body.shown) == ("text", TEXT)
    assert head.bbox[2] <= body.bbox[0] and "colon" in head.evidence[-1]
    apart = promote_run_in_labels({1: (_paragraph(("ADDRESSES", True), (": " + TEXT, False)),)})
    assert [b.shown for b in apart[1]] == ["ADDRESSES", TEXT]  # the colon after the bold


def test_other_bold_openings_stay_body_text() -> None:
    kept = [
        _paragraph(("Return type:", True), ("int", False)),  # mixed case
        _paragraph(("Note 1 to paragraph (g):", True), (TEXT, False)),
        _paragraph(("NOTE:", True), (TEXT, False), kind="list-item"),
        _paragraph(("FIGURE 1:", True), (TEXT, False), kind="caption"),
        _paragraph(("FIGURE 1.", True), (TEXT, False)),  # no colon
        _paragraph(("DATES:", True)),  # nothing after the label
        _paragraph(("Text then ", False), ("DATES:", True), (TEXT, False)),
    ]
    pages = {1: tuple(kept)}
    assert promote_run_in_labels(pages) == pages


def test_run_in_labels_of_a_notice_become_sibling_sections_below_its_heading(
    tmp_path: Path,
) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Proposed Rules", fontsize=20, fontname="hebo")
    page.insert_text((72, 110), "Airworthiness Directives", fontsize=14, fontname="hebo")
    y = 140
    for label in ("AGENCY", "ACTION", "DATES"):
        page.insert_text((72, y), f"{label}:", fontsize=10, fontname="hebo")
        page.insert_text((130, y), TEXT[:60], fontsize=10, fontname="helv")
        page.insert_text((72, y + 13), TEXT[60:] + " " + TEXT, fontsize=10, fontname="helv")
        y += 50
    page.insert_text((72, y), "Return type: int, a mixed-case label.", fontsize=10, fontname="hebo")
    path = tmp_path / "notice.pdf"
    doc.save(path)
    heads = [ln for ln in convert(path).markdown.splitlines() if ln.startswith("#")]
    assert heads[1:] == [
        "## Airworthiness Directives",
        "### AGENCY",
        "### ACTION",
        "### DATES",
    ]
    off = ConvertOptions(skip_passes=("run-in-labels",))
    assert [ln for ln in convert(path, off).markdown.splitlines() if ln.startswith("#")] == heads[
        :2
    ]


def test_mixed_case_labels_datelines_and_sentences_are_no_titles() -> None:
    """`processors.label_headings.is_label_title` (the block rule: test_processors)."""
    assert is_label_title("Parameters:") and not is_label_title("SUPPLEMENTARY INFORMATION:")
    for date in ("February 2024", "Thursday, August 6, 2020", "6 Aug. 2020", "June 2023"):
        assert is_label_title(date), date
    for kept in ("May 2024 results", "2024", "March of the penguins", "Class API"):
        assert not is_label_title(kept), kept
    sentence = "All comments are subject to release under the Freedom of Information Act (FOIA)."
    assert is_label_title(sentence)
    for kept in ("1. Introduction.", "Figure 3. The system.", "Dr. J. Smith"):
        assert not is_label_title(kept), kept
