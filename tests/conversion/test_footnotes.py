"""A page's footnotes do not stand inside a paragraph running on to the next page (block rule
``footnotes-before-run-on``), on blocks and on a real PDF (`sample_pdfs/make_samples.py`,
`pasture_rights`: its first page ends inside a paragraph, its footnotes below it)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from blockkit import block, row, text_line

from citechunk.chunking import chunk_markdown
from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import SUPERSCRIPT, Block, Span
from citechunk.conversion.processors import NAMES
from citechunk.conversion.processors.footnotes import footnotes_before_run_on
from citechunk.conversion.pymupdf import layout_installed
from citechunk.conversion.repairs.sentences import runs_on
from citechunk.conversion.repairs.tidy import attach_footnotes
from citechunk.markers import page_bodies

RUNS_ON = "The council weighed the fee, which would favour the richer households over the"
GOES_ON = "poorer ones, who depend on the common for most of their fodder."


def _block(
    page: int, kind: str, text: str, top: float, size: float = 11.0, mark: str = ""
) -> Block:
    marks = (Span(mark, size=size * 0.6, flags=SUPERSCRIPT),) if mark else ()
    return block(kind, text_line(text, row(top, size), size, before=marks), page=page)


def _pages(
    note_kind: str, note_size: float, note_top: float, next_text: str
) -> dict[int, tuple[Block, ...]]:
    body = "Each remedy was costed by the clerk, and the council heard the figures in full."
    return {
        1: (
            _block(1, "text", body, 100),
            _block(1, "text", RUNS_ON, 600),
            _block(1, note_kind, "Minutes of the council.", note_top, note_size, mark="1"),
            _block(1, note_kind, "Survey of the common.", note_top + 12, note_size, mark="2"),
            _block(1, "page-footer", "Page 1", 800, 8),
        ),
        2: (_block(2, "text", next_text, 60), _block(2, "text", body, 120)),
    }


def _texts(blocks: tuple[Block, ...]) -> list[str]:
    return [b.text for b in blocks]


def test_model_footnotes_go_before_the_paragraph_running_on() -> None:
    pages = footnotes_before_run_on(_pages("footnote", 8, 700, GOES_ON))
    texts = _texts(pages[1])
    assert texts.index("1Minutes of the council.") < texts.index(RUNS_ON)
    assert texts.index("2Survey of the common.") < texts.index(RUNS_ON)
    assert texts[-2:] == [RUNS_ON, "Page 1"]  # the footer stays where it was
    assert all("footnote: set before" in b.evidence[-1] for b in pages[1][1:3])
    assert pages[2] == _pages("footnote", 8, 700, GOES_ON)[2]


def test_small_type_with_a_mark_below_the_body_is_a_footnote_without_the_model() -> None:
    pages = footnotes_before_run_on(_pages("text", 8, 700, GOES_ON))
    assert _texts(pages[1])[1:4] == ["1Minutes of the council.", "2Survey of the common.", RUNS_ON]


@pytest.mark.parametrize(
    ("kind", "size", "top", "following"),
    [
        ("footnote", 8, 700, "A new paragraph opens the next page."),  # the paragraph ended
        ("text", 11, 700, GOES_ON),  # body-size text is no footnote
        ("text", 8, 590, GOES_ON),  # small type beside the paragraph, not below it
    ],
)
def test_blocks_stay_in_order_unless_small_notes_interrupt_a_run_on(
    kind: str, size: float, top: float, following: str
) -> None:
    pages = _pages(kind, size, top, following)
    assert footnotes_before_run_on(pages) == pages


def test_the_rule_is_a_named_processor() -> None:
    assert "footnotes-before-run-on" in NAMES


def test_an_apostrophe_after_a_letter_leaves_the_sentence_open() -> None:
    assert runs_on("after taking over the guide following Mr Evans’", "retirement. The firm")
    assert not runs_on("the guide was his own.’", "retirement. The firm")


def test_a_footnote_cited_by_the_page_s_last_paragraph_stays_before_it() -> None:
    page = "First paragraph [2] of the page.\n\n1 Minutes of the council.\n\n2 Survey.\n\nIt runs [1] on"
    out = attach_footnotes(page).split("\n\n")
    assert out == [
        "First paragraph [2] of the page.",
        "2 Survey.",
        "1 Minutes of the council.",
        "It runs [1] on",
    ]


@pytest.fixture(scope="module")
def pasture(make_samples: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("footnotes")
    make_samples.generate(out, make_samples.FOOTNOTE_SAMPLES)
    return out / "pasture_rights.pdf"


LAYOUTS = [
    "never",
    pytest.param(
        "always", marks=pytest.mark.skipif(not layout_installed(), reason="no layout model")
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_real_pdf_paragraph_over_a_page_break_is_whole_and_its_footnotes_keep_their_page(
    pasture: Path, layout: str
) -> None:
    markdown = convert(pasture, ConvertOptions(backend="pymupdf", layout=layout)).markdown
    pages = {n: markdown[start:end] for start, end, n in page_bodies(markdown)}
    assert "Minutes of the council" in pages[1] and "Parish council, Survey" in pages[1]
    assert "Minutes of the council" not in pages[2]
    chunks = chunk_markdown(markdown)
    opening = "The households that let their units to outsiders"
    ending = "in each village during the following spring."
    whole = [c for c in chunks if opening in c.body and ending in c.body]
    assert whole, "the paragraph running over the page break is cut"
    assert (whole[0].first_page, whole[0].last_page) == (1, 2)
    paragraph = whole[0].body[whole[0].body.index(opening) :]
    assert "\n\n" not in paragraph[: paragraph.index(ending)]
