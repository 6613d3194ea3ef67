"""Layout page-header/page-footer boxes: only lines that repeat on several pages are cut."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citechunk.conversion import convert

pytestmark = pytest.mark.heavy

TOPICS = ["budget", "staffing", "ethics", "schedule", "risks"]


def report_pdf(path: Path) -> Path:
    """Five pages with a running header and page numbers; page 3 opens with a one-off line
    in the header band instead of the running header."""
    doc = pymupdf.open()
    for number, topic in enumerate(TOPICS, 1):
        page = doc.new_page(width=595, height=842)
        top = "Part 3: Ethical Considerations" if number == 3 else "Northwind Grant Proposal 2025"
        page.insert_text((72, 40), top, fontsize=9, fontname="helv")
        body = (
            f"This section describes the {topic} of the project in enough words to be a real "
            f"paragraph of body text, so that the layout model sees a page of prose about {topic}."
        )
        page.insert_textbox((72, 120, 523, 400), body, fontsize=11, fontname="tiro")
        page.insert_text((290, 810), str(number), fontsize=9, fontname="helv")
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def markdown(tmp_path_factory: pytest.TempPathFactory) -> str:
    return convert(report_pdf(tmp_path_factory.mktemp("running") / "proposal.pdf")).markdown


def test_a_line_found_once_in_the_header_band_stays(markdown: str) -> None:
    assert markdown.count("Part 3: Ethical Considerations") == 1


def test_lines_repeated_on_several_pages_go(markdown: str) -> None:
    assert "Northwind Grant Proposal" not in markdown
    assert all(topic in markdown for topic in TOPICS)
