"""Block processors: heading rules over the whole document's blocks, before the levels are set."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from blockkit import block, line, one_line

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import BOLD, ITALIC, Block, Span
from citechunk.conversion.headings import level_headings
from citechunk.conversion.mdlines import heading_level, heading_text
from citechunk.conversion.processors import PROCESSORS, run
from citechunk.conversion.processors.aside_headings import is_aside
from citechunk.conversion.processors.label_headings import demote_label_headings
from citechunk.conversion.processors.peer_headings import promote_peer_headings
from citechunk.conversion.processors.running_titles import demote_running_titles
from citechunk.conversion.processors.sentence_headings import demote_sentence_headings
from citechunk.conversion.processors.table_labels import demote_table_labels
from citechunk.conversion.processors.table_titles import demote_table_titles
from citechunk.conversion.pymupdf import layout_installed
from citechunk.conversion.render import render_page


def _block(
    page: int, kind: str, text: str, top: float, size: float = 11, bold: bool = False
) -> Block:
    return one_line(kind, text, top, size, BOLD if bold else 0, page)


def _heading(page: int, text: str, top: float, size: float = 16, bold: bool = True) -> Block:
    return _block(page, "section-header", text, top, size, bold)


ORDER = ("running-titles", "table-titles", "table-labels", "label-headings", "sentence-headings")
BODY = "The notes explain the figures of the statements and the policies behind them."


def _report() -> dict[int, tuple[Block, ...]]:
    """Four pages; a running title at the top of pages 2-4 (after a page header on page 3),
    real sections below it."""
    running = "ACME CORP NOTES TO THE FINANCIAL STATEMENTS (Continued)"
    return {
        1: (_heading(1, "Annual Report", 60, 24), _block(1, "text", BODY, 120)),
        2: (
            _heading(2, running, 60),
            _heading(2, "Note 2 Revenue", 100),
            _block(2, "text", BODY, 130),
        ),
        3: (
            _block(3, "page-header", "Page 3", 20),
            _heading(3, running.replace(" (Continued)", ""), 60),
            _block(3, "text", BODY, 100),
        ),
        4: (
            _heading(4, running, 60),
            _heading(4, "Note 3 Leases", 100),
            _block(4, "text", BODY, 130),
        ),
    }


def test_a_heading_at_the_top_of_three_pages_becomes_bold_text_and_leaves_the_scale() -> None:
    out = demote_running_titles(_report())
    kinds = {n: [b.kind for b in blocks] for n, blocks in out.items()}
    assert kinds[2][0] == kinds[3][1] == kinds[4][0] == "text"
    assert kinds[2][1] == kinds[4][1] == "section-header"  # each note opens one page
    assert out[1][0].kind == "section-header" and "running title" in out[2][0].evidence[-1]
    assert render_page(out[2]).text.startswith("**ACME CORP NOTES")
    levels = [b.level for b in level_headings(out)[2] if b.is_heading]
    assert levels == [2]  # the running title's size took no place in the heading scale


def test_a_title_below_the_top_or_on_two_pages_stays_a_heading() -> None:
    low = {
        n: (*(_block(n, "text", BODY, 60 + 30 * k) for k in range(3)), _heading(n, "Summary", 200))
        for n in (1, 2, 3)
    }
    assert demote_running_titles(low) == low
    two = {n: (_heading(n, "Report", 60), _block(n, "text", BODY, 100)) for n in (1, 2)}
    assert demote_running_titles(two) == two


def test_a_sentence_piece_after_an_unfinished_sentence_becomes_plain_text() -> None:
    pages = {
        1: (
            _heading(1, "Search", 60),
            _block(1, "text", "The program reads the sequences from a", 100),
        ),
        2: (
            _block(2, "page-header", "Manual", 20),
            _heading(2, "flatfile) with the database name.", 60),
            _block(2, "text", "More text.", 100),
            _heading(2, "running the tool in batches", 140),
        ),
    }
    out = demote_sentence_headings(pages)
    piece = out[2][1]
    assert piece.kind == "text" and not any(s.bold for s in piece.lines[0].spans)
    assert "\n\nflatfile) with the database name. \n\n" in render_page(out[2]).text
    assert out[2][3].is_heading  # lower case, but after a finished sentence
    assert out[1] == pages[1]


def test_processors_run_in_order_skip_by_name_and_survive_a_failing_rule() -> None:
    pages = _report()
    names = [p.name for p in PROCESSORS]
    assert names == [
        "figure-tables",
        "stacked-headings",
        "running-titles",
        "repeated-titles",
        "navigation-entries",
        *ORDER[1:4],
        "sentence-headings",
        "aside-headings",
        "author-lines",
        "list-heads",
        "peer-headings",
        "run-in-labels",
        "quoted-items",
        "symbol-digits",
        "raised-marks",
        "glued-punctuation",
        "footnote-blocks",
        "footnotes-before-run-on",
        "numbered-leadins",
    ]
    assert run(pages, skip=("running-titles",)) == pages
    failures: list = []
    broken = {**pages, 1: (*pages[1], "not a block")}  # author-lines reads the first page only
    assert run(broken, failures=failures) == broken  # type: ignore[arg-type]
    assert {f.name for f in failures} == set(names)


def _table(page: int, top: float) -> Block:
    return Block(page, (50.0, top, 400.0, top + 40), "table", table="|a|b|\n|---|---|\n|1|2|")


def test_a_table_title_continued_on_the_next_page_becomes_text() -> None:
    pages = {
        1: (_heading(1, "Costs", 40), _heading(1, "ESTIMATED COSTS", 60), _table(1, 90)),
        2: (_block(2, "page-header", "Page 2", 10, bold=True), _heading(2, "Other", 40)),
        3: (_block(3, "text", "ESTIMATED COSTS—Continued", 40, bold=True), _table(3, 60)),
    }
    out = demote_table_titles(pages)
    assert [b.kind for b in out[1]] == ["section-header", "text", "table"]
    assert render_page(out[1][1:2]).text.strip() == "**ESTIMATED COSTS**"
    assert out[2] == pages[2] and out[3] == pages[3]
    alone = {1: pages[1][:2] + (_block(1, "text", BODY, 90),), 3: pages[3]}
    assert demote_table_titles(alone) == alone  # a title that opens no table stays


def test_units_periods_labels_and_figure_rows_are_no_headings() -> None:
    titles = (
        "(in thousands, except per share data)",
        "Year Ended December 31, 2022",
        "Parameters:",
        "February 2024",
        "Params 52B 47B 32B",
        "Revenue",
        "RISK FACTORS:",
    )
    pages = {1: tuple(_heading(1, t, 40 + 30 * k) for k, t in enumerate(titles))}
    out = demote_label_headings(demote_table_labels(pages))[1]
    assert [b.kind for b in out] == ["text"] * 5 + ["section-header"] * 2
    assert [any(s.bold for s in b.lines[0].spans) for b in out[:5]] == [True] * 4 + [False]
    assert all(b.evidence for b in out[:5]) and not any(b.evidence for b in out[5:])


def test_a_period_set_in_small_caps_is_judged_as_rendered() -> None:
    """Small capitals reach the blocks as one span per run of letters of one size, blanks
    stripped ("For", "the", "years"): the rules read the words the heading renders, not the
    glued "Fortheyearsended"."""
    words = ("For", "the", "years", "ended November 30")
    spans = tuple(Span(w, size=8, flags=BOLD, bbox=(50, 90, 400, 98)) for w in words)
    period = block("section-header", line(*spans))
    statement = _heading(1, "Statements of Comprehensive Income", 60)
    out = demote_table_labels({1: (statement, period)})[1]
    assert period.text != period.shown == "For the years ended November 30"
    assert [b.kind for b in out] == ["section-header", "text"]
    assert render_page(out[1:]).text.strip() == "**For the years ended November 30**"


SURVEY = (
    "The survey teams walked each transect at first light and recorded every plot they "
    "crossed, with the soil, the cover and the weather noted on the same sheet. "
)


def running_title_pdf(path: Path) -> Path:
    """Four pages under one 18 pt bold title at the top of each, a 14 pt section and two
    12 pt subsections on each page."""
    doc = pymupdf.open()
    for section in ("Methods", "Results", "Discussion", "Limits"):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 60), "Coastal Survey Annual Report", fontname="hebo", fontsize=18)
        page.insert_text((72, 110), section, fontname="hebo", fontsize=14)
        y = 140.0
        for sub in ("Dune plots", "Marsh plots"):
            page.insert_text((72, y), f"{sub} and {section.lower()}", fontname="hebo", fontsize=12)
            page.insert_textbox((72, y + 10, 520, y + 130), SURVEY * 3, fontsize=10)
            y += 150
    doc.save(path)
    return path


@pytest.mark.heavy
@pytest.mark.skipif(not layout_installed(), reason="pymupdf-layout not installed")
def test_a_running_title_takes_no_level_from_the_sections_below_it(tmp_path: Path) -> None:
    pdf = running_title_pdf(tmp_path / "survey.pdf")
    markdown = convert(pdf, ConvertOptions(layout="always")).markdown
    levels = {heading_text(ln): heading_level(ln) for ln in markdown.splitlines()}
    assert "Coastal Survey Annual Report" not in levels
    assert levels["Results"] == levels["Limits"] == 1
    assert levels["Dune plots and results"] == levels["Marsh plots and limits"] == 2


def test_the_same_title_lower_where_its_section_starts_stays_a_heading() -> None:
    pages = {
        n: (_heading(n, "DIRECTORS' REPORT", 28 if n > 1 else 52), _block(n, "text", BODY, 90))
        for n in (1, 2, 3, 4)
    }
    out = demote_running_titles(pages)
    assert [blocks[0].kind for blocks in out.values()] == ["section-header"] + ["text"] * 3


def _italic(page: int, text: str, top: float, kind: str = "text", size: float = 11) -> Block:
    return one_line(kind, text, top, size, ITALIC, page)


def test_a_numbered_label_set_like_three_headings_of_its_label_is_a_heading() -> None:
    """ "Article 4" read as text joins "Article 1-3" read as headings in the same italic type;
    a label in another style, a label with fewer peers and a sentence stay text."""
    pages = {
        n: (_italic(n, f"Article {n}", 60, "section-header"), _block(n, "text", BODY, 90))
        for n in (1, 2, 3)
    }
    pages[4] = (
        _italic(4, "Article 4", 60),
        _block(4, "text", "Article 5", 80),  # upright: not set like its peers
        _italic(4, "Section 2", 100),  # no heading "Section N" to be a peer of
        _italic(4, "Article 6 applies", 120),
    )
    out = promote_peer_headings(pages)
    assert [b.kind for b in out[4]] == ["section-header", "text", "text", "text"]
    assert out[4][0].evidence and out[4][0].level is None
    assert {n: out[n] for n in (1, 2, 3)} == {n: pages[n] for n in (1, 2, 3)}
    assert promote_peer_headings({n: pages[n] for n in (1, 2, 4)}) == {
        n: pages[n] for n in (1, 2, 4)
    }


def test_a_heading_that_is_one_bracketed_phrase_is_text() -> None:
    pages = {
        1: (
            _heading(1, "Regulation on data protection", 60, 24),
            _heading(1, "(Text with EEA relevance)", 100),
            _block(1, "text", BODY, 140),
            _heading(1, "(a) Scope and definitions", 200),
        )
    }
    out = run(pages)[1]
    assert [b.kind for b in out] == ["section-header", "text", "text", "section-header"]
    assert not out[1].lines[0].spans[0].bold and "a bracketed aside" in out[1].evidence
    assert is_aside("[Reserved]") and not is_aside("(a) Scope (b) Terms")
