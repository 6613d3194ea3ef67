"""A printed contents list read as the outline (`conversion.printedcontents`): built text layers
for the rules, real PDFs for the whole reading."""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from citechunk.conversion.outline import OutlineEntry
from citechunk.conversion.printedcontents import printed_outline
from citechunk.conversion.textlayer import Line, PageText, TextLayer
from conftest import wide_pdf

Row = tuple[float, str, float, bool]  # left edge, text, size, bold


def _page(number: int, rows: Sequence[Row]) -> PageText:
    lines = tuple(
        Line(text, (left, 40.0 + 14 * i, left + 300, 50.0 + 14 * i), i, size, bold)
        for i, (left, text, size, bold) in enumerate(rows)
    )
    return PageText(number, (), lines, 800.0)


def _body(number: int, *titles: str) -> PageText:
    return _page(number, [(72, t, 11, False) for t in (*titles, "Some text of the section.")])


def _outline(pages: Sequence[PageText]) -> list[tuple[int, str, int]]:
    layer = TextLayer.from_pages(pages)
    found = printed_outline(layer, [p.number for p in pages])
    return [(e.level, e.title, e.page) for e in found]


CONTENTS = [
    (72, "Contents", 20, True),
    (72, "1 Introduction .......... 1", 11, True),
    (84, "1.1 Scope .......... 1", 11, False),
    (84, "1.2 Terms and definitions", 11, False),
    (84, "used in this guide .......... 2", 11, False),
    (72, "2 Installation .......... 3", 11, True),
    (72, "Glossary .......... 4", 11, True),
]


def _document(offset: int) -> list[PageText]:
    """A cover, the contents page, then printed page n on PDF page n + offset."""
    body = {
        1: ("1 Introduction", "1.1 Scope"),
        2: ("1.2 Terms and definitions used in this guide",),
        3: ("2 Installation",),
        4: ("Glossary",),
    }
    pages = [_page(1, [(72, "A Guide", 24, True)]), _page(2, CONTENTS)]
    return pages + [_body(n + offset, *titles) for n, titles in body.items()]


def test_entries_take_levels_from_indents_and_pages_from_the_printed_offset() -> None:
    assert _outline(_document(offset=2)) == [
        (1, "1 Introduction", 3),
        (2, "1.1 Scope", 3),
        (2, "1.2 Terms and definitions used in this guide", 4),
        (1, "2 Installation", 5),
        (1, "Glossary", 6),
    ]


def test_a_list_whose_titles_its_pages_do_not_print_is_no_outline() -> None:
    pages = _document(offset=2)
    pages[2:] = [_body(p.number, "Another text") for p in pages[2:]]
    assert _outline(pages) == []


def test_without_a_contents_title_there_is_no_outline() -> None:
    pages = _document(offset=2)
    pages[1] = _page(2, [(72, "Summary", 20, True), *CONTENTS[1:]])
    assert _outline(pages) == []


def test_a_list_of_figures_ends_the_contents() -> None:
    pages = _document(offset=2)
    figures = [(72, "List of Figures", 20, True), (72, "Figure 1 Layout .......... 3", 11, False)]
    pages[1] = _page(2, [*CONTENTS, *figures])
    assert [title for _, title, _ in _outline(pages)][-1] == "Glossary"


def test_type_size_and_weight_rank_entries_at_one_indent() -> None:
    pages = _document(offset=2)
    flat = [(72, text.strip(), size, bold) for _, text, size, bold in CONTENTS]
    pages[1] = _page(2, flat)
    levels = [level for level, _, _ in _outline(pages)]
    assert levels == [1, 2, 2, 1, 1]


def test_a_thesis_contents_finds_its_unnumbered_bibliography() -> None:
    pdf = wide_pdf("tech_chemistry_phd_thesis_ostrowski.pdf")
    with pymupdf.open(pdf) as doc:
        found = printed_outline(TextLayer.of_document(doc), range(1, doc.page_count + 1))
    titles = [e.title for e in found]
    assert OutlineEntry(1, "Bibliography", found[titles.index("Bibliography")].page) in found
    assert [e.level for e in found if e.title.startswith("1.1 ")] == [2]
    assert all(e.page > 10 for e in found)


def test_a_pdf_with_bookmarks_reads_its_printed_list_alike() -> None:
    pdf = wide_pdf("tech_toulbar2_reference_manual_sphinx.pdf")
    with pymupdf.open(pdf) as doc:
        bookmarks = [(level, title, page) for level, title, page in doc.get_toc()]
        found = printed_outline(TextLayer.of_document(doc), range(1, doc.page_count + 1))
    printed = [(e.level, e.title, e.page) for e in found]
    assert len(printed) == len(bookmarks)
    assert [p[0] for p in printed] == [b[0] for b in bookmarks]
    assert sum(p[2] == b[2] for p, b in zip(printed, bookmarks, strict=True)) >= 0.9 * len(printed)


def test_entries_numbered_to_one_depth_are_peers_however_indented() -> None:
    pages = _document(offset=2)
    uneven = list(CONTENTS)
    uneven[3] = (100, "1.2 Terms and definitions", 11, False)  # indented deeper than 1.1
    uneven[4] = (100, "used in this guide .......... 2", 11, False)
    pages[1] = _page(2, uneven)
    assert [level for level, _, _ in _outline(pages)] == [1, 2, 2, 1, 1]
