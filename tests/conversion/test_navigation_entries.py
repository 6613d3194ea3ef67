"""An entry of a contents list or an index is no section title (block rule
``navigation-entries``), on blocks and on a real PDF (a book's index, where the layout model
sets one entry, "nonempty 92", as a heading)."""

from __future__ import annotations

import pytest
from blockkit import block, row, text_line

from citechunk import ChunkOptions, chunk_markdown
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import Block
from citechunk.conversion.processors import NAMES
from citechunk.conversion.processors.navigation_entries import (
    demote_navigation_entries,
    is_navigation_title,
)
from conftest import wide_pdf

CONTENTS = [
    "1 Introduction .......... 3",
    "2 Scope of the rules .......... 5",
    "3 Definitions .......... 8",
    "4 Fees and charges .......... 11",
    "5 Appeals .......... 14",
]
PROSE = [
    "The council sets the fee each year after hearing the households that graze the common.",
    "A household that keeps more than six head of cattle pays the higher rate for the season.",
    "The clerk keeps the register of animals and reports it to the council every quarter.",
    "Disputes about the register go to the council's next meeting, which decides them.",
]


def _block(page: int, kind: str, lines: list[str], top: float = 100.0) -> Block:
    rows = (text_line(text, row(top + 14 * k, 11), boxed=False) for k, text in enumerate(lines))
    return block(kind, *rows, page=page, bbox=row(top, 14 * len(lines)))


def _kinds(pages: dict[int, tuple[Block, ...]]) -> dict[str, str]:
    return {b.shown: b.kind for blocks in pages.values() for b in blocks}


def test_an_entry_set_as_a_heading_on_a_contents_page_is_text() -> None:
    pages = {
        1: (
            _block(1, "section-header", ["Contents"], 60),
            _block(1, "text", CONTENTS[:2], 100),
            _block(1, "section-header", ["Part II Charges .......... 10"], 140),
            _block(1, "text", CONTENTS[2:], 160),
        ),
        2: (_block(2, "section-header", ["1 Introduction"], 60), _block(2, "text", PROSE)),
    }
    kinds = _kinds(demote_navigation_entries(pages))
    assert kinds["Part II Charges .......... 10"] == "text"
    assert kinds["1 Introduction"] == "section-header"


def test_an_index_entry_pages_after_the_index_title_is_text() -> None:
    index = [f"term {k}, {10 + k}, {40 + k}" for k in range(12)]
    pages = {
        1: (_block(1, "section-header", ["Index"], 60), _block(1, "text", index)),
        2: (_block(2, "text", index[:6]), _block(2, "section-header", ["nonempty 92"], 300)),
        3: (_block(3, "text", index[6:]),),
    }
    assert _kinds(demote_navigation_entries(pages))["nonempty 92"] == "text"


@pytest.mark.parametrize("heading", ["Article 12", "Appendix 2", "Results 2022", "What is it? 2"])
def test_a_heading_ending_in_a_number_on_a_page_of_prose_stays(heading: str) -> None:
    """Right after a contents page, a heading that ends in a number opens its section."""
    pages = {
        1: (_block(1, "section-header", ["Contents"], 60), _block(1, "text", CONTENTS)),
        2: (_block(2, "section-header", [heading], 60), _block(2, "text", PROSE)),
    }
    assert _kinds(demote_navigation_entries(pages))[heading] == "section-header"


def test_a_list_of_figures_without_a_navigation_title_keeps_its_heading() -> None:
    """Short lines ending in numbers make no list page unless a navigation title heads them."""
    rows = ["Members at the start 412", "Joined 57", "Left 33", "Members at the end 436"]
    pages = {
        1: (
            _block(1, "section-header", ["Membership"], 60),
            _block(1, "section-header", ["Results 2022"], 90),
            _block(1, "text", rows),
        )
    }
    assert _kinds(demote_navigation_entries(pages))["Results 2022"] == "section-header"


@pytest.mark.parametrize(
    "title", ["Contents", "TABLE OF CONTENTS", "Index", "Subject index:", "Inhaltsverzeichnis"]
)
def test_navigation_titles(title: str) -> None:
    assert is_navigation_title(title)


@pytest.mark.parametrize("title", ["Indexing", "Index funds", "Introduction", "Contents of a file"])
def test_not_navigation_titles(title: str) -> None:
    assert not is_navigation_title(title)


@pytest.mark.corpus
def test_a_book_index_entry_opens_no_section() -> None:
    """A programming book's index (pages 46-49 of the extract: "Index", then three pages of
    entries): the layout model sets the entry "nonempty 92" as a heading. It is an index line,
    and the chunks after it stay under "Index"; with the rule off it opens a section."""
    path = wide_pdf("tech_go_programming_language_ch1.pdf")
    assert "navigation-entries" in NAMES

    def read(skip: tuple[str, ...]) -> tuple[str, list[str], list[list[str]]]:
        markdown = convert(path, ConvertOptions(pages="46-49", skip_passes=skip)).markdown
        chunks = chunk_markdown(markdown, ChunkOptions())
        heads = [line for line in markdown.splitlines() if line.startswith("#")]
        return markdown, heads, [list(c.heading_path) for c in chunks]

    markdown, heads, paths = read(())
    assert "nonempty 92" in markdown
    assert not any("nonempty" in h for h in heads)
    assert all(path[-1:] == ["Index"] for path in paths if path)
    _, old_heads, old_paths = read(("navigation-entries",))
    assert any(h.endswith("nonempty 92") for h in old_heads)
    assert any(path[-1:] == ["nonempty 92"] for path in old_paths)
