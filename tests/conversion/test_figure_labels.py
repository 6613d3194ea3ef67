"""figure-labels: the text printed inside a figure (ticks, axis titles, legends, callouts)
leaves the body; a picture of longer lines, or the only content of its page, keeps its text."""

from __future__ import annotations

from pathlib import Path

import pytest
from blockkit import block, one_line, row, text_line

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.blocks import Block
from citechunk.conversion.processors.figure_labels import figure_labels, is_labels, label_boxes

WIDE = Path(__file__).resolve().parents[3] / "shared" / "eval" / "wide"
THESIS = WIDE / "tech_chemistry_phd_thesis_ostrowski.pdf"


def _picture(*texts: str, top: float = 300.0) -> Block:
    lines = [text_line(t, row(top + 12 * i, 10)) for i, t in enumerate(texts)]
    return block("picture", *lines)


CHART = ("$24", "$20", "$16", "Nov-05", "Nov-06", "Net asset value per unit")
ALGORITHM = (
    "Compute the approximate makespan with the dual approximation algorithm.",
    "for each interval of the schedule do",
    "select the jobs that fit in the interval and run them",
    "end for",
)


def test_a_chart_s_labels_leave_the_page_and_its_prose_stays() -> None:
    text = one_line("text", "The chart below shows the value per unit.", 100.0)
    chart = _picture(*CHART)
    out = figure_labels({1: (text, chart)})[1]
    assert out[0] is text
    assert out[1].kind == "picture" and out[1].lines == ()
    assert label_boxes({1: out}) == {1: (chart.bbox,)}


def test_a_picture_of_long_lines_keeps_them() -> None:
    text = one_line("text", "The algorithm is given below.", 100.0)
    algorithm = _picture(*ALGORITHM)
    assert not is_labels(algorithm)
    out = figure_labels({1: (text, algorithm)})
    assert out[1][1] is algorithm
    assert label_boxes(out) == {}


def test_a_picture_that_is_the_page_s_only_text_keeps_it() -> None:
    slide = _picture("Header extraction", "Citation parsing", "Full text", "PDF to TEI")
    assert is_labels(slide)
    assert figure_labels({1: (slide,)})[1][0] is slide


@pytest.mark.skipif(not THESIS.exists(), reason="shared wide corpus not present")
def test_a_drawn_figure_s_labels_do_not_reach_the_markdown_nor_come_back() -> None:
    page = convert(THESIS, ConvertOptions(pages="58")).markdown
    assert "III III" not in page and "\nIII\n" not in page  # the figure's region labels
    assert "Figure 2.12: Volume of water" in page  # its caption stays
    assert "(2.21)" in page  # a displayed formula is no picture
