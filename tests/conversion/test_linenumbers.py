"""Margin line numbers leave the text; numbers of the text and a table's index column stay."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citechunk.config import ConvertOptions
from citechunk.conversion import convert
from citechunk.conversion.repairs.linenumbers import remove_counted

SENTENCE = (
    "We agree with these statements and note that the approach described here extends the "
    "earlier work on retrieval in 12 ways that matter for practitioners who build such systems. "
)


def _numbered_manuscript(path: Path) -> None:
    """Three pages of prose whose lines are numbered in the left margin, 1 upwards."""
    words = (SENTENCE * 80).split()
    doc = pymupdf.open()
    number = 1
    for _ in range(3):
        page = doc.new_page()
        for y in range(80, 760, 14):
            line: list[str] = []
            while words and len(" ".join([*line, words[0]])) < 80:
                line.append(words.pop(0))
            page.insert_text((90, y), " ".join(line), fontsize=10, fontname="times-roman")
            page.insert_text((50, y), str(number), fontsize=8, fontname="helv")
            number += 1
    doc.save(path)


def test_margin_line_numbers_leave_the_text(tmp_path: Path) -> None:
    pdf = tmp_path / "manuscript.pdf"
    _numbered_manuscript(pdf)
    md = convert(pdf, ConvertOptions(backend="pymupdf")).markdown
    assert "here extends the earlier work on retrieval in 12 ways" in md
    body = "\n".join(ln for ln in md.splitlines() if not ln.startswith("<!--"))
    assert not any(ch.isdigit() for ch in body.replace("12 ways", ""))


def test_removal_follows_the_count_and_skips_tables() -> None:
    text = "|1|We|\n1 We found 2 cases 2 in all 3 sites and 4 more 4 here\n5"
    numbers = [(1, "We"), (2, "in"), (3, "sites"), (4, "here"), (5, "")]
    assert remove_counted(text, numbers) == (
        "|1|We|\nWe found 2 cases in all sites and 4 more here\n",
        5,
    )
