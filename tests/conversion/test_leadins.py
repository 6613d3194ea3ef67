"""Processor `numbered-leadins`: a bold numbered clause title opening a paragraph is a heading
(conversion/processors/numbered_leadins.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import BOLD, Block, Line, Span
from citechunk.conversion.headings import level_headings
from citechunk.conversion.numbers import heading_number, next_in_pattern
from citechunk.conversion.processors.numbered_leadins import promote_numbered_leadins
from citechunk.conversion.render import render_page

Run = tuple[str, bool]  # (text, bold)


def _block(kind: str, *runs: Run, size: float = 10, top: float = 0) -> Block:
    spans = tuple(
        Span(
            text,
            size=size,
            flags=BOLD if bold else 0,
            bbox=(50 + 40 * i, top, 90 + 40 * i, top + 9),
        )
        for i, (text, bold) in enumerate(runs)
    )
    return Block(1, (50, top, 400, top + 9), kind, (Line((50, top, 400, top + 9), spans),))  # type: ignore[arg-type]


def _head(text: str, size: float = 14) -> Block:
    return _block("section-header", (text, True), size=size)


def _text(*runs: Run) -> Block:
    return _block("text", *runs)


def _markdown(*blocks: Block) -> str:
    """The blocks as one page after the processor and the heading stage."""
    out = level_headings(promote_numbered_leadins({1: blocks}))
    return render_page(out[1]).text.replace("**", "")


def test_leadins_in_a_document_numbered_that_way_become_headings() -> None:
    page = _markdown(
        _head("Terms of Service", 20),
        _head("5. Accounts"),
        _text(("Keep your password safe.", False)),
        _head("6. Fees and Taxes"),
        _text(("You pay the fees.", False)),
        _text(("7. App Stores.", True), ("You may get the app from a store.", False)),
        _text(("8. Indemnification.", True), ("You will defend us.", False)),
        _text(("1.", True), ("Preheat the oven.", False)),
    )
    assert page.endswith(
        "## 7. App Stores \n\nYou may get the app from a store. \n\n"
        "## 8. Indemnification \n\nYou will defend us. \n\n1. Preheat the oven. \n\n"
    )


def test_subclauses_go_below_the_heading_whose_number_prefixes_theirs() -> None:
    page = _markdown(
        _head("Version 3.2", 20),
        _head("1. Scope"),
        _text(("1.1 Purpose.", True), ("This covers.", False)),
        _text(("1.2 Terms:", True), ("These.", False)),
    )
    assert "### 1.1 Purpose \n\nThis covers. \n\n### 1.2 Terms \n\nThese." in page


def test_a_run_of_leadins_without_numbered_headings_nests_under_the_heading_before() -> None:
    clauses = [_text((f"{i}. Clause {i}.", True), (f"Text {i}.", False)) for i in range(1, 4)]
    page = _markdown(_head("Agreement", 20), *clauses)
    assert page.count("## ") == 3 and "## 3. Clause 3 \n\nText 3." in page
    assert _markdown(_head("Agreement", 20), clauses[0]).count("#") == 1  # one is no numbering


@pytest.mark.parametrize(
    "block",
    [
        _text(("7. App Stores.", True), ("text", False)),  # out of sequence after 5.
        _text(("5. Accounts", True), ("text", False)),  # repeats a heading: a running title
        _text(("6 Contents entry 12", True)),  # a contents line with its page
        _block("list-item", ("• 6. Listed.", True), ("item", False)),  # a bulleted list item
        _block("table", ("6. Cell.", True), ("x", False)),
    ],
)
def test_not_leadins(block: Block) -> None:
    pages = {1: (_head("4. Start"), _text(("x", False)), _head("5. Accounts"), block)}
    assert promote_numbered_leadins(pages) == pages


def test_a_bold_paragraph_alone_is_a_leadin_when_numbered_in_sequence() -> None:
    page = _markdown(
        _head("Item 1. Legal"), _text(("x", False)), _text(("Item 2. Unregistered Sales", True))
    )
    assert page.endswith("\n\n# Item 2. Unregistered Sales \n\n")
    running = _text(("2 Running Title", True))
    repeated = {1: (_head("1 Intro"), _text(("x", False)), running, running)}
    assert promote_numbered_leadins(repeated) == repeated


@pytest.mark.parametrize(
    ("prev", "title", "ok"),
    [
        (None, "1 A", True),
        (None, "2 A", False),
        ("6 A", "7 A", True),
        ("6 A", "8 A", False),
        ("1.4 A", "1.5 A", True),
        ("1.4 A", "2.1 A", True),  # a new parent opens at 1
        ("Item 1 A", "Item 1A B", True),
        ("Item 1A A", "Item 2 B", True),
        ("A.1 X", "B.1 Y", True),
    ],
)
def test_next_in_pattern(prev: str | None, title: str, ok: bool) -> None:
    before = heading_number(prev) if prev else None
    number = heading_number(title)
    assert number is not None
    assert next_in_pattern(before, number) is ok


def test_a_plain_number_with_a_bold_title_continues_the_numbered_headings() -> None:
    page = _markdown(
        _head("Services Agreement", 20),
        _head("2. Services"),
        _text(("x", False)),
        _head("3. Ownership Of Work"),
        _text(("y", False)),
        _block("list-item", ("4.", False), ("Payment.", True), ("The Client pays.", False)),
        _text(("5.", False), ("Term.", True), ("One year.", False)),
    )
    assert page.endswith("## 4. Payment \n\nThe Client pays. \n\n## 5. Term \n\nOne year. \n\n")


def test_a_numbered_list_with_bold_terms_stays_a_list() -> None:
    items = [
        _text((f"{n}.", False), (term, True), ("is fine.", False))
        for n, term in ((1, "Cost"), (2, "Speed"), (3, "Scale"))
    ]
    pages = {1: (_head("1 Scope"), _text(("x", False)), _head("2 Methods"), *items)}
    assert promote_numbered_leadins(pages) == pages  # 3. follows "2 Methods" but 2. was a list
    alone = {1: (_head("Notes"), *items)}
    assert promote_numbered_leadins(alone) == alone  # no numbered heading gives the level


def test_a_services_agreement_pdf_keeps_every_clause_a_section(tmp_path: Path) -> None:
    """Clauses 1-3 set as headings, 4-6 as a plain number and a bold run-in title."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "SERVICES AGREEMENT", fontsize=18, fontname="hebo")
    y = 110
    text = "The parties agree that this clause applies to all services under this agreement. "
    for n, title in enumerate(["Definitions", "Services", "Ownership", "Payment", "Term"], 1):
        if n <= 3:
            page.insert_text((72, y), f"{n}. {title}", fontsize=13, fontname="hebo")
            page.insert_textbox(pymupdf.Rect(72, y + 8, 540, y + 60), text * 2, fontsize=10)
        else:
            page.insert_text((72, y + 10), f"{n}.", fontsize=10, fontname="helv")
            page.insert_text((90, y + 10), f"{title}.", fontsize=10, fontname="hebo")
            page.insert_text((140, y + 10), text[:60], fontsize=10, fontname="helv")
            page.insert_text((72, y + 23), text[60:], fontsize=10, fontname="helv")
        y += 80
    path = tmp_path / "agreement.pdf"
    doc.save(path)
    titles = ["Definitions", "Services", "Ownership", "Payment", "Term"]
    heads = [ln for ln in convert(path).markdown.splitlines() if ln.startswith("## ")]
    assert heads == [f"## {n}. {t}" for n, t in enumerate(titles, 1)]
    off = ConvertOptions(skip_passes=("numbered-leadins",))
    assert len([ln for ln in convert(path, off).markdown.splitlines() if ln.startswith("## ")]) == 3
